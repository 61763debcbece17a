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
import numpy as np

from .autograd.factories import eye, zeros
from .autograd.dtypes import int32
from .autograd.ops.factorizations import (LinalgCholeskyExBackward0, LinalgSlogdetBackward0,
                                          LinalgSolveTriangularBackward0, first_failing_minor)
from .autograd.ops.linalg import LinalgEighBackward0
from .autograd.ops.solvers import check_square, LinAlgError, LinalgSolveExBackward0
from .autograd.tensor import Tensor, _dim, _dim_tuple, return_types

__all__ = ["vector_norm", "norm", "matrix_norm", "cross", "svd", "svdvals", "inv", "det", "solve", "eigh", "eigvalsh",
           "LinAlgError", "cholesky", "cholesky_ex", "solve_triangular", "slogdet", "matrix_power", "multi_dot",
           "vecdot", "matmul", "diagonal", "matrix_rank"]

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


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:
    """The lower-triangular L with A = L L^T for symmetric positive-definite matrices (its transpose with
    ``upper=True``): one LinalgCholeskyExBackward0. A matrix that is not positive-definite raises LinAlgError,
    naming the first leading minor that is not.

    >>> import autograd_tutor as torch
    >>> torch.linalg.cholesky(torch.tensor([[1., 2.], [2., 1.]]))
    Traceback (most recent call last):
    ...
    torch._C._LinAlgError: linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite).
    """
    check_square("linalg.cholesky", A)
    return LinalgCholeskyExBackward0.apply(A, upper=upper, name="linalg.cholesky")


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False):
    """``cholesky`` with its LAPACK status, as ``torch.return_types.linalg_cholesky_ex(L, info)``: info is 0, or the
    order of the first leading minor that is not positive-definite."""
    check_square("linalg.cholesky_ex", A)
    batch, order = first_failing_minor(A._data)
    if order and not check_errors:
        raise NotImplementedError("autograd_tutor: linalg.cholesky_ex of a matrix that is not positive-definite is not "
                                  "supported (torch returns LAPACK's partial factor with info > 0)")
    low = LinalgCholeskyExBackward0.apply(A, upper=upper, name="linalg.cholesky_ex")
    return return_types.linalg_cholesky_ex((low, zeros(A.shape[:-2], dtype=int32)))


_REQUIRED = object()


def solve_triangular(A: Tensor, B: Tensor, *, upper=_REQUIRED, left: bool = True,
                     unitriangular: bool = False) -> Tensor:
    """X with A X = B (X A = B with ``left=False``) for triangular A: only A's upper (``upper=True``) or lower
    triangle is read, and with ``unitriangular`` its diagonal is taken as 1s. One LinalgSolveTriangularBackward0.

    >>> import autograd_tutor as torch
    >>> torch.linalg.solve_triangular(torch.tensor([[2., 0.], [1., 1.]]), torch.tensor([[2.], [3.]]), upper=False)
    tensor([[1.],
            [2.]])
    """
    if upper is _REQUIRED:
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: "upper"')
    check_square("linalg.solve_triangular", A)
    if B.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    rows, cols = B.shape[-2:]
    if (rows if left else cols) != A.shape[-1]:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation {equation} "
                           f"({A.shape[-2]}x{A.shape[-1]} and {rows}x{cols})")
    return LinalgSolveTriangularBackward0.apply(A, B, upper=bool(upper), left=left, unitriangular=unitriangular)


def slogdet(A: Tensor):
    """(sign, log|det A|) of each square matrix, as ``torch.return_types.linalg_slogdet(sign, logabsdet)``: the
    log of the determinant without its overflow (a 100x100 matrix's det may not fit a float)."""
    check_square("linalg.slogdet", A)
    return return_types.linalg_slogdet(LinalgSlogdetBackward0.apply(A))


def torch_slogdet(A: Tensor):
    """``torch.slogdet``: ``linalg.slogdet`` as ``torch.return_types.slogdet``."""
    return return_types.slogdet(tuple(slogdet(A)))


