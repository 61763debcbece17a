"""Indexing: ``x[key]`` and ``x[key] = v`` with index tensors, ``gather`` / ``scatter``, ``index_select``,
``index_add`` / ``index_fill``, ``masked_fill`` / ``masked_select`` / ``masked_scatter``. (``x[1:3] = v`` is a copy
into a view: ``ops/views.py``.)

>>> import autograd_tutor as torch
>>> x = torch.tensor([1., 2., 3.], requires_grad=True)
>>> y = x.index_fill(0, torch.tensor([1]), 0.); y.sum().backward(); y, x.grad
(tensor([1., 0., 3.], grad_fn=<IndexFillBackward0>), tensor([1., 0., 1.]))
"""
from __future__ import annotations

import numpy as np

from ..dtypes import CPP_NAMES
from ..function import Function, SavedTensor
from ..tensor import Tensor
from .numerics import _is_tensor, _needs_array_only
from .selection import _where

__all__ = ["SliceBackward0", "SelectBackward0", "IndexBackward0", "IndexPutBackward0",
           "SliceBackwardBackward0", "SelectBackwardBackward0", "IndexPutImplBackward0", "ScatterBackward0",
           "GatherBackward0", "gathered_back", "ScatterAddBackward0", "MaskedFillBackward0", "IndexSelectBackward0",
           "MaskedSelectBackward0", "MaskedFillBackward1", "ScatterBackward1", "IndexAddBackward0",
           "IndexFillBackward0", "IndexFillBackward1", "MaskedScatterBackward0", "TakeBackward0", "PutBackward0"]


class SliceBackward0(Function):
    """z = x[start:end:step] on axis ``dim``;  dx = zeros with g placed in the slice."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dim, key):
        if ctx.needs_input_grad:  # a recorded node
            _save_key(ctx, dim, key, x._data.shape)
            ctx.self_sym_sizes = x._data.shape
        return x._data[(slice(None),) * dim + (key, Ellipsis)]  # the Ellipsis keeps x[i] a (0-dim) view

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):
            return ctx.placing.apply(g, dim=ctx.dim, key=ctx._key, sizes=ctx.self_sym_sizes)
        out = np.zeros(ctx.self_sym_sizes, g.dtype)
        out[(slice(None),) * ctx.dim + (ctx._key,)] = g
        return out


def _save_key(ctx, dim: int, key, shape: tuple) -> None:
    """Keep a slice's or select's ``key`` for backward, and save what torch shows: start, end and step, or index."""
    ctx._key, ctx.dim = key, dim  # (plain values: attributes, as ``ctx.save`` would keep them)
    if type(key) is slice:
        ctx.start, ctx.end, ctx.step = key.indices(shape[dim])
    else:
        ctx.index = key


class SelectBackward0(SliceBackward0):
    """z = x[..., i, ...] on axis ``dim`` (``key`` is the int i);  dx = zeros with g placed at i."""


class IndexBackward0(Function):
    """z = x[indices] (lists, tensors or masks);  dx = zeros with g added at the indices (repeats add up)."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, x, key, index_tensors=()):
        """``key`` indexes the array; ``index_tensors`` are its index arrays as tensors, None for full slices."""
        if ctx.needs_input_grad:
            ctx.save(self_sym_sizes=x._data.shape)
            ctx._saved["indices"] = _SavedList(index_tensors)
        return x._data[key]

    @staticmethod
    def backward(ctx, g):
        indices = ctx._unpack("indices", False)
        key = tuple(slice(None) if i is None else i for i in indices)
        if _is_tensor(g):
            return IndexPutImplBackward0.apply(Tensor._make(np.zeros(ctx.self_sym_sizes, g._data.dtype)), g, key=key)
        out = np.zeros(ctx.self_sym_sizes, g.dtype)
        np.add.at(out, key, g)
        return out


class _SavedList:
    """The saved index tensors (``_saved_indices``, None where a dimension is not indexed): each one saved like
    any tensor (saved-tensor hooks, in-place checks) and freed with the node."""

    def __init__(self, tensors) -> None:
        self.items = tuple(None if t is None else SavedTensor(t, is_output=False) for t in tensors)
        self.data = np.empty(0)

    def get(self, node, as_tensor: bool) -> tuple:
        return tuple(None if s is None else s.get(node, as_tensor) for s in self.items)


