"""Square systems: ``linalg.inv``, ``linalg.det``, ``linalg.solve``, each one node as in torch, and torch's
LinAlgError for a singular matrix (found as LAPACK finds it, by LU factorization with partial pivoting).

Gradients, with Z = A^-1 and X = A^-1 B:  d inv: dA = -Z^T G Z^T;  d det: dA = g det(A) A^-T;
d solve: dB = A^-T G, dA = -dB X^T.
"""
from __future__ import annotations

import numpy as np

from ..dtypes import kind_name
from ..function import Function
from ..tensor import Tensor
from .numerics import _needs_array_only

__all__ = ["LinAlgError", "LinalgInvExBackward0", "LinalgDetBackward0", "LinalgSolveExBackward0", "lu",
           "check_square"]


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a matrix was singular (or a factorization failed)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"
LinAlgError.__module__ = "torch._C"


def lu(a: np.ndarray) -> tuple:
    """LU factorization with partial pivoting of one matrix, in its dtype, as LAPACK's getf2: at step k the row with
    the largest |entry| in column k comes up, the column below is scaled by 1/pivot, the rest updated. Returns
    (LU, rows, sign, first zero pivot (1-based, 0 if none)): A[rows] = L U, sign = (-1)^(row swaps).

    >>> lu(np.array([[1., 2.], [2., 4.]]))[1:]
    ([1, 0], -1, 2)
    """
    a = np.array(a)
    n = a.shape[-1]
    rows, sign, zero = list(range(n)), 1, 0
    for k in range(n):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        if p != k:
            a[[k, p]] = a[[p, k]]
            rows[k], rows[p] = rows[p], rows[k]
            sign = -sign
        if a[k, k] == 0:
            zero = zero or k + 1
            continue
        a[k + 1:, k] *= 1 / a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a, rows, sign, zero


def _singular(name: str, a: np.ndarray, message) -> LinAlgError:
    """The error for the first singular matrix of a batch (``message(pivot)`` says what failed)."""
    flat = a.reshape((-1,) + a.shape[-2:])
    for i, m in enumerate(flat):
        pivot = lu(m)[3]
        if pivot:
            where = f"(Batch element {i}): " if a.ndim > 2 else ""
            return LinAlgError(f"{name}: {where}{message(pivot)}")
    return LinAlgError(f"{name}: {message(1)}")


def check_square(name: str, a: Tensor) -> None:
    """torch's checks of a batch of square float matrices."""
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
                           f"{a.shape[-1]} matrices")
    if a._data.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {kind_name(a._data)}")


def _mt(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


def _inverse(name: str, d: np.ndarray) -> np.ndarray:
    try:
        return np.linalg.inv(d)
    except np.linalg.LinAlgError:
        raise _singular(name, d, lambda k: f"The diagonal element {k} is zero, the inversion could not be completed "
                                           "because the input matrix is singular.") from None


class LinalgInvExBackward0(Function):
    """Z = A^-1;  dA = -Z^T G Z^T."""

    @staticmethod
    def forward(ctx, a):
        inverse = _inverse("linalg.inv", a._data)
        if ctx.needs_input_grad:
            ctx.save(inverse=Tensor._make(inverse))
        return inverse

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "an inverse")
        z = _mt(ctx._unpack("inverse", False))
        return -(z @ g @ z)


class LinalgDetBackward0(Function):
    """z = det(A), the product of LU's pivots (with the sign of the row swaps);  dA = g det(A) A^-T, which torch
    computes by solving A^T X = g det(A) I with A's LU: at a singular A (det 0.) that gives zeros, not the
    adjugate."""
    saves_result = True
    saved_names = ("A", "result")

    @staticmethod
    def forward(ctx, a):
        ctx.save(A=a)
        d = a._data
        flat = d.reshape((-1,) + d.shape[-2:])
        factors = [lu(m) for m in flat]
        ctx._rows = [f[1] for f in factors]
        dets = [np.prod(np.diagonal(f[0])) * f[2] for f in factors]
        return np.array(dets, d.dtype).reshape(d.shape[:-2])

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a determinant")
        a, det = ctx._unpack("A", False), ctx._unpack("result", False)
        scale = (g * det)[..., None, None]
        if np.all(det != 0):  # zeros come out +0., as torch's triangular solves leave them
            return scale * _mt(np.linalg.inv(a)) + 0.
        # singular: det is +-0., and torch's solve of A^T X = (g det) I keeps those zeros, rows permuted as by LU
        n = a.shape[-1]
        picked = np.zeros((len(ctx._rows), n, n), bool)
        for b, rows in enumerate(ctx._rows):
            picked[b, rows, np.arange(n)] = True
        picked = picked.reshape(a.shape)
        at_singular = np.where(picked, scale, np.zeros((), a.dtype))
        with np.errstate(divide="ignore", invalid="ignore"):
            regular = scale * _mt(np.linalg.inv(np.where((det != 0)[..., None, None], a, np.eye(n, dtype=a.dtype))))
        return np.where((det != 0)[..., None, None], regular + 0., at_singular)


class LinalgSolveExBackward0(Function):
    """X = A^-1 B (B a matrix or, as ``vector``, a vector per matrix);  dB = A^-T G,  dA = -dB X^T."""
    saves_result = True
    saved_names = ("A", "result")

    @staticmethod
    def forward(ctx, a, b, vector):
        ctx.save(A=a)
        ctx._vector = vector
        A, B = a._data, b._data
        B = B[..., None] if vector else B
        try:
            x = np.linalg.solve(A, B)
        except np.linalg.LinAlgError:
            raise _singular("torch.linalg.solve", A, lambda k: "The solver failed because the input matrix is "
                                                              "singular.") from None
        return x[..., 0] if vector else x

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a solve")
        a, x = ctx._unpack("A", False), ctx._unpack("result", False)
        if ctx._vector:
            g, x = g[..., None], x[..., None]
        gb = np.linalg.solve(_mt(a), g)
        ga = -(gb @ _mt(x))
        return ga, (gb[..., 0] if ctx._vector else gb)
