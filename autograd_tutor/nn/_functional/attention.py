"""``F.scaled_dot_product_attention``: softmax(Q K^T / sqrt(E) + mask) V, composed of recorded ops.

Each query row is a weighted average of the value rows, the weights a softmax of its dot products with the keys,
scaled by 1/sqrt(E) (E the embedding size) so that they do not grow with E. ``is_causal`` lets position i see only
positions <= i (the lower triangle); a boolean ``attn_mask`` keeps where True, a float one is added to the scores.
Torch computes it with a fused CPU kernel, so its last float bits may differ from this plain composition.

>>> import autograd_tutor as torch
>>> q = k = v = torch.eye(2).reshape(1, 2, 2)
>>> scaled_dot_product_attention(q, k, v, is_causal=True)[0, 0]
tensor([1., 0.])
"""
from __future__ import annotations

import math

from ...autograd import dtypes
from ...autograd.factories import ones
from ...autograd.tensor import Tensor
from .activation import softmax
from .dropout import dropout

__all__ = ["scaled_dot_product_attention"]


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """Attention over the last two dims: query (..., L, E), key (..., S, E), value (..., S, Ev) -> (..., L, Ev)."""
    L, S = query.size(-2), key.size(-2)
    scale = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    if enable_gqa:  # grouped-query attention: each key/value head serves several query heads
        key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
        value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    scores = query @ key.transpose(-2, -1) * scale
    if is_causal:
        scores = scores.masked_fill(ones(L, S, dtype=dtypes.bool).tril().logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == dtypes.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    return weights @ value
