"""``F.max_pool1d`` / ``F.max_pool2d``, ``F.avg_pool1d`` / ``F.avg_pool2d``, with torch's checks.
"""
from __future__ import annotations

import numpy as np

from ...autograd.ops.convolution import out_size
from ...autograd.ops.pooling import AvgPool2DBackward0, MaxPool2DWithIndicesBackward0, max_pool_indices
from ...autograd.tensor import _dim, Tensor

__all__ = ["max_pool2d", "avg_pool2d", "max_pool1d"]


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
