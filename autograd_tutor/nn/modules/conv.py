"""``nn.Conv1d`` and ``nn.Conv2d``.

>>> import autograd_tutor as torch
>>> from autograd_tutor import nn
>>> _ = torch.manual_seed(0)
>>> net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())
>>> net(torch.randn(4, 1, 6, 6)).shape        # 6x6 -> conv 4x4 -> pool 2x2, times 2 channels
torch.Size([4, 8])
"""
from __future__ import annotations

import math

from ...autograd.factories import empty
from ...autograd.tensor import Tensor
from ...devices import check_cpu
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d"]


class _ConvNd(Module):
    """The shared part of Conv1d and Conv2d: torch's checks, parameters, initialisation and repr."""
    n = 2

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__()
        check_cpu(device)
        kernel_size, stride, dilation = (self._tuple(v) for v in (kernel_size, stride, dilation))
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}  # built as torch builds it: the same order when printed
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got "
                             f"padding_mode='{padding_mode}'")
        if padding_mode != "zeros":
            raise NotImplementedError(f"autograd_tutor pads convolutions with zeros only, not "
                                      f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels, self.kernel_size = in_channels, out_channels, kernel_size
        self.stride, self.dilation, self.groups, self.padding_mode = stride, dilation, groups, padding_mode
        self.padding = padding if isinstance(padding, str) else self._tuple(padding)
        self.transposed, self.output_padding = False, (0,) * self.n
        self.weight = Parameter(empty(out_channels, in_channels // groups, *kernel_size, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _tuple(self, value) -> tuple:
        return (value,) * self.n if isinstance(value, int) else tuple(value)

    def reset_parameters(self) -> None:
        """kaiming_uniform_ with a=sqrt(5): weights and bias in U(-1/sqrt(fan_in), 1/sqrt(fan_in)), where
        fan_in = in_channels / groups * (kernel entries)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                init.uniform_(self.bias, -1 / math.sqrt(fan_in), 1 / math.sqrt(fan_in))

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        return s + (", bias=False" if self.bias is None else "")


class Conv1d(_ConvNd):
    """``out_channels`` kernels of shape (in_channels/groups, kernel_size) slid along a sequence: F.conv1d.

    >>> import autograd_tutor as torch
    >>> torch.nn.Conv1d(2, 4, 3, padding=1)
    Conv1d(2, 4, kernel_size=(3,), stride=(1,), padding=(1,))
    """
    n = 1

    def forward(self, input: Tensor) -> Tensor:
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    """``out_channels`` kernels of shape (in_channels/groups, kh, kw) slid over an image: F.conv2d.
    Input (N, in_channels, H, W) or (in_channels, H, W); output (N, out_channels, H', W').

    >>> import autograd_tutor as torch
    >>> conv = torch.nn.Conv2d(1, 2, 3)
    >>> conv, conv.weight.shape, conv(torch.ones(1, 5, 5)).shape
    (Conv2d(1, 2, kernel_size=(3, 3), stride=(1, 1)), torch.Size([2, 1, 3, 3]), torch.Size([2, 3, 3]))
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
