"""Linear algebra: ``mm``, ``mv``, ``dot``, ``bmm``, ``addmm``, ``diag`` / ``diagonal``, ``trace``, ``tril`` /
``triu``, ``cdist``, ``cross``, ``svd``.
"""
from __future__ import annotations

import numpy as np

from .. import blas
from ..dtypes import CPP_NAMES, kind_name, result_type
from ..function import Function, MultiOutputFunction
from ..tensor import Tensor
from .backward_formulas import _scaled
from .numerics import _is_tensor, _needs_array_only, _promote, _saved
from .reductions import norm_backward, vector_norm
from ..tracebacks import ENGINE_FRAME

__all__ = ["MmBackward0", "MvBackward0", "DotBackward0", "BmmBackward0", "AddmmBackward0", "DiagEmbedBackward0",
           "DiagonalBackward0", "DiagonalBackward0_copy", "DiagonalBackwardBackward0", "TraceBackward0",
           "IndexFillBackward1", "TrilBackward0", "TriuBackward0", "CdistBackward0", "LinalgCrossBackward0", "LinalgSvdBackward0", "LinalgEighBackward0",
           "TrilinearBackward0", "BlockDiagBackward0"]


def _mm_shapes_error(a, b) -> RuntimeError:
    (n, k), (k2, m) = a.shape, b.shape
    return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")


class MmBackward0(Function):
    """Z = A @ B;  dA = G @ B.T,  dB = A.T @ G."""
    saved_names = ("self", "mat2")
    saves_for = (("mat2", 1, 0), ("self", 0, 1))  # B for dA, A for dB

    @staticmethod
    def forward(ctx, a, b):
        da, db = a._data, b._data
        if da.shape[1] != db.shape[0]:
            raise _mm_shapes_error(da, db)
        if da.dtype != db.dtype:  # torch multiplies matrices of one dtype only
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES[da.dtype.name]} != "
                               f"{CPP_NAMES[db.dtype.name]}")
        if ctx.needs_input_grad:  # a recorded node keeps the layouts: they pick the backward formula
            ctx.self_sym_sizes, ctx.self_sym_strides = da.shape, _strides(da)
            ctx.mat2_sym_sizes, ctx.mat2_sym_strides = db.shape, _strides(db)
        return _mm(*_promote(a, b))

    @staticmethod
    def backward(ctx, g):
        """torch's formulas, which keep a column-major (transposed) operand's gradient column-major."""
        __tracebackhide__ = ENGINE_FRAME
        t = _is_tensor(g)
        b = ctx._unpack("mat2", t) if "mat2" in _saved(ctx) else None
        a = ctx._unpack("self", t) if "self" in _saved(ctx) else None
        ga = gb = None
        if b is not None:
            ga = _t(_mm(b, _t(g))) if _column_major(ctx.self_sym_sizes, ctx.self_sym_strides) else _mm(g, _t(b))
        if a is not None:
            gb = _t(_mm(_t(g), a)) if _column_major(ctx.mat2_sym_sizes, ctx.mat2_sym_strides) else _mm(_t(a), g)
        return ga, gb


def _unpacked(ctx, as_tensor: bool, *names: str) -> tuple:
    """The saved tensors of these names, None for each one that was not saved (its input's gradient not needed)."""
    saved = _saved(ctx)
    return tuple(ctx._unpack(name, as_tensor) if name in saved else None for name in names)


def _strides(d: np.ndarray) -> tuple:
    """A matrix's strides counted in elements, as torch counts them."""
    size = d.itemsize
    rows, cols = d.strides
    return rows // size, cols // size


def _mm(x, y):
    """``x @ y`` for two matrices: for arrays ``blas.matmul`` (torch's order of additions where it is known, else
    ``ndarray.dot``: the same BLAS call as ``@``, without the overhead that makes ``@`` up to twice as slow on small
    matrices), ``@`` for Tensors (recorded)."""
    return x @ y if _is_tensor(x) else blas.matmul(x, y)


def _column_major(sizes: tuple, strides: tuple) -> bool:
    """torch's test for a matrix stored column by column (a transposed view)."""
    return strides[0] == 1 and strides[1] == sizes[0]


