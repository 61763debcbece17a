"""Tensor methods of indexing: ``x[key]``, ``x[key] = v``, ``gather`` / ``scatter``, ``take_along_dim``,
``index_select``, ``index_add``, ``index_fill``, ``masked_fill`` / ``masked_select`` / ``masked_scatter``.

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

import numbers
import operator

import numpy as np

from .. import grad_mode
from ..dtypes import kind_name, LEGACY_NAMES
from ..function import shown
from ..ops.indexing import (GatherBackward0, IndexAddBackward0, IndexBackward0, IndexFillBackward0,
                            IndexFillBackward1, IndexPutBackward0, IndexSelectBackward0, MaskedFillBackward0,
                            MaskedScatterBackward0, MaskedSelectBackward0, ScatterAddBackward0, ScatterBackward0,
                            PutBackward0, ScatterBackward1, SelectBackward0, SliceBackward0, TakeBackward0)
from ..ops.shape import AliasBackward0
from ..tensor import _broadcast_shape, _dim, _wrap, Tensor

# Tensor methods written as functions (they call one another); the class below holds the others
__all__ = ["take_along_dim", "scatter", "scatter_add", "index_add", "index_fill", "masked_scatter", "index_add_", "index_fill_",
           "masked_scatter_", "scatter_", "scatter_add_"]


def take_along_dim(self, indices, dim=None):
    """``gather`` after broadcasting: along ``dim``, the entries ``indices`` names, ``self`` and ``indices``
    broadcast together in every other dim (as ``torch.take_along_dim`` builds it: ``expand``, then ``gather``);
    with no ``dim``, the flattened tensor's entries at the flattened ``indices``.

    >>> import autograd_tutor as torch
    >>> x = torch.tensor([[10., 30., 20.], [60., 40., 50.]])
    >>> x.take_along_dim(x.argmax(dim=1, keepdim=True), dim=1)
    tensor([[30.],
            [60.]])
    """
    if dim is None:
        return self.view(-1).gather(0, indices.view(-1))
    if self.ndim != indices.ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {self.ndim} dimensions for input, and {indices.ndim} dimensions for indices")
    if indices._data.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got {kind_name(indices._data)}")
    d = _dim(dim, self.ndim)
    index_shape = _broadcast_shape(self.shape[:d] + indices.shape[d:d + 1] + self.shape[d + 1:], indices.shape)
    self_shape = _broadcast_shape(indices.shape[:d] + self.shape[d:d + 1] + indices.shape[d + 1:], self.shape)
    return self.expand(self_shape).gather(d, indices.expand(index_shape))


def _fitting_shape(value: "Tensor", target: tuple, indexed: bool) -> tuple:
    """The shape torch gives the value of ``x[key] = value`` before writing it: without its leading dims of size 1
    (``x[0] = tensor([[5.]])``); it must broadcast to the ``target`` shape, else torch's error (index_put_'s when
    the key has index tensors, ``indexed``, expand's otherwise)."""
    shape = value._data.shape
    while shape and shape[0] == 1:
        shape = shape[1:]
    fits = len(shape) <= len(target) and all(have in (1, want) for have, want in zip(shape[::-1], target[::-1]))
    if indexed and not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(shape)} cannot be broadcast to indexing "
                           f"result of shape {list(target)}")
    if len(shape) > len(target):
        kind = LEGACY_NAMES[value._data.dtype.name]
        raise RuntimeError(f"expand(torch.{kind}{{{list(shape)}}}, size={list(target)}): the number of sizes provided "
                           f"({len(target)}) must be greater or equal to the number of dimensions in the tensor "
                           f"({len(shape)})")
    for i, (have, want) in enumerate(zip(shape, target[len(target) - len(shape):])):
        if have != want and have != 1:
            raise RuntimeError(f"The expanded size of the tensor ({want}) must match the existing size ({have}) at "
                               f"non-singleton dimension {len(target) - len(shape) + i}.  Target sizes: "
                               f"{list(target)}.  Tensor sizes: {list(shape)}")
    return shape


