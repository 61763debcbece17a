"""torch-level functions (``torch.exp(x)``, ``torch.cat([a, b])``, ...): each is the Tensor method of the same
name, or combines several tensors.

>>> import autograd_tutor as torch
>>> torch.exp(torch.tensor(0.)), torch.cat([torch.ones(1), torch.zeros(1)])
(tensor(1.), tensor([1., 0.]))
"""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from ._einsum import einsum
from .autograd.arguments import numpy_names, takes_out, takes_outs, TAKES_OUTS
from .autograd.ops.arithmetic import RsubBackward0, RsubBackward1
from .autograd.ops.numerics import _promote
from .autograd.ops.selection import WhereBackward0
from .autograd.ops.linalg import BlockDiagBackward0, CdistBackward0
from .autograd.ops.reductions import StdMeanBackward0, VarMeanBackward0
from .autograd.ops.sorting import insertion_points
from .autograd.ops.shape import CatBackward0, StackBackward0
from .autograd.dtypes import LEGACY_NAMES, kind_name
from .autograd.function import shown
from .autograd.tensor import Size, Tensor, _broadcast_shape, _dim, _warn_once, _wrap

__all__ = ["add", "sub", "rsub", "mul", "div", "pow", "neg", "reciprocal", "exp", "log", "tanh", "sigmoid", "relu",
           "sqrt", "abs", "sin", "cos", "clamp", "clip", "maximum", "minimum", "where", "max", "min", "sum", "mean",
           "matmul", "mm", "mv", "dot", "reshape", "flatten", "t", "transpose", "permute", "unsqueeze", "squeeze",
           "cat", "concat", "stack", "softmax", "log_softmax", "argmax", "argmin", "square", "numel", "is_tensor",
           "allclose", "equal", "eq", "ne", "lt", "le", "gt", "ge", "sign", "isnan", "clone", "detach", "round",
           "floor", "ceil", "log1p", "expm1", "norm", "prod", "cumsum", "masked_fill", "var", "std", "flip", "gather",
           "amax", "amin", "logsumexp", "relu_", "einsum"]


#: the functions of this module that take ``out=`` as torch's do (see ``autograd/arguments.py``), and those of
#: them whose ``out`` must have the result's dtype exactly
TAKES_OUT = frozenset({
    "add", "sub", "mul", "div", "pow", "neg", "reciprocal", "exp", "log", "tanh", "sigmoid", "sqrt", "abs", "sin",
    "cos", "clamp", "clip", "clamp_min", "clamp_max", "maximum", "minimum", "sum", "mean", "prod", "matmul", "mm",
    "mv", "dot", "bmm", "addmm", "outer", "ger", "square", "eq", "ne", "lt", "le", "gt", "ge", "sign", "round",
    "floor", "ceil", "trunc", "frac", "fix", "log1p", "expm1", "log2", "log10", "rsqrt", "tan", "atan", "asin",
    "acos", "arctan", "arcsin", "arccos", "sinh", "cosh", "erf", "cumsum", "cumprod", "logcumsumexp", "var", "std",
    "gather", "amax", "amin", "logsumexp", "nansum", "nanmean", "softmax", "log_softmax", "argmax", "argmin", "diag",
    "tril", "triu", "any", "all", "nonzero", "remainder", "fmod", "floor_divide", "index_select", "masked_select",
    "addcmul", "addcdiv", "lerp", "msort", "cross", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
    "multiply", "divide", "true_divide", "subtract", "negative", "absolute", "not_equal", "less", "less_equal",
    "greater", "greater_equal", "count_nonzero"})
SAME_DTYPE_OUT = frozenset({"matmul", "mm", "bmm"})


