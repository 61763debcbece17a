"""Factorizations of symmetric positive-definite and triangular matrices: ``linalg.cholesky``,
``linalg.solve_triangular`` and ``linalg.slogdet``, each one node as in torch.

Gradients (L lower triangular with A = L L^T, Phi(X) = tril(X) with its diagonal halved):
d cholesky: dA = L^-T Phi(L^T gL) L^-1, symmetrized;  d solve_triangular (A X = B): dB = A^-T gX, dA = -dB X^T on
A's triangle;  d slogdet: dA = g_logabsdet A^-T (the sign has no gradient).

>>> import autograd_tutor as torch
>>> torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 5.]]))
tensor([[2., 0.],
        [1., 2.]])
"""
from __future__ import annotations

import numpy as np

from ..function import Function, MultiOutputFunction
from ..tensor import Tensor
from .numerics import _needs_array_only
from .solvers import LinAlgError, _mt

__all__ = ["LinalgCholeskyExBackward0", "LinalgSolveTriangularBackward0", "LinalgSlogdetBackward0",
           "first_failing_minor"]


def first_failing_minor(a: np.ndarray) -> tuple:
    """(batch index, order) of the first leading minor that is not positive-definite, found as LAPACK's potrf finds
    it: the Cholesky recurrence column by column until a diagonal entry is not positive."""
    flat = a.reshape((-1,) + a.shape[-2:]).astype(np.float64)
    for b, m in enumerate(flat):
        n = m.shape[-1]
        low = np.zeros_like(m)
        for k in range(n):
            d = m[k, k] - low[k, :k] @ low[k, :k]
            if not d > 0:
                return b, k + 1
            low[k, k] = np.sqrt(d)
            low[k + 1:, k] = (m[k + 1:, k] - low[k + 1:, :k] @ low[k, :k]) / low[k, k]
    return 0, 0


def _triangular_solve(a: np.ndarray, b: np.ndarray, upper: bool, left: bool, unit: bool) -> np.ndarray:
    """X with A X = B (``left``) or X A = B, reading only A's upper or lower triangle (and 1s on its diagonal
    when ``unit``)."""
    tri = np.triu(a) if upper else np.tril(a)
    if unit:
        n = a.shape[-1]
        tri = tri.copy()
        tri[..., np.arange(n), np.arange(n)] = 1
    if left:
        return np.linalg.solve(tri, b)
    return _mt(np.linalg.solve(_mt(tri), _mt(b)))


class LinalgCholeskyExBackward0(Function):
    """L = cholesky(A), lower (or its transpose, ``upper``);  dA = L^-T Phi(L^T gL) L^-1 as torch symmetrizes it:
    with G = tril(L^T gL), dA = L^-T (G + tril(G, -1)^T) / 2 L^-1."""
    saves_result = True
    result_name = "L"
    saved_names = ("upper", "L")

    @staticmethod
    def forward(ctx, a, upper, name):
        ctx.save(upper=upper)
        batch, order = first_failing_minor(a._data)
        if order:
            where = f"(Batch element {batch}): " if a.ndim > 2 else ""
            raise LinAlgError(f"{name}: {where}The factorization could not be completed because the input is not "
                              f"positive-definite (the leading minor of order {order} is not positive-definite).")
        low = np.linalg.cholesky(a._data)
        return _mt(low).copy() if upper else low

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a Cholesky factor")
        low = ctx._unpack("L", False)
        if ctx.upper:
            low, g = _mt(low), _mt(g)
        ga = np.tril(_mt(low) @ g)
        ga = 0.5 * (ga + _mt(np.tril(ga, -1)))
        ga = _triangular_solve(_mt(low), ga, upper=True, left=True, unit=False)
        return _triangular_solve(low, ga, upper=False, left=False, unit=False)


class LinalgSolveTriangularBackward0(Function):
    """X = A^-1 B for a triangular A (or X = B A^-1, ``left=False``);  dB = A^-T gX,  dA = -dB X^T (-X^T dB when
    right), kept on A's triangle. torch calls A ``self``."""
    saves_result = True
    saved_names = ("self", "upper", "left", "unitriangular", "result")

    @staticmethod
    def forward(ctx, a, b, upper, left, unitriangular):
        ctx.save(self=a, upper=upper, left=left, unitriangular=unitriangular)
        return _triangular_solve(a._data, b._data, upper, left, unitriangular)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a triangular solve")
        a, x = ctx._unpack("self", False), ctx._unpack("result", False)
        gb = _triangular_solve(_mt(a), g, not ctx.upper, ctx.left, ctx.unitriangular)
        ga = -(gb @ _mt(x)) if ctx.left else -(_mt(x) @ gb)
        diagonal = 1 if ctx.unitriangular else 0
        ga = np.triu(ga, diagonal) if ctx.upper else np.tril(ga, -diagonal)
        return ga, gb


class LinalgSlogdetBackward0(MultiOutputFunction):
    """(sign, log|det A|) of each square matrix, two outputs of one node;  dA = g_logabsdet A^-T."""
    is_view = False
    saved_names = ("A", "sign")

    @staticmethod
    def forward(ctx, a):
        sign, logabsdet = np.linalg.slogdet(a._data)
        if ctx.needs_input_grad:
            ctx.save(A=a, sign=Tensor._make(np.asarray(sign, a._data.dtype)))
        return [np.asarray(sign, a._data.dtype), np.asarray(logabsdet, a._data.dtype)]

    @staticmethod
    def backward(ctx, grads):
        _, g = grads
        if g is None:
            return None
        _needs_array_only(ctx, g, "slogdet")
        a = ctx._unpack("A", False)
        # as torch: solve A^T X = g I (by A's LU), which also gives the zeros their sign as torch's do
        return np.linalg.solve(_mt(a), np.asarray(g)[..., None, None] * np.eye(a.shape[-1], dtype=a.dtype))
