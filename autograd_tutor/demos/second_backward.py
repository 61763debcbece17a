"""``backward()`` twice on one graph: what is freed, where the second call fails, and how to fix it.

:class:`SecondBackward` holds one graph and runs ``backward()`` on it when asked, with or without
``retain_graph=True``, recording the engine's events of every call. From them it knows which node freed
which saved tensors, where a call failed (and with torch's exact message), which ``.grad`` changed before
the failure, and how each leaf's ``.grad`` evolved. It draws the graph with :func:`autograd_tutor.viz.to_svg`
(saved tensors plain, struck out once freed, bold when kept) and marks the node where the error fired.
:class:`~autograd_tutor.widgets.RetainGraphDemo` is its face in a notebook: three buttons and this model.

The graph comes from one of three sources:

* nothing: the lesson's ``y = x ** 3`` at ``x = 2`` (built by :func:`cube`);
* a function that builds the graph and returns the output, e.g. ``SecondBackward(build)``: :meth:`reset`
  calls it again for a fresh graph, and the function's local variables name the nodes;
* a tensor, e.g. ``SecondBackward(loss)``: its own graph is used as it is, named from the caller's
  variables. A graph cannot be rebuilt from a tensor, so :meth:`reset` is not available then.

>>> demo = SecondBackward()
>>> print(demo.backward().summary)
y.backward() -> x.grad = 12; PowBackward0 freed self
>>> print(demo.backward().summary)
y.backward() -> RuntimeError at PowBackward0; x.grad stays 12
>>> demo.reset()
>>> print(demo.backward(retain_graph=True).summary)
y.backward(retain_graph=True) -> x.grad = 12; PowBackward0 kept self
>>> print(demo.backward().summary)
y.backward() -> x.grad = 24; PowBackward0 freed self
>>> demo.history()
[('x', ['None', '12', '24'])]
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from html import escape
from typing import Callable, Mapping, Optional

import numpy as np

from .. import events
from ..autograd.function import FREED_MESSAGE
from ..viz import GraphModel, to_svg
from ..viz.format import summary
from ..viz.names import caller_namespace, is_tensor
from ..viz.narrate import joined, local_formula
from ..viz.style import PALETTE
from ..viz.svg import FONT
from .saving import graph_nodes

__all__ = ["SecondBackward", "Attempt", "cube", "call_with_locals"]

_TOP = 16  # room above the drawing for the label of a failed node


def cube():
    """The lesson's graph: ``y = x ** 3`` at ``x = 2``, so dy/dx = 3·x² = 12."""
    import autograd_tutor as torch
    x = torch.tensor(2., requires_grad=True)
    y = x ** 3
    return y


#: The code :func:`cube` runs, as the lesson writes it.
CUBE_CODE = "x = torch.tensor(2., requires_grad=True)\ny = x ** 3"


def call_with_locals(fn: Callable) -> tuple:
    """Call ``fn()`` and return ``(its result, its local variables when it returned)``.

    The locals are caught with a profile function that watches for ``fn``'s own frame returning, so
    ``fn`` needs no ``return locals()``.

    >>> def build():
    ...     a = 2
    ...     b = a * 3
    ...     return b
    >>> call_with_locals(build)
    (6, {'a': 2, 'b': 6})
    """
    code = getattr(fn, "__code__", None)
    found: dict = {}

    def watch(frame, event, arg):
        if event == "return" and frame.f_code is code:
            found.clear()
            found.update(frame.f_locals)

    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        result = fn()
    finally:
        sys.setprofile(previous)
    return result, found


