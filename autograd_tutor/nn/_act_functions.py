"""The nodes of more activations and one more loss: HardtanhBackward0 (hardtanh, and relu6 = hardtanh(x, 0, 6)),
LogSigmoidBackward0, MishBackward0 and HuberLossBackward0. Their gradients are computed on arrays only:
differentiating them twice (create_graph=True) raises NotImplementedError.

>>> import autograd_tutor as torch
>>> x = torch.tensor([-1., 3., 9.], requires_grad=True)
>>> y = torch.nn.functional.relu6(x)
>>> y, y.grad_fn._saved_min_val, y.grad_fn._saved_max_val
(tensor([0., 3., 6.], grad_fn=<HardtanhBackward0>), 0, 6)
"""
from __future__ import annotations

import numpy as np

from ..autograd.dtypes import kind_name
from ..autograd.function import Function
from ..autograd.functions import _needs_array_only, _promote, _rounded
from ..autograd.tensor import Tensor
from ._functions import _floating
from ._loss_functions import _log_sigmoid, _reduce

__all__: list = []  # used through nn.functional


class HardtanhBackward0(Function):
    """z = x clipped to [min_val, max_val];  dz/dx = 1 strictly inside, 0 at and beyond the bounds."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, min_val, max_val):
        ctx.save(max_val=max_val, min_val=min_val, self=x)
        d = x._data
        if d.dtype == np.bool_:
            raise RuntimeError("Bool inputs not supported for hardtanh")
        t = d.dtype.type
        return np.minimum(np.maximum(d, t(min_val)), t(max_val))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "hardtanh")
        x = ctx._unpack("self", False)
        return np.where((x > ctx.min_val) & (x < ctx.max_val), g, 0).astype(g.dtype)


class LogSigmoidBackward0(Function):
    """z = log sigmoid(x) = min(x, 0) - log(1 + exp(-|x|));  dz/dx = sigmoid(-x). torch keeps exp(-|x|) as
    ``buffer``: dz/dx = 1 / (1 + buffer) for x < 0, buffer / (1 + buffer) otherwise."""
    saved_names = ("self", "buffer")

    @staticmethod
    def forward(ctx, x):
        d = _floating(x, "log_sigmoid_cpu")
        buffer = np.exp(-np.abs(d))
        if ctx.needs_input_grad:
            ctx.save(buffer=Tensor._make(buffer), self=x)
        return _log_sigmoid(d).astype(d.dtype)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "log_sigmoid")
        x, z = ctx._unpack("self", False), ctx._unpack("buffer", False)
        return g * np.where(x < 0, 1 / (1 + z), z / (1 + z))


class MishBackward0(Function):
    """z = x tanh(softplus(x)), softplus(x) = log(1 + exp(x));  with t = tanh(softplus(x)):
    dz/dx = t + x sigmoid(x) (1 - t**2)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        d = _floating(x, "mish_cpu")
        ctx.save(self=x)
        return d * _tanh_softplus(d)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "mish")
        x = ctx._unpack("self", False)
        t = _tanh_softplus(x)
        return g * (t + x / (1 + _rounded(np.exp, -x)) * (1 - t * t))


def _tanh_softplus(d: np.ndarray) -> np.ndarray:
    """tanh(log(1 + exp(x))) in d's dtype, each step rounded as torch's kernel rounds it (exp overflows to inf
    for large x, and tanh(inf) = 1)."""
    return _rounded(np.tanh, _rounded(np.log1p, _rounded(np.exp, d)))


class HuberLossBackward0(Function):
    """L = d**2 / 2 where |d| <= delta, else delta (|d| - delta / 2), for d = x - y: the squared error near 0,
    growing only linearly beyond delta;  dL/dx = d clipped to [-delta, delta],  dL/dy = -dL/dx."""
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, target, reduction, delta):
        ctx.save(delta=delta, reduction=reduction, self=x, target=target)
        a, b = _promote(x, target)
        if a.dtype.kind != "f":
            raise NotImplementedError(f"\"huber_cpu\" not implemented for '{kind_name(a)}'")
        d = a - b
        far = np.abs(d) > delta
        losses = np.where(far, delta * (np.abs(d) - 0.5 * delta), 0.5 * d * d).astype(d.dtype)
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "huber_loss")
        x, y = ctx._unpack("self", False), ctx._unpack("target", False)
        d = x - y
        gx = np.clip(d, -ctx.delta, ctx.delta).astype(d.dtype) * (g / d.size if ctx.reduction == 1 else g)
        return gx, -gx
