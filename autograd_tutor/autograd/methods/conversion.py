"""Tensor methods that convert or make new tensors: ``to``, ``float`` / ``double`` / ``long`` ..., ``cpu``, ``clone``,
``type_as``, ``new_ones`` / ``new_zeros`` / ``new_full`` / ``new_tensor``.
"""
from __future__ import annotations

import warnings

import numpy as np

from ...devices import check_cpu
from .. import dtypes
from ..dtypes import dtype as _dtype, LEGACY_NAMES
from ..factories import _leaf, _size, tensor
from ..ops.copies import CloneBackward0, ToCopyBackward0
from ..tensor import Tensor

__all__: list = []  # every method is in the class below


class ConversionMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def _new(self, fill, args: tuple, size, dtype, requires_grad: bool, name: str) -> "Tensor":
        if size is None and not args:
            raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
        shape = _size(args if size is None else (size,))
        kind = self._data.dtype if dtype is None else dtype.np
        return _leaf(np.full(shape, fill, kind), requires_grad)

    def new_ones(self, *args, size=None, dtype=None, device=None, requires_grad=False):
        """A tensor of ones with this tensor's dtype (unless ``dtype`` is given)."""
        return self._new(1, args, size, dtype, requires_grad, "new_ones")

    def new_zeros(self, *args, size=None, dtype=None, device=None, requires_grad=False):
        return self._new(0, args, size, dtype, requires_grad, "new_zeros")

    def new_empty(self, *args, size=None, dtype=None, device=None, requires_grad=False):
        """Uninitialised memory in torch; zeros here, as ``torch.empty``."""
        return self._new(0, args, size, dtype, requires_grad, "new_empty")

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"new_full(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{type(size).__name__}")
        return self._new(fill_value, (), tuple(size), dtype, requires_grad, "new_full")

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        """A new leaf holding a copy of ``data``, with this tensor's dtype unless ``dtype`` is given."""
        if isinstance(data, Tensor):
            warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                          "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                          "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
            data = data._data
        return tensor(data, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)

    def to(self, *args, **kwargs) -> "Tensor":
        """Convert to a dtype (``x.to(torch.float64)``); devices other than the CPU do not exist here."""
        target = kwargs.get("dtype")
        check_cpu(kwargs.get("device"))
        for a in args:
            if isinstance(a, _dtype):
                target = a
            elif isinstance(a, Tensor):
                target = a.dtype
            else:
                check_cpu(a)
        if target is None or target.np == self._data.dtype:
            return self
        if target.np.kind not in "fc":  # an integer or bool result has no gradient: torch records nothing
            return ToCopyBackward0.apply(self.detach(), dtype=target.np)
        return ToCopyBackward0.apply(self, dtype=target.np)

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{LEGACY_NAMES[self._data.dtype.name]}"
        return self.to(dtype)

    def float(self):
        return self.to(dtypes.float32)

    def double(self):
        return self.to(dtypes.float64)

    def half(self):
        return self.to(dtypes.float16)

    def long(self):
        return self.to(dtypes.int64)

    def int(self):
        return self.to(dtypes.int32)

    def bool(self):
        return self.to(dtypes.bool)

    def cpu(self):
        return self

    def cuda(self, device=None, non_blocking=False):
        """There is no GPU here: the error a CPU-only torch raises."""
        check_cpu("cuda")

    is_cuda = False

    is_cpu = True

    def get_device(self) -> int:
        """-1: the CPU (a GPU tensor would give its index)."""
        return -1

    def clone(self) -> "Tensor":
        return CloneBackward0.apply(self)

    def type_as(self, other: "Tensor") -> "Tensor":
        return self.to(other.dtype)