def _method(name: str):
    def fn(input, *args, **kwargs):
        return getattr(_wrap(input), name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``torch.{name}(input, ...)`` is ``input.{name}(...)``."
    if name in TAKES_OUT:
        fn = takes_out(fn, same_dtype=name in SAME_DTYPE_OUT)
    elif name in TAKES_OUTS:
        fn = takes_outs(fn, name)
    return numpy_names(fn)


# ---- more math, matrices, sorting and comparisons: each the Tensor method of the same name (one block);
# from here on ``any`` and ``all`` are torch's, not Python's builtins (as ``sum`` and ``max`` are)
_MORE = ("rsqrt", "log2", "log10", "tan", "atan", "asin", "acos", "sinh", "cosh", "erf", "trunc", "frac", "arctan",
         "arcsin", "arccos", "fix", "addmm", "outer", "ger", "diag", "diagonal", "trace", "tril", "triu", "sort",
         "argsort", "topk", "any", "all", "nonzero", "isclose", "baddbmm")
__all__ += list(_MORE)
(rsqrt, log2, log10, tan, atan, asin, acos, sinh, cosh, erf, trunc, frac, arctan, arcsin, arccos, fix, addmm, outer,
 ger, diag, diagonal, trace, tril, triu, sort, argsort, topk, any, all, nonzero, isclose, baddbmm) = (
    _method(n) for n in _MORE)


(add, sub, mul, div, neg, reciprocal, exp, log, tanh, sigmoid, relu, sqrt, abs, sin, cos, clamp, clip,
 maximum, minimum, max, min, sum, mean, matmul, mm, mv, dot, reshape, flatten, t, transpose, permute, unsqueeze,
 squeeze, softmax, log_softmax, argmax, argmin, square, numel, allclose, equal, eq, ne, lt, le, gt, ge, sign,
 isnan, clone, detach, round, floor, ceil, log1p, expm1, norm, prod, cumsum, masked_fill, var, std, gather, amax,
 amin, logsumexp, relu_) = (
    _method(n) for n in ("add", "sub", "mul", "div", "neg", "reciprocal", "exp", "log", "tanh", "sigmoid",
                         "relu", "sqrt", "abs", "sin", "cos", "clamp", "clip", "maximum", "minimum", "max", "min",
                         "sum", "mean", "matmul", "mm", "mv", "dot", "reshape", "flatten", "t", "transpose",
                         "permute", "unsqueeze", "squeeze", "softmax", "log_softmax", "argmax", "argmin", "square",
                         "numel", "allclose", "equal", "eq", "ne", "lt", "le", "gt", "ge", "sign", "isnan", "clone",
                         "detach", "round", "floor", "ceil", "log1p", "expm1", "norm", "prod", "cumsum",
                         "masked_fill", "var", "std", "gather", "amax", "amin", "logsumexp", "relu_"))


def flip(input, dims=None) -> Tensor:
    """``input`` reversed along each of ``dims`` (a list or tuple, as torch requires here)."""
    if dims is None:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    if isinstance(dims, int):
        raise TypeError("flip(): argument 'dims' (position 2) must be tuple of ints, not int")
    return _wrap(input).flip(dims)

# the operations with several outputs, one node for all of them
split, chunk, unbind, unsafe_split, unsafe_split_with_sizes, unsafe_chunk = (
    _method(n) for n in ("split", "chunk", "unbind", "unsafe_split", "unsafe_split_with_sizes", "unsafe_chunk"))
bmm, remainder, fmod, floor_divide, clamp_min, clamp_max = (
    _method(n) for n in ("bmm", "remainder", "fmod", "floor_divide", "clamp_min", "clamp_max"))
__all__ += ["split", "chunk", "unbind", "unsafe_split", "unsafe_split_with_sizes", "unsafe_chunk", "bmm", "remainder", "fmod", "floor_divide", "clamp_min", "clamp_max"]


@numpy_names
@takes_out
def pow(input, exponent):
    """``input ** exponent``; a number as the base records PowBackward2, as ``2 ** x`` does."""
    if not isinstance(input, Tensor):
        return _wrap(exponent).__rpow__(input)
    return input ** exponent


def rsub(input, other, alpha=1) -> Tensor:
    """``other - alpha * input``: the node of ``1 - x`` (RsubBackward1), or RsubBackward0 for a tensor ``other``."""
    if isinstance(other, Tensor):
        input = _wrap(input)
        _broadcast_shape(other._data.shape, input._data.shape)  # torch names other as tensor a
        return RsubBackward0.apply(input, other, alpha=alpha)
    _wrap(other)  # type check
    return RsubBackward1.apply(_wrap(input), other=other, alpha=alpha)


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


@numpy_names
@takes_out
def where(condition, input=None, other=None):
    """``input`` where ``condition`` holds, else ``other`` (broadcast together); ``where(condition)`` alone is
    ``condition.nonzero(as_tuple=True)``, the indices where it holds."""
    if input is None and other is None:
        return _wrap(condition).nonzero(as_tuple=True)
    condition, a, b = _wrap(condition), _wrap(input), _wrap(other)
    if a._wrapped and b._wrapped:  # two Python numbers: torch's default dtypes, float32 for floats
        kind = np.result_type(a._data, b._data)
        a, b = (_wrap(t._data.astype(np.float32 if kind.kind == "f" else kind)) for t in (a, b))
    if condition._data.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{LEGACY_NAMES[condition._data.dtype.name][:-6]}")
    shape = _broadcast_shape(_broadcast_shape(condition._data.shape, a._data.shape), b._data.shape)
    return WhereBackward0.apply(a, b, condition=_wrap(np.broadcast_to(condition._data, shape)))


def _check_sequence(tensors, name: str) -> list:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    return list(tensors)


@numpy_names
@takes_out
def cat(tensors, dim=0) -> Tensor:
    """Join tensors along an existing dimension."""
    tensors = _check_sequence(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    ref = tensors[0]
    for i, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    d = _dim(dim, ref.ndim)
    for i, t in enumerate(tensors[1:], 1):
        if t.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} and {t.ndim}")
        for k in range(ref.ndim):
            if k != d and t.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{ref.shape[k]} but got size {t.shape[k]} for tensor number {i} in the list.")
    return shown(CatBackward0.apply(*tensors, dim=d), dim=dim)


concat = cat


@numpy_names
@takes_out
def stack(tensors, dim=0) -> Tensor:
    """Join same-shaped tensors along a new dimension."""
    tensors = _check_sequence(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]._data.shape
    for i, t in enumerate(tensors[1:], 1):
        if t._data.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(first)} at "
                               f"entry 0 and {list(t.shape)} at entry {i}")
    return shown(StackBackward0.apply(*tensors, dim=_dim(dim, tensors[0].ndim + 1)), dim=dim)


