"""Data types with torch's names, each backed by a NumPy dtype.

The default floating type is float32, as in torch, so values print and round as torch's do.

>>> float32, float32.is_floating_point, int64.itemsize
(torch.float32, True, 8)
"""
from __future__ import annotations

import builtins

import numpy as np

__all__ = ["dtype", "float16", "half", "float32", "float", "float64", "double", "int8", "int16", "short",
           "int32", "int", "int64", "long", "uint8", "bool", "get_default_dtype", "from_numpy_dtype",
           "result_type"]


class dtype:
    """A tensor element type: ``torch.float32`` and friends."""
    __module__ = "autograd_tutor"  # its public name, as torch's torch.dtype

    def __init__(self, name: str, np_dtype) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = self.np.kind == "f"
        self.is_signed = self.np.kind in "fi"
        self.itemsize = self.np.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (from_numpy_dtype, (self.np,))


float16 = half = dtype("float16", np.float16)
float32 = float = dtype("float32", np.float32)
float64 = double = dtype("float64", np.float64)
int8 = dtype("int8", np.int8)
int16 = short = dtype("int16", np.int16)
int32 = int = dtype("int32", np.int32)
int64 = long = dtype("int64", np.int64)
uint8 = dtype("uint8", np.uint8)
bool = dtype("bool", np.bool_)

_BY_NUMPY = {d.np: d for d in (float16, float32, float64, int8, int16, int32, int64, uint8, bool)}
#: "torch.float32" and friends by NumPy dtype (a NumPy dtype's .name is a slow Python property).
TORCH_NAMES = {np_dtype: repr(d) for np_dtype, d in _BY_NUMPY.items()}
# torch's legacy type names, used in the version-counter error ("[torch.FloatTensor [2]]").
LEGACY_NAMES = {"float16": "HalfTensor", "float32": "FloatTensor", "float64": "DoubleTensor",
                "int8": "CharTensor", "int16": "ShortTensor", "int32": "IntTensor", "int64": "LongTensor",
                "uint8": "ByteTensor", "bool": "BoolTensor"}
#: torch's C++ type names, used in its kernels' messages ("... but got: float != double").
CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
             "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def kind_name(d) -> str:
    """``Float``, ``Double``, ``Long``...: how torch's kernel messages name an array's (or a NumPy) dtype."""
    return LEGACY_NAMES[getattr(d, "dtype", d).name][:-len("Tensor")]


def get_default_dtype() -> dtype:
    """The dtype of ``torch.tensor(1.5)``: float32."""
    return float32


def from_numpy_dtype(np_dtype) -> dtype:
    """The torch dtype of a NumPy dtype; a clear TypeError for types torch has no name for."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. The only supported "
                        "types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool.") from None


def _category(d: np.dtype) -> builtins.int:
    return 2 if d.kind == "f" else 1 if d.kind in "iu" else 0


def result_type(a: tuple, b: tuple) -> np.dtype:
    """Type promotion of a binary op, torch's rules, on ``(numpy dtype, rank)`` pairs.

    Rank is 2 for a tensor with dimensions, 1 for a 0-dim tensor, 0 for a Python number. A higher rank wins
    unless a lower one is of a higher kind (bool < integer < float): then a 0-dim tensor keeps its dtype and a
    Python number takes the default (float32 or int64).

    >>> f32, f64, i64 = np.dtype("float32"), np.dtype("float64"), np.dtype("int64")
    >>> result_type((f32, 2), (f64, 1)), result_type((i64, 2), (f64, 0)), result_type((f32, 2), (f64, 2))
    (dtype('float32'), dtype('float32'), dtype('float64'))
    """
    (ta, ra), (tb, rb) = a, b
    if ta == tb:
        return ta
    ca, cb = _category(ta), _category(tb)
    if ra == rb:
        return np.promote_types(ta, tb) if ca == cb else (ta if ca > cb else tb)
    (hi, _, chi), (lo, rlo, clo) = ((ta, ra, ca), (tb, rb, cb)) if ra > rb else ((tb, rb, cb), (ta, ra, ca))
    if clo > chi:
        if rlo == 0:
            return float32.np if clo == 2 else int64.np
        return lo
    return hi