def _t(m):
    """The transpose of a matrix: ``.t()`` for a tensor (a TBackward0 under create_graph, as in torch)."""
    return m.t() if _is_tensor(m) else m.T


class MvBackward0(Function):
    """z = A @ v;  dA = outer(g, v),  dv = A.T @ g."""
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx, a, v):
        if a._data.shape[1] != v._data.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({a._data.shape[0]}), mat "
                               f"({a._data.shape[0]}x{a._data.shape[1]}), vec ({v._data.shape[0]})")
        if a._data.dtype != v._data.dtype:
            kv, ka = kind_name(v._data), kind_name(a._data)
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {kv}, {ka}, and {kv}")
        need_a, need_v = ctx.needs_input_grad or (False, False)
        ctx.save(self=a if need_v else None, vec=v if need_a else None)
        return np.matmul(*_promote(a, v))

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        t = _is_tensor(g)
        a, v = _unpacked(ctx, t, "self", "vec")
        ga = None if v is None else g.reshape(-1, 1) * v if t else np.outer(g, v)
        return ga, (_t(a) @ g if a is not None else None)


class DotBackward0(Function):
    """z = a . b;  da = g * b,  db = g * a."""
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx, a, b):
        if a._data.dtype != b._data.dtype:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {kind_name(a._data)} and "
                               f"{kind_name(b._data)}")
        if a._data.shape != b._data.shape:
            n, m = a._data.size, b._data.size
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
                               f"number of elements, but got {n} and {m} elements respectively")
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save(self=a if need_b else None, tensor=b if need_a else None)
        return np.dot(*_promote(a, b))

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        t = _is_tensor(g)
        a, b = _unpacked(ctx, t, "self", "tensor")
        return (g * b if b is not None else None), (g * a if a is not None else None)


class BmmBackward0(Function):
    """Z[i] = A[i] @ B[i];  dA = G @ B^T,  dB = A^T @ G (batch by batch)."""
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, a, b):
        if a._data.dtype != b._data.dtype:
            raise RuntimeError(f"expected scalar type {kind_name(a._data)} but found {kind_name(b._data)}")
        if a._data.dtype == np.bool_:
            raise NotImplementedError('"bmm" not implemented for \'Bool\'')
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save(mat2=b if need_a else None, self=a if need_b else None)
        return np.matmul(*_promote(a, b))

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        t = _is_tensor(g)
        saved = _saved(ctx)
        b = ctx._unpack("mat2", t) if "mat2" in saved else None
        a = ctx._unpack("self", t) if "self" in saved else None
        if t:  # recorded as torch records it: bmm with a transposed operand
            return (None if b is None else g.bmm(b.transpose(1, 2))), (None if a is None else a.transpose(1, 2).bmm(g))
        return (None if b is None else g @ b.swapaxes(-1, -2)), (None if a is None else a.swapaxes(-1, -2) @ g)


class BaddbmmBackward0(Function):
    """Z[i] = beta * C + alpha * A[i] @ B[i] (C broadcast to the batch of products);  dC = beta * G (summed to
    C's shape), dA = alpha * G @ B^T,  dB = alpha * A^T @ G. Attention adds its mask this way."""
    saved_names = ("batch1", "batch2")

    @staticmethod
    def forward(ctx, c, a, b, beta=1, alpha=1):
        ctx.save(alpha=alpha, batch1=a, batch2=b, beta=beta)
        product = np.matmul(*_promote(a, b))
        if alpha != 1:
            product = product * product.dtype.type(alpha)
        if beta == 0:
            return product
        return product + (c._data if beta == 1 else c._data * c._data.dtype.type(beta))

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        _needs_array_only(ctx, g, "baddbmm")
        a, b = ctx._unpack("batch1", False), ctx._unpack("batch2", False)
        t = g.dtype.type
        return (g if ctx.beta == 1 else g * t(ctx.beta)), (g @ b.swapaxes(-1, -2)) * t(ctx.alpha), \
            (a.swapaxes(-1, -2) @ g) * t(ctx.alpha)


