"""Tensor methods that sort: ``sort``, ``argsort``, ``topk``, ``msort``, ``unique``, ``aminmax``; and ``histogram``,
which puts the entries into bins.

>>> import autograd_tutor as torch
>>> torch.tensor([3, 1, 3, 3]).unique(return_inverse=True, return_counts=True)
(tensor([1, 3]), tensor([1, 0, 1, 1]), tensor([1, 3]))
>>> torch.tensor([3, 1, 3, 3]).unique_consecutive()
tensor([3, 1, 3])
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import grad_mode
from ..dtypes import kind_name
from ..factories import linspace
from ..function import shown
from ..ops.arithmetic import NotImplementedNode
from ..ops.sorting import (sort_indices, SortBackward0, SortBackward1, TopkBackward0, Unique2Backward0,
                           UniqueConsecutiveBackward0, UniqueDimBackward0)
from ..tensor import _dim, return_types, Tensor

# Tensor methods written as functions (they call one another); the class below holds the others
__all__ = ["unique", "unique_consecutive", "aminmax", "msort", "histogram", "bincount"]


def _rows(x: np.ndarray, dim) -> np.ndarray:
    """The slices that are compared: single entries (dim None), else each slice along ``dim`` as one row."""
    return x.reshape(-1, 1) if dim is None else np.moveaxis(x, dim, 0).reshape(x.shape[dim], -1)


def _result(self, node, rows, inverse, counts, dim, return_inverse, return_counts):
    """Wrap the distinct rows back into the input's layout; return what was asked for, as torch does."""
    if dim is None:
        values = rows.reshape(-1)
        inverse = inverse.reshape(self._data.shape)
    else:
        shape = list(np.moveaxis(self._data, dim, 0).shape)
        values = np.moveaxis(rows.reshape([len(rows)] + shape[1:]), 0, dim)
    out = (node.apply(self, values=np.ascontiguousarray(values)),)
    out += (Tensor._make(inverse.astype(np.int64)),) if return_inverse else ()
    out += (Tensor._make(counts.astype(np.int64)),) if return_counts else ()
    return out if len(out) > 1 else out[0]


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (or slices along ``dim``) in ascending order, torch's CPU order even when
    ``sorted=False``; optionally where each entry went (``inverse``) and how often each value occurs."""
    dim = None if dim is None else _dim(dim, self.ndim)
    rows = _rows(self._data, dim)
    if dim is None:  # NaNs stay apart, as in torch
        values, inverse, counts = np.unique(rows[:, 0], return_inverse=True, return_counts=True, equal_nan=False)
        values = values[:, None]
    else:
        values, inverse, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    node = Unique2Backward0 if dim is None else UniqueDimBackward0
    return _result(self, node, values, inverse.reshape(-1), counts, dim, return_inverse, return_counts)


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    """One value (or slice along ``dim``) from each run of equal neighbours: ``[1, 1, 2, 1]`` gives ``[1, 2, 1]``."""
    dim = None if dim is None else _dim(dim, self.ndim)
    rows = _rows(self._data, dim)
    starts = np.ones(len(rows), dtype=bool)
    starts[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    inverse = np.cumsum(starts) - 1
    counts = np.diff(np.append(np.flatnonzero(starts), len(rows)))
    return _result(self, UniqueConsecutiveBackward0, rows[starts], inverse, counts, dim, return_inverse,
                   return_counts)


def aminmax(self, *, dim=None, keepdim=False):
    """The smallest and largest entry (over ``dim`` if given) at once, as ``torch.return_types.aminmax``.
    torch records one AminmaxBackward0 node for both; autograd_tutor has none, so it refuses to record."""
    if self.requires_grad and grad_mode._grad_enabled[0]:
        raise NotImplementedError("autograd_tutor has no AminmaxBackward0: use amin and amax to differentiate")
    kwargs = {} if dim is None else {"dim": dim, "keepdim": keepdim}
    return return_types.aminmax((self.amin(**kwargs), self.amax(**kwargs)))


def msort(self):
    """The entries sorted along dim 0 (each column on its own): ``sort(dim=0).values``, recorded as SortBackward0."""
    return self.sort(dim=0).values


def bincount(self, weights=None, minlength=0):
    """How many times each of 0, 1, ..., max(x) occurs in a 1-D tensor of non-negative integers (at least
    ``minlength`` counts); with ``weights``, the sum of the weights of each value's places instead.

    >>> import autograd_tutor as torch
    >>> torch.tensor([0, 1, 1, 4]).bincount()
    tensor([1, 2, 0, 0, 1])
    """
    d = self._data
    if d.dtype.kind not in "iub":
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{kind_name(d)}'")
    if d.ndim != 1 or (d.size and d.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return Tensor._make(np.bincount(d, minlength=minlength).astype(np.int64))
    w = weights._data
    if w.ndim != 1 or w.shape != d.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    sums = np.bincount(d, w, minlength=minlength).astype(w.dtype if w.dtype.kind == "f" else np.float64)
    if weights._requires_grad and grad_mode._grad_enabled[0]:
        return NotImplementedNode.apply(weights, values=sums, op="bincount")
    return Tensor._make(sums)


def histogram(self, bins, *, range=None, weight=None, density=False):
    """How many entries fall into each bin, as ``torch.return_types.histogram(hist, bin_edges)``: ``bins``
    equal bins over ``range`` (by default from the smallest entry to the largest), or the bins between the edges
    of a tensor ``bins``. A bin holds x with left <= x < right, the last one also its right edge; entries outside
    are not counted. ``weight`` counts each entry by its weight; ``density=True`` divides the counts by their total
    and by each bin's width, so that the histogram integrates to 1.

    >>> import autograd_tutor as torch
    >>> torch.histogram(torch.tensor([1., 2., 1., 4., 2.5]), bins=4, range=(0., 4.))
    torch.return_types.histogram(
    hist=tensor([0., 2., 2., 1.]),
    bin_edges=tensor([0., 1., 2., 3., 4.]))
    """
    d = self._data
    if d.dtype.kind != "f":
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{kind_name(d)}'")
    if weight is not None and weight.shape != self.shape:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                           f"input tensor excluding its innermost dimension, but got input with shape "
                           f"{[d.size, 1]} and weight with shape {list(weight.shape)}")
    if isinstance(bins, Tensor):
        edges = bins._data.astype(d.dtype)
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        low, high = (float(d.min()), float(d.max())) if range is None and d.size else range or (0.0, 1.0)
        if low > high:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} for "
                               "dimension 0")
        if not np.isfinite([low, high]).all():
            raise RuntimeError(f"torch.histogramdd: dimension 0's range [{low:g}, {high:g}] is not finite")
        if low == high:
            low, high = low - 0.5, high + 0.5
        edges = linspace(low, high, bins + 1, dtype=self.dtype)._data
    x, w = d.reshape(-1), None if weight is None else weight._data.reshape(-1)
    inside = (x >= edges[0]) & (x <= edges[-1])
    where = np.minimum(np.searchsorted(edges, x[inside], side="right") - 1, len(edges) - 2)
    hist = np.bincount(where, None if w is None else w[inside], len(edges) - 1).astype(d.dtype)
    if density:
        hist = hist / hist.sum() / np.diff(edges)
    if self._requires_grad and grad_mode._grad_enabled[0]:
        return return_types.histogram(tuple(NotImplementedNode.apply(self, values=v, op="histogram")
                                            for v in (hist, edges)))
    return return_types.histogram((Tensor._make(hist), Tensor._make(edges)))


class SortingMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def sort(self, dim=-1, descending=False, **stable):
        """Sorted values and where they came from, as ``torch.return_types.sort(values, indices)``; the node is
        SortBackward1 when ``stable=`` is given (torch's other overload), else SortBackward0. (The sort is
        always stable, as torch's on the CPU.)"""
        if set(stable) - {"stable"}:
            raise TypeError(f"sort() got an unexpected keyword argument '{next(iter(set(stable) - {'stable'}))}'")
        node = SortBackward1 if stable else SortBackward0
        axis = _dim(dim, self.ndim)
        indices = Tensor._make(sort_indices(self._data, axis, descending))
        return return_types.sort((shown(node.apply(self, dim=axis, indices=indices), dim=dim), indices))

    def argsort(self, dim=-1, descending=False, stable=False):
        return Tensor._make(sort_indices(self._data, _dim(dim, self.ndim), descending))

    def topk(self, k, dim=-1, largest=True, sorted=True):
        """The k largest (``largest=False``: smallest) entries along ``dim``, in order, with their indices."""
        if not isinstance(k, numbers.Integral) or isinstance(k, bool):
            raise TypeError(f"topk(): argument 'k' (position 1) must be int, not {type(k).__name__}")
        axis = _dim(dim, self.ndim)
        if not 0 <= k <= (self.shape[axis] if self.ndim else 1):
            raise RuntimeError("selected index k out of range")
        order = sort_indices(self._data, axis, largest)
        indices = Tensor._make(np.take(order, range(k), axis) if self.ndim else order)
        return return_types.topk((shown(TopkBackward0.apply(self, dim=axis, indices=indices), dim=dim), indices))

