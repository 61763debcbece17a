"""Sorting: ``sort``, ``topk``, and ``unique`` / ``unique_consecutive`` (nodes whose backward raises torch's error).
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from .indexing import scattered_back

__all__ = ["sort_indices", "SortBackward0", "SortBackward1", "TopkBackward0", "Unique2Backward0", "UniqueDimBackward0",
           "UniqueConsecutiveBackward0"]


def sort_indices(d: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """The int64 indices that sort ``d`` along ``axis``, stably (ties keep their order, as torch's CPU sort);
    nan counts as the largest value. Descending: sort the reversed array ascending and reverse back, which
    keeps ties in their original order.

    >>> sort_indices(np.array([0., 5., 5.]), 0, True).tolist()
    [1, 2, 0]
    """
    if d.ndim == 0:
        return np.zeros((), np.int64)
    if not descending:
        return np.argsort(d, axis=axis, kind="stable").astype(np.int64)
    n = d.shape[axis]
    ascending = np.argsort(np.flip(d, axis), axis=axis, kind="stable")
    return (n - 1 - np.flip(ascending, axis)).astype(np.int64)


class SortBackward0(Function):
    """values = x sorted along ``dim``;  each value's gradient goes back to the place it came from
    (``indices``): dx = zeros with g scattered at the indices."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, x, dim, indices):
        d = x._data
        ctx.save(dim=dim, indices=indices, self_sym_sizes=d.shape)
        return np.take_along_axis(d, indices._data, dim) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        idx = ctx._unpack("indices", False)
        shape, dim = ctx.self_sym_sizes, ctx.dim
        if not shape:
            return g
        return scattered_back(g, shape, dim, idx)


class SortBackward1(SortBackward0):
    """values = x sorted along ``dim`` (``sort(stable=...)``);  dx = zeros with g scattered at the indices."""


class TopkBackward0(SortBackward0):
    """values = the k largest (or smallest) entries along ``dim``;  dx = zeros with g scattered at their indices."""


class _NoDerivative(Function):
    """Forward hands back the values computed beside it; backward raises torch's error naming ``op``."""
    op = ""

    @staticmethod
    def forward(ctx, x, *, values):
        return values

    @staticmethod
    def backward(ctx, g):
        raise NotImplementedError(f"the derivative for '{ctx.op}' is not implemented.")


class Unique2Backward0(_NoDerivative):
    op = "_unique2"


class UniqueDimBackward0(_NoDerivative):
    op = "unique_dim"


class UniqueConsecutiveBackward0(_NoDerivative):
    op = "unique_consecutive"
