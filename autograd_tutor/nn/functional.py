"""``nn.functional``: layers and losses as plain functions (``F.linear``, ``F.relu``, ``F.cross_entropy``...).

Modules call these; you can too. Each builds the same graph nodes as torch's: ``linear`` on a batch is one
``AddmmBackward0``, ``mse_loss`` one ``MseLossBackward0``, and ``cross_entropy`` is ``log_softmax`` followed
by ``nll_loss`` (``NllLossBackward0`` over ``LogSoftmaxBackward0``).

>>> import autograd_tutor as torch
>>> import autograd_tutor.nn.functional as F
>>> logits = torch.tensor([[2., 0., 0.]], requires_grad=True)
>>> loss = F.cross_entropy(logits, torch.tensor([0]))
>>> loss, loss.grad_fn.next_functions[0][0].name()
(tensor(0.2395, grad_fn=<NllLossBackward0>), 'LogSoftmaxBackward0')
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..autograd import random
from ..autograd.dtypes import CPP_NAMES, kind_name
from ..autograd.more_functions import AddmmBackward0
from ..autograd.tensor import Tensor, _broadcast_shape
from ._functions import (REDUCTIONS, DivBackward1, EluBackward0, EluBackward1, GeluBackward0,
                         LeakyReluBackward0, LeakyReluBackward1, MaskedFillBackward0, MseLossBackward0, MulBackward1,
                         NllLoss2DBackward0, NllLossBackward0, SiluBackward0, SoftplusBackward0)

__all__ = ["linear", "dropout", "relu", "relu_", "leaky_relu", "leaky_relu_", "gelu", "silu", "softplus", "elu",
           "elu_", "tanh", "sigmoid", "softmax", "log_softmax", "mse_loss", "nll_loss", "cross_entropy"]


# ---- binary cross entropy, L1 and smooth L1 losses, one_hot (one block)
from ._loss_functions import (BinaryCrossEntropyBackward0, BinaryCrossEntropyWithLogitsBackward0,  # noqa: E402
                              SmoothL1LossBackward0)

__all__ += ["binary_cross_entropy", "binary_cross_entropy_with_logits", "l1_loss", "smooth_l1_loss", "one_hot"]


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


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices as rows of zeros with a 1 at the index: shape (*, num_classes), int64.

    >>> import autograd_tutor as torch
    >>> one_hot(torch.tensor([0, 2]), 3)
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    d = tensor._data
    if d.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if not d.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(d.max()) + 1
    if d.size and d.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if d.size and d.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make((d[..., None] == np.arange(num_classes)).astype(np.int64))


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x W^T + b, for x of shape (..., in_features) and W of shape (out_features, in_features).

    >>> import autograd_tutor as torch
    >>> linear(torch.tensor([1., 2.]), torch.tensor([[1., 1.], [0., 3.]]), torch.tensor([0.5, 0.]))
    tensor([3.5000, 6.0000])
    """
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {input.dim()}D and "
                           f"{weight.dim()}D")
    if bias is None:
        a, b = input._data.dtype.name, weight._data.dtype.name
        if a != b:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES.get(a, a)} != "
                               f"{CPP_NAMES.get(b, b)}")
        return input.matmul(weight.t())
    if input.dim() == 2:
        return AddmmBackward0.apply(bias, input, weight.t())
    if input.is_contiguous() and (input.dim() == 3 or bias.dim() == 1):  # fold the batch into rows, as torch does
        out = AddmmBackward0.apply(bias, input.view(-1, input.shape[-1]), weight.t())
        return out.view(*input.shape[:-1], out.shape[-1])
    return input.matmul(weight.t()) + bias


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """While training, zero each entry with probability ``p`` and scale the others by 1 / (1 - p), so the
    expected value stays the same: ``input * mask``, one MulBackward0 whose gradient goes only through the
    kept entries. The mask is torch's for the same seed. Outside training (``model.eval()``) it returns
    ``input`` itself.

    >>> import autograd_tutor as torch
    >>> _ = torch.manual_seed(0)
    >>> dropout(torch.ones(4), 0.5)
    tensor([0., 0., 2., 0.])
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    d = input._data
    if p == 1:
        mask = np.zeros((), d.dtype)
    else:
        mask = random.default_generator.bernoulli(np.full(d.shape, 1.0 - p)).astype(d.dtype) / d.dtype.type(1.0 - p)
    mask = Tensor._make(mask)
    return input.mul_(mask) if inplace else input * mask


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0), elementwise; ``inplace=True`` overwrites ``input``."""
    if inplace:
        return input.relu_()
    return input.relu()