class AddmmBackward0(Function):
    """Z = beta * bias + alpha * (A @ B) (bias broadcast over rows);  dbias = beta * G (summed to its shape),
    dA = alpha * G @ B.T,  dB = alpha * A.T @ G.  ``nn.Linear`` on a batch is ``addmm(b, x, W.t())``."""
    saved_names = ("mat1", "mat2")
    saves_for = (("mat1", 1, 2), ("mat2", 2, 1))  # A for dB, B for dA

    @staticmethod
    def forward(ctx, bias, mat1, mat2, beta=1, alpha=1):
        a, b, c = mat1._data, mat2._data, bias._data
        if c.dtype != b.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {kind_name(c)} and {kind_name(b)}")
        if a.dtype != b.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {kind_name(a)} and {kind_name(b)}")
        if a.shape[1] != b.shape[0]:
            raise _mm_shapes_error(a, b)
        shape = (a.shape[0], b.shape[1])
        if c.shape != shape[1:] and (c.ndim > 2 or any(n not in (1, m) for n, m in zip(reversed(c.shape),
                                                                                      reversed(shape)))):
            Tensor._make(c).expand(*shape)  # raises torch's expand error
        needs = ctx.needs_input_grad
        if needs:  # a recorded node: the layouts pick the backward formula (``saves_for`` keeps A and B)
            ctx.alpha, ctx.beta, ctx.mat1_sym_sizes, ctx.mat2_sym_sizes = alpha, beta, a.shape, b.shape
            ctx.mat1_sym_strides = _strides(a) if needs[1] else ()
            ctx.mat2_sym_strides = _strides(b) if needs[2] else ()
        if alpha == 1 and beta == 1:
            return blas.matmul(a, b, c)  # the bias added where torch's BLAS adds it
        product = _mm(a, b)
        if alpha != 1:
            product = product * a.dtype.type(alpha)
        if beta == 0:  # torch ignores the bias then: its nan and inf do not leak into the result
            return np.broadcast_to(product, shape).copy()
        return product + (c if beta == 1 else c * c.dtype.type(beta))

    @staticmethod
    def backward(ctx, g):
        """torch's mm formulas (a column-major operand keeps a column-major gradient), times alpha and beta."""
        __tracebackhide__ = ENGINE_FRAME
        t = _is_tensor(g)
        saved = _saved(ctx)
        a = ctx._unpack("mat1", t) if "mat1" in saved else None
        b = ctx._unpack("mat2", t) if "mat2" in saved else None
        ga = gb = None
        if b is not None:
            ga = _t(_mm(b, _t(g))) if _column_major(ctx.mat1_sym_sizes, ctx.mat1_sym_strides) else _mm(g, _t(b))
        if a is not None:
            gb = _t(_mm(_t(g), a)) if _column_major(ctx.mat2_sym_sizes, ctx.mat2_sym_strides) else _mm(_t(a), g)
        alpha, beta = ctx.alpha, ctx.beta
        if alpha != 1:
            ga, gb = (None if ga is None else _scaled(ga, alpha)), (None if gb is None else _scaled(gb, alpha))
        return (g if beta == 1 else _scaled(g, beta)), ga, gb


class DiagEmbedBackward0(Function):
    """Z = zeros one dim larger than v, with v's last dim written on the ``offset`` diagonal over dims dim1 and dim2
    (above it if offset > 0, below if < 0): a vector becomes a diagonal matrix, a batch of vectors a batch of them;
    dv = that diagonal of G.

    >>> import autograd_tutor as torch
    >>> torch.diag_embed(torch.tensor([[1., 2.], [3., 4.]]))[1]
    tensor([[3., 0.],
            [0., 4.]])
    """

    @staticmethod
    def forward(ctx, v, offset, dim1=-2, dim2=-1):
        ctx.show(dim1=dim1, dim2=dim2, offset=offset)
        d = v._data
        dims = (dim1 % (d.ndim + 1), dim2 % (d.ndim + 1))
        ctx._offset, ctx._dims = offset, dims
        sizes = list(d.shape[:-1])
        for at in sorted(dims):
            sizes.insert(at, d.shape[-1] + abs(offset))
        return _on_diagonal(d, tuple(sizes), offset, *dims)

    @staticmethod
    def backward(ctx, g):
        (dim1, dim2), offset = ctx._dims, ctx._offset
        if _is_tensor(g):
            return DiagonalBackward0.apply(g, offset=offset, dim1=dim1, dim2=dim2)
        return _diagonal_view(g, offset, dim1, dim2).copy()


