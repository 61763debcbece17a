"""Adaptive pooling and ``Tensor.unfold``: the nodes AdaptiveAvgPool2DBackward0 and AdaptiveMaxPool2DBackward0,
which pool the last two
axes into a *given output size* instead of a given window. Output position o of an axis of length n pooled to
m positions reads the input from start = floor(o * n / m) to end = ceil((o + 1) * n / m) (exclusive): the
windows cover the axis, and overlap by one where m does not divide n.

>>> bounds(5, 3)          # 5 entries into 3: windows [0, 2), [1, 4), [3, 5)
(array([0, 1, 3]), array([2, 4, 5]))
"""
from __future__ import annotations

import numpy as np

from .conv_functions import MaxPool2DWithIndicesBackward0, at_indices, fold
from .function import Function
from .functions import _is_tensor, _needs_array_only

__all__: list = []  # used through nn.functional


def bounds(n: int, m: int) -> tuple:
    """The start and end (exclusive) of the m adaptive windows along an axis of length n."""
    o = np.arange(m)
    return o * n // m, -(-(o + 1) * n // m)


def _members(n: int, m: int) -> np.ndarray:
    """An (m, n) matrix of 0 and 1: row o marks the entries of window o (so M @ x sums each window)."""
    start, end = bounds(n, m)
    i = np.arange(n)
    return ((i >= start[:, None]) & (i < end[:, None])).astype(np.float64)


class AdaptiveAvgPool2DBackward0(Function):
    """y[.., r, c] = the mean of x over rows [start_r, end_r) and columns [start_c, end_c). With R (out_h, H) and
    C (out_w, W) the window memberships: y = (R x C^T) / counts,  dx = R^T (g / counts) C.

    >>> import autograd_tutor as torch
    >>> torch.nn.functional.adaptive_avg_pool2d(torch.tensor([[[1., 2., 3.]]]), (1, 2))   # [1, 2] and [2, 3]
    tensor([[[1.5000, 2.5000]]])
    """
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, out):
        ctx.save(self=x)
        d = x._data
        rows, cols, counts = _grid(d.shape, out)
        return ((rows @ d @ cols.T) / counts).astype(d.dtype)

    @staticmethod
    def backward(ctx, g):
        _check_grad("adaptive_avg_pool2d", ctx, g)
        rows, cols, counts = _grid(ctx._unpack("self", False).shape, g.shape[-2:])
        return (rows.T @ (g / counts) @ cols).astype(g.dtype)


def _grid(shape: tuple, out: tuple) -> tuple:
    """R, C and the window sizes of adaptive average pooling of the last two axes of ``shape`` to ``out``."""
    rows, cols = _members(shape[-2], out[0]), _members(shape[-1], out[1])
    return rows, cols, np.outer(rows.sum(1), cols.sum(1))


class AdaptiveMaxPool2DBackward0(MaxPool2DWithIndicesBackward0):
    """y = the largest entry of each adaptive window, whose place (row * width + column, the first of equal ones)
    is saved as ``result1``; dx = zeros with each g added at its window's maximum (as max_pool2d's backward)."""

    @staticmethod
    def forward(ctx, x, indices):
        ctx.save(result1=indices, self=x)
        return at_indices(x._data, indices._data)

    @staticmethod
    def backward(ctx, g):
        _check_grad("adaptive_max_pool2d", ctx, g)
        return MaxPool2DWithIndicesBackward0.backward(ctx, g)


def _check_grad(op: str, ctx, g) -> None:
    """torch's check of an adaptive pooling's incoming gradient: an output size of 0 fails only here."""
    _needs_array_only(ctx, g, op)
    for i in range(1, g.ndim):
        if not g.shape[i]:
            raise RuntimeError(f"{op}_backward(): Expected grad_output to have non-zero size for non-batch "
                               f"dimensions, but grad_output has sizes {list(g.shape)} with dimension {i} being empty")


def adaptive_max_indices(d: np.ndarray, out: tuple) -> np.ndarray:
    """Where each adaptive window of the last two axes of d has its maximum, as row * width + column."""
    (h0, h1), (w0, w1) = bounds(d.shape[-2], out[0]), bounds(d.shape[-1], out[1])
    idx = np.zeros(d.shape[:-2] + tuple(out), np.int64)
    for r in range(out[0]):
        for c in range(out[1]):
            window = d[..., h0[r]:h1[r], w0[c]:w1[c]]
            at = window.reshape(window.shape[:-2] + (-1,)).argmax(-1)
            idx[..., r, c] = (h0[r] + at // window.shape[-1]) * d.shape[-1] + w0[c] + at % window.shape[-1]
    return idx


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
