"""Arithmetic: ``+ - * /``, powers, remainders, and the fused ``addcmul`` / ``addcdiv`` / ``lerp`` / ``xlogy``.
"""
from __future__ import annotations

import numpy as np

from ..dtypes import result_type
from ..function import Function
from ..tensor import _broadcast_shape, _wrap, Tensor
from .backward_formulas import _scaled
from .numerics import _FLOAT32, _float, _is_tensor, _laid_out, _needs_array_only, _promote, _rank, _rounded, _saved, _zeros
from .selection import _where
from ..tracebacks import ENGINE_FRAME

__all__ = ["AddBackward0", "SubBackward0", "RsubBackward0", "RsubBackward1", "MulBackward0", "DivBackward0", "DivBackward2",
           "NegBackward0", "ReciprocalBackward0", "PowBackward0", "PowBackward1", "PowBackward2", "RemainderBackward0",
           "RemainderBackward1", "FmodBackward0", "FmodBackward1", "NotImplementedNode", "AddcmulBackward0",
           "AddcdivBackward0", "LerpBackward0", "LerpBackward1", "XlogyBackward0", "xlogy_array"]


class AddBackward0(Function):
    """z = a + alpha * b (alpha = 1 for ``a + b``);  dz/da = 1,  dz/db = alpha."""

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        if alpha != 1:
            _check_alpha(a, b, alpha)
        da, db = _promote(a, b)
        out = da + db if alpha == 1 else da + db * alpha
        return out if out.ndim < 2 else _laid_out(out, a._data, b._data)

    @staticmethod
    def backward(ctx, g):
        return g, (g if ctx.alpha == 1 else g * ctx.alpha)


def _check_subtraction(a, b, alpha=1) -> None:
    """torch's refusals: subtracting bool tensors, and a float alpha with integer tensors."""
    bools = (a._data.dtype == np.bool_) + (b._data.dtype == np.bool_)
    if bools == 2:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if bools:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                           "to invert a mask, use the `~` or `logical_not()` operator instead.")
    _check_alpha(a, b, alpha)


def _check_alpha(a, b, alpha) -> None:
    if isinstance(alpha, float) and a._data.dtype.kind in "iu" and b._data.dtype.kind in "iu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


class SubBackward0(Function):
    """z = a - alpha * b (alpha = 1 for ``a - b``);  dz/da = 1,  dz/db = -alpha."""

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        _check_subtraction(a, b, alpha)
        ctx.alpha = alpha
        da, db = _promote(a, b)
        out = da - db if alpha == 1 else da - db * alpha
        return out if out.ndim < 2 else _laid_out(out, a._data, b._data)

    @staticmethod
    def backward(ctx, g):
        return g, (-g if ctx.alpha == 1 else -g * ctx.alpha)


class RsubBackward0(Function):
    """z = b - alpha * x for a tensor b (``torch.rsub(x, b)``);  dz/dx = -alpha,  dz/db = 1."""

    @staticmethod
    def forward(ctx, x, b, alpha=1):
        _check_subtraction(x, b, alpha)
        ctx.alpha = alpha
        da, db = _promote(x, b)
        return db - da if alpha == 1 else db - da * alpha

    @staticmethod
    def backward(ctx, g):
        return (-g if ctx.alpha == 1 else -g * ctx.alpha), g


class RsubBackward1(Function):
    """z = c - alpha * x for a number c (``1 - x``);  dz/dx = -alpha (the number is not an input)."""

    @staticmethod
    def forward(ctx, x, other, alpha=1):
        _check_subtraction(x, _wrap(other), alpha)
        ctx.alpha = alpha
        da, db = _promote(x, _wrap(other))
        return db - da if alpha == 1 else db - da * alpha

    @staticmethod
    def backward(ctx, g):
        return -g if ctx.alpha == 1 else -g * ctx.alpha


class MulBackward0(Function):
    """z = a * b;  dz/da = b,  dz/db = a."""
    saved_names = ("self", "other")
    saves_for = (("other", 1, 0), ("self", 0, 1))  # b for dz/da, a for dz/db: only where that gradient is needed

    @staticmethod
    def forward(ctx, a, b):
        da, db = _promote(a, b)
        out = da * db
        return out if out.ndim < 2 else _laid_out(out, a._data, b._data)

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        saved, t = _saved(ctx), _is_tensor(g)
        b, a = saved.get("other"), saved.get("self")  # SavedTensors, each there only if its gradient is needed
        return (g * _as_grad_scalar(b.get(ctx, t), g) if b is not None else None), \
            (g * a.get(ctx, t) if a is not None else None)


def _as_grad_scalar(other, g):
    """A Python number saved by ``x * 0.1`` (a float64 0-dim tensor, as in torch) as float32 for a float32
    gradient: torch's kernel multiplies it by ``float32(0.1)``; a one-element gradient, though, in double."""
    if _is_tensor(g) or other.ndim or g.size == 1 or g.dtype != _FLOAT32 or other.dtype == _FLOAT32:
        return other
    return other.astype(_FLOAT32)


