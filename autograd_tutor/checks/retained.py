"""``check_retained``: does your step keep the gradient of ``h`` and run backward twice, the gradients adding up?
(lesson 4)

The check runs ``step(x)`` on a fresh leaf ``x`` while it listens to the engine's events
(:mod:`autograd_tutor.events`): each ``backward`` that starts (and whether it passed ``retain_graph=True``),
each gradient added into ``x.grad``, a backward that fails. It reads your step's variables when the step returns
or raises, to find the intermediate (``h`` by default). Then it says which call is missing:

* ``retain_graph=True`` on the first backward: without it the first pass frees what the nodes saved
  (``MulBackward0`` saved ``h``), and the second raises;
* ``h.retain_grad()`` before the first backward: without it ``h.grad`` stays None (only leaves keep one);

and checks that after the second pass ``x.grad`` is twice what the first pass gave (gradients accumulate).

>>> import autograd_tutor as torch
>>> def step(x):
...     h = x * 3
...     out = h * h
...     out.backward()
...     out.backward()
>>> print(check_retained(step, 2.0))
check_retained: your second backward raised RuntimeError: the first pass freed the values MulBackward0 saved. Pass
retain_graph=True to the first backward(): out.backward(retain_graph=True).
"""
from __future__ import annotations

import sys
from typing import Callable

from .. import events
from ..autograd.factories import tensor as _tensor
from ..autograd.tensor import Tensor
from ..quiz.generate import values_text
from ..viz.model import GraphModel
from .drawing import Marks, check_html, graph_svg

__all__ = ["check_retained", "RetainCheck"]

_KEY = ("The graph your step built, from x to the root of its backward passes; the marked box is where the "
        "problem shows.")


class RetainCheck:
    """What :func:`check_retained` found: ``ok``, ``problem`` (one line), ``passes`` (the backward passes
    that ran to the end), ``grads`` (``x.grad`` after each of them), ``model`` and ``marks``."""

    def __init__(self, model, problem: str, marks: Marks, passes: int, grads: list, kept=None, name="h") -> None:
        self.model, self.problem, self.marks, self.passes, self.grads = model, problem, marks, passes, grads
        self.kept, self.name = kept, name

    @property
    def ok(self) -> bool:
        return not self.problem

    @property
    def verdict(self) -> str:
        if self.ok:
            first, second = (values_text(g, most=4) for g in self.grads[:2])
            return (f"{self.name} kept its gradient ({self.name}.grad = {values_text(self.kept, most=4)} after both passes), and "
                    f"x.grad went from {first} after the first pass to {second} after the second: the gradients "
                    "added up.")
        return self.problem[0].upper() + self.problem[1:]

    def __str__(self) -> str:
        return f"check_retained: {'right' if self.ok else self.problem}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        drawing = [("", graph_svg(self.model, self.marks))] if self.model is not None and self.model.visible else []
        return check_html(self.ok, "Check of your two backward passes", self.verdict, drawing, _KEY)


def check_retained(step: Callable, x=2.0, *, intermediate: str = "h") -> RetainCheck:
    """Run ``step(x)`` (``x`` a fresh leaf made from the number or tensor given) and check that it keeps the
    gradient of its variable ``intermediate`` and runs backward twice, the second adding to the first."""
    if not callable(step):
        raise TypeError(f"check_retained(step) expects your function, got a {type(step).__name__}. Pass the "
                        "function itself: check_retained(step), not check_retained(step(x)).")
    x = (x.detach().clone() if isinstance(x, Tensor) else _tensor(x, dtype=None)).float().requires_grad_()
    found, error = {}, None
    with events.record() as trace:
        try:
            _run_reading_locals(step, (x,), found)
        except Exception as exc:
            error = exc
    names = {k: v for k, v in found.items() if isinstance(v, Tensor)}
    names["x"] = x
    model = GraphModel.from_trace(trace, namespace=names)
    starts = [e for e in trace if e.kind == "backward_started"]
    failed = next((e for e in trace if e.kind == "backward_failed"), None)
    grads = [e.after for e in trace if e.kind == "grad_accumulated" and e.tensor_id == x._id]
    h = names.get(intermediate)
    h_node = model.node(h.grad_fn._id) if h is not None and h.grad_fn is not None else None
    h_mark = Marks(node=h_node.key if h_node else None, apart="" if h_node else intermediate,
                   note=f"{intermediate} keeps no .grad")

    def verdict(problem: str, marks: Marks) -> RetainCheck:
        return RetainCheck(model, problem, marks, len(grads), grads)

    if failed is not None and len(starts) >= 2 and not starts[0].retain_graph:
        node = model.node(failed.node_id)
        return verdict(f"your second backward raised {failed.error_type}: the first pass freed the values "
                       f"{failed.name} saved. Pass retain_graph=True to the first backward(): "
                       "out.backward(retain_graph=True).",
                       Marks(node=node.key if node else None, note="saved values freed"))
    if error is not None:
        return verdict(f"your step raised {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}",
                       Marks())
    if h is None or h.grad_fn is None:
        return verdict(f"your step has no intermediate {intermediate} computed from x: compute it "
                       f"({intermediate} = x * 3) inside the step.", Marks())
    if not h.retains_grad:
        return verdict(f"{intermediate}.grad stays None: {intermediate} is not a leaf, so backward keeps no gradient "
                       f"in it. Call {intermediate}.retain_grad() before the first backward.", h_mark)
    if len(starts) != 2 or len(grads) != 2:
        return verdict(f"your step ran backward {len(starts)} time{'s' if len(starts) != 1 else ''}: run it "
                       "twice, the first with retain_graph=True.", Marks())
    if not (grads[1] == 2 * grads[0]).all():
        return verdict(f"x.grad is {values_text(grads[1], most=4)} after the second pass, not twice the first "
                       f"({values_text(grads[0], most=4)}): let the gradients add up (do not reset x.grad between "
                       "the passes).", Marks())
    return RetainCheck(model, "", Marks(ok=True), 2, grads, kept=h.grad._data, name=intermediate)


def _run_reading_locals(step: Callable, args: tuple, found: dict):
    """Call ``step(*args)`` and return its result, copying the step's local variables into ``found`` when it
    returns or raises."""
    code = getattr(step, "__code__", None)

    def profile(frame, event, arg):
        if event == "return" and frame.f_code is code:
            found.update(frame.f_locals)
    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        return step(*args)
    finally:
        sys.setprofile(previous)
