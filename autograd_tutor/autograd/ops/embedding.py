"""``embedding``: rows of a table picked by index; the gradient adds into the rows that were picked.
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from .numerics import _needs_array_only

__all__ = ["EmbeddingBackward0", "EmbeddingBagBackward0"]


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


class EmbeddingBagBackward0(Function):
    """Each bag of indices (a row of a 2-D input, or a run of a 1-D input between ``offsets``) becomes one row:
    z_b = sum_i w_i W[idx_i] ('sum', with per-sample weights w or 1s), that sum over the bag's size ('mean'),
    or the elementwise max ('max'); indices equal to ``padding_idx`` are left out, an empty bag gives zeros.
    dW[idx_i] += g_b w_i (g_b / size for 'mean'; for 'max', into the row each max came from);
    dw_i = g_b . W[idx_i]."""
    saved_names = ("weight", "indices", "offsets", "mode", "padding_idx", "per_sample_weights",
                   "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")

    @staticmethod
    def forward(ctx, weight, per_sample_weights, indices, offsets, mode, padding_idx, weighted):
        w, idx = weight._data, indices._data
        scales = per_sample_weights._data if weighted else None
        ctx.save(weight=weight, indices=indices, offsets=offsets, mode={"sum": 0, "mean": 1, "max": 2}[mode],
                 padding_idx=padding_idx, scale_grad_by_freq=False, sparse=False,
                 weight_sym_argsize_0=w.shape[0])
        if weighted:
            ctx.save(per_sample_weights=per_sample_weights)
        starts = offsets._data.tolist()
        ends = starts[1:] + [idx.size]
        out = np.zeros((len(starts), w.shape[1]), w.dtype)
        bags, argmax = [], np.zeros(out.shape, np.int64)
        for b, (start, end) in enumerate(zip(starts, ends)):
            members = [i for i in range(start, end) if idx[i] != padding_idx]
            bags.append(members)
            if not members:
                continue
            if mode == "max":
                rows = w[idx[members]]
                argmax[b] = idx[members][np.argmax(rows, axis=0)]
                out[b] = rows.max(axis=0)
                continue
            total = np.zeros(w.shape[1], w.dtype)
            for i in members:  # in the bag's order, one row after the other, as torch's kernel adds them
                total += w[idx[i]] if scales is None else w[idx[i]] * scales[i]
            out[b] = total / w.dtype.type(len(members)) if mode == "mean" else total
        ctx._members, ctx._mode, ctx._argmax = bags, mode, argmax
        return out

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "embedding_bag")
        w = ctx._unpack("weight", False)
        idx = ctx._unpack("indices", False)
        dw = np.zeros(w.shape, g.dtype)
        scales = ctx._unpack("per_sample_weights", False) if "per_sample_weights" in ctx._saved else None
        d_scales = None if scales is None else np.zeros(scales.shape, g.dtype)
        for b, members in enumerate(ctx._members):
            if not members:
                continue
            if ctx._mode == "max":
                np.add.at(dw, (ctx._argmax[b], np.arange(w.shape[1])), g[b])
                continue
            row = g[b] / g.dtype.type(len(members)) if ctx._mode == "mean" else g[b]
            for i in members:
                each = row if scales is None else row * scales[i]
                dw[idx[i]] += each
                if d_scales is not None:
                    d_scales[i] = g[b] @ w[idx[i]]
        return dw, d_scales
