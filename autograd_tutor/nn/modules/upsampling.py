"""``nn.Upsample`` (and its fixed-mode forms ``nn.UpsamplingNearest2d``, ``nn.UpsamplingBilinear2d``): F.interpolate
as a layer, as in a U-Net's decoder or a GAN's generator.

>>> import autograd_tutor as torch
>>> up = torch.nn.Upsample(scale_factor=2, mode="bilinear")
>>> up, up(torch.zeros(1, 3, 4, 5)).shape
(Upsample(scale_factor=2.0, mode='bilinear'), torch.Size([1, 3, 8, 10]))
"""
from __future__ import annotations

from ...autograd.tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]


class Upsample(Module):
    """Resizes the dims after (N, C) to ``size`` or by ``scale_factor`` (kept as a float), ``mode`` 'nearest',
    'linear' or 'bilinear': F.interpolate."""

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                 recompute_scale_factor=None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """``Upsample(size, scale_factor, mode='nearest')``."""

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(size, scale_factor, mode='bilinear', align_corners=True)``."""

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