def _is_advanced(k) -> bool:
    """An index that selects entries by position: a list, a ``range`` (``x[range(n), y]``, as torch reads it: the
    list of its numbers), an array, an index tensor or a mask."""
    return isinstance(k, (list, range, np.ndarray)) or (isinstance(k, Tensor) and k._data.ndim > 0) or \
        (isinstance(k, Tensor) and k._data.dtype == bool)


def _is_bool_scalar(k) -> bool:
    """A Python bool or a 0-dim bool tensor, which adds a dim when used as an index."""
    return isinstance(k, (bool, np.bool_)) or (isinstance(k, Tensor) and k._data.dtype == bool and not k._data.ndim)


def _index_array(k) -> np.ndarray:
    if isinstance(k, Tensor):
        if k._data.dtype.kind == "f":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return k._data
    arr = np.asarray(k)
    return arr.astype(np.int64) if arr.dtype.kind == "f" else arr  # x[[1.7]] is x[[1]], as in torch


def _refuse_0_dim_index(key: tuple) -> None:
    """torch's IndexError for indexing a 0-dim tensor with something that needs a dimension."""
    only = key[0] if len(key) == 1 else None
    if isinstance(only, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(only, numbers.Integral) and only != 0:
        raise IndexError(f"index {only} is out of bounds for dimension 0 with size 0")
    if isinstance(only, numbers.Integral):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                         "C++ to convert a 0-dim tensor to a number")
    raise IndexError("too many indices for tensor of dimension 0")


def _index(t: Tensor, key: tuple, single_slice: bool = False) -> Tensor:
    """``t[key]`` recorded as torch records it, in two steps.

    1. Ints, slices, None and ``...``: one view node each (Select, Slice, Unsqueeze); ``True`` and ``False`` an
       Unsqueeze too, then index it in step 2 with [0] or []. Inside a tuple a slice of
       everything (``x[:, 1]``) records nothing; a key that records nothing at all (``x[...]``, ``x[:, :]``) is
       an alias, while a lone slice (``x[:]``) is always a SliceBackward0.
    2. Lists, ranges, index tensors and masks, all together: one IndexBackward0 on the result of step 1, which
       saves them as ``_saved_indices`` (None for each dimension they leave alone).
    """
    if len(key) == 1 and type(key[0]) is Tensor and key[0]._data.dtype in _INDEX_DTYPES and key[0]._data.ndim \
            and t._data.ndim:
        # x[idx] with one index tensor (a minibatch, an embedding lookup): step 2 alone. It skips step 1's
        # parsing (no view to take) and the trial indexing of _index_key: NumPy's own out-of-bounds error,
        # raised by the forward before any node exists, is reworded here instead.
        arr = key[0]._data
        try:
            return IndexBackward0.apply(t, key=(arr,), index_tensors=(Tensor._make(arr),))
        except IndexError as exc:
            raise IndexError(str(exc).replace(" axis ", " dimension ")) from None
    if single_slice and t._data.ndim:  # x[a:b], the common slice: one node on dim 0, nothing to parse
        return _slice(t, 0, key[0], True)
    out, advanced = _view_and_rest(t, key, single_slice)
    if advanced:
        key, saved = _index_key(out, advanced)
        return IndexBackward0.apply(out, key=key, index_tensors=saved)
    if out is t:  # x[...] is a view too
        out = AliasBackward0.apply(t)
    return out


_INDEX_DTYPES = (np.dtype(np.int64), np.dtype(np.int32))


