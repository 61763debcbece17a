"""``F.dropout`` and ``F.dropout2d``: a random mask while training, torch's for the same seed.

``dropout2d`` zeroes whole channels: for an input (N, C, H, W) each of the N * C feature maps is kept with
probability 1 - p (then scaled by 1 / (1 - p)) or zeroed entirely, since neighbouring pixels of a feature map are
so alike that dropping single pixels barely regularises a convolutional net. Its mask has shape (N, C, 1, 1),
drawn as torch draws it, so after the same ``manual_seed`` the same channels drop.
"""
from __future__ import annotations

import warnings

import numpy as np

from ...autograd import random
from ...autograd.tensor import Tensor

__all__ = ["dropout", "dropout2d"]


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """While training, zero each entry with probability ``p`` and scale the others by 1 / (1 - p), so the
    expected value stays the same: ``input * mask``, one MulBackward0 whose gradient goes only through the
    kept entries. The mask is torch's for the same seed. Outside training (``model.eval()``) it returns
    ``input`` itself.

    >>> import autograd_tutor as torch
    >>> _ = torch.manual_seed(0)
    >>> dropout(torch.ones(4), 0.5)
    tensor([0., 0., 2., 0.])
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    return _masked(input, p, input._data.shape, inplace)


def _masked(input: Tensor, p: float, shape: tuple, inplace: bool) -> Tensor:
    """``input * mask``, the mask of ``shape`` holding Bernoulli(1 - p) / (1 - p) draws (broadcast over input)."""
    d = input._data
    if p == 1:
        mask = np.zeros((), d.dtype)
    else:
        mask = random.default_generator.bernoulli(np.full(shape, 1.0 - p)).astype(d.dtype) / d.dtype.type(1.0 - p)
    mask = Tensor._make(mask)
    return input.mul_(mask) if inplace else input * mask


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each channel of ``input`` (N, C, H, W) with probability ``p`` while training; torch's warnings for
    inputs that are not 4-D (a 3-D input is read as (N, C, L), as torch still does).

    >>> import autograd_tutor as torch
    >>> _ = torch.manual_seed(0)
    >>> dropout2d(torch.ones(1, 4, 1, 2))
    tensor([[[[0., 0.]],
    <BLANKLINE>
             [[0., 0.]],
    <BLANKLINE>
             [[2., 2.]],
    <BLANKLINE>
             [[0., 0.]]]])
    """
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
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 0 or not training or input.numel() == 0:
        return input
    return _masked(input, p, input._data.shape[:2] + (1,) * (input.dim() - 2), inplace)
