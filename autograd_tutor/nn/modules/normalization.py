"""``nn.LayerNorm`` and ``nn.RMSNorm``.
"""
from __future__ import annotations

import numbers

from ...autograd.factories import empty
from ...autograd.tensor import Tensor
from ...devices import check_cpu
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "RMSNorm"]


def _normalizes(module: Module, normalized_shape, eps, elementwise_affine: bool, device) -> None:
    """What LayerNorm and RMSNorm both keep: the trailing shape they normalize over (an int ``n`` is ``(n,)``),
    their ``eps`` and whether they learn an elementwise scale."""
    check_cpu(device)
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    module.normalized_shape = tuple(normalized_shape)
    module.eps = eps
    module.elementwise_affine = elementwise_affine


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
        if elementwise_affine:
            self.weight = Parameter(empty(*self.normalized_shape, dtype=dtype))
            if bias:
                self.bias = Parameter(empty(*self.normalized_shape, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
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
