"""Shapes and views: ``view`` / ``reshape``, ``permute`` / ``transpose``, ``squeeze`` / ``unsqueeze``, ``expand``,
``cat`` / ``stack``, ``split`` / ``unbind``, ``flip``, ``repeat``, ``roll``, ``unfold``.
"""
from __future__ import annotations

import numpy as np

from ..dtypes import result_type
from ..function import Function, MultiOutputFunction
from ..tensor import Tensor
from .convolution import fold
from .linalg import _t
from .numerics import _is_tensor

__all__ = ["ViewBackward0", "UnsafeViewBackward0", "ReshapeAliasBackward0", "AliasBackward0", "PermuteBackward0",
           "TransposeBackward0", "TBackward0", "UnsqueezeBackward0", "SqueezeBackward0", "SqueezeBackward1",
           "SqueezeBackward2", "SqueezeBackward4", "IN_PLACE_NODES", "ExpandBackward0", "CatBackward0", "StackBackward0",
           "SplitBackward0", "SplitWithSizesBackward0", "UnsafeSplitBackward0", "UnsafeSplitWithSizesBackward0", "UnbindBackward0", "FlipBackward0", "Rot90Backward0", "RepeatBackward0",
           "RollBackward0", "unfold_view", "UnfoldBackward0", "UnfoldBackwardBackward0", "fold_windows"]


class ViewBackward0(Function):
    """z = x viewed with a new shape;  dx = g reshaped back."""
    is_view = True

    @staticmethod
    def forward(ctx, x, shape):
        ctx.save(self_sym_sizes=x._data.shape)
        return x._data.reshape(shape)

    @staticmethod
    def backward(ctx, g):
        return g.reshape(ctx.self_sym_sizes)


class UnsafeViewBackward0(ViewBackward0):
    """z = a copy of x with a new shape;  dx = g reshaped back."""
    is_view = False


class ReshapeAliasBackward0(ViewBackward0):
    """``reshape`` of a tensor that is not contiguous but can still be viewed with the new shape (an expanded or
    sliced one): z = x viewed with new strides;  dx = g reshaped back."""


class AliasBackward0(Function):
    """z = x itself under a new name (``x[...]``, ``x[:, :]``);  dx = g."""
    is_view = True

    @staticmethod
    def forward(ctx, x):
        return x._data.view()

    @staticmethod
    def backward(ctx, g):
        return g


class PermuteBackward0(Function):
    """z = x with its axes reordered by ``dims``;  dx = g with the inverse order."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dims):
        ctx.save(dims=dims)
        return x._data.transpose(dims)

    @staticmethod
    def backward(ctx, g):
        inverse = tuple(np.argsort(ctx.dims))
        return g.permute(*inverse) if _is_tensor(g) else g.transpose(inverse)


class TransposeBackward0(Function):
    """z = x with axes dim0 and dim1 swapped;  dx = g swapped back."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx._dims = dim0, dim1
        d = x._data
        return d.view() if dim0 == dim1 else d.swapaxes(dim0, dim1)  # an axis with itself (or a 0-dim x): as is

    @staticmethod
    def backward(ctx, g):
        dim0, dim1 = ctx._dims
        if dim0 == dim1:
            return g
        return g.transpose(dim0, dim1) if _is_tensor(g) else g.swapaxes(dim0, dim1)


class TBackward0(TransposeBackward0):
    """z = x.t() (a transposed matrix);  dx = g.t()."""

    @staticmethod
    def backward(ctx, g):
        return _t(g) if g.ndim == 2 else g


class UnsqueezeBackward0(Function):
    """z = x with a new axis of size 1 at ``dim``;  dx = g without it."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim)
        return np.expand_dims(x._data, dim)

    @staticmethod
    def backward(ctx, g):
        return g.squeeze(ctx.dim)


class SqueezeBackward0(Function):
    """z = x without its size-1 axes;  dx = g reshaped back."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dims=None):
        ctx.save(self_sym_sizes=x._data.shape, dim=dims)
        d = x._data
        if dims is None:
            return d.squeeze()
        return d.squeeze(tuple(i for i in dims if i < d.ndim and d.shape[i] == 1))  # a 0-dim x stays as it is

    @staticmethod
    def backward(ctx, g):
        sizes = ctx.self_sym_sizes
        if not _is_tensor(g):
            return g.reshape(sizes)
        dims = ctx.__dict__.get("dim") or range(len(sizes))
        for d in sorted(dims):  # torch's unsqueeze_to: one UnsqueezeBackward0 per squeezed dim
            if d < len(sizes) and sizes[d] == 1:
                g = g.unsqueeze(d)
        return g


