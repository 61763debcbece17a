"""Writing at indices and running along a dim: scatter (a number), index_add, index_fill, masked_scatter, cummax /
cummin, logcumsumexp, kthvalue and nansum, each the node torch records (``ScatterBackward1``, ``IndexAddBackward0``,
``CummaxBackward0``, ...). The Tensor methods that build them are in ``index_methods.py``.

Writing is the adjoint of reading: where forward *writes* a value at a place, backward *reads* the gradient
there for that value, and the place's old content gets no gradient (it was overwritten).

>>> import autograd_tutor as torch
>>> x = torch.tensor([1., 2., 3.], requires_grad=True)
>>> y = x.index_fill(0, torch.tensor([1]), 0.); y.sum().backward(); y, x.grad
(tensor([1., 0., 3.], grad_fn=<IndexFillBackward0>), tensor([1., 0., 1.]))
"""
from __future__ import annotations

import numpy as np

from .function import Function
from .functions import (MaxBackward0, _float, _is_tensor, _needs_array_only, _reduced, _scatter,
                        gathered_back)

__all__: list = []  # used through Tensor methods (index_methods.py)


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


def running_extreme(d: np.ndarray, axis: int, ufunc) -> tuple:
    """cummax (``np.maximum``) or cummin (``np.minimum``) along ``axis``: the running values, and where each was
    found, the latest place on ties (torch's rule: an entry equal to the running maximum takes over).

    >>> values, indices = running_extreme(np.array([3., 1., 3., 5.]), 0, np.maximum)
    >>> values.tolist(), indices.tolist()
    ([3.0, 3.0, 3.0, 5.0], [0, 0, 2, 3])
    """
    values = ufunc.accumulate(d, axis=axis)
    place = np.arange(d.shape[axis]).reshape((-1,) + (1,) * (d.ndim - axis - 1))
    takes_over = np.where(d == values, place, 0)  # d[i] is a new record, or ties it
    return values, np.maximum.accumulate(takes_over, axis=axis).astype(np.int64)


class CummaxBackward0(Function):
    """values = the running maximum along dim;  each value's gradient goes to the entry it came from (``indices``),
    so an entry that stays the maximum for k steps collects k gradients."""
    saved_names = ("indices", "self")

    @staticmethod
    def forward(ctx, x, dim, indices):
        ctx.save(dim=dim, indices=indices, self=x)
        d = x._data
        return np.take_along_axis(d, indices._data, dim) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        indices = ctx._unpack("indices", _is_tensor(g))  # unpacked before self, as torch does
        return gathered_back(g, ctx._unpack("self", False), ctx.dim, indices)


class CumminBackward0(CummaxBackward0):
    """values = the running minimum along dim;  each value's gradient goes to the entry it came from."""


class LogcumsumexpBackward0(Function):
    """z_j = log(exp(x_1) + ... + exp(x_j)) along dim (``np.logaddexp.accumulate``, without overflow);
    dx_k = sum over j >= k of g_j exp(x_k - z_j), a softmax weight of x_k within each prefix.

    >>> import autograd_tutor as torch
    >>> torch.tensor([0., 0., 0.]).logcumsumexp(0)     # log 1, log 2, log 3
    tensor([0.0000, 0.6931, 1.0986])
    """
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim, self=x)
        d = _float(x)
        return np.logaddexp.accumulate(d, axis=dim) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "logcumsumexp")
        x, z = ctx._unpack("self", False), ctx._unpack("result", False)
        if not np.ndim(x):
            return g
        x, z, g = (np.moveaxis(np.asarray(a), ctx.dim, -1) for a in (x, z, g))
        n = x.shape[-1]
        later = np.arange(n)[:, None] <= np.arange(n)  # [k, j]: j >= k
        with np.errstate(invalid="ignore"):  # -inf - -inf in a prefix of -inf entries: they get no gradient
            weight = np.exp(x[..., :, None] - z[..., None, :])
        weight = np.where(later & ~np.isnan(weight), weight, 0)
        return np.moveaxis((weight * g[..., None, :]).sum(-1), -1, ctx.dim).astype(g.dtype)


class KthvalueBackward0(MaxBackward0):
    """values = the k-th smallest entry along dim;  each value's gradient goes to the entry it came from."""


class NansumBackward0(Function):
    """z = the sum of the entries that are not nan (over ``dim``, or all);  dx = g where x is a number, 0 at nan."""
    saved_names = ("self", "dim")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.save(self=x, dim=dim, keepdim=keepdim)
        d = x._data
        if d.dtype.kind in "biu":
            return d.sum(axis=dim, keepdims=keepdim, dtype=np.int64)
        return np.nansum(d, axis=dim, keepdims=keepdim)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "nansum")
        x = ctx._unpack("self", False)
        (g,) = _reduced(ctx, g)
        return np.where(np.isnan(x), 0, g).astype(g.dtype)
