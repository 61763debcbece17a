"""``check_graph``: did your code build the graph you were asked to reproduce? (lesson 1)

Two graphs are the same when, walking both from the root along ``next_functions``, every pair of nodes has the
same name (``MulBackward0``), the same inputs by ``input_nr`` (input 0 of a node against input 0 of the other),
the same leaves (the same tensor, or tensors of the same name) and untracked inputs (constants) in the same
places, and a node used twice in one is used twice in the other. The check names the first difference in one
line (a missing node, an extra node, another leaf on an edge, a constant where a tracked tensor belongs, ...)
and draws *your* graph with that node or edge marked.

``check_branches`` checks control flow: it calls your ``f`` and the target on a fresh leaf ``x`` for each case
(``x > 0``, ``x <= 0``, ...) and compares the two graphs of each.

>>> import autograd_tutor as torch
>>> x, w = torch.tensor(2., requires_grad=True), torch.tensor(3., requires_grad=True)
>>> print(check_graph(w * x + w, (w * x).tanh() + w))
check_graph: missing TanhBackward0 between MulBackward0 and AddBackward0 (input 0). Add that operation.
>>> print(check_branches(lambda x: x * x, {"x > 0": (2.0, lambda x: x * x), "x <= 0": (-1.0, lambda x: -x)}))
check_branches: For x = -1 (x <= 0), at the root, yours has MulBackward0 where the target has NegBackward0.
"""
from __future__ import annotations

from typing import Callable, Mapping, Optional

from ..autograd.factories import tensor as _tensor
from ..autograd.tensor import Tensor
from ..quiz.generate import caller_namespace
from ..viz.model import GraphModel
from .drawing import Marks, check_html, graph_svg

__all__ = ["check_graph", "check_branches", "GraphCheck", "BranchCheck"]

_KEY = ("Your graph, data flowing left to right (hover an edge for its input_nr). The marked node or edge is "
        "the first place where it differs from the target.")


class GraphCheck:
    """What :func:`check_graph` found: ``ok``, ``problem`` (one line, empty when ok), ``more`` (how many other
    differences come after it), ``model`` (your graph) and ``marks`` (where the drawing marks the problem)."""

    def __init__(self, model: GraphModel, problems: list) -> None:
        self.model = model
        self.problem, self.marks = problems[0] if problems else ("", Marks(ok=True))
        self.more = max(len(problems) - 1, 0)

    @property
    def ok(self) -> bool:
        return not self.problem

    @property
    def verdict(self) -> str:
        if self.ok:
            return "Your graph is the target's: the same nodes, fed by the same inputs in the same order."
        after = f" ({self.more} more difference{'s' if self.more > 1 else ''} after this one.)" if self.more else ""
        return f"{self.problem[0].upper()}{self.problem[1:]}{after}"

    def __str__(self) -> str:
        return f"check_graph: {'right' if self.ok else self.problem}"

    __repr__ = __str__

    def svg(self) -> str:
        return graph_svg(self.model, self.marks)

    def _repr_html_(self) -> str:
        return check_html(self.ok, "Check of your graph", self.verdict, [("", self.svg())], _KEY)


def check_graph(yours, target, *, names: Optional[Mapping] = None) -> GraphCheck:
    """Compare the graph behind ``yours`` with the one behind ``target`` (both tensors); ``names`` maps names
    to tensors, to name leaves and results (default: your variables)."""
    for what, t in (("your tensor", yours), ("the target", target)):
        if not isinstance(t, Tensor):
            raise TypeError(f"check_graph(yours, target) expects two tensors, but {what} is a "
                            f"{type(t).__name__}. Pass the tensor your code computed, e.g. check_graph(out, target).")
    names = dict(caller_namespace() if names is None else names)
    mine, theirs = (GraphModel.from_tensor(t, namespace=names) for t in (yours, target))
    return GraphCheck(mine, _differences(_root(theirs), _root(mine), theirs, mine))


def _root(model: GraphModel):
    return next(n for n in model.visible if n.root)


def _text(n) -> str:
    """How a node is named in a verdict: its grad_fn (``MulBackward0``), a leaf by its variable."""
    if n.kind == "leaf":
        return n.label if n.name else "a leaf"
    if n.kind == "constant":
        return "a constant (untracked data)"
    return n.op


def _same(t, m) -> bool:
    """Whether two nodes match, their inputs aside."""
    if t.kind != m.kind:
        return False
    if t.kind == "leaf":
        return t.tensor_id == m.tensor_id or bool(t.name) and t.name == m.name
    return t.kind == "constant" or t.op == m.op and len(t.inputs) == len(m.inputs)