def _diagonal_view(a: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """The ``offset`` diagonal of ``a`` over dims dim1 and dim2, as its last dim: a view that writes through
    to ``a`` (NumPy's own is read-only), as torch's does."""
    v = np.diagonal(a, offset, dim1, dim2)
    if a.flags.writeable:
        v.flags.writeable = True
    return v


def _on_diagonal(v: np.ndarray, sizes: tuple, offset: int, dim1: int = 0, dim2: int = 1) -> np.ndarray:
    """Zeros of shape ``sizes`` with ``v`` written on their ``offset`` diagonal over dims dim1 and dim2."""
    out = np.zeros(sizes, v.dtype)
    _diagonal_view(out, offset, dim1, dim2)[...] = v
    return out


class DiagonalBackward0(Function):
    """z = the ``offset`` diagonal of X over dims dim1 and dim2 (above it if offset > 0, below if < 0), a view
    whose last dim runs along it: for a matrix, z[i] = X[i, i + offset];  dX = zeros with g on that diagonal."""
    is_view = True

    @staticmethod
    def forward(ctx, x, offset, dim1=0, dim2=1):
        ctx.save(dim1=dim1, dim2=dim2, self_sym_sizes=x._data.shape)
        ctx.show(offset=offset)
        ctx._offset = offset
        return _diagonal_view(x._data, offset, dim1, dim2)

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):
            return DiagonalBackwardBackward0.apply(g, sizes=ctx.self_sym_sizes, offset=ctx._offset, dim1=ctx.dim1,
                                                   dim2=ctx.dim2)
        return _on_diagonal(g, ctx.self_sym_sizes, ctx._offset, ctx.dim1, ctx.dim2)


class DiagonalBackward0_copy(DiagonalBackward0):
    """``torch.diag`` of a matrix: the same diagonal as DiagonalBackward0, copied into a new vector."""
    is_view = False

    @staticmethod
    def forward(ctx, x, offset):
        return DiagonalBackward0.forward(ctx, x, offset).copy()


class DiagonalBackwardBackward0(Function):
    """Z = zeros of shape ``sizes`` with g on the ``offset`` diagonal over dims dim1 and dim2 (the backward of
    taking a diagonal);  dg = that diagonal of G."""

    @staticmethod
    def forward(ctx, g, sizes, offset, dim1=0, dim2=1):
        ctx.save(dim1=dim1, dim2=dim2)
        ctx.show(offset=offset)
        ctx._offset = offset
        return _on_diagonal(g._data, sizes, offset, dim1, dim2)

    @staticmethod
    def backward(ctx, gg):
        if _is_tensor(gg):
            return DiagonalBackward0.apply(gg, offset=ctx._offset, dim1=ctx.dim1, dim2=ctx.dim2)
        return np.diagonal(gg, ctx._offset, ctx.dim1, ctx.dim2).copy()


class TraceBackward0(Function):
    """z = trace(X) = sum_i X[i, i];  dX = g on the diagonal, 0 elsewhere (the identity times g)."""

    @staticmethod
    def forward(ctx, x):
        d = x._data
        if d.dtype == np.bool_:
            raise NotImplementedError("\"trace\" not implemented for 'Bool'")
        ctx.save(self_sym_sizes=d.shape)
        return np.trace(d, dtype=np.int64 if d.dtype.kind in "iu" else None)

    @staticmethod
    def backward(ctx, g):
        n, m = ctx.self_sym_sizes
        if not _is_tensor(g):
            return _on_diagonal(np.full(min(n, m), g, g.dtype), (n, m), 0)
        # torch's formula: fill every (m + 1)-th entry of n * m zeros with g, then view as a matrix
        zeros = Tensor._make(np.zeros(n * m, g._data.dtype))
        return IndexFillBackward1.apply(zeros, g, dim=0, index=np.arange(0, n * m, m + 1)).view(n, m)


