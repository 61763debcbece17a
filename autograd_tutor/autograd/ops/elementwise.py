"""Elementwise math: ``exp``, ``log``, ``tanh``, ``sigmoid``, ``relu``, ``sqrt``, trigonometry, rounding, ``clamp``,
``maximum`` / ``minimum`` (``where`` is in ``selection.py``).

Each backward is written with operations that arrays and tensors share, in the order torch's formulas use
them, so that under ``create_graph=True`` the gradient's graph has torch's nodes too (``d/dx tan(x) = 1 +
tan(x)**2`` records ``PowBackward0`` then ``AddBackward1`` then ``MulBackward0``).

>>> import autograd_tutor as torch
>>> x = torch.tensor(4., requires_grad=True)
>>> y = x.rsqrt(); y.backward(); y, x.grad     # d/dx x**(-1/2) = -x**(-3/2) / 2
(tensor(0.5000, grad_fn=<RsqrtBackward0>), tensor(-0.0625))

>>> import autograd_tutor as torch
>>> y, x = torch.tensor(1., requires_grad=True), torch.tensor(1., requires_grad=True)
>>> z = torch.atan2(y, x); z.backward(); z, y.grad, x.grad     # the angle of (x, y): pi/4
(tensor(0.7854, grad_fn=<Atan2Backward0>), tensor(0.5000), tensor(-0.5000))
"""
from __future__ import annotations

import math

import numpy as np

from ..dtypes import kind_name, result_type
from ..function import Function
from . import indexing
from .backward_formulas import (_scaled, _tanh_grad, AddBackward1, MulBackward1, SgnBackward0,
                                SigmoidBackwardBackward0, TanhBackwardBackward0, ThresholdBackwardBackward0)
from .numerics import (_float, _is_tensor, _needs_array_only, _one_at_a_time, _promote, _rank, _rounded, _saved,
                       _sign, _zeros)
from .selection import _where
from ..tracebacks import ENGINE_FRAME

__all__ = ["ExpBackward0", "LogBackward0", "TanhBackward0", "SigmoidBackward0", "ReluBackward0", "SqrtBackward0",
           "AbsBackward0", "SinBackward0", "CosBackward0", "SignBackward0", "ClampBackward1", "MaximumBackward0",
           "MinimumBackward0", "RoundBackward0", "RoundBackward1", "FloorBackward0", "CeilBackward0", "Log1PBackward0",
           "Expm1Backward0", "RsqrtBackward0", "Log2Backward0", "Log10Backward0", "TanBackward0", "AtanBackward0",
           "AsinBackward0", "AcosBackward0", "SinhBackward0", "CoshBackward0", "erf", "ErfBackward0", "TruncBackward0",
           "FracBackward0", "ClampBackward0", "ClampMinBackward0", "ClampMaxBackward0", "ClampMinBackward1",
           "ClampMaxBackward1", "Atan2Backward0", "NanToNumBackward0",
           "HypotBackward0", "LogaddexpBackward0", "Logaddexp2Backward0"]


class ExpBackward0(Function):
    """z = exp(x);  dz/dx = z."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        return _rounded(np.exp, _float(x))

    @staticmethod
    def backward(ctx, g):
        return g * ctx._unpack("result", _is_tensor(g))


class LogBackward0(Function):
    """z = log(x);  dz/dx = 1/x."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _rounded(np.log, _float(x))

    @staticmethod
    def backward(ctx, g):
        with np.errstate(divide="ignore"):
            return g / ctx._unpack("self", _is_tensor(g))


