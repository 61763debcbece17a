"""``check_first_none``: did you find, with ``print``, where your function's result lost its ``grad_fn``? (lesson 1)

The graph is recorded while ordinary Python runs, so ordinary debugging works on it: put
``print(name, t.grad_fn)`` after each line and the first line whose result prints ``None`` is where the
history stopped (a ``.item()`` or ``.tolist()`` turned the values into plain numbers, a ``detach()``, a
``torch.no_grad()`` block). The check runs ``f`` on fresh copies of ``inputs`` while it follows ``f``'s lines
(``sys.settrace``), notes every tensor variable ``f`` assigns, in order, and asks the engine which inputs get a
gradient from the result (``torch.autograd.grad``). Then:

* the result is cut off: your ``first_none`` is compared with the first variable that holds a tensor without a
  ``grad_fn`` (a variable ``f`` makes from constants alone would count too: keep such tensors out of ``f``);
* once you named it, fix that line: the check is right when every input that requires grad gets a gradient.

>>> import autograd_tutor as torch
>>> def f(w):
...     doubled = w * 2
...     copied = torch.tensor(doubled.item())
...     return copied + 1
>>> print(check_first_none(f, {"w": torch.tensor(3., requires_grad=True)}, first_none="doubled"))
check_first_none: doubled prints grad_fn=<MulBackward0>: it still has its history. Look further down.
>>> print(check_first_none(f, {"w": torch.tensor(3., requires_grad=True)}, first_none="copied").verdict)
Found it: copied is the first to print grad_fn=None (line `copied = torch.tensor(doubled.item())`). A tensor made
there from plain numbers (.item(), .tolist()), by .detach() or under torch.no_grad() has no history. Now rewrite
that line with tensor operations on the tracked tensor and run again.
"""
from __future__ import annotations

import inspect
import sys
from typing import Callable, Mapping

from .. import events
from ..autograd.engine import grad as _grad
from ..autograd.tensor import Tensor
from ..quiz.generate import values_text
from ..viz.model import GraphModel
from .drawing import Marks, check_html, graph_svg

__all__ = ["check_first_none", "FirstNoneCheck"]

_KEY = ("The graph your function recorded: where it stops, the history was cut. The marked box is the tensor "
        "the verdict is about.")


class FirstNoneCheck:
    """What :func:`check_first_none` found: ``ok``, ``verdict`` (one line), ``found`` (the first variable
    without a ``grad_fn``, or "" once none is), ``model`` and ``marks``."""

    def __init__(self, model: GraphModel, verdict: str, marks: Marks, found: str = "") -> None:
        self.model, self._verdict, self.marks, self.found = model, verdict, marks, found

    @property
    def ok(self) -> bool:
        return self.marks.ok

    @property
    def verdict(self) -> str:
        return self._verdict

    def __str__(self) -> str:
        return f"check_first_none: {'right' if self.ok else self.verdict}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return check_html(self.ok, "Check of where the history stopped", self.verdict,
                          [("", graph_svg(self.model, self.marks))], _KEY)


def check_first_none(f: Callable, inputs: Mapping, first_none: str = "") -> FirstNoneCheck:
    """Run ``f(*inputs.values())`` on fresh copies of ``inputs`` (name -> tensor); say whether ``first_none``
    names the first variable of ``f`` whose tensor has no ``grad_fn``, or, once none is cut, that it is right."""
    if not callable(f):
        raise TypeError(f"check_first_none(f, inputs) expects your function, got a {type(f).__name__}.")
    for name, t in inputs.items():
        if not isinstance(t, Tensor):
            raise TypeError(f"check_first_none expects tensors as inputs, but {name} is a {type(t).__name__}: "
                            "check_first_none(f, {'w': w, 'x': x}, first_none='...').")
    fresh = {k: t.detach().clone().requires_grad_(t.requires_grad) for k, t in inputs.items()}
    with events.record() as trace:
        assigned, result = _run_following_lines(f, list(fresh.values()))
    if not isinstance(result, Tensor):
        raise TypeError(f"{f.__name__} returned a {type(result).__name__}, not a tensor: return the result.")
    call = f"{f.__name__}({', '.join(fresh)})"
    named = {**{k: v for k, (v, _) in assigned.items()}, **fresh, call: result}
    model = GraphModel.from_trace(trace, namespace=named)
    tracked = {k: t for k, t in fresh.items() if t.requires_grad}
    grads = (_grad(result, list(tracked.values()), allow_unused=True) if result.requires_grad and tracked
             else [None] * len(tracked))
    if all(g is not None for g in grads):
        got = ", ".join(f"{k}.grad = {values_text(g._data, most=4)}" for k, g in zip(tracked, grads))
        return FirstNoneCheck(model, f"{call} has grad_fn={result.grad_fn.name()}, and backward will give {got}: "
                              "the history reaches your inputs again.", Marks(ok=True))
    cut = next((k for k, (v, _) in assigned.items() if v.grad_fn is None), "")
    line = assigned[cut][1] if cut else ""
    where = f" (line `{line}`)" if line else ""
    given = str(first_none).strip()
    if cut and given == cut:
        return FirstNoneCheck(model, f"Found it: {cut} is the first to print grad_fn=None{where}. A tensor made "
                              "there from plain numbers (.item(), .tolist()), by .detach() or under "
                              "torch.no_grad() has no history. Now rewrite that line with tensor operations on "
                              "the tracked tensor and run again.",
                              Marks(apart=cut, note="the first grad_fn=None"), cut)
    ask = (f"Print each variable's grad_fn inside {f.__name__} (print('name', name.grad_fn) after each line) and "
           "set first_none to the first one that prints None.")
    if not given:
        said = f"{call} has grad_fn=None, so backward cannot reach {', '.join(tracked)}. {ask}"
    elif given in assigned and assigned[given][0].grad_fn is not None:
        said = (f"{given} prints grad_fn=<{assigned[given][0].grad_fn.name()}>: it still has its history. "
                "Look further down.")
    elif given in assigned:
        said = f"{given} prints grad_fn=None, but it is not the first one that does. Look further up."
    else:
        said = (f"{f.__name__} has no tensor variable {given!r}; its variables are "
                f"{', '.join(assigned) or 'none'}. {ask}")
    return FirstNoneCheck(model, said, Marks(apart=call, note="grad_fn=None"), cut)


def _run_following_lines(f: Callable, args: list):
    """Call ``f(*args)`` and return ``({name: (tensor, source line)}, result)``: each tensor variable ``f``
    assigned (its first value), in order, with the line that assigned it; the arguments are left out."""
    code = getattr(f, "__code__", None)
    skip = set(inspect.signature(f).parameters) if code is not None else set()
    assigned: dict = {}
    last = [None]

    def note(frame) -> None:
        for name, value in frame.f_locals.items():
            if name not in skip and name not in assigned and isinstance(value, Tensor):
                assigned[name] = (value, _source_line(frame, last[0]) if last[0] else "")

    def local(frame, event, arg):
        note(frame)
        last[0] = frame.f_lineno
        return local

    def tracer(frame, event, arg):
        return local if frame.f_code is code else None
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        result = f(*args)
    finally:
        sys.settrace(previous)
    return assigned, result


def _source_line(frame, lineno) -> str:
    """The stripped source of line ``lineno`` of the function running in ``frame`` ("" when unavailable)."""
    try:
        lines, start = inspect.getsourcelines(frame.f_code)
    except (OSError, TypeError):
        return ""
    index = lineno - (start or 1)
    return lines[index].split("#")[0].strip() if 0 <= index < len(lines) else ""
