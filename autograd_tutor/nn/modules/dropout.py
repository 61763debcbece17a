"""``nn.Dropout`` (each entry) and ``nn.Dropout2d`` (whole channels).
"""
from __future__ import annotations


from ...autograd.tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout2d"]


class Dropout(Module):
    """Zero each entry with probability ``p`` while training and scale the rest by 1 / (1 - p); pass the input
    through unchanged after ``model.eval()``."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout2d(Module):
    """Zero whole channels with probability ``p`` while training (scaling the kept ones by 1 / (1 - p)); pass
    the input through unchanged after ``model.eval()``."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
