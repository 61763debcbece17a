"""``F.dropout``: a random mask while training, torch's for the same seed.
"""
from __future__ import annotations

import numpy as np

from ...autograd import random
from ...autograd.tensor import Tensor

__all__ = ["dropout"]


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
    d = input._data
    if p == 1:
        mask = np.zeros((), d.dtype)
    else:
        mask = random.default_generator.bernoulli(np.full(d.shape, 1.0 - p)).astype(d.dtype) / d.dtype.type(1.0 - p)
    mask = Tensor._make(mask)
    return input.mul_(mask) if inplace else input * mask