class IndexFillBackward1(Function):
    """z = x with the 0-dim tensor v written at ``index`` along ``dim``;  dx = g with zeros there,
    dv = the sum of g there."""

    @staticmethod
    def forward(ctx, x, value, dim, index):
        ctx.save(dim=dim)
        ctx._index = index
        out = x._data.copy()
        out[(slice(None),) * dim + (index,)] = value._data
        return out

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "index_fill (the gradient of trace)")
        key = (slice(None),) * ctx.dim + (ctx._index,)
        gx = g.copy()
        gx[key] = 0
        return gx, g[key].sum()


class TrilBackward0(Function):
    """Z = the lower triangle of X (on and below the ``diagonal``-th diagonal), zeros above;
    dX = the lower triangle of G."""

    @staticmethod
    def forward(ctx, x, diagonal):
        ctx.show(diagonal=diagonal)
        ctx._k = diagonal
        return np.tril(x._data, diagonal)

    @staticmethod
    def backward(ctx, g):
        return g.tril(ctx._k) if _is_tensor(g) else np.tril(g, ctx._k)


class TriuBackward0(Function):
    """Z = the upper triangle of X (on and above the ``diagonal``-th diagonal), zeros below;
    dX = the upper triangle of G."""

    @staticmethod
    def forward(ctx, x, diagonal):
        ctx.show(diagonal=diagonal)
        ctx._k = diagonal
        return np.triu(x._data, diagonal)

    @staticmethod
    def backward(ctx, g):
        return g.triu(ctx._k) if _is_tensor(g) else np.triu(g, ctx._k)


class CdistBackward0(Function):
    """d[i, j] = ||x1_i - x2_j||_p between the rows of x1 (P, M) and x2 (R, M), batch dims in front;
    with D = the gradient of each norm at its difference x1_i - x2_j: dx1_i = sum over j of D, dx2_j = -sum over i.

    >>> import autograd_tutor as torch
    >>> torch.cdist(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.], [1., 0.]]))
    tensor([[5., 1.]])
    """
    saves_result = True
    saved_names = ("x1", "x2")

    @staticmethod
    def forward(ctx, x1, x2, p):
        ctx.save(p=p, x1=x1, x2=x2)
        return vector_norm(_differences(x1._data, x2._data), p, -1, False)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "cdist")
        diff = _differences(ctx._unpack("x1", False), ctx._unpack("x2", False))
        z, g = (np.broadcast_to(a[..., None], diff.shape) for a in (ctx._unpack("result", False), g))
        each = np.zeros_like(diff) if ctx.p == 0 else norm_backward(diff, z, g, ctx.p, -1)
        return each.sum(-2), -each.sum(-3)


def _differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a[..., i, :] - b[..., j, :] at [..., i, j, :]."""
    return a[..., :, None, :] - b[..., None, :, :]


class LinalgCrossBackward0(Function):
    """z = a x b, the cross product of the 3-vectors along ``dim`` (the other dims broadcast);
    da = b x g,  db = g x a."""
    saves_for = (("other", 1, 0), ("self", 0, 1))

    @staticmethod
    def forward(ctx, a, b, dim):
        ctx.save(dim=dim)
        return _cross(*_promote(a, b), dim)

    @staticmethod
    def backward(ctx, g):
        a, b = _unpacked(ctx, _is_tensor(g), "self", "other")
        return (None if b is None else _cross(b, g, ctx.dim)), (None if a is None else _cross(g, a, ctx.dim))


def _cross(x, y, dim: int):
    """x x y along ``dim``: NumPy's for arrays, the recorded operation for Tensors (create_graph)."""
    return LinalgCrossBackward0.apply(x, y, dim=dim) if _is_tensor(x) else np.cross(x, y, axis=dim)


