"""Still more differentiable operations: atan2, cumprod, index_select, masked_select, roll, median, and the
node torch records for an operation it cannot differentiate (``bernoulli(p)``).

The same pattern as ``functions.py``: one class per op, named as torch names its node, ``forward`` on NumPy
arrays and ``backward`` beside it. A few backwards work on arrays only and say so under ``create_graph=True``.

>>> import autograd_tutor as torch
>>> y, x = torch.tensor(1., requires_grad=True), torch.tensor(1., requires_grad=True)
>>> z = torch.atan2(y, x); z.backward(); z, y.grad, x.grad     # the angle of (x, y): pi/4
(tensor(0.7854, grad_fn=<Atan2Backward0>), tensor(0.5000), tensor(-0.5000))
"""
from __future__ import annotations

import numpy as np

from .function import Function
from . import functions as F
from .functions import MaxBackward0, _is_tensor, _needs_array_only, _promote

__all__: list = []  # used through Tensor methods and torch-level functions, not imported by name


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


class CumprodBackward0(Function):
    """z_j = x_1 * ... * x_j along ``dim``;  dx_k = sum over j >= k of g_j * (the product of x_1..x_j without x_k),
    computed without dividing by x_k so that zeros in x are handled exactly."""
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, dim, dtype=None):
        ctx.save(self=x, dim=dim)
        d = x._data
        if dtype is not None:
            d = d.astype(dtype)
        elif d.dtype.kind in "biu":
            d = d.astype(np.int64)
        return d.cumprod(axis=dim) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "cumprod")
        x = ctx._unpack("self", False)
        ctx._unpack("result", False)  # read, as torch's backward reads it
        if not np.ndim(x):
            return g
        x, g = np.moveaxis(np.asarray(x, g.dtype), ctx.dim, -1), np.moveaxis(g, ctx.dim, -1)
        out = np.empty_like(g)
        for k in range(x.shape[-1]):
            without_k = x.copy()
            without_k[..., k] = 1
            out[..., k] = (g[..., k:] * without_k.cumprod(-1)[..., k:]).sum(-1)
        return np.moveaxis(out, -1, ctx.dim)


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


class RollBackward0(Function):
    """z = x shifted cyclically by ``shifts`` along ``dims`` (flattened when there are none);
    dx = g rolled back by the opposite shifts."""

    @staticmethod
    def forward(ctx, x, shifts, dims):
        ctx.show(shifts=shifts, dims=dims)
        ctx._roll = (shifts, dims)
        d = x._data
        return np.roll(d, shifts, dims) if dims else np.roll(d, shifts[0])

    @staticmethod
    def backward(ctx, g):
        shifts, dims = ctx._roll
        back = tuple(-s for s in shifts)
        if _is_tensor(g):
            return RollBackward0.apply(g, shifts=back, dims=dims)
        return np.roll(g, back, dims) if dims else np.roll(g, back[0])


def lower_median(d: np.ndarray):
    """The lower median of all entries (the smaller middle one for an even count), nan if any entry is nan.

    >>> float(lower_median(np.array([4., 1., 3., 2.]))), float(lower_median(np.array([1., np.nan])))
    (2.0, nan)
    """
    flat = d.reshape(-1)
    if flat.dtype.kind == "f" and (flat.size == 0 or np.isnan(flat).any()):
        return np.array(np.nan, d.dtype)
    return np.sort(flat)[(flat.size - 1) // 2]


def median_indices(d: np.ndarray, axis: int) -> np.ndarray:
    """Where torch's median along ``axis`` finds the lower median of each row: the position that lands at
    (n - 1) // 2 in a stable sort (torch's nth_element breaks ties by position), or the first nan of a row
    that has one. Keeps ``axis`` (size 1).

    >>> median_indices(np.array([[5., 1., 5., 1.], [2., np.nan, 1., np.nan]]), 1).tolist()
    [[3], [1]]
    """
    n = d.shape[axis]
    pick = np.take(np.argsort(d, axis=axis, kind="stable"), [(n - 1) // 2], axis=axis)
    if d.dtype.kind == "f":
        nan = np.isnan(d)
        pick = np.where(nan.any(axis=axis, keepdims=True), np.argmax(nan, axis=axis, keepdims=True), pick)
    return pick.astype(np.int64)


class MedianBackward0(Function):
    """z = the lower median of all entries;  the gradient goes to the entries equal to it, shared evenly."""
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return lower_median(x._data)

    @staticmethod
    def backward(ctx, g):
        x, r = ctx._unpack("self", False), ctx._unpack("result", False)
        mask = np.isnan(x) if r != r else x == r
        if not _is_tensor(g):
            return np.where(mask, g / mask.sum(), 0).astype(g.dtype, copy=False)
        from .tensor import Tensor
        zeros = Tensor._make(np.zeros(x.shape, g._data.dtype))  # torch: zeros.masked_fill_(mask, g / mask.sum())
        return MaskedFillBackward1.apply(zeros, g / int(mask.sum()), mask=Tensor._make(mask))


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


class MedianBackward1(MaxBackward0):
    """values = the lower median along ``dim``;  each value's gradient goes to the entry it came from."""


class MaskedFillBackward0(F.MaskedFillBackward0):
    """z = 0 where ``mask`` (x infinite), else x: atan2's gradient under create_graph, which torch records as
    ``masked_fill_``;  dx = g with zeros under the mask, recorded again as a masked_fill to differentiate further."""

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):
            return MaskedFillBackward0.apply(g, mask=np.broadcast_to(ctx.mask, g._data.shape), value=0)
        return np.where(ctx.mask, 0, g).astype(g.dtype, copy=False)
