"""``F.linear`` and ``F.dropout``.
"""
from __future__ import annotations


import numpy as np

from ...autograd import random
from ...autograd.dtypes import CPP_NAMES
from ...autograd.tensor import Tensor
from ...autograd.ops.linalg import AddmmBackward0

__all__ = ["linear", "dropout"]


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x W^T + b, for x of shape (..., in_features) and W of shape (out_features, in_features).

    >>> import autograd_tutor as torch
    >>> linear(torch.tensor([1., 2.]), torch.tensor([[1., 1.], [0., 3.]]), torch.tensor([0.5, 0.]))
    tensor([3.5000, 6.0000])
    """
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {input.dim()}D and "
                           f"{weight.dim()}D")
    if bias is None:
        a, b = input._data.dtype.name, weight._data.dtype.name
        if a != b:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES.get(a, a)} != "
                               f"{CPP_NAMES.get(b, b)}")
        return input.matmul(weight.t())
    if input.dim() == 2:
        return AddmmBackward0.apply(bias, input, weight.t())
    if input.is_contiguous() and (input.dim() == 3 or bias.dim() == 1):  # fold the batch into rows, as torch does
        out = AddmmBackward0.apply(bias, input.view(-1, input.shape[-1]), weight.t())
        return out.view(*input.shape[:-1], out.shape[-1])
    return input.matmul(weight.t()) + bias


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
