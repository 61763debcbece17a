"""``F.pad``: constant, reflect and replicate padding.

>>> import autograd_tutor as torch
>>> F = torch.nn.functional
>>> F.pad(torch.tensor([[1., 2.]]), (1, 0), value=9.)
tensor([[9., 1., 2.]])
>>> F.cosine_similarity(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]]))     # cos 45 degrees
tensor([0.7071])
"""
from __future__ import annotations

from ...autograd.ops.padding import (ConstantPadNdBackward0, ReflectionPad1DBackward0, ReflectionPad2DBackward0,
                                     ReflectionPad3DBackward0, ReplicationPad1DBackward0, ReplicationPad2DBackward0,
                                     ReplicationPad3DBackward0)
from ...autograd.tensor import Tensor

__all__ = ["pad"]


#: the nodes of the non-constant modes, by mode and by how many trailing dims they pad
_COPY_PADS = {"reflect": (ReflectionPad1DBackward0, ReflectionPad2DBackward0, ReflectionPad3DBackward0),
              "replicate": (ReplicationPad1DBackward0, ReplicationPad2DBackward0, ReplicationPad3DBackward0)}


_SUPPORTED = ("Supported combinations for non-constant padding:\n"
              "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
              "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
              "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:
    """Pad the last len(pad) / 2 dims, ``pad`` = (before, after) for the last dim, then the one before it, ...:
    with ``value`` (mode 'constant', 0 by default; a negative amount cuts entries off), by mirroring the entries
    next to the edge ('reflect'), or by repeating the edge ('replicate'). 'circular' is not supported."""
    pad = tuple(int(p) for p in pad)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant" and value:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    k, shape = len(pad) // 2, input.shape
    if k > input.ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.ndim}")
    if mode == "constant":
        if any(shape[-1 - i] + pad[2 * i] + pad[2 * i + 1] < 0 for i in range(k)):
            raise RuntimeError("narrow(): length must be non-negative.")
        return ConstantPadNdBackward0.apply(input, pad=pad, value=0 if value is None else value)
    if mode == "circular":
        raise NotImplementedError("autograd_tutor: F.pad with mode='circular' is not supported (torch records it "
                                  "as slice copies)")
    if k > 3 or input.ndim not in (k + 1, k + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
                                  + _SUPPORTED)
    if mode == "reflect":
        for i in range(k):
            if max(pad[2 * i:2 * i + 2]) >= shape[-1 - i]:
                raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input "
                                   f"dimension, but got: padding ({pad[2 * i]}, {pad[2 * i + 1]}) at dimension "
                                   f"{input.ndim - 1 - i} of input {list(shape)}")
    return _COPY_PADS[mode][k - 1].apply(input, padding=pad)
