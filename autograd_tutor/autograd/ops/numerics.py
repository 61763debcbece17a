"""What every operation shares: dtype promotion, torch's memory layout of results, torch's rounding of float32 math,
and the small helpers of backward formulas (masks, scaling, the array-only check).
"""
from __future__ import annotations

import math

import numpy as np

from ..dtypes import result_type
from ..function import FREED_MESSAGE

__all__: list = []


def _rank(t) -> int:
    return 0 if t._wrapped else 2 if t._data.ndim else 1


def _promote(a, b):
    """The two operands' arrays in their common dtype (torch's promotion, see ``dtypes.result_type``).

    Two 0-dim arrays come back as NumPy scalars: the same arithmetic, several times faster."""
    da, db = a._data, b._data
    if da.dtype != db.dtype:
        key = (da.dtype, _rank(a), db.dtype, _rank(b))
        dt = _PROMOTED.get(key)
        if dt is None:
            dt = _PROMOTED[key] = result_type(key[:2], key[2:])
        if da.dtype != dt:
            da = da.astype(dt)
        if db.dtype != dt:
            db = db.astype(dt)
    if da.ndim or db.ndim:
        return da, db
    return da[()], db[()]


_PROMOTED: dict = {}  # result_type by (dtype, rank, dtype, rank): a handful of entries in practice


def _laid_out(out: np.ndarray, da: np.ndarray, db: np.ndarray) -> np.ndarray:
    """``out``, the elementwise result of arrays da and db, in the memory order torch gives it, which decides whether
    it is contiguous (and so what a later reshape records). torch's TensorIterator orders the dims by the inputs'
    strides, the first input that tells two dims apart deciding (broadcast dims tell nothing, size-1 dims do); NumPy
    keeps C order when its inputs disagree. Inputs of one shape that are contiguous, or inputs with the strides of
    new C-ordered arrays, give a contiguous result in both.

    >>> t = np.ones((3, 2)).T                     # not contiguous, (2, 3)
    >>> _laid_out(t * np.ones((2, 3)), t, np.ones((2, 3))).flags.c_contiguous   # NumPy's product is contiguous
    False
    """
    if da.flags.c_contiguous and db.flags.c_contiguous and (da.shape == db.shape or (
            1 not in da.shape or _standard(da)) and (1 not in db.shape or _standard(db))):
        return out
    shape, n = out.shape, out.ndim

    def along(d: np.ndarray) -> list:  # d's strides along the result's dims: 0 where d lacks or broadcasts one
        lead = n - d.ndim
        return [0] * lead + [0 if d.shape[k] == 1 and shape[lead + k] != 1 else d.strides[k] for k in range(d.ndim)]

    strides = [along(da), along(db)]

    def order(d0: int, d1: int) -> int:  # 1: d0 goes outside d1, -1: inside, 0: these inputs cannot tell
        for st in strides:
            if st[d0] and st[d1] and st[d0] != st[d1]:
                return 1 if st[d0] > st[d1] else -1
            if st[d0] and st[d1] and shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(n - 1, -1, -1))  # innermost first; an insertion sort that stops at the first "inside"
    for i in range(1, n):
        j = i
        for k in range(i - 1, -1, -1):
            c = order(perm[k], perm[j])
            if c > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif c < 0:
                break
    outer = perm[::-1]
    laid = np.empty([shape[d] for d in outer], out.dtype).transpose(np.argsort(outer))
    if laid.strides == out.strides:
        return out
    laid[...] = out
    return laid


def _standard(d: np.ndarray) -> bool:
    """Whether a C-contiguous ``d`` has the strides of a new C-ordered array: only its size-1 dims can have others,
    and an array of one dim never decides the order."""
    if d.ndim < 2 or 1 not in d.shape:
        return True
    stride = d.itemsize
    for size, st in zip(reversed(d.shape), reversed(d.strides)):
        if st != stride:
            return False
        stride *= size
    return True


def _float(t) -> np.ndarray:
    """The data as floats: integer tensors become float32, as torch does for exp, sqrt, division..."""
    d = t._data
    return d if d.dtype.kind == "f" else d.astype(np.float32)


#: Up to this many elements (torch prints tensors this size in full), float32 math goes through float64.
EXACT_UP_TO = 1000
#: ... and at any size for these: torch's float32 tanh and sin (MKL's vector math) give the same bits under all its
#: kernel settings, and a learner's loss or bit-for-bit check shows them (2,000 points of ``torch.sin(x)`` as
#: training data, a 32 x 32 ``tanh`` layer): tanh in float64 rounded once is torch's but for about 1 element in
#: 1,600 (NumPy's float32 tanh: 1 in 4), sin for all but about 1 in 20 (NumPy's: 1 in 8).
EXACT_AT_ANY_SIZE = (np.tanh, np.sin)


