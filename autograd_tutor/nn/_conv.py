"""``F.conv1d``, ``F.conv2d``, ``F.max_pool1d``, ``F.max_pool2d`` and ``F.avg_pool2d``: torch's argument checks
(and messages) in torch's order, then one node each (see :mod:`autograd_tutor.autograd.conv_functions`).

>>> import autograd_tutor as torch
>>> import autograd_tutor.nn.functional as F
>>> x = torch.arange(16.).reshape(1, 1, 4, 4)
>>> F.max_pool2d(x, 2)                        # the largest of each 2x2 block
tensor([[[[ 5.,  7.],
          [13., 15.]]]])
>>> F.conv2d(x, torch.ones(1, 1, 2, 2), stride=2)    # the sum of each 2x2 block
tensor([[[[10., 18.],
          [42., 50.]]]])
"""
from __future__ import annotations

import numpy as np

from ..autograd.conv_functions import (AvgPool2DBackward0, ConstantPadNdBackward0, ConvolutionBackward0,
                                       MaxPool2DWithIndicesBackward0, max_pool_indices, out_size)
from ..autograd.dtypes import CPP_NAMES, kind_name
from ..autograd.tensor import Tensor, _dim, _warn_once

__all__ = ["conv1d", "conv2d", "max_pool1d", "max_pool2d", "avg_pool2d"]


