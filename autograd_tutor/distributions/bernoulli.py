"""The Bernoulli distribution: 1 with probability p, else 0 (a coin; a pixel of a binary VAE).

log p(x) = x log(p) + (1 - x) log(1 - p) = -BCE_with_logits(logits, x);  entropy = BCE_with_logits(logits, p).

>>> import autograd_tutor as torch
>>> from autograd_tutor.distributions import Bernoulli
>>> Bernoulli(probs=torch.tensor([0.3, 0.9])).log_prob(torch.tensor([1., 0.]))
tensor([-1.2040, -2.3026])
"""
from __future__ import annotations

from numbers import Number

from ..autograd.grad_mode import no_grad
from ..autograd.tensor import Size
from ..nn import functional as F
from ..ops import bernoulli
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Bernoulli"]


class Bernoulli(Distribution):
    """Given ``probs`` or ``logits`` (log-odds), not both; the other is computed on first use."""
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        super().__init__(Size() if isinstance(given, Number) else self._param.size(), validate_args=validate_args)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=Size()):
        with no_grad():
            return bernoulli(self.probs.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")