class LinalgSvdBackward0(MultiOutputFunction):
    """A = U diag(S) Vh, the singular value decomposition of the last two dims (k = min(m, n) singular values,
    largest first): three outputs of one node. The gradient is torch's (``svd_backward``): with
    E_jk = S_k^2 - S_j^2 and skew(X) = X - X^T,
    dA = U [skew(U^T gU) S / E + S skew(Vh gVh^T) / E + diag(gS)] Vh, plus the parts of gU and gVh outside the
    spans of U and V (when A is not square). Like torch's, it is defined only when the singular values differ."""
    is_view = False

    @staticmethod
    def forward(ctx, a, full_matrices):
        d = a._data
        u, s, vh = np.linalg.svd(d, full_matrices=full_matrices)
        if ctx.needs_input_grad:
            ctx.save(full_matrices=full_matrices, U=Tensor._make(u), S=Tensor._make(s), Vh=Tensor._make(vh))
        return [u, s, vh]

    @staticmethod
    def backward(ctx, grads):
        for g in grads:
            _needs_array_only(ctx, g, "svd")
        u, s, vh = (ctx._unpack(name, False) for name in ("U", "S", "Vh"))
        k = s.shape[-1]
        gu, gs, gvh = grads
        if ctx.full_matrices:  # only the first k singular vectors take part, as in torch
            u, vh = u[..., :k], vh[..., :k, :]
            gu = None if gu is None else gu[..., :k]
            gvh = None if gvh is None else gvh[..., :k, :]
        return _svd_backward(u, s, vh, gu, gs, gvh)


def _svd_backward(u, s, vh, gu, gs, gvh) -> np.ndarray:
    """dA from the gradients of U (m, k), S (k,) and Vh (k, n), any of them None (see LinalgSvdBackward0)."""
    m, n, k = u.shape[-2], vh.shape[-1], s.shape[-1]
    if gu is None and gvh is None:
        return (u * gs[..., None, :]) @ vh if gs is not None else np.zeros(u.shape[:-1] + vh.shape[-1:], u.dtype)
    e = s[..., None, :] ** 2 - s[..., :, None] ** 2
    e[..., np.arange(k), np.arange(k)] = 1  # any number: only 0 / e is computed there
    inner = 0
    if gu is not None:
        inner = _skew(_mt(u) @ gu) * s[..., None, :]
    if gvh is not None:
        inner = inner + s[..., :, None] * _skew(vh @ _mt(gvh))
    inner = inner / e
    if gs is not None:
        inner = inner + gs[..., :, None] * np.eye(k, dtype=s.dtype)
    if m > k and gu is not None:
        gu_sinv = gu / s[..., None, :]
        return (u @ inner + gu_sinv - u @ (_mt(u) @ gu_sinv)) @ vh
    if n > k and gvh is not None:
        sinv_gvh = gvh / s[..., :, None]
        return u @ (inner @ vh + sinv_gvh - (sinv_gvh @ _mt(vh)) @ vh)
    return u @ inner @ vh


class LinalgEighBackward0(MultiOutputFunction):
    """A = V diag(L) V^T for a symmetric A (read from its lower or upper triangle), eigenvalues L ascending: two
    outputs of one node. With E_ij = L_j - L_i and skew(X) = (X - X^T) / 2, torch's gradient is
    dA = V [skew(V^T gV) / E, gL on the diagonal] V^T (defined only when the eigenvalues differ)."""
    is_view = False

    @staticmethod
    def forward(ctx, a, uplo):
        values, vectors = np.linalg.eigh(a._data, UPLO=uplo)
        if ctx.needs_input_grad:
            ctx.save(eigenvalues=Tensor._make(values), eigenvectors=Tensor._make(vectors))
        return [values, vectors]

    @staticmethod
    def backward(ctx, grads):
        for g in grads:
            _needs_array_only(ctx, g, "eigh")
        gl, gv = grads
        values, vectors = ctx._unpack("eigenvalues", False), ctx._unpack("eigenvectors", False)
        n = values.shape[-1]
        inner = np.zeros(vectors.shape, vectors.dtype)
        if gv is not None:
            vtgv = _mt(vectors) @ gv
            e = values[..., None, :] - values[..., :, None]
            e[..., np.arange(n), np.arange(n)] = 1
            inner = (vtgv - _mt(vtgv)) / 2 / e
        if gl is not None:
            inner[..., np.arange(n), np.arange(n)] = gl
        return vectors @ inner @ _mt(vectors)


