"""``F.pad``, ``F.normalize`` and ``F.cosine_similarity``, recorded as torch records them: one pad node
(``ConstantPadNdBackward0``, ``ReflectionPad2DBackward0``, ...), and for the other two torch's own composition of
a norm, a clamp and a division.

>>> import autograd_tutor as torch
>>> F = torch.nn.functional
>>> F.pad(torch.tensor([[1., 2.]]), (1, 0), value=9.)
tensor([[9., 1., 2.]])
>>> F.cosine_similarity(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]]))     # cos 45 degrees
tensor([0.7071])
"""
from __future__ import annotations

from ..autograd import grad_mode
from ..autograd import pad_functions as P
from ..autograd.conv_functions import ConstantPadNdBackward0
from ..autograd.tensor import Tensor, _broadcast_shape

__all__ = ["pad", "normalize", "cosine_similarity"]

#: the nodes of the non-constant modes, by mode and by how many trailing dims they pad
_COPY_PADS = {"reflect": (P.ReflectionPad1DBackward0, P.ReflectionPad2DBackward0, P.ReflectionPad3DBackward0),
              "replicate": (P.ReplicationPad1DBackward0, P.ReplicationPad2DBackward0, P.ReplicationPad3DBackward0)}
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


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None) -> Tensor:
    """x / max(||x||_p, eps) along ``dim``: each slice scaled to length 1. Recorded as torch does:
    ``input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)``."""
    return input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """cos(angle) = <x1, x2> / (||x1|| ||x2||) along ``dim`` (the inputs broadcast together). Recorded as torch
    does: each input divided by its norm (a clone, clamped to ``eps`` without recording), then multiplied and
    summed."""
    if x1.shape != x2.shape:
        shape = _broadcast_shape(tuple(x1.shape), tuple(x2.shape))
        x1, x2 = x1.expand(*shape), x2.expand(*shape)
    n1, n2 = x1.norm(2, dim, keepdim=True).clone(), x2.norm(2, dim, keepdim=True).clone()
    with grad_mode.no_grad():
        n1.clamp_(min=eps)
        n2.clamp_(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)