class SqueezeBackward1(SqueezeBackward0):
    """z = x.squeeze(dim);  dx = g reshaped back."""


class SqueezeBackward2(SqueezeBackward0):
    """z = x.squeeze(dims) for a tuple of dims;  dx = g reshaped back."""


class SqueezeBackward4(SqueezeBackward0):
    """z = x.squeeze_(dim), the in-place squeeze inside ``matmul`` of 1-D @ 2-D;  dx = g reshaped back."""


class SqueezeBackward3(SqueezeBackward0):
    """z = x.squeeze_() in place;  dx = g reshaped back."""


class SqueezeBackward5(SqueezeBackward0):
    """z = x.squeeze_(dims) in place, for a tuple of dims;  dx = g reshaped back."""


class UnsqueezeBackward1(UnsqueezeBackward0):
    """z = x.unsqueeze_(dim) in place;  dx = g without the new axis."""


class TBackward1(TBackward0):
    """z = x.t_() in place;  dx = g.t()."""


class TransposeBackward1(TransposeBackward0):
    """z = x.transpose_(dim0, dim1) in place;  dx = g swapped back."""


#: the node of a shape operation done in place (``x.unsqueeze_(0)``), by the node of the same one out of place
IN_PLACE_NODES = {SqueezeBackward0: SqueezeBackward3, SqueezeBackward1: SqueezeBackward4,
                  SqueezeBackward2: SqueezeBackward5, UnsqueezeBackward0: UnsqueezeBackward1, TBackward0: TBackward1,
                  TransposeBackward0: TransposeBackward1}


class ExpandBackward0(Function):
    """z = x broadcast to a larger shape;  dx = g summed back over the broadcast axes."""
    is_view = True

    @staticmethod
    def forward(ctx, x, shape):
        ctx.save(self_sym_sizes=x._data.shape)
        return np.broadcast_to(x._data, shape)

    @staticmethod
    def backward(ctx, g):
        return g


class CatBackward0(Function):
    """z = the inputs joined along ``dim``;  each input gets its own slice of g."""

    @staticmethod
    def forward(ctx, *tensors, dim=0):
        ctx.save(dim=dim)
        ctx._sizes = [t._data.shape[dim] if t._data.ndim else 0 for t in tensors]
        arrays = [t._data for t in tensors]
        dt = arrays[0].dtype
        for t in tensors[1:]:
            dt = result_type((dt, 2), (t._data.dtype, 2))
        return np.concatenate([a.astype(dt, copy=False) for a in arrays], axis=dim)

    @staticmethod
    def backward(ctx, g):
        bounds = np.cumsum(ctx._sizes)[:-1]
        if _is_tensor(g):
            return tuple(g.narrow(ctx.dim, int(start), n) for start, n in zip([0, *bounds], ctx._sizes))
        return tuple(np.split(g, bounds, axis=ctx.dim))


class StackBackward0(Function):
    """z = the inputs stacked along a new axis ``dim``;  input i gets g[..., i, ...]."""

    @staticmethod
    def forward(ctx, *tensors, dim=0):
        ctx.save(dim=dim)
        arrays = [t._data for t in tensors]
        dt = arrays[0].dtype
        if any(a.dtype != dt for a in arrays):  # mixed dtypes: torch's promotion
            for a in arrays[1:]:
                dt = result_type((dt, 2), (a.dtype, 2))
            arrays = [a.astype(dt, copy=False) for a in arrays]
        stacked = np.array(arrays)  # along a new first axis: for a few small arrays 2-4x faster than np.stack
        if dim == 0:
            return stacked
        axes = list(range(1, stacked.ndim))
        axes.insert(dim, 0)  # the new axis moved to ``dim`` (np.moveaxis, without its argument checks)
        return np.ascontiguousarray(stacked.transpose(axes))

    @staticmethod
    def backward(ctx, g):
        n = g.shape[ctx.dim]
        if _is_tensor(g):
            return tuple(g.select(ctx.dim, i) for i in range(n))
        return tuple(np.take(g, i, axis=ctx.dim) for i in range(n))