def relu_(input: Tensor) -> Tensor:
    """``relu(input, inplace=True)``."""
    return input.relu_()


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x where x > 0, else negative_slope * x: negative inputs keep a small gradient instead of none.

    >>> import autograd_tutor as torch
    >>> leaky_relu(torch.tensor([-2., 3.]), 0.1)
    tensor([-0.2000,  3.0000])
    """
    if inplace:  # the node then saves the result, not the overwritten input
        return input._inplace(lambda before: LeakyReluBackward1.apply(before, negative_slope=negative_slope))
    return LeakyReluBackward0.apply(input, negative_slope=negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """``leaky_relu(input, negative_slope, inplace=True)``."""
    return leaky_relu(input, negative_slope, inplace=True)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """x * Phi(x), Phi the standard normal CDF (``approximate='tanh'``: its tanh approximation).

    >>> import autograd_tutor as torch
    >>> gelu(torch.tensor([-1., 0., 1.]))
    tensor([-0.1587,  0.0000,  0.8413])
    """
    if not isinstance(approximate, str):
        raise TypeError(f"gelu(): argument 'approximate' must be str, not {type(approximate).__name__}")
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return GeluBackward0.apply(input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x) (also called swish)."""
    if inplace:
        return input._inplace(lambda before: SiluBackward0.apply(before, saved=before.clone()))
    return SiluBackward0.apply(input)


def softplus(input: Tensor, beta: float = 1, threshold: float = 20) -> Tensor:
    """log(1 + exp(beta * x)) / beta, a smooth relu; x itself where beta * x > threshold."""
    return SoftplusBackward0.apply(input, beta=beta, threshold=threshold)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x where x > 0, else alpha * (exp(x) - 1): smooth at 0 for alpha = 1, saturating at -alpha."""
    if inplace:  # the node then saves the result, not the overwritten input
        return input._inplace(lambda before: EluBackward1.apply(before, alpha=alpha))
    return EluBackward0.apply(input, alpha=alpha)


def elu_(input: Tensor, alpha: float = 1) -> Tensor:
    """``elu(input, alpha, inplace=True)``."""
    return elu(input, alpha, inplace=True)


def tanh(input: Tensor) -> Tensor:
    """tanh(x), elementwise."""
    return input.tanh()


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + exp(-x)), elementwise."""
    return input.sigmoid()


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as "
                  "an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """exp(x_i) / sum_j exp(x_j) along ``dim``: each slice becomes a probability distribution."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """x_i - log(sum_j exp(x_j)) along ``dim``: the log of softmax, computed without overflow."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)


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


def _check_target_dtype(target: Tensor) -> None:
    if target._data.dtype not in (np.int64, np.uint8):
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


# ---- layer_norm and embedding (one block)
from ._layer_functions import EmbeddingBackward0, NativeBatchNormBackward0, NativeLayerNormBackward0  # noqa: E402

__all__ += ["layer_norm", "embedding", "batch_norm"]


