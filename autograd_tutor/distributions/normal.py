"""The normal (Gaussian) distribution N(loc, scale^2).

log p(x) = -(x - loc)^2 / (2 scale^2) - log(scale) - log(sqrt(2 pi));  rsample: loc + eps * scale, eps ~ N(0, 1)
(the reparameterization trick of a VAE: the draw is a function of loc and scale, so gradients reach them).

>>> import autograd_tutor as torch
>>> from autograd_tutor.distributions import Normal
>>> Normal(torch.tensor([0., 1.]), 2.).log_prob(torch.tensor([0., 0.]))
tensor([-1.6121, -1.7371])
"""
from __future__ import annotations

import math
from numbers import Number

from ..autograd.factories import empty
from ..autograd.grad_mode import no_grad
from ..autograd.tensor import Size
from ..autograd.factories import normal
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Normal"]


class Normal(Distribution):
    """N(loc, scale^2), batched over the broadcast shape of loc and scale."""
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(Size() if scalar else self.loc.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=Size()):
        eps = empty(self._extended_shape(sample_shape), dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + ((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)).erf())

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()