class IndexPutBackward0(Function):
    """x[indices] = v with index tensors or masks;  dx = g with the written places zeroed,  dv = g[indices]
    (under create_graph, written with index_put and index as torch writes it)."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, x, value, key, index_tensors=()):
        if ctx.needs_input_grad:
            ctx.save(accumulate=False)
            ctx._saved["indices"] = _SavedList(index_tensors)
        out = x._data.copy()
        out[key] = value._data
        return out

    @staticmethod
    def backward(ctx, g):
        key = tuple(slice(None) if i is None else i for i in ctx._unpack("indices", False))
        if _is_tensor(g):  # as torch: dx = g.index_put(indices, zeros_like(v)),  dv = g.index(indices)
            tensors = ctx._unpack("indices", True)
            zeros = Tensor._make(np.zeros(g._data[key].shape, g._data.dtype))
            return (IndexPutBackward0.apply(g, zeros, key=key, index_tensors=tensors),
                    IndexBackward0.apply(g, key=key, index_tensors=tensors))
        gx = g.copy()
        gx[key] = 0
        return gx, g[key]


class SliceBackwardBackward0(Function):
    """z = zeros of the input's shape with g in the slice, the backward of slicing;  dz/dg = gg[slice]."""

    @staticmethod
    def forward(ctx, g, dim, key, sizes):
        _save_key(ctx, dim, key, sizes)
        out = np.zeros(sizes, g._data.dtype)
        out[(slice(None),) * dim + (key,)] = g._data
        return out

    @staticmethod
    def backward(ctx, gg):
        if _is_tensor(gg):
            return ctx.taking.apply(gg, dim=ctx.dim, key=ctx._key)
        return gg[(slice(None),) * ctx.dim + (ctx._key,)]


class SelectBackwardBackward0(SliceBackwardBackward0):
    """z = zeros of the input's shape with g at index i of dim, the backward of select;  dz/dg = gg[i]."""


# Each of these pairs differentiates the other (used under create_graph).
SliceBackward0.placing, SliceBackwardBackward0.taking = SliceBackwardBackward0, SliceBackward0


SelectBackward0.placing, SelectBackwardBackward0.taking = SelectBackwardBackward0, SelectBackward0


class IndexPutImplBackward0(Function):
    """z = x with g added at the indices (repeats add up), the backward of advanced indexing;
    dz/dg = gg[indices]."""

    @staticmethod
    def forward(ctx, x, g, key):
        ctx.save(key=key, accumulate=True)
        out = x._data.copy()
        np.add.at(out, key, g._data)
        return out

    @staticmethod
    def backward(ctx, gg):
        return gg, gg[ctx.key]


class ScatterBackward0(Function):
    """z = x with src written at ``index`` along dim (``x.scatter(dim, index, src)``, and the backward of max/min
    along a dim);  dx = gg with zeros where src landed,  dsrc = gg gathered at ``index``."""
    saved_names = ("index",)

    @staticmethod
    def forward(ctx, x, src, dim, index):
        ctx.save(dim=dim, index=index)
        return _scatter(x._data.copy(), dim, index._data, src._data)

    @staticmethod
    def backward(ctx, gg):
        t = _is_tensor(gg)
        index = ctx._unpack("index", t)
        dx = None
        if ctx.needs_input_grad[0]:
            if t:  # torch: grad.scatter(dim, index, 0)
                dx = ScatterBackward1.apply(gg, dim=ctx.dim, index=index, value=0)
            else:
                dx = _scatter(gg.copy(), ctx.dim, index, 0)
        return dx, (GatherBackward0.apply(gg, dim=ctx.dim, index=index) if t else _gather(gg, ctx.dim, index))


def _scatter(out: np.ndarray, dim: int, index: np.ndarray, src) -> np.ndarray:
    """``out`` with ``src`` (an array at least as large as ``index``, or one number) written in at ``index``
    along ``dim`` (in place)."""
    if np.ndim(src):
        src = src[tuple(slice(n) for n in index.shape)]
    if not out.ndim or not index.ndim:
        out.reshape(-1)[index.reshape(-1)] = np.reshape(src, -1)
    else:
        out[_along(index, dim)] = src
    return out


def _along(index: np.ndarray, dim: int) -> tuple:
    """The NumPy key that reads ``x[..., index[i, j, k], ...]`` into position (i, j, k): ``index`` on axis
    ``dim``, the position itself on every other axis (so ``index`` may be smaller than x there)."""
    key = list(np.ogrid[tuple(slice(n) for n in index.shape)])
    key[dim] = index
    return tuple(key)


