"""The base class: a distribution has a ``batch_shape`` (independent distributions side by side) and an
``event_shape`` (the shape of one draw); ``sample(sample_shape)`` returns sample_shape + batch_shape + event_shape.
Parameters are checked against ``arg_constraints`` and values against ``support`` unless ``validate_args=False``.

>>> from autograd_tutor.distributions import Normal
>>> Normal(0., 1.).sample((2, 3)).shape
torch.Size([2, 3])
"""
from __future__ import annotations

import warnings

from ..autograd.grad_mode import no_grad
from ..autograd.tensor import Size, Tensor
from . import constraints
from .utils import lazy_property

__all__ = ["Distribution"]


class Distribution:
    """What every distribution has: shapes, argument checks, sample / rsample / log_prob / entropy."""
    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Check arguments by default (True, as torch unless ``python -O``) or not."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=Size(), event_shape=Size(), validate_args=None) -> None:
        self._batch_shape, self._event_shape = batch_shape, event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if not self._validate_args:
            return
        for param, constraint in self.arg_constraints.items():
            if isinstance(constraint, constraints._Dependent):
                continue
            if param not in self.__dict__ and isinstance(getattr(type(self), param), lazy_property):
                continue  # computed on first use from the parameter given
            value = getattr(self, param)
            if not bool(constraint.check(value).all()):
                raise ValueError(f"Expected parameter {param} ({type(value).__name__} of shape {tuple(value.shape)}) "
                                 f"of distribution {self!r} to satisfy the constraint {constraint!r}, but found "
                                 f"invalid values:\n{value}")

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        raise NotImplementedError

    @property
    def support(self):
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def sample(self, sample_shape=Size()) -> Tensor:
        """A draw that carries no gradient."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=Size()) -> Tensor:
        """A reparameterized draw: a function of the parameters, so gradients flow into them."""
        raise NotImplementedError

    def sample_n(self, n: int) -> Tensor:
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.", FutureWarning, stacklevel=2)
        return self.sample(Size((n,)))

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        return self.entropy().exp()

    def _extended_shape(self, sample_shape=Size()) -> Size:
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value) -> None:
        """``value``'s last dims must broadcast with batch_shape + event_shape and lie in the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = len(value.size()) - len(self._event_shape)
        if value.size()[start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: {value.size()} vs "
                             f"{self._event_shape}.")
        actual, expected = value.size(), Size(tuple(self._batch_shape) + tuple(self._event_shape))
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {actual} vs {expected}.")
        if not bool(self.support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be "
                             f"within the support ({self.support!r}) of the distribution {self!r}, but found "
                             f"invalid values:\n{value}")

    def __repr__(self) -> str:
        shown = [p for p in self.arg_constraints if p in self.__dict__]
        args = ", ".join(f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
                         for p in shown)
        return f"{type(self).__name__}({args})"