class DivBackward0(Function):
    """z = a / b;  dz/da = 1/b,  dz/db = -a/b**2."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save(other=b, self=a if need_b else None)
        da, db = _promote(a, b)
        if da.dtype.kind != "f":
            da, db = da.astype(np.float32), db.astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = da / db
        return out if out.ndim < 2 else _laid_out(out, a._data, b._data)

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        t = _is_tensor(g)
        b = ctx._unpack("other", t)
        a = ctx._unpack("self", t) if "self" in _saved(ctx) else None
        with np.errstate(divide="ignore", invalid="ignore"):
            return g / b, (-g * ((a / b) / b) if a is not None else None)


class DivBackward2(Function):
    """z = a / b rounded as ``rounding_mode`` says: None (true division, dz/da = 1/b, dz/db = -a/b**2), "trunc"
    (toward zero) or "floor" (toward minus infinity), whose steps have dz/da = dz/db = 0. Integers stay integers
    when rounded: ``torch.div(torch.tensor(-7), 2, rounding_mode="floor")`` is ``tensor(-4)``."""
    saved_names = ("other", "rounding_mode", "self")

    @staticmethod
    def forward(ctx, a, b, rounding_mode=None):
        ctx.save(other=b, rounding_mode=rounding_mode, self=a)
        da, db = _promote(a, b)
        if rounding_mode is None and da.dtype.kind != "f":
            da, db = da.astype(np.float32), db.astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            if rounding_mode == "floor":
                return np.asarray(np.floor_divide(da, db))
            if rounding_mode == "trunc" and da.dtype.kind != "f":
                return np.asarray(np.trunc(da / db).astype(da.dtype))  # exact below 2**53
            out = np.asarray(da / db)
            return np.trunc(out) if rounding_mode == "trunc" else out

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        t = _is_tensor(g)
        a, b = ctx._unpack("self", t), ctx._unpack("other", t)
        if ctx.rounding_mode is not None:
            return g * 0, g * 0
        with np.errstate(divide="ignore", invalid="ignore"):
            return g / b, -g * ((a / b) / b)


class NegBackward0(Function):
    """z = -x;  dz/dx = -1."""

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                               "invert a mask, use the `~` or `logical_not()` operator instead.")
        return -x._data

    @staticmethod
    def backward(ctx, g):
        return -g


class ReciprocalBackward0(Function):
    """z = 1/x;  dz/dx = -z**2."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        with np.errstate(divide="ignore"):
            return 1 / _float(x)

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return -g * (r * r)


def _pow_scalar(d: np.ndarray, e):
    """``d ** e`` for a number ``e``, computed the way torch's kernel does (``x * x`` for 2, ``sqrt`` for 0.5...)
    so that float32 results agree to the last bit."""
    if d.dtype.kind == "f":
        if e == 2:
            return d * d
        if e == 3:
            return d * d * d
        if e == 0.5:
            return np.sqrt(d)  # so (-0.) ** 0.5 is -0. and (-inf) ** 0.5 is nan, as in torch
        if e == -0.5:
            return 1 / np.sqrt(d)
        if e == -1:
            return 1 / d
        if e == -2:
            return 1 / (d * d)
        if d.dtype == _FLOAT32:
            return _power(d, float(e))
    return d ** np.asarray(e, dtype=d.dtype if d.dtype.kind == "f" else None)


def _power(a, b):
    """``a ** b``, for float32 through float64 and rounded once: NumPy's float32 power is a unit in the last place
    off for one element in 15 or more (x ** 1.5, x ** -1.5, x ** p for an integer tensor p), torch's is
    (nearly always) correctly rounded, and the loss of a lesson prints those digits."""
    if np.result_type(a, b) == _FLOAT32:
        return (np.asarray(a, np.float64) ** np.asarray(b, np.float64)).astype(np.float32)
    return a ** b


