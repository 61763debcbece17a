"""Copies and fills: ``clone``, ``copy_``, ``to(dtype)``, ``zero_``, ``fill_``.
"""
from __future__ import annotations

import numpy as np

from ..function import Function
from .numerics import _zeros

__all__ = ["CloneBackward0", "CopyBackwards", "ZeroBackward0", "FillBackward2", "FillBackward3", "ToCopyBackward0"]


class CloneBackward0(Function):
    """z = a copy of x;  dx = g."""

    @staticmethod
    def forward(ctx, x):
        return x._data.copy()

    @staticmethod
    def backward(ctx, g):
        return g


class CopyBackwards(Function):
    """``dst.copy_(src)``: z = src broadcast to dst's shape and dtype;  d dst = 0,  d src = g.

    Also the node of a ``.grad`` that backward(create_graph=True) makes: a copy of the incoming gradient."""

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"

    @staticmethod
    def forward(ctx, dst, src):
        return np.broadcast_to(src._data, dst._data.shape).astype(dst._data.dtype)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g), g


class ZeroBackward0(Function):
    """``x.zero_()``: z = 0;  dx = 0."""

    @staticmethod
    def forward(ctx, x):
        return np.zeros_like(x._data)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class FillBackward2(Function):
    """``x.fill_(c)`` for a number c: z = c everywhere;  dx = 0."""

    @staticmethod
    def forward(ctx, x, value):
        return np.full(x._data.shape, value, x._data.dtype)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class FillBackward3(Function):
    """``x.fill_(v)`` for a 0-dim tensor v: z = v everywhere;  dx = 0,  dv = sum(g)."""

    @staticmethod
    def forward(ctx, x, value):
        return np.full(x._data.shape, value._data, x._data.dtype)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g), g.sum()


class ToCopyBackward0(Function):
    """z = x converted to another dtype;  dx = g converted back."""

    @staticmethod
    def forward(ctx, x, dtype):
        return x._data.astype(dtype)

    @staticmethod
    def backward(ctx, g):
        return g
