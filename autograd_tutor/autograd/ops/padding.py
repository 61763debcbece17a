"""Padding: ``F.pad`` with a constant, by reflection or by replication.

>>> source_positions(3, 2, 1, "reflect").tolist(), source_positions(3, 2, 1, "replicate").tolist()
([2, 1, 0, 1, 2, 1], [0, 0, 0, 1, 2, 2])
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from .numerics import _is_tensor, _needs_array_only

__all__ = ["ConstantPadNdBackward0", "source_positions", "ReflectionPad1DBackward0", "ReflectionPad2DBackward0",
           "ReflectionPad3DBackward0", "ReplicationPad1DBackward0", "ReplicationPad2DBackward0",
           "ReplicationPad3DBackward0"]


class ConstantPadNdBackward0(Function):
    """y = x with ``value`` around it, ``pad`` = (before, after) pairs from the last axis backwards (a negative
    amount cuts entries off instead); dx = the part of g where x's entries went. torch records it for ``F.pad``
    and under ``padding='same'`` when a kernel's reach d*(k-1) is odd: the one zero more goes after."""

    @staticmethod
    def forward(ctx, x, pad, value=0):
        ctx.show(pad=pad)
        ctx._pad = pad
        d = x._data
        shape, src, dst = _placement(d.shape, pad)
        ctx._src, ctx._dst = src, dst
        out = np.full(shape, value, d.dtype)
        out[dst] = d[src]
        return out

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):  # torch: constant_pad_nd(grad, -pad)
            return ConstantPadNdBackward0.apply(g, pad=tuple(-p for p in ctx._pad))
        dx = np.zeros(ctx._meta[0][0], g.dtype)
        dx[ctx._src] = g[ctx._dst]
        return dx


def _placement(shape: tuple, pad: tuple) -> tuple:
    """Where a constant pad puts x: the padded shape, the part of x kept and where it lands (two NumPy keys).

    >>> _placement((2, 3), (1, -1))
    ((2, 3), (Ellipsis, slice(0, 2, None)), (Ellipsis, slice(1, 3, None)))
    """
    n = len(pad) // 2
    new, src, dst = list(shape), [Ellipsis], [Ellipsis]
    for axis, before, after in zip(range(len(shape) - n, len(shape)), pad[-2::-2], pad[::-2]):
        size = shape[axis]
        kept = size - max(-before, 0) - max(-after, 0)
        new[axis] = size + before + after
        src.append(slice(max(-before, 0), max(-before, 0) + kept))
        dst.append(slice(max(before, 0), max(before, 0) + kept))
    return tuple(new), tuple(src), tuple(dst)


def source_positions(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """For an axis of size n padded with ``before`` and ``after`` entries, the position of x that each output
    position shows: mirrored at the edges without repeating them ('reflect'), or the edge itself ('replicate')."""
    p = np.arange(-before, n + after)
    if mode == "replicate":
        return np.clip(p, 0, n - 1)
    p = np.abs(p)
    return np.where(p >= n, 2 * (n - 1) - p, p)


class _CopyPad(Function):
    """y = x read at :func:`source_positions` along each of its last len(padding) / 2 axes (``padding`` from the
    last axis backwards);  dx = zeros with each gradient added back where its entry was read."""
    saved_names = ("self",)
    mode = "reflect"

    @classmethod
    def forward(cls, ctx, x, padding):
        ctx.save(padding=padding, self=x)
        d = x._data
        axes = range(d.ndim - len(padding) // 2, d.ndim)
        positions = [source_positions(d.shape[a], b, e, cls.mode)
                     for a, b, e in zip(axes, padding[-2::-2], padding[::-2])]
        ctx._key = key = (Ellipsis,) + np.ix_(*positions)
        return d[key]

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a reflect or replicate pad")
        dx = np.zeros(np.shape(ctx._unpack("self", False)), g.dtype)
        np.add.at(dx, ctx._key, g)
        return dx


class ReflectionPad1DBackward0(_CopyPad):
    """'reflect' padding of the last axis: [1, 2, 3] padded by (2, 1) is [3, 2, 1, 2, 3, 2]."""


class ReflectionPad2DBackward0(_CopyPad):
    """'reflect' padding of the last two axes (an image's height and width)."""


class ReflectionPad3DBackward0(_CopyPad):
    """'reflect' padding of the last three axes (a volume)."""


class ReplicationPad1DBackward0(_CopyPad):
    """'replicate' padding of the last axis: [1, 2, 3] padded by (2, 1) is [1, 1, 1, 2, 3, 3]."""
    mode = "replicate"


class ReplicationPad2DBackward0(ReplicationPad1DBackward0):
    """'replicate' padding of the last two axes."""


class ReplicationPad3DBackward0(ReplicationPad1DBackward0):
    """'replicate' padding of the last three axes."""
