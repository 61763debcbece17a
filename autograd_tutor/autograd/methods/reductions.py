"""Tensor methods that reduce: ``sum``, ``mean``, ``max`` / ``min``, ``argmax``, ``prod``, ``norm``, ``var`` / ``std``,
``amax``, ``logsumexp``, ``median``, ``cumsum``, ``cummax``, ``kthvalue``, ``nansum``.
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import grad_mode
from ..dtypes import kind_name, LEGACY_NAMES
from ..function import shown
from ..ops.reductions import (AmaxBackward0, AminBackward0, CummaxBackward0, CumminBackward0, CumprodBackward0,
                              CumsumBackward0, KthvalueBackward0, LinalgVectorNormBackward0, LogcumsumexpBackward0,
                              LogsumexpBackward0, MaxBackward0, MaxBackward1, MeanBackward0, MeanBackward1,
                              median_indices, MedianBackward0, MedianBackward1, MinBackward0, MinBackward1,
                              nan_median_indices, NanmedianBackward0, NanmedianBackward1,
                              ModeBackward0,
                              NansumBackward0, ProdBackward0, ProdBackward1, running_extreme, StdBackward0,
                              SumBackward0, SumBackward1, VarBackward0)
from ..ops.sorting import kthvalue_indices, mode_of
from ..tensor import _dim, _dim_tuple, return_types, Tensor

# Tensor methods written as functions (they call one another); the class below holds the others
__all__ = ["cummax", "cummin", "logcumsumexp", "kthvalue", "mode", "nansum", "nanmean"]


def _running(self, dim, name: str, ufunc, node, ret):
    if dim is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    d = _dim(dim, self.ndim)
    data = self._data
    if data.ndim:
        indices = running_extreme(data, d, ufunc)[1]
    else:
        indices = np.zeros((), np.int64)
    indices = Tensor._make(indices)
    return ret((shown(node.apply(self, dim=d, indices=indices), dim=dim), indices))


def _running_dtype(self, dtype):
    """cumsum / cumprod's ``dtype=`` as a NumPy dtype (None if not given); a tensor that requires grad cannot be
    summed into integers, whose result could not carry a gradient."""
    if dtype is None:
        return None
    if not dtype.is_floating_point and self._requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"Autograd not support dtype: {kind_name(dtype.np)}")
    return dtype.np


def cummax(self, dim=None):
    """The running maximum along ``dim`` and where each came from (the latest place on ties)."""
    return _running(self, dim, "cummax", np.maximum, CummaxBackward0, return_types.cummax)


def cummin(self, dim=None):
    """The running minimum along ``dim`` and where each came from (the latest place on ties)."""
    return _running(self, dim, "cummin", np.minimum, CumminBackward0, return_types.cummin)


def logcumsumexp(self, dim):
    """log(cumsum(exp(x))) along ``dim``, computed without overflow."""
    d = _dim(dim, self.ndim)
    if self._data.dtype.kind != "f":
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{kind_name(self._data)}\'')
    return shown(LogcumsumexpBackward0.apply(self, dim=d), dim=dim)


def _by_rows(data: np.ndarray, axis: int) -> np.ndarray:
    """The 1-d slices of ``data`` along ``axis``, one per row of a 2-d array."""
    return np.moveaxis(data, axis, -1).reshape(-1, data.shape[axis])


def _back(per_row: np.ndarray, shape: tuple, axis: int) -> np.ndarray:
    """One entry per row of :func:`_by_rows` put back in ``shape`` with ``axis`` kept as size 1."""
    moved = shape[:axis] + shape[axis + 1:] + (1,)
    return np.moveaxis(per_row.reshape(moved), -1, axis)


def kthvalue(self, k, dim=-1, keepdim=False):
    """The k-th smallest entry along ``dim`` (k from 1) and its index. Where that value occurs more than once,
    the index is the one torch's quickselect lands on (``ops/sorting.py``), not always the first.

    >>> import autograd_tutor as torch
    >>> torch.tensor([1., 1., 1.]).kthvalue(1)   # the first of the three would be index 0
    torch.return_types.kthvalue(
    values=tensor(1.),
    indices=tensor(1))
    """
    d = _dim(dim, self.ndim)
    size = self.shape[d] if self.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    data = self._data if self.ndim else self._data.reshape(1)
    picked = np.take(np.argsort(data, axis=d, kind="stable"), [k - 1], axis=d).astype(np.int64)
    picked = _back(kthvalue_indices(_by_rows(data, d), k, picked.reshape(-1) if d == data.ndim - 1 else
                                    _by_rows(picked, d)[:, 0]), data.shape, d)
    indices = Tensor._make(picked.reshape(()) if not self.ndim else picked if keepdim else picked.squeeze(d))
    values = KthvalueBackward0.apply(self, dim=d, keepdim=keepdim, indices=indices)
    return return_types.kthvalue((shown(values, dim=dim), indices))


def mode(self, dim=-1, keepdim=False):
    """The most frequent value along ``dim`` (the smallest of those as frequent) and the index of one of its
    places, the one torch's CPU kernel names (``ops/sorting.py``: the last in order up to 16 entries).

    >>> import autograd_tutor as torch
    >>> torch.tensor([[3., 1., 2.], [0., 5., 5.]]).mode(1)
    torch.return_types.mode(
    values=tensor([1., 5.]),
    indices=tensor([1, 2]))
    """
    d = _dim(dim, self.ndim)
    data = self._data if self.ndim else self._data.reshape(1)
    if data.shape[d] == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    picked = np.array([mode_of(row)[1] for row in _by_rows(data, d).tolist()], np.int64)
    picked = _back(picked, data.shape, d)
    indices = Tensor._make(picked.reshape(()) if not self.ndim else picked if keepdim else picked.squeeze(d))
    values = ModeBackward0.apply(self, dim=d, keepdim=keepdim, indices=indices)
    return return_types.mode((shown(values, dim=dim), indices))


def nansum(self, dim=None, keepdim=False, *, dtype=None):
    """The sum of the entries that are not nan (over ``dim``, or all)."""
    if dim is None:
        return NansumBackward0.apply(self, dim=None, keepdim=keepdim)
    return shown(NansumBackward0.apply(self, dim=self._dims(dim), keepdim=keepdim), dim=_dim_tuple(dim))


def nanmean(self, dim=None, keepdim=False, *, dtype=None):
    """The mean of the entries that are not nan: ``nansum`` divided by how many there are (as torch records it)."""
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(f"nanmean(): could not infer output dtype. Optional dtype must be either a floating point "
                           f"or complex dtype. Got: {kind_name(dtype.np)}")
    if self._data.dtype.kind != "f":
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{kind_name(self._data)}")
    axes = None if dim is None else self._dims(dim)
    count = (~np.isnan(self._data)).sum(axis=axes, keepdims=keepdim).astype(self._data.dtype)
    return nansum(self, dim, keepdim) / Tensor._make(count)


def _c_float(x) -> str:
    """A float as C++'s ``<<`` prints it in torch's messages: ``1``, ``0.5``, ``inf``, ``-nan``."""
    if np.isnan(x):
        return "-nan" if np.signbit(x) else "nan"
    return "%g" % x


class ReductionsMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def histc(self, bins: int = 100, min=0, max=0) -> "Tensor":
        """Count the entries in ``bins`` equal-width bins spanning [min, max] (the data's own range when both are 0;
        widened by 1 each way when that range is one number); entries outside the range and nan are left out, an
        entry equal to ``max`` counts in the last bin. Bin ``floor((x - min) * bins / (max - min))``, computed in
        the input's dtype as torch does. Not differentiable.

        >>> import autograd_tutor as torch
        >>> torch.histc(torch.tensor([1., 2., 1.]), bins=4, min=0, max=3)
        tensor([0., 2., 1., 0.])
        """
        d = self._data
        if d.dtype.kind != "f":
            raise NotImplementedError(f'"histogram_cpu" not implemented for \'{LEGACY_NAMES[d.dtype.name][:-6]}\'')
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        kind = d.dtype.type
        lo, hi = kind(min), kind(max)
        if lo == hi and d.size:
            lo, hi = d.min(), d.max()
        if lo == hi:
            lo, hi = lo - kind(1), hi + kind(1)
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise RuntimeError(f"torch.histc: range of [{_c_float(lo)}, {_c_float(hi)}] is not finite")
        if lo > hi:
            raise RuntimeError("torch.histc: max must be larger than min")
        x = d.reshape(-1)
        x = x[(x >= lo) & (x <= hi)]
        with np.errstate(over="ignore"):
            pos = ((x - lo) * kind(bins) / (hi - lo)).astype(np.int64)
        pos[pos == bins] = bins - 1
        return Tensor._make(np.bincount(pos, minlength=bins).astype(d.dtype))


    def argmax(self, dim=None, keepdim=False):
        return self._arg(np.argmax, "argmax", dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return self._arg(np.argmin, "argmin", dim, keepdim)

    def _arg(self, find, name: str, dim, keepdim: bool) -> "Tensor":
        """The index of the largest (smallest) element, or along ``dim``, with torch's errors."""
        d = self._data
        if d.dtype == np.bool_:
            raise RuntimeError(f"{name}(): does not support bool input")
        if dim is None:
            if not d.size:
                raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
            return Tensor._make(np.array(find(d), dtype=np.int64))
        axis = _dim(dim, self.ndim)
        if d.ndim and not d.shape[axis]:
            raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
        return Tensor._make(np.asarray(find(d, axis=axis, keepdims=keepdim) if d.ndim else 0, np.int64))

    def norm(self, p="fro", dim=None, keepdim=False):
        """The vector p-norm of all elements (or along ``dim``): p = 2 (also "fro"), 1, inf, or any p > 0."""
        order = 2 if p in ("fro", None) else p
        if dim is None:
            return LinalgVectorNormBackward0.apply(self, ord=order, dim=None, keepdim=keepdim)
        out = LinalgVectorNormBackward0.apply(self, ord=order, dim=self._dims(dim), keepdim=keepdim)
        return shown(out, dim=_dim_tuple(dim))

    def prod(self, dim=None, keepdim=False, *, dtype=None):
        """The product of all elements (or along ``dim``), computed in ``dtype`` if given."""
        dtype = _running_dtype(self, dtype)
        if dim is None:
            return ProdBackward0.apply(self, dtype=dtype)
        (d,) = self._dims(dim) or (None,)
        return shown(ProdBackward1.apply(self, dim=d, keepdim=keepdim, dtype=dtype), dim=dim)

    def cumsum(self, dim, *, dtype=None):
        """z_j = x_1 + ... + x_j along ``dim``, in ``dtype`` if given (integers and bools otherwise give int64)."""
        d = _dim(dim, self.ndim)
        if dtype is not None and dtype.np == np.bool_:
            raise NotImplementedError('"cumsum_out_cpu" not implemented for \'Bool\'')
        return shown(CumsumBackward0.apply(self, dim=d if self.ndim else None, dtype=_running_dtype(self, dtype)),
                     dim=dim)

    def amax(self, dim=(), keepdim=False):
        return self._amax(AmaxBackward0, "amax", dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return self._amax(AminBackward0, "amin", dim, keepdim)

    def _amax(self, fn, name: str, dim, keepdim: bool):
        """amax/amin: over ``dim`` (every dim when it is empty or None), with torch's errors for empty tensors."""
        dims = () if dim is None or (not isinstance(dim, int) and not len(dim)) else self._dims(dim)
        if not dims and not self._data.size:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                               "the reduction dim with the 'dim' argument.")
        for d, given in zip(dims, (dim,) if isinstance(dim, int) else dim or ()):
            if not self._data.shape[d]:
                raise IndexError(f"{name}(): Expected reduction dim {given} to have non-zero size.")
        return shown(fn.apply(self, dim=dims, keepdim=keepdim), dim=() if dim is None else _dim_tuple(dim))

    def logsumexp(self, dim=None, keepdim=False):
        """log(sum(exp(x))) along ``dim``, without overflow: the smooth maximum behind log_softmax."""
        if dim is None:
            raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
        dims = () if not isinstance(dim, int) and not len(dim) else self._dims(dim)
        if not dims and self.ndim and not keepdim:  # torch adds the max, kept as [1, 1], into a 0-dim sum
            raise RuntimeError(f"output with shape [] doesn't match the broadcast shape {[1] * self.ndim}")
        return shown(LogsumexpBackward0.apply(self, dim=dims, keepdim=keepdim), dim=_dim_tuple(dim))

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return self._spread_stat(VarBackward0, dim, unbiased, keepdim, correction)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return self._spread_stat(StdBackward0, dim, unbiased, keepdim, correction)

    def _spread_stat(self, fn, dim, unbiased, keepdim, correction):
        """var/std: ``x.var(1)``, ``x.var(unbiased=False)``, ``x.var(dim=0, correction=0)`` as torch reads them."""
        if isinstance(dim, bool):  # the old x.var(False) means unbiased=False
            dim, unbiased = None, dim
        if correction is None and (dim is not None or unbiased is not None):  # x.var() saves None, as torch
            correction = 0 if unbiased is False else 1
        if dim is None:
            return fn.apply(self, dim=None, correction=correction, keepdim=keepdim)
        return shown(fn.apply(self, dim=self._dims(dim), correction=correction, keepdim=keepdim), dim=_dim_tuple(dim))

    def sum(self, dim=None, keepdim=False, *, dtype=None):
        """The sum of all elements (or along ``dim``); with ``dtype`` the input is cast first, the gradient cast
        back: ``x.sum(dtype=torch.float64)`` sums float32 entries in float64."""
        dtype = _running_dtype(self, dtype)
        if dim is None:
            return SumBackward0.apply(self, dtype=dtype)
        return shown(SumBackward1.apply(self, dim=self._dims(dim), keepdim=keepdim, dtype=dtype), dim=_dim_tuple(dim))

    def mean(self, dim=None, keepdim=False, *, dtype=None):
        """sum / n over all elements (or along ``dim``), in ``dtype`` if given (which must be a float dtype)."""
        if dtype is not None and not dtype.is_floating_point:
            raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating point "
                               f"or complex dtype. Got: {kind_name(dtype.np)}")
        dtype = None if dtype is None else dtype.np
        if dim is None:
            return MeanBackward0.apply(self, dtype=dtype)
        return shown(MeanBackward1.apply(self, dim=self._dims(dim), keepdim=keepdim, dtype=dtype), dim=_dim_tuple(dim))

    def _extreme(self, whole, along, numpy_arg, ret, dim, keepdim, other):
        if other is not None:
            return self.maximum(other) if ret is return_types.max else self.minimum(other)
        if dim is None:
            return whole.apply(self)
        d = _dim(dim, self.ndim)
        if self._data.ndim and self._data.shape[d] == 0:
            raise IndexError(f"{ret._name}(): Expected reduction dim {d} to have non-zero size.")
        idx = numpy_arg(self._data, axis=d, keepdims=keepdim).astype(np.int64) if self._data.ndim else \
            np.array(0, np.int64)
        indices = Tensor._make(idx)
        values = shown(along.apply(self, dim=d, keepdim=keepdim, indices=indices), dim=dim)
        return ret((values, indices))

    def max(self, dim=None, keepdim=False, other=None):
        if isinstance(dim, Tensor):
            return self.maximum(dim)
        return self._extreme(MaxBackward1, MaxBackward0, np.argmax, return_types.max, dim, keepdim, other)

    def min(self, dim=None, keepdim=False, other=None):
        if isinstance(dim, Tensor):
            return self.minimum(dim)
        return self._extreme(MinBackward1, MinBackward0, np.argmin, return_types.min, dim, keepdim, other)

    def cumprod(self, dim, *, dtype=None):
        """z_j = x_1 * x_2 * ... * x_j along ``dim`` (integers and bools give int64)."""
        axis = _dim(dim, self.ndim)
        return shown(CumprodBackward0.apply(self, dim=axis, dtype=_running_dtype(self, dtype)), dim=dim)

    def median(self, dim=None, keepdim=False):
        """The lower median (the smaller middle value for an even count) of all entries, or along ``dim``
        with the index it was found at, as ``torch.return_types.median(values, indices)``; nan if there is one."""
        return self._median("median", dim, keepdim)

    def nanmedian(self, dim=None, keepdim=False):
        """As :meth:`median`, of the entries that are not nan (nan for a row of nans only)."""
        return self._median("nanmedian", dim, keepdim)

    def _median(self, name: str, dim, keepdim: bool):
        d = self._data
        if d.dtype == np.bool_:
            raise NotImplementedError(f"\"{'median_cpu' if dim is None else 'median_out'}\" not implemented for 'Bool'")
        ignore_nan = name == "nanmedian"
        if dim is None:
            return (NanmedianBackward0 if ignore_nan else MedianBackward0).apply(self)
        if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
            raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
        axis = _dim(dim, self.ndim)
        if d.ndim and d.shape[axis] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
        find = nan_median_indices if ignore_nan else median_indices
        idx = find(d, axis) if d.ndim else np.zeros((), np.int64)
        indices = Tensor._make(idx if keepdim or not d.ndim else idx.squeeze(axis))
        node = NanmedianBackward1 if ignore_nan else MedianBackward1
        values = shown(node.apply(self, dim=axis, keepdim=keepdim, indices=indices), dim=dim)
        return getattr(return_types, name)((values, indices))