class PowBackward0(Function):
    """z = x**e for a number e;  dz/dx = e * x**(e-1) (0 when e == 0)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, exponent):
        ctx.save(self=x, exponent=exponent)
        d = x._data
        if isinstance(exponent, float) and d.dtype.kind != "f":
            d = d.astype(np.float32)
        if d.dtype.kind in "iub" and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return _quiet_pow(d, exponent)

    @staticmethod
    def backward(ctx, g):
        e = ctx.exponent
        x = ctx._unpack("self", _is_tensor(g))
        if e == 0:
            return _zeros(g)  # zeros, also where g is inf or nan
        if _is_tensor(g):
            return g * _scaled(x ** (e - 1), e)
        return g * _scaled(x if e == 2 else _quiet_pow(x, e - 1), e)  # x**1 is x


def _quiet_pow(d: np.ndarray, e):
    """:func:`_pow_scalar` without NumPy's warnings for 0 to a negative power and the like (torch gives inf
    and nan silently); whole non-negative powers raise none, and skip the cost of ``np.errstate``."""
    if e >= 0 and float(e).is_integer():
        return _pow_scalar(d, e)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _pow_scalar(d, e)


class PowBackward1(Function):
    """z = x**w for a tensor w;  dz/dx = w * x**(w-1),  dz/dw = z * log(x) (0 where x == 0 and w >= 0)."""
    saves_result = True
    saved_names = ("self", "exponent")

    @staticmethod
    def forward(ctx, x, w):
        ctx.save(exponent=w, self=x)
        dx, dw = _promote(x, w)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _power(dx, dw)

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        w, x, r = ctx._unpack("exponent", t), ctx._unpack("self", t), ctx._unpack("result", t)
        xd, wd = (x._data, w._data) if t else (x, w)
        mask = ~((xd == 0) & (wd >= 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            gw = g * _where(mask, r * (x.log() if t else _rounded(np.log, np.where(mask, x, 1))))
            gx = g * (w * (x ** (w - 1) if t else _power(x, w - 1)))
            return (_where(wd != 0, gx) if t else np.where(wd != 0, gx, 0).astype(gx.dtype, copy=False)), gw


class PowBackward2(Function):
    """z = c**x for a number c;  dz/dx = z * log(c)."""
    saves_result = True
    saved_names = ("exponent",)

    @staticmethod
    def forward(ctx, x, base):
        ctx.save(exponent=x, self=base)
        db, dx = _promote(_wrap(base), x)
        return db ** dx

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, r = ctx._unpack("exponent", t), ctx._unpack("result", t)
        base = ctx.self
        if base == 0:  # 0**x is flat (0 or 1) where x >= 0
            flat = (x._data if t else x) >= 0
            with np.errstate(divide="ignore", invalid="ignore"):
                return _where(~flat, g * (r * -np.inf)) if t else np.where(flat, 0, g * (r * -np.inf)).astype(g.dtype)
        return g * _scaled(r, float(np.log(base)))


def _remainder(a, b):
    """Python's ``a % b`` (the divisor's sign), computed as torch does: fmod, then b added where the signs
    differ, so that -2 % 2 is -0. as in torch."""
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)[()]


class RemainderBackward0(Function):
    """``x % c`` for a number c (Python's sign rule: the result has c's sign): z = x - floor(x / c) c;  dz/dx = 1."""

    @staticmethod
    def forward(ctx, x, other):
        return _remainder(*_promote(x, _wrap(other)))

    @staticmethod
    def backward(ctx, g):
        return g


class RemainderBackward1(Function):
    """``x % y`` for a tensor y: z = x - floor(x / y) y;  dz/dx = 1,  dz/dy = -(x // y), the quotient
    rounded as torch's ``div(rounding_mode="floor")`` (nan for an infinite x, -1 for 1 // -inf)."""
    saved_names = ("self", "other")

    @classmethod
    def forward(cls, ctx, x, y):
        ctx.save(other=y, self=x)
        return cls.op(*_promote(x, y))

    op = staticmethod(_remainder)
    quotient = staticmethod(np.floor_divide)  # torch's div_floor: fmod, then the same corrections

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, y = ctx._unpack("self", t), ctx._unpack("other", t)
        with np.errstate(divide="ignore", invalid="ignore"):
            quotient = type(ctx).quotient(x._data if t else x, y._data if t else y)
        return g, (-g * quotient if not t else -g * _wrap(quotient.astype(g._data.dtype)))


class FmodBackward0(RemainderBackward0):
    """``x.fmod(c)`` for a number c (C's sign rule: the result has x's sign): z = x - trunc(x / c) c;  dz/dx = 1."""

    @staticmethod
    def forward(ctx, x, other):
        return np.fmod(*_promote(x, _wrap(other)))


class FmodBackward1(RemainderBackward1):
    """``x.fmod(y)`` for a tensor y: z = x - trunc(x / y) y;  dz/dx = 1,  dz/dy = -trunc(x / y)."""
    op = staticmethod(np.fmod)
    quotient = staticmethod(lambda x, y: np.trunc(x / y))


class NotImplementedNode(Function):
    """The node torch records for an operation it cannot differentiate (``x // 2``): the forward value is
    computed, and backward stops with torch's error naming the operation."""

    def name(self) -> str:
        return "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, *inputs, values, op):
        ctx.op = op
        return values

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError(f"derivative for aten::{ctx.op} is not implemented")


NotImplementedNode.__name__ = NotImplementedNode.__qualname__ = "NotImplemented"  # how torch prints it


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


def xlogy_array(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x log y on arrays, 0 where x = 0 (unless y is nan)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = x * np.log(y)
    return np.where((x == 0) & ~np.isnan(y), 0, out).astype(out.dtype)
