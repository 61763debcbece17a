"""Padding by copying the input's own entries (``F.pad`` with mode 'reflect' or 'replicate'), and pairwise
distances (``torch.cdist``): the nodes torch records, ``ReflectionPad2DBackward0``, ``CdistBackward0``, ...

A reflect or replicate pad *reads* x: output position o along a padded axis shows x at
:func:`source_positions`; backward adds each gradient back where it was read from (an edge entry read several
times collects them all).

>>> source_positions(3, 2, 1, "reflect").tolist(), source_positions(3, 2, 1, "replicate").tolist()
([2, 1, 0, 1, 2, 1], [0, 0, 0, 1, 2, 2])
"""
from __future__ import annotations

import numpy as np

from .function import Function
from .functions import _needs_array_only, norm_backward, vector_norm

__all__: list = []  # used through nn.functional.pad and torch.cdist


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


class CdistBackward0(Function):
    """d[i, j] = ||x1_i - x2_j||_p between the rows of x1 (P, M) and x2 (R, M), batch dims in front;
    with D = the gradient of each norm at its difference x1_i - x2_j: dx1_i = sum over j of D, dx2_j = -sum over i.

    >>> import autograd_tutor as torch
    >>> torch.cdist(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.], [1., 0.]]))
    tensor([[5., 1.]])
    """
    saves_result = True
    saved_names = ("x1", "x2")

    @staticmethod
    def forward(ctx, x1, x2, p):
        ctx.save(p=p, x1=x1, x2=x2)
        return vector_norm(_differences(x1._data, x2._data), p, -1, False)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "cdist")
        diff = _differences(ctx._unpack("x1", False), ctx._unpack("x2", False))
        z, g = (np.broadcast_to(a[..., None], diff.shape) for a in (ctx._unpack("result", False), g))
        each = np.zeros_like(diff) if ctx.p == 0 else norm_backward(diff, z, g, ctx.p, -1)
        return each.sum(-2), -each.sum(-3)


def _differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a[..., i, :] - b[..., j, :] at [..., i, j, :]."""
    return a[..., :, None, :] - b[..., None, :, :]