# ---- layers-wip: stacking, splitting, rolling, median and more (one block)
_EXTRA = ("atan2", "arctan2", "cumprod", "index_select", "masked_select", "roll", "tile", "movedim", "moveaxis",
          "median", "nanmedian", "tensor_split", "sigmoid_", "tanh_", "exp_", "sqrt_", "rsqrt_", "log_", "abs_",
          "sin_", "cos_", "reciprocal_", "square_", "neg_")
__all__ += [*_EXTRA, "vstack", "hstack", "atleast_1d", "atleast_2d", "atleast_3d", "repeat_interleave", "bernoulli"]
(atan2, arctan2, cumprod, index_select, masked_select, roll, tile, movedim, moveaxis, median, nanmedian, tensor_split,
 sigmoid_, tanh_, exp_, sqrt_, rsqrt_, log_, abs_, sin_, cos_, reciprocal_, square_, neg_) = (_method(n) for n in _EXTRA)


@numpy_names
@takes_out
def atan2(input, other) -> Tensor:  # noqa: F811  (torch numbers ``other`` as argument 2 here)
    """The angle of the point (other, input) in (-pi, pi]."""
    if not isinstance(other, Tensor):
        raise TypeError(f"atan2(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    return _wrap(input).atan2(other)


arctan2 = atan2


def _pairwise(name: str):
    """``torch.NAME(input, other)`` for the method ``Tensor.NAME`` of two tensors (torch numbers ``other`` 2)."""
    def pairwise(input, other) -> Tensor:
        if not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
        return getattr(_wrap(input), name)(other)
    pairwise.__name__ = pairwise.__qualname__ = name
    pairwise.__doc__ = getattr(Tensor, name).__doc__
    return takes_out(pairwise)


__all__ += ["hypot", "logaddexp", "logaddexp2", "hardshrink", "isin", "diag_embed", "take", "put"]


def diag_embed(input, offset=0, dim1=-2, dim2=-1) -> Tensor:
    """The last dim of input on the ``offset`` diagonal over dims dim1 and dim2 of a new tensor (``Tensor.diag_embed``)."""
    return _wrap(input).diag_embed(offset, dim1, dim2)


def take(input, index) -> Tensor:
    """The elements of input at ``index``, input read as one flat row (``Tensor.take``)."""
    if not isinstance(index, Tensor):
        raise TypeError(f"take(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
    return _wrap(input).take(index)


def put(input, index, source, accumulate=False) -> Tensor:
    """A copy of input with source written at the flat ``index`` (``Tensor.put``)."""
    return _wrap(input).put(index, source, accumulate)


def hardshrink(input, lambd=0.5) -> Tensor:
    """input where |input| > lambd, else 0 (``F.hardshrink``)."""
    return _wrap(input).hardshrink(lambd)

hypot, logaddexp, logaddexp2 = (_pairwise(n) for n in ("hypot", "logaddexp", "logaddexp2"))


def _atleast(tensors, fn, name: str):
    """atleast_1d / atleast_2d of one tensor, of several, or of a list of them (a tuple back)."""
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return fn(tensors[0])
    items = tensors[0] if len(tensors) == 1 else tensors
    return tuple(fn(t) for t in _check_sequence(items, name))


def _as_1d(t: Tensor) -> Tensor:
    return t.reshape(1) if t.ndim == 0 else t


def _as_2d(t: Tensor) -> Tensor:
    return t.reshape(1, 1) if t.ndim == 0 else t.unsqueeze(0) if t.ndim == 1 else t


def atleast_1d(*tensors):
    """A 0-dim tensor as shape (1,) (a view); others unchanged."""
    return _atleast(tensors, _as_1d, "atleast_1d")


def atleast_2d(*tensors):
    """A 0-dim tensor as (1, 1), a vector as one row (1, n); others unchanged."""
    return _atleast(tensors, _as_2d, "atleast_2d")


def _as_3d(t: Tensor) -> Tensor:
    return (t.reshape(1, 1, 1) if t.ndim == 0 else t.unsqueeze(0).unsqueeze(-1) if t.ndim == 1 else
            t.unsqueeze(-1) if t.ndim == 2 else t)


def atleast_3d(*tensors):
    """A 0-dim tensor as (1, 1, 1), a vector (n,) as (1, n, 1), a matrix (m, n) as (m, n, 1); others unchanged."""
    return _atleast(tensors, _as_3d, "atleast_3d")


@takes_out
def vstack(tensors) -> Tensor:
    """Stack rows: each tensor made at least 2-D (a vector becomes one row), then cat along dim 0.

    >>> import autograd_tutor as torch
    >>> torch.vstack([torch.tensor([1., 2.]), torch.tensor([3., 4.])])
    tensor([[1., 2.],
            [3., 4.]])
    """
    tensors = _check_sequence(tensors, "vstack")
    if not tensors:
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat([_as_2d(t) for t in tensors], 0)


@takes_out
def hstack(tensors) -> Tensor:
    """Join side by side: each tensor made at least 1-D, then cat along dim 0 for vectors, dim 1 otherwise.

    >>> import autograd_tutor as torch
    >>> torch.hstack([torch.tensor([1., 2.]), torch.tensor(3.)])
    tensor([1., 2., 3.])
    """
    tensors = _check_sequence(tensors, "hstack")
    if not tensors:
        raise RuntimeError("hstack expects a non-empty TensorList")
    tensors = [_as_1d(t) for t in tensors]
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """``input.repeat_interleave(repeats, dim)``; with one tensor of counts only, the indices 0, 1, ... each
    repeated that many times: ``torch.repeat_interleave(torch.tensor([1, 2]))`` is ``tensor([0, 1, 1])``."""
    if repeats is None:
        counts = input._data
        return Tensor._make(np.repeat(np.arange(counts.size), counts.reshape(-1)).astype(np.int64))
    return _wrap(input).repeat_interleave(repeats, dim, output_size=output_size)


def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """``input.bernoulli(p)``: 1 with probability ``input`` (or ``p``), else 0; torch's draws for the same seed."""
    return input.bernoulli(p, generator=generator)


# ---- ops2: writing at indices, running along a dim, nan-aware sums (Tensor methods of index_methods.py)
_INDEXED = ("scatter", "scatter_add", "index_add", "index_fill", "masked_scatter", "cummax", "cummin", "logcumsumexp",
            "kthvalue", "mode", "nansum", "nanmean", "unflatten")
__all__ += list(_INDEXED)
(scatter, scatter_add, index_add, index_fill, masked_scatter, cummax, cummin, logcumsumexp, kthvalue, mode, nansum,
 nanmean, unflatten) = (_method(n) for n in _INDEXED)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distance between each row of ``x1`` (..., P, M) and each row of ``x2`` (..., R, M): (..., P, R).

    >>> import autograd_tutor as torch
    >>> torch.cdist(torch.tensor([[0., 0.], [1., 1.]]), torch.tensor([[3., 4.]]))
    tensor([[5.0000],
            [3.6056]])
    """
    for name, t in (("X1", x1), ("X2", x2)):
        if t.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, t in (("X1", x1), ("X2", x2)):
        if t._data.dtype.kind != "f":
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {kind_name(t._data)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    return CdistBackward0.apply(x1, x2, p=float(p))


__all__ += ["cdist"]

# ---- ops3: fused updates and blending (Tensor methods of autograd/blend_functions.py)
__all__ += ["addcmul", "addcdiv", "lerp"]
addcmul, addcdiv, lerp = (_method(n) for n in ("addcmul", "addcdiv", "lerp"))

# ---- ops4: distinct values, drawing indices (Tensor methods of autograd/set_functions.py, sample_functions.py)
__all__ += ["unique", "unique_consecutive", "multinomial", "aminmax", "msort"]
unique, unique_consecutive, multinomial, aminmax, msort = (
    _method(n) for n in ("unique", "unique_consecutive", "multinomial", "aminmax", "msort"))


@numpy_names
@takes_out
def xlogy(input, other) -> Tensor:
    """``input * log(other)``, 0 where ``input`` is 0: ``Tensor.xlogy`` (two tensors only)."""
    return Tensor.xlogy(input, other)


__all__ += ["xlogy"]

# ---- cross products, singular values, histograms, bits (Tensor methods of methods/linalg.py, sorting.py, comparison.py)
__all__ += ["inverse", "det", "cross", "svd", "histogram", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"]
inverse, det, cross, svd, histogram, bitwise_and, bitwise_or, bitwise_xor, bitwise_not = (
    _method(n) for n in ("inverse", "det", "cross", "svd", "histogram", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"))


# ---- NumPy's names that torch has too: the same operations, the same nodes (``torch.concatenate`` is ``cat``)
_NUMPY_STYLE = ("multiply", "divide", "true_divide", "subtract", "negative", "absolute", "not_equal", "less",
                "less_equal", "greater", "greater_equal", "swapaxes", "swapdims", "ravel", "fliplr", "flipud",
                "rot90", "diff", "take_along_dim", "argwhere", "count_nonzero", "narrow", "select")
__all__ += [*_NUMPY_STYLE, "concatenate"]
(multiply, divide, true_divide, subtract, negative, absolute, not_equal, less, less_equal, greater, greater_equal,
 swapaxes, swapdims, ravel, fliplr, flipud, rot90, diff, take_along_dim, argwhere, count_nonzero, narrow, select) = (
    _method(n) for n in _NUMPY_STYLE)
concatenate = cat


# ---- a spread and a mean in one pass, two outputs of one node (VarMeanBackward0, StdMeanBackward0)
@numpy_names
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None) -> tuple:
    """``(input.var(...), input.mean(...))`` as one node, read as ``var`` reads its arguments.

    >>> import autograd_tutor as torch
    >>> torch.var_mean(torch.tensor([1., 2., 3., 6.]))
    (tensor(4.6667), tensor(3.))
    """
    return _with_mean(input, VarMeanBackward0, "var_mean", dim, unbiased, keepdim, correction)


@numpy_names
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None) -> tuple:
    """``(input.std(...), input.mean(...))`` as one node, read as ``std`` reads its arguments."""
    return _with_mean(input, StdMeanBackward0, "std_mean", dim, unbiased, keepdim, correction)


def _with_mean(input, node, name: str, dim, unbiased, keepdim, correction) -> tuple:
    if _wrap(input)._data.dtype.kind != "f":
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    return input._spread_stat(node, dim, unbiased, keepdim, correction)


__all__ += ["var_mean", "std_mean"]


# ---- broadcasting, grids and bins: what lessons build their inputs with
broadcast_to = _method("broadcast_to")


def broadcast_shapes(*shapes) -> Size:
    """The shape tensors of these shapes broadcast to (an int stands for a 1-D shape), as torch's reference
    implementation finds it, dim by dim from the right.

    >>> import autograd_tutor as torch
    >>> torch.broadcast_shapes((2, 1), (3,))
    torch.Size([2, 3])
    """
    shapes = tuple((s,) if isinstance(s, int) else s for s in shapes if s is not None)
    for shape in shapes:
        if not isinstance(shape, (tuple, list)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}")
    common = [1] * builtins.max([len(s) for s in shapes], default=0)
    for position, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            if shape[i] == common[i] or shape[i] == 1:
                continue
            if common[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[i]} at {i}! Mismatching "
                                   f"argument at index {position} had {shape}; but expected shape should be "
                                   f"broadcastable to {common}")
            if shape[i] < 0:
                raise ValueError("Attempting to broadcast a dimension with negative length!")
            common[i] = shape[i]
    return Size(common)


def broadcast_tensors(*tensors) -> tuple:
    """The tensors expanded to their common shape (views; one already of that shape is returned as it is)."""
    tensors = _check_sequence(tensors, "broadcast_tensors")
    shape = ()
    for t in tensors:
        shape = _broadcast_shape(shape, t._data.shape)
    return tuple(t if t._data.shape == shape else t.expand(shape) for t in tensors)


def meshgrid(*tensors, indexing=None) -> tuple:
    """Coordinate grids from 1-D tensors: with ``indexing="ij"`` output k varies along dim k (matrix indexing);
    with ``"xy"`` the first two are swapped (x along columns, as for a plot). Each is a view, ``t.view(...)``
    expanded to the grid's shape.

    >>> import autograd_tutor as torch
    >>> xs, ys = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), indexing="xy")
    >>> xs
    tensor([[1, 2, 3],
            [1, 2, 3]])
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    tensors = _check_sequence(tensors, "meshgrid")
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t._data.dtype != tensors[0]._data.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing is None:
        _warn_once("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
                   "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)", 2)
        indexing = "ij"
    if indexing not in ("xy", "ij"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a "
                               f"{t.ndim}-D tensor of shape {list(t.shape)}")
    swap = indexing == "xy" and len(tensors) > 1
    order = [tensors[1], tensors[0], *tensors[2:]] if swap else list(tensors)
    shape = tuple(t.numel() for t in order)
    grids = [t.view(*[-1 if k == i else 1 for k in range(len(order))]).expand(shape) for i, t in enumerate(order)]
    return tuple([grids[1], grids[0], *grids[2:]] if swap else grids)


