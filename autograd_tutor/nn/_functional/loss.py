"""``F.mse_loss``, ``F.nll_loss``, ``F.cross_entropy``, ``F.binary_cross_entropy`` (with logits), ``F.l1_loss``,
``F.smooth_l1_loss``, ``F.huber_loss``, ``F.kl_div``, ``F.gaussian_nll_loss``, ``F.poisson_nll_loss``.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ...autograd.dtypes import kind_name
from ...autograd.factories import ones_like
from ...autograd.grad_mode import no_grad
from ...autograd.ops.activations import HuberLossBackward0
from ...autograd.ops.arithmetic import XlogyBackward0, xlogy_array
from ...autograd.ops.backward_formulas import AddBackward1
from ...autograd.ops.losses import (BinaryCrossEntropyBackward0, BinaryCrossEntropyWithLogitsBackward0, DivBackward1,
                                    MaskedFillBackward0, MseLossBackward0, MulBackward1, NllLoss2DBackward0,
                                    NllLossBackward0, REDUCTIONS, SmoothL1LossBackward0)
from ...autograd.tensor import _broadcast_shape, Tensor

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "l1_loss", "smooth_l1_loss", "mse_loss",
           "nll_loss", "cross_entropy", "huber_loss", "kl_div", "gaussian_nll_loss", "poisson_nll_loss"]


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    """-w (y log x + (1 - y) log(1 - x)) for probabilities x in [0, 1] and targets y (often 0 or 1), averaged.

    >>> import autograd_tutor as torch
    >>> binary_cross_entropy(torch.tensor([0.9, 0.2]), torch.tensor([1., 0.]))   # -(log 0.9 + log 0.8) / 2
    tensor(0.1643)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    enum = _reduction_enum(reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        shape = _broadcast_shape(tuple(target.shape), tuple(weight.shape))
        if shape != tuple(input.shape):
            raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        weight = weight.expand(*shape)
    return BinaryCrossEntropyBackward0.apply(input, target, weight=weight, reduction=enum)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross entropy of sigmoid(x), computed from the logits x without overflow; ``pos_weight``
    multiplies the loss of the positive targets (more weight on recall).

    >>> import autograd_tutor as torch
    >>> binary_cross_entropy_with_logits(torch.tensor([0.]), torch.tensor([1.]))   # -log(sigmoid(0)) = log 2
    tensor(0.6931)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    enum = _reduction_enum(reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    return BinaryCrossEntropyWithLogitsBackward0.apply(input, target, weight=weight, pos_weight=pos_weight,
                                                        reduction=enum)


def _broadcast_pair(input: Tensor, target: Tensor, size_average, reduce, reduction: str) -> tuple:
    """mse_loss, l1_loss and smooth_l1_loss: torch's size warning and legacy flags, then both expanded to one
    shape."""
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to broadcasting. Please "
                      "ensure they have the same size.", UserWarning, stacklevel=3)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    shape = _broadcast_shape(tuple(input.shape), tuple(target.shape))
    x = input if input.shape == shape else input.expand(*shape)
    y = target if target.shape == shape else target.expand(*shape)
    return x, y, reduction


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
            weight: Tensor | None = None) -> Tensor:
    """Mean absolute error: mean(|x - y|). torch builds it from ops: SubBackward0, AbsBackward0, then
    MeanBackward0 ('mean') or SumBackward0 ('sum'); d/dx |x - y| = sign(x - y).

    >>> import autograd_tutor as torch
    >>> l1_loss(torch.tensor([1., 5.]), torch.tensor([2., 2.]))
    tensor(2.)
    """
    x, y, reduction = _broadcast_pair(input, target, size_average, reduce, reduction)
    if weight is not None:
        return _weighted(lambda: (x - y).abs(), weight, input, reduction)
    enum = _reduction_enum(reduction)
    errors = (x - y).abs()
    return errors if enum == 0 else errors.sum() if enum == 2 else errors.mean()


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """Squared error / (2 beta) for |x - y| < beta, |x - y| - beta / 2 beyond (beta = 0 is the L1 loss).

    >>> import autograd_tutor as torch
    >>> smooth_l1_loss(torch.tensor([0.5, 3.]), torch.tensor([0., 0.]), reduction="none")
    tensor([0.1250, 2.5000])
    """
    x, y, reduction = _broadcast_pair(input, target, size_average, reduce, reduction)
    if beta == 0.0:
        return l1_loss(x, y, reduction=reduction)
    enum = _reduction_enum(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return SmoothL1LossBackward0.apply(x, y, reduction=enum, beta=float(beta))


def _legacy_reduction(size_average, reduce) -> str:
    """The ``reduction`` that the deprecated ``size_average`` / ``reduce`` flags meant."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
                  UserWarning, stacklevel=3)
    return ret


def _reduction_enum(reduction: str) -> int:
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return REDUCTIONS[reduction]


def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
             weight: Tensor | None = None) -> Tensor:
    """Mean squared error: mean((x - y)**2) ('mean'), its sum ('sum') or the squares themselves ('none').

    >>> import autograd_tutor as torch
    >>> mse_loss(torch.tensor([1., 2.]), torch.tensor([1., 4.]))
    tensor(2.)
    """
    x, y, reduction = _broadcast_pair(input, target, size_average, reduce, reduction)
    if weight is None:
        return MseLossBackward0.apply(x, y, reduction=_reduction_enum(reduction))
    return _weighted(lambda: (x - y) ** 2, weight, input, reduction)


def _weighted(errors, weight: Tensor, input: Tensor, reduction: str) -> Tensor:
    """A loss with one weight per entry, ``errors() * weight``, reduced as torch reduces it: 'mean' divides by
    the sum of the weights, not by the number of entries."""
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    weighted = errors() * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def _check_nll(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """torch's checks on (input, target, weight) of nll_loss for an (N, C) or (C,) input, in its order and words."""
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.dim() == 1 and target.dim() == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    _check_target_dtype(target)
    if weight is not None:
        classes = input.shape[-1]
        if weight.shape != (classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes but "
                               f"got weight tensor of shape: {list(weight.shape)}")
        _check_weight_dtype(input, weight)


#: the target dtypes nll_loss takes, as dtypes (``dtype in (np.int64, ...)`` converts each type first: slower)
_TARGET_DTYPES = (np.dtype(np.int64), np.dtype(np.uint8))


def _check_target_dtype(target: Tensor) -> None:
    if target._data.dtype not in _TARGET_DTYPES:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {kind_name(target._data)}")


def _check_weight_dtype(input: Tensor, weight: Tensor) -> None:
    if weight._data.dtype != input._data.dtype:
        raise RuntimeError(f"expected scalar type {kind_name(input._data)} but found {kind_name(weight._data)}")


def _check_nll2d(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """torch's checks on (input, target, weight) of nll_loss for an (N, C, H, W) input, in its order and words."""
    if target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target.dim()}")
    _check_target_dtype(target)
    if weight is not None and weight.numel() != input.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    n, _, h, w = input.shape
    if target.shape != (n, h, w):
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"nll_loss2d_forward_out_frame\" not implemented for '{kind_name(input._data)}'")
    if weight is not None:
        _check_weight_dtype(input, weight)
    if target._data.dtype == np.uint8:
        raise RuntimeError("expected scalar type Long but found Byte")


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log likelihood: -input[i, target[i]], weighted by ``weight[target[i]]`` and averaged over the
    weights ('mean'); targets equal to ``ignore_index`` count for nothing.

    An input (N, C, d1, d2, ...) holds C log-probabilities at every position of each sample, and the target
    (N, d1, d2, ...) a class there: every position is one more term. torch computes that with its 2-D kernel
    (NllLoss2DBackward0) on (N, C, H, W), after viewing any other shape as (N, C, 1, d1 * d2 * ...).

    >>> import autograd_tutor as torch
    >>> nll_loss(torch.tensor([[-0.5, -1.0], [-2.0, -0.1]]), torch.tensor([0, 1]))
    tensor(0.3000)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    enum = _reduction_enum(reduction)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() != 1:
        batch = target.shape[0] if target.dim() else 0
        if input.shape[0] != batch:
            raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({batch}).")
    if input.dim() <= 2:
        _check_nll(input, target, weight)
        return NllLossBackward0.apply(input, target=target, weight=weight, reduction=enum, ignore_index=ignore_index)
    if input.dim() == 4:
        _check_nll2d(input, target, weight)
        return NllLoss2DBackward0.apply(input, target=target, weight=weight, reduction=enum, ignore_index=ignore_index)
    n, c, *rest = input.shape
    if list(target.shape[1:]) != rest:
        raise RuntimeError(f"Expected target size {[n, *rest]}, got {list(target.shape)}")
    maps = [t.contiguous().view(*lead, *((1, -1) if t.numel() else (0, 0))) for t, lead in ((input, (n, c)),
                                                                                          (target, (n,)))]
    loss = nll_loss(*maps, weight, ignore_index=ignore_index, reduction=reduction)
    return loss.view(n, *rest) if enum == 0 else loss


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """-log softmax(x)[y]: ``nll_loss(log_softmax(input, class_dim), target)`` for class indices ``y``.

    ``input`` holds raw scores (logits) of shape (N, C), (C,) or (N, C, d1, ...) (classes along dim 1, a score for
    each at every position). ``target`` holds class indices (int64), or class
    probabilities of the same shape as ``input`` (then the loss is -sum_c p_c log softmax(x)_c).
    ``label_smoothing`` mixes the target with the uniform distribution over the C classes.
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _reduction_enum(reduction)
    class_dim = 0 if input.dim() == 1 else 1
    logp = input.log_softmax(class_dim)
    classes = input.shape[class_dim] if input.dim() else 1
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    weight_view = None
    if weight is not None:
        weight_view = weight.view(*[classes if d == class_dim else 1 for d in range(input.dim())])
    if input.shape == target.shape:
        return _cross_entropy_probabilities(logp, input, target, weight_view, reduction, label_smoothing, class_dim)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0.0:
        return nll
    ignored = target == ignore_index
    smooth = -(logp if weight_view is None else logp * weight_view).sum(class_dim)
    smooth = MaskedFillBackward0.apply(smooth, mask=ignored, value=0.0)
    if reduction == "mean":
        if weight is None:
            count = (~ignored).sum()
        else:
            y = target._data[~ignored._data]
            count = Tensor._make(np.asarray(weight._data[y].sum(), weight._data.dtype))
        smooth = smooth.sum() / count
    elif reduction == "sum":
        smooth = smooth.sum()
    return (MulBackward1.apply(nll, other=1 - label_smoothing)
            + MulBackward1.apply(smooth, other=label_smoothing / classes))


def _cross_entropy_probabilities(logp, input, target, weight_view, reduction, label_smoothing, class_dim):
    """-sum_c p_c log softmax(x)_c per sample, for a target of class probabilities p."""
    if target._data.dtype.kind != "f":
        raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                           f"{kind_name(target._data)}")
    classes = input.shape[class_dim]
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    terms = logp * target if weight_view is None else logp * target * weight_view
    if reduction == "none":
        return -terms.sum(class_dim)
    if reduction == "sum":
        return -terms.sum()
    return DivBackward1.apply(-terms.sum(), other=input.numel() // classes)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """d**2 / 2 for |d| <= delta, delta (|d| - delta / 2) beyond, for d = x - y (smooth_l1_loss times delta);
    with ``weight``, each entry's loss times its weight, then the mean or sum.

    >>> import autograd_tutor as torch
    >>> huber_loss(torch.tensor([0.5, 3.]), torch.tensor([0., 0.]), reduction="none")
    tensor([0.1250, 2.5000])
    """
    x, y, _ = _broadcast_pair(input, target, None, None, reduction)
    if weight is None:
        return _huber(x, y, _reduction_enum(reduction), delta)
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    weighted = _huber(x, y, 0, delta) * weight
    if reduction not in ("none", "sum", "mean"):
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
    return weighted if reduction == "none" else weighted.sum() if reduction == "sum" else weighted.mean()


def _huber(x: Tensor, y: Tensor, reduction: int, delta: float) -> Tensor:
    if not delta > 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return HuberLossBackward0.apply(x, y, reduction=reduction, delta=delta)


def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """KL(p || q) = sum p (log p - log q), with ``input`` = log q (log-probabilities, e.g. from log_softmax) and
    ``target`` = p (or log p with ``log_target``). 'batchmean' divides the sum by the batch size, the true KL
    divergence per sample; 'mean' divides by every entry (and warns)."""
    if size_average is not None or reduce is not None:
        enum = REDUCTIONS[_legacy_reduction(size_average, reduce)]
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          UserWarning, stacklevel=2)
        enum = 2 if reduction == "batchmean" else _reduction_enum(reduction)
    if input._data.dtype.kind in "biu" or target._data.dtype.kind in "biu":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        out = target.exp() * (target - input)
    else:
        entropy = XlogyBackward0.apply(target, target) if target.requires_grad else \
            Tensor._make(xlogy_array(target._data, target._data))
        out = entropy - target * input
    out = out if enum == 0 else out.sum() if enum == 2 else out.mean()
    if reduction == "batchmean" and input.dim() != 0:
        out = out / Tensor._make(np.asarray(input.shape[0], np.int64))
    return out


ANY_OF_BOOL = ("any() received an invalid combination of arguments - got (bool), but expected one of:\n"
               " * (Tensor input, *, Tensor out = None)\n"
               " * (Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None)\n"
               " * (Tensor input, int dim, bool keepdim = False, *, Tensor out = None)\n")


def gaussian_nll_loss(input: Tensor, target: Tensor, var, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """The negative log likelihood of ``target`` under N(input, var), dropping the constant unless ``full``:
    0.5 (log(var) + (input - target)^2 / var) (+ 0.5 log(2 pi)), var clamped at ``eps`` outside the graph. ``var``
    is one per entry, one per sample (the last dim dropped) or one float for all.

    >>> import autograd_tutor as torch
    >>> gaussian_nll_loss(torch.tensor([0.]), torch.tensor([2.]), torch.tensor([4.]))   # (log 4 + 1) / 2
    tensor(1.1931)
    """
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif not isinstance(var, Tensor):  # torch.any(var < 0) of a bool, as torch fails
        raise TypeError(ANY_OF_BOOL)
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif not (input.ndim == var.ndim and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1):
            raise ValueError("var is of incorrect size")  # (one dim of var may be 1: the heteroscedastic case)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False, size_average=None,
                     eps: float = 1e-8, reduce=None, reduction: str = "mean") -> Tensor:
    """The negative log likelihood of counts ``target`` under Poisson(rate), without the log(target!) constant:
    exp(input) - target input for a log-rate ``input`` (``log_input``), else input - target log(input + eps);
    ``full`` adds Stirling's target log(target) - target + 0.5 log(2 pi target) where target > 1.

    >>> import autograd_tutor as torch
    >>> poisson_nll_loss(torch.tensor([0.]), torch.tensor([2.]))     # exp(0) - 2 * 0
    tensor(1.)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * AddBackward1.apply(input, other=eps).log()  # C++'s input + eps
    if full:
        with np.errstate(divide="ignore", invalid="ignore"):  # 0 log 0 is nan here, masked below
            half_log = MulBackward1.apply(MulBackward1.apply(target, other=2 * math.pi).log(), other=0.5)  # C++'s c t
            stirling = target * target.log() - target + half_log
        loss += stirling.masked_fill(target <= 1, 0)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss
