"""Distinct values: ``unique`` and ``unique_consecutive``; and ``aminmax`` and ``msort``. torch records a node for them (``Unique2Backward0``,
``UniqueDimBackward0``, ``UniqueConsecutiveBackward0``) whose backward only raises: picking distinct values
has no derivative torch implements. The inverse indices and counts are int64 and never need grad.
tensor.py attaches each name in ``__all__`` to Tensor.

>>> import autograd_tutor as torch
>>> torch.tensor([3, 1, 3, 3]).unique(return_inverse=True, return_counts=True)
(tensor([1, 3]), tensor([1, 0, 1, 1]), tensor([1, 3]))
>>> torch.tensor([3, 1, 3, 3]).unique_consecutive()
tensor([3, 1, 3])
"""
from __future__ import annotations

import numpy as np

from . import grad_mode
from .function import Function
from .tensor import Tensor, _dim, return_types

__all__ = ["unique", "unique_consecutive", "aminmax", "msort"]


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