class TanhBackward0(Function):
    """z = tanh(x);  dz/dx = 1 - z**2."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        return _rounded(np.tanh, _float(x))

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return TanhBackwardBackward0.apply(g, r) if _is_tensor(g) else _tanh_grad(g, r)


class SigmoidBackward0(Function):
    """z = 1 / (1 + exp(-x));  dz/dx = z * (1 - z)."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        d = _float(x)
        with np.errstate(over="ignore"):
            return (1 / (1 + _rounded(np.exp, -d))).astype(d.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return SigmoidBackwardBackward0.apply(g, r) if _is_tensor(g) else g * (1 - r) * r


class ReluBackward0(Function):
    """z = max(x, 0);  dz/dx = 0 where z <= 0, else 1 (also at nan: torch's threshold_backward lets g through)."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype == np.bool_:
            raise RuntimeError("Boolean inputs not supported for relu")
        d = x._data
        return np.where(d < 0, d.dtype.type(0), d)  # keeps -0. and nan, as torch's max(x, 0) does

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return ThresholdBackwardBackward0.apply(g, r) if _is_tensor(g) else _where(~(r <= 0), g)


class SqrtBackward0(Function):
    """z = sqrt(x);  dz/dx = 1 / (2 z)."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        with np.errstate(invalid="ignore"):
            return np.sqrt(_float(x))

    @staticmethod
    def backward(ctx, g):
        with np.errstate(divide="ignore"):
            return g / _scaled(ctx._unpack("result", _is_tensor(g)), 2)


class AbsBackward0(Function):
    """z = |x|;  dz/dx = sgn(x) (0 at 0, and at nan as in torch)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype == np.bool_:
            raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
        ctx.save(self=x)
        return np.abs(x._data)

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * (SgnBackward0.apply(x) if _is_tensor(g) else _sign(x))


class SinBackward0(Function):
    """z = sin(x);  dz/dx = cos(x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _rounded(np.sin, _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * (x.cos() if _is_tensor(g) else _rounded(np.cos, x))


class CosBackward0(Function):
    """z = cos(x);  dz/dx = -sin(x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _rounded(np.cos, _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * -x.sin() if _is_tensor(g) else -g * _rounded(np.sin, x)


class SignBackward0(Function):
    """z = sign(x) (0 at nan, as torch's);  dz/dx = 0 (torch takes 0 at x = 0 too)."""

    @staticmethod
    def forward(ctx, x):
        d = x._data
        return d.copy() if d.dtype == np.bool_ else _sign(d)  # a bool is its own sign

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class ClampBackward1(Function):
    """z = min(max(x, lo), hi);  dz/dx = 1 where lo <= x <= hi, else 0."""
    saved_names = ("self", "min", "max")

    @staticmethod
    def forward(ctx, x, min=None, max=None):
        ctx.save(self=x, min=min, max=max)
        d = x._data
        bounds = [b for b in (min, max) if b is not None]
        if d.dtype.kind in "biu":  # an integer tensor with float bounds gives floats, as torch promotes
            dt = d.dtype
            for b in bounds:
                dt = result_type((dt, _rank(x)), (np.asarray(b).dtype, 0))
            if dt == np.bool_:
                kernel = "clamp" if len(bounds) == 2 else "clamp_min" if min is not None else "clamp_max"
                raise NotImplementedError(f'"{kernel}_scalar_cpu" not implemented for \'Bool\'')
            d = d.astype(dt)
        return _clipped(d, np.clip(d, min, max).astype(d.dtype, copy=False))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", False)
        inside = np.ones(x.shape, bool)
        if ctx.__dict__.get("min") is not None:
            inside &= x >= ctx.min
        if ctx.__dict__.get("max") is not None:
            inside &= x <= ctx.max
        return _where(inside, g)


def _clipped(d: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out``, ``d`` clipped, with d's own value where clipping did not change it: torch keeps -0. when the
    bound is 0. (``x.clamp(min=0)`` of -0. is -0.), NumPy's clip gives the bound."""
    return np.where(out == d, d, out) if d.dtype.kind == "f" and out.dtype == d.dtype else out


def _first_at_ties(out, d):
    """``out`` (the elementwise maximum, minimum or clamp of ``d``), with d's own 0. or -0. where the other
    operand was the other zero, in the elements torch's kernel takes one at a time (``std::max(a, b)`` gives a
    at a tie); its vector loop gives the other operand there, as NumPy does."""
    if np.shape(out) != np.shape(d) or np.asarray(out).dtype != np.asarray(d).dtype:
        return out
    tail = _one_at_a_time(np.asarray(d))
    if tail is None:
        return out
    out = np.array(out)
    flat, first = out.reshape(-1), np.asarray(d).reshape(-1)[tail]
    flat[tail] = np.where(flat[tail] == first, first, flat[tail])
    return out if out.ndim else out[()]


class MaximumBackward0(Function):
    """z = maximum(a, b);  the larger input gets g, a tie splits it in halves."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save(other=b, self=a)
        da, db = _promote(a, b)
        return _first_at_ties(np.maximum(da, db), da)

    @staticmethod
    def backward(ctx, g):
        b, a = ctx._unpack("other", False), ctx._unpack("self", False)
        return _tie_split(g, a < b, a > b, a == b)


def _tie_split(g, self_loses, other_loses, ties) -> tuple:
    """maximum/minimum as torch's formula: each input gets ``g`` (half of it at a tie) unless it loses, so where
    one is nan (neither wins) both get ``g``: ``where(a == b, g / 2, g).masked_fill_(a loses, 0)``."""
    shared = _where(ties, g / 2) + _where(~ties, g)
    return _where(~self_loses, shared), _where(~other_loses, shared)


class MinimumBackward0(Function):
    """z = minimum(a, b);  the smaller input gets g, a tie splits it in halves."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save(other=b, self=a)
        da, db = _promote(a, b)
        return _first_at_ties(np.minimum(da, db), da)

    @staticmethod
    def backward(ctx, g):
        b, a = ctx._unpack("other", False), ctx._unpack("self", False)
        return _tie_split(g, a > b, a < b, a == b)


class _StepFunction(Function):
    """Rounding: z is flat between the jumps, so dz/dx = 0."""
    rounding = None

    @classmethod
    def forward(cls, ctx, x):
        return cls.rounding(x._data)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class RoundBackward0(_StepFunction):
    """z = round(x), halves to even;  dz/dx = 0."""
    rounding = staticmethod(np.round)


class RoundBackward1(Function):
    """z = x rounded to ``decimals`` places (halves to even), in x's dtype as torch's kernel computes it:
    rint(x * 10^d) / 10^d, or rint(x / 10^-d) * 10^-d for negative d;  dz/dx = 0.

    >>> import autograd_tutor as torch
    >>> torch.tensor([2.675, 1234.5678]).round(decimals=2).tolist()
    [2.680000066757202, 1234.5699462890625]"""

    @staticmethod
    def forward(ctx, x, decimals):
        d = x._data
        scale = d.dtype.type(10.0 ** abs(decimals))
        return np.rint(d * scale) / scale if decimals >= 0 else np.rint(d / scale) * scale

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class FloorBackward0(_StepFunction):
    """z = floor(x);  dz/dx = 0."""
    rounding = staticmethod(np.floor)


class CeilBackward0(_StepFunction):
    """z = ceil(x);  dz/dx = 0."""
    rounding = staticmethod(np.ceil)


class Log1PBackward0(Function):
    """z = log(1 + x);  dz/dx = 1 / (1 + x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _rounded(np.log1p, _float(x))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "log1p")
        return g / (ctx._unpack("self", False) + 1)


class Expm1Backward0(Function):
    """z = exp(x) - 1;  dz/dx = exp(x) = z + 1."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        with np.errstate(over="ignore"):
            return _rounded(np.expm1, _float(x))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "expm1")
        return g * (ctx._unpack("result", False) + 1)


LN2, LN10 = math.log(2.0), math.log(10.0)


def _plus_one(t):
    """``t + 1`` recorded as torch's formulas record it: AddBackward1 for a tensor, plain addition for an array."""
    return AddBackward1.apply(t, other=1) if _is_tensor(t) else t + 1


def _quiet(fn, d: np.ndarray) -> np.ndarray:
    """``fn(d)`` without NumPy's warnings for inf and nan (log2 of 0, asin of 2: torch gives -inf and nan silently)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return fn(d)


class RsqrtBackward0(Function):
    """z = 1/sqrt(x) = x**(-1/2);  dz/dx = -x**(-3/2) / 2 = -z**3 / 2."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        d = _float(x)
        return _quiet(lambda a: 1 / np.sqrt(a), d).astype(d.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return _scaled(g, -0.5) * r.pow(3) if _is_tensor(g) else g * -0.5 * (r * r * r)


class Log2Backward0(Function):
    """z = log2(x) = ln(x) / ln(2);  dz/dx = 1 / (x ln 2)."""
    saved_names = ("self",)
    log, ln_base = np.log2, LN2

    @classmethod
    def forward(cls, ctx, x):
        ctx.save(self=x)
        return _quiet(lambda d: _rounded(cls.log, d), _float(x))

    @staticmethod
    def backward(ctx, g):
        with np.errstate(divide="ignore"):
            return g / _scaled(ctx._unpack("self", _is_tensor(g)), type(ctx).ln_base)


class Log10Backward0(Log2Backward0):
    """z = log10(x) = ln(x) / ln(10);  dz/dx = 1 / (x ln 10)."""
    log, ln_base = np.log10, LN10


class TanBackward0(Function):
    """z = tan(x);  dz/dx = 1 / cos(x)**2 = 1 + z**2."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        return np.tan(_float(x))

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return g * _plus_one(r.pow(2) if _is_tensor(g) else r * r)


class AtanBackward0(Function):
    """z = atan(x);  dz/dx = 1 / (1 + x**2)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _rounded(np.arctan, _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g / _plus_one(x * x)


class AsinBackward0(Function):
    """z = asin(x) for |x| <= 1;  dz/dx = 1 / sqrt(1 - x**2)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _quiet(lambda d: _rounded(np.arcsin, d), _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * _one_minus_square_rsqrt(x)


def _one_minus_square_rsqrt(x):
    """1 / sqrt(1 - x**2), written as torch's formula: ``(-x * x + 1).rsqrt()``."""
    if _is_tensor(x):
        return RsqrtBackward0.apply(_plus_one(-x * x))
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1 / np.sqrt(1 - x * x)


class AcosBackward0(Function):
    """z = acos(x) for |x| <= 1;  dz/dx = -1 / sqrt(1 - x**2)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _quiet(np.arccos, _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * -_one_minus_square_rsqrt(x)


class SinhBackward0(Function):
    """z = sinh(x) = (e**x - e**-x) / 2;  dz/dx = cosh(x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _quiet(np.sinh, _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * (CoshBackward0.apply(x) if _is_tensor(g) else _quiet(np.cosh, x))


class CoshBackward0(Function):
    """z = cosh(x) = (e**x + e**-x) / 2;  dz/dx = sinh(x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _quiet(np.cosh, _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * (SinhBackward0.apply(x) if _is_tensor(g) else _quiet(np.sinh, x))


_erf64 = np.frompyfunc(math.erf, 1, 1)


def erf(d: np.ndarray) -> np.ndarray:
    """erf elementwise: Python's ``math.erf`` in float64, rounded once to ``d``'s dtype (NumPy has no erf)."""
    return np.asarray(_erf64(d.astype(np.float64)), np.float64).astype(d.dtype)


class ErfBackward0(Function):
    """z = erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-t**2) dt;  dz/dx = 2/sqrt(pi) * exp(-x**2)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return erf(_float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        c = 2 / math.sqrt(math.pi)
        if _is_tensor(g):
            return MulBackward1.apply((-x.pow(2)).exp(), other=c) * g
        return _rounded(np.exp, -(x * x)) * c * g


class TruncBackward0(Function):
    """z = trunc(x), x rounded towards zero;  dz/dx = 0 (flat between the jumps)."""

    @staticmethod
    def forward(ctx, x):
        d = x._data
        if d.dtype == np.bool_:
            raise NotImplementedError("\"trunc_vml_cpu\" not implemented for 'Bool'")
        return np.trunc(d) if d.dtype.kind == "f" else d.copy()

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class FracBackward0(Function):
    """z = x - trunc(x), the fractional part (with x's sign);  dz/dx = 1."""

    @staticmethod
    def forward(ctx, x):
        d = x._data
        if d.dtype.kind != "f":
            raise NotImplementedError(f"\"frac_cpu\" not implemented for '{kind_name(d)}'")
        return d - np.trunc(d)

    @staticmethod
    def backward(ctx, g):
        return g


class ClampBackward0(Function):
    """``x.clamp(lo, hi)`` with tensor bounds: z = min(max(x, lo), hi);  dz/dx = 1 where lo <= x <= hi,
    dz/dlo = 1 where x < lo, dz/dhi = 1 where x > hi (hi wins where lo > hi). A bound not given is an
    untracked placeholder, named in ``given``."""
    saved_names = ("self", "min", "max")

    @staticmethod
    def forward(ctx, x, lo, hi, given=(True, True)):
        lo, hi = (b if g else None for b, g in zip((lo, hi), given))
        ctx.save(max=hi, min=lo, self=x)
        arrays = [t._data for t in (x, lo, hi) if t is not None]
        out = np.clip(x._data, *(None if t is None else t._data for t in (lo, hi))).astype(np.result_type(*arrays))
        return _first_at_ties(out, x._data)

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        _needs_array_only(ctx, g, "clamp with tensor bounds")
        saved = _saved(ctx)
        x = ctx._unpack("self", False)
        lo = ctx._unpack("min", False) if "min" in saved else None
        hi = ctx._unpack("max", False) if "max" in saved else None
        # torch's clamp_backward and clamp_backward_min_max: a nan x or bound sends nothing to x
        inside = (x >= lo if lo is not None else True) & (x <= hi if hi is not None else True)
        below = x < lo if lo is not None else None
        above = x > hi if hi is not None else None
        if lo is not None and hi is not None:  # where lo > hi, hi wins
            below, above = below & (lo < hi), above | (hi < lo)
        zero = g.dtype.type(0)
        return tuple(None if m is None else np.where(m, g, zero) for m in (inside, below, above))


class ClampMinBackward0(ClampBackward1):
    """``x.clamp_min(c)`` for a number c: z = max(x, c);  dz/dx = 1 where x >= c."""
    saved_names = ("self", "min")


class ClampMaxBackward0(ClampBackward1):
    """``x.clamp_max(c)`` for a number c: z = min(x, c);  dz/dx = 1 where x <= c."""
    saved_names = ("self", "max")


class _ClampOneTensorBound(ClampBackward0):
    """``x.clamp_min(lo)`` / ``x.clamp_max(hi)`` with a tensor bound: ClampBackward0 with the other bound
    missing; ``side`` says which bound this is (0: min, 1: max)."""
    side = 0

    @classmethod
    def forward(cls, ctx, x, bound):
        given = (cls.side == 0, cls.side == 1)
        return ClampBackward0.forward(ctx, x, *(bound if g else None for g in given), given)

    @classmethod
    def backward(cls, ctx, g):
        gx, glo, ghi = ClampBackward0.backward(ctx, g)
        return gx, (glo, ghi)[cls.side]


class ClampMinBackward1(_ClampOneTensorBound):
    """``x.clamp_min(lo)`` with a tensor lo: z = max(x, lo);  dz/dx = 1 where x >= lo, dz/dlo = 1 where x < lo."""
    saved_names = ("self", "min")


class ClampMaxBackward1(_ClampOneTensorBound):
    """``x.clamp_max(hi)`` with a tensor hi: z = min(x, hi);  dz/dx = 1 where x <= hi, dz/dhi = 1 where x > hi."""
    saved_names = ("self", "max")
    side = 1


class Atan2Backward0(Function):
    """z = atan2(y, x), the angle of the point (x, y);  dz/dy = x / (x**2 + y**2),  dz/dx = -y / (x**2 + y**2)."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, y, x):
        ctx.save(other=x, self=y)  # torch's order
        a, b = _promote(y, x)
        dtype = np.result_type(a) if np.result_type(a).kind == "f" else np.dtype(np.float32)
        return np.asarray(np.arctan2(np.float64(a), np.float64(b))).astype(dtype)

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, y = ctx._unpack("other", t), ctx._unpack("self", t)
        with np.errstate(divide="ignore", invalid="ignore"):
            r2 = y * y + x * x
            if t:  # torch: recip.masked_fill_(recip.isinf(), 0)
                recip = r2.reciprocal()
                recip = MaskedFillBackward0.apply(recip, mask=np.isinf(recip._data), value=0)
            else:  # at the origin the angle has no gradient: torch gives 0 there, not nan
                recip = np.where(r2 == 0, 0, 1 / r2)
            return g * x * recip, g * -y * recip


def _floating_pair(y, x, kernel: str) -> tuple:
    """Both operands' arrays in their common dtype, which must be floating (torch's error names its kernel)."""
    a, b = _promote(y, x)
    if np.result_type(a).kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{kind_name(np.asarray(a))}\'')
    return a, b


class HypotBackward0(Function):
    """z = hypot(x, y) = sqrt(x**2 + y**2), without overflow on the way;  dz/dx = x / z,  dz/dy = y / z.

    >>> import autograd_tutor as torch
    >>> x, y = torch.tensor(3., requires_grad=True), torch.tensor(4., requires_grad=True)
    >>> z = torch.hypot(x, y); z.backward(); z, x.grad, y.grad
    (tensor(5., grad_fn=<HypotBackward0>), tensor(0.6000), tensor(0.8000))
    """
    saved_names = ("self", "other")
    saves_result = True

    @staticmethod
    def forward(ctx, x, y):
        ctx.save(other=y, self=x)
        return np.hypot(*_floating_pair(x, y, "hypot_cpu"))

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, y, z = ctx._unpack("self", t), ctx._unpack("other", t), ctx._unpack("result", t)
        with np.errstate(divide="ignore", invalid="ignore"):
            return g * x / z, g * y / z


class LogaddexpBackward0(Function):
    """z = log(exp(x) + exp(y)), computed as max(x, y) + log1p(exp(-|x - y|)) so that it never overflows;
    dz/dx = 1 / (1 + exp(y - x)) (the softmax weight of x),  dz/dy = 1 / (1 + exp(x - y)).

    >>> import autograd_tutor as torch
    >>> x, y = torch.tensor(0., requires_grad=True), torch.tensor(0., requires_grad=True)
    >>> z = torch.logaddexp(x, y); z.backward(); z, x.grad  # log(1 + 1), and half the weight
    (tensor(0.6931, grad_fn=<LogaddexpBackward0>), tensor(0.5000))
    """
    saved_names = ("self", "other")
    base = np.e
    kernel = "logaddexp_cpu"

    @classmethod
    def forward(cls, ctx, x, y):
        ctx.save(other=y, self=x)
        a, b = _floating_pair(x, y, cls.kernel)
        with np.errstate(invalid="ignore"):  # inf and -inf: their difference is nan, the answer is not
            return (np.logaddexp if cls.base == np.e else np.logaddexp2)(a, b)

    @classmethod
    def backward(cls, ctx, g):
        t = _is_tensor(g)
        x, y = ctx._unpack("self", t), ctx._unpack("other", t)
        with np.errstate(over="ignore", invalid="ignore"):
            if cls.base == np.e:
                up = (y - x).exp() if t else np.exp(y - x)
                down = (x - y).exp() if t else np.exp(x - y)
            else:
                up, down = 2 ** (y - x), 2 ** (x - y)
            return g / (1 + up), g / (1 + down)


class Logaddexp2Backward0(LogaddexpBackward0):
    """z = log2(2**x + 2**y);  dz/dx = 1 / (1 + 2**(y - x)),  dz/dy = 1 / (1 + 2**(x - y))."""
    base = 2
    kernel = "logaddexp2_cpu"


class MaskedFillBackward0(indexing.MaskedFillBackward0):
    """z = 0 where ``mask`` (x infinite), else x: atan2's gradient under create_graph, which torch records as
    ``masked_fill_``;  dx = g with zeros under the mask, recorded again as a masked_fill to differentiate further."""

    @staticmethod
    def backward(ctx, g):
        mask = ctx._unpack("mask", False)
        if _is_tensor(g):
            return MaskedFillBackward0.apply(g, mask=np.broadcast_to(mask, g._data.shape), value=0)
        return np.where(mask, 0, g).astype(g.dtype, copy=False)


class NanToNumBackward0(Function):
    """z = x with nan, +inf and -inf replaced by finite numbers;  dz/dx = 1 where x is finite, else 0
    (torch's ``grad * isfinite(x)``: an infinite g at a replaced entry gives nan)."""

    @staticmethod
    def forward(ctx, x, nan=0.0, posinf=None, neginf=None):
        ctx.save(self=x)
        d = x._data
        if d.dtype.kind != "f":
            return d.copy()
        info = np.finfo(d.dtype)
        return np.nan_to_num(d, nan=nan, posinf=info.max if posinf is None else posinf,
                             neginf=info.min if neginf is None else neginf)

    @staticmethod
    def backward(ctx, g):
        finite = np.isfinite(ctx._unpack("self", False))
        if _is_tensor(g):
            return g * type(g)._make(finite)
        return (g * finite).astype(g.dtype, copy=False)
