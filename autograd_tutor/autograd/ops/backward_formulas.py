"""torch's backward formulas as operations. Under ``create_graph=True`` a backward formula is itself recorded;
torch records several as single operations with nodes of their own, and these classes are those
operations, so that the graph of a gradient carries torch's names (``TanhBackwardBackward0``...), each with
the derivative torch gives it.
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from .numerics import _FLOAT32, _is_tensor, _rounded, _sign, _sum_keep, _zeros, EXACT_UP_TO
from .selection import _where

__all__ = ["MulBackward1", "AddBackward1", "TanhBackwardBackward0", "SigmoidBackwardBackward0",
           "ThresholdBackwardBackward0", "SoftmaxBackwardDataBackward0", "LogSoftmaxBackwardDataBackward0",
           "SgnBackward0"]


class MulBackward1(Function):
    """z = x * c for a number c, as torch's formulas multiply (``mul.Scalar``);  dz/dx = c."""

    @staticmethod
    def forward(ctx, x, other):
        ctx.save(other=other)
        return x._data * other

    @staticmethod
    def backward(ctx, g):
        return _scaled(g, ctx.other)


def _scaled(g, c):
    """``g * c`` for a number ``c``: under create_graph recorded as torch's formulas record it (MulBackward1)."""
    return MulBackward1.apply(g, other=c) if _is_tensor(g) else g * c


class AddBackward1(Function):
    """z = x + c for a number c, as torch's formulas add (``add.Scalar``);  dz/dx = 1."""

    @staticmethod
    def forward(ctx, x, other):
        return x._data + x._data.dtype.type(other)

    @staticmethod
    def backward(ctx, g):
        return g


class SubBackward1(Function):
    """z = x - c for a number c, as torch's C++ code subtracts (``sub.Scalar``: ``cos - margin`` in
    cosine_embedding_loss);  dz/dx = 1."""

    @staticmethod
    def forward(ctx, x, other):
        return x._data - x._data.dtype.type(other)

    @staticmethod
    def backward(ctx, g):
        return g


def _tanh_grad(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """g * (1 - y**2); for float32 tensors printed in full, 1 - y**2 is rounded once (torch's fused multiply-add)."""
    if y.dtype == _FLOAT32 and y.size <= EXACT_UP_TO:
        if y.ndim == 0:  # a Python float times float32 is rounded to float32 first (NumPy's weak scalars)
            y = float(y)
            return g * (1 - y * y)
        return g * (1 - np.square(y, dtype=np.float64)).astype(np.float32)
    return g * (1 - y * y)


class TanhBackwardBackward0(Function):
    """z = g * (1 - y**2), the backward of tanh (y its output);  dz/dg = 1 - y**2,  dz/dy = -2 y g."""

    @staticmethod
    def forward(ctx, g, y):
        ctx.save(grad_output=g, output=y)
        return _tanh_grad(g._data, y._data)

    @staticmethod
    def backward(ctx, gg):
        t = _is_tensor(gg)
        g, y = ctx._unpack("grad_output", t), ctx._unpack("output", t)
        return (TanhBackwardBackward0.apply(gg, y) if t else _tanh_grad(gg, y)), gg * (_scaled(y, -2) * g)


class SigmoidBackwardBackward0(Function):
    """z = g * (1 - y) * y, the backward of sigmoid;  dz/dg = (1 - y) y,  dz/dy = g (1 - 2 y)."""

    @staticmethod
    def forward(ctx, g, y):
        ctx.save(grad_output=g, output=y)
        return g._data * (1 - y._data) * y._data

    @staticmethod
    def backward(ctx, gg):
        t = _is_tensor(gg)
        g, y = ctx._unpack("grad_output", t), ctx._unpack("output", t)
        dg = SigmoidBackwardBackward0.apply(gg, y) if t else gg * (1 - y) * y
        return dg, gg * g * (_scaled(y, -2) + 1)


class ThresholdBackwardBackward0(Function):
    """z = 0 where y <= 0 else g, the backward of relu (a nan y lets g through, as torch's threshold_backward);
    dz/dg = [not y <= 0],  dz/dy = 0."""

    @staticmethod
    def forward(ctx, g, y):
        ctx.save(self=y, threshold=0)
        return np.where(y._data <= 0, 0, g._data).astype(g._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, gg):
        y = ctx._unpack("self", _is_tensor(gg))
        if _is_tensor(gg):
            return ThresholdBackwardBackward0.apply(gg, y), _zeros(gg)
        return _where(~(y <= 0), gg), _zeros(gg)


class SoftmaxBackwardDataBackward0(Function):
    """z = y * (g - sum(g y)), the backward of softmax;  dz/dg = the same map,
    dz/dy = g gg - sum(y g) gg - g sum(y gg) (sums along dim)."""

    @staticmethod
    def forward(ctx, g, y, dim):
        ctx.save(grad_output=g, output=y, dim=dim)
        return y._data * (g._data - _sum_keep(g._data * y._data, dim))

    @staticmethod
    def backward(ctx, gg):
        t, d = _is_tensor(gg), ctx.dim
        g, y = ctx._unpack("grad_output", t), ctx._unpack("output", t)
        dg = SoftmaxBackwardDataBackward0.apply(gg, y, dim=d) if t else y * (gg - _sum_keep(gg * y, d))
        return dg, g * gg - _sum_keep(y * g, d) * gg - g * _sum_keep(y * gg, d)


class LogSoftmaxBackwardDataBackward0(Function):
    """z = g - exp(y) sum(g), the backward of log_softmax;  dz/dg = gg - sum(gg exp(y)),
    dz/dy = -sum(g) exp(y) gg (sums along dim)."""

    @staticmethod
    def forward(ctx, g, y, dim):
        ctx.save(grad_output=g, output=y, dim=dim)
        return g._data - _rounded(np.exp, y._data) * _sum_keep(g._data, dim)

    @staticmethod
    def backward(ctx, gg):
        t, d = _is_tensor(gg), ctx.dim
        g, y = ctx._unpack("grad_output", t), ctx._unpack("output", t)
        e = y.exp() if t else _rounded(np.exp, y)
        return gg - _sum_keep(gg * e, d), -_sum_keep(g, d) * e * gg


class SgnBackward0(Function):
    """z = sgn(x), the factor in the backward of abs (0 at nan, so |x|'s gradient there is 0);  dz/dx = 0."""

    @staticmethod
    def forward(ctx, x):
        return _sign(x._data)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)
