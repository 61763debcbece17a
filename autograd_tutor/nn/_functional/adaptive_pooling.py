"""``F.adaptive_avg_pool1d`` / ``2d``, ``F.adaptive_max_pool1d`` / ``2d`` and ``F.avg_pool1d``.

>>> import autograd_tutor as torch
>>> F = torch.nn.functional
>>> x = torch.arange(8.).reshape(1, 2, 4)
>>> F.adaptive_avg_pool2d(x, 1)          # one mean per channel: what a CNN does before its classifier
tensor([[[3.5000]]])
>>> F.adaptive_avg_pool1d(x, 2), F.avg_pool1d(x, 2)
(tensor([[[0.5000, 2.5000],
         [4.5000, 6.5000]]]), tensor([[[0.5000, 2.5000],
         [4.5000, 6.5000]]]))
"""
from __future__ import annotations

import numpy as np

from ...autograd.dtypes import kind_name
from ...autograd.ops.pooling import AdaptiveAvgPool2DBackward0, AdaptiveMaxPool2DBackward0, adaptive_max_indices
from ...autograd.tensor import Tensor
from .pooling import avg_pool2d

__all__ = ["adaptive_avg_pool2d", "adaptive_max_pool2d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "avg_pool1d"]


def _list_with_default(out_size, defaults):
    """torch's own helper: an int as it is; a None in a tuple replaced by the input's size there."""
    if isinstance(out_size, (int, np.integer)):
        return int(out_size)
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


def _pair(output_size) -> tuple:
    """An output size as (h, w): an int n is (n, n)."""
    return (output_size,) * 2 if isinstance(output_size, int) else tuple(output_size)


def _check_nonempty(op: str, input: Tensor, dims) -> None:
    for i in dims:
        if input.shape[i] <= 0:
            raise RuntimeError(f"{op}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(input.shape)} with dimension {i % input.dim()} being empty")


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """The mean over each of output_size = (h, w) windows that tile the last two axes (None keeps that size).
    Output size 1 is torch's shortcut, a plain mean over the last two dims: MeanBackward1.

    >>> import autograd_tutor as torch
    >>> adaptive_avg_pool2d(torch.arange(10.).reshape(1, 2, 5), (1, 2))    # both rows, columns 0-2 and 2-4
    tensor([[[3.5000, 5.5000]]])
    """
    out = _pair(_list_with_default(output_size, input.shape))
    if len(out) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if out[0] < 0 or out[1] < 0:
        raise RuntimeError(f"adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{out[0]}, {out[1]}}}")
    if out == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    _check_nonempty("adaptive_avg_pool2d", input, (-2, -1))
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for '{kind_name(input._data)}'")
    return AdaptiveAvgPool2DBackward0.apply(input, out=out)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """The largest entry of each of output_size = (h, w) windows that tile the last two axes (None keeps that
    size); ``return_indices`` also gives where it was (row * width + column), as max_pool2d does.

    >>> import autograd_tutor as torch
    >>> adaptive_max_pool2d(torch.tensor([[[1., 5., 2.]]]), (1, 2), return_indices=True)
    (tensor([[[5., 5.]]]), tensor([[[1, 1]]]))
    """
    out = _pair(_list_with_default(output_size, input.shape))
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
    _check_nonempty("adaptive_max_pool2d", input, range(1, input.dim()))
    if len(out) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    if out[0] < 0 or out[1] < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                           f"{list(input.shape[:-2]) + list(out)}")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"adaptive_max_pool2d\" not implemented for '{kind_name(input._data)}'")
    indices = Tensor._make(adaptive_max_indices(input._data, out))
    y = AdaptiveMaxPool2DBackward0.apply(input, indices=indices)
    return (y, indices) if return_indices else y


def _one(op: str, name: str, value, position: int) -> int:
    """One int of a 1d pooling argument (an int or a sequence of one), with torch's messages."""
    if isinstance(value, (int, np.integer)):
        return int(value)
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be tuple of ints, not "
                        f"{type(value).__name__}")
    if len(value) != 1:
        raise RuntimeError(f"{op}() argument '{name}' should contain one int (got {len(value)})")
    return int(value[0])


def _check_1d(op: str, input: Tensor) -> None:
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {op})")


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """The mean over each of ``output_size`` windows that tile the last axis.

    >>> import autograd_tutor as torch
    >>> adaptive_avg_pool1d(torch.tensor([[1., 2., 3., 4., 5.]]), 2)    # [1, 2, 3] and [3, 4, 5]
    tensor([[2., 4.]])
    """
    _check_1d("adaptive_avg_pool1d", input)
    size = _one("adaptive_avg_pool1d", "output_size", output_size, 2)
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """The largest entry of each of ``output_size`` windows that tile the last axis (and where, if asked)."""
    _check_1d("adaptive_max_pool1d", input)
    size = _one("adaptive_max_pool1d", "output_size", output_size, 2)
    _check_nonempty("adaptive_max_pool1d", input, range(1, input.dim()))
    y, indices = adaptive_max_pool2d(input.unsqueeze(-2), (1, size), True)
    return (y.squeeze(-2), indices.squeeze(-2)) if return_indices else y.squeeze(-2)


def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """The mean of each window of the last axis (stride = kernel_size unless given), recorded by torch as an
    avg_pool2d of windows one row high.

    >>> import autograd_tutor as torch
    >>> avg_pool1d(torch.tensor([[1., 3., 5., 7.]]), 2)
    tensor([[2., 6.]])
    """
    _check_1d("avg_pool1d", input)
    k = _one("avg_pool1d", "kernel_size", kernel_size, 2)
    s = k if stride is None or stride == () or stride == [] else _one("avg_pool1d", "stride", stride, 3)
    p = _one("avg_pool1d", "padding", padding, 4)
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad).squeeze(-2)