def _ints(value, n: int) -> tuple:
    """An int repeated n times (as torch's argument parser expands it), or the given ints as a tuple."""
    return (int(value),) * n if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """Slide each kernel w[o] (in_channels/groups, k) along x (N, C, L) and take dot products:
    y[n, o, j] = b[o] + sum over c, i of w[o, c, i] * x[n, c, j*stride + i*dilation] (x zero-padded).

    >>> import autograd_tutor as torch
    >>> conv1d(torch.tensor([[[1., 2., 3.]]]), torch.tensor([[[1., 1.]]]), padding=1)  # sums of neighbours
    tensor([[[1., 3., 5., 3.]]])
    """
    return _convolution("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """Slide each kernel w[o] (in_channels/groups, kh, kw) over x (N, C, H, W), a dot product at each place:
    y[n, o, r, c] = b[o] + sum over ch, i, j of w[o, ch, i, j] * x[n, ch, r*sh + i*dh, c*sw + j*dw].
    ``padding`` is zeros around x (an int, a pair, 'valid' = none, 'same' = the output as large as x).

    >>> import autograd_tutor as torch
    >>> edge = torch.tensor([[[[-1., 1.]]]])             # a horizontal difference
    >>> conv2d(torch.tensor([[[[0., 0., 5., 5.]]]]), edge)
    tensor([[[[0., 5., 0.]]]])
    """
    return _convolution("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def _convolution(name: str, n: int, input, weight, bias, stride, padding, dilation, groups) -> Tensor:
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got input "
                           f"of size: {list(input.shape)}")
    unbatched = input.dim() == n + 1
    if unbatched:
        input = input.unsqueeze(0)
    stride, dilation = _ints(stride, n), _ints(dilation, n)
    output_padding = (0,) * n
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        _check_weight(weight, groups)
        if padding == "valid":
            padding = output_padding = (0,)
        else:
            input, padding = _same(input, weight, stride, dilation)
    out = _checked_convolution(input, weight, bias, stride, _ints(padding, n), dilation, groups, output_padding)
    return out.squeeze(0) if unbatched else out


def _check_weight(weight, groups: int) -> None:
    if weight.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")


def _same(input, weight, stride: tuple, dilation: tuple) -> tuple:
    """padding='same': d*(k-1) zeros along each axis, half before and half after; when that is odd, torch
    pads the one extra zero after with a recorded ConstantPadNdBackward0 (and warns, once per process)."""
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    kernel = weight.shape[2:]
    reach = [d * (k - 1) for d, k in zip(dilation * len(kernel) if len(dilation) == 1 else dilation, kernel)]
    if any(r % 2 for r in reach):
        _warn_once("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
                   "of the input be created (Triggered internally at "
                   "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)", stacklevel=5)  # at the caller
        pad = sum(((0, r % 2) for r in reversed(reach)), ())
        input = ConstantPadNdBackward0.apply(input, pad=pad)
    return input, tuple(r // 2 for r in reach)


def _checked_convolution(input, weight, bias, stride, padding, dilation, groups, output_padding) -> Tensor:
    """at::_convolution's checks, in its order, then one ConvolutionBackward0."""
    _check_weight(weight, groups)
    dims = weight.dim() - 2
    given = {"stride": stride, "padding": padding, "dilation": dilation, "output_padding": output_padding}
    for key, value in given.items():
        if len(value) not in (1, dims):
            raise RuntimeError(f"expected {key} to be a single integer value or a list of {dims} values to match "
                               f"the convolution dimensions, but got {key}={list(value)}")
    conv_stride, conv_padding, conv_dilation = (v * dims if len(v) == 1 else v for v in (stride, padding, dilation))
    if any(p < 0 for p in conv_padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in conv_stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in conv_dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(conv_dilation)}")
    _check_shapes(input, weight, bias, conv_padding, conv_dilation, groups)
    if bias is not None and bias._data.dtype != input._data.dtype:
        raise RuntimeError(f"Input type ({_cpp(input)}) and bias type ({_cpp(bias)}) should be the same")
    if weight._data.dtype != input._data.dtype:
        raise RuntimeError(f"expected scalar type {kind_name(input._data)} but found {kind_name(weight._data)}")
    none = Tensor._make(np.zeros(0, input._data.dtype))  # no bias: an input without an edge
    return ConvolutionBackward0.apply(input, weight, none if bias is None else bias, stride=conv_stride,
                                      padding=conv_padding, dilation=conv_dilation, groups=groups,
                                      has_bias=bias is not None, given=tuple(given.values()))


def _cpp(t: Tensor) -> str:
    return CPP_NAMES.get(t._data.dtype.name, t._data.dtype.name)


def _check_shapes(input, weight, bias, padding, dilation, groups) -> None:
    """check_shape_forward: input rank, weight against groups, channels, bias, kernel against padded input."""
    w, x = list(weight.shape), list(input.shape)
    if len(w) != len(x):
        raise RuntimeError(f"Expected {len(w)}-dimensional input for {len(w)}-dimensional weight {w}, but got "
                           f"{len(x)}-dimensional input of size {x} instead")
    if w[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {w} instead")
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{w}] instead")
    if x[1] != w[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {w}, expected input{x} to have {w[1] * groups} "
                           f"channels, but got {x[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != w[0]):
        raise RuntimeError(f"Given weight of size {w}, expected bias to be 1-dimensional with {w[0]} elements, but "
                           f"got bias of size {list(bias.shape)} instead")
    padded = [m + 2 * p for m, p in zip(x[2:], padding)]
    reach = [d * (k - 1) + 1 for d, k in zip(dilation, w[2:])]
    if any(m < k for m, k in zip(padded, reach)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                           f"size: ({' x '.join(map(str, reach))}). Kernel size can't be greater than actual "
                           "input size")


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """The largest entry of each kernel_size window of the last two axes (stride = kernel_size unless given):
    y[.., r, c] = max over i, j of x[.., r*sh + i*dh - ph, c*sw + j*dw - pw] (padding never wins).
    Backward sends each g to the entry that was largest. ``return_indices`` also gives where it was.

    >>> import autograd_tutor as torch
    >>> max_pool2d(torch.tensor([[[1., 5.], [3., 2.]]], requires_grad=True), 2, return_indices=True)
    (tensor([[[5.]]], grad_fn=<MaxPool2DWithIndicesBackward0>), tensor([[[1]]]))
    """
    kernel = _pool_pair("max_pool2d", "kernel_size", kernel_size, "either be a single int, or a tuple of two ints")
    given = _pool_pair("max_pool2d", "stride", stride, "either be omitted, a single int, or a tuple of two ints")
    padding = _pool_pair("max_pool2d", "padding", padding, "either be a single int, or a tuple of two ints")
    dilation = _pool_pair("max_pool2d", "dilation", dilation, "be either a single int, or a tuple of two ints")
    if input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    out = _pool_shape(input, kernel, given or kernel, padding, dilation, ceil_mode)
    indices = Tensor._make(max_pool_indices(input._data, kernel, given or kernel, padding, dilation, out))
    y = MaxPool2DWithIndicesBackward0.apply(input, indices=indices, kernel_size=kernel, stride=given, padding=padding,
                                            dilation=dilation, ceil_mode=ceil_mode)
    return (y, indices) if return_indices else y


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    """The mean of each kernel_size window of the last two axes (stride = kernel_size unless given); padding
    zeros count in the mean unless ``count_include_pad=False``. Backward shares each g equally over its window.

    >>> import autograd_tutor as torch
    >>> avg_pool2d(torch.tensor([[[1., 5.], [3., 2.]]]), 2)
    tensor([[[2.7500]]])
    """
    kernel = _pool_pair("avg_pool2d", "kernel_size", kernel_size, "either be a single int, or a tuple of two ints")
    given = _pool_pair("avg_pool2d", "stride", stride, "either be omitted, a single int, or a tuple of two ints")
    padding = _pool_pair("avg_pool2d", "padding", padding, "either be a single int, or a tuple of two ints")
    if divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _dim(-3, input.dim())  # torch reads input.size(-3): its IndexError for fewer dims
    out = _pool_shape(input, kernel, given or kernel, padding, (1, 1), ceil_mode)
    return AvgPool2DBackward0.apply(input, kernel_size=kernel, stride=given, padding=padding, ceil_mode=ceil_mode,
                                    count_include_pad=count_include_pad, divisor_override=divisor_override, out=out)


def _pool_pair(op: str, name: str, value, rule: str) -> tuple:
    """kernel_size, stride, padding or dilation as a pair; () for an omitted stride."""
    if value is None:
        return ()
    if isinstance(value, (int, np.integer)):
        return (int(value),) * 2
    if isinstance(value, float):
        position = ("kernel_size", "stride", "padding", "dilation").index(name) + 2
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be tuple of ints, not float")
    value = tuple(int(v) for v in value)
    if len(value) not in ((0, 1, 2) if name == "stride" else (1, 2)):
        raise RuntimeError(f"{op}: {name} must {rule}")
    return value * 2 if len(value) == 1 else value


def _pool_shape(input, kernel, stride, padding, dilation, ceil_mode) -> tuple:
    """The output's last two sizes, after torch's checks (pooling_output_shape, then pool2d_shape_check)."""
    out = []
    for m, k, s, p, d in zip(input.shape[-2:], kernel, stride, padding, dilation):
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > int(((k - 1) * d + 1) / 2):  # C++ division, towards zero
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
        out.append(out_size(m, k, s, p, d, ceil_mode))
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}")
    if stride[0] <= 0 or stride[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} "
                           f"dilationW: {dilation[1]}")
    shape = list(input.shape)
    if shape[-3] == 0 or shape[-2] == 0 or shape[-1] == 0 or len(shape) not in (3, 4) or \
            (len(shape) == 3 and shape[0] == 0):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{shape}")
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, shape[-3:]))}). Calculated output size: "
                           f"({shape[-3]}x{out[0]}x{out[1]}). Output size is too small")
    return tuple(out)


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """The largest entry of each window of the last axis; torch records it as a max_pool2d of windows one row
    high: UnsqueezeBackward0, MaxPool2DWithIndicesBackward0, SqueezeBackward1.

    >>> import autograd_tutor as torch
    >>> max_pool1d(torch.tensor([[3., 1., 4., 1., 5.]]), 2)
    tensor([[3., 4.]])
    """
    if input.dim() not in (2, 3):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(input.shape)}")
    args = {"kernel_size": kernel_size, "stride": stride, "padding": padding, "dilation": dilation}
    k, s, p, d = (_one(name, value, kernel_size) for name, value in args.items())
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    width = out_size(input.shape[-1], k, s, p, d, ceil_mode)
    if width <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {width}")
    out = max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode, return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def _one(name: str, value, kernel_size) -> int:
    """A max_pool1d argument as one int (stride None: the kernel size)."""
    if isinstance(value, (int, np.integer)):
        return int(value)
    if value is None or (name == "stride" and len(value) == 0):
        return _one("kernel_size", kernel_size, kernel_size)
    if len(value) != 1:
        rule = {"kernel_size": "be an int, list of ints or tuple of ints",
                "stride": "be None, an int, list of ints, or tuple of ints",
                "padding": "be an int, list of ints, or tuple of ints",
                "dilation": "be an int, list of ints or tuple of ints"}[name]
        raise RuntimeError(f"max_pool1d() {name} must {rule} of size 1 but got size {len(value)}")
    return int(value[0])
