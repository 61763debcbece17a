"""More differentiable operations: unary math, matrix helpers (addmm, diag, trace, tril/triu) and sorting.

The same pattern as ``functions.py``: one class per op, named as torch names its node, ``forward`` on NumPy
arrays and ``backward`` beside it. Each backward is written with operations that arrays and tensors share, in
the order torch's formulas use them, so that under ``create_graph=True`` the gradient's graph has torch's
nodes too (``d/dx tan(x) = 1 + tan(x)**2`` records ``PowBackward0`` then ``AddBackward1`` then ``MulBackward0``).

>>> import autograd_tutor as torch
>>> x = torch.tensor(4., requires_grad=True)
>>> y = x.rsqrt(); y.backward(); y, x.grad     # d/dx x**(-1/2) = -x**(-3/2) / 2
(tensor(0.5000, grad_fn=<RsqrtBackward0>), tensor(-0.0625))
"""
from __future__ import annotations

import math

import numpy as np

from .dtypes import kind_name
from .function import Function
from .functions import (AddBackward1, ClampBackward1, MulBackward1, ScatterBackward0, _column_major, _float,
                        _is_tensor, _mm, _mm_shapes_error, _needs_array_only, _promote, _rounded, _saved, _scaled,
                        _strides, _t, _zeros)

__all__: list = []  # used through Tensor methods and torch-level functions, not imported by name

LN2, LN10 = math.log(2.0), math.log(10.0)


def _plus_one(t):
    """``t + 1`` recorded as torch's formulas record it: AddBackward1 for a tensor, plain addition for an array."""
    return AddBackward1.apply(t, other=1) if _is_tensor(t) else t + 1


def _quiet(fn, d: np.ndarray) -> np.ndarray:
    """``fn(d)`` without NumPy's warnings for inf and nan (log2 of 0, asin of 2: torch gives -inf and nan silently)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return fn(d)


# ---------------------------------------------------------------- unary math

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


# ---------------------------------------------------------------- matrices

class AddmmBackward0(Function):
    """Z = beta * bias + alpha * (A @ B) (bias broadcast over rows);  dbias = beta * G (summed to its shape),
    dA = alpha * G @ B.T,  dB = alpha * A.T @ G.  ``nn.Linear`` on a batch is ``addmm(b, x, W.t())``."""
    saved_names = ("mat1", "mat2")

    @staticmethod
    def forward(ctx, bias, mat1, mat2, beta=1, alpha=1):
        a, b, c = mat1._data, mat2._data, bias._data
        if c.dtype != b.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {kind_name(c)} and {kind_name(b)}")
        if a.dtype != b.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {kind_name(a)} and {kind_name(b)}")
        if a.shape[1] != b.shape[0]:
            raise _mm_shapes_error(a, b)
        shape = (a.shape[0], b.shape[1])
        try:
            fits = c.ndim <= 2 and np.broadcast_shapes(c.shape, shape) == shape
        except ValueError:
            fits = False
        if not fits:
            from .tensor import Tensor
            Tensor._make(c).expand(*shape)  # raises torch's expand error
        _, need_a, need_b = ctx.needs_input_grad or (False, False, False)
        ctx.save(mat1=mat1 if need_b else None, mat2=mat2 if need_a else None, alpha=alpha, beta=beta,
                 mat1_sym_sizes=a.shape, mat1_sym_strides=_strides(a) if need_a else (),
                 mat2_sym_sizes=b.shape, mat2_sym_strides=_strides(b) if need_b else ())
        product = _mm(a, b)
        if alpha != 1:
            product = product * a.dtype.type(alpha)
        if beta == 0:  # torch ignores the bias then: its nan and inf do not leak into the result
            return np.broadcast_to(product, shape).copy()
        return product + (c if beta == 1 else c * c.dtype.type(beta))

    @staticmethod
    def backward(ctx, g):
        """torch's mm formulas (a column-major operand keeps a column-major gradient), times alpha and beta."""
        t = _is_tensor(g)
        saved = _saved(ctx)
        a = ctx._unpack("mat1", t) if "mat1" in saved else None
        b = ctx._unpack("mat2", t) if "mat2" in saved else None
        ga = gb = None
        if b is not None:
            ga = _t(_mm(b, _t(g))) if _column_major(ctx.mat1_sym_sizes, ctx.mat1_sym_strides) else _mm(g, _t(b))
        if a is not None:
            gb = _t(_mm(_t(g), a)) if _column_major(ctx.mat2_sym_sizes, ctx.mat2_sym_strides) else _mm(_t(a), g)
        alpha, beta = ctx.alpha, ctx.beta
        if alpha != 1:
            ga, gb = (None if ga is None else _scaled(ga, alpha)), (None if gb is None else _scaled(gb, alpha))
        return (g if beta == 1 else _scaled(g, beta)), ga, gb