def cartesian_prod(*tensors) -> Tensor:
    """Every combination of one entry of each 1-D tensor, as rows (the itertools.product order): meshgrid,
    each grid flattened, stacked as columns.

    >>> import autograd_tutor as torch
    >>> torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([5, 6]))
    tensor([[1, 5],
            [1, 6],
            [2, 5],
            [2, 6]])
    """
    tensors = _check_sequence(tensors, "cartesian_prod")
    if len(tensors) == 1:
        return tensors[0]
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    return stack([grid.flatten() for grid in meshgrid(tensors, indexing="ij")], 1)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, out=None, sorter=None) -> Tensor:
    """Where each value of ``input`` would be inserted in the sorted last dim of ``sorted_sequence`` to keep it
    sorted: the first such place, or the last when ``right`` (or ``side="right"``). Integers, never recorded.

    >>> import autograd_tutor as torch
    >>> torch.searchsorted(torch.tensor([1., 3., 5.]), torch.tensor([0., 3., 4., 6.]))
    tensor([0, 1, 2, 3])
    """
    boundaries, values = _wrap(sorted_sequence), _wrap(input)
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    if boundaries.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension")
    if boundaries.ndim > 1 and (values.ndim != boundaries.ndim or values.shape[:-1] != boundaries.shape[:-1]):
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions"
                           f" of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                           f"{list(boundaries.shape)} and input value tensor {list(values.shape)}")
    data = boundaries._data
    if sorter is not None:
        data = np.take_along_axis(data, sorter._data, -1)
    found = insertion_points(data, values._data, right)
    result = Tensor._make(found.astype(np.int32) if out_int32 else found)
    if out is not None:
        out._data = result._data
        return out
    return result