class GatherBackward0(Function):
    """z[i][j] = x[i][index[i][j]] (for dim = 1);  dx = zeros with g added back at the index (repeats add up)."""
    saved_names = ("self", "index")

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.save(index=index, self=x, dim=dim, sparse_grad=False)
        return _gather(x._data, dim, index._data)

    @staticmethod
    def backward(ctx, g):
        index = ctx._unpack("index", _is_tensor(g))  # unpacked before self, as torch does (saved-tensor hooks see it)
        return gathered_back(g, ctx._unpack("self", False), ctx.dim, index)


_EMPTY = {"take": "take(): tried to take from an empty tensor",
          "put": "put_(): Tried to put elements into an empty tensor"}


def _flat_index(index: np.ndarray, numel: int, what: str) -> np.ndarray:
    """``index`` into a flattened tensor of ``numel`` elements, negative ones counted from the end (torch's
    errors for an empty tensor, by ``what``: "take" or "put", and for an index outside it)."""
    if numel == 0 and index.size:
        raise IndexError(_EMPTY[what])
    bad = (index >= numel) | (index < -numel)
    if bad.any():
        raise IndexError(f"out of range: tried to access index {index[bad].flat[0]} on a tensor of {numel} elements.")
    return np.where(index < 0, index + numel, index)


class TakeBackward0(Function):
    """z = x.flatten()[index] (the result has the index's shape);  dx = zeros with g added back at the index
    (repeats add up: torch's ``zeros.put_(index, grad, accumulate=True)``, recorded as PutBackward0 when needed).

    >>> import autograd_tutor as torch
    >>> torch.take(torch.tensor([[4., 3.], [5., 6.]]), torch.tensor([0, 3]))
    tensor([4., 6.])
    """
    saved_names = ("index", "self")

    @staticmethod
    def forward(ctx, x, index):
        ctx.save(index=index, self=x)
        d = x._data
        return d.reshape(-1)[_flat_index(index._data, d.size, "take")]

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        index, x = ctx._unpack("index", t), ctx._unpack("self", False)
        if t:
            return PutBackward0.apply(Tensor._make(np.zeros(x.shape, g._data.dtype)), g, index=index,
                                      accumulate=True)
        return _put(np.zeros(x.shape, g.dtype), np.asarray(index), g, True)


def _put(d: np.ndarray, index: np.ndarray, source: np.ndarray, accumulate: bool) -> np.ndarray:
    """``d`` (changed and returned) with ``source`` written (or added, repeats adding up) at the flat ``index``."""
    flat, at = d.reshape(-1), _flat_index(index, d.size, "put").reshape(-1)
    if accumulate:
        np.add.at(flat, at, source.reshape(-1))
    else:
        flat[at] = source.reshape(-1)
    return d


class PutBackward0(Function):
    """z = x with source written at the flat ``index`` (added when ``accumulate``);
    dx = g, with zeros at the index unless accumulating;  dsource = g.take(index), in source's shape."""
    saved_names = ("accumulate", "index", "source")

    @staticmethod
    def forward(ctx, x, source, index, accumulate=False):
        ctx.save(accumulate=accumulate, index=index, source=source)
        return _put(x._data.copy(), index._data, source._data, accumulate)

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        index, shape = ctx._unpack("index", t), ctx._unpack("source", False).shape
        if t:
            gx = g if ctx.accumulate else g.put(index, Tensor._make(np.zeros(shape, g._data.dtype)))
            return gx, g.take(index).reshape(shape)
        gx = g if ctx.accumulate else _put(g.copy(), np.asarray(index), np.zeros(shape, g.dtype), False)
        return gx, g.reshape(-1)[_flat_index(np.asarray(index), g.size, "take")].reshape(shape)


def gathered_back(g, x: np.ndarray, dim: int, index):
    """The gradient of a gather from x: each g added at its ``index`` along dim into zeros of x's shape (torch's
    ``zeros.scatter_add(dim, index, grad)``, recorded when g is a Tensor)."""
    if _is_tensor(g):
        zeros = Tensor._make(np.zeros(np.shape(x), g._data.dtype))
        return ScatterAddBackward0.apply(zeros, g, dim=dim, index=index)
    return _scatter_add(np.zeros(np.shape(x), g.dtype), dim, np.asarray(index), g)


def scattered_back(g, shape: tuple, dim: int, idx: np.ndarray):
    """The gradient of a selection (max/min along a dim, sort, topk): each g written at its ``idx`` along dim into
    zeros of ``shape`` (torch's ``zeros.scatter(dim, indices, grad)``, recorded as ScatterBackward0 when g is a
    Tensor)."""
    if _is_tensor(g):
        return ScatterBackward0.apply(Tensor._make(np.zeros(shape, g._data.dtype)), g, dim=dim,
                                      index=Tensor._make(idx))
    out = np.zeros(shape, g.dtype)
    np.put_along_axis(out, idx, g, dim)
    return out


