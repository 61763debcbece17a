"""``nn.Parameter``: a tensor that a :class:`~autograd_tutor.nn.Module` registers as one of its weights.

A parameter is a leaf tensor that requires grad by default; assigning one to a module attribute makes it
show up in ``module.parameters()``, which is what an optimizer updates. It shares its data with the tensor
it wraps, and anything computed from it is a plain ``Tensor``.

>>> import autograd_tutor as torch
>>> p = torch.nn.Parameter(torch.tensor([1., 2.]))
>>> p
Parameter containing:
tensor([1., 2.], requires_grad=True)
>>> type(p * 2).__name__, p.is_leaf
('Tensor', True)
"""
from __future__ import annotations

import numpy as np

from .. import events
from ..autograd.tensor import Tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A leaf tensor that a Module treats as a weight: ``Parameter(data, requires_grad=True)``."""

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> "Parameter":
        if data is None:
            data = Tensor._make(np.empty(0, np.float32))
        if requires_grad and data._data.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        p = cls._make(data._data, bool(requires_grad), None, data._vbox)
        if events._subscribers:
            p._announce()
        return p

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass  # everything happens in __new__

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return object.__format__(self, spec)  # torch formats only plain 0-dim Tensors as numbers
