"""Tensor methods that write at indices or run along a dim: ``scatter`` / ``scatter_add`` (and their in-place
forms), ``index_add``, ``index_fill``, ``masked_scatter``, ``cummax`` / ``cummin``, ``logcumsumexp``,
``kthvalue``, ``nansum`` / ``nanmean``, ``unflatten`` and ``unfold``, with torch's checks and messages. tensor.py attaches
each name in ``__all__`` to Tensor; the nodes are in ``index_functions.py``.

>>> import autograd_tutor as torch
>>> x = torch.tensor([[1., 5., 2.], [4., 3., 6.]])
>>> x.scatter(1, torch.tensor([[2], [0]]), 0.)
tensor([[1., 5., 0.],
        [0., 3., 6.]])
>>> x.cummax(1).indices
tensor([[0, 1, 1],
        [0, 0, 2]])
"""
from __future__ import annotations

import numpy as np

from . import functions as F
from . import index_functions as I
from .dtypes import kind_name
from .function import shown
from .pool_functions import UnfoldBackward0
from .tensor import Tensor, _broadcast_shape, _dim, _dim_tuple, return_types

__all__ = ["scatter", "scatter_", "scatter_add", "scatter_add_", "index_add", "index_add_", "index_fill",
           "index_fill_", "masked_scatter", "masked_scatter_", "cummax", "cummin", "logcumsumexp", "kthvalue",
           "nansum", "nanmean", "unflatten", "unfold"]


SCATTER_SIGNATURES = ("scatter() received an invalid combination of arguments - got (int, Tensor), but expected one "
                      "of:\n * (int dim, Tensor index, Tensor src)\n * (int dim, Tensor index, Tensor src, *, str "
                      "reduce)\n * (int dim, Tensor index, Number value)\n * (int dim, Tensor index, Number value, *, "
                      "str reduce)\n")


def _out_of_bounds(index: np.ndarray, size: int, dim: int, kind=RuntimeError, low: int = 0) -> None:
    bad = index[(index < low) | (index >= size)]
    if bad.size:
        raise kind(f"index {bad[0]} is out of bounds for dimension {dim} with size {size}")


def _check_scatter(self: Tensor, dim, index: Tensor, src) -> int:
    """torch's checks of scatter and scatter_add, in its order; the dim counted from 0."""
    d = _dim(dim, self.ndim)
    if index._data.dtype not in (np.int32, np.int64):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if src is not None and src._data.dtype != self._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if index.ndim != self.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src is not None and src.ndim < index.ndim:  # torch reads src.size(k) for each dim k of index
        _dim(src.ndim, src.ndim)
    others = [k for k in range(self.ndim) if k != d]
    if any(index.shape[k] > self.shape[k] for k in others) or (
            src is not None and any(i > s for i, s in zip(index.shape, src.shape))):
        also = "" if src is None else f" and to be no larger size than src {list(src.shape)}"
        raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self {list(self.shape)} apart "
                           f"from dimension {d}{also}")
    _out_of_bounds(index._data, self.shape[d] if self.ndim else 1, d)
    return d


def scatter(self, dim, index, src=None, value=None, *, reduce=None):
    """``src`` (a tensor) or ``value`` (a number) written into a copy at ``index`` along ``dim``: for dim = 0,
    ``out[index[i][j]][j] = src[i][j]``. ``reduce`` is not supported (torch records no gradient for it)."""
    if reduce is not None:
        raise NotImplementedError("autograd_tutor: scatter with reduce= is not supported; use scatter_add")
    if src is not None and not isinstance(src, Tensor):
        src, value = None, src
    if src is None and value is None:
        raise TypeError(SCATTER_SIGNATURES)
    d = _check_scatter(self, dim, index, src)
    if src is None:
        return shown(I.ScatterBackward1.apply(self, dim=d, index=index, value=value), dim=dim)
    return shown(F.ScatterBackward0.apply(self, src, dim=d, index=index), dim=dim)