_ISIN = ("isin() received an invalid combination of arguments - got ({}), but expected one of:\n"
         " * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert = False, Tensor out = None)\n"
         " * (Number element, Tensor test_elements, *, bool assume_unique = False, bool invert = False, Tensor out = None)\n"
         " * (Tensor elements, Number test_element, *, bool assume_unique = False, bool invert = False, Tensor out = None)\n")


@takes_out
def isin(elements, test_elements, *, assume_unique=False, invert=False) -> Tensor:
    """Whether each of ``elements`` is one of ``test_elements`` (``invert``: is not), as a bool tensor of the
    elements' shape; the two are compared in their common dtype, and nan is in nothing. Never recorded.

    >>> import autograd_tutor as torch
    >>> torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5]))
    tensor([False,  True, False])
    """
    given = (elements, test_elements)
    if not builtins.all(isinstance(x, (Tensor, numbers.Number)) for x in given) \
            or not builtins.any(isinstance(x, Tensor) for x in given):
        raise TypeError(_ISIN.format(", ".join("Tensor" if isinstance(x, Tensor) else type(x).__name__
                                               for x in given)))
    a, b = _wrap(elements), _wrap(test_elements)
    if a._data.dtype == np.bool_ or b._data.dtype == np.bool_:
        raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    da, db = _promote(a, b)
    return Tensor._make(np.isin(np.asarray(da), np.asarray(db), assume_unique=assume_unique, invert=invert))


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None) -> Tensor:
    """The bucket of each value of ``input`` between sorted 1-D ``boundaries``: i with
    boundaries[i-1] < x <= boundaries[i] (or boundaries[i-1] <= x < boundaries[i] when ``right``).

    >>> import autograd_tutor as torch
    >>> torch.bucketize(torch.tensor([0.5, 3., 7.]), torch.tensor([1., 3., 5.]))
    tensor([0, 1, 3])
    """
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)