@dataclass(frozen=True)
class Attempt:
    """One ``backward()`` call and what it did, from the engine's events.

    ``grads``: ``(leaf, .grad before, .grad after)`` as short texts; ``freed`` / ``kept``: ``(node, saved
    names)`` freed by the call, or kept by ``retain_graph=True``; ``accumulated``: ``(name, before, after)``
    of every ``.grad`` change, in order; ``error`` is the exception's message, word for word, and
    ``failed_at`` / ``failed_key`` the node where it fired.
    """
    number: int
    call: str
    retain_graph: bool
    grads: tuple
    freed: tuple
    kept: tuple
    accumulated: tuple
    error_type: Optional[str] = None
    error: Optional[str] = None
    failed_at: Optional[str] = None
    failed_key: Optional[int] = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def error_line(self) -> str:
        return f"{self.error_type}: {self.error}" if self.error is not None else ""

    @property
    def summary(self) -> str:
        """One line: ``y.backward() -> x.grad = 12; PowBackward0 freed self``."""
        if not self.ok:
            where = f" at {self.failed_at}" if self.failed_at else ""
            changed = [f"{n}.grad {b} -> {a}" for n, b, a in self.grads if a != b]
            stays = [f"{n}.grad stays {a}" for n, b, a in self.grads if a == b]
            return f"{self.call} -> {self.error_type}{where}; " + ", ".join(changed + stays)
        grads = ", ".join(f"{n}.grad = {a}" for n, _, a in self.grads)
        saved = [f"{node} freed {', '.join(names)}" for node, names in self.freed]
        saved += [f"{node} kept {', '.join(names)}" for node, names in self.kept]
        return "; ".join([f"{self.call} -> {grads}"] + saved)


