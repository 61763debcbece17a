"""``nn.LayerNorm``, ``nn.GroupNorm`` and ``nn.RMSNorm``.
"""
from __future__ import annotations

import numbers

from ...autograd.factories import empty
from ...autograd.tensor import Tensor
from ...devices import check_cpu
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "GroupNorm", "RMSNorm"]


def _normalizes(module: Module, normalized_shape, eps, elementwise_affine: bool, device) -> None:
    """What LayerNorm and RMSNorm both keep: the trailing shape they normalize over (an int ``n`` is ``(n,)``),
    their ``eps`` and whether they learn an elementwise scale."""
    check_cpu(device)
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    module.normalized_shape = tuple(normalized_shape)
    module.eps = eps
    module.elementwise_affine = elementwise_affine


def _scale_and_shift(module: Module, shape: tuple, affine: bool, bias: bool, dtype) -> None:
    """Register the learned scale ``weight`` and shift ``bias`` of that shape (None where not learned: torch still
    lists them), then fill them: ones and zeros, so that at first the layer only normalizes."""
    module.register_parameter("weight", Parameter(empty(*shape, dtype=dtype)) if affine else None)
    module.register_parameter("bias", Parameter(empty(*shape, dtype=dtype)) if affine and bias else None)
    module.reset_parameters()


def _reset_scale_and_shift(module: Module) -> None:
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class LayerNorm(Module):
    """Normalises each sample over its last dims (``normalized_shape``) to mean 0 and variance 1, then scales
    and shifts it by learned ``weight`` (ones at first) and ``bias`` (zeros): ``F.layer_norm``.

    >>> import autograd_tutor as torch
    >>> torch.nn.LayerNorm(4)
    LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)
    """

    def __init__(self, normalized_shape, eps: float = 1e-05, elementwise_affine: bool = True, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        _normalizes(self, normalized_shape, eps, elementwise_affine, device)
        _scale_and_shift(self, self.normalized_shape, elementwise_affine, bias, dtype)

    def reset_parameters(self) -> None:
        _reset_scale_and_shift(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    """Standardises each of ``num_groups`` groups of channels of each sample, then scales and shifts each
    channel by a learned ``weight`` (ones at first) and ``bias`` (zeros): ``F.group_norm``. Unlike BatchNorm it
    keeps no running statistics: a sample is normalised the same way in training and in eval.

    >>> import autograd_tutor as torch
    >>> torch.nn.GroupNorm(2, 6)
    GroupNorm(2, 6, eps=1e-05, affine=True, bias=True)
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        check_cpu(device)
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        _scale_and_shift(self, (num_channels,), affine, bias, dtype)

    def reset_parameters(self) -> None:
        _reset_scale_and_shift(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """Divides each sample by the root mean square of its last dims (``normalized_shape``), then scales it by a
    learned ``weight`` (ones at first): ``F.rms_norm``. ``eps=None`` means the dtype's machine epsilon.

    >>> import autograd_tutor as torch
    >>> torch.nn.RMSNorm(4)
    RMSNorm((4,), eps=None, elementwise_affine=True)
    """

    def __init__(self, normalized_shape, eps: float | None = None, elementwise_affine: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        _normalizes(self, normalized_shape, eps, elementwise_affine, device)
        if elementwise_affine:
            self.weight = Parameter(empty(*self.normalized_shape, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, input: Tensor) -> Tensor:
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
