"""Helpers shared by the distributions: numbers made tensors and broadcast together, probabilities <-> logits, and
parameters computed on first use.

>>> import autograd_tutor as torch
>>> probs_to_logits(torch.tensor([0.5, 0.25]), is_binary=True)
tensor([ 0.0000, -1.0986])
"""
from __future__ import annotations

from numbers import Number

import numpy as np

from ..autograd.dtypes import get_default_dtype
from ..autograd.factories import tensor
from ..autograd.grad_mode import enable_grad
from ..autograd.tensor import Tensor
from ..nn import functional as F
from ..ops import broadcast_tensors

__all__ = ["broadcast_all", "logits_to_probs", "probs_to_logits", "clamp_probs", "lazy_property"]


def broadcast_all(*values) -> tuple:
    """Tensors broadcast to one shape; numbers become tensors of the first tensor's dtype (the default dtype if
    there is none)."""
    if not all(isinstance(v, (Tensor, Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or objects implementing "
                         "__torch_function__.")
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), get_default_dtype())
    return broadcast_tensors(*(v if isinstance(v, Tensor) else tensor(v, dtype=dtype) for v in values))


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """sigmoid(logits) for a yes/no event, softmax along the last dim for a choice among several."""
    return logits.sigmoid() if is_binary else F.softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """Probabilities kept inside (0, 1) by the dtype's eps, so that their logs are finite."""
    eps = float(np.finfo(probs.dtype.np).eps)
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """log(p) - log(1 - p) for a yes/no event, log(p) for a choice among several."""
    p = clamp_probs(probs)
    return p.log() - (-p).log1p() if is_binary else p.log()


class lazy_property:
    """A parameter computed from the others the first time it is read (with grad enabled), then kept."""

    def __init__(self, wrapped) -> None:
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value
