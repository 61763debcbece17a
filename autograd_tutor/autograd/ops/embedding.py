"""``embedding``: rows of a table picked by index; the gradient adds into the rows that were picked.
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from .numerics import _needs_array_only

__all__ = ["EmbeddingBackward0"]


class EmbeddingBackward0(Function):
    """z = the rows of the table W at ``indices`` (z[..., :] = W[indices[...], :]);  dW = zeros with each row of
    g added to the row it was read from (a row read twice gets both), none to ``padding_idx``;
    ``scale_grad_by_freq`` divides each row's gradient by how often it was read."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq, sparse):
        w = weight._data
        ctx.save(indices=indices, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse,
                 weight_sym_argsize_0=w.shape[0])
        ctx.show(padding_idx=padding_idx)
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
