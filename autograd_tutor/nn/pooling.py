"""More parameter-free layers of a CNN: ``AdaptiveAvgPool1d/2d`` and ``AdaptiveMaxPool1d/2d`` (pool to a given
output size, whatever the input's), ``AvgPool1d``, the pads ``ZeroPad1d/2d`` and ``ConstantPad1d/2d``, and
``CosineSimilarity``, thin wrappers around :mod:`autograd_tutor.nn.functional`.

>>> import autograd_tutor as torch
>>> from autograd_tutor import nn
>>> head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten())   # any image size -> one number per channel
>>> head(torch.ones(4, 8, 5, 7)).shape, head(torch.ones(4, 8, 9, 9)).shape
(torch.Size([4, 8]), torch.Size([4, 8]))
"""
from __future__ import annotations

from ..autograd.tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d",
           "ConstantPad1d", "ConstantPad2d", "ZeroPad1d", "ZeroPad2d", "CosineSimilarity"]


class AdaptiveAvgPool2d(Module):
    """The mean over ``output_size`` windows tiling the last two axes: F.adaptive_avg_pool2d.

    >>> import autograd_tutor as torch
    >>> torch.nn.AdaptiveAvgPool2d((None, 3))
    AdaptiveAvgPool2d(output_size=(None, 3))
    """
    pool = staticmethod(F.adaptive_avg_pool2d)

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return self.pool(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """The mean over ``output_size`` windows tiling the last axis: F.adaptive_avg_pool1d."""
    pool = staticmethod(F.adaptive_avg_pool1d)


class AdaptiveMaxPool2d(AdaptiveAvgPool2d):
    """The largest entry of ``output_size`` windows tiling the last two axes: F.adaptive_max_pool2d."""
    pool = staticmethod(F.adaptive_max_pool2d)

    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input: Tensor):
        return self.pool(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    """The largest entry of ``output_size`` windows tiling the last axis: F.adaptive_max_pool1d."""
    pool = staticmethod(F.adaptive_max_pool1d)


class AvgPool1d(Module):
    """The mean of each window of the last axis (stride = kernel_size unless given): F.avg_pool1d.

    >>> import autograd_tutor as torch
    >>> torch.nn.AvgPool1d(3)
    AvgPool1d(kernel_size=(3,), stride=(3,), padding=(0,))
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


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