class SplitBackward0(MultiOutputFunction):
    """``x.split(size, dim)``: pieces of ``size`` along ``dim`` (the last may be shorter), views of x;
    dx = the pieces' gradients joined again, zeros for a piece that received none."""

    @staticmethod
    def forward(ctx, x, split_size, dim):
        d = x._data
        length = d.shape[dim]
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
        if split_size == 0 and length:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {length}")
        sizes = [min(split_size, length - start) for start in range(0, length, split_size or 1)] or [0]
        ctx.save(self_sym_sizes=d.shape, split_size=split_size, dim=dim)
        ctx._sizes = sizes
        return _pieces(d, sizes, dim)

    @staticmethod
    def backward(ctx, grads):
        return _join(ctx, grads, ctx._sizes)


class SplitWithSizesBackward0(SplitBackward0):
    """``x.split([s0, s1, ...], dim)``: pieces of the sizes given;  dx = their gradients joined again."""

    @staticmethod
    def forward(ctx, x, split_sizes, dim):
        d = x._data
        if any(s < 0 for s in split_sizes):
            raise RuntimeError("split_with_sizes expects split_sizes have only non-negative entries, but got "
                               f"split_sizes={list(split_sizes)}")
        if sum(split_sizes) != d.shape[dim]:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {d.shape[dim]} (input "
                               f"tensor's size at dimension {dim}), but got split_sizes={list(split_sizes)}")
        ctx.save(self_sym_sizes=d.shape, split_sizes=split_sizes, dim=dim)
        ctx._sizes = list(split_sizes)
        return _pieces(d, split_sizes, dim)


class UnsafeSplitBackward0(SplitBackward0):
    """``x.unsafe_split(size, dim)``: split's pieces, sharing x's memory but not known to autograd as views (no
    version counter shared, so changing a piece in place is allowed: torch's LSTM/GRU cells split their gates so)."""
    is_view = False


class UnsafeSplitWithSizesBackward0(SplitWithSizesBackward0):
    """``x.unsafe_split([s0, s1, ...], dim)``: split_with_sizes' pieces, not known to autograd as views."""
    is_view = False


class UnbindBackward0(MultiOutputFunction):
    """``x.unbind(dim)`` (and ``for row in x``): the slices along ``dim``, views of x without that dim;
    dx = the slices' gradients stacked again, zeros for a slice that received none."""

    @staticmethod
    def forward(ctx, x, dim):
        d = x._data
        ctx.save(dim=dim)
        return [d[(slice(None),) * dim + (i,)] for i in range(d.shape[dim])]

    @staticmethod
    def backward(ctx, grads):
        return _join(ctx, grads, None)


def _pieces(d: np.ndarray, sizes: list, dim: int) -> list:
    """Views of ``d``, consecutive along ``dim``, of the given sizes."""
    starts = np.cumsum([0, *sizes]).tolist()
    return [d[(slice(None),) * dim + (slice(a, b),)] for a, b in zip(starts, starts[1:])]


def _join(ctx, grads: list, sizes) -> object:
    """The gradient of a split (``sizes`` of its pieces) or, with ``sizes`` None, of an unbind: the outputs'
    gradients joined along ``ctx.dim``, zeros standing in for the missing ones (Tensors, recorded, under
    create_graph)."""
    shape, dtype = ctx._meta[0]
    dim = ctx.dim
    parts = []
    for i, g in enumerate(grads):
        if g is None:
            piece = list(shape)
            del piece[dim]
            if sizes is not None:
                piece.insert(dim, sizes[i])
            g = np.zeros(piece, dtype)
        parts.append(g)
    if not any(_is_tensor(g) for g in parts):
        return np.concatenate(parts, axis=dim) if sizes is not None else np.stack(parts, axis=dim)
    parts = [g if _is_tensor(g) else Tensor._make(g) for g in parts]
    return (CatBackward0 if sizes is not None else StackBackward0).apply(*parts, dim=dim)


class FlipBackward0(Function):
    """z = x reversed along each dim in ``dims``;  dx = g flipped back the same way (a flip undoes itself)."""

    @staticmethod
    def forward(ctx, x, dims):
        ctx.save(dims=dims)
        d = x._data
        return np.flip(d, dims).copy() if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):
            return FlipBackward0.apply(g, dims=ctx.dims)
        return np.flip(g, ctx.dims) if np.ndim(g) else g


