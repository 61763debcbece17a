"""``nn.init``: fill a weight tensor in place with starting values, as torch's initializers do.

The scale matters: a layer with ``fan_in`` inputs sums ``fan_in`` products, so weights drawn with a spread of
about ``1/sqrt(fan_in)`` keep activations from growing or vanishing layer after layer. ``nn.Linear`` draws
its weight and bias from U(-1/sqrt(fan_in), 1/sqrt(fan_in)) (``kaiming_uniform_`` with ``a=sqrt(5)``).
The samples are drawn as torch draws them, so after the same ``torch.manual_seed`` a layer starts from
torch's own numbers.

>>> import autograd_tutor as torch
>>> w = torch.empty(3, 4)
>>> bound = 1 / 4 ** 0.5
>>> bool(torch.nn.init.uniform_(w, -bound, bound).abs().max() <= bound)
True
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..autograd import random
from ..autograd.tensor import Tensor

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "zeros_", "ones_", "xavier_uniform_",
           "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "eye_", "dirac_"]


def _fill(tensor: Tensor, values) -> Tensor:
    """Write ``values`` into the tensor's storage: an in-place change, so its version counter moves."""
    tensor._data[...] = values
    tensor._vbox[0] += 1
    return tensor


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The factor by which a nonlinearity shrinks the spread of its input, to undo in the initial scale.

    >>> calculate_gain("relu") == 2 ** 0.5, calculate_gain("tanh")
    (True, 1.6666666666666667)
    """
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                        "conv_transpose3d", "sigmoid"):
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple:
    """(inputs, outputs) of each unit: for a (out_features, in_features) weight, (in_features, out_features)."""
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = int(np.prod(tensor.shape[2:])) if tensor.dim() > 2 else 1
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with samples from U(a, b)."""
    gen = generator or random.default_generator
    return _fill(tensor, gen.uniform(tensor._data.size, tensor._data.dtype, a, b).reshape(tensor._data.shape))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with samples from N(mean, std**2)."""
    gen = generator or random.default_generator
    return _fill(tensor, gen.normal(tensor._data.size, tensor._data.dtype, mean, std).reshape(tensor._data.shape))


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    return _fill(tensor, val)


def zeros_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 0)


def ones_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 1)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out)) (Glorot and Bengio, 2010)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """N(0, std**2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _no_elements(tensor: Tensor) -> bool:
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
        return True
    return False


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """U(-b, b) with b = gain * sqrt(3 / fan) (He et al., 2015); ``a`` is the leaky_relu slope in the gain."""
    if _no_elements(tensor):
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return uniform_(tensor, -math.sqrt(3.0) * std, math.sqrt(3.0) * std, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """N(0, std**2) with std = gain / sqrt(fan)."""
    if _no_elements(tensor):
        return tensor
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode)), generator)


def eye_(tensor: Tensor) -> Tensor:
    """The identity matrix, ones on the diagonal of a 2-D weight: a Linear layer that starts as "pass through".

    >>> import autograd_tutor as torch
    >>> eye_(torch.empty(2, 3))
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor.shape))


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """A convolution kernel that passes its input through: weight[c, c] is 1 at the kernel's centre and 0
    elsewhere (per group of output channels), for 3-, 4- and 5-D weights."""
    if tensor.ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    values = np.zeros(sizes)
    centre = tuple(size // 2 for size in sizes[2:])
    for g in range(groups):
        for d in range(min(per_group, sizes[1])):
            values[(g * per_group + d, d, *centre)] = 1
    return _fill(tensor, values)
