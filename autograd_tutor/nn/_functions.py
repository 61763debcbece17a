"""The differentiable operations behind ``nn``: a linear layer and the losses, named as torch names their nodes.

Same pattern as ``autograd/functions.py``: ``forward(ctx, *tensors, **params)`` computes on NumPy arrays,
``backward(ctx, g)`` beside it returns one gradient per tensor input, and ``ctx.save`` keeps what torch keeps
under torch's names (``grad_fn._saved_mat1``, ``grad_fn._saved_reduction``...).

>>> import autograd_tutor as torch
>>> w = torch.tensor([[2., 0.]], requires_grad=True)
>>> y = torch.nn.functional.linear(torch.tensor([[1., 3.]]), w, torch.tensor([1.]))
>>> y, y.grad_fn._saved_mat1, y.grad_fn._saved_mat2   # A is kept to compute dB = A.T @ G; B is not needed
(tensor([[3.]], grad_fn=<AddmmBackward0>), tensor([[1., 3.]]), None)
"""
from __future__ import annotations

import numpy as np

from ..autograd.dtypes import kind_name
from ..autograd.function import Function
from ..autograd.functions import _float, _is_tensor, _mm, _mm_shapes_error, _promote, _saved, _strides
from ..autograd.tensor import Tensor

__all__: list = []  # used through nn.functional

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}  # torch's Reduction enum, as saved in ``_saved_reduction``


class AddmmBackward0(Function):
    """Z = bias + A @ B (broadcast over rows);  dbias = sum of G over rows,  dA = G @ B.T,  dB = A.T @ G."""
    saved_names = ("mat1", "mat2")

    @staticmethod
    def forward(ctx, bias, mat1, mat2):
        a, b, c = mat1._data, mat2._data, bias._data
        if a.dtype != b.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {kind_name(a)} and {kind_name(b)}")
        if c.dtype != b.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {kind_name(c)} and {kind_name(b)}")
        if a.shape[1] != b.shape[0]:
            raise _mm_shapes_error(a, b)
        shape = (a.shape[0], b.shape[1])
        try:
            fits = c.ndim <= 2 and np.broadcast_shapes(c.shape, shape) == shape
        except ValueError:
            fits = False
        if not fits:
            Tensor._make(c).expand(*shape)  # raises torch's expand error
        _, need_a, need_b = ctx.needs_input_grad or (False, False, False)
        ctx.save(mat1=mat1 if need_b else None, mat2=mat2 if need_a else None, alpha=1, beta=1,
                 mat1_sym_sizes=a.shape, mat1_sym_strides=_strides(a) if need_a else (),
                 mat2_sym_sizes=b.shape, mat2_sym_strides=_strides(b) if need_b else ())
        return _mm(a, b) + c

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        saved = _saved(ctx)
        a = ctx._unpack("mat1", t) if "mat1" in saved else None
        b = ctx._unpack("mat2", t) if "mat2" in saved else None
        return g, (_mm(g, b.T) if b is not None else None), (_mm(a.T, g) if a is not None else None)


class MseLossBackward0(Function):
    """L = reduce((x - y)**2);  dL/dx = 2 (x - y) g (divided by n for 'mean'),  dL/dy = -dL/dx."""
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, target, reduction):
        ctx.save(self=x, target=target, reduction=reduction)
        a, b = _promote(x, target)
        a = a if a.dtype.kind == "f" else a.astype(np.float32)
        diff = a - b
        squares = diff * diff
        return squares if reduction == 0 else squares.sum() if reduction == 2 else squares.mean()

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, y = ctx._unpack("self", t), ctx._unpack("target", t)
        scale = 2 / int(np.prod(x.shape)) if ctx.reduction == 1 else 2
        gx = g * scale * (x - y)
        return gx, -gx


def _class_weights(target: np.ndarray, weight, ignore_index: int, dtype) -> tuple:
    """Each sample's class (0 where ignored) and its weight (0 where ignored), for a 1-D target."""
    valid = target != ignore_index
    safe = np.where(valid, target, 0)
    w = weight[safe].astype(dtype) if weight is not None else np.ones(target.shape, dtype)
    return safe, w * valid


def _signed(index: int) -> int:
    """The ignore_index that torch shows as unsigned (``-100`` is saved as ``2**64 - 100``), signed again."""
    return index - 2 ** 64 if index >= 2 ** 63 else index


class NllLossBackward0(Function):
    """L = -sum_i w[y_i] x[i, y_i] (divided by sum_i w[y_i] for 'mean');  dL/dx[i, y_i] = -w[y_i] g (same divisor).

    ``x`` holds log-probabilities, (N, C) or (C,); the target ``y`` holds class indices and gets no gradient.
    """
    saved_names = ("self", "target", "weight", "total_weight")

    @staticmethod
    def forward(ctx, x, target, weight, reduction, ignore_index):
        d = x._data
        rows = d.reshape(-1, d.shape[-1])
        y = target._data.reshape(-1).astype(np.int64)
        bad = (y != ignore_index) & ((y < 0) | (y >= rows.shape[1]))
        if bad.any():
            raise IndexError(f"Target {y[bad][0]} is out of bounds.")
        safe, w = _class_weights(y, None if weight is None else weight._data, ignore_index, d.dtype)
        losses = -w * rows[np.arange(len(y)), safe]
        total = w.sum(dtype=d.dtype) if reduction else d.dtype.type(0)  # torch leaves it 0 for 'none'
        ctx.save(self=x, target=target, weight=weight, total_weight=Tensor._make(np.asarray(total)),
                 reduction=reduction, ignore_index=ignore_index % 2 ** 64)  # torch shows it as unsigned
        if reduction == 0:
            return losses.reshape(target._data.shape) if d.ndim == 2 else losses.reshape(())
        with np.errstate(invalid="ignore", divide="ignore"):
            return losses.sum() if reduction == 2 else losses.sum() / total

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", False)
        y = ctx._unpack("target", False).reshape(-1).astype(np.int64)
        weight = ctx._unpack("weight", False) if "weight" in _saved(ctx) else None
        safe, w = _class_weights(y, weight, _signed(ctx.ignore_index), x.dtype)
        coef = np.zeros((len(y), x.shape[-1]), x.dtype)
        coef[np.arange(len(y)), safe] = -w
        if ctx.reduction == 1:
            with np.errstate(invalid="ignore", divide="ignore"):
                coef = coef / ctx._unpack("total_weight", False)
        if ctx.reduction == 0:
            g = g.reshape(-1, 1)
        return (coef * g).reshape(x.shape)


class DivBackward1(Function):
    """z = x / c for a number c;  dz/dx = 1 / c."""

    @staticmethod
    def forward(ctx, x, other):
        ctx.save(other=other)
        d = _float(x)
        return d / np.asarray(other, d.dtype)

    @staticmethod
    def backward(ctx, g):
        return g / ctx.other


class MulBackward1(Function):
    """z = x * c for a number c;  dz/dx = c."""

    @staticmethod
    def forward(ctx, x, other):
        ctx.save(other=other)
        d = _float(x)
        return d * np.asarray(other, d.dtype)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.other


class MaskedFillBackward0(Function):
    """z = x with ``value`` where ``mask`` is true;  dz/dx = 1 where the mask is false, else 0."""
    saved_names = ("mask",)

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.save(mask=mask)
        return np.where(mask._data, np.asarray(value, x._data.dtype), x._data)

    @staticmethod
    def backward(ctx, g):
        return g * ~ctx._unpack("mask", False)
