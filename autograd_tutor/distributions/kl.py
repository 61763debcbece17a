"""``kl_divergence(p, q)``: KL(p || q) = E_p[log p(x) - log q(x)], in closed form for the pairs torch knows, written
as torch writes each (so the values and gradients are torch's), and ``register_kl`` for a pair of one's own.

KL(N(m1, s1^2) || N(m2, s2^2)) = (r + ((m1 - m2) / s2)^2 - 1 - log r) / 2 with r = (s1 / s2)^2.

>>> import autograd_tutor as torch
>>> from autograd_tutor.distributions import Normal, kl_divergence
>>> kl_divergence(Normal(0., 1.), Normal(1., 1.))
tensor(0.5000)
"""
from __future__ import annotations

import math

from ..autograd.factories import full_like
from ..nn import functional as F
from .bernoulli import Bernoulli
from .categorical import Categorical
from .normal import Normal
from .uniform import Uniform

__all__ = ["kl_divergence", "register_kl"]

_REGISTRY: dict = {}
inf = math.inf


def register_kl(type_p, type_q):
    """A decorator: ``@register_kl(P, Q)`` makes the function the KL(p || q) of those types (and their subclasses,
    the most specific registered pair winning)."""
    def decorator(fun):
        _REGISTRY[type_p, type_q] = fun
        return fun
    return decorator


def _dispatch(type_p, type_q):
    matches = [(p, q) for p, q in _REGISTRY if issubclass(type_p, p) and issubclass(type_q, q)]
    if not matches:
        return NotImplemented
    best = min(matches, key=lambda pq: (type_p.__mro__.index(pq[0]), type_q.__mro__.index(pq[1])))
    return _REGISTRY[best]


def kl_divergence(p, q):
    """KL(p || q) for each distribution of the batch (shape ``batch_shape``)."""
    fun = _dispatch(type(p), type(q))
    if fun is NotImplemented:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {p.__class__.__name__} and q type "
                                  f"{q.__class__.__name__}")
    return fun(p, q)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    t1 = p.probs * (F.softplus(-q.logits) - F.softplus(-p.logits))
    t1[q.probs == 0] = inf
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (F.softplus(q.logits) - F.softplus(p.logits))
    t2[q.probs == 1] = inf
    t2[p.probs == 1] = 0
    return t1 + t2


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = inf
    return result


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    common_term = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / common_term).log()
    t2 = common_term.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


@register_kl(Normal, Uniform)
def _kl_normal_uniform(p, q):
    """A normal puts mass outside every interval, where the uniform's density is 0: infinite."""
    return full_like(p.loc, inf)