class DiagEmbedBackward0(Function):
    """Z = a square matrix with the vector v on its diagonal (``offset`` above it, below if negative), zeros
    elsewhere;  dv = the same diagonal of G."""

    @staticmethod
    def forward(ctx, v, offset):
        ctx.show(dim1=-2, dim2=-1, offset=offset)
        ctx._offset = offset
        return np.diag(v._data, offset)

    @staticmethod
    def backward(ctx, g):
        return DiagonalBackward0.apply(g, offset=ctx._offset) if _is_tensor(g) else np.diagonal(g, ctx._offset).copy()


def _diagonal_view(a: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """The ``offset`` diagonal of ``a`` over dims dim1 and dim2, as its last dim: a view that writes through
    to ``a`` (NumPy's own is read-only), as torch's does."""
    v = np.diagonal(a, offset, dim1, dim2)
    if a.flags.writeable:
        v.flags.writeable = True
    return v


def _on_diagonal(v: np.ndarray, sizes: tuple, offset: int, dim1: int = 0, dim2: int = 1) -> np.ndarray:
    """Zeros of shape ``sizes`` with ``v`` written on their ``offset`` diagonal over dims dim1 and dim2."""
    out = np.zeros(sizes, v.dtype)
    _diagonal_view(out, offset, dim1, dim2)[...] = v
    return out


class DiagonalBackward0(Function):
    """z = the ``offset`` diagonal of X over dims dim1 and dim2 (above it if offset > 0, below if < 0), a view
    whose last dim runs along it: for a matrix, z[i] = X[i, i + offset];  dX = zeros with g on that diagonal."""
    is_view = True

    @staticmethod
    def forward(ctx, x, offset, dim1=0, dim2=1):
        ctx.save(dim1=dim1, dim2=dim2, self_sym_sizes=x._data.shape)
        ctx.show(offset=offset)
        ctx._offset = offset
        return _diagonal_view(x._data, offset, dim1, dim2)

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):
            return DiagonalBackwardBackward0.apply(g, sizes=ctx.self_sym_sizes, offset=ctx._offset, dim1=ctx.dim1,
                                                   dim2=ctx.dim2)
        return _on_diagonal(g, ctx.self_sym_sizes, ctx._offset, ctx.dim1, ctx.dim2)


class DiagonalBackward0_copy(DiagonalBackward0):
    """``torch.diag`` of a matrix: the same diagonal as DiagonalBackward0, copied into a new vector."""
    is_view = False

    @staticmethod
    def forward(ctx, x, offset):
        return DiagonalBackward0.forward(ctx, x, offset).copy()


class DiagonalBackwardBackward0(Function):
    """Z = zeros of shape ``sizes`` with g on the ``offset`` diagonal over dims dim1 and dim2 (the backward of
    taking a diagonal);  dg = that diagonal of G."""

    @staticmethod
    def forward(ctx, g, sizes, offset, dim1=0, dim2=1):
        ctx.save(dim1=dim1, dim2=dim2)
        ctx.show(offset=offset)
        ctx._offset = offset
        return _on_diagonal(g._data, sizes, offset, dim1, dim2)

    @staticmethod
    def backward(ctx, gg):
        if _is_tensor(gg):
            return DiagonalBackward0.apply(gg, offset=ctx._offset, dim1=ctx.dim1, dim2=ctx.dim2)
        return np.diagonal(gg, ctx._offset, ctx.dim1, ctx.dim2).copy()


class TraceBackward0(Function):
    """z = trace(X) = sum_i X[i, i];  dX = g on the diagonal, 0 elsewhere (the identity times g)."""

    @staticmethod
    def forward(ctx, x):
        d = x._data
        if d.dtype == np.bool_:
            raise NotImplementedError("\"trace\" not implemented for 'Bool'")
        ctx.save(self_sym_sizes=d.shape)
        return np.trace(d, dtype=np.int64 if d.dtype.kind in "iu" else None)

    @staticmethod
    def backward(ctx, g):
        n, m = ctx.self_sym_sizes
        if not _is_tensor(g):
            return _on_diagonal(np.full(min(n, m), g, g.dtype), (n, m), 0)
        # torch's formula: fill every (m + 1)-th entry of n * m zeros with g, then view as a matrix
        from .tensor import Tensor
        zeros = Tensor._make(np.zeros(n * m, g._data.dtype))
        return IndexFillBackward1.apply(zeros, g, dim=0, index=np.arange(0, n * m, m + 1)).view(n, m)


class IndexFillBackward1(Function):
    """z = x with the 0-dim tensor v written at ``index`` along ``dim``;  dx = g with zeros there,
    dv = the sum of g there."""

    @staticmethod
    def forward(ctx, x, value, dim, index):
        ctx.save(dim=dim)
        ctx._index = index
        out = x._data.copy()
        out[(slice(None),) * dim + (index,)] = value._data
        return out

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "index_fill (the gradient of trace)")
        key = (slice(None),) * ctx.dim + (ctx._index,)
        gx = g.copy()
        gx[key] = 0
        return gx, g[key].sum()


