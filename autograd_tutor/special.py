"""``torch.special``: the names torch gathers there, each the same operation (and node) as elsewhere:
``expit`` is ``sigmoid`` (SigmoidBackward0), ``erf`` ErfBackward0, ``xlogy`` XlogyBackward0, ``softmax``,
``log_softmax`` and ``logsumexp`` their Tensor methods.

>>> import autograd_tutor as torch
>>> torch.special.expit(torch.tensor(0., requires_grad=True))
tensor(0.5000, grad_fn=<SigmoidBackward0>)
"""
from __future__ import annotations

from .ops import _method, erf, log_softmax, logsumexp, softmax, xlogy

__all__ = ["expit", "erf", "xlogy", "softmax", "log_softmax", "logsumexp"]

expit = _method("sigmoid")
