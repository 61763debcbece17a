"""Channel dropout: ``nn.Dropout2d`` and ``F.dropout2d`` zero whole feature maps, not single entries.

For an input of shape (N, C, H, W), each of the N * C channels is kept with probability 1 - p (then scaled by
1 / (1 - p)) or zeroed entirely: neighbouring pixels of a feature map are strongly correlated, so dropping single
pixels barely regularises a convolutional net. The mask is drawn as torch draws it (one Bernoulli per channel,
shape (N, C, 1, 1)), so after the same ``manual_seed`` the same channels drop.

>>> import autograd_tutor as torch
>>> _ = torch.manual_seed(0)
>>> torch.nn.Dropout2d(0.5)(torch.ones(1, 4, 1, 2))
tensor([[[[0., 0.]],
<BLANKLINE>
         [[0., 0.]],
<BLANKLINE>
         [[2., 2.]],
<BLANKLINE>
         [[0., 0.]]]])
"""
import warnings

import numpy as np

from ..autograd import random
from ..autograd.tensor import Tensor
from .module import Module

__all__ = ["Dropout2d", "dropout2d"]


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool) -> Tensor:
    """``input * mask`` with one Bernoulli(1 - p) / (1 - p) per (sample, channel): torch's feature dropout."""
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 0 or not training or input.numel() == 0:
        return input
    d = input._data
    if p == 1:
        mask = np.zeros((), d.dtype)
    else:
        shape = d.shape[:2] + (1,) * (d.ndim - 2)
        mask = random.default_generator.bernoulli(np.full(shape, 1.0 - p)).astype(d.dtype) / d.dtype.type(1.0 - p)
    mask = Tensor._make(mask)
    return input.mul_(mask) if inplace else input * mask


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each channel of ``input`` (N, C, H, W) with probability ``p`` while training; torch's warnings for
    inputs that are not 4-D (a 3-D input is read as (N, C, L), as torch still does)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (3, 4):
        warnings.warn(f"dropout2d: Received a {input.dim()}-D input to dropout2d, which is deprecated and will "
                      "result in an error in a future release. To retain the behavior and silence this warning, "
                      "please use dropout instead. Note that dropout2d exists to provide channel-wise dropout on "
                      "inputs with 2 spatial dimensions, a channel dimension, and an optional batch dimension "
                      "(i.e. 3D or 4D inputs).", stacklevel=2)
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a "
                      "batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, "
                      "please switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


class Dropout2d(Module):
    """Zero whole channels with probability ``p`` while training (scaling the kept ones by 1 / (1 - p)); pass
    the input through unchanged after ``model.eval()``."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return dropout2d(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