class TrilBackward0(Function):
    """Z = the lower triangle of X (on and below the ``diagonal``-th diagonal), zeros above;
    dX = the lower triangle of G."""

    @staticmethod
    def forward(ctx, x, diagonal):
        ctx.show(diagonal=diagonal)
        ctx._k = diagonal
        return np.tril(x._data, diagonal)

    @staticmethod
    def backward(ctx, g):
        return g.tril(ctx._k) if _is_tensor(g) else np.tril(g, ctx._k)


class TriuBackward0(Function):
    """Z = the upper triangle of X (on and above the ``diagonal``-th diagonal), zeros below;
    dX = the upper triangle of G."""

    @staticmethod
    def forward(ctx, x, diagonal):
        ctx.show(diagonal=diagonal)
        ctx._k = diagonal
        return np.triu(x._data, diagonal)

    @staticmethod
    def backward(ctx, g):
        return g.triu(ctx._k) if _is_tensor(g) else np.triu(g, ctx._k)


# ---------------------------------------------------------------- sorting

def sort_indices(d: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """The int64 indices that sort ``d`` along ``axis``, stably (ties keep their order, as torch's CPU sort);
    nan counts as the largest value. Descending: sort the reversed array ascending and reverse back, which
    keeps ties in their original order.

    >>> sort_indices(np.array([0., 5., 5.]), 0, True).tolist()
    [1, 2, 0]
    """
    if d.ndim == 0:
        return np.zeros((), np.int64)
    if not descending:
        return np.argsort(d, axis=axis, kind="stable").astype(np.int64)
    n = d.shape[axis]
    ascending = np.argsort(np.flip(d, axis), axis=axis, kind="stable")
    return (n - 1 - np.flip(ascending, axis)).astype(np.int64)


class SortBackward0(Function):
    """values = x sorted along ``dim``;  each value's gradient goes back to the place it came from
    (``indices``): dx = zeros with g scattered at the indices."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, x, dim, indices):
        d = x._data
        ctx.save(dim=dim, indices=indices, self_sym_sizes=d.shape)
        return np.take_along_axis(d, indices._data, dim) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        idx = ctx._unpack("indices", False)
        shape, dim = ctx.self_sym_sizes, ctx.dim
        if not shape:
            return g
        if _is_tensor(g):
            from .tensor import Tensor
            return ScatterBackward0.apply(Tensor._make(np.zeros(shape, g._data.dtype)), g, dim=dim,
                                          index=Tensor._make(idx))
        out = np.zeros(shape, g.dtype)
        np.put_along_axis(out, idx, g, dim)
        return out


class SortBackward1(SortBackward0):
    """values = x sorted along ``dim`` (``sort(stable=...)``);  dx = zeros with g scattered at the indices."""


class TopkBackward0(SortBackward0):
    """values = the k largest (or smallest) entries along ``dim``;  dx = zeros with g scattered at their indices."""


# ---------------------------------------------------------------- remainders, floor division, tensor bounds

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
    """``x % y`` for a tensor y: z = x - floor(x / y) y;  dz/dx = 1,  dz/dy = -floor(x / y)."""
    saved_names = ("self", "other")

    @classmethod
    def forward(cls, ctx, x, y):
        ctx.save(other=y, self=x)
        return cls.op(*_promote(x, y))

    op = staticmethod(_remainder)
    rounding = staticmethod(np.floor)

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, y = ctx._unpack("self", t), ctx._unpack("other", t)
        quotient = type(ctx).rounding((x._data if t else x) / (y._data if t else y))
        return g, (-g * quotient if not t else -g * _wrap(quotient.astype(g._data.dtype)))


class FmodBackward0(RemainderBackward0):
    """``x.fmod(c)`` for a number c (C's sign rule: the result has x's sign): z = x - trunc(x / c) c;  dz/dx = 1."""

    @staticmethod
    def forward(ctx, x, other):
        return np.fmod(*_promote(x, _wrap(other)))


class FmodBackward1(RemainderBackward1):
    """``x.fmod(y)`` for a tensor y: z = x - trunc(x / y) y;  dz/dx = 1,  dz/dy = -trunc(x / y)."""
    op = staticmethod(np.fmod)
    rounding = staticmethod(np.trunc)


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
        return np.clip(x._data, *(None if t is None else t._data for t in (lo, hi))).astype(np.result_type(*arrays))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "clamp with tensor bounds")
        saved = _saved(ctx)
        x = ctx._unpack("self", False)
        lo = ctx._unpack("min", False) if "min" in saved else None
        hi = ctx._unpack("max", False) if "max" in saved else None
        below = np.zeros(np.shape(x), bool) if lo is None else x < lo
        above = np.zeros(np.shape(x), bool) if hi is None else x > hi
        below = below & ~above
        inside = ~(below | above)
        return (np.where(inside, g, 0), None if lo is None else np.where(below, g, 0),
                None if hi is None else np.where(above, g, 0))


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


def _wrap(value):
    from .tensor import _wrap as wrap  # tensor.py imports this module: import at call time
    return wrap(value)
