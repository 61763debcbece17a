"""``nn.Identity``, ``nn.Linear`` (and ``NonDynamicallyQuantizableLinear``, attention's output projection) and
``nn.Bilinear``.
"""
from __future__ import annotations

import math

from ...autograd.factories import empty
from ...autograd.tensor import Tensor
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["Identity", "Linear", "NonDynamicallyQuantizableLinear", "Bilinear"]


class Identity(Module):
    """Returns its input unchanged (a placeholder; any constructor arguments are ignored)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


def _register_bias(layer: Module, wanted: bool, size: int, dtype, device) -> None:
    """Give ``layer`` its ``bias`` of ``size`` numbers, or a ``None`` one it still lists (as torch does), then draw
    its starting weights."""
    if wanted:
        layer.bias = Parameter(empty(size, dtype=dtype, device=device))
    else:
        layer.register_parameter("bias", None)
    layer.reset_parameters()


class Linear(Module):
    """y = x W^T + b, with W of shape (out_features, in_features) and b of shape (out_features,).

    Both start uniform in [-1/sqrt(in_features), 1/sqrt(in_features)], as in torch.

    >>> import autograd_tutor as torch
    >>> layer = torch.nn.Linear(3, 2)
    >>> layer.weight.shape, layer.bias.shape, layer(torch.ones(4, 3)).grad_fn.name()
    (torch.Size([2, 3]), torch.Size([2]), 'AddmmBackward0')
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in_features, dtype=dtype, device=device))
        _register_bias(self, bias, out_features, dtype, device)

    def reset_parameters(self) -> None:
        """Draw fresh starting weights: kaiming_uniform_ with a=sqrt(5), i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under another name, as torch names ``MultiheadAttention.out_proj`` (its quantization tools leave
    it alone); it prints as ``NonDynamicallyQuantizableLinear(in_features=..., ...)``."""


class Bilinear(Module):
    """y_o = x1^T W_o x2 + b_o, with W of shape (out_features, in1_features, in2_features), b (out_features,).

    Both start uniform in [-1/sqrt(in1_features), 1/sqrt(in1_features)], as in torch.

    >>> import autograd_tutor as torch
    >>> layer = torch.nn.Bilinear(3, 4, 2)
    >>> layer.weight.shape, layer(torch.ones(5, 3), torch.ones(5, 4)).shape
    (torch.Size([2, 3, 4]), torch.Size([5, 2]))
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        self.weight = Parameter(empty(out_features, in1_features, in2_features, dtype=dtype, device=device))
        _register_bias(self, bias, out_features, dtype, device)

    def reset_parameters(self) -> None:
        """Draw fresh starting weights, W and b from U(-1/sqrt(in1_features), 1/sqrt(in1_features))."""
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
