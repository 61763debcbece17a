"""Pooling: ``max_pool2d``, ``avg_pool2d`` and the adaptive poolings.

Adaptive pooling pools the last two axes into a *given output size* instead of a given window. Output
position o of an axis of length n pooled to m positions reads the input from start = floor(o * n / m) to
end = ceil((o + 1) * n / m) (exclusive): the windows cover the axis, and overlap by one where m does not
divide n.

>>> bounds(5, 3)          # 5 entries into 3: windows [0, 2), [1, 4), [3, 5)
(array([0, 1, 3]), array([2, 4, 5]))
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from .convolution import _crop, _pad, fold, windows
from .numerics import _needs_array_only

__all__ = ["max_pool_indices", "at_indices", "MaxPool2DWithIndicesBackward0", "AvgPool2DBackward0", "bounds",
           "AdaptiveAvgPool2DBackward0", "AdaptiveMaxPool2DBackward0", "adaptive_max_indices"]


def _pool_windows(x: np.ndarray, kernel, stride, padding, dilation, out, value) -> np.ndarray:
    """The pooling windows of the last two axes of x, padded with ``value`` (more after for ceil_mode)."""
    after = tuple(max((o - 1) * s + d * (k - 1) + 1 - m - p, 0)
                  for o, s, d, k, m, p in zip(out, stride, dilation, kernel, x.shape[-2:], padding))
    if any(padding) or any(after):
        x = _pad(x, padding, after, value)
    return windows(x, kernel, stride, dilation, out)


def max_pool_indices(d: np.ndarray, kernel, stride, padding, dilation, out) -> np.ndarray:
    """Where each window of the last two axes of d has its maximum (the first of equal ones, the last nan if
    any; padding counts as -inf), as row * width + column in the input plane: the indices torch returns and saves
    as ``result1``."""
    low = -np.inf if d.dtype.kind == "f" else np.iinfo(d.dtype).min
    view = _pool_windows(d, kernel, stride, padding, dilation, out, low)
    arg = _max_position(view.reshape(view.shape[:-2] + (-1,)))
    rows = (np.arange(out[0]) * stride[0] - padding[0])[:, None] + arg // kernel[1] * dilation[0]
    cols = np.arange(out[1]) * stride[1] - padding[1] + arg % kernel[1] * dilation[1]
    return rows * d.shape[-1] + cols


def _max_position(a: np.ndarray) -> np.ndarray:
    """Where each row (last axis) of ``a`` has its maximum as torch's pooling kernels find it, taking the entry
    when ``val > maxval || isnan(val)``: the first of equal maxima, but the last nan.

    >>> _max_position(np.array([[1., 3., 3.], [np.nan, 2., np.nan]])).tolist()
    [1, 2]
    """
    arg = a.argmax(-1)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        if nan.any():
            arg = np.where(nan.any(-1), a.shape[-1] - 1 - np.flip(nan, -1).argmax(-1), arg)
    return arg


def at_indices(d: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The entries of each plane (last two axes) of d at ``idx`` (row * width + column in that plane)."""
    planes = d.reshape(d.shape[:-2] + (-1,))
    return np.take_along_axis(planes, idx.reshape(idx.shape[:-2] + (-1,)), -1).reshape(idx.shape)


class MaxPool2DWithIndicesBackward0(Function):
    """y = the largest entry of each window, read at ``indices`` (from :func:`max_pool_indices`);
    dx = zeros with each g added at its window's maximum (twice where two windows share one)."""
    saved_names = ("self", "result1")

    @staticmethod
    def forward(ctx, x, *, indices, kernel_size, stride, padding, dilation, ceil_mode):
        ctx.save(ceil_mode=ceil_mode, dilation=dilation, kernel_size=kernel_size, padding=padding,
                 result1=indices, self=x, stride=stride)
        return at_indices(x._data, indices._data)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "max_pool2d")
        shape = ctx._unpack("self", False).shape
        idx = ctx._unpack("result1", False)
        planes = g.reshape(-1, g.shape[-2] * g.shape[-1])
        dx = np.zeros((len(planes), shape[-2] * shape[-1]), g.dtype)
        np.add.at(dx, (np.arange(len(planes))[:, None], idx.reshape(len(planes), -1)), planes)
        return dx.reshape(shape)


class AvgPool2DBackward0(Function):
    """y = the sum of each window of the last two axes / its divisor: kh*kw (padding zeros counted), or only the
    entries inside the input (count_include_pad=False), or ``divisor_override``;
    dx = each g / divisor spread evenly over its window."""
    saved_names = ("self", "divisor_override")  # None unless given, as torch shows it

    @staticmethod
    def forward(ctx, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, out):
        d = x._data
        ctx.save(ceil_mode=ceil_mode, count_include_pad=count_include_pad, divisor_override=divisor_override,
                 kernel_size=kernel_size, padding=padding, self=x, stride=stride)
        step = stride or kernel_size
        ctx._divisor = divisor = _divisors(d.shape[-2:], kernel_size, step, padding, out, count_include_pad,
                                           divisor_override)
        ctx._pool = kernel_size, step, padding
        sums = _pool_windows(d, kernel_size, step, padding, (1, 1), out, 0).sum((-2, -1))
        if d.dtype.kind != "f":  # integers: C++'s division, towards zero
            return np.trunc(sums / divisor).astype(d.dtype)
        return (sums / divisor).astype(d.dtype)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "avg_pool2d")
        shape = ctx._unpack("self", False).shape
        kernel, stride, padding = ctx._pool
        share = np.broadcast_to((g / ctx._divisor).astype(g.dtype)[..., None, None], g.shape + kernel)
        reach = tuple(max((o - 1) * s + k, m + 2 * p)
                      for o, s, k, m, p in zip(g.shape[-2:], stride, kernel, shape[-2:], padding))
        return _crop(fold(share, shape[:-2] + reach, kernel, stride, (1, 1)), padding, shape[-2:])


def _divisors(size, kernel, stride, padding, out, count_include_pad, divisor_override) -> np.ndarray:
    """Each window's divisor, an (out_h, out_w) grid, the outer product of one count per axis: a window ends at
    the end of the padding; with count_include_pad=False only the entries inside the input count."""
    if divisor_override is not None:
        return np.full(out, divisor_override, np.float64)
    counts = []
    for m, k, s, p, o in zip(size, kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, m + p)
        counts.append(end - start if count_include_pad else np.minimum(end, m) - np.maximum(start, 0))
    return np.outer(*counts).astype(np.float64)


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
            at = _max_position(window.reshape(window.shape[:-2] + (-1,)))
            idx[..., r, c] = (h0[r] + at // window.shape[-1]) * d.shape[-1] + w0[c] + at % window.shape[-1]
    return idx
