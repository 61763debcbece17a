"""``F.interpolate``: resize the spatial dims of a batch, to a ``size`` or by a ``scale_factor``, reading the
nearest input (``mode='nearest'``) or mixing the two nearest linearly (``'linear'`` for (N, C, L),
``'bilinear'`` for (N, C, H, W)); the nodes are in ``autograd/ops/upsampling.py``.

>>> import autograd_tutor as torch
>>> interpolate(torch.tensor([[[[1., 2.], [3., 4.]]]]), scale_factor=2)      # each pixel becomes a 2x2 block
tensor([[[[1., 1., 2., 2.],
          [1., 1., 2., 2.],
          [3., 3., 4., 4.],
          [3., 3., 4., 4.]]]])
"""
from __future__ import annotations

import numbers
import warnings

from ...autograd.ops.upsampling import (UpsampleBilinear2DBackward0, UpsampleLinear1DBackward0,
                                        UpsampleNearest1DBackward0, UpsampleNearest2DBackward0)
from ...autograd.tensor import Tensor

__all__ = ["interpolate", "upsample"]

#: (mode, number of spatial dims) -> the node and torch's name for its kernel
NODES = {("nearest", 1): (UpsampleNearest1DBackward0, "upsample_nearest1d"),
         ("nearest", 2): (UpsampleNearest2DBackward0, "upsample_nearest2d"),
         ("linear", 1): (UpsampleLinear1DBackward0, "upsample_linear1d"),
         ("bilinear", 2): (UpsampleBilinear2DBackward0, "upsample_bilinear2d")}
MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                recompute_scale_factor=None, antialias: bool = False) -> Tensor:
    """The input resized along its dims after (N, C): to ``size`` (an int or one per dim), or to
    floor(n * ``scale_factor``). ``align_corners`` (linear modes only) maps the corner pixels onto each other
    instead of the pixels' outer edges.

    >>> import autograd_tutor as torch
    >>> interpolate(torch.tensor([[[0., 4.]]]), size=5, mode="linear", align_corners=True)
    tensor([[[0., 1., 2., 3., 4.]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scales = [None] * dim
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {spatial} and output size of {size}. Please provide "
                                 "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                                 "format.")
            if not all(isinstance(n, numbers.Integral) for n in size):
                raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(n) for n in size]}")
            output_size = list(size)
        else:
            output_size = [size] * dim
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {spatial} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 "scale_factor in (s1, s2, ...,sK) format.")
            scales = [float(s) for s in scale_factor]
        else:
            scales = [float(scale_factor)] * dim
        output_size = [int(n * s) for n, s in zip(spatial, scales)]
        if recompute_scale_factor:
            scales = [None] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if antialias:
        raise NotImplementedError("autograd_tutor's interpolate has no antialias")
    if (mode, dim) not in NODES:
        raise NotImplementedError(_unsupported(mode, input.dim()))
    if any(n <= 0 for n in output_size):
        names = ("W",) if dim == 1 else ("H", "W")
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ("
                           f"{', '.join(f'{k}: {n}' for k, n in zip(names, spatial))}) output ("
                           f"{', '.join(f'{k}: {n}' for k, n in zip(names, output_size))})")
    node, kernel = NODES[mode, dim]
    return node.apply(input, output_size=tuple(output_size), scales=tuple(scales), align_corners=align_corners,
                      kernel=kernel)


def _unsupported(mode: str, ndim: int) -> str:
    """Torch's words for a mode this engine or torch cannot apply to an input of ``ndim`` dims."""
    needs = {"linear": 3, "bilinear": 4, "trilinear": 5}
    if mode in needs and ndim in (3, 4, 5):
        return f"Got {ndim}D input, but {mode} mode needs {needs[mode]}D input"
    if ndim in (3, 4, 5):
        return f"autograd_tutor's interpolate has no mode '{mode}' for {ndim}D input"
    return (f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the modes: {MODES} "
            f"(got {mode})")


def upsample(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None) -> Tensor:
    """The old name of :func:`interpolate` (torch warns that it is deprecated)."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)

