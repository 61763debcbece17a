"""torch-level functions (``torch.exp(x)``, ``torch.cat([a, b])``, ...): each is the Tensor method of the same
name, or combines several tensors.

>>> import autograd_tutor as torch
>>> torch.exp(torch.tensor(0.)), torch.cat([torch.ones(1), torch.zeros(1)])
(tensor(1.), tensor([1., 0.]))
"""
from __future__ import annotations

import numpy as np

from .autograd import functions as F
from .autograd.dtypes import LEGACY_NAMES
from .autograd.tensor import Tensor, _broadcast_shape, _dim, _wrap

__all__ = ["add", "sub", "rsub", "mul", "div", "pow", "neg", "reciprocal", "exp", "log", "tanh", "sigmoid", "relu",
           "sqrt", "abs", "sin", "cos", "clamp", "clip", "maximum", "minimum", "where", "max", "min", "sum", "mean",
           "matmul", "mm", "mv", "dot", "reshape", "flatten", "t", "transpose", "permute", "unsqueeze", "squeeze",
           "cat", "concat", "stack", "softmax", "log_softmax", "argmax", "argmin", "square", "numel", "is_tensor",
           "allclose", "equal", "eq", "ne", "lt", "le", "gt", "ge", "sign", "isnan", "clone", "detach", "round",
           "floor", "ceil", "log1p", "expm1", "norm", "prod", "cumsum", "masked_fill", "var", "std", "flip", "gather",
           "amax", "amin", "logsumexp", "relu_"]


def _method(name: str):
    def fn(input, *args, **kwargs):
        return getattr(_wrap(input), name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``torch.{name}(input, ...)`` is ``input.{name}(...)``."
    return fn


# ---- more math, matrices, sorting and comparisons: each the Tensor method of the same name (one block);
# from here on ``any`` and ``all`` are torch's, not Python's builtins (as ``sum`` and ``max`` are)
_MORE = ("rsqrt", "log2", "log10", "tan", "atan", "asin", "acos", "sinh", "cosh", "erf", "trunc", "frac", "arctan",
         "arcsin", "arccos", "fix", "addmm", "outer", "ger", "diag", "trace", "tril", "triu", "sort", "argsort", "topk",
         "any", "all", "nonzero", "isclose")
__all__ += list(_MORE)
(rsqrt, log2, log10, tan, atan, asin, acos, sinh, cosh, erf, trunc, frac, arctan, arcsin, arccos, fix, addmm, outer,
 ger, diag, trace, tril, triu, sort, argsort, topk, any, all, nonzero, isclose) = (_method(n) for n in _MORE)


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
split, chunk, unbind = (_method(n) for n in ("split", "chunk", "unbind"))
bmm, remainder, fmod, floor_divide, clamp_min, clamp_max = (
    _method(n) for n in ("bmm", "remainder", "fmod", "floor_divide", "clamp_min", "clamp_max"))
__all__ += ["split", "chunk", "unbind", "bmm", "remainder", "fmod", "floor_divide", "clamp_min", "clamp_max"]


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
        return F.RsubBackward0.apply(input, other, alpha=alpha)
    _wrap(other)  # type check
    return F.RsubBackward1.apply(_wrap(input), other=other, alpha=alpha)


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


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
    return F.WhereBackward0.apply(a, b, condition=_wrap(np.broadcast_to(condition._data, shape)))


def _check_sequence(tensors, name: str) -> list:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    return list(tensors)


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
    return F.CatBackward0.apply(*tensors, dim=d)


concat = cat


def stack(tensors, dim=0) -> Tensor:
    """Join same-shaped tensors along a new dimension."""
    tensors = _check_sequence(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(tensors[1:], 1):
        if t.shape != tensors[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} at "
                               f"entry 0 and {list(t.shape)} at entry {i}")
    return F.StackBackward0.apply(*tensors, dim=_dim(dim, tensors[0].ndim + 1))
