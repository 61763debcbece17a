"""Upsampling (``F.interpolate``): nearest and (bi)linear, one axis at a time.

Both read, for each output position o along an axis of n_in inputs and n_out outputs, the input near the source
coordinate o * scale, where scale = n_in / n_out (or 1 / scale_factor when one was given):

* nearest: the input at floor(o * scale);
* linear, ``align_corners=False``: pixels are cells, their centres meet at src = (o + 0.5) * scale - 0.5 (clamped
  at 0); ``align_corners=True``: the corner pixels meet, src = o * (n_in - 1) / (n_out - 1). Output o is then
  (1 - l) * x[i] + l * x[i + 1] with i = floor(src), l = src - i.

A 2-D upsampling applies this along the width, then the height, which is the order of torch's CPU kernel's sums.
Backward sends each output's gradient back to the inputs it read, with the same weights (the adjoint).

>>> import autograd_tutor as torch
>>> x = torch.tensor([[[1., 3.]]])
>>> torch.nn.functional.interpolate(x, scale_factor=2, mode="linear")
tensor([[[1.0000, 1.5000, 2.5000, 3.0000]]])
>>> torch.nn.functional.interpolate(x, size=3, mode="linear", align_corners=True)
tensor([[[1., 2., 3.]]])
"""
from __future__ import annotations

import numpy as np

from ..dtypes import kind_name
from ..function import Function
from .numerics import _needs_array_only

__all__ = ["UpsampleNearest1DBackward0", "UpsampleNearest2DBackward0", "UpsampleLinear1DBackward0",
           "UpsampleBilinear2DBackward0"]


def _scale(n_in: int, n_out: int, scale, align_corners: bool, dtype) -> float:
    """The step in the input per output step, in the kernel's float type (float32 for float32 inputs)."""
    t = np.dtype(dtype).type
    if align_corners:
        return t(n_in - 1) / t(n_out - 1) if n_out > 1 else t(0)
    return t(1.0 / scale) if scale is not None and scale > 0 else t(n_in) / t(n_out)


def nearest_index(n_in: int, n_out: int, scale) -> np.ndarray:
    """The input read by each output: floor(o * scale) (kept below n_in).

    >>> nearest_index(2, 5, None)            # scale 0.4
    array([0, 0, 0, 1, 1])
    """
    if n_out == n_in:
        return np.arange(n_out)
    if n_out == 2 * n_in:
        return np.arange(n_out) >> 1
    step = _scale(n_in, n_out, scale, False, np.float32)
    return np.minimum(np.floor(np.arange(n_out, dtype=np.float32) * step).astype(np.int64), n_in - 1)


def linear_taps(n_in: int, n_out: int, scale, align_corners: bool, dtype) -> tuple:
    """For each output: the two inputs read, i0 and i1, and their weights, l0 = 1 - l and l1 = l.

    >>> i0, i1, l0, l1 = linear_taps(2, 4, None, False, np.float32)  # sources -0.25 (clamped to 0), 0.25, 0.75, 1.25
    >>> i0, i1, l1                                      # the last reads x[1] twice: 0.75 x[1] + 0.25 x[1]
    (array([0, 0, 0, 1]), array([1, 1, 1, 1]), array([0.  , 0.25, 0.75, 0.25], dtype=float32))
    """
    t = np.dtype(dtype).type
    step = _scale(n_in, n_out, scale, align_corners, dtype)
    o = np.arange(n_out).astype(dtype)
    src = o * step if align_corners else np.maximum(step * (o + t(0.5)) - t(0.5), t(0))
    i0 = np.minimum(src.astype(np.int64), n_in - 1)
    l1 = np.clip(src - i0.astype(dtype), t(0), t(1))
    return i0, i0 + (i0 < n_in - 1), t(1) - l1, l1


