"""The nodes behind ``nn.LayerNorm`` and ``nn.Embedding``, named as torch names them.

>>> import autograd_tutor as torch
>>> x = torch.tensor([[1., 2., 3.]], requires_grad=True)
>>> y = torch.nn.functional.layer_norm(x, (3,))
>>> y, y.grad_fn._saved_result1, y.grad_fn._saved_result2     # mean 2, 1/sqrt(var + eps) with var = 2/3
(tensor([[-1.2247,  0.0000,  1.2247]], grad_fn=<NativeLayerNormBackward0>), tensor([[2.]]), tensor([[1.2247]]))
"""
from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ..autograd.functions import _needs_array_only, _saved
from ..autograd.more_functions import _unsigned
from ..autograd.tensor import Tensor

__all__: list = []  # used through nn.functional


class NativeLayerNormBackward0(Function):
    """Each row r (the last len(normalized_shape) dims) is standardised, then scaled and shifted:
    mu = mean(r), rstd = 1 / sqrt(var(r) + eps) (biased var), xhat = (r - mu) * rstd, y = xhat * w + b.

    Backward, with N entries per row and dxhat = g * w:
    dr = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)),  dw = sum over rows of g * xhat,
    db = sum over rows of g. The weight or bias left out is an input with no edge, as in torch."""
    saved_names = ("input", "weight", "bias", "result1", "result2")

    @staticmethod
    def forward(ctx, x, weight, bias, normalized_shape, eps, affine):
        d = x._data
        axes = tuple(range(d.ndim - len(normalized_shape), d.ndim))
        wide = d.astype(np.float64)
        mean = wide.mean(axis=axes, keepdims=True)
        rstd = 1 / np.sqrt(((wide - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
        out = (wide - mean) * rstd
        has_w, has_b = affine
        if has_w:
            out = out * weight._data
        if has_b:
            out = out + bias._data
        ctx.save(bias=bias if has_b else None, input=x, weight=weight if has_w else None,  # torch's order
                 normalized_shape=tuple(normalized_shape),
                 result1=Tensor._make(mean.astype(d.dtype)), result2=Tensor._make(rstd.astype(d.dtype)))
        ctx._axes = axes
        return out.astype(d.dtype)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "layer_norm")
        axes = ctx._axes
        saved = _saved(ctx)  # torch's error when a backward without retain_graph freed them
        has_w, has_b = "weight" in saved, "bias" in saved
        if has_b:
            ctx._unpack("bias", False)  # read, as torch's backward reads it, though db does not need it
        dtype = g.dtype
        x = np.float64(ctx._unpack("input", False))  # in float64, rounded once at the end
        w = ctx._unpack("weight", False) if has_w else None
        mean, rstd = np.float64(ctx._unpack("result1", False)), np.float64(ctx._unpack("result2", False))
        g = np.float64(g)
        xhat = (x - mean) * rstd
        dxhat = g * w if has_w else g
        dx = rstd * (dxhat - dxhat.mean(axis=axes, keepdims=True)
                     - xhat * (dxhat * xhat).mean(axis=axes, keepdims=True))
        rows = tuple(range(x.ndim - len(axes)))
        dw = (g * xhat).sum(axis=rows) if has_w else None
        db = g.sum(axis=rows) if has_b else None
        return dx.astype(dtype), None if dw is None else dw.astype(dtype), None if db is None else db.astype(dtype)


class EmbeddingBackward0(Function):
    """z = the rows of the table W at ``indices`` (z[..., :] = W[indices[...], :]);  dW = zeros with each row of
    g added to the row it was read from (a row read twice gets both), none to ``padding_idx``;
    ``scale_grad_by_freq`` divides each row's gradient by how often it was read."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq, sparse):
        w = weight._data
        ctx.save(indices=indices, padding_idx=_unsigned(padding_idx), scale_grad_by_freq=scale_grad_by_freq,
                 sparse=sparse, weight_sym_argsize_0=w.shape[0])
        ctx._padding = padding_idx
        return w[indices._data]

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "embedding")
        idx = ctx._unpack("indices", False).reshape(-1)
        rows = g.reshape(idx.size, -1)
        if ctx.scale_grad_by_freq:
            rows = rows / np.bincount(idx)[idx][:, None]
        out = np.zeros((ctx.weight_sym_argsize_0, rows.shape[1]), g.dtype)
        np.add.at(out, idx, rows)
        if ctx._padding >= 0:
            out[ctx._padding] = 0
        return out
