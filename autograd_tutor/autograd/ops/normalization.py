"""Normalization layers: ``layer_norm``, ``batch_norm`` and ``group_norm``.

>>> import autograd_tutor as torch
>>> x = torch.tensor([[1., 2., 3.]], requires_grad=True)
>>> y = torch.nn.functional.layer_norm(x, (3,))
>>> y, y.grad_fn._saved_result1, y.grad_fn._saved_result2     # mean 2, 1/sqrt(var + eps) with var = 2/3
(tensor([[-1.2247,  0.0000,  1.2247]], grad_fn=<NativeLayerNormBackward0>), tensor([[2.]]), tensor([[1.2247]]))
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from ..tensor import Tensor
from .numerics import _needs_array_only, _saved
from ..tracebacks import ENGINE_FRAME

__all__ = ["NativeLayerNormBackward0", "NativeBatchNormBackward0", "NativeGroupNormBackward0"]


def _standardised_grad(dxhat, xhat, rstd, axes) -> np.ndarray:
    """The gradient through xhat = (x - mean(x)) * rstd, rstd = 1 / sqrt(var(x) + eps), mean and biased var
    over ``axes``, given dxhat = dL/dxhat: rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat))."""
    return rstd * (dxhat - dxhat.mean(axis=axes, keepdims=True)
                   - xhat * (dxhat * xhat).mean(axis=axes, keepdims=True))


class NativeLayerNormBackward0(Function):
    """Each row r (the last len(normalized_shape) dims) is standardised, then scaled and shifted:
    mu = mean(r), rstd = 1 / sqrt(var(r) + eps) (biased var), xhat = (r - mu) * rstd, y = xhat * w + b.

    Backward, with dxhat = g * w:
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
        __tracebackhide__ = ENGINE_FRAME
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
        dx = _standardised_grad(g * w if has_w else g, xhat, rstd, axes)
        rows = tuple(range(x.ndim - len(axes)))
        dw = (g * xhat).sum(axis=rows) if has_w else None
        db = g.sum(axis=rows) if has_b else None
        return dx.astype(dtype), None if dw is None else dw.astype(dtype), None if db is None else db.astype(dtype)


class NativeBatchNormBackward0(Function):
    """Each channel c (dim 1) is standardised over the batch and all other dims, then scaled and shifted:
    y = (x - mean_c) * rstd_c * w_c + b_c, rstd_c = 1 / sqrt(var_c + eps).

    In training, mean_c and var_c (biased) are the batch's: saved as ``result1`` and ``result2`` (= rstd),
    and the running stats move towards them: running = (1 - momentum) * running + momentum * batch stat,
    with the unbiased variance (times n / (n - 1)) for ``running_var``. Backward is then LayerNorm's formula
    per channel: dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)), dxhat = g * w.
    Otherwise (eval) mean_c and var_c are the running stats, constants: dx = g * w * rstd. In both cases
    dw = sum of g * xhat and db = sum of g over all dims but the channel's.

    Computed in float64 and rounded once, where torch's CPU kernel works in float32: float32 results (and
    the running stats) may differ from torch's in the last bit or two. Not differentiable twice here."""
    saved_names = ("eps", "input", "result1", "result2", "running_mean", "running_var", "training", "weight")

    @staticmethod
    def forward(ctx, x, weight, bias, running_mean, running_var, training, momentum, eps, affine):
        d = x._data
        axes = (0,) + tuple(range(2, d.ndim))
        wide = d.astype(np.float64)
        if training:
            mean = wide.mean(axis=axes)
            var = ((wide - mean[_channel(d)]) ** 2).mean(axis=axes)
            rstd = 1 / np.sqrt(var + eps)
            if running_mean is not None:  # updated in place without a new version, as in torch
                n = d.size // d.shape[1]
                _blend(running_mean, mean, momentum)
                _blend(running_var, var * n / (n - 1), momentum)
            stats = Tensor._make(mean.astype(d.dtype)), Tensor._make(rstd.astype(d.dtype))
        else:
            mean = running_mean._data.astype(np.float64)
            rstd = 1 / np.sqrt(running_var._data.astype(np.float64) + eps)
            stats = Tensor._make(np.zeros(0, d.dtype)), Tensor._make(np.zeros(0, d.dtype))
        has_w, has_b = affine
        scale = rstd * weight._data if has_w else rstd
        shift = bias._data - mean * scale if has_b else -mean * scale
        ctx.save(eps=eps, input=x, result1=stats[0], result2=stats[1], running_mean=running_mean,
                 running_var=running_var, training=training, weight=weight if has_w else None)
        ctx._axes = axes
        return (wide * scale[_channel(d)] + shift[_channel(d)]).astype(d.dtype)

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        _needs_array_only(ctx, g, "batch_norm")
        saved = _saved(ctx)
        axes, dtype, has_w = ctx._axes, g.dtype, "weight" in saved
        x = np.float64(ctx._unpack("input", False))
        view = _channel(x)
        if ctx.training:
            mean, rstd = (np.float64(ctx._unpack(k, False)) for k in ("result1", "result2"))
        else:
            mean = np.float64(ctx._unpack("running_mean", False))
            rstd = 1 / np.sqrt(np.float64(ctx._unpack("running_var", False)) + ctx.eps)
        w = np.float64(ctx._unpack("weight", False))[view] if has_w else 1.0
        g = np.float64(g)
        xhat = (x - mean[view]) * rstd[view]
        dx = _standardised_grad(g * w, xhat, rstd[view], axes) if ctx.training else g * w * rstd[view]
        dw = (g * xhat).sum(axis=axes).astype(dtype) if has_w else None
        return dx.astype(dtype), dw, g.sum(axis=axes).astype(dtype)