def _along(d: np.ndarray, axis: int, index: np.ndarray, weight=None) -> np.ndarray:
    """d read at ``index`` along ``axis``, times ``weight`` (broadcast along that axis) if given."""
    picked = np.take(d, index, axis=axis)
    return picked if weight is None else picked * weight.reshape((-1,) + (1,) * (d.ndim - 1 - axis))


def _back_along(g: np.ndarray, axis: int, index: np.ndarray, size: int, weight=None) -> np.ndarray:
    """The adjoint of :func:`_along`: each g entry (times its weight) added back to the place it was read."""
    if weight is not None:
        g = g * weight.reshape((-1,) + (1,) * (g.ndim - 1 - axis))
    moved = np.moveaxis(g, axis, 0)
    out = np.zeros((size,) + moved.shape[1:], g.dtype)
    np.add.at(out, index, moved)
    return np.moveaxis(out, 0, axis)


class _Upsample(Function):
    """The shared part: the spatial axes of x (N, C, *spatial) resized to ``output_size``, last axis first;
    ``kernel`` is torch's name of the kernel (``upsample_bilinear2d``...)."""

    @staticmethod
    def forward(ctx, x, output_size, scales, align_corners, kernel):
        d = x._data
        if d.dtype.kind != "f":
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{kind_name(d)}'")
        n, linear = len(output_size), "linear" in kernel
        saved = {"output_size": tuple(output_size), "self_sym_sizes": tuple(d.shape)}
        if linear:
            saved["align_corners"] = align_corners
        saved.update({"scales": scales[0]} if n == 1 else {"scales_h": scales[0], "scales_w": scales[1]})
        ctx.save(**saved)
        taps = []
        for axis in range(d.ndim - 1, 1, -1):
            k = axis - 2
            args = d.shape[axis], output_size[k], scales[k]
            taps.append(linear_taps(*args, align_corners, d.dtype) if linear else nearest_index(*args))
            d = _interpolate(d, axis, taps[-1])
        ctx._taps = taps
        return d

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "an upsampling")
        shape = ctx.self_sym_sizes
        wide = g.astype(np.float64)
        for axis, tap in zip(range(2, g.ndim), reversed(ctx._taps)):
            if isinstance(tap, tuple):
                i0, i1, l0, l1 = tap
                wide = (_back_along(wide, axis, i0, shape[axis], l0.astype(np.float64))
                        + _back_along(wide, axis, i1, shape[axis], l1.astype(np.float64)))
            else:
                wide = _back_along(wide, axis, tap, shape[axis])
        return wide.astype(g.dtype)


def _interpolate(d: np.ndarray, axis: int, tap) -> np.ndarray:
    if isinstance(tap, tuple):
        i0, i1, l0, l1 = tap
        return _along(d, axis, i0, l0) + _along(d, axis, i1, l1)
    return _along(d, axis, tap)


class UpsampleNearest1DBackward0(_Upsample):
    """``interpolate(x, mode='nearest')`` of a (N, C, L) x: y[o] = x[floor(o * scale)]; dx sums g over each
    input's copies."""
    saved_names = ("scales",)


class UpsampleNearest2DBackward0(_Upsample):
    """``interpolate(x, mode='nearest')`` of a (N, C, H, W) x: each output pixel copies its nearest input pixel
    (floor of the scaled row and column); dx sums g over each input pixel's copies."""
    saved_names = ("scales_h", "scales_w")


class UpsampleLinear1DBackward0(_Upsample):
    """``interpolate(x, mode='linear')`` of a (N, C, L) x: y[o] = (1 - l) x[i] + l x[i + 1]; dx[i] gets
    (1 - l) g[o], dx[i + 1] gets l g[o]."""
    saved_names = ("scales",)


class UpsampleBilinear2DBackward0(_Upsample):
    """``interpolate(x, mode='bilinear')`` of a (N, C, H, W) x: linear along the width, then along the height,
    so each output pixel is a weighted mean of 4 input pixels, weights (1 - a or a) * (1 - b or b)."""
    saved_names = ("scales_h", "scales_w")
