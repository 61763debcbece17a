"""``F.relu6``, ``F.hardtanh``, ``F.logsigmoid``, ``F.selu``, ``F.mish``, ``F.huber_loss`` and ``F.kl_div``, with
the nodes torch records: relu6 is hardtanh(x, 0, 6) (HardtanhBackward0), selu an elu with a scale
(EluBackward0), kl_div a composition of ops (xlogy, mul, sub, then the reduction).

>>> import autograd_tutor as torch
>>> F = torch.nn.functional
>>> F.hardtanh(torch.tensor([-3., 0.5, 2.]))        # clipped to [-1, 1]
tensor([-1.0000,  0.5000,  1.0000])
>>> F.kl_div(torch.tensor([0.5, 0.5]).log(), torch.tensor([0.9, 0.1]), reduction="sum")  # KL(p || q), q = input
tensor(0.3681)
"""
from __future__ import annotations

import warnings

import numpy as np

from ..autograd.blend_functions import XlogyBackward0, xlogy_array
from ..autograd.tensor import Tensor
from ._act_functions import HardtanhBackward0, HuberLossBackward0, LogSigmoidBackward0, MishBackward0
from ._functions import REDUCTIONS, EluBackward0, EluBackward1
from .functional import _broadcast_pair, _legacy_reduction, _reduction_enum  # defined before it imports this module

__all__ = ["relu6", "hardtanh", "hardtanh_", "logsigmoid", "selu", "selu_", "mish", "huber_loss", "kl_div"]

SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805  # torch's constants, as Python floats


def _apply(input: Tensor, inplace: bool, node, **params) -> Tensor:
    """``node`` on input, or written over it (the node then saves a copy of the input from before)."""
    if inplace:
        return input._inplace(lambda before: node.apply(before, **params))
    return node.apply(input, **params)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """x clipped to [min_val, max_val]; the gradient is 1 strictly between the bounds, 0 elsewhere."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _apply(input, inplace, HardtanhBackward0, min_val=min_val, max_val=max_val)


def hardtanh_(input: Tensor, min_val=-1, max_val=1) -> Tensor:
    """``hardtanh(input, min_val, max_val, inplace=True)``."""
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(x, 0), 6): a relu capped at 6, which torch computes as hardtanh(x, 0, 6).

    >>> import autograd_tutor as torch
    >>> relu6(torch.tensor([-1., 3., 8.]))
    tensor([0., 3., 6.])
    """
    return _apply(input, inplace, HardtanhBackward0, min_val=0, max_val=6)


def logsigmoid(input: Tensor) -> Tensor:
    """log(sigmoid(x)) = -softplus(-x), computed without overflow; its gradient is sigmoid(-x)."""
    return LogSigmoidBackward0.apply(input)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """scale * elu(x, alpha) with torch's alpha = 1.6733 and scale = 1.0507: self-normalising (activations keep
    mean 0 and variance 1 through deep MLPs with the right initialisation). One EluBackward0."""
    return _apply(input, inplace, EluBackward1 if inplace else EluBackward0, alpha=SELU_ALPHA, scale=SELU_SCALE)


def selu_(input: Tensor) -> Tensor:
    """``selu(input, inplace=True)``."""
    return selu(input, inplace=True)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * tanh(softplus(x)): smooth, unbounded above, slightly negative below 0."""
    return _apply(input, inplace, MishBackward0)


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