class SecondBackward:
    """A graph and the ``backward()`` calls made on it (see the module docstring).

    ``source``: None (``y = x ** 3`` at 2), a function returning the output tensor, or a tensor.
    ``names``: where to find variable names for a tensor passed directly (default: the caller's variables).
    """

    def __init__(self, source=None, names: Optional[Mapping] = None, _depth: int = 2) -> None:
        if source is None:
            source = cube
        if is_tensor(source):
            self.build = None
            self.code = ""
            self._load(source, names if names is not None else caller_namespace(_depth))
        elif callable(source):
            self.build = source
            self.code = CUBE_CODE if source is cube else _source_of(source)
            self.reset()
        else:
            raise TypeError("SecondBackward expects a tensor, a function that returns one, or nothing "
                            f"(for y = x ** 3 at x = 2), got {type(source).__name__}")

    @property
    def can_reset(self) -> bool:
        """True when the graph came from a function, which :meth:`reset` can call again."""
        return self.build is not None

    def reset(self) -> None:
        """Call the function again for a fresh graph (its saved tensors all there) and a new history."""
        if self.build is None:
            raise RuntimeError("reset() needs a function that builds the graph, e.g. SecondBackward(build) "
                               "with def build(): ... return loss. A tensor passed directly keeps its own graph, "
                               "whose freed tensors cannot be brought back: run the forward code again instead.")
        root, local = call_with_locals(self.build)
        if not is_tensor(root):
            raise TypeError(f"the function passed to SecondBackward must return a tensor, got {type(root).__name__}")
        self._load(root, local)

    def _load(self, root, namespace: Mapping) -> None:
        if not root.requires_grad:
            raise RuntimeError("this tensor does not require grad, so it has no graph to run backward through: "
                               "create its leaves with requires_grad=True")
        if root.numel() != 1:
            raise RuntimeError(f"backward() needs a one-element output such as a loss; this tensor has shape "
                               f"{tuple(root.shape)} (use its .sum() or .mean())")
        self.root = root
        self._live = {n._id: n for n in graph_nodes(root)}
        self.model = GraphModel.from_tensor(root, namespace=namespace)
        self.leaves = _leaves(root)
        unnamed = "leaf" if len(self.leaves) == 1 else "leaf{}"
        self.names = {t._id: getattr(self.model.node(t._id), "name", "") or unnamed.format(i)
                      for i, t in enumerate(self.leaves, 1)}
        root_node = self.model.node(self.model.key_of_node(root.grad_fn._id)) if root.grad_fn is not None else None
        self.root_name = (root_node.name if root_node is not None else "") or "output"
        self.grads_at_start = {t._id: _text(t.grad) for t in self.leaves}
        self.attempts: list = []
        self.freed_by: dict = {n.key: 0 for n in self.model.visible if n.saved_state == "freed"}

    # ------------------------------------------------------------------ running
    def backward(self, retain_graph: bool = False) -> Attempt:
        """Run ``root.backward(retain_graph=...)`` once, recording what it did (an error is kept, not raised)."""
        before = {t._id: _text(t.grad) for t in self.leaves}
        error = None
        with events.record() as trace:
            try:
                self.root.backward(retain_graph=retain_graph)
            except RuntimeError as exc:
                error = exc
        for event in trace:
            self.model.apply(event)
        number = len(self.attempts) + 1
        freed, kept, accumulated = [], [], []
        failed = None
        for e in trace:
            if e.kind == "saved_tensors_freed":
                key = self.model.key_of_node(e.node_id)
                freed.append((e.name, tuple(self.model.node(key).saved) if key is not None else e.names))
                if key is not None:
                    self.freed_by.setdefault(key, number)
            elif e.kind == "node_executed" and retain_graph:
                key = self.model.key_of_node(e.node_id)
                if key is not None and self.model.node(key).saved:
                    kept.append((e.name, tuple(self.model.node(key).saved)))
            elif e.kind == "grad_accumulated":
                key = self.model.key_of_grad(e)
                name = self.model.node(key).label if key is not None else "a tensor"
                accumulated.append((name, summary(e.before) if e.before is not None else "None", summary(e.after)))
            elif e.kind == "backward_failed":
                failed = e
        call = f"{self.root_name}.backward({'retain_graph=True' if retain_graph else ''})"
        grads = tuple((self.names[t._id], before[t._id], _text(t.grad)) for t in self.leaves)
        failure = ()
        if error is not None:
            failure = (type(error).__name__, str(error), failed.name if failed is not None else None,
                       self.model.key_of_node(failed.node_id) if failed is not None else None)
        attempt = Attempt(number, call, retain_graph, grads, tuple(freed), tuple(kept), tuple(accumulated), *failure)
        self.attempts.append(attempt)
        return attempt

    @property
    def last(self) -> Optional[Attempt]:
        return self.attempts[-1] if self.attempts else None

    def history(self) -> list:
        """``[(leaf name, [.grad at the start, after call 1, after call 2, ...])]``."""
        return [(self.names[t._id], [self.grads_at_start[t._id]] + [a.grads[i][2] for a in self.attempts])
                for i, t in enumerate(self.leaves)]

    # ------------------------------------------------------------------ words
    def explain(self, attempt: Optional[Attempt] = None) -> tuple:
        """``(what happened and why, the fix or what comes next)`` for an attempt (default: the last), in plain
        words built from the recorded facts."""
        a = attempt or self.last
        if a is None:
            return (self._before_text(), "")
        if a.ok:
            return self._ok_text(a)
        return self._error_text(a)

    def _saving(self) -> list:
        return [n for n in self.model.visible if n.saved]

    def _saved_words(self, node) -> str:
        """```self` (x = 2)``: the saved names with the input (or output) each one is."""
        words = []
        for name in node.saved:
            who = self._who(node, name)
            words.append(f"`{name}` ({who})" if who else f"`{name}`")
        return joined(words, "")

    def _who(self, node, name: str) -> str:
        if name == "result":
            return f"its output {node.name}" if node.name else "its output"
        slot = 0 if name == "self" else 1 if name in ("other", "mat2", "vec", "tensor", "exponent") else None
        if slot is None or slot >= len(node.inputs):
            return ""
        source = self.model.node(node.inputs[slot])
        if source is None:
            return ""
        value = source.value.text if source.value is not None and source.value.size == 1 else ""
        if source.name:
            return f"{source.name} = {value}" if value else source.name
        return f"the value {value}" if value else ""

    def _before_text(self) -> str:
        saving = self._saving()
        if not saving:
            return (f"No node of this graph saved a tensor, so `{self.root_name}.backward()` can run any number "
                    "of times.")
        nodes = "; ".join(f"`{n.op}` saved {self._saved_words(n)}" for n in saving)
        one = len(saving) == 1 and len(saving[0].saved) == 1
        if all(n.saved_state == "freed" for n in saving):
            return (f"In the forward pass {nodes}, but a `backward()` that ran before this demo has already freed "
                    f"{'it' if one else 'them'}.")
        gradients = "its gradient" if len(saving) == 1 else "their gradients"
        return f"In the forward pass {nodes}, to compute {gradients} later."

    def _ok_text(self, a: Attempt) -> tuple:
        grads = ", ".join(f"`{n}.grad` = {after}" for n, _, after in a.grads)
        added = [f"`{n}.grad` accumulated: {b} + {_delta(b, after)} = {after}"
                 for n, b, after in a.grads if b != "None"]
        what = f"`{a.call}` ran: {grads}."
        if added:
            what += " " + "; ".join(added) + ". Gradients add up across `backward()` calls until you zero them."
        if a.kept:
            nodes = joined([f"`{node}` kept {self._names(names)}" for node, names in a.kept], "")
            return (what + f" With `retain_graph=True`, {nodes}.",
                    f"The graph is intact: `{self.root_name}.backward()` can run again.")
        if a.freed:
            nodes = joined([f"`{node}` freed {self._names(names)}" for node, names in a.freed], "")
            return (what + f" Then, to save memory, {nodes}.",
                    f"Another `{self.root_name}.backward()` needs what was freed, so it will raise. "
                    "`retain_graph=True` keeps it.")
        return (what + " No node of this graph saved a tensor, so nothing was freed.",
                f"`{self.root_name}.backward()` can run again: the gradients will simply add up.")

    @staticmethod
    def _names(names) -> str:
        return joined([f"`{n}`" for n in names], "")

    def _formulas(self, node) -> list:
        """The local derivative of ``node`` for each input that takes a gradient (``3·x^2``), when known."""
        labels = [_label(self.model.node(k)) for k in node.inputs]
        out = []
        for position in range(len(node.inputs)):
            edge = self.model.edge_at(node.key, position)
            formula = local_formula(node.op, position, labels) if edge is not None and edge.tracked else None
            if formula is not None:
                out.append(_with_exponent(formula, self._live.get(node.key)))
        return out

    def _error_text(self, a: Attempt) -> tuple:
        node = self.model.node(a.failed_key) if a.failed_key is not None else None
        partial = [f"`{n}.grad` went {b} -> {after}" for n, b, after in a.accumulated]
        before = (" Before the error, " + joined(partial, "") + ": that gradient arrived through nodes that "
                  "saved nothing.") if partial else ""
        if a.error != FREED_MESSAGE or node is None:
            where = f" at `{a.failed_at}`" if a.failed_at else ""
            return f"`{a.call}` raised {a.error_type}{where}.{before}", ""
        freed_in = self.freed_by.get(node.key)
        by = (f"Call {freed_in}, `{self.attempts[freed_in - 1].call}`," if freed_in
              else "A `backward()` that ran before this demo started")
        formulas = self._formulas(node)
        needs = (f"for its local derivative{'s' if len(formulas) > 1 else ''} {joined(formulas, '')}" if formulas
                 else "to compute its gradient")
        them = "them" if len(node.saved) > 1 else "it"
        why = (f"`{a.call}` stopped at `{node.op}`. In the forward pass `{node.op}` saved "
               f"{self._saved_words(node)}, which it needs {needs}. {by} used {them}, then freed {them} to save "
               f"memory. Now there is nothing left to compute with, so autograd raises instead of guessing.{before}")
        rebuild = " (`reset()` does that)" if self.can_reset else ""
        fix = (f"Pass `retain_graph=True` to every backward through this graph except the last: "
               f"`{self.root_name}.backward(retain_graph=True)`, then `{self.root_name}.backward()`, and each call "
               f"adds to `.grad` again. Or run the forward pass again to build a fresh graph{rebuild}.")
        return why, fix

    # ------------------------------------------------------------------ drawing
    def svg(self, title: str = "Computation graph") -> str:
        """The graph as SVG: saved tensors plain / struck out once freed / bold when kept, and the node where
        the last call failed outlined and labelled (room for the label is kept above the drawing)."""
        inner = to_svg(self.model, legend=False, title=title)
        width, height = (float(v) for v in re.match(r'<svg [^>]*?width="([\d.]+)" height="([\d.]+)"', inner).groups())
        last = self.last
        mark = _failure_mark(self.model, last.failed_key, last.error_type) \
            if last is not None and last.failed_key is not None else ""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height + _TOP:g}" '
                f'viewBox="0 0 {width:g} {height + _TOP:g}"><rect width="{width:g}" height="{height + _TOP:g}" '
                f'fill="#ffffff"/><g transform="translate(0,{_TOP})">{inner}{mark}</g></svg>')

    def __repr__(self) -> str:
        lines = [f"SecondBackward: {self.root_name} ({len(self.attempts)} backward calls)"]
        lines += [f"  {a.number}. {a.summary}" for a in self.attempts]
        return "\n".join(lines)


