"""``F.scaled_dot_product_attention``: softmax(Q K^T / sqrt(E) + mask) V, composed of recorded ops; and
``F.multi_head_attention_forward``, what ``nn.MultiheadAttention`` runs: project, split into heads, attend, join.

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
import warnings

from ...autograd import dtypes
from ...autograd.factories import ones, zeros, zeros_like
from ...autograd.tensor import Tensor
from ...ops import cat
from .activation import softmax
from .dropout import dropout
from .linear import linear
from .padding import pad

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]


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


def multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn: bool, dropout_p: float,
                                 out_proj_weight: Tensor, out_proj_bias, training: bool = True,
                                 key_padding_mask=None, need_weights: bool = True, attn_mask=None,
                                 use_separate_proj_weight: bool = False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights: bool = True,
                                 is_causal: bool = False) -> tuple:
    """Multi-head attention on (L, N, E) queries and (S, N, E) keys and values (or unbatched (L, E), (S, E)):
    q, k, v = the input projections (in_proj_weight's three blocks of E rows); each of the ``num_heads`` heads
    attends with its own E/num_heads columns: softmax(q_h k_h^T / sqrt(E/h) + mask) v_h; the heads' outputs,
    side by side, go through out_proj. Returns the output (L, N, E) and, with ``need_weights``, the attention
    weights (N, L, S) averaged over the heads (or (N, h, L, S)). Masks: ``attn_mask`` (L, S) or (N*h, L, S) and
    ``key_padding_mask`` (N, S), boolean (True = not attended) or float (added to the scores)."""
    if static_k is not None or static_v is not None:
        raise NotImplementedError("autograd_tutor's multi_head_attention_forward has no static_k / static_v")
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the scaled_dot_product_attention below applies is_causal itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
        biases = (None,) * 3 if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = (linear(x, w, b) for x, w, b in zip((query, key, value), (q_proj_weight, k_proj_weight,
                                                                              v_proj_weight), biases))
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:  # one more key and value, learned, that every query can attend
        k, v = cat([k, bias_k.repeat(1, bsz, 1)]), cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if add_zero_attn:  # and one more key and value of zeros
        k = cat([k, zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype)], dim=1)
        v = cat([v, zeros((bsz * num_heads, 1, head_dim), dtype=v.dtype)], dim=1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(head_dim))
        if attn_mask is not None:
            weights = attn_mask.baddbmm(q_scaled, k.transpose(-2, -1))
        else:
            weights = q_scaled.bmm(k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = weights.bmm(v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q, k, v = (t.view(bsz, num_heads, -1, head_dim) for t in (q, k, v))
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
    return (out if is_batched else out.squeeze(1)), None


def _in_projection_packed(q, k, v, w, b) -> tuple:
    """q, k, v times the three (E, E) blocks of w: one product for self-attention (q is k is v), split after."""
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b).unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv[0], kv[1]
    biases = (None,) * 3 if b is None else b.chunk(3)
    return tuple(linear(x, w_x, b_x) for x, w_x, b_x in zip((q, k, v), w.chunk(3), biases))


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads: int) -> bool:
    """True for a batched (3-D) query, False for an unbatched (2-D) one; torch's AssertionError otherwise."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError(f"For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError(f"For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError(f"For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                     f"but found {attn_mask.dim()}-D tensor instead")
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                         "tensor")


def _none_or_dtype(t):
    return None if t is None else t.dtype


def _canonical_mask(mask, mask_name: str, other_type, other_name: str, target_type, check_other: bool = True):
    """A boolean mask as a float one (-inf where True, 0 elsewhere); a float mask as it is."""
    if mask is None:
        return None
    if mask.dtype != dtypes.bool and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if not mask.is_floating_point():
        mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask
