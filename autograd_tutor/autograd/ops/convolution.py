"""Convolution: ``conv1d`` / ``conv2d`` as one ``ConvolutionBackward0`` (im2col and a matrix product).

Convolutions and poolings look at the input through *windows*: for a kernel of size k, stride s and dilation
d, output
position o reads the input at o*s + i*d for i = 0..k-1 (after padding). :func:`windows` builds that view
without copying (``np.lib.stride_tricks.sliding_window_view``); :func:`fold` is its adjoint, used by backward:
it adds each window entry back to the input place it was read from (a place read by two windows gets both).

>>> x = np.arange(5.)
>>> windows(x, (3,), (2,), (1,), (2,))          # two windows of 3, two apart
array([[0., 1., 2.],
       [2., 3., 4.]])
>>> fold(np.ones((2, 3)), (5,), (3,), (2,), (1,))  # x[2] was read twice
array([1., 1., 2., 1., 1.])

A convolution is then one matrix product (im2col): each window flattened into a row, times the flattened
kernels. Sums run in NumPy's (BLAS) order, not oneDNN's, so results can differ from torch's in the last bits
of a float32 (about 1e-7 relative), which never shows at print precision.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..function import Function
from .numerics import _needs_array_only

__all__ = ["windows", "fold", "out_size", "ConvolutionBackward0"]


def windows(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple, out: tuple) -> np.ndarray:
    """A view of x with its last n axes replaced by ``out`` window positions then the ``kernel`` entries of each:
    shape (..., *out, *kernel), entry [..., o, i] = x[..., o*s + i*d] (n = len(kernel))."""
    n = len(kernel)
    span = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    view = np.lib.stride_tricks.sliding_window_view(x, span, axis=tuple(range(x.ndim - n, x.ndim)))
    key = tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(out, stride)) + tuple(slice(None, None, d)
                                                                                  for d in dilation)
    return view[(Ellipsis,) + key]


def fold(cols: np.ndarray, shape: tuple, kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """The adjoint of :func:`windows`: zeros of ``shape`` with each cols[..., o, i] added at o*s + i*d.
    One strided slice per kernel entry (no two positions of one slice collide)."""
    n = len(kernel)
    out = np.zeros(shape, cols.dtype)
    positions = cols.shape[cols.ndim - 2 * n:cols.ndim - n]
    for offset in itertools.product(*map(range, kernel)):
        key = tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                    for i, d, o, s in zip(offset, dilation, positions, stride))
        out[(Ellipsis,) + key] += cols[(Ellipsis,) + offset]
    return out


def _pad(d: np.ndarray, before: tuple, after: tuple, value=0) -> np.ndarray:
    """d with ``before[j]`` and ``after[j]`` entries of ``value`` around each of its last len(before) axes."""
    lead = [(0, 0)] * (d.ndim - len(before))
    return np.pad(d, lead + list(zip(before, after)), constant_values=value)


def _crop(d: np.ndarray, before: tuple, shape: tuple) -> np.ndarray:
    """The part of a padded array that was the original (its last len(before) axes, starting at ``before``)."""
    return d[(Ellipsis,) + tuple(slice(b, b + n) for b, n in zip(before, shape))]


def out_size(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool = False) -> int:
    """Window positions along one axis: floor((size + 2p - d*(k-1) - 1) / s) + 1 (ceil with ``ceil_mode``,
    dropping a last window that would start in the right padding).

    >>> out_size(5, 2, 2, 0, 1), out_size(5, 2, 2, 0, 1, ceil_mode=True)
    (2, 3)
    """
    reach = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    out = reach // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


class ConvolutionBackward0(Function):
    """y[n, o] = b[o] + sum over c, i of w[o, c, i] * x[n, c, pos*s + i*d] (x zero-padded; with ``groups`` G,
    output channel o only sees the input channels of its group). With X the windows as rows (im2col):
    y = X W^T + b;  dW = g^T X,  dX = g W (folded back onto x),  db = g summed over batch and positions.

    >>> import autograd_tutor as torch
    >>> x = torch.tensor([[[1., 2., 4., 7.]]], requires_grad=True)
    >>> torch.nn.functional.conv1d(x, torch.tensor([[[-1., 1.]]]))     # differences of neighbours
    tensor([[[1., 2., 3.]]], grad_fn=<ConvolutionBackward0>)
    """
    saved_names = ("input", "weight")

    @staticmethod
    def forward(ctx, x, weight, bias, stride, padding, dilation, groups, has_bias, given):
        given_stride, given_padding, given_dilation, output_padding = given  # saved as given: (1,) for (1, 1)
        ctx.save(bias_sym_sizes_opt=tuple(bias.shape) if has_bias else (0,), dilation=given_dilation,
                 groups=groups, input=x, output_padding=output_padding, padding=given_padding, stride=given_stride,
                 transposed=False, weight=weight)
        ctx._conv = conv = stride, padding, dilation, groups
        w = weight._data
        cols, out = _im2col(x._data, w.shape[2:], *conv)  # (N, G, L, C/G * K)
        y = cols @ w.reshape(groups, len(w) // groups, -1).transpose(0, 2, 1)  # (N, G, L, O/G)
        y = np.ascontiguousarray(y.transpose(0, 1, 3, 2)).reshape((len(y), len(w)) + out)  # NCHW in memory, as torch
        if has_bias:
            y += bias._data.reshape((-1,) + (1,) * len(out))
        return y

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a convolution")
        x, w = ctx._unpack("input", False), ctx._unpack("weight", False)
        stride, padding, dilation, groups = ctx._conv
        kernel, out, n = w.shape[2:], g.shape[2:], len(g)
        gg = g.reshape(n, groups, len(w) // groups, math.prod(out))  # (N, G, O/G, L)
        dx = dw = db = None
        if ctx.needs_input_grad[0]:
            cols = gg.transpose(0, 1, 3, 2) @ w.reshape(groups, len(w) // groups, -1)  # (N, G, L, C/G * K)
            cols = cols.reshape((n, groups) + out + (x.shape[1] // groups,) + kernel)
            cols = np.moveaxis(cols, 2 + len(out), 2).reshape((n, x.shape[1]) + out + kernel)
            padded = tuple(m + 2 * p for m, p in zip(x.shape[2:], padding))
            dx = _crop(fold(cols, x.shape[:2] + padded, kernel, stride, dilation), padding, x.shape[2:])
        if ctx.needs_input_grad[1]:
            cols = _im2col(x, kernel, *ctx._conv)[0]
            rows = gg.transpose(1, 2, 0, 3).reshape(groups, len(w) // groups, n * gg.shape[-1])  # (G, O/G, N*L)
            dw = (rows @ cols.transpose(1, 0, 2, 3).reshape(groups, rows.shape[-1], cols.shape[-1])).reshape(w.shape)
        if ctx.needs_input_grad[2]:
            db = g.sum(axis=(0,) + tuple(range(2, g.ndim)))
        return dx, dw, db


def _im2col(x: np.ndarray, kernel: tuple, stride, padding, dilation, groups) -> tuple:
    """The windows of x (N, C, *spatial) as rows, per group: (N, G, L, C/G * prod(kernel)) for L positions
    (a copy), and the output shape ``out`` (L = prod(out))."""
    out = tuple(map(out_size, x.shape[2:], kernel, stride, padding, dilation))
    view = windows(_pad(x, padding, padding), kernel, stride, dilation, out)  # (N, C, *out, *kernel)
    view = view.reshape((len(x), groups, x.shape[1] // groups) + out + kernel)
    rows = np.moveaxis(view, 2, 2 + len(out))
    return rows.reshape(len(x), groups, math.prod(out), x.shape[1] // groups * math.prod(kernel)), out