def _delta(before: str, after: str) -> str:
    """``after - before`` for two one-number texts (``"12"``, ``"24"`` -> ``"12"``); "…" otherwise."""
    try:
        return summary(np.float64(after) - np.float64(before))
    except ValueError:
        return "…"


def _label(node) -> Optional[str]:
    """How a formula names an input: its variable name, else its value when it is one number."""
    if node is None:
        return None
    if node.name:
        return node.name
    return node.value.text if node.value is not None and node.value.size == 1 else None


def _with_exponent(formula: Optional[str], node) -> Optional[str]:
    """``n·x^(n-1)`` with the exponent the node kept (``3·x^2``), when it is a plain number."""
    n = getattr(node, "_saved_exponent", None)
    if formula is None or not isinstance(n, (int, float)):
        return formula
    return formula.replace("n·", f"{summary(n)}·").replace("^(n-1)", f"^{summary(n - 1)}")


def _text(grad) -> str:
    return summary(grad._data) if grad is not None else "None"


def _leaves(root) -> list:
    """The leaf tensors that require grad behind ``root`` (their AccumulateGrad nodes), oldest first."""
    if root.grad_fn is None:
        return [root]
    out, seen, todo = [], set(), [root.grad_fn]
    while todo:
        node = todo.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if hasattr(node, "variable"):
            out.append(node.variable)
        else:
            todo.extend(child for child, _ in node.next_functions)
    return sorted(out, key=lambda t: t._id)


