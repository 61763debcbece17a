"""``nn.CosineSimilarity``.
"""
from __future__ import annotations

from ...autograd.tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Module):
    """cos(angle) between x1 and x2 along ``dim``: F.cosine_similarity.

    >>> import autograd_tutor as torch
    >>> torch.nn.CosineSimilarity(dim=0)(torch.tensor([1., 0.]), torch.tensor([0., 2.]))
    tensor(0.)
    """

    def __init__(self, dim: int = 1, eps: float = 1e-08) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