def logdet(A: Tensor) -> Tensor:
    """log det A: ``logabsdet`` where the sign is +1, nan where it is -1 (and -inf for a singular matrix)."""
    from .ops import where  # (the torch-level functions are built after this module's imports)
    sign, logabsdet = slogdet(A)
    return where(sign == -1, float("nan"), logabsdet)


def matrix_power(A: Tensor, n: int) -> Tensor:
    """A^n by repeated squaring, as torch multiplies (A^5 = A (A^2)^2: three products); A^0 the identity,
    A^-n = (A^-1)^n."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}")
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        check_square("linalg.matrix_power", A)
    if n == 0:
        return A.clone().copy_(eye(A.shape[-1], dtype=A.dtype).expand_as(A))
    if n < 0:
        return matrix_power(inv(A), -n)
    if n == 1:
        return A.clone()
    if n == 3:
        return (A @ A) @ A
    square = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        square = A if square is None else square @ square
        if bit:
            result = square if result is None else result @ square
    return result


def multi_dot(tensors) -> Tensor:
    """The product of a chain of matrices in the cheapest order (the first may be a row vector, the last a column
    vector): for (a x b)(b x c)(c x d), (AB)C costs a c (b + d) multiplications, A(BC) costs b d (a + c)."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first, last = tensors[0], tensors[-1]
    for where_, t in (("first", first), ("last", last)):
        if t.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {where_} tensor must be 1D or 2D but got {t.ndim}D")
    for i, t in enumerate(tensors[1:-1], 1):
        if t.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
    out_shape = tuple(first.shape[:-1]) + tuple(last.shape[1:])
    tensors[0] = first.unsqueeze(0) if first.ndim == 1 else first
    tensors[-1] = last.unsqueeze(1) if last.ndim == 1 else last
    for i in range(len(tensors) - 1):
        if tensors[i].shape[-1] != tensors[i + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes {list(tensors[i].shape)} and "
                               f"{list(tensors[i + 1].shape)} cannot be multiplied")
    return _chain(tensors, _chain_order(tensors), 0, len(tensors) - 1).view(out_shape)


def _chain_order(tensors: list) -> list:
    """split[i][j]: where the cheapest product of tensors i..j splits (dynamic programming over the chain)."""
    dims = [t.shape[0] for t in tensors] + [tensors[-1].shape[1]]
    n = len(tensors)
    if n == 3:  # torch's closed form for three: A(BC) when (AB)C costs more
        a, b, c, d = dims
        return {(0, 2): 0 if a * c * (b + d) > b * d * (a + c) else 1}
    cost, split = {}, {}
    for i in range(n):
        cost[i, i] = 0
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i, j] = None
            for k in range(i, j):
                c = cost[i, k] + cost[k + 1, j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i, j] is None or c < cost[i, j]:
                    cost[i, j], split[i, j] = c, k
    return split


def _chain(tensors: list, split: dict, i: int, j: int) -> Tensor:
    if i == j:
        return tensors[i]
    k = split.get((i, j), i)
    return _chain(tensors, split, i, k).mm(_chain(tensors, split, k + 1, j))


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """The dot product of the vectors along ``dim`` (the other dims broadcast): sum(x * y, dim)."""
    return (x * y).sum(dim)


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """``torch.matmul`` under its linalg name."""
    return input @ other


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """The diagonal of each matrix of the last two dims: ``torch.diagonal`` with linalg's defaults."""
    return A.diagonal(offset, dim1, dim2)


def matrix_rank(A: Tensor, *, atol=None, rtol=None, hermitian: bool = False) -> Tensor:
    """How many singular values exceed max(atol, rtol * the largest): the dimension of A's column space, read with
    a tolerance for rounding. Without tolerances, rtol = eps * max(m, n) (also when atol is 0 or less)."""
    values = (eigvalsh(A).abs() if hermitian else svdvals(A)).detach()
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else float(np.finfo(A._data.dtype).eps) * max(A.shape[-2:])
    largest = values.amax(-1, keepdim=True) if values.shape[-1] else values.sum(-1, keepdim=True)
    return (values > (largest * rtol).clamp(min=atol or 0.0)).sum(-1)
