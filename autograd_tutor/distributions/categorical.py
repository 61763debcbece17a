"""The categorical distribution: one of K events, event k with probability probs[k] (a policy's choice of action,
the next character of a language model).

log p(k) = logits[k] (logits normalized: logits - logsumexp(logits));  entropy = -sum_k p_k log p_k.

>>> import autograd_tutor as torch
>>> from autograd_tutor.distributions import Categorical
>>> Categorical(logits=torch.tensor([0., 0., 0., 0.])).log_prob(torch.tensor(2))
tensor(-1.3863)
"""
from __future__ import annotations

import numpy as np

from ..autograd.factories import arange, full
from ..autograd.tensor import Size
from ..ops import broadcast_tensors
from . import constraints
from .distribution import Distribution
from .utils import lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Categorical"]


class Categorical(Distribution):
    """Given ``probs`` (normalized along the last dim) or ``logits``, not both; the last dim holds the K events."""
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else Size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def variance(self):
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    def sample(self, sample_shape=Size()):
        """Drawn as torch draws them: ``multinomial`` with replacement, one row of probs per distribution."""
        sample_shape = Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = probs_2d.multinomial(sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        logits = self.logits.clamp(min=float(np.finfo(self.logits.dtype.np).min))
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        values = arange(self._num_events).view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values
