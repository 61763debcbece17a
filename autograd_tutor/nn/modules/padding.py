"""``nn.ConstantPad1d`` / ``2d`` and ``nn.ZeroPad1d`` / ``2d``.
"""
from __future__ import annotations

from ...autograd.tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["ConstantPad2d", "ConstantPad1d", "ZeroPad2d", "ZeroPad1d"]


def _single(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class ConstantPad2d(Module):
    """``value`` around the last two axes: F.pad(input, padding, value=value); ``padding`` is one int for all
    four sides or (left, right, top, bottom).

    >>> import autograd_tutor as torch
    >>> torch.nn.ConstantPad2d(1, 3.5)
    ConstantPad2d(padding=(1, 1, 1, 1), value=3.5)
    """
    sides = 4

    def __init__(self, padding, value: float) -> None:
        super().__init__()
        self.padding = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * self.sides
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(ConstantPad2d):
    """``value`` before and after the last axis: padding is one int or (left, right)."""
    sides = 2


class ZeroPad2d(ConstantPad2d):
    """Zeros around the last two axes (what a convolution's ``padding`` adds, as a layer of its own).

    >>> import autograd_tutor as torch
    >>> torch.nn.ZeroPad2d((1, 0, 0, 1))(torch.ones(1, 1, 1))
    tensor([[[0., 1.],
             [0., 0.]]])
    """

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(ZeroPad2d):
    """Zeros before and after the last axis."""
    sides = 2
