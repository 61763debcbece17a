"""``nn.Conv1d`` and ``nn.Conv2d``, and their transposes ``nn.ConvTranspose1d`` and ``nn.ConvTranspose2d``.

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
from ...autograd.tensor import Size, Tensor
from ...devices import check_cpu
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d"]


class _ConvNd(Module):
    """The shared part of Conv1d, Conv2d and their transposes: torch's checks, parameters, initialisation, repr."""
    n = 2
    transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None,
                 output_padding=0) -> None:
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
        self.output_padding = self._tuple(output_padding)
        shape = (in_channels, out_channels // groups) if self.transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(empty(*shape, *kernel_size, dtype=dtype))
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
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
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


class _ConvTransposeNd(_ConvNd):
    """The shared part of ConvTranspose1d and ConvTranspose2d: weight (in_channels, out_channels/groups, *kernel),
    ``output_padding`` (extra rows at the end, to pick one of the input sizes a strided conv maps to the same
    output size), and ``forward(input, output_size)`` that picks it from the size asked for."""
    transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype, output_padding)

    def _output_padding(self, input: Tensor, output_size) -> tuple:
        """output_padding, or the one that makes the output ``output_size`` (each within [min, min + stride - 1])."""
        if output_size is None:
            return self.output_padding
        n = self.n
        lead = 2 if input.dim() == n + 2 else 1
        output_size = list(output_size)
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or {lead + n} "
                             f"elements (got {len(output_size)})")
        smallest = [(input.size(i + lead) - 1) * self.stride[i] - 2 * self.padding[i]
                    + self.dilation[i] * (self.kernel_size[i] - 1) + 1 for i in range(n)]
        largest = [m + s - 1 for m, s in zip(smallest, self.stride)]
        for size, low, high in zip(output_size, smallest, largest):
            if size < low or size > high:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {smallest} "
                                 f"to {largest} (for an input of {Size(input.size()[lead:])})")
        return tuple(size - low for size, low in zip(output_size, smallest))


class ConvTranspose1d(_ConvTransposeNd):
    """The transpose of Conv1d: each input position adds a copy of the kernel, scaled by its value, to the output
    (``stride`` apart): F.conv_transpose1d. Output length (L-1)*stride - 2*padding + dilation*(k-1) +
    output_padding + 1.

    >>> import autograd_tutor as torch
    >>> torch.nn.ConvTranspose1d(4, 2, 3, stride=2)
    ConvTranspose1d(4, 2, kernel_size=(3,), stride=(2,))
    """
    n = 1

    def forward(self, input: Tensor, output_size=None) -> Tensor:
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    """The transpose of Conv2d, a learned upsampling (a DCGAN generator's layers): each input pixel stamps the
    kernel, scaled by its value, onto the output ``stride`` pixels apart: F.conv_transpose2d.

    >>> import autograd_tutor as torch
    >>> up = torch.nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1)       # doubles the height and width
    >>> up, up.weight.shape, up(torch.zeros(1, 8, 5, 5)).shape
    (ConvTranspose2d(8, 4, kernel_size=(4, 4), stride=(2, 2), padding=(1, 1)), torch.Size([8, 4, 4, 4]), torch.Size([1, 4, 10, 10]))
    """

    def forward(self, input: Tensor, output_size=None) -> Tensor:
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)
