"""Live demonstrations of autograd's pitfalls, computed by the engine (pure Python, no widgets).

* :func:`which_ops_save` - which operations save tensors, and so which graphs a second ``backward()`` breaks;
* :class:`SecondBackward` - ``backward()`` twice on one graph, with and without ``retain_graph=True``
  (the model behind :class:`autograd_tutor.widgets.RetainGraphDemo`);
* :func:`partial_accumulation` - ``y = a*a + b``: ``b.grad`` changes before ``MulBackward0`` raises;
* :data:`PITFALLS` - the neighbouring mistakes (no ``zero_grad``, ``.grad`` of a non-leaf, ``backward()`` on
  a non-scalar, a saved tensor modified in place), each run live with its fix.

Nothing shown is typed in: tables, error texts and the numbers in the explanations come from running the code.

>>> from autograd_tutor import demos
>>> demos.which_ops_save(["x * x"])[0].second_backward_raises
True
"""
from ._run import Run, run_snippet
from .partial import PartialAccumulation, partial_accumulation
from .pitfalls import (PITFALLS, Pitfall, accumulate_without_zero_grad, all_pitfalls, inplace_saved, nonleaf_grad,
                       nonscalar_backward)
from .saving import EXPRESSIONS, NodeInfo, OpReport, OpTable, SavedInfo, which_ops_save
from .second_backward import Attempt, SecondBackward

__all__ = ["Run", "run_snippet", "EXPRESSIONS", "NodeInfo", "OpReport", "OpTable", "SavedInfo", "which_ops_save",
           "Attempt", "SecondBackward", "PartialAccumulation", "partial_accumulation", "Pitfall", "PITFALLS",
           "all_pitfalls", "accumulate_without_zero_grad", "nonleaf_grad", "nonscalar_backward", "inplace_saved"]