class NativeGroupNormBackward0(Function):
    """The C channels of each sample are split into ``group`` groups of C/G channels; each group (its channels
    and all their positions) is standardised as LayerNorm standardises a row, then each channel is scaled and
    shifted: y = (x - mean_ng) * rstd_ng * w_c + b_c. ``result1`` / ``result2`` are the (N, G) means and rstds.
    Backward is LayerNorm's formula per group, with dxhat = g * w_c; dw = sum of g * xhat, db = sum of g,
    over all dims but the channel's. Computed in float64 and rounded once (torch's kernel sums in float32)."""
    saved_names = ("input", "weight", "result1", "result2")

    @staticmethod
    def forward(ctx, x, weight, bias, group, eps, affine):
        d = x._data
        n, c = d.shape[:2]
        grouped = d.astype(np.float64).reshape(n, group, -1)
        mean = grouped.mean(axis=2, keepdims=True)
        rstd = 1 / np.sqrt(((grouped - mean) ** 2).mean(axis=2, keepdims=True) + eps)
        out = ((grouped - mean) * rstd).reshape(d.shape)
        has_w, has_b = affine
        if has_w:
            out = out * weight._data[_channel(d)]
        if has_b:
            out = out + bias._data[_channel(d)]
        ctx.save(C=c, HxW=d.size // max(n * c, 1), N=n, eps=eps, group=group, input=x,
                 result1=Tensor._make(mean.reshape(n, group).astype(d.dtype)),
                 result2=Tensor._make(rstd.reshape(n, group).astype(d.dtype)), weight=weight if has_w else None)
        return out.astype(d.dtype)

    @staticmethod
    def backward(ctx, g):
        __tracebackhide__ = ENGINE_FRAME
        _needs_array_only(ctx, g, "group_norm")
        has_w, dtype = "weight" in _saved(ctx), g.dtype
        x = np.float64(ctx._unpack("input", False))
        n, group = x.shape[0], ctx.group
        mean, rstd = (np.float64(ctx._unpack(k, False)).reshape(n, group, 1) for k in ("result1", "result2"))
        w = np.float64(ctx._unpack("weight", False))[_channel(x)] if has_w else 1.0
        g = np.float64(g)
        xhat = ((x.reshape(n, group, -1) - mean) * rstd).reshape(x.shape)
        dxhat = (g * w).reshape(n, group, -1)
        dx = _standardised_grad(dxhat, xhat.reshape(n, group, -1), rstd, (2,)).reshape(x.shape)
        axes = (0,) + tuple(range(2, x.ndim))
        dw = (g * xhat).sum(axis=axes).astype(dtype) if has_w else None
        return dx.astype(dtype), dw, g.sum(axis=axes).astype(dtype)


def _channel(d: np.ndarray) -> tuple:
    """The index that shapes a per-channel vector to broadcast along dim 1 of ``d``: (None, slice, None, ...)."""
    return (None, slice(None)) + (None,) * (d.ndim - 2)


def _blend(running: Tensor, batch: np.ndarray, momentum: float) -> None:
    running._data[...] = (1 - momentum) * running._data + momentum * batch
