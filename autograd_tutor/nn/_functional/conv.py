"""``F.conv1d`` and ``F.conv2d``, with torch's checks of shapes, padding (``'same'`` / ``'valid'``), dilation and
groups, and their transposes ``F.conv_transpose1d`` / ``F.conv_transpose2d``.

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

from ...autograd.dtypes import CPP_NAMES, kind_name
from ...autograd.ops.convolution import ConvolutionBackward0
from ...autograd.ops.padding import ConstantPadNdBackward0
from ...autograd.tensor import _warn_once, Tensor

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d"]


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


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The adjoint of conv1d: each input position j adds x[n, c, j] * w[c, o] to the output at j*stride onwards
    (weight (in_channels, out_channels/groups, k)); output length (L-1)*stride - 2*padding + dilation*(k-1)
    + output_padding + 1.

    >>> import autograd_tutor as torch
    >>> conv_transpose1d(torch.tensor([[[1., 10.]]]), torch.tensor([[[1., 1., 1.]]]), stride=2)  # two overlapping copies
    tensor([[[ 1.,  1., 11., 10., 10.]]])
    """
    return _transposed("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The adjoint of conv2d ("deconvolution", a learned upsampling): each input pixel stamps the kernel, scaled by
    its value, onto the output at (r*stride, c*stride); overlapping stamps add up. Weight (in_channels,
    out_channels/groups, kh, kw); output height (H-1)*stride - 2*padding + dilation*(kh-1) + output_padding + 1.

    >>> import autograd_tutor as torch
    >>> conv_transpose2d(torch.tensor([[[[1., 2.]]]]), torch.ones(1, 1, 2, 2), stride=2)   # each pixel to a 2x2 block
    tensor([[[[1., 1., 2., 2.],
              [1., 1., 2., 2.]]]])
    """
    return _transposed("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups, dilation)


def _batched(name: str, n: int, input) -> tuple:
    """An n-d convolution takes (N, C, *spatial) or one unbatched sample (C, *spatial), run as a batch of one:
    the input with its batch dim, and whether it had to be added (then the output drops it again)."""
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got input "
                           f"of size: {list(input.shape)}")
    unbatched = input.dim() == n + 1
    return (input.unsqueeze(0) if unbatched else input), unbatched


def _transposed(name: str, n: int, input, weight, bias, stride, padding, output_padding, groups, dilation) -> Tensor:
    input, unbatched = _batched(name, n, input)
    _check_weight(weight, groups)
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    stride, padding, dilation, output_padding = (_ints(v, n) for v in (stride, padding, dilation, output_padding))
    _check_transposed_arguments(n, stride, padding, dilation, output_padding)
    _check_transposed_shapes(input, weight, bias, groups)
    if weight._data.dtype != input._data.dtype:
        raise RuntimeError(f"expected scalar type {kind_name(input._data)} but found {kind_name(weight._data)}")
    kernel = weight.shape[2:]
    out_shape = tuple((m - 1) * s - 2 * p + d * (k - 1) + o + 1 for m, s, p, d, k, o in
                      zip(input.shape[2:], stride, padding, dilation, kernel, output_padding))
    none = Tensor._make(np.zeros(0, input._data.dtype))
    out = ConvolutionBackward0.apply(input, weight, none if bias is None else bias, stride=stride, padding=padding,
                                     dilation=dilation, groups=groups, has_bias=bias is not None,
                                     given=(stride, padding, dilation, output_padding), transposed=True,
                                     out_shape=out_shape)
    return out.squeeze(0) if unbatched else out


def _check_transposed_arguments(n: int, stride: tuple, padding: tuple, dilation: tuple, output_padding: tuple) -> None:
    """at::_convolution's checks of a transposed convolution's arguments, in its order."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    # torch checks a transposed convolution as a 2-d one (a 1-d one of height 1): its messages name both axes
    padded, steps, gaps = ((0,) + output_padding, (1,) + stride, (1,) + dilation) if n == 1 else (
        output_padding, stride, dilation)
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {gaps[0]}, "
                           f"dilation_width: {gaps[1]}")
    if any(p >= s and p >= d for p, s, d in zip(output_padding, stride, dilation)):
        told = " ".join(f"{key}_{axis}: {value[i]}" for key, value in (("output_padding", padded),
                        ("stride", steps), ("dilation", gaps)) for i, axis in enumerate(("height", "width")))
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got {told}")


def _check_transposed_shapes(input, weight, bias, groups: int) -> None:
    """check_shape_forward for a transposed convolution: weight is (in_channels, out_channels/groups, *kernel)."""
    w, x = list(weight.shape), list(input.shape)
    if len(w) != len(x):
        raise RuntimeError(f"Expected {len(w)}-dimensional input for {len(w)}-dimensional weight {w}, but got "
                           f"{len(x)}-dimensional input of size {x} instead")
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{w}] instead")
    if x[1] != w[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {w}, expected input{x} to have {w[0]} channels, but "
                           f"got {x[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != w[1] * groups):
        raise RuntimeError(f"Given transposed=1, weight of size {w}, expected bias to be 1-dimensional with "
                           f"{w[1] * groups} elements, but got bias of size {list(bias.shape)} instead")


def _convolution(name: str, n: int, input, weight, bias, stride, padding, dilation, groups) -> Tensor:
    input, unbatched = _batched(name, n, input)
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
