"""Tensor methods of linear algebra: ``@`` / ``matmul``, ``mm``, ``bmm``, ``mv``, ``dot``, ``addmm``, ``outer``,
``diag``, ``diagonal``, ``trace``, ``tril`` / ``triu``, ``cross``, ``svd``.
"""
from __future__ import annotations

import numpy as np

from ..dtypes import kind_name
from ..function import shown
from ..ops.linalg import (AddmmBackward0, BaddbmmBackward0, BmmBackward0, DiagEmbedBackward0, DiagonalBackward0, DiagonalBackward0_copy,
                          DotBackward0, LinalgCrossBackward0, LinalgSvdBackward0, MmBackward0, MvBackward0,
                          TraceBackward0, TrilBackward0, TriuBackward0)
from ..ops.shape import SqueezeBackward4, UnsafeViewBackward0
from ..ops.solvers import check_square, LinalgDetBackward0, LinalgInvExBackward0
from ..tensor import _broadcast_shape, _dim, _warn_once, _wrap, return_types, Tensor
from ..tracebacks import ENGINE_FRAME

CROSS_WITHOUT_DIM = ("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                     "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                     "with that of linalg.cross in a future release. (Triggered internally at "
                     "/__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)")

__all__: list = []  # every method is in the class below


def _should_fold(t1: "Tensor", t2: "Tensor") -> bool:
    """torch's choice for matmul with one operand of 3 or more dims and the other of 1 or 2: fold the big one's
    batch into rows (one mm) when the small one requires grad (its gradient is then one mm, not a sum over an
    expanded batch), or when the big one's batch dims are contiguous and the big one is the left operand."""
    larger = t1.ndim >= t2.ndim
    big = t1._data if larger else np.swapaxes(t2._data, -1, -2)  # t2.mT, without recording it
    if not (big.ndim >= 3 and (t2 if larger else t1).ndim <= 2):
        return False
    if (t2 if larger else t1)._requires_grad:
        return True
    if t1.ndim == 2:
        return False
    if big.size == 0:
        return True
    strides = [s // big.itemsize for s in big.strides]
    return all(strides[i] == strides[i + 1] * big.shape[i + 1] for i in range(big.ndim - 2))


def _batched_matmul(t1: "Tensor", t2: "Tensor") -> "Tensor":
    """matmul with broadcast batch dims, as torch records it: both operands expanded to the common batch shape
    and flattened into one batch, one BmmBackward0, then viewed back (a 1-D right operand as a column)."""
    a, b = t1.ndim, t2.ndim
    n, k = (t1.shape[-2] if a > 1 else 1), t1.shape[-1]
    k2, p = (t2.shape[-2], t2.shape[-1]) if b > 1 else (t2.shape[0], 1)
    batch1, batch2 = tuple(t1.shape[:max(a - 2, 0)]), tuple(t2.shape[:max(b - 2, 0)])
    if a == 3 and b == 3 and batch1[0] != batch2[0]:  # a batch of one that requires grad is squeezed away
        if batch1[0] == 1 and t1._requires_grad:
            return t1.squeeze(0).matmul(t2)
        if batch2[0] == 1 and t2._requires_grad:
            return t1.matmul(t2.squeeze(0))
    batch = _broadcast_shape(batch1, batch2)
    count = int(np.prod(batch))
    lhs = t1.expand(*batch, n, k).reshape(count, n, k)
    if b == 1:
        rhs = t2.expand(*batch, k2).reshape(count, k2).unsqueeze(2)
    else:
        rhs = t2.expand(*batch, k2, p).reshape(count, k2, p)
    out = lhs.bmm(rhs)
    shape = batch + ((n,) if a > 1 else ()) + ((p,) if b > 1 else ())
    return UnsafeViewBackward0.apply(out.squeeze(-1) if b == 1 else out, shape=shape)


def _unsafe_view(x: Tensor, shape: tuple) -> Tensor:
    """torch's ``_unsafe_view``: a view's new shape (refused where ``view`` refuses it) recorded as a copy."""
    if not x.is_contiguous():
        x.detach().view(shape)  # raises torch's error when no view has that shape
    return UnsafeViewBackward0.apply(x, shape=shape)


class LinalgMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def kron(self, other) -> "Tensor":
        """The Kronecker product: every entry a_ij of ``input`` replaced by the block a_ij * other, so an (m, n) and a
        (p, q) matrix give an (m p, n q) one. As torch: both viewed with interleaved size-1 dims (the shorter shape
        padded in front), one broadcast product (MulBackward0), then viewed as the result (UnsafeViewBackward0).

        >>> import autograd_tutor as torch
        >>> torch.kron(torch.eye(2), torch.tensor([[1, 2], [3, 4]]))
        tensor([[1., 2., 0., 0.],
                [3., 4., 0., 0.],
                [0., 0., 1., 2.],
                [0., 0., 3., 4.]])
        """
        input, other = self, _wrap(other)
        ndim = max(input.ndim, other.ndim)
        a_shape = [1] * (ndim - input.ndim) + list(input.shape)
        b_shape = [1] * (ndim - other.ndim) + list(other.shape)
        a_view = tuple(s for size in a_shape for s in (size, 1))
        b_view = tuple(s for size in b_shape for s in (1, size))
        return _unsafe_view(_unsafe_view(input, a_view) * _unsafe_view(other, b_view),
                            tuple(p * q for p, q in zip(a_shape, b_shape)))


    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        """beta * self + alpha * (mat1 @ mat2): one AddmmBackward0 node (what ``nn.Linear`` records)."""
        for name, m in (("mat1", mat1), ("mat2", mat2)):
            if m.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
        return AddmmBackward0.apply(self, mat1, mat2, beta=beta, alpha=alpha)

    def outer(self, vec2):
        """The outer product v w^T: torch computes it as ``v.reshape(-1, 1) * w`` (ViewBackward0, MulBackward0)."""
        for name, v in (("self", self), ("vec2", vec2)):
            if v.ndim != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.ndim}-D")
        return self.reshape(-1, 1) * vec2

    ger = outer

    def diag(self, diagonal=0):
        """A vector on the diagonal of a new matrix (DiagEmbedBackward0), or a matrix's diagonal as a vector."""
        if self.ndim == 1:
            return DiagEmbedBackward0.apply(self, offset=diagonal)
        if self.ndim == 2:
            return DiagonalBackward0_copy.apply(self, offset=diagonal)
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")

    def diag_embed(self, offset=0, dim1=-2, dim2=-1):
        """The last dim written on the ``offset`` diagonal over dims dim1 and dim2 of a new tensor one dim
        larger, zeros elsewhere: a (B, n) batch of vectors gives a (B, n, n) batch of diagonal matrices."""
        d1, d2 = _dim(dim1, self.ndim + 1), _dim(dim2, self.ndim + 1)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return DiagEmbedBackward0.apply(self, offset=offset, dim1=dim1, dim2=dim2)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        """The ``offset`` diagonal over dims dim1 and dim2, as a view whose last dim runs along it:
        ``m.diagonal()`` of a matrix is (m[0, 0], m[1, 1], ...); a (2, 3, 3) batch gives shape (2, 3)."""
        d1, d2 = _dim(dim1, self.ndim), _dim(dim2, self.ndim)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return shown(DiagonalBackward0.apply(self, offset=offset, dim1=d1, dim2=d2), dim1=dim1, dim2=dim2)

    def trace(self):
        if self.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.ndim}")
        return TraceBackward0.apply(self)

    def tril(self, diagonal=0):
        if self.ndim < 2:
            raise RuntimeError("tril: input tensor must have at least 2 dimensions")
        return TrilBackward0.apply(self, diagonal=diagonal)

    def triu(self, diagonal=0):
        if self.ndim < 2:
            raise RuntimeError("triu: input tensor must have at least 2 dimensions")
        return TriuBackward0.apply(self, diagonal=diagonal)

    def matmul(self, other):
        """``@``: dot (1-D·1-D), mv (2-D·1-D), mm (2-D·2-D), and for more dims torch's graph: the batch folded
        into the rows of one mm or mv where torch folds it, else the batch dims broadcast, flattened, and one bmm."""
        __tracebackhide__ = ENGINE_FRAME
        if type(other) is Tensor and self._data.ndim == 2 and other._data.ndim == 2:  # the common case, first
            return MmBackward0.apply(self, other)
        other = _wrap(other)
        a, b = self.ndim, other.ndim
        if a == 0 or b == 0:
            raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
        if a == 1 and b == 1:
            return self.dot(other)
        if a == 2 and b == 1:
            return self.mv(other)
        if a == 1 and b == 2:
            return shown(SqueezeBackward4.apply(self.unsqueeze(0).mm(other), dims=(0,)), dim=0)
        if a == 2 and b == 2:
            return self.mm(other)
        if _should_fold(self, other):  # (..., n, k) @ (k, m) or (k,): one mm or mv on the folded batch
            transpose = b > a
            big, small = (other.mT, self.t() if a == 2 else self) if transpose else (self, other)
            shape = big.shape[:-1]
            rows = big.reshape(int(np.prod(shape)), big.shape[-1])
            if small.ndim == 1:
                return UnsafeViewBackward0.apply(rows.mv(small), shape=tuple(shape))
            out = UnsafeViewBackward0.apply(rows.mm(small), shape=(*shape, small.shape[1]))
            return out.mT.contiguous() if transpose else out
        return _batched_matmul(self, other)

    def bmm(self, mat2):
        """Batched matrix product, batch by batch: (b, n, k) @ (b, k, m) -> (b, n, m), one BmmBackward0."""
        mat2 = _wrap(mat2)
        if self.ndim != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if mat2.ndim != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        b, _, k = self._data.shape
        if mat2._data.shape[:2] != (b, k):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but got: "
                               f"[{mat2._data.shape[0]}, {mat2._data.shape[1]}].")
        return BmmBackward0.apply(self, mat2)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        """beta * self + alpha * batch1.bmm(batch2), self broadcast to the products' shape: one BaddbmmBackward0."""
        batch1, batch2 = _wrap(batch1), _wrap(batch2)
        for name, m in (("batch1", batch1), ("batch2", batch2)):
            if m.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        b, n, k = batch1._data.shape
        if batch2._data.shape[:2] != (b, k):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but got: "
                               f"[{batch2._data.shape[0]}, {batch2._data.shape[1]}].")
        self.expand(b, n, batch2._data.shape[2])  # raises torch's error for a self that does not broadcast
        return BaddbmmBackward0.apply(self, batch1, batch2, beta=beta, alpha=alpha)

    def mm(self, other):
        if self.ndim != 2:
            raise RuntimeError("self must be a matrix")
        if other.ndim != 2:
            raise RuntimeError("mat2 must be a matrix")
        return MmBackward0.apply(self, other)

    def mv(self, vec):
        if self.ndim != 2 or vec.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, {vec.ndim}")
        return MvBackward0.apply(self, vec)

    def cross(self, other, dim=None):
        """The cross product of the 3-vectors along ``dim`` (``torch.linalg.cross``); without ``dim``, the first
        dim of size 3, with torch's deprecation warning."""
        if dim is None:
            _warn_once(CROSS_WITHOUT_DIM, stacklevel=4)
            dim = next((i for i, n in enumerate(self.shape) if n == 3), None)
            if dim is None:
                raise RuntimeError("no dimension of size 3 in input")
        return self._linalg_cross(other, dim)

    def _linalg_cross(self, other, dim):
        if self.ndim != other.ndim:
            raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
        d = _dim(dim, self.ndim)
        if self.shape[d] != 3 or other.shape[d] != 3:
            raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {self.shape[d]} and "
                               f"{other.shape[d]}")
        _broadcast_shape(self._data.shape, other._data.shape)
        if self._data.dtype != other._data.dtype:
            raise RuntimeError(f"expected scalar type {kind_name(self._data)} but found {kind_name(other._data)}")
        return shown(LinalgCrossBackward0.apply(self, other, dim=d), dim=dim)

    def _linalg_svd(self, full_matrices: bool, linalg: bool = True) -> tuple:
        """U, S, Vh of the last two dims: three outputs of one LinalgSvdBackward0 node (``linalg``: the error
        messages of ``torch.linalg.svd``, else of ``torch.svd``)."""
        if self.ndim < 2:
            raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions." if linalg else
                               f"linalg.svd: input should have at least 2 dimensions, but has {self.ndim} dimensions "
                               "instead")
        if self._data.dtype.kind != "f":
            raise RuntimeError(f"linalg.svd: Expected a floating point or complex tensor as input. Got "
                               f"{kind_name(self._data)}")
        return LinalgSvdBackward0.apply(self, full_matrices=bool(full_matrices))

    def inverse(self):
        """A^-1 of each square matrix (``torch.linalg.inv``); a singular one raises torch.linalg.LinAlgError."""
        check_square("linalg.inv", self)
        return LinalgInvExBackward0.apply(self)

    def det(self):
        """The determinant of each square matrix (``torch.linalg.det``)."""
        check_square("linalg.det", self)
        return LinalgDetBackward0.apply(self)

    def svd(self, some=True, compute_uv=True):
        """``torch.svd``: U, S and V (not Vh) with A = U diag(S) V^T; ``some=False`` gives square U and V;
        ``compute_uv=False`` only S (U and V are zeros)."""
        u, s, vh = self._linalg_svd(not some, linalg=False)
        if not compute_uv:
            u, v = (Tensor._make(np.zeros(self.shape[:-2] + (k, k), self._data.dtype)) for k in self.shape[-2:])
            return return_types.svd((u, s, v))
        return return_types.svd((u, s, vh.transpose(-2, -1)))

    def dot(self, other):
        if self.ndim != 1 or other.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {self.ndim}D and {other.ndim}D tensors")
        return DotBackward0.apply(self, other)

