"""Convolution: ``conv1d`` / ``conv2d`` and their transposes as one ``ConvolutionBackward0`` (im2col and a matrix
product).

Convolutions and poolings look at the input through *windows*: for a kernel of size k, stride s and dilation
d, output
position o reads the input at o*s + i*d for i = 0..k-1 (after padding). :func:`windows` builds that view
without copying (``np.lib.stride_tricks.as_strided``); :func:`fold` is its adjoint, used by backward:
it adds each window entry back to the input place it was read from (a place read by two windows gets both).

>>> x = np.arange(5.)
>>> windows(x, (3,), (2,), (1,), (2,))          # two windows of 3, two apart
array([[0., 1., 2.],
       [2., 3., 4.]])
>>> fold(np.ones((2, 3)), (5,), (3,), (2,), (1,))  # x[2] was read twice
array([1., 1., 2., 1., 1.])

A convolution is then one matrix product (im2col): the flattened kernels times each window flattened into a
column. Sums run in NumPy's (BLAS) order, not oneDNN's, so results can differ from torch's in the last bits
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
    shape (..., *out, *kernel), entry [..., o, i] = x[..., o*s + i*d] (n = len(kernel)). Only strides change:
    a step along o moves s places in x, a step along i moves d places (read-only: windows overlap)."""
    lead = x.ndim - len(kernel)
    steps = x.strides[lead:]
    return np.lib.stride_tricks.as_strided(
        x, x.shape[:lead] + tuple(out) + tuple(kernel),
        x.strides[:lead] + tuple(a * s for a, s in zip(steps, stride)) + tuple(a * d for a, d in zip(steps, dilation)),
        writeable=False)


def fold(cols: np.ndarray, shape: tuple, kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """The adjoint of :func:`windows`: zeros of ``shape`` with each cols[..., o, i] added at o*s + i*d.
    One strided slice per kernel entry (no two positions of one slice collide)."""
    n = len(kernel)
    out = np.zeros(shape, cols.dtype)
    positions = cols.shape[cols.ndim - 2 * n:cols.ndim - n]
    for offset in itertools.product(*map(range, kernel)):
        key = tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                    for i, d, o, s in zip(offset, dilation, positions, stride))
        part = out[(Ellipsis,) + key]
        np.add(part, cols[(Ellipsis,) + offset], out=part)  # (``out[key] += ...`` would copy part onto itself)
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
    output channel o only sees the input channels of its group). With X the windows as columns (im2col):
    y = W X + b;  dW = g X^T,  dX = W^T g (folded back onto x),  db = g summed over batch and positions.

    ``transposed`` (conv_transpose1d/2d) runs the same map backwards: each input position scatters a copy of
    the kernel, scaled by its value, onto the output (the adjoint above, W^T x folded), so its gradients are
    the forward convolution of g for dx and dW = x G^T with G the windows of g.

    >>> import autograd_tutor as torch
    >>> x = torch.tensor([[[1., 2., 4., 7.]]], requires_grad=True)
    >>> torch.nn.functional.conv1d(x, torch.tensor([[[-1., 1.]]]))     # differences of neighbours
    tensor([[[1., 2., 3.]]], grad_fn=<ConvolutionBackward0>)
    """
    saved_names = ("input", "weight")

    @staticmethod
    def forward(ctx, x, weight, bias, stride, padding, dilation, groups, has_bias, given, transposed=False,
                out_shape=None):
        given_stride, given_padding, given_dilation, output_padding = given  # saved as given: (1,) for (1, 1)
        ctx.save(bias_sym_sizes_opt=tuple(bias.shape) if has_bias else (0,), dilation=given_dilation,
                 groups=groups, input=x, output_padding=output_padding, padding=given_padding, stride=given_stride,
                 transposed=transposed, weight=weight)
        ctx._conv = conv = stride, padding, dilation, groups
        w = weight._data
        y = _scatter(x._data, w, conv, out_shape) if transposed else _gather(x._data, w, conv)
        if has_bias:
            y += bias._data.reshape((-1,) + (1,) * (y.ndim - 2))
        return y

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a convolution")
        x, w = ctx._unpack("input", False), ctx._unpack("weight", False)
        conv, transposed = ctx._conv, ctx.transposed
        dx = dw = db = None
        if ctx.needs_input_grad[0]:
            dx = _gather(g, w, conv) if transposed else _scatter(g, w, conv, x.shape[2:])
        if ctx.needs_input_grad[1]:
            dw = _weight_grad(g, x, w, conv) if transposed else _weight_grad(x, g, w, conv)
        if ctx.needs_input_grad[2]:
            db = g.sum(axis=(0,) + tuple(range(2, g.ndim)))
        return dx, dw, db


def _gather(x: np.ndarray, w: np.ndarray, conv: tuple) -> np.ndarray:
    """The convolution of x (N, C, *in) with w (O, C/G, *kernel): one product per group, (N, O, *out)."""
    groups = conv[3]
    cols, out = _im2col(x, w.shape[2:], *conv)  # (G, C/G * K, N * L)
    y = w.reshape(groups, len(w) // groups, -1) @ cols  # (G, O/G, N * L): one product per group
    y = np.ascontiguousarray(y.reshape(len(w), len(x), math.prod(out)).transpose(1, 0, 2))  # NCHW in memory, as torch
    return y.reshape((len(x), len(w)) + out)


def _scatter(g: np.ndarray, w: np.ndarray, conv: tuple, shape: tuple) -> np.ndarray:
    """The adjoint of :func:`_gather`: g (N, O, *out) sent back through w (O, C/G, *kernel) onto (N, C, *shape),
    each output position adding w times its value to the input places its window read."""
    stride, padding, dilation, groups = conv
    kernel, out, n = w.shape[2:], g.shape[2:], len(g)
    # g as (G, O/G, N * L), the layout of the forward product's result
    gg = g.reshape(n, groups, len(w) // groups, math.prod(out)).transpose(1, 2, 0, 3).reshape(
        groups, len(w) // groups, n * math.prod(out))
    cols = w.reshape(groups, len(w) // groups, -1).transpose(0, 2, 1) @ gg  # (G, C/G * K, N * L)
    # seen as (N, C, *out, *kernel), the layout fold reads (a view: each kernel entry's slice stays whole rows)
    cols = np.moveaxis(cols.reshape((w.shape[1] * groups,) + kernel + (n,) + out), len(kernel) + 1, 0)
    cols = np.moveaxis(cols, tuple(range(2, 2 + len(kernel))), tuple(range(2 + len(out), 2 + 2 * len(out))))
    padded = tuple(m + 2 * p for m, p in zip(shape, padding))
    return _crop(fold(cols, (n, w.shape[1] * groups) + padded, kernel, stride, dilation), padding, tuple(shape))


def _weight_grad(x: np.ndarray, g: np.ndarray, w: np.ndarray, conv: tuple) -> np.ndarray:
    """dW of :func:`_gather` for its input x and output gradient g: g's rows times x's windows, per group."""
    groups = conv[3]
    cols = _im2col(x, w.shape[2:], *conv)[0]
    n, out = len(g), g.shape[2:]
    gg = g.reshape(n, groups, len(w) // groups, math.prod(out)).transpose(1, 2, 0, 3).reshape(
        groups, len(w) // groups, n * math.prod(out))
    return (gg @ cols.transpose(0, 2, 1)).reshape(w.shape)  # (G, O/G, C/G * K)


def _im2col(x: np.ndarray, kernel: tuple, stride, padding, dilation, groups) -> tuple:
    """The windows of x (N, C, *spatial) as columns, per group: (G, C/G * prod(kernel), N * L) for L positions
    (a copy), and the output shape ``out`` (L = prod(out)). Columns rather than rows: the copy then reads each
    window position's run of inputs in memory order, several times faster than gathering row by row."""
    out = tuple(map(out_size, x.shape[2:], kernel, stride, padding, dilation))
    if any(padding):
        x = _pad(x, padding, padding)
    view = windows(x, kernel, stride, dilation, out)  # (N, C, *out, *kernel)
    n, k = len(kernel), len(view.shape) - 2 * len(kernel)
    view = view.transpose((1,) + tuple(range(k + n, k + 2 * n)) + (0,) + tuple(range(2, k + n)))  # (C, *kernel, N, *out)
    return view.reshape(groups, x.shape[1] // groups * math.prod(kernel), len(x) * math.prod(out)), out
