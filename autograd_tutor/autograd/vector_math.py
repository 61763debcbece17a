"""softmax and log_softmax as torch's AVX2 kernel computes them over the last dim, to the last bit.

For each row torch takes the maximum, then ``e = exp(x - max)`` with SLEEF's float32 ``expf`` (a polynomial,
not the C library's), then sums ``e`` over 8 vector lanes: the first 8 values, then each further block of 8
added lane by lane, a partial last block into the first lanes, and the 8 lanes added as a tree
((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)); rows shorter than 8 are added one after another. softmax is then
``e * (1 / sum)``, log_softmax ``(x - max) - log(sum)``.

>>> import numpy as np
>>> softmax_rows(np.float32([[1., 2., 3.]])).tolist()
[[0.09003057330846786, 0.2447284758090973, 0.6652409434318542]]
"""
from __future__ import annotations

import numpy as np


__all__ = ["softmax_rows", "log_softmax_rows", "sleef_exp"]

_F32 = np.float32
#: SLEEF's coefficients of exp(s), float32 numbers held as Python floats: the first, and those after it
_EXP_FIRST = float(_F32(0.000198527617612853646278381))
_EXP_POLYNOMIAL = tuple(float(_F32(c)) for c in (0.00139304355252534151077271, 0.00833336077630519866943359,
                                                 0.0416664853692054748535156, 0.166666671633720397949219, 0.5))
#: the low part of ln 2 in SLEEF's two-part reduction, a float32 number
_LN2_LOW = float(_F32(-1.428606765330187045e-06))


def sleef_exp(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``expf`` (1-ulp accuracy): exp(d) = 2**q exp(s), q = round(d / ln 2), s = d - q ln 2 (ln 2 in two
    parts), exp(s) by a degree-7 polynomial with fused multiply-adds; 0 below -104.

    A fused multiply-add ``a * b + c`` of float32 numbers is computed in float64, where the product is exact, and
    rounded once to float32. Every step works on arrays of one dtype with Python-float constants: on a batch of
    logits NumPy's cost is per call, and calls that mix dtypes or take NumPy scalars cost twice as much."""
    with np.errstate(invalid="ignore", over="ignore"):
        return _sleef_exp(d)


def _sleef_exp(d: np.ndarray) -> np.ndarray:
    """:func:`sleef_exp` without its ``np.errstate`` (a few microseconds a call): for callers that hold one already."""
    q = np.rint(d * 1.4426950408889634).astype(np.int32)  # the Python float taken as float32, as in SLEEF
    qf = q.astype(np.float64)  # q fits float32 exactly (it is a rounded float32), so float64 holds the same
    t = qf * -0.693145751953125
    t += d.astype(np.float64)
    s = t.astype(np.float32)  # fma(q, -ln2_high, d)
    t = qf * _LN2_LOW
    t += s.astype(np.float64)
    s = t.astype(np.float32)  # fma(q, -ln2_low, s)
    s64 = s.astype(np.float64)
    u = _EXP_FIRST
    for c in _EXP_POLYNOMIAL:  # u = fma(u, s, c), kept in float64 between the roundings
        t = s64 * u
        t += c
        u = t.astype(np.float32).astype(np.float64)
    u *= np.square(s).astype(np.float64)  # fma(s * s, u, s), s * s rounded to float32
    u += s64
    u = u.astype(np.float32)
    u += 1.0
    # times 2**q rounded once (SLEEF multiplies by 2**(q//2) and 2**(q - q//2): the same for every q)
    e = np.ldexp(u, q)
    np.putmask(e, d < -104.0, 0.0)
    return e


def _lane_sums(e: np.ndarray) -> np.ndarray:
    """Each row of ``e`` summed as torch's ``vec::reduce_all`` adds it (see the module docstring)."""
    rows, k = e.shape
    if k < 8:
        return np.add.accumulate(e, axis=1)[:, -1] if k else np.zeros(rows, e.dtype)
    full = k - k % 8
    if full > 32:
        lanes = np.add.reduce(e[:, :full].reshape(rows, full // 8, 8), axis=1)  # block after block, lane by lane
    else:  # the same for a few blocks, without reduce's copy of a sliced matrix
        lanes = e[:, :8] + e[:, 8:16] if full > 8 else e[:, :8].copy()
        for start in range(16, full, 8):
            lanes += e[:, start:start + 8]
    lanes[:, :k - full] += e[:, full:]
    pairs = lanes[:, :4] + lanes[:, 4:]
    halves = pairs[:, :2] + pairs[:, 2:]
    return halves[:, 0] + halves[:, 1]


def _shifted_exp(x: np.ndarray) -> tuple:
    """``x - max`` of each row and its :func:`sleef_exp`; the caller holds ``np.errstate`` (a row of -inf gives
    nan, as in torch, without NumPy's warning)."""
    shifted = x - x.max(axis=1, keepdims=True)
    return shifted, _sleef_exp(shifted)


#: one ``np.errstate`` for a whole row function (each costs a few microseconds; torch warns of none of these)
_QUIET = dict(invalid="ignore", over="ignore", divide="ignore")


def softmax_rows(x: np.ndarray) -> np.ndarray:
    """softmax of each row of a float32 matrix, torch's bits."""
    with np.errstate(**_QUIET):
        _, e = _shifted_exp(x)
        return e * (_F32(1) / _lane_sums(e))[:, None]


def log_softmax_rows(x: np.ndarray) -> np.ndarray:
    """log_softmax of each row of a float32 matrix: torch's sum; the log of it correctly rounded (torch's SLEEF
    ``logf`` nearly always is)."""
    with np.errstate(**_QUIET):
        shifted, e = _shifted_exp(x)
        return shifted - np.log(_lane_sums(e).astype(np.float64)).astype(np.float32)[:, None]
