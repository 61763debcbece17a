"""Sorting: ``sort``, ``topk``, and ``unique`` / ``unique_consecutive`` (nodes whose backward raises torch's error);
and which of several equal entries ``kthvalue`` and ``mode`` name, as torch's CPU kernels do.
"""
from __future__ import annotations

import math

import numpy as np

from ..function import Function
from .indexing import scattered_back

__all__ = ["insertion_points", "sort_indices", "kthvalue_indices", "mode_of", "SortBackward0", "SortBackward1", "TopkBackward0", "Unique2Backward0", "UniqueDimBackward0",
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


def kthvalue_indices(rows: np.ndarray, k: int, picked: np.ndarray) -> np.ndarray:
    """For each row of ``rows`` (n, m), the index torch's kthvalue gives for its k-th smallest entry (k from 1).
    ``picked`` is a stable sort's answer, right where the k-th value occurs once; a row where it occurs more
    than once (nans count as equal) is run through torch's quickselect, which may name another of them.

    >>> kthvalue_indices(np.array([[1., 1., 1.]]), 1, np.array([0])).tolist()
    [1]
    """
    values = rows[np.arange(len(rows)), picked]
    same = (rows == values[:, None]) | (np.isnan(rows) & np.isnan(values)[:, None])
    out = picked.copy()
    for r in np.flatnonzero(same.sum(axis=1) > 1):
        out[r] = _quick_select(rows[r].tolist(), k - 1)
    return out


def _quick_select(values: list, k: int) -> int:
    """torch's ``quick_select_template`` (aten/src/ATen/native/SortingUtils.h) on one row: it partitions the
    row around a median-of-three pivot until place k holds the k-th smallest entry (nan above all), and
    returns the index that entry had."""
    index = list(range(len(values)))

    def above(a, b):  # torch's gt_or_nan
        return a > b or (a != a and b == b)

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        index[i], index[j] = index[j], index[i]
    low, high = 0, len(values) - 1
    while high > low:
        if high == low + 1:
            if above(values[low], values[high]):
                swap(low, high)
            break
        swap(low + (high - low) // 2, low + 1)
        if above(values[low + 1], values[high]):
            swap(low + 1, high)
        if above(values[low], values[high]):
            swap(low, high)
        if above(values[low + 1], values[low]):
            swap(low + 1, low)
        i, j, pivot = low + 1, high, values[low]
        while True:
            i += 1
            while above(pivot, values[i]):
                i += 1
            j -= 1
            while above(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:
            low = i
        if j >= k:
            high = j - 1
    return index[k]


def mode_of(row: list) -> tuple:
    """The most frequent value of ``row`` (the smallest such) and the index torch's CPU mode gives for it: torch
    sorts (value, index) pairs by value with ``std::sort`` and takes the last pair of the winning run, so the
    index depends on how libstdc++'s introsort moves equal values (stable up to 16 entries).

    >>> mode_of([0., 5., 5.])
    (5.0, 2)
    """
    pairs = [(v, i) for i, v in enumerate(row)]
    _introsort(pairs)
    best, where, run, longest = 0, 0, 0, 0
    for j, (value, i) in enumerate(pairs):
        run += 1
        if j == len(pairs) - 1 or value != pairs[j + 1][0]:
            if run > longest:
                best, where, longest = value, i, run
            run = 0
    return best, where


def _introsort(a: list) -> None:
    """libstdc++'s ``std::sort`` of (value, index) pairs by value, in place: quicksort with a median-of-three
    pivot down to runs of 16, then one insertion sort (its heapsort fallback, reached only after 2 log2(n)
    unbalanced splits, is Python's sort here)."""
    def less(p, q):
        return p[0] < q[0]

    def insert(i):  # std::__unguarded_linear_insert
        value, j = a[i], i - 1
        while less(value, a[j]):
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = value

    def insertion_sort(first, last):
        for i in range(first + 1, last):
            if less(a[i], a[first]):
                a[first:i + 1] = [a[i]] + a[first:i]
            else:
                insert(i)

    def median_to_first(r, x, y, z):
        if less(a[x], a[y]):
            m = y if less(a[y], a[z]) else z if less(a[x], a[z]) else x
        else:
            m = x if less(a[x], a[z]) else z if less(a[y], a[z]) else y
        a[r], a[m] = a[m], a[r]

    def partition(first, last, pivot):
        while True:
            while less(a[first], a[pivot]):
                first += 1
            last -= 1
            while less(a[pivot], a[last]):
                last -= 1
            if not first < last:
                return first
            a[first], a[last] = a[last], a[first]
            first += 1

    def loop(first, last, depth):
        while last - first > 16:
            if depth == 0:
                a[first:last] = sorted(a[first:last], key=lambda p: p[0])
                return
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            cut = partition(first + 1, last, first)
            loop(cut, last, depth)
            last = cut
    n = len(a)
    if n < 2:
        return
    loop(0, n, 2 * int(math.log2(n)))
    insertion_sort(0, min(n, 16))
    for i in range(16, n):
        insert(i)


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


def insertion_points(boundaries: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    """Where each value would go in the sorted last dim of ``boundaries`` (the first place, or after equal ones
    when ``right``): one search per row when ``boundaries`` has rows, matching ``values``' leading dims.

    >>> insertion_points(np.array([1., 3., 5.]), np.array([0., 3., 6.]), False).tolist()
    [0, 1, 3]
    """
    kind = np.result_type(boundaries, values)
    boundaries, values = boundaries.astype(kind, copy=False), values.astype(kind, copy=False)
    side = "right" if right else "left"
    if boundaries.ndim == 1:
        return np.searchsorted(boundaries, values, side).astype(np.int64)
    rows_b, rows_v = boundaries.reshape(-1, boundaries.shape[-1]), values.reshape(-1, values.shape[-1])
    found = [np.searchsorted(b, v, side) for b, v in zip(rows_b, rows_v)]
    return np.array(found, np.int64).reshape(values.shape)
