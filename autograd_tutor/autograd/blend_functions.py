"""Fused updates that optimizers use, and blending: ``addcmul`` (x + value * t1 * t2), ``addcdiv``
(x + value * t1 / t2) and ``lerp`` (x + weight * (end - x)), with their in-place forms; and ``XlogyBackward0``
(x log y, 0 where x = 0), which ``F.kl_div`` records. tensor.py attaches each name in ``__all__`` to Tensor.

>>> import autograd_tutor as torch
>>> x = torch.tensor([1., 2.])
>>> x.addcmul(torch.tensor([3., 4.]), torch.tensor([2., 2.]), value=0.5), x.lerp(torch.tensor([3., 0.]), 0.5)
(tensor([4., 6.]), tensor([2., 1.]))
"""
from __future__ import annotations

import numpy as np

from .dtypes import CPP_NAMES, kind_name, result_type
from .function import Function
from .functions import _needs_array_only, _rank
from .tensor import Tensor, _broadcast_shape

__all__ = ["addcmul", "addcmul_", "addcdiv", "addcdiv_", "lerp", "lerp_", "xlogy"]

ADDCDIV_INTEGERS = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
    "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
    "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
    "for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
    "tensor2), for all dtypes.")


def _three(x, t1, t2) -> tuple:
    """The three arrays in their common dtype, torch's promotion taken pairwise (checked to broadcast together,
    as torch does first)."""
    _broadcast_shape(_broadcast_shape(x._data.shape, t1._data.shape), t2._data.shape)
    (dtype, rank), *others = [(t._data.dtype, _rank(t)) for t in (x, t1, t2)]
    for other in others:
        dtype, rank = result_type((dtype, rank), other), max(rank, other[1])
    return x._data.astype(dtype, copy=False), t1._data.astype(dtype, copy=False), t2._data.astype(dtype, copy=False)


class AddcmulBackward0(Function):
    """z = x + value * t1 * t2;  dz/dx = 1,  dz/dt1 = value * t2,  dz/dt2 = value * t1 (each factor kept only if
    the other's gradient is needed)."""
    saved_names = ("tensor1", "tensor2")

    @staticmethod
    def forward(ctx, x, t1, t2, value):
        need1, need2 = ctx.needs_input_grad[1:] or (False, False)
        ctx.save(tensor1=t1 if need2 else None, tensor2=t2 if need1 else None, value=value)
        a, b, c = _three(x, t1, t2)
        return a + a.dtype.type(value) * b * c

    @staticmethod
    def backward(ctx, g):
        t = not isinstance(g, np.ndarray)
        d1 = g * ctx._unpack("tensor2", t) * ctx.value if ctx.needs_input_grad[1] else None
        d2 = g * ctx._unpack("tensor1", t) * ctx.value if ctx.needs_input_grad[2] else None
        return g, d1, d2


class AddcdivBackward0(Function):
    """z = x + value * t1 / t2;  dz/dx = 1,  dz/dt1 = value / t2,  dz/dt2 = -value * t1 / t2**2."""
    saved_names = ("tensor1", "tensor2")

    @staticmethod
    def forward(ctx, x, t1, t2, value):
        if t1._data.dtype.kind in "biu" and t2._data.dtype.kind in "biu":
            raise RuntimeError(ADDCDIV_INTEGERS)
        need1, need2 = ctx.needs_input_grad[1:] or (False, False)
        ctx.save(tensor1=t1 if need2 else None, tensor2=t2 if need1 or need2 else None, value=value)
        a, b, c = _three(x, t1, t2)
        with np.errstate(divide="ignore", invalid="ignore"):
            return a + a.dtype.type(value) * b / c

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "addcdiv")
        t2 = ctx._unpack("tensor2", False)
        with np.errstate(divide="ignore", invalid="ignore"):
            d1 = g * ctx.value / t2 if ctx.needs_input_grad[1] else None
            d2 = -g * ctx.value * ctx._unpack("tensor1", False) / (t2 * t2) if ctx.needs_input_grad[2] else None
        return g, d1, d2


def _check_tensors(op: str, tensor1, tensor2) -> None:
    for position, (name, t) in enumerate((("tensor1", tensor1), ("tensor2", tensor2)), 2):
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}(): argument '{name}' (position {position}) must be Tensor, not "
                            f"{type(t).__name__}")


def addcmul(self, tensor1, tensor2, *, value=1):
    """self + value * tensor1 * tensor2, all three broadcast together (Adam's moment updates use it)."""
    _check_tensors("addcmul", tensor1, tensor2)
    return AddcmulBackward0.apply(self, tensor1, tensor2, value=value)


def addcmul_(self, tensor1, tensor2, *, value=1):
    """:func:`addcmul` written into self."""
    _check_tensors("addcmul_", tensor1, tensor2)
    return self._inplace(lambda s: AddcmulBackward0.apply(s, tensor1, tensor2, value=value), tensor1, tensor2)