def _logical(name: str):
    def fn(input, other):
        return Tensor._logical_pair(_wrap(input), other, getattr(np, name), name, position=2)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``torch.{name}(input, other)`` is ``input.{name}(other)``: a bool tensor, non-zero being true."
    return takes_out(fn)


logical_and, logical_or, logical_xor = (_logical(n) for n in ("logical_and", "logical_or", "logical_xor"))
logical_not = takes_out(_method("logical_not"))

__all__ += ["broadcast_to", "broadcast_shapes", "broadcast_tensors", "meshgrid", "cartesian_prod", "searchsorted",
            "bucketize", "logical_and", "logical_or", "logical_xor", "logical_not"]


def block_diag(*tensors) -> Tensor:
    """The tensors placed corner to corner down the diagonal of a zero matrix (a vector as one row, a number as
    a 1 x 1 block), in their common dtype: one BlockDiagBackward0 node.

    >>> import autograd_tutor as torch
    >>> torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor(5))
    tensor([[1, 2, 0],
            [3, 4, 0],
            [0, 0, 5]])
    """
    tensors = _check_sequence(tensors, "block_diag")
    if not tensors:  # as torch: one empty row
        return Tensor._make(np.zeros((1, 0), np.float32))
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.ndim} dimensions")
    return BlockDiagBackward0.apply(*tensors)


