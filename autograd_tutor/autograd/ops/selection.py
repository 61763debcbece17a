"""Selection by a mask: ``torch.where(c, a, b)`` (``WhereBackward0``), and :func:`_where`, the masked gradient
``g where mask else 0`` that the backward formulas of every piecewise operation (relu, clamp, max...) use.
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from ..tensor import Tensor
from .numerics import _is_tensor, _promote

__all__ = ["WhereBackward0"]


class WhereBackward0(Function):
    """z = where(c, a, b);  dz/da = c,  dz/db = not c."""
    saved_names = ("condition",)

    @staticmethod
    def forward(ctx, a, b, condition):
        ctx.save(condition=condition)
        da, db = _promote(a, b)
        return np.where(condition._data, da, db)

    @staticmethod
    def backward(ctx, g):
        c = ctx._unpack("condition", False)
        if _is_tensor(g):  # torch: where(c, grad, 0) and where(c, 0, grad)
            zero, cond = Tensor._make(np.zeros((), g._data.dtype)), Tensor._make(c)
            return WhereBackward0.apply(g, zero, condition=cond), WhereBackward0.apply(zero, g, condition=cond)
        return _where(c, g), _where(~c, g)


def _where(mask: np.ndarray, g):
    """``g`` where ``mask`` is true, else 0 (not ``g * mask``: an infinite ``g`` stays out of the zeros).

    Under create_graph ``g`` is a tensor and this is recorded as torch records ``where(mask, grad, 0)``."""
    if not _is_tensor(g):
        return np.where(mask, g, 0).astype(g.dtype, copy=False)
    zero = Tensor._make(np.zeros((), g._data.dtype))
    return WhereBackward0.apply(g, zero, condition=Tensor._make(np.broadcast_to(mask, g._data.shape)))
