"""Tensor methods that compare: ``== != < <= > >=``, ``equal``, ``allclose``, ``isclose``, ``isnan``, ``any`` /
``all``, ``nonzero``; the bitwise ``& | ^ ~`` (``bitwise_and`` ...) of integer and bool tensors, and the logical
``logical_and`` / ``or`` / ``xor`` / ``not`` of any tensors (non-zero is true).
"""
from __future__ import annotations

import numpy as np

from ... import events
from ..dtypes import LEGACY_NAMES, kind_name
from ..ops.numerics import _promote
from ..tensor import _broadcast_shape, _wrap, Tensor

__all__: list = []  # every method is in the class below


class ComparisonMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def any(self, dim=None, keepdim=False):
        return self._logical(np.any, dim, keepdim)

    def all(self, dim=None, keepdim=False):
        return self._logical(np.all, dim, keepdim)

    def _logical(self, reduce, dim, keepdim: bool):
        """any/all over everything or along ``dim``: bool results (uint8 for a uint8 tensor), never recorded."""
        d = self._data
        out = reduce(d, axis=None if dim is None else self._dims(dim), keepdims=keepdim)
        return Tensor._make(np.asarray(out, np.uint8 if d.dtype == np.uint8 else np.bool_))

    def nonzero(self, *, as_tuple=False):
        """The indices of the non-zero entries: one row per entry (n, ndim), or one index tensor per dim."""
        if as_tuple:
            return tuple(Tensor._make(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(self._data)))
        return Tensor._make(np.argwhere(self._data).astype(np.int64))

    def argwhere(self):
        """NumPy's name for ``nonzero()``: one row of indices per non-zero entry."""
        return self.nonzero()

    def count_nonzero(self, dim=None):
        """How many entries are not zero (along ``dim``, one int or several): int64, never recorded."""
        d = self._data != 0
        return Tensor._make(np.asarray(d.sum(axis=None if dim is None else self._dims(dim)), np.int64))

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """|self - other| <= atol + rtol * |other|, elementwise (equal infinities too; nan only with equal_nan)."""
        if not isinstance(other, Tensor):
            raise TypeError(f"isclose(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
        a, b = self._data, other._data
        if a.dtype != b.dtype:
            raise RuntimeError(f"{LEGACY_NAMES[a.dtype.name][:-6]} did not match {LEGACY_NAMES[b.dtype.name][:-6]}")
        for name, tol in (("rtol", rtol), ("atol", atol)):
            if tol < 0:
                raise RuntimeError(f"{name} must be greater than or equal to zero, but got {tol:g}")
        _broadcast_shape(a.shape, b.shape)
        if a.dtype == np.bool_:
            a, b = a.astype(np.int8), b.astype(np.int8)
        return Tensor._make(np.isclose(a, b, rtol, atol, equal_nan))

    def _compare(self, other, op):
        other = _wrap(other)
        _broadcast_shape(self._data.shape, other._data.shape)
        out = Tensor._make(op(self._data, other._data))
        if events._subscribers:
            out._announce()
        return out

    def __eq__(self, other):
        return self._compare(other, np.equal)

    def __ne__(self, other):
        return self._compare(other, np.not_equal)

    def __lt__(self, other):
        return self._compare(other, np.less)

    def __le__(self, other):
        return self._compare(other, np.less_equal)

    def __gt__(self, other):
        return self._compare(other, np.greater)

    def __ge__(self, other):
        return self._compare(other, np.greater_equal)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__
    not_equal, less, less_equal, greater, greater_equal = ne, lt, le, gt, ge  # NumPy's names, torch's too

    def __invert__(self):
        if self._data.dtype.kind not in "biu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return Tensor._make(~self._data)

    def bitwise_not(self):
        if self._data.dtype.kind not in "biu":
            raise NotImplementedError(f'"bitwise_not_cpu" not implemented for \'{kind_name(self._data)}\'')
        return ~self

    def _bitwise(self, other, ufunc):
        """``ufunc`` (np.bitwise_and, _or, _xor) of the operands in their common dtype, bit by bit (for bools:
        logical); never recorded. Floats have no bits to combine: torch's error."""
        other = _wrap(other)
        _broadcast_shape(self._data.shape, other._data.shape)
        a, b = _promote(self, other)
        if np.result_type(a, b).kind == "f":
            raise NotImplementedError(f'"{ufunc.__name__}_cpu" not implemented for \'{kind_name(np.result_type(a, b))}\'')
        out = Tensor._make(np.asarray(ufunc(a, b)))
        if events._subscribers:
            out._announce()
        return out

    def bitwise_and(self, other):
        return self._bitwise(other, np.bitwise_and)

    def bitwise_or(self, other):
        return self._bitwise(other, np.bitwise_or)

    def bitwise_xor(self, other):
        return self._bitwise(other, np.bitwise_xor)

    def bitwise_and_(self, other):
        return self._inplace(lambda s: s.bitwise_and(other))

    def bitwise_or_(self, other):
        return self._inplace(lambda s: s.bitwise_or(other))

    def bitwise_xor_(self, other):
        return self._inplace(lambda s: s.bitwise_xor(other))

    def logical_and(self, other):
        """True where both are non-zero (any dtypes, broadcast together): a bool tensor, never recorded."""
        return self._logical_pair(other, np.logical_and, "logical_and")

    def logical_or(self, other):
        return self._logical_pair(other, np.logical_or, "logical_or")

    def logical_xor(self, other):
        return self._logical_pair(other, np.logical_xor, "logical_xor")

    def logical_not(self):
        return Tensor._make(np.logical_not(self._data))

    def logical_and_(self, other):
        """In place: 1 (True) where both are non-zero, else 0, in this tensor's dtype. Not differentiable, so
        never recorded (torch allows it even on a leaf that requires grad)."""
        return self._write_unrecorded(self._logical_pair(other, np.logical_and, "logical_and_"))

    def logical_or_(self, other):
        return self._write_unrecorded(self._logical_pair(other, np.logical_or, "logical_or_"))

    def logical_xor_(self, other):
        return self._write_unrecorded(self._logical_pair(other, np.logical_xor, "logical_xor_"))

    def logical_not_(self):
        return self._write_unrecorded(self.logical_not())

    def _write_unrecorded(self, result: Tensor) -> Tensor:
        """Write ``result`` into this tensor's storage (a new version), leaving its graph as it is."""
        if result._data.shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(result.shape)}")
        self._data[...] = result._data
        self._vbox[0] += 1
        return self

    def _logical_pair(self, other, fn, name: str, position: int = 1):
        if not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not "
                            f"{type(other).__name__}")
        _broadcast_shape(self._data.shape, other._data.shape)
        return Tensor._make(np.asarray(fn(self._data, other._data)))

    __and__ = __rand__ = bitwise_and
    __or__ = __ror__ = bitwise_or
    __xor__ = __rxor__ = bitwise_xor
    __iand__, __ior__, __ixor__ = bitwise_and_, bitwise_or_, bitwise_xor_

    def equal(self, other: "Tensor") -> bool:
        return self._data.shape == other._data.shape and bool(np.array_equal(self._data, other._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
        return bool(np.allclose(self._data, _wrap(other)._data, rtol, atol, equal_nan))

    def isnan(self):
        return Tensor._make(np.isnan(self._data))

    def isinf(self):
        """True at +inf and -inf (never for integers): ``torch.tensor([1., inf, -inf]).isinf()`` is
        ``tensor([False,  True,  True])``."""
        return Tensor._make(np.isinf(self._data))

    def isposinf(self):
        return Tensor._make(np.isposinf(self._data) if self._data.dtype.kind == "f" else np.zeros(self.shape, bool))

    def isneginf(self):
        return Tensor._make(np.isneginf(self._data) if self._data.dtype.kind == "f" else np.zeros(self.shape, bool))

    def isfinite(self):
        """True where the entry is neither nan nor infinite."""
        return Tensor._make(np.isfinite(self._data))

