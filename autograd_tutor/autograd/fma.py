"""A fused multiply-add, ``a * b + c`` rounded once, as torch's CPU kernels compute it (``add`` with ``alpha``,
``addcmul``, ``lerp``, the normal distribution): the results then match torch's to the last bit.

>>> float(fma(0.1, 3.0, -0.3, np.float64)), 0.1 * 3.0 - 0.3   # once, and twice (after the product too)
(2.7755575615628914e-17, 5.551115123125783e-17)
"""
from __future__ import annotations

import numpy as np

__all__ = ["fma"]


def fma(a, b, c, dtype=np.float32) -> np.ndarray:
    """``a * b + c`` rounded once to ``dtype``, as a fused multiply-add (torch's compiler fuses these).

    In float64 the product is split exactly into ``p + e`` (Dekker) and the sum into ``s + t`` (Knuth), so that
    ``s + (t + e)`` is ``a * b + c`` rounded once. A narrower dtype (float32, float16) takes a shortcut: the product
    of two float32 values is exact in float64, so ``a * b + c`` is computed there and rounded back. Python floats
    are taken as ``dtype`` constants first.

    Fast path: three single numbers (SGD's step on a 0-dim parameter) in a narrow dtype go through Python floats,
    which are float64 numbers too: the same product, sum and one rounding, without NumPy's per-call cost.
    (Python's float arithmetic gives inf * 0's nan without NumPy's warning, as torch does.)"""
    kind = np.dtype(dtype)
    if kind.itemsize < 8 and _one_number(a) and _one_number(b) and _one_number(c):
        number = kind.type
        return number(float(number(a)) * float(number(b)) + float(number(c)))
    a, b, c = np.asarray(a, dtype), np.asarray(b, dtype), np.asarray(c, dtype)
    if kind.itemsize < 8:
        return (np.multiply(a, b, dtype=np.float64) + c).astype(dtype)
    p = a * b
    (ah, al), (bh, bl) = _halves(a), _halves(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    back = s - p
    t = (p - (s - back)) + (c - back)
    return (s + (t + e)).astype(dtype)


_NUMBER_TYPES = (float, int, np.float32, np.float16, np.float64)


def _one_number(x) -> bool:
    """A Python or NumPy number, or a 0-dim array."""
    return type(x) in _NUMBER_TYPES or type(x) is np.ndarray and x.ndim == 0


def _halves(x: np.ndarray) -> tuple:
    """``x`` as ``hi + lo`` with 26 significant bits each, so that their products are exact."""
    scaled = x * 134217729.0  # 2**27 + 1
    hi = scaled - (scaled - x)
    return hi, x - hi
