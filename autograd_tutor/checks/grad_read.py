"""``check_grad_read``: does your step read ``w.grad`` only after ``backward()`` filled it? (lesson 2)

Building the graph computes values, not gradients: a leaf's ``.grad`` is ``None`` until a ``backward()`` that
reaches it runs, then holds the gradient (and adds to it on the next pass). Reading it too early gives ``None``
back, or, when you use it (``w.grad.norm()``), ``AttributeError: 'NoneType' object has no attribute 'norm'``.

The check runs ``step(*inputs.values())`` on fresh copies of ``inputs`` while it listens to the engine's events
(:mod:`autograd_tutor.events`), and is right when the step ran ``backward()`` and returned the leaf's gradient,
the one the engine accumulated into it. Otherwise it says what went wrong, on which line of your step, and marks
the leaf whose ``.grad`` was still ``None``.

>>> import autograd_tutor as torch
>>> def step(w, x):
...     loss = (w * x).sum() ** 2
...     print("gradient norm:", w.grad.norm())
...     loss.backward()
...     return w.grad
>>> result = check_grad_read(step, {"w": torch.tensor([1., 2.], requires_grad=True), "x": torch.tensor([3., 4.])})
>>> print(result)
check_grad_read: your step raised AttributeError: 'NoneType' object has no attribute 'norm' (line `print("gradient
norm:", w.grad.norm())`), before any backward() ran: w.grad is None until backward() fills it. Use it after
loss.backward().
"""
from __future__ import annotations

import inspect
from typing import Callable, Mapping

from .. import events
from ..autograd.tensor import Tensor
from ..quiz.generate import values_text
from ..viz.model import GraphModel
from .drawing import Marks, check_html, graph_svg
from .retained import _run_reading_locals

__all__ = ["check_grad_read", "GradReadCheck"]

_KEY = ("The graph your step built; the marked leaf is the tensor whose .grad was read while it was still None.")


class GradReadCheck:
    """What :func:`check_grad_read` found: ``ok``, ``verdict`` (one line), ``model`` and ``marks``."""

    def __init__(self, model: GraphModel, verdict: str, marks: Marks) -> None:
        self.model, self.verdict, self.marks = model, verdict, marks

    @property
    def ok(self) -> bool:
        return self.marks.ok

    def __str__(self) -> str:
        return f"check_grad_read: {'right' if self.ok else self.verdict}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        drawing = [("", graph_svg(self.model, self.marks))] if self.model.visible else []
        return check_html(self.ok, "Check of when your step reads .grad", self.verdict, drawing, _KEY)


def check_grad_read(step: Callable, inputs: Mapping) -> GradReadCheck:
    """Run ``step`` on fresh copies of ``inputs`` (name -> tensor; the first that requires grad is the one whose
    gradient the step returns) and check that it returns that leaf's ``.grad``, read after ``backward()``."""
    if not callable(step):
        raise TypeError(f"check_grad_read(step, inputs) expects your function, got a {type(step).__name__}. "
                        "Pass the function itself: check_grad_read(step, {'w': w, 'x': x}).")
    for name, t in inputs.items():
        if not isinstance(t, Tensor):
            raise TypeError(f"check_grad_read expects tensors as inputs, but {name} is a {type(t).__name__}.")
    fresh = {k: t.detach().clone().requires_grad_(t.requires_grad) for k, t in inputs.items()}
    name = next((k for k, t in fresh.items() if t.requires_grad), None)
    if name is None:
        raise ValueError("check_grad_read needs an input that requires grad: {'w': torch.tensor(..., "
                         "requires_grad=True), ...}")
    w, found, error, result = fresh[name], {}, None, None
    with events.record() as trace:
        try:
            result = _run_reading_locals(step, tuple(fresh.values()), found)
        except Exception as exc:
            error = exc
    model = GraphModel.from_trace(trace, namespace={**{k: v for k, v in found.items() if isinstance(v, Tensor)},
                                                    **fresh})
    node = model.node(w._id)
    early = Marks(node=node.key if node else None, apart="" if node else name, note=f"{name}.grad is None here")
    ran = any(e.kind == "backward_started" for e in trace)
    if error is not None:
        where = _line_of(step, error)
        before = "before any backward() ran" if not ran else "after a backward() that did not reach it"
        said = f"your step raised {type(error).__name__}: {error}{where}"
        if "NoneType" in str(error):
            said += f", {before}: {name}.grad is None until backward() fills it. Use it after loss.backward()."
        return GradReadCheck(model, said, early)
    if not ran:
        return GradReadCheck(model, f"your step never called backward(), so {name}.grad is still None: call "
                             "loss.backward() first, then return " + f"{name}.grad.", early)
    if result is None:
        return GradReadCheck(model, f"your step returned None: it read {name}.grad before backward() filled it "
                             f"(it is None until then). Read it after loss.backward().", early)
    if w.grad is None:
        return GradReadCheck(model, f"your step ran backward(), but not from a result computed from {name}: "
                             f"{name}.grad is still None. Call backward() on the loss computed from {name}.", early)
    if not isinstance(result, Tensor) or result.shape != w.grad.shape or not bool((result == w.grad).all()):
        got = values_text(result._data, most=4) if isinstance(result, Tensor) else f"a {type(result).__name__}"
        return GradReadCheck(model, f"your step returned {got}, not {name}.grad as backward() left it "
                             f"({values_text(w.grad._data, most=4)}): return {name}.grad.", early)
    return GradReadCheck(model, f"{name}.grad was None until backward() ran; your step read it after, and "
                         f"returned {name}.grad = {values_text(w.grad._data, most=4)}.", Marks(ok=True))


def _line_of(step: Callable, error: BaseException) -> str:
    """`` (line `...`)``: the line of ``step`` where ``error`` was raised, or "" when it is not in ``step``."""
    tb, line = error.__traceback__, ""
    while tb is not None:
        if tb.tb_frame.f_code is getattr(step, "__code__", None):
            try:
                lines, start = inspect.getsourcelines(step)
                line = lines[tb.tb_lineno - start].split("#")[0].strip()
            except (OSError, TypeError, IndexError):
                line = ""
        tb = tb.tb_next
    return f" (line `{line}`)" if line else ""
