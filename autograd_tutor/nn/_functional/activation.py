"""``F.relu``, ``F.leaky_relu``, ``F.gelu``, ``F.silu``, ``F.softplus``, ``F.elu``, ``F.selu``, ``F.hardtanh``,
``F.relu6``, ``F.logsigmoid``, ``F.mish``, ``F.tanh``, ``F.sigmoid``, ``F.softmax``, ``F.log_softmax``,
``F.softmin``, ``F.softsign``, ``F.tanhshrink``, ``F.threshold``, ``F.glu``, ``F.hardsigmoid``, ``F.hardswish``,
``F.prelu``.

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

from ...autograd.dtypes import kind_name
from ...autograd.ops.activations import (EluBackward0, EluBackward1, GeluBackward0, GluBackward0,
                                         HardsigmoidBackward0, HardswishBackward0, HardtanhBackward0,
                                         LeakyReluBackward0, LeakyReluBackward1, LogSigmoidBackward0, MishBackward0, PreluKernelBackward0,
                                         SiluBackward0, SoftplusBackward0, SoftshrinkBackward0, ThresholdBackward0,
                                         ThresholdBackward1)
from ...autograd.tensor import _dim
from ...autograd.tensor import Tensor

__all__ = ["relu", "relu_", "leaky_relu", "leaky_relu_", "gelu", "silu", "softplus", "elu", "elu_", "tanh", "sigmoid",
           "softmax", "log_softmax", "hardtanh", "hardtanh_", "relu6", "logsigmoid", "selu", "selu_", "mish",
           "softmin", "softsign", "tanhshrink", "softshrink", "hardshrink", "threshold", "threshold_", "glu", "hardsigmoid", "hardswish", "prelu"]


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


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """softmax(-x) along ``dim``: the smallest entries get the most weight."""
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim, dtype=dtype)


def softsign(input: Tensor) -> Tensor:
    """x / (1 + |x|): a tanh-like squashing into (-1, 1), written out as torch writes it (DivBackward0)."""
    return input / (input.abs() + 1)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x - lambd above lambd, x + lambd below -lambd, 0 between (SoftshrinkBackward0)."""
    lambd = float(lambd) if isinstance(lambd, Tensor) else lambd
    data = input._data
    if data.dtype.kind == "f" and not 0 <= lambd <= np.finfo(data.dtype).max:
        raise RuntimeError(f"lambda must be in range [0, {float(np.finfo(data.dtype).max):g}] for input dtype "
                           f"{kind_name(data)}, but found {lambd:g}")
    return SoftshrinkBackward0.apply(input, lambd=lambd)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x where |x| > lambd, else 0 (HardshrinkBackward0)."""
    return input.hardshrink(lambd)


def tanhshrink(input: Tensor) -> Tensor:
    """x - tanh(x) (SubBackward0)."""
    return input - input.tanh()


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``value`` where x <= threshold, x elsewhere: ``F.threshold(x, 0., 0.)`` is relu.

    >>> import autograd_tutor as torch
    >>> threshold(torch.tensor([-1., 0.5, 2.]), 0.5, -9.)
    tensor([-9., -9.,  2.])
    """
    return _apply(input, inplace, ThresholdBackward1 if inplace else ThresholdBackward0, threshold=threshold,
                  value=value)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """``threshold(input, threshold, value, inplace=True)``."""
    return globals()["threshold"](input, threshold, value, inplace=True)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """The gated linear unit a * sigmoid(b), a and b the first and second halves of x along ``dim``.

    >>> import autograd_tutor as torch
    >>> glu(torch.tensor([2., 4., 0., 0.]))
    tensor([1., 2.])
    """
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = _dim(dim, input.dim())
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {input.shape[dim]}")
    return GluBackward0.apply(input, dim=dim)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(x + 3, 0), 6) / 6: a piecewise-linear sigmoid, 0 below -3 and 1 above 3."""
    return _apply(input, inplace, HardsigmoidBackward0)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * hardsigmoid(x): MobileNetV3's cheap swish."""
    return _apply(input, inplace, HardswishBackward0)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x where x > 0, else weight * x: leaky_relu with a learned slope, one per channel (dim 1) or one for all.
    As torch does, a weight of fewer dims is first viewed as (1, C, 1, ...) (a recorded view).

    >>> import autograd_tutor as torch
    >>> prelu(torch.tensor([[-2., 3.], [-4., -1.]]), torch.tensor([0.5, 0.25]))
    tensor([[-1.0000,  3.0000],
            [-2.0000, -0.2500]])
    """
    if input.dim() == 0:
        raise RuntimeError("Not allow zero-dim input tensor.")
    if weight.numel() != 1:
        channels = input.size(1) if input.dim() > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if input.dim() != weight.dim():
        shape = [1] * input.dim()
        if input.dim() > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return PreluKernelBackward0.apply(input, weight)