def scatter_add(self, dim, index, src):
    """A copy with ``src`` added in at ``index`` along ``dim`` (repeated indices add up): for dim = 0,
    ``out[index[i][j]][j] += src[i][j]``."""
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_add(): argument 'src' (position 3) must be Tensor, not {type(src).__name__}")
    d = _check_scatter(self, dim, index, src)
    return shown(F.ScatterAddBackward0.apply(self, src, dim=d, index=index), dim=dim)


def _check_index_add(self: Tensor, dim, index: Tensor, source) -> int:
    if not isinstance(source, Tensor):
        raise TypeError(f"index_add(): argument 'source' (position 3) must be Tensor, not {type(source).__name__}")
    d = _dim(dim, self.ndim)
    if index.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {index.ndim} with type: "
                         f"{kind_name(index._data)} and size: {list(index.shape)}")
    if index._data.dtype not in (np.int32, np.int64):
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: {kind_name(index._data)}")
    if source._data.dtype != self._data.dtype:
        raise RuntimeError(f"index_add_(): self ({kind_name(self._data)}) and source ({kind_name(source._data)}) "
                           "must have the same scalar type")
    n = source.shape[d] if source.ndim else 1
    if index.numel() != n:
        raise RuntimeError(f"index_add_(): Number of indices ({index.numel()}) should be equal to "
                           f"source.size(dim): ({n}), for dim: {d}")
    if any(a != b for k, (a, b) in enumerate(zip(self.shape, source.shape)) if k != d) or (
            source.ndim and source.ndim != self.ndim):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(self.shape)} source.shape = {list(source.shape)}")
    _out_of_bounds(index._data, self.shape[d] if self.ndim else 1, d)
    return d


def index_add(self, dim, index, source, *, alpha=1):
    """A copy with ``alpha * source`` added to the slices at ``index`` along ``dim``: for dim = 0,
    ``out[index[i]] += alpha * source[i]``."""
    d = _check_index_add(self, dim, index, source)
    return shown(I.IndexAddBackward0.apply(self, source, dim=d, index=index, alpha=alpha), dim=dim)


def index_fill(self, dim, index, value):
    """A copy with the slices at ``index`` along ``dim`` set to ``value`` (a number or a 0-dim tensor);
    negative indices count from the end."""
    d = _dim(dim, self.ndim)
    if index._data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    size = self.shape[d] if self.ndim else 1
    _out_of_bounds(index._data, size, d, IndexError, -size)
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s).")
        return shown(I.IndexFillBackward1.apply(self, value, dim=d, index=index), dim=dim)
    return shown(I.IndexFillBackward0.apply(self, dim=d, index=index, value=value), dim=dim)


def masked_scatter(self, mask, source):
    """A copy with the places where ``mask`` is True filled, in order, with the first entries of ``source``."""
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{kind_name(mask._data)}")
    if source._data.dtype != self._data.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{kind_name(self._data)} and {kind_name(source._data)}")
    _broadcast_shape(mask._data.shape, self._data.shape)
    if np.broadcast_to(mask._data, self._data.shape).sum() > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return I.MaskedScatterBackward0.apply(self, source, mask=mask)


def _in_place(method):
    """The in-place form of ``method``: the result written into this tensor, which takes over its node."""
    def inplace(self, *args, **kwargs):
        return self._inplace(lambda before: method(before, *args, **kwargs), *args, *kwargs.values())
    inplace.__name__ = method.__name__ + "_"
    inplace.__doc__ = f"In-place ``{method.__name__}``."
    return inplace


scatter_, scatter_add_, index_add_, index_fill_, masked_scatter_ = (
    _in_place(m) for m in (scatter, scatter_add, index_add, index_fill, masked_scatter))


def _running(self, dim, name: str, ufunc, node, ret):
    if dim is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    d = _dim(dim, self.ndim)
    data = self._data
    if data.ndim:
        indices = I.running_extreme(data, d, ufunc)[1]
    else:
        indices = np.zeros((), np.int64)
    indices = Tensor._make(indices)
    return ret((shown(node.apply(self, dim=d, indices=indices), dim=dim), indices))


