"""Pooling modules: ``nn.MaxPool1d`` / ``2d``, ``nn.AvgPool1d`` / ``2d``, the adaptive poolings.

>>> import autograd_tutor as torch
>>> from autograd_tutor import nn
>>> head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten())   # any image size -> one number per channel
>>> head(torch.ones(4, 8, 5, 7)).shape, head(torch.ones(4, 8, 9, 9)).shape
(torch.Size([4, 8]), torch.Size([4, 8]))
"""
from __future__ import annotations


from ...autograd.tensor import Tensor
from .. import functional as F
from .module import Module
from .padding import _single

__all__ = ["MaxPool2d", "MaxPool1d", "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveAvgPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool1d", "AvgPool1d"]


class MaxPool2d(Module):
    """The largest entry of each window (stride = kernel_size unless given): F.max_pool2d.

    >>> import autograd_tutor as torch
    >>> torch.nn.MaxPool2d(2)
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    """
    pool = staticmethod(F.max_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor):
        return self.pool(input, self.kernel_size, self.stride, self.padding, self.dilation,
                         ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(MaxPool2d):
    """The largest entry of each window along the last axis: F.max_pool1d."""
    pool = staticmethod(F.max_pool1d)


class AvgPool2d(Module):
    """The mean of each window (stride = kernel_size unless given): F.avg_pool2d.

    >>> import autograd_tutor as torch
    >>> torch.nn.AvgPool2d(2)
    AvgPool2d(kernel_size=2, stride=2, padding=0)
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override=None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


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
