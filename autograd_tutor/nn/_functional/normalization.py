"""``F.layer_norm``, ``F.batch_norm``, ``F.group_norm`` and ``F.rms_norm``.
"""
from __future__ import annotations

import math

import numpy as np

from ...autograd.dtypes import kind_name
from ...autograd.ops.normalization import (NativeBatchNormBackward0, NativeGroupNormBackward0,
                                          NativeLayerNormBackward0)
from ...autograd.tensor import Tensor

__all__ = ["layer_norm", "batch_norm", "group_norm", "rms_norm"]


def _or_empty(dtype, *tensors) -> list:
    """Each tensor, or an empty one where it is None: a weight or bias left out is an input without an edge."""
    return [Tensor._make(np.zeros(0, dtype)) if t is None else t for t in tensors]


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-05) -> Tensor:
    """Standardise each sample over its last dims (``normalized_shape``): subtract their mean, divide by
    sqrt(variance + eps), then scale by ``weight`` and shift by ``bias``: one NativeLayerNormBackward0.

    >>> import autograd_tutor as torch
    >>> layer_norm(torch.tensor([[0., 2.], [5., 5.]]), (2,))     # each row to mean 0, variance 1 (or all 0)
    tensor([[-1.0000,  1.0000],
            [ 0.0000,  0.0000]])
    """
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError(f"layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = tuple(int(n) for n in normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and tuple(p.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(p.shape)} and normalized_shape = {list(shape)}")
    if tuple(input.shape[input.dim() - len(shape):]) != shape or input.dim() < len(shape):
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(str(n) for n in shape)}], but got input of size{list(input.shape)}")
    d = input._data
    if d.dtype.kind != "f":
        raise NotImplementedError(f"\"LayerNormKernelImpl\" not implemented for '{kind_name(d)}'")
    for p in (weight, bias):
        if p is not None and p._data.dtype != d.dtype:
            raise RuntimeError(f"mixed dtype (CPU): expect parameter to have scalar type of {kind_name(d)}")
    return NativeLayerNormBackward0.apply(input, *_or_empty(d.dtype, weight, bias), normalized_shape=shape, eps=eps,
                                          affine=(weight is not None, bias is not None))


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-05) -> Tensor:
    """Standardise each channel (dim 1) over the batch and the other dims, then scale by ``weight`` and shift
    by ``bias``: one NativeBatchNormBackward0. With ``training`` the batch's mean and (biased) variance are
    used and the running stats, if given, move towards them by ``momentum``; otherwise the running stats are.

    >>> import autograd_tutor as torch
    >>> mean, var = torch.zeros(1), torch.ones(1)
    >>> batch_norm(torch.tensor([[1.], [3.]]), mean, var, training=True)    # batch mean 2, variance 1
    tensor([[-1.0000],
            [ 1.0000]])
    >>> mean, var                 # 0.9 * 0 + 0.1 * 2, and 0.9 * 1 + 0.1 * 2 (unbiased variance)
    (tensor([0.2000]), tensor([1.1000]))
    """
    size = list(input.shape)
    if training and math.prod(size[:1] + size[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.size()}")
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if momentum is None:
        raise TypeError("batch_norm(): argument 'momentum' (position 7) must be float, not NoneType")
    channels = input.size(1)
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
        if t is None and name.startswith("running") and not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    d = input._data
    if d.dtype.kind != "f":
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{kind_name(d)}'")
    others = {t._data.dtype for t in (running_mean, running_var, weight, bias) if t is not None}
    if others - {d.dtype} and not (d.dtype == np.float16 and others == {np.dtype(np.float32)}):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float" if d.dtype == np.float32
                           else "mixed dtype (CPU): all inputs must share same datatype.")
    if not d.size:  # an empty batch: no statistics, and a graph that still reaches weight and bias, as in torch
        out = input.clone()
        out = out * weight[0] if weight is not None else out
        return out + bias[0] if bias is not None else out
    return NativeBatchNormBackward0.apply(input, *_or_empty(d.dtype, weight, bias), running_mean=running_mean,
                                          running_var=running_var, training=bool(training), momentum=momentum,
                                          eps=eps, affine=(weight is not None, bias is not None))


def rms_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """y = x / sqrt(mean(x^2) + eps) * weight over the last ``len(normalized_shape)`` dims (no centring, unlike
    layer_norm); ``eps`` defaults to the dtype's machine epsilon. Recorded as torch's composite: Pow, Mean, Add,
    Rsqrt, Mul.

    >>> import autograd_tutor as torch
    >>> rms_norm(torch.tensor([3., 4.]), (2,))
    tensor([0.8485, 1.1314])
    """
    dims = tuple(range(-len(tuple(normalized_shape)), 0))
    eps = float(np.finfo(input.dtype.np).eps) if eps is None else eps
    result = input.mul(input.pow(2).mean(dims, keepdim=True).add_(eps).rsqrt())
    return result if weight is None else result.mul(weight)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-05) -> Tensor:
    """Split the channels (dim 1) into ``num_groups`` groups and standardise each group of each sample over its
    channels and positions, then scale and shift each channel by ``weight`` and ``bias``: one
    NativeGroupNormBackward0. One group is LayerNorm over (C, H, W); C groups is InstanceNorm.

    >>> import autograd_tutor as torch
    >>> group_norm(torch.tensor([[0., 2., 5., 5.]]), 2)      # groups [0, 2] and [5, 5]
    tensor([[-1.0000,  1.0000,  0.0000,  0.0000]])
    """
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    size = list(input.shape)
    if math.prod([size[0] * size[1] // num_groups] + size[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{[size[0] * size[1] // num_groups, num_groups] + size[2:]}")
    channels = size[1]
    if channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {size} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != channels):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(t.shape)} and input of shape {size}")
    d = input._data
    if d.dtype.kind != "f":
        raise NotImplementedError(f"\"GroupNormKernelImpl\" not implemented for '{kind_name(d)}'")
    return NativeGroupNormBackward0.apply(input, *_or_empty(d.dtype, weight, bias), group=num_groups, eps=eps,
                                          affine=(weight is not None, bias is not None))