def addcdiv(self, tensor1, tensor2, *, value=1):
    """self + value * tensor1 / tensor2 (Adam's step: param.addcdiv_(m, v.sqrt() + eps, value=-lr))."""
    _check_tensors("addcdiv", tensor1, tensor2)
    return AddcdivBackward0.apply(self, tensor1, tensor2, value=value)


def addcdiv_(self, tensor1, tensor2, *, value=1):
    """:func:`addcdiv` written into self."""
    _check_tensors("addcdiv_", tensor1, tensor2)
    return self._inplace(lambda s: AddcdivBackward0.apply(s, tensor1, tensor2, value=value), tensor1, tensor2)


def _lerp(x: np.ndarray, end: np.ndarray, w) -> np.ndarray:
    """torch's formula, exact at both ends: x + w (end - x) for |w| < 0.5, else end - (end - x)(1 - w)."""
    return np.where(np.abs(w) < 0.5, x + w * (end - x), end - (end - x) * (1 - w)).astype(x.dtype)


class LerpBackward0(Function):
    """z = x + weight * (end - x) for a number ``weight``;  dz/dx = 1 - weight,  dz/dend = weight."""

    @staticmethod
    def forward(ctx, x, end, weight):
        ctx.save(weight=weight)
        return _lerp(x._data, end._data, x._data.dtype.type(weight))

    @staticmethod
    def backward(ctx, g):
        return g * (1 - ctx.weight), g * ctx.weight


class LerpBackward1(Function):
    """z = x + w * (end - x) for a tensor ``w``;  dz/dx = 1 - w,  dz/dend = w,  dz/dw = end - x."""
    saved_names = ("end", "self", "weight")

    @staticmethod
    def forward(ctx, x, end, weight):
        need_x, need_end, need_w = ctx.needs_input_grad or (False,) * 3
        ctx.save(end=end if need_w else None, self=x if need_w else None, weight=weight if need_x or need_end else None)
        return _lerp(x._data, end._data, weight._data)

    @staticmethod
    def backward(ctx, g):
        t = not isinstance(g, np.ndarray)
        need_x, need_end, need_w = ctx.needs_input_grad
        w = ctx._unpack("weight", t) if need_x or need_end else None
        return (g * (1 - w) if need_x else None, g * w if need_end else None,
                g * (ctx._unpack("end", t) - ctx._unpack("self", t)) if need_w else None)


def lerp(self, end, weight):
    """The point ``weight`` of the way from self to end: self + weight * (end - self) (an exponential moving
    average is avg.lerp_(x, 1 - decay)). ``weight`` is a number (LerpBackward0) or a tensor (LerpBackward1)."""
    is_tensor = isinstance(weight, Tensor)
    others = (("end", end), ("weight", weight)) if is_tensor else (("end", end),)
    for name, t in others:
        if t._data.dtype != self._data.dtype:
            raise RuntimeError(f"expected dtype {CPP_NAMES[self._data.dtype.name]} for `{name}` but got dtype "
                               f"{CPP_NAMES[t._data.dtype.name]}")
    if self._data.dtype.kind != "f":
        kernel = "lerp_kernel_tensor" if is_tensor else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{kind_name(self._data)}'")
    if is_tensor:
        _broadcast_shape(_broadcast_shape(self._data.shape, end._data.shape), weight._data.shape)
        return LerpBackward1.apply(self, end, weight)
    _broadcast_shape(self._data.shape, end._data.shape)
    return LerpBackward0.apply(self, end, weight=weight)


def lerp_(self, end, weight):
    """:func:`lerp` written into self."""
    others = (end, weight) if isinstance(weight, Tensor) else (end,)
    return self._inplace(lambda s: lerp(s, end, weight), *others)


class XlogyBackward0(Function):
    """z = x log(y), and 0 where x = 0 (so 0 log 0 = 0, as entropy needs);  dz/dx = log(y), but 0 where x = 0
    and y <= 0 (torch's choice);  dz/dy = x / y."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        ctx.save(other=y, self=x)
        return xlogy_array(x._data, y._data)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "xlogy")
        x, y = ctx._unpack("self", False), ctx._unpack("other", False)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where((x == 0) & (y <= 0), 0, xlogy_array(g, y)).astype(g.dtype), g * x / y


def xlogy(self, other):
    """``torch.xlogy(x, y)`` for two tensors: x log y, 0 where x = 0 (XlogyBackward0). torch records
    XlogyBackward1 / XlogyBackward2 for a number on either side, which autograd_tutor does not have."""
    if not isinstance(self, Tensor) or not isinstance(other, Tensor):
        raise NotImplementedError("autograd_tutor's xlogy takes two tensors; wrap the number in torch.tensor")
    _broadcast_shape(self._data.shape, other._data.shape)
    return XlogyBackward0.apply(self, other)


def xlogy_array(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x log y on arrays, 0 where x = 0 (unless y is nan)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = x * np.log(y)
    return np.where((x == 0) & ~np.isnan(y), 0, out).astype(out.dtype)
