"""``torch.linalg``: the vector norm of any order (one ``LinalgVectorNormBackward0`` as in torch) and the matrix
norms composed of it or of the singular values; ``inv``, ``det`` and ``solve`` (see ``autograd/ops/solvers.py``);
the cross product (``LinalgCrossBackward0``), the singular value decomposition (``LinalgSvdBackward0``, one node
for U, S and Vh) and the symmetric eigendecomposition (``LinalgEighBackward0``).

>>> import autograd_tutor as torch
>>> torch.linalg.vector_norm(torch.tensor([3., 4.])), torch.linalg.norm(torch.tensor([[1., 1.], [1., 1.]]), 'fro')
(tensor(5.), tensor(2.))
>>> torch.linalg.cross(torch.tensor([1., 0., 0.]), torch.tensor([0., 1., 0.]))
tensor([0., 0., 1.])
>>> torch.linalg.svdvals(torch.tensor([[3., 0.], [4., 5.]]))
tensor([6.7082, 2.2361])
"""
from __future__ import annotations

from .autograd.dtypes import kind_name
from .autograd.ops.linalg import LinalgEighBackward0
from .autograd.ops.solvers import check_square, LinAlgError, LinalgSolveExBackward0
from .autograd.tensor import Tensor, _dim, _dim_tuple, return_types

__all__ = ["vector_norm", "norm", "matrix_norm", "cross", "svd", "svdvals", "inv", "det", "solve", "eigh", "eigvalsh", "LinAlgError"]

_MATRIX_ORDERS = ("fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf"))


def vector_norm(x: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """(sum |x_i|^ord)^(1/ord) over ``dim`` (all entries by default); ord inf is the largest |x_i|, 0 counts the
    entries that are not 0."""
    if isinstance(ord, str):
        raise TypeError("linalg_vector_norm(): argument 'ord' (position 2) must be Number, not str")
    if dtype is not None:
        raise NotImplementedError("autograd_tutor: linalg.vector_norm with dtype= is not supported")
    if x._data.dtype.kind != "f":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{kind_name(x._data)}")
    return x.norm(ord, dim, keepdim)


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:
    """A norm of the matrices in the two dims ``dim``, composed as torch composes it: 'fro' the vector 2-norm of the
    entries; 'nuc' the sum of the singular values, 2 (-2) the largest (smallest); 1 (-1) the largest (smallest)
    column sum of |A_ij|, inf (-inf) the same of the rows."""
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dims = _dim_tuple(dim)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dims))}")
    if ord not in _MATRIX_ORDERS:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if dtype is not None:
        raise NotImplementedError("autograd_tutor: linalg.matrix_norm with dtype= is not supported")
    rows, cols = (_dim(d, A.ndim) for d in dims)
    if ord == "fro":
        return vector_norm(A, 2, (rows, cols), keepdim)
    if ord in ("nuc", 2, -2):  # from the singular values of the matrices moved to the last two dims
        order = [d for d in range(A.ndim) if d not in (rows, cols)] + [rows, cols]
        values = svdvals(A.permute(order))
        result = values.sum(-1, keepdim) if ord == "nuc" else _extreme(values, ord, -1, keepdim)
        if keepdim:
            result = result.unsqueeze(-1).permute([order.index(d) for d in range(A.ndim)])
        return result
    if abs(ord) == float("inf"):  # row sums: the same with the two dims swapped
        rows, cols = cols, rows
    if not keepdim and rows < cols:
        cols -= 1
    return _extreme(vector_norm(A, 1.0, rows, keepdim), ord, cols, keepdim)


def _extreme(x: Tensor, ord, dim: int, keepdim: bool) -> Tensor:
    """The largest along ``dim`` for a positive order, the smallest for a negative one."""
    return x.amax(dim, keepdim) if ord > 0 else x.amin(dim, keepdim)


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """A vector norm (one dim, a 1-D input, or all entries when neither ord nor dim is given) or a matrix norm
    (two dims, a 2-D input with ``ord``, or ord 'fro' / 'nuc')."""
    dims = None if dim is None else _dim_tuple(dim)
    if dims is not None and len(dims) not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
    if dims is None and ord is not None and A.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                           f"{A.ndim}D.")
    if isinstance(ord, str) or (dims is None and ord is not None and A.ndim == 2) or (dims and len(dims) == 2):
        return matrix_norm(A, "fro" if ord is None else ord, (-2, -1) if dims is None else dims, keepdim,
                           dtype=dtype)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)


def inv(A: Tensor) -> Tensor:
    """A^-1 of each square matrix (``LinalgInvExBackward0``); a singular one raises ``LinAlgError``."""
    return A.inverse()


def det(A: Tensor) -> Tensor:
    """The determinant of each square matrix (``LinalgDetBackward0``)."""
    return A.det()


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """X with A X = B (``LinalgSolveExBackward0``): B a matrix per A, or a vector (B.ndim == 1, or B's shape A's
    without the last dim)."""
    if not left:
        raise NotImplementedError("autograd_tutor: linalg.solve(left=False) is not supported")
    check_square("linalg.solve", A)
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{kind_name(A._data)} and B of type {kind_name(B._data)} instead")
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    rows = B.shape[0] if B.ndim == 1 else B.shape[-1 if vector else -2]
    if rows != A.shape[-1]:
        columns = 1 if vector else B.shape[-1]
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation AX = B ({A.shape[-2]}x"
                           f"{A.shape[-1]} and {rows}x{columns})")
    return LinalgSolveExBackward0.apply(A, B, vector=vector)


def eigh(A: Tensor, UPLO: str = "L"):
    """The eigenvalues (ascending) and eigenvectors of symmetric matrices, read from the lower (``UPLO='L'``) or
    upper triangle, as ``torch.return_types.linalg_eigh(eigenvalues, eigenvectors)``: one LinalgEighBackward0.
    The eigenvectors' signs are LAPACK's choice."""
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    check_square("linalg.eigh", A)
    return return_types.linalg_eigh(LinalgEighBackward0.apply(A, uplo=UPLO))


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:
    """The eigenvalues of symmetric matrices, ascending."""
    return eigh(A, UPLO)[0]


def cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """The cross product of the 3-vectors along ``dim`` (the last by default); the other dims broadcast."""
    return input._linalg_cross(other, dim)


def svd(A: Tensor, full_matrices: bool = True, *, driver=None):
    """A = U diag(S) Vh, as ``torch.return_types.linalg_svd(U, S, Vh)``: square U (m, m) and Vh (n, n) by default,
    (m, k) and (k, n) with ``full_matrices=False`` (k = min(m, n)); S largest first. The signs of the singular
    vectors are LAPACK's choice, which can differ between libraries (as in torch)."""
    return return_types.linalg_svd(A._linalg_svd(full_matrices))


def svdvals(A: Tensor, *, driver=None) -> Tensor:
    """The singular values of A, largest first (``LinalgSvdBackward0``)."""
    return A._linalg_svd(False)[1]