def _gather(d: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    """``d`` read at ``index`` along ``dim`` (a 0-dim ``d`` or ``index`` reads like a vector of one element)."""
    if not d.ndim or not index.ndim:
        return d.reshape(-1)[index.reshape(-1)].reshape(index.shape)
    return d[_along(index, dim)]


def _scatter_add(out: np.ndarray, dim: int, index: np.ndarray, src) -> np.ndarray:
    """``out`` with ``src`` added in at ``index`` along ``dim`` (in place; repeated indices add up)."""
    if not out.ndim or not index.ndim:
        np.add.at(out.reshape(-1), index.reshape(-1), np.reshape(src, -1))  # a view: writes into out
        return out
    np.add.at(out, _along(index, dim), src)
    return out


class ScatterAddBackward0(Function):
    """z = x with src added at ``index`` along dim, the backward of gather;  dz/dx = gg,  dz/dsrc = gg gathered."""
    saved_names = ("index",)

    @staticmethod
    def forward(ctx, x, src, dim, index):
        ctx.save(dim=dim, index=index)
        return _scatter_add(x._data.copy(), dim, index._data, src._data)

    @staticmethod
    def backward(ctx, gg):
        if _is_tensor(gg):
            return gg, GatherBackward0.apply(gg, dim=ctx.dim, index=ctx._unpack("index", True))
        return gg, _gather(gg, ctx.dim, np.asarray(ctx._unpack("index", False)))


class MaskedFillBackward0(Function):
    """z = value where mask, else x;  dx = g where the mask is False, 0 where it is True."""

    @staticmethod
    def forward(ctx, x, mask, value):
        if mask.dtype != np.bool_:
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                               f"{CPP_NAMES.get(mask.dtype.name, mask.dtype.name)}")
        ctx.save(mask=Tensor._make(mask))  # a saved tensor, freed after backward as torch frees it
        d = x._data
        return np.where(mask, np.asarray(value, d.dtype), d)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "masked_fill")
        return _where(~np.broadcast_to(ctx._unpack("mask", False), g.shape), g)


class IndexSelectBackward0(Function):
    """z = the slices of x at ``index`` along ``dim`` (repeats allowed);  dx = zeros with each slice of g added
    back where it came from (twice if it was selected twice)."""
    saved_names = ("index",)

    @staticmethod
    def forward(ctx, x, dim, index):
        d = x._data
        ctx.save(dim=dim, index=index, self_sym_sizes=d.shape)
        return np.take(d, index._data.reshape(-1), axis=dim) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "index_select")
        index = ctx._unpack("index", False)
        shape = ctx.self_sym_sizes
        if not shape:
            return g
        out = np.zeros(shape, g.dtype)
        key = (slice(None),) * ctx.dim + (np.reshape(index, -1),)
        np.add.at(out, key, g)
        return out


class MaskedSelectBackward0(Function):
    """z = the entries of x where ``mask`` is True (both broadcast first), as a 1-D tensor;  dx = zeros with g
    written back at those places (summed over what broadcasting repeated)."""
    saved_names = ("self", "mask")

    @staticmethod
    def forward(ctx, x, mask, shape):
        ctx.save(mask=mask, self=x)  # torch's order
        ctx._shape = shape
        return np.broadcast_to(x._data, shape)[np.broadcast_to(mask._data, shape)]

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "masked_select")
        mask = ctx._unpack("mask", False)
        ctx._unpack("self", False)  # read, as torch's backward reads it
        out = np.zeros(ctx._shape, g.dtype)
        out[np.broadcast_to(mask, ctx._shape)] = g
        return out


class MaskedFillBackward1(Function):
    """z = x with the 0-dim tensor v written where ``mask`` is True;  dx = g with zeros there,
    dv = the sum of g there."""
    saved_names = ("mask",)

    @staticmethod
    def forward(ctx, x, value, mask):
        ctx.save(mask=mask)
        return np.where(mask._data, value._data, x._data)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "masked_fill with a tensor value (the gradient of median)")
        mask = np.broadcast_to(ctx._unpack("mask", False), g.shape)
        return np.where(mask, 0, g).astype(g.dtype), g[mask].sum()


def _along_dim(dim: int, index) -> tuple:
    """The NumPy key of the slices ``index`` along ``dim``: ``x[key]`` is ``x.index_select(dim, index)``."""
    return (slice(None),) * dim + (index,)