bincount = _method("bincount")
__all__ += ["block_diag", "bincount"]


isinf, isfinite, isposinf, isneginf = (_method(n) for n in ("isinf", "isfinite", "isposinf", "isneginf"))
nan_to_num = takes_out(_method("nan_to_num"))
__all__ += ["isinf", "isfinite", "isposinf", "isneginf", "nan_to_num"]


def tensordot(a, b, dims=2, out=None) -> Tensor:
    """Sum the products over the dims ``dims[0]`` of ``a`` paired with ``dims[1]`` of ``b`` (an int n: the last n of
    ``a`` with the first n of ``b``); the result has a's other dims, then b's. As torch: each side permuted so the
    summed dims meet, reshaped to a matrix, one ``mm``, viewed back.

    >>> import autograd_tutor as torch
    >>> torch.tensordot(torch.ones(2, 3), torch.ones(3, 4), dims=1).shape
    torch.Size([2, 4])
    >>> torch.tensordot(torch.arange(6.).view(2, 3), torch.arange(6.).view(2, 3), dims=([0, 1], [0, 1]))
    tensor(55.)
    """
    if not isinstance(dims, (tuple, list, Tensor, builtins.int)):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                           f"containing two lists, but got dims={dims}")
    if isinstance(dims, Tensor):
        dims = dims.tolist() if dims.numel() > 1 else builtins.int(dims.item())
    if isinstance(dims, builtins.int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > builtins.min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims = (list(range(-dims, 0)), list(range(dims)))
    dims_a, dims_b = ([d] if isinstance(d, builtins.int) else list(d) for d in dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    dims_a, dims_b = [_dim(d, a.ndim) for d in dims_a], [_dim(d, b.ndim) for d in dims_b]
    for da, db in zip(dims_a, dims_b):
        if a.shape[da] != b.shape[db] and 1 not in (a.shape[da], b.shape[db]):
            raise RuntimeError(f"contracted dimensions need to match, but first has size {a.shape[da]} in dim "
                               f"{da} and second has size {b.shape[db]} in dim {db}")
    for i, (da, db) in enumerate(zip(dims_a, dims_b)):  # a size 1 against a size n: sum the n first, as torch
        if b.shape[db] == 1 and a.shape[da] != 1:
            a = a.sum(da, keepdim=True)
        elif a.shape[da] == 1 and b.shape[db] != 1:
            b = b.sum(db, keepdim=True)
    free_a = [d for d in range(a.ndim) if d not in dims_a]
    free_b = [d for d in range(b.ndim) if d not in dims_b]
    rows = int(np.prod([a.shape[d] for d in free_a]))
    inner = int(np.prod([a.shape[d] for d in dims_a]))
    cols = int(np.prod([b.shape[d] for d in free_b]))
    if not free_a and not free_b:  # every dim summed: one dot product of the two flattened, as torch
        result = a.permute(*dims_a).reshape(inner).dot(b.permute(*dims_b).reshape(inner)).reshape(())
    else:
        left = a.permute(*free_a, *dims_a).reshape(rows, inner)
        right = b.permute(*dims_b, *free_b).reshape(inner, cols)
        result = left.mm(right).reshape(*[a.shape[d] for d in free_a], *[b.shape[d] for d in free_b])
    if out is not None:
        return out.copy_(result) if out.shape == result.shape else out.resize_as_(result).copy_(result)
    return result


kron, histc = _method("kron"), takes_out(_method("histc"))
__all__ += ["kron", "tensordot", "histc"]