def _view_and_rest(t: Tensor, key: tuple, single_slice: bool) -> tuple:
    """Step 1 of :func:`_index`: the view that the ints, slices, None and ``...`` of ``key`` take (``t`` itself if
    they take everything), and the key of step 2 on it (full slices and index arrays; empty if none)."""
    if all(type(k) is int or type(k) is slice for k in key):  # the common case (x[:, 3]), checked quickly
        flags, arrays, used = (False,) * len(key), {}, len(key)
        if t.ndim == 0 and key:
            _refuse_0_dim_index(key)
    else:
        flags = [_is_bool_scalar(k) for k in key]
        if t.ndim == 0 and any(k is not None and k is not Ellipsis and not f for k, f in zip(key, flags)):
            _refuse_0_dim_index(key)
        arrays = {i: _index_array(k) for i, k in enumerate(key) if _is_advanced(k) and not flags[i]}
        used = sum(a.ndim if a.dtype == bool else 1 for a in arrays.values()) + sum(
            1 for i, k in enumerate(key) if i not in arrays and k is not None and k is not Ellipsis and not flags[i])
    if used > t.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t.ndim}")
    out, dim, advanced, covered = t, 0, [], 0  # covered: the dims of ``out`` that ``advanced`` accounts for
    for i, k in enumerate(key):
        if type(k) is slice and k.start is None and k.stop is None and k.step is None and not single_slice:
            dim += 1  # ``:`` inside a key (x[:, t]) records nothing: checked first, it is the common case
            continue
        if flags[i]:  # x[True]: a new dim of size 1 there, indexed by [0] (by [] for False: size 0), as torch does
            out = out.unsqueeze(dim)
            advanced += [slice(None)] * (dim - covered) + [np.array([0] if k else [], np.int64)]
            dim = covered = dim + 1
        elif i in arrays:
            arr = arrays[i]
            advanced += [slice(None)] * (dim - covered) + [arr]
            if arr.dtype == bool:
                for j, n in enumerate(arr.shape):
                    if n != out.shape[dim + j]:
                        raise IndexError(f"The shape of the mask {list(arr.shape)} at index {j} does not match the "
                                         f"shape of the indexed tensor {list(out.shape)} at index {dim + j}")
            dim = covered = dim + (arr.ndim if arr.dtype == bool else 1)
        elif k is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif k is Ellipsis:
            dim += t.ndim - used
        elif isinstance(k, slice):
            out = _slice(out, dim, k, single_slice)
            dim += 1
        elif type(k) is int or isinstance(k, (numbers.Integral, Tensor)):
            index = int(k)
            size = out._data.shape[dim]
            if not -size <= index < size:  # torch names the index's position in the key as its dimension
                raise IndexError(f"index {index} is out of bounds for dimension {i} with size {size}")
            out = SelectBackward0.apply(out, dim=dim, key=index % size)
            if index < 0:  # torch shows the index as written (the node keeps it counted from 0)
                shown(out, index=index)
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             f"valid indices (got {type(k).__name__})")
    return out, advanced


def _slice(t: Tensor, dim: int, k: slice, always: bool) -> Tensor:
    """``t`` sliced by ``k`` along ``dim``: a SliceBackward0, or ``t`` itself for a slice that keeps the whole dim,
    judged by its written start (``x[-3:]`` is a slice), unless ``always`` (a lone ``x[:]`` is one too)."""
    if not all(b is None or type(b) is int for b in (k.start, k.stop, k.step)):  # data[i:i + 8], i a tensor
        k = slice(*(None if b is None else operator.index(b) for b in (k.start, k.stop, k.step)))
    size = t._data.shape[dim]
    start, stop, step = k.indices(size)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    if not always and k.start in (None, 0) and step == 1 and stop == size:
        return t
    return shown(SliceBackward0.apply(t, dim=dim, key=slice(start, max(start, stop), step)),
                 start=k.start or 0, end=2 ** 63 - 1 if k.stop is None else k.stop, step=step)


def _index_key(t: Tensor, key: list) -> tuple:
    """The index arrays in ``key`` (full slices elsewhere) checked against ``t`` with torch's errors, as the NumPy
    key and the index tensors that IndexBackward0 and IndexPutBackward0 save (None for a full slice)."""
    key = tuple(key)
    while key and isinstance(key[-1], slice):
        key = key[:-1]
    try:
        np.broadcast_shapes(*(a.shape for a in key if isinstance(a, np.ndarray) and a.dtype != bool))
        t._data[key]
    except ValueError:
        shapes = ", ".join(str(list(a.shape)) for a in key if isinstance(a, np.ndarray))
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}") \
            from None
    except IndexError as exc:
        raise IndexError(str(exc).replace(" axis ", " dimension ")) from None
    return key, tuple(None if isinstance(a, slice) else _wrap(a) for a in key)


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
        return shown(ScatterBackward1.apply(self, dim=d, index=index, value=value), dim=dim)
    return shown(ScatterBackward0.apply(self, src, dim=d, index=index), dim=dim)