def _or_empty(dtype, *tensors) -> list:
    """Each tensor, or an empty one where it is None: a weight or bias left out is an input without an edge."""
    return [Tensor._make(np.zeros(0, dtype)) if t is None else t for t in tensors]


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-05) -> Tensor:
    """Standardise each sample over its last dims (``normalized_shape``): subtract their mean, divide by
    sqrt(variance + eps), then scale by ``weight`` and shift by ``bias``: one NativeLayerNormBackward0.

    >>> import autograd_tutor as torch
    >>> layer_norm(torch.tensor([[0., 2.], [5., 5.]]), (2,))     # each row to mean 0, variance 1 (or all 0)
    tensor([[-1.0000,  1.0000],
            [ 0.0000,  0.0000]])
    """
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError(f"layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = tuple(int(n) for n in normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and tuple(p.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(p.shape)} and normalized_shape = {list(shape)}")
    if tuple(input.shape[input.dim() - len(shape):]) != shape or input.dim() < len(shape):
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(str(n) for n in shape)}], but got input of size{list(input.shape)}")
    d = input._data
    if d.dtype.kind != "f":
        raise NotImplementedError(f"\"LayerNormKernelImpl\" not implemented for '{kind_name(d)}'")
    for p in (weight, bias):
        if p is not None and p._data.dtype != d.dtype:
            raise RuntimeError(f"mixed dtype (CPU): expect parameter to have scalar type of {kind_name(d)}")
    return NativeLayerNormBackward0.apply(input, *_or_empty(d.dtype, weight, bias), normalized_shape=shape, eps=eps,
                                          affine=(weight is not None, bias is not None))


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Look up rows of the table ``weight`` (num_embeddings, embedding_dim) at the integer ``input``: the
    output has shape input.shape + (embedding_dim,), one EmbeddingBackward0. Row ``padding_idx`` gets no
    gradient; with ``max_norm``, the rows looked up are first rescaled in place to norm at most ``max_norm``.

    >>> import autograd_tutor as torch
    >>> embedding(torch.tensor([2, 0, 2]), torch.tensor([[0., 1.], [2., 3.], [4., 5.]]))
    tensor([[4., 5.],
            [0., 1.],
            [4., 5.]])
    """
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= weight.size(0):
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    idx = input._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{kind_name(idx)}Tensor instead (while checking arguments for "
                           "embedding)")
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if sparse:
        raise NotImplementedError("autograd_tutor has no sparse tensors: call embedding with sparse=False")
    if max_norm is not None:  # torch's embedding_renorm_, without recording: rows longer than max_norm shrink
        rows = np.unique(idx)
        norms = np.linalg.norm(weight._data[rows].astype(np.float64), ord=norm_type, axis=1)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight._data[rows] = (weight._data[rows] * scale[:, None]).astype(weight._data.dtype)
        weight._vbox[0] += 1
    return EmbeddingBackward0.apply(weight, indices=input, padding_idx=padding_idx,
                                    scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-05) -> Tensor:
    """Standardise each channel (dim 1) over the batch and the other dims, then scale by ``weight`` and shift
    by ``bias``: one NativeBatchNormBackward0. With ``training`` the batch's mean and (biased) variance are
    used and the running stats, if given, move towards them by ``momentum``; otherwise the running stats are.

    >>> import autograd_tutor as torch
    >>> mean, var = torch.zeros(1), torch.ones(1)
    >>> batch_norm(torch.tensor([[1.], [3.]]), mean, var, training=True)    # batch mean 2, variance 1
    tensor([[-1.0000],
            [ 1.0000]])
    >>> mean, var                 # 0.9 * 0 + 0.1 * 2, and 0.9 * 1 + 0.1 * 2 (unbiased variance)
    (tensor([0.2000]), tensor([1.1000]))
    """
    size = list(input.shape)
    if training and math.prod(size[:1] + size[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.size()}")
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if momentum is None:
        raise TypeError("batch_norm(): argument 'momentum' (position 7) must be float, not NoneType")
    channels = input.size(1)
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
        if t is None and name.startswith("running") and not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    d = input._data
    if d.dtype.kind != "f":
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{kind_name(d)}'")
    others = {t._data.dtype for t in (running_mean, running_var, weight, bias) if t is not None}
    if others - {d.dtype} and not (d.dtype == np.float16 and others == {np.dtype(np.float32)}):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float" if d.dtype == np.float32
                           else "mixed dtype (CPU): all inputs must share same datatype.")
    if not d.size:  # an empty batch: no statistics, and a graph that still reaches weight and bias, as in torch
        out = input.clone()
        out = out * weight[0] if weight is not None else out
        return out + bias[0] if bias is not None else out
    return NativeBatchNormBackward0.apply(input, *_or_empty(d.dtype, weight, bias), running_mean=running_mean,
                                          running_var=running_var, training=bool(training), momentum=momentum,
                                          eps=eps, affine=(weight is not None, bias is not None))


# ---- convolution and pooling (their checks and docstrings live in _conv.py)
from ._conv import avg_pool2d, conv1d, conv2d, max_pool1d, max_pool2d  # noqa: E402

__all__ += ["conv1d", "conv2d", "max_pool1d", "max_pool2d", "avg_pool2d"]

# ---- ops2: padding, normalize, cosine_similarity (one block)
from ._pad_norm import cosine_similarity, normalize, pad  # noqa: E402

__all__ += ["pad", "normalize", "cosine_similarity"]

# ---- ops3: adaptive pooling and avg_pool1d (one block)
from ._pool import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d, adaptive_max_pool2d,  # noqa: E402
                    avg_pool1d)

__all__ += ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d", "avg_pool1d"]

# ---- ops3: more activations, huber_loss and kl_div (one block)
from ._activations import (hardtanh, hardtanh_, huber_loss, kl_div, logsigmoid, mish, relu6, selu,  # noqa: E402
                           selu_)

__all__ += ["relu6", "hardtanh", "hardtanh_", "logsigmoid", "selu", "selu_", "mish", "huber_loss", "kl_div"]