class ScatterBackward1(Function):
    """z = x with the number ``value`` written at ``index`` along dim;  dx = gg with zeros there."""
    saved_names = ("index",)

    @staticmethod
    def forward(ctx, x, dim, index, value):
        ctx.save(dim=dim, index=index)
        return _scatter(x._data.copy(), dim, index._data, value)

    @staticmethod
    def backward(ctx, gg):
        if _is_tensor(gg):
            return ScatterBackward1.apply(gg, dim=ctx.dim, index=ctx._unpack("index", True), value=0)
        return _scatter(gg.copy(), ctx.dim, ctx._unpack("index", False), 0)


class IndexAddBackward0(Function):
    """z = x with alpha * source[i] added to the slice index[i] along dim (repeats add up);
    dx = g,  dsource = alpha * g.index_select(dim, index).

    >>> import autograd_tutor as torch
    >>> torch.zeros(3).index_add(0, torch.tensor([0, 0, 2]), torch.tensor([1., 2., 5.]))
    tensor([3., 0., 5.])
    """
    saved_names = ("index", "source")

    @staticmethod
    def forward(ctx, x, source, dim, index, alpha):
        s = source._data
        ctx.save(alpha=alpha, dim=dim, index=index, source=source, source_dim=s.ndim)
        out = x._data.copy()
        key = _along_dim(dim, index._data) if out.ndim else index._data
        np.add.at(out.reshape(out.shape or (1,)), key, alpha * s.reshape(s.shape or (1,)))
        return out

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "index_add")
        index, source = ctx._unpack("index", False), ctx._unpack("source", False)
        picked = g[_along_dim(ctx.dim, index)] if g.ndim else g.reshape(1)[index]
        return g, (ctx.alpha * picked).reshape(np.shape(source))


class IndexFillBackward0(Function):
    """z = x with the slices at ``index`` along dim filled with the number ``value``;  dx = g with zeros there."""
    saved_names = ("index",)

    @staticmethod
    def forward(ctx, x, dim, index, value):
        ctx.save(dim=dim, index=index)
        return _filled(x._data, dim, index._data, value)

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):  # torch: grad.index_fill(dim, index, 0)
            return IndexFillBackward0.apply(g, dim=ctx.dim, index=ctx._unpack("index", True), value=0)
        return _filled(g, ctx.dim, ctx._unpack("index", False), 0)


def _filled(d: np.ndarray, dim: int, index: np.ndarray, value) -> np.ndarray:
    """A copy of ``d`` with its slices at ``index`` along ``dim`` set to ``value``."""
    out = d.copy()
    out.reshape(out.shape or (1,))[_along_dim(dim, index.reshape(-1))] = value
    return out


class IndexFillBackward1(IndexFillBackward0):
    """z = x with the slices at ``index`` filled with the 0-dim tensor v;  dx = g with zeros there,
    dv = the sum of g over those slices (each slice once, even if ``index`` repeats it)."""

    @staticmethod
    def forward(ctx, x, value, dim, index):
        ctx.save(dim=dim, index=index)
        return _filled(x._data, dim, index._data, value._data)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "index_fill with a tensor value")
        index = np.unique(ctx._unpack("index", False))
        return IndexFillBackward0.backward(ctx, g), g.reshape(g.shape or (1,))[_along_dim(ctx.dim, index)].sum()


class MaskedScatterBackward0(Function):
    """z = x with the entries where ``mask`` is True replaced, in order, by the first entries of ``source``;
    dx = g with zeros under the mask,  dsource = g under the mask in the first places, zeros after.

    >>> import autograd_tutor as torch
    >>> torch.zeros(4).masked_scatter(torch.tensor([True, False, True, False]), torch.tensor([7., 8., 9.]))
    tensor([7., 0., 8., 0.])
    """
    saved_names = ("mask",)

    @staticmethod
    def forward(ctx, x, source, mask):
        ctx.save(mask=mask, source_sym_sizes=source._data.shape)
        out = x._data.copy()
        where = np.broadcast_to(mask._data, out.shape)
        out[where] = source._data.reshape(-1)[:where.sum()]
        return out

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "masked_scatter")
        where = np.broadcast_to(ctx._unpack("mask", False), g.shape)
        dsource = np.zeros(np.prod(ctx.source_sym_sizes, dtype=np.int64), g.dtype)
        dsource[:where.sum()] = g[where]
        return np.where(where, 0, g).astype(g.dtype), dsource.reshape(ctx.source_sym_sizes)
