"""Random sampling in place (``uniform_``, ``normal_``, ``bernoulli_``, ``random_``, ``exponential_``): nodes whose
gradient is zero.
"""
from __future__ import annotations

from ..function import Function
from .numerics import _zeros

__all__ = ["UniformBackward0", "NormalBackward0", "BernoulliBackward0", "BernoulliBackward1", "BernoulliBackward2",
           "RandomBackward0", "RandomBackward1", "RandomBackward2", "ExponentialBackward0"]


class UniformBackward0(Function):
    """``x.uniform_(a, b)``: z = fresh samples, drawn before the call;  dx = 0."""

    @staticmethod
    def forward(ctx, x, values):
        return values

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class NormalBackward0(UniformBackward0):
    """``x.normal_(mean, std)``: z = fresh samples, drawn before the call;  dx = 0."""


class BernoulliBackward0(UniformBackward0):
    """``torch.bernoulli(p)``: z = 1 with probability p, else 0 (drawn before the call);  dp = 0."""


class BernoulliBackward1(UniformBackward0):
    """``x.bernoulli_(p)`` for a tensor p: z = fresh 0s and 1s, drawn before the call;  dx = 0."""


class BernoulliBackward2(UniformBackward0):
    """``x.bernoulli_(p)`` for a number p: z = fresh 0s and 1s, drawn before the call;  dx = 0."""


class RandomBackward0(UniformBackward0):
    """``x.random_(a, b)``: z = fresh random integers in [a, b), drawn before the call;  dx = 0."""


class RandomBackward1(UniformBackward0):
    """``x.random_(b)``: z = fresh random integers in [0, b), drawn before the call;  dx = 0."""


class RandomBackward2(UniformBackward0):
    """``x.random_()``: z = fresh random integers (all those x's dtype holds exactly);  dx = 0."""


class ExponentialBackward0(UniformBackward0):
    """``x.exponential_(lambd)``: z = fresh samples, drawn before the call;  dx = 0."""