def scatter_add(self, dim, index, src):
    """A copy with ``src`` added in at ``index`` along ``dim`` (repeated indices add up): for dim = 0,
    ``out[index[i][j]][j] += src[i][j]``."""
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_add(): argument 'src' (position 3) must be Tensor, not {type(src).__name__}")
    d = _check_scatter(self, dim, index, src)
    return shown(ScatterAddBackward0.apply(self, src, dim=d, index=index), dim=dim)


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
    return shown(IndexAddBackward0.apply(self, source, dim=d, index=index, alpha=alpha), dim=dim)


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
        return shown(IndexFillBackward1.apply(self, value, dim=d, index=index), dim=dim)
    return shown(IndexFillBackward0.apply(self, dim=d, index=index, value=value), dim=dim)


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
    return MaskedScatterBackward0.apply(self, source, mask=mask)


def _in_place(method):
    """The in-place form of ``method``: the result written into this tensor, which takes over its node."""
    def inplace(self, *args, **kwargs):
        return self._inplace(lambda before: method(before, *args, **kwargs), *args, *kwargs.values())
    inplace.__name__ = method.__name__ + "_"
    inplace.__doc__ = f"In-place ``{method.__name__}``."
    return inplace


scatter_, scatter_add_, index_add_, index_fill_, masked_scatter_ = (
    _in_place(m) for m in (scatter, scatter_add, index_add, index_fill, masked_scatter))


class IndexingMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def masked_fill(self, mask, value):
        """``value`` where ``mask`` is True, the tensor's own values elsewhere."""
        if isinstance(value, Tensor):
            value = value.item()
        mask = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
        _broadcast_shape(self._data.shape, mask.shape)
        return MaskedFillBackward0.apply(self, mask=mask, value=value)

    def gather(self, dim, index=None, *, sparse_grad=False):
        """``out[i][j] = self[i][index[i][j]]`` for dim = 1: along ``dim``, the entry that ``index`` names."""
        if index is None:
            raise TypeError('gather() missing 1 required positional arguments: "index"')
        if not isinstance(dim, int):
            raise TypeError(f"gather(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
        if not isinstance(index, Tensor):
            raise TypeError(f"gather(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
        if sparse_grad:
            raise NotImplementedError("autograd_tutor has no sparse tensors: call gather with sparse_grad=False")
        d, i = _dim(dim, self.ndim), index._data
        if i.dtype not in (np.int64, np.int32):
            raise RuntimeError("gather(): Expected dtype int32/int64 for index")
        if max(i.ndim, 1) != max(self.ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
        for k in range(min(i.ndim, self.ndim)):
            if k != d and i.shape[k] > self.shape[k]:
                raise RuntimeError(f"Size does not match at dimension {k} expected index {list(index.shape)} to be "
                                   f"no larger than self {list(self.shape)} apart from dimension {d}")
        n = self.shape[d] if self.ndim else 1
        bad = i[(i < 0) | (i >= n)]
        if bad.size:
            raise RuntimeError(f"index {bad[0]} is out of bounds for dimension {d} with size {n}")
        return shown(GatherBackward0.apply(self, dim=d, index=index), dim=dim)

    def take(self, index):
        """The elements at ``index`` of the tensor read as one flat row (a negative index counts from the end);
        the result has the index's shape."""
        _long_index(index, "take")
        return TakeBackward0.apply(self, index)

    def put(self, index, source, accumulate=False):
        """A copy with ``source``'s elements written at ``index`` of the tensor read as one flat row (added, when
        ``accumulate``, repeats adding up)."""
        _long_index(index, "put")
        if not isinstance(source, Tensor):
            raise TypeError(f"put(): argument 'source' (position 2) must be Tensor, not {type(source).__name__}")
        if source.numel() != index.numel():
            raise IndexError("put_(): Expected source and index to have the same number of elements, but got "
                             f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
        if source._data.dtype != self._data.dtype:
            raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                               f"{kind_name(self._data)} and source.dtype = {kind_name(source._data)}")
        return PutBackward0.apply(self, source, index=index, accumulate=accumulate)

    def put_(self, index, source, accumulate=False):
        return self._inplace(lambda s: s.put(index, source, accumulate), source)

    def index_select(self, dim, index):
        """The slices at ``index`` (a 1-D integer tensor) along ``dim``, in that order, repeats allowed."""
        if not isinstance(index, Tensor):
            raise TypeError(f"index_select(): argument 'index' (position 2) must be Tensor, not "
                            f"{type(index).__name__}")
        axis, i = _dim(dim, self.ndim), index._data
        if i.dtype not in (np.int64, np.int32):
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        if i.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        n = self._data.shape[axis] if self.ndim else 1
        if i.size and (i.min() < 0 or i.max() >= n):
            raise IndexError("index out of range in self")
        return shown(IndexSelectBackward0.apply(self, dim=axis, index=index), dim=dim)

    def masked_select(self, mask):
        """The entries where the bool ``mask`` (broadcast with self) is True, as a 1-D tensor."""
        if mask._data.dtype != np.bool_:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        shape = _broadcast_shape(mask._data.shape, self._data.shape)
        return MaskedSelectBackward0.apply(self, mask=mask, shape=shape)

    def __getitem__(self, key):
        single_slice = isinstance(key, slice)  # x[a:b] always records a slice, even of everything
        return _index(self, key if isinstance(key, tuple) else (key,), single_slice)

    def __setitem__(self, key, value) -> None:
        """``x[key] = value``, as torch does it: ``x[key].copy_(value)`` into the view that the ints and slices of
        ``key`` take, then, for index tensors, lists and masks, ``index_put_`` on that view (IndexPutBackward0,
        inside a CopySlices when there was a view)."""
        key = tuple(int(k._data) if isinstance(k, Tensor) and not k._data.ndim and k._data.dtype.kind in "iu"
                    else _index_array(k) if _is_advanced(k) else k  # a 0-dim integer tensor indexes as an int
                    for k in (key if isinstance(key, tuple) else (key,)))
        for k in key:
            if isinstance(k, float):
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                                 "valid indices (got float)")
        value = _wrap(value)
        try:
            target = self._data[key].shape
        except IndexError as exc:  # NumPy's words for the same error
            raise IndexError(str(exc).replace("for axis", "for dimension")) from None
        shape = _fitting_shape(value, target, any(isinstance(k, np.ndarray) for k in key))
        if grad_mode._grad_enabled[0] and (self.requires_grad or value._requires_grad):
            view, advanced = _view_and_rest(self, key, False)
            if advanced:  # torch: index_put_ of the value viewed without its leading 1s
                value = value if shape == value.shape else value.view(shape)
                key, saved = _index_key(view, advanced)
                view._inplace(lambda s: IndexPutBackward0.apply(s, value, key=key, index_tensors=saved), value)
            elif value.shape == view.shape:  # torch's copy_to: copy_, fill_ for one number, else view and expand
                view.copy_(value)
            elif not value.ndim:
                view.fill_(value)
            else:
                value = value.view(shape)
                view.copy_(value if shape == view.shape else value.expand(view.shape))
        else:
            self._check_inplace()
            try:
                self._data[key] = value._data.reshape(shape)
            except IndexError as exc:  # NumPy's words for the same error
                raise IndexError(str(exc).replace("for axis", "for dimension")) from None
            self._vbox[0] += 1


def _long_index(index, name: str) -> None:
    """torch's errors for an index that is not a tensor of int64."""
    if not isinstance(index, Tensor):
        raise TypeError(f"{name}(): argument 'index' (position 1) must be Tensor, not {type(index).__name__}")
    if index._data.dtype != np.int64:
        raise RuntimeError(f"{'put_' if name == 'put' else name}(): Expected a long tensor for index, but got "
                           f"{kind_name(index._data)}")
