"""The sets a distribution's parameters and samples must lie in; ``check(value)`` is a bool tensor, True where
``value`` is inside. Their reprs are torch's (they appear in validation errors).

>>> import autograd_tutor as torch
>>> positive.check(torch.tensor([1., -1.])), simplex
(tensor([ True, False]), Simplex())
"""
from __future__ import annotations

__all__ = ["Constraint", "real", "real_vector", "positive", "unit_interval", "boolean", "simplex", "interval",
           "integer_interval", "less_than", "greater_than", "dependent"]


class Constraint:
    """A set of values: ``check`` says which entries of a tensor belong to it."""
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on other parameters: never checked."""


class _Real(Constraint):
    def check(self, value):
        return value == value  # False for nan


class _Boolean(Constraint):
    def check(self, value):
        return (value == 0) | (value == 1)


class _Simplex(Constraint):
    """Non-negative entries along the last dim that sum to 1."""
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound) -> None:
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _LessThan(Constraint):
    def __init__(self, upper_bound) -> None:
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self) -> str:
        return f"LessThan(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    """lower_bound <= value <= upper_bound."""

    def __init__(self, lower_bound, upper_bound) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerInterval(_Interval):
    """Whole numbers from lower_bound to upper_bound."""

    def check(self, value):
        return (value % 1 == 0) & super().check(value)


class _IndependentConstraint(Constraint):
    """``base`` on every entry, the last ``reinterpreted_batch_ndims`` dims read as one event."""

    def __init__(self, base: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint, self.reinterpreted_batch_ndims = base, reinterpreted_batch_ndims
        self.event_dim = base.event_dim + reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        n = self.reinterpreted_batch_ndims
        return result.reshape(tuple(result.shape[:result.dim() - n]) + (-1,)).all(-1)

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


dependent = _Dependent()
real = _Real()
real_vector = _IndependentConstraint(real, 1)
positive = _GreaterThan(0.0)
unit_interval = _Interval(0.0, 1.0)
boolean = _Boolean()
simplex = _Simplex()
interval = _Interval
integer_interval = _IntegerInterval
less_than = _LessThan
greater_than = _GreaterThan
