"""``nn.CosineSimilarity``, ``nn.PairwiseDistance``.
"""
from __future__ import annotations

from ...autograd.tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["CosineSimilarity", "PairwiseDistance"]


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


class PairwiseDistance(Module):
    """||x1 - x2 + eps||_p of each row pair: F.pairwise_distance.

    >>> import autograd_tutor as torch
    >>> torch.nn.PairwiseDistance(p=1, eps=0.)(torch.tensor([[1., 2.]]), torch.tensor([[0., 0.]]))
    tensor([3.])
    """

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