def cummax(self, dim=None):
    """The running maximum along ``dim`` and where each came from (the latest place on ties)."""
    return _running(self, dim, "cummax", np.maximum, I.CummaxBackward0, return_types.cummax)


def cummin(self, dim=None):
    """The running minimum along ``dim`` and where each came from (the latest place on ties)."""
    return _running(self, dim, "cummin", np.minimum, I.CumminBackward0, return_types.cummin)


def logcumsumexp(self, dim):
    """log(cumsum(exp(x))) along ``dim``, computed without overflow."""
    d = _dim(dim, self.ndim)
    if self._data.dtype.kind != "f":
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{kind_name(self._data)}\'')
    return shown(I.LogcumsumexpBackward0.apply(self, dim=d), dim=dim)


def kthvalue(self, k, dim=-1, keepdim=False):
    """The k-th smallest entry along ``dim`` (k from 1) and its index. On ties torch's selection may name another
    of the equal entries than the first one in order, which is the one given here."""
    d = _dim(dim, self.ndim)
    size = self.shape[d] if self.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    data = self._data if self.ndim else self._data.reshape(1)
    picked = np.take(np.argsort(data, axis=d, kind="stable"), [k - 1], axis=d).astype(np.int64)
    indices = Tensor._make(picked.reshape(()) if not self.ndim else picked if keepdim else picked.squeeze(d))
    values = I.KthvalueBackward0.apply(self, dim=d, keepdim=keepdim, indices=indices)
    return return_types.kthvalue((shown(values, dim=dim), indices))


def nansum(self, dim=None, keepdim=False, *, dtype=None):
    """The sum of the entries that are not nan (over ``dim``, or all)."""
    if dim is None:
        return I.NansumBackward0.apply(self, dim=None, keepdim=keepdim)
    return shown(I.NansumBackward0.apply(self, dim=self._dims(dim), keepdim=keepdim), dim=_dim_tuple(dim))


def nanmean(self, dim=None, keepdim=False, *, dtype=None):
    """The mean of the entries that are not nan: ``nansum`` divided by how many there are (as torch records it)."""
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(f"nanmean(): could not infer output dtype. Optional dtype must be either a floating point "
                           f"or complex dtype. Got: {kind_name(dtype.np)}")
    if self._data.dtype.kind != "f":
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{kind_name(self._data)}")
    axes = None if dim is None else self._dims(dim)
    count = (~np.isnan(self._data)).sum(axis=axes, keepdims=keepdim).astype(self._data.dtype)
    return nansum(self, dim, keepdim) / Tensor._make(count)


def unflatten(self, dim, sizes):
    """Dim ``dim`` split into several of ``sizes`` (one may be -1, inferred), as a view: ``(6, 2)`` with
    ``unflatten(0, (2, 3))`` becomes ``(2, 3, 2)``."""
    d = _dim(dim, self.ndim)
    sizes = list(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n = self.shape[d]
    known = int(np.prod([s for s in sizes if s != -1]))
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    if (-1 not in sizes and known != n) or (-1 in sizes and (known == 0 or n % known)):
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {d} ({n}) in "
                           "the input tensor")
    sizes = [n // known if s == -1 else s for s in sizes]
    return self.view(*self.shape[:d], *sizes, *self.shape[d + 1:])


def unfold(self, dimension, size, step):
    """The windows of ``size`` entries, ``step`` apart, along ``dimension``, as a view with one more dim (the
    entries of each window): ``torch.arange(6.).unfold(0, 2, 2)`` is ``[[0, 1], [2, 3], [4, 5]]``."""
    d = _dim(dimension, max(self.ndim, 1))
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    longest = self.shape[d] if self.ndim else 1
    if size > longest:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {longest} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return UnfoldBackward0.apply(self, dimension=d, size=size, step=step, given=dimension)
