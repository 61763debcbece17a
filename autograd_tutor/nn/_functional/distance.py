"""``F.normalize`` and ``F.cosine_similarity``.
"""
from __future__ import annotations

from ...autograd import grad_mode
from ...autograd.tensor import _broadcast_shape, Tensor

__all__ = ["normalize", "cosine_similarity"]


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None) -> Tensor:
    """x / max(||x||_p, eps) along ``dim``: each slice scaled to length 1. Recorded as torch does:
    ``input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)``."""
    return input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """cos(angle) = <x1, x2> / (||x1|| ||x2||) along ``dim`` (the inputs broadcast together). Recorded as torch
    does: each input divided by its norm (a clone, clamped to ``eps`` without recording), then multiplied and
    summed."""
    if x1.shape != x2.shape:
        shape = _broadcast_shape(tuple(x1.shape), tuple(x2.shape))
        x1, x2 = x1.expand(*shape), x2.expand(*shape)
    n1, n2 = x1.norm(2, dim, keepdim=True).clone(), x2.norm(2, dim, keepdim=True).clone()
    with grad_mode.no_grad():
        n1.clamp_(min=eps)
        n2.clamp_(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)