def _source_of(fn) -> str:
    import inspect
    import textwrap
    try:
        return textwrap.dedent(inspect.getsource(fn)).strip()
    except (OSError, TypeError):
        return ""


def _failure_mark(model, key: int, error_type: str) -> str:
    """An outline around the node where backward failed and a label just above it, in the gradient colour."""
    node = next(n for n in model.snapshot()["nodes"] if n["key"] == model.node(key).index)
    text = f"✗ {error_type} here"
    width = 24 + 6.6 * len(text)
    x, y, w, h = node["x"], node["y"], node["w"], node["h"]
    top = y - h / 2 - 6
    colour = PALETTE["grad"]
    return (f'<g class="agt-failed" font-family="{FONT}"><title>{escape(error_type)} raised at {escape(node["op"])}'
            f'</title><rect x="{x - w / 2 - 5:g}" y="{y - h / 2 - 5:g}" width="{w + 10:g}" height="{h + 10:g}" rx="8" '
            f'fill="none" stroke="{colour}" stroke-width="3"/><rect x="{x - width / 2:g}" y="{top - 17:g}" '
            f'width="{width:g}" height="17" rx="8.5" fill="{colour}"/><text x="{x:g}" y="{top - 4.5:g}" '
            f'text-anchor="middle" font-size="11" font-weight="700" fill="#ffffff">{escape(text)}</text></g>')
