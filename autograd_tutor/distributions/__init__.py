"""``torch.distributions``: the probability distributions of policy-gradient and VAE lessons, written as torch's are
(so they sample the same numbers after ``manual_seed``, and their log-probabilities carry gradients).

>>> import autograd_tutor as torch
>>> from autograd_tutor.distributions import Normal, Categorical
>>> Normal(0., 1.).log_prob(torch.tensor(0.)), Categorical(probs=torch.tensor([0.25, 0.75])).entropy()
(tensor(-0.9189), tensor(0.5623))
"""
from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .kl import kl_divergence, register_kl
from .normal import Normal
from .uniform import Uniform

__all__ = ["Distribution", "Normal", "Categorical", "Bernoulli", "Uniform", "constraints", "kl_divergence", "register_kl"]