def _mt(x: np.ndarray) -> np.ndarray:
    """The transpose of the last two dims."""
    return np.swapaxes(x, -1, -2)


def _skew(x: np.ndarray) -> np.ndarray:
    """x - x^T, twice the antisymmetric part."""
    return x - _mt(x)


class TrilinearBackward0(Function):
    """The bilinear form of ``F.bilinear``: z_bo = sum_ij x_bi W_oij y_bj, for rows x (B, I), y (B, J) and
    W (O, I, J); dx_bi = sum_oj g_bo W_oij y_bj,  dW_oij = sum_b g_bo x_bi y_bj,  dy_bj = sum_oi g_bo x_bi W_oij.
    Torch's ``_trilinear`` as bilinear calls it (x, W, y unsqueezed at (1, 3), (0,), (1, 2), summed over (2, 3)):
    first over i, x with W, then over j with y; each input is kept only when another's gradient needs it.

    >>> x, w, y = (Tensor._make(np.ones(s, np.float32)) for s in ((1, 2), (1, 2, 3), (1, 3)))
    >>> TrilinearBackward0.forward(None, x, w, y).tolist()
    [[6.0]]
    """
    saved_names = ("i1", "i2", "i3", "expand1", "expand2", "expand3", "sumdim")

    @staticmethod
    def forward(ctx, x, w, y):
        a, b, c = x._data, w._data, y._data
        if ctx is not None and ctx.needs_input_grad:
            need = ctx.needs_input_grad
            ctx.save(i1=x if need[1] or need[2] else None, i2=w if need[0] or need[2] else None,
                     i3=y if need[0] or need[1] else None, expand1=(1, 3), expand2=(0,), expand3=(1, 2), sumdim=(2, 3))
        (rows, i), (o, _, j) = a.shape, b.shape
        wide = np.float64 if a.dtype == np.float32 else a.dtype  # float32 summed in float64, rounded once
        first = (a.astype(wide) @ b.transpose(1, 0, 2).reshape(i, o * j).astype(wide)).reshape(rows, o, j)
        return (first @ c[:, :, None].astype(wide))[..., 0].astype(a.dtype)  # over i, then over j

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "bilinear")
        need = ctx.needs_input_grad
        x, w, y = (ctx._unpack(k, False) if need[a] or need[b] else None
                   for k, a, b in (("i1", 1, 2), ("i2", 0, 2), ("i3", 0, 1)))
        return (np.einsum("bo,oij,bj->bi", g, w, y, optimize=True) if need[0] else None,
                np.einsum("bo,bi,bj->oij", g, x, y, optimize=True) if need[1] else None,
                np.einsum("bo,bi,oij->bj", g, x, w, optimize=True) if need[2] else None)


class BlockDiagBackward0(Function):
    """Z = the inputs placed corner to corner down the diagonal of a zero matrix (a vector as one row, a number as
    a 1 x 1 block), in their common dtype;  each input's gradient is its own block of G.

    >>> BlockDiagBackward0.forward(None, Tensor._make(np.array([1, 2])), Tensor._make(np.array([[3]]))).tolist()
    [[1, 2, 0], [0, 0, 3]]
    """

    @staticmethod
    def forward(ctx, *blocks):
        kind = blocks[0]._data.dtype
        for t in blocks[1:]:
            kind = result_type((kind, 2), (t._data.dtype, 2))
        shapes = [(1, 1) if t.ndim == 0 else (1, t.shape[0]) if t.ndim == 1 else tuple(t.shape) for t in blocks]
        out = np.zeros((sum(h for h, _ in shapes), sum(w for _, w in shapes)), kind)
        r = c = 0
        for t, (h, w) in zip(blocks, shapes):
            out[r:r + h, c:c + w] = t._data.reshape(h, w)
            r, c = r + h, c + w
        if ctx is not None:
            ctx._shapes = shapes
        return out

    @staticmethod
    def backward(ctx, g):
        grads, r, c = [], 0, 0
        for (h, w), (shape, _) in zip(ctx._shapes, ctx._meta):
            grads.append(g[r:r + h, c:c + w].reshape(shape))
            r, c = r + h, c + w
        return tuple(grads)
