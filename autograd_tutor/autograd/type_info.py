"""``torch.finfo`` and ``torch.iinfo``: the limits of a floating-point or integer dtype.

A float32 has 24 significant bits, so 1 + eps is the next float after 1 with eps = 2^-23 ~ 1.19e-07; ``tiny``
(also ``smallest_normal``) is the smallest normal positive number, ``resolution`` 10^-(decimal digits).

>>> import autograd_tutor as torch
>>> torch.finfo(torch.float32).eps, torch.iinfo(torch.int8).max
(1.1920928955078125e-07, 127)
"""
from __future__ import annotations

import numpy as np

from .dtypes import dtype, get_default_dtype

__all__ = ["finfo", "iinfo"]


def _checked(kind, name: str, other: str, wants: str) -> dtype:
    if not isinstance(kind, dtype):
        raise TypeError(f"{name}(): argument 'type' (position 1) must be torch.dtype, not {type(kind).__name__}")
    if kind.np.kind not in wants or kind.np == np.bool_:
        if kind.np == np.bool_ and name == "iinfo":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        what = "a floating point" if name == "finfo" else "an integer"
        raise TypeError(f"torch.{name}() requires {what} input type. Use torch.{other} to handle 'torch.{name}'")
    return kind


class _TypeInfo:

    def __getattr__(self, name: str):
        raise AttributeError(f"'torch.{type(self).__name__}' object has no attribute '{name}'")


class finfo(_TypeInfo):
    """The limits of a floating-point dtype (the default dtype when none is given)."""
    __module__ = "autograd_tutor"  # its public name, as torch's torch.finfo

    def __init__(self, type: dtype | None = None) -> None:
        kind = _checked(get_default_dtype() if type is None else type, "finfo", "iinfo", "f")
        info = np.finfo(kind.np)
        self.bits = int(info.bits)
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)
        self.dtype = kind.name

    def __eq__(self, other) -> bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash(("finfo", self.dtype))

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo(_TypeInfo):
    """The limits of an integer dtype."""
    __module__ = "autograd_tutor"

    def __init__(self, type: dtype) -> None:
        kind = _checked(type, "iinfo", "finfo", "iu")
        info = np.iinfo(kind.np)
        self.bits, self.max, self.min, self.dtype = int(info.bits), int(info.max), int(info.min), kind.name

    def __eq__(self, other) -> bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash(("iinfo", self.dtype))

    def __repr__(self) -> str:
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


