"""``nn.Flatten`` and ``nn.Unflatten``.
"""
from __future__ import annotations


from ...autograd.tensor import Tensor
from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Flattens dims ``start_dim`` to ``end_dim`` into one: (N, 28, 28) becomes (N, 784)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dim ``dim`` into ``unflattened_size``, the inverse of Flatten: (N, 784) becomes (N, 1, 28, 28)."""

    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