def _differences(t_root, m_root, theirs: GraphModel, mine: GraphModel) -> list:
    """Every difference as ``(one line, Marks)``, in the order a walk from the roots meets them."""
    found, paired, paired_back = [], {}, {}

    def where(consumer, position) -> str:
        return "the root" if consumer is None else f"input {position} of {consumer.op}"

    def edge(m, consumer, position):
        return None if consumer is None else (m.key, consumer.key, position)

    def walk(t, m, consumer, position) -> None:
        if t.kind == "op" and m.kind == "op" and (t.key in paired or m.key in paired_back):
            if paired.get(t.key) == m.key:
                return
            if t.key in paired:
                found.append((f"the target computes {t.op} once and uses it twice; you compute it again at "
                              f"{where(consumer, position)}. Compute it once, keep it in a variable and use that.",
                              Marks(node=m.key, note=f"{m.op} again")))
            else:
                found.append((f"you use one {m.op} twice (at {where(consumer, position)} too), where the target "
                              f"computes it twice, from other inputs.", Marks(node=m.key, note="used twice")))
            return
        if _same(t, m):
            if t.kind == "op":
                paired[t.key], paired_back[m.key] = m.key, t.key
                for i, (tk, mk) in enumerate(zip(t.inputs, m.inputs)):
                    walk(theirs.node(tk), mine.node(mk), m, i)
            return
        t_inputs = [theirs.node(k) for k in t.inputs] if t.kind == "op" else []
        m_inputs = [mine.node(k) for k in m.inputs] if m.kind == "op" else []
        skipped = next((c for c in t_inputs if _same(c, m)), None)
        extra = next(((i, c) for i, c in enumerate(m_inputs) if _same(t, c)), None)
        if skipped is not None:
            place = (f"between {_text(m)} and {consumer.op} (input {position})" if consumer is not None
                     else f"after {_text(m)}, at the root")
            found.append((f"missing {t.op} {place}. Add that operation.",
                          Marks(node=None if consumer else m.key, edge=edge(m, consumer, position),
                                note=f"missing {t.op}")))
            walk(skipped, m, consumer, position)
        elif extra is not None:
            found.append((f"extra {m.op} at {where(consumer, position)}: the target goes straight from {_text(t)} "
                          f"there. Remove that operation.", Marks(node=m.key, note=f"extra {m.op}")))
            walk(t, extra[1], m, extra[0])
        elif t.kind == "constant":
            found.append((f"at {where(consumer, position)}, yours has {_text(m)} where the target has a constant "
                          "(untracked data). Use a plain number or a tensor without requires_grad there.",
                          Marks(edge=edge(m, consumer, position), node=m.key, note="should be a constant")))
        elif m.kind == "constant":
            found.append((f"at {where(consumer, position)}, yours has a constant where the target has {_text(t)}. "
                          f"Does what you used there require grad? Use {_text(t)}.",
                          Marks(edge=edge(m, consumer, position), node=m.key, note=f"should be {_text(t)}")))
        elif t.kind == "leaf" and m.kind == "leaf":
            found.append((f"{where(consumer, position)} comes from {_text(m)} in yours, from {_text(t)} in the "
                          f"target. Use {_text(t)} there.", Marks(edge=edge(m, consumer, position), note=f"should be {_text(t)}")))
        else:
            found.append((f"at {where(consumer, position)}, yours has {_text(m)} where the target has {_text(t)}.",
                          Marks(node=m.key, note=f"should be {_text(t)}")))
    walk(t_root, m_root, None, None)
    return found


class BranchCheck:
    """What :func:`check_branches` found: one :class:`GraphCheck` per case (``checks``, by case), or the one-line
    ``error`` your ``f`` raised."""

    def __init__(self, checks: dict, values: dict, error: str = "") -> None:
        self.checks, self.values, self.error = checks, values, error

    @property
    def ok(self) -> bool:
        return not self.error and all(c.ok for c in self.checks.values())

    @property
    def verdict(self) -> str:
        if self.error:
            return self.error
        wrong = [case for case, c in self.checks.items() if not c.ok]
        if not wrong:
            return "Each input builds its own graph, the one asked for. That is define-by-run."
        case = wrong[0]
        return f"For x = {self.values[case]:g} ({case}), {self.checks[case].problem}"

    def __str__(self) -> str:
        return f"check_branches: {'right' if self.ok else self.verdict}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        drawings = [(f"x = {self.values[case]:g} ({case}): {'right' if c.ok else 'not yet'}", c.svg())
                    for case, c in self.checks.items()]
        return check_html(self.ok, "Check of your function f", self.verdict, drawings,
                          "Under each case, the graph your f built for that x, its first difference marked.")


def check_branches(f: Callable, cases: Mapping) -> BranchCheck:
    """Call ``f(x)`` for each case of ``cases`` (``{"x > 0": (2.0, target_function), ...}``) on a fresh leaf
    ``x`` that requires grad, and compare its graph with ``target_function(x)``'s."""
    if not callable(f):
        raise TypeError(f"check_branches(f, cases) expects your function f, got a {type(f).__name__}. Pass the "
                        "function itself: check_branches(f, ...), not check_branches(f(x), ...).")
    if not cases:
        raise ValueError("check_branches needs at least one case: {'x > 0': (2.0, target_function), ...}")
    checks, values = {}, {}
    for case, (value, target) in cases.items():
        x = _tensor(float(value), requires_grad=True)
        values[case] = float(value)
        try:
            yours = f(x)
        except Exception as exc:
            return BranchCheck(checks, values, f"For x = {value:g} ({case}) your f raised {type(exc).__name__}: "
                               f"{str(exc).splitlines()[0] if str(exc) else ''}")
        if not isinstance(yours, Tensor):
            return BranchCheck(checks, values, f"For x = {value:g} ({case}) your f returned a "
                               f"{type(yours).__name__}, not a tensor: return the tensor you computed.")
        checks[case] = check_graph(yours, target(x), names={"x": x})
    return BranchCheck(checks, values)