class Rot90Backward0(Function):
    """z = x turned k quarter turns in the plane of ``dims`` (from the first dim towards the second), as torch
    builds it: one flip, then the two dims swapped (k = 1: flip dims[1]; k = 3: flip dims[0]; k = 2: flip both;
    k = 0: a copy);  dx = g turned back, -k quarter turns.

    >>> Rot90Backward0.forward(None, Tensor._make(np.array([[1, 2], [3, 4]])), k=1, dims=(0, 1)).tolist()
    [[2, 4], [1, 3]]
    """

    @staticmethod
    def forward(ctx, x, k, dims):
        if ctx is not None:
            ctx.save(k=k, dims=dims)
        d0, d1 = dims
        d = x._data
        if k == 2:
            return np.flip(d, dims).copy()
        if k == 0:
            return d.copy()
        return np.flip(d, d1 if k == 1 else d0).copy().swapaxes(d0, d1)  # swapped: torch's strides too

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):
            return Rot90Backward0.apply(g, k=-ctx.k % 4, dims=ctx.dims)
        return np.rot90(g, -ctx.k, ctx.dims)


class RepeatBackward0(Function):
    """z = x tiled ``repeats[i]`` times along dim i (x's shape padded with leading 1s first);
    dx = g summed over the copies: over the new leading dims, then over the copies within each dim."""

    @staticmethod
    def forward(ctx, x, repeats):
        ctx.save(repeats=repeats, self_sym_sizes=x._data.shape)
        return np.tile(x._data, repeats)

    @staticmethod
    def backward(ctx, g):
        """torch's repeat_backward: one sum per new leading dim, then a reshape that gives each repeated dim
        a (copies, size) pair of dims, and one sum over the copies."""
        repeats, sizes = ctx.repeats, ctx.self_sym_sizes
        if 0 in repeats:
            return np.zeros(sizes, g._data.dtype if _is_tensor(g) else g.dtype)
        for _ in range(len(repeats) - len(sizes)):
            g = g.sum(0)
        shape, copies = [], []
        for r, n in zip(repeats[len(repeats) - len(sizes):], sizes):
            if r != 1:
                copies.append(len(shape))
                shape.append(r)
            shape.append(n)
        return g.reshape(shape).sum(tuple(copies)) if copies else g


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


def unfold_view(a: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
    """The windows of ``size`` entries, ``step`` apart, along axis ``dim`` of ``a``: that axis counts the windows and
    a new last axis runs inside each, a view that writes through to ``a`` (as torch's does).

    >>> unfold_view(np.arange(5), 0, 2, 2)
    array([[0, 1],
           [2, 3]])
    """
    if a.ndim == 0:  # a number: one window of it, or an empty one
        return a.reshape(1)[:size]
    shape, strides = list(a.shape), list(a.strides)
    shape[dim] = (shape[dim] - size) // step + 1
    strides[dim] *= step
    return np.lib.stride_tricks.as_strided(a, shape + [size], strides + [a.strides[dim]],
                                           writeable=a.flags.writeable)


class UnfoldBackward0(Function):
    """y = the windows of ``size`` entries, ``step`` apart, along ``dimension``, as a view: y[.., w, .., i] =
    x[.., w * step + i, ..];  dx = each window's gradient added back where it was read (twice where two overlap).

    >>> import autograd_tutor as torch
    >>> torch.arange(5.).unfold(0, 3, 2)
    tensor([[0., 1., 2.],
            [2., 3., 4.]])
    """
    is_view = True

    @staticmethod
    def forward(ctx, x, dimension, size, step, given):
        ctx.save(self_sym_sizes=x._data.shape, size=size, step=step)
        ctx.show(dimension=given)
        ctx._dim = dimension
        return unfold_view(x._data, dimension, size, step)

    @staticmethod
    def backward(ctx, g):
        args = ctx.self_sym_sizes, ctx._dim, ctx.size, ctx.step
        if _is_tensor(g):
            return UnfoldBackwardBackward0.apply(g, args=args)
        return fold_windows(g, *args)


class UnfoldBackwardBackward0(Function):
    """Z = the windows of g added back onto zeros of the input's shape (unfold's backward); dg = unfold of G."""

    @staticmethod
    def forward(ctx, g, args):
        ctx._args = args
        return fold_windows(g._data, *args)

    @staticmethod
    def backward(ctx, gg):
        _, dim, size, step = ctx._args
        if _is_tensor(gg):
            return UnfoldBackward0.apply(gg, dimension=dim, size=size, step=step, given=dim)
        return unfold_view(gg, dim, size, step)


def fold_windows(g: np.ndarray, sizes: tuple, dim: int, size: int, step: int) -> np.ndarray:
    """The adjoint of :func:`unfold_view`: zeros of ``sizes`` with each window entry added where it was read."""
    if not sizes:
        return g.sum().reshape(())
    cols = np.moveaxis(g, dim, -2)
    moved = tuple(np.delete(sizes, dim)) + (sizes[dim],)
    return np.moveaxis(fold(cols, moved, (size,), (step,), (1,)), -1, dim)
