"""The graphs the lessons ask learners to reproduce with :func:`~autograd_tutor.checks.check_graph`.

They live here, not in the notebook, so that the lesson shows the drawing and not the code: reading this file
is looking at the solution (the teacher's guide shows it too).

>>> import autograd_tutor as torch
>>> x, w, b = (torch.tensor(v, requires_grad=True) for v in (2., 3., 1.))
>>> lesson1(x, w, b).grad_fn.name()
'MulBackward0'
"""
from __future__ import annotations

__all__ = ["lesson1"]


def lesson1(x, w, b):
    """Lesson 1's target: ``tanh(w * x + b) * x``, a neuron's output scaled by its own input (``x`` feeds two
    nodes, so backward adds two gradients into ``x.grad``)."""
    return (w * x + b).tanh() * x
