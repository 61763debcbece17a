"""Drawing the computation graph: one model, one layered layout, several renderers. Pure Python.

Nothing here imports ipywidgets; matplotlib and networkx are imported only by the functions that need them
(the layout's layering is a min-cost flow that networkx solves, so drawing needs the ``widgets`` extra).
The widgets (:mod:`autograd_tutor.widgets`) and lessons build on this API:

* :class:`GraphModel` - nodes (:class:`VizNode`: ``kind`` leaf/op/constant/collapsed, ``label``, ``op``,
  ``value``, ``grad``, ``saved``, ``saved_state``) and edges (:class:`VizEdge`), built from a tensor
  (``GraphModel.from_tensor``, also for PyTorch tensors) or from events (``from_trace``, ``apply``);
* :func:`layered.layout` - where every box, edge and edge label goes (Sugiyama's method, see
  :mod:`~autograd_tutor.viz.layered`); :class:`Layout` - the model's bookkeeping of layers for folding;
* :func:`build_steps` / :func:`state_at` - the backward replay and its narration, from recorded events;
* :mod:`~autograd_tutor.viz.cuts` - where the graph was cut (``detach``, ``no_grad``, ``.data``, ...), marked on
  every drawing, and :func:`explain_no_grad` (why a tensor gets no gradient, in one sentence);
* :func:`to_svg`, :func:`draw` (matplotlib), :func:`to_networkx`, :func:`save`, :func:`text_table`,
  :func:`html_table`.

>>> import autograd_tutor as torch
>>> from autograd_tutor import events, viz
>>> with events.record() as trace:
...     a = torch.tensor(3., requires_grad=True); b = torch.tensor(4., requires_grad=True)
...     d = a * b + a
...     d.backward()
>>> model = viz.GraphModel.from_trace(trace, namespace={"a": a, "b": b, "d": d})
>>> [e.grad.text for e in model.edges]
['4', '3', '1', '1']
>>> print(viz.build_steps(model)[3].text)
a receives 1 + 4 = 5 and stores it in a.grad, which becomes 5.
"""
from .cuts import explain_no_grad
from .export import save, to_networkx
from .format import Value, summary
from .layout import Layout
from .model import BACKWARD_KINDS, STRUCTURE_KINDS, GraphModel, VizEdge, VizNode
from .mpl import draw, save_png
from .names import tensors_in
from .replay import State, Step, build_steps, replay_json, state_at
from .svg import to_svg
from .table import html_table, text_table

__all__ = ["GraphModel", "VizNode", "VizEdge", "Layout", "Value", "summary", "Step", "State", "build_steps",
           "state_at", "replay_json", "to_svg", "draw", "save_png", "save", "to_networkx", "text_table",
           "html_table", "tensors_in", "explain_no_grad", "BACKWARD_KINDS", "STRUCTURE_KINDS"]