_FLOAT32 = np.dtype(np.float32)  # comparing dtypes with a dtype is faster than with the scalar type


def _rounded(fn, d: np.ndarray) -> np.ndarray:
    """``fn(d)`` evaluated in float64 and rounded once to ``d``'s dtype, for tensors of up to EXACT_UP_TO elements.

    NumPy's own float32 exp, tanh, log, sin and cos are up to a few units in the last place off, torch's are
    (nearly always) correctly rounded: going through float64 makes ``torch.exp(torch.tensor(2.)).item()`` print
    7.389056205749512 here too, not 7.3890557289123535. Larger tensors use NumPy's float32 kernels directly
    (the detour costs 4x to 10x), except for tanh and sin (``EXACT_AT_ANY_SIZE``).
    exp overflows to inf without NumPy's warning, as in torch (``torch.tensor(-100.).sigmoid()``)."""
    if fn is np.exp:
        with np.errstate(over="ignore"):
            return _rounded_once(fn, d)
    return _rounded_once(fn, d)


def _rounded_once(fn, d: np.ndarray) -> np.ndarray:
    if d.dtype != _FLOAT32 or d.size > EXACT_UP_TO and fn not in EXACT_AT_ANY_SIZE:
        return fn(d)
    scalar = _SCALAR_MATH.get(fn) if d.ndim == 0 else None
    if scalar is not None:  # a single number: Python's math module gives the same float64 value 4-5x faster
        try:
            return np.array(scalar(float(d)), np.float32)
        except (OverflowError, ValueError):  # exp overflows, log of 0 or less: NumPy's inf and nan below
            pass
    return fn(d, dtype=np.float64).astype(d.dtype)


_SCALAR_MATH = {np.exp: math.exp, np.log: math.log, np.tanh: math.tanh, np.sin: math.sin, np.cos: math.cos}


def _sum_keep(a, dim: int):
    """The sum along ``dim``, keeping it, for arrays and tensors alike."""
    return a.sum(dim=dim, keepdim=True) if _is_tensor(a) else a.sum(axis=dim, keepdims=True)


def _saved(ctx) -> dict:
    """What the node saved, by name; torch's error when a backward without retain_graph freed it."""
    if ctx._saved is None:
        raise RuntimeError(FREED_MESSAGE)
    return ctx._saved


def _one_at_a_time(x: np.ndarray):
    """The flat positions of a contiguous ``x`` that torch's elementwise CPU kernels compute one at a time, or None.

    Those kernels take the elements in pairs of vectors (AVX2: 2 x 8 float32 or 2 x 4 float64), and the last
    ``n % 16`` (``n % 8``) with a scalar formula. Where the two formulas disagree (hardtanh's and elu's
    gradients at nan), torch's answer depends on the position, and we follow it.

    >>> _one_at_a_time(np.zeros(20, np.float32)), _one_at_a_time(np.zeros(3))
    (slice(16, 20, None), slice(0, 3, None))
    """
    if x.dtype.kind != "f" or not x.flags.c_contiguous:
        return None
    n = x.size
    return slice(n - n % (64 // x.dtype.itemsize), n)


def _sign(d: np.ndarray) -> np.ndarray:
    """torch's sign: 1 above 0, -1 below, 0 at 0 and at nan (NumPy's ``np.sign`` gives nan there), as
    ``(0 < x) - (x < 0)``.

    >>> _sign(np.array([2., -0., float("nan"), -3.]))
    array([ 1.,  0.,  0., -1.])
    """
    return np.where(d == d, np.sign(d), d.dtype.type(0)) if d.dtype.kind == "f" else np.sign(d)


def _zeros(g) -> np.ndarray:
    """A zero gradient shaped like ``g`` (a constant, also under create_graph)."""
    return np.zeros_like(g._data if _is_tensor(g) else g)


def _is_tensor(g) -> bool:
    """True for a Tensor (create_graph=True), False for an array or a NumPy scalar."""
    return hasattr(g, "_data")


def _needs_array_only(ctx, g, what: str):
    if _is_tensor(g):
        raise NotImplementedError(f"autograd_tutor cannot differentiate {what} twice (create_graph=True); "
                                  "use the gradients it returns as constants.")
