"""Lesson 5's exercises, checked by the engine: a tensor hook that clips, and a listener that counts.

* :func:`check_hook` registers *your* hook on ``h`` in ``loss = ((w * x) ** 2).sum()`` with ``h = w * x``,
  runs ``loss.backward()``, and compares ``w.grad`` and ``x.grad`` with what clipping each gradient to
  [-1, 1] gives (the same graph, run with ``grad.clamp(-1, 1)`` as the hook). It names the usual mistakes:
  returning nothing, changing ``grad`` in place, returning another shape or not a tensor.
* :func:`check_listener` subscribes *your* listener to every event of one backward pass through
  ``r = p * q + p * p`` and compares the counts it kept (``counts[node id]`` = how many gradients flowed
  into that node) with the engine's own :func:`~autograd_tutor.events.record` of the same pass.

Displayed, each result draws the graph: the hooked edge with what your hook got and returned, each leaf
(or node) ticked or marked with what was expected and what you got.

>>> def clip(grad):
...     grad.clamp_(-1, 1)          # changes the gradient in place: PyTorch says a hook must not
>>> print(check_hook(clip).verdict.split(":")[0])
Your hook changed grad in place
>>> def count(event, counts={}):
...     if event.kind == "gradient_flowed":
...         counts[event.target_id] = counts.get(event.target_id, 0) + 1
>>> check_listener(count, count.__defaults__[0]).ok
True
"""
from __future__ import annotations

import functools
import html
import linecache
import traceback
from collections import Counter
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from .. import events
from ..autograd.tensor import Tensor
from ..exercise import _STYLE
from ..quiz.generate import values_text

__all__ = ["check_hook", "check_listener", "HookCheck", "ListenerCheck", "LeafCheck"]

#: The bounds :func:`check_hook` expects the hook to clip to.
CLIP = (-1.0, 1.0)


@dataclass(frozen=True)
class LeafCheck:
    """One leaf (or node): what was expected, what you got (None: not computed), and whether they agree."""
    name: str
    expected: object
    got: object
    ok: bool


# ------------------------------------------------------------------------------------------- the hook
@dataclass(frozen=True)
class HookCheck:
    """What :func:`check_hook` found: ``ok``, ``verdict`` (one sentence, with what to do next), one
    :class:`LeafCheck` per leaf, what the hook received (``arrived``) and what it returned (``returned``: the
    values, or "None", "a float", ...)."""
    leaves: tuple
    arrived: Optional[np.ndarray]
    returned: str
    mistake: str = ""
    graph: tuple = ()

    @property
    def ok(self) -> bool:
        return not self.mistake and all(leaf.ok for leaf in self.leaves)

    @property
    def verdict(self) -> str:
        if self.ok:
            return ("Your hook clips every gradient to [-1, 1] and returns it, so the leaves get the "
                    "clipped values. Next: try it on a model, with one hook per parameter.")
        if self.mistake:
            return self.mistake
        wrong = [leaf.name for leaf in self.leaves if not leaf.ok]
        return (f"{' and '.join(f'{n}.grad' for n in wrong)} {'is' if len(wrong) == 1 else 'are'} not what "
                "clipping to [-1, 1] gives: compare what your hook returned with the clipped values on the "
                "hooked edge, and fix the bounds.")

    def __str__(self) -> str:
        lines = [f"check_hook: {'right' if self.ok else 'not yet'}: {self.verdict}"]
        if self.arrived is not None:
            lines.append(f"  the hook on h got {_short(self.arrived)}, returned {self.returned}, "
                         f"clipping gives {_short(np.clip(self.arrived, *CLIP))}")
        lines += [_leaf_line(leaf) for leaf in self.leaves]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return _html(self.ok, "Check of your hook", self.verdict, _graph_svg(self.graph, self.verdict),
                     "Backward runs from loss (left) to the leaves (right). The hook sits on h: it gets the "
                     "gradient arriving there, and what it returns flows on.")


def check_hook(your_hook: Callable) -> HookCheck:
    """Register ``your_hook`` on ``h`` (a tensor hook), run backward, and check each leaf's ``.grad``
    against clipping every gradient to [-1, 1]. The hook takes ``grad`` and returns the new gradient."""
    if not callable(your_hook):
        raise TypeError("check_hook expects your hook, a function that takes grad and returns the new "
                        f"gradient (pass the function itself, not its result), got {type(your_hook).__name__}")
    expected, _, _ = _hooked_pass(lambda grad: grad.clamp(*CLIP))
    seen = {}

    @functools.wraps(your_hook)
    def spy(grad):
        seen["arrived"] = grad.detach().numpy().copy()
        seen["result"] = result = your_hook(grad)
        seen["after"] = grad.detach().numpy().copy()
        return result

    got, graph_of, raised = _hooked_pass(spy)
    leaves = _leaves(expected, None if raised else got)
    if "after" not in seen:  # the error came from the learner's hook itself, not from the engine
        check = HookCheck(leaves, seen.get("arrived"), "nothing (it raised)", _your_error(raised, your_hook))
    else:
        result = seen["result"]
        mistake = _hook_mistake(result, seen["arrived"], seen["after"], raised)
        if not mistake and result is None and not all(leaf.ok for leaf in leaves):
            mistake = ("Your hook returned None, so autograd kept the gradient as it was (w.grad = "
                       f"{_short(got['w'])}): return the clipped tensor, e.g. return grad.clamp(-1, 1).")
        check = HookCheck(leaves, seen["arrived"], _said(result), mistake)
    return HookCheck(check.leaves, check.arrived, check.returned, check.mistake, graph_of(check))


def _hooked_pass(hook):
    """Run the exercise's graph with ``hook`` on h; return the leaves' grads, a drawing maker, and the
    error backward raised (or None)."""
    w = Tensor._make(np.array([2.0, -1.0, 0.5, 3.0], dtype=np.float32)).requires_grad_()
    x = Tensor._make(np.array([1.5, 1.0, -4.0, 0.1], dtype=np.float32)).requires_grad_()
    h = w * x
    h.register_hook(hook)
    loss = (h ** 2).sum()
    raised = None
    try:
        loss.backward()
    except Exception as exc:
        raised = exc
    grads = {"w": None if w.grad is None else _array(w.grad), "x": None if x.grad is None else _array(x.grad)}
    labels = {id(w): "w", id(x): "x"}

    def graph_of(check: HookCheck) -> tuple:
        leaf_of = {leaf.name: leaf for leaf in check.leaves}

        def node(fn):
            if fn is h.grad_fn:
                return "MulBackward0 (h)", "", ""
            variable = getattr(fn, "variable", None)
            if variable is not None:
                leaf = leaf_of[labels[id(variable)]]
                return labels[id(variable)], _leaf_note(leaf), "is-right" if leaf.ok else "is-wrong"
            return fn.name() + (" (loss)" if fn is loss.grad_fn else ""), "", ""

        def edge(source, target):
            if target is not h.grad_fn:
                return "", ""
            if check.arrived is None:
                return "hook on h", "is-hooked"
            return f"hook on h got {_short(check.arrived)}\nreturned {check.returned}", "is-hooked"
        return _walk(loss.grad_fn, node, edge)
    return grads, graph_of, raised


def _hook_mistake(result, arrived, after, raised) -> str:
    """The usual mistakes, in the order a learner meets them, as one sentence with what to do."""
    if result is not None and not isinstance(result, Tensor):
        return (f"Your hook returned {type(result).__name__}, not a tensor: autograd needs a tensor of grad's "
                "shape (return grad.clamp(-1, 1), not a number or a NumPy array).")
    if isinstance(result, Tensor) and tuple(result.shape) != arrived.shape:
        return (f"Your hook returned a tensor of shape {tuple(result.shape)}, but the gradient has shape "
                f"{arrived.shape}: return one number per element (clamp keeps the shape; sum() or indexing "
                "does not).")
    if not np.array_equal(arrived, after):
        return ("Your hook changed grad in place: PyTorch says a hook must not modify its argument (other "
                "hooks and the engine may share it). Leave grad as it is and return a new tensor: "
                "return grad.clamp(-1, 1).")
    if raised is not None:
        return f"autograd refused what your hook returned: {type(raised).__name__}: {raised}"
    return ""


def _leaves(expected: dict, got: Optional[dict]) -> tuple:
    return tuple(LeafCheck(n, e, None if got is None else got[n],
                           got is not None and got[n] is not None and bool(np.allclose(got[n], e, atol=1e-6)))
                 for n, e in expected.items())


def _leaf_note(leaf: LeafCheck) -> str:
    if leaf.ok:
        return f"\u2713 .grad = {_short(leaf.got)}"
    return f"\u2717 expected {_short(leaf.expected)}\ngot {'?' if leaf.got is None else _short(leaf.got)}"


def _leaf_line(leaf: LeafCheck) -> str:
    got = "(not computed)" if leaf.got is None else _short(leaf.got)
    return f"  {leaf.name}.grad: expected {_short(leaf.expected)}, got {got}  ({'right' if leaf.ok else 'wrong'})"


# ------------------------------------------------------------------------------------------- the listener
@dataclass(frozen=True)
class ListenerCheck:
    """What :func:`check_listener` found: one :class:`LeafCheck` per node of the pass (expected: the number
    of ``gradient_flowed`` events into it in the engine's record; got: your count), and a ``mistake``."""
    nodes: tuple
    mistake: str = ""
    graph: tuple = ()

    @property
    def ok(self) -> bool:
        return not self.mistake and all(n.ok for n in self.nodes)

    @property
    def verdict(self) -> str:
        if self.ok:
            return ("Your counts match the engine's record of the same pass. Note the 3 into p: "
                    "gradients add where paths meet. Next: count the values too, by summing event.value.")
        if self.mistake:
            return self.mistake
        wrong = [n.name for n in self.nodes if not n.ok]
        return (f"Your counts differ from the engine's record at {', '.join(wrong)}: count one for every "
                "gradient_flowed event, at counts[event.target_id].")

    def __str__(self) -> str:
        lines = [f"check_listener: {'right' if self.ok else 'not yet'}: {self.verdict}"]
        lines += [f"  {n.name}: engine {n.expected}, yours {0 if n.got is None else n.got}  "
                  f"({'right' if n.ok else 'wrong'})" for n in self.nodes]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return _html(self.ok, "Check of your listener", self.verdict, _graph_svg(self.graph, self.verdict),
                     "Under each node: how many gradients flowed into it, in the engine's record and in "
                     "your counts (r's own node receives the starting gradient, not an edge).")


def check_listener(your_listener: Callable, counts: MutableMapping) -> ListenerCheck:
    """Subscribe ``your_listener`` (it takes one event) to every event of one backward pass, and compare
    ``counts`` (the dict it fills: node id -> gradients flowed into that node) with the engine's record."""
    if not callable(your_listener):
        raise TypeError("check_listener expects your listener, a function that takes one event, got "
                        f"{type(your_listener).__name__}")
    if not isinstance(counts, MutableMapping):
        raise TypeError("check_listener(listener, counts): counts must be the dict your listener fills "
                        f"(counts[event.target_id] += 1), got {type(counts).__name__}")
    counts.clear()
    failed = []

    def guarded(event):
        if not failed:
            try:
                your_listener(event)
            except Exception as exc:
                failed.append((exc, event.kind))

    p = Tensor._make(np.array(2.0, dtype=np.float32)).requires_grad_()
    q = Tensor._make(np.array(-1.0, dtype=np.float32)).requires_grad_()
    r = p * q + p * p
    with events.record(kinds=["gradient_flowed"]) as trace, events.subscribe(guarded):
        r.backward()
    engine = Counter(e.target_id for e in trace)
    sources = Counter(e.source_id for e in trace)
    names = {id(p): "p", id(q): "q"}
    node_ids = _order(r.grad_fn)[0]
    ops = Counter(fn.name() for fn in node_ids)
    labels, numbered = {}, Counter()
    for fn in node_ids:
        variable = getattr(fn, "variable", None)
        numbered[fn.name()] += 1
        labels[fn._id] = (names[id(variable)] if variable is not None else f"{fn.name()} (r)" if fn is r.grad_fn
                          else f"{fn.name()} #{numbered[fn.name()]}" if ops[fn.name()] > 1 else fn.name())
    mine = dict(counts)
    nodes = tuple(LeafCheck(labels[fn._id], engine.get(fn._id, 0), mine.get(fn._id),
                            mine.get(fn._id, 0) == engine.get(fn._id, 0)) for fn in node_ids)
    mistake = _listener_mistake(failed, mine, engine, sources, your_listener)
    by_id = {fn._id: n for fn, n in zip(node_ids, nodes)}

    def node(fn):
        n = by_id[fn._id]
        mark = "\u2713" if n.ok else "\u2717"
        yours = 0 if n.got is None else n.got
        return n.name, f"{mark} engine {n.expected}, yours {yours}", "is-right" if n.ok else "is-wrong"
    return ListenerCheck(nodes, mistake, _walk(r.grad_fn, node, lambda s, t: ("", "")))


def _listener_mistake(failed, mine, engine, sources, listener) -> str:
    if failed:
        exc, kind = failed[0]
        hint = (" Not every event has that field: first check event.kind == 'gradient_flowed'."
                if isinstance(exc, AttributeError) else "")
        return f"{_your_error(exc, listener)} on a {kind} event.{hint}"
    if not mine:
        return ("Your listener counted nothing: for each event whose kind is 'gradient_flowed', add 1 at "
                "counts[event.target_id].")
    if mine == dict(sources):
        return ("You counted the gradients leaving each node (event.source_id): count where they arrive, "
                "at counts[event.target_id].")
    unknown = [k for k in mine if k not in engine and not isinstance(k, int)]
    if unknown:
        return (f"Your counts are keyed by {type(unknown[0]).__name__} ({unknown[0]!r}), not by node id: two "
                "nodes may share a name (here two MulBackward0). Use counts[event.target_id].")
    if sum(mine.values()) > sum(engine.values()):
        return (f"You counted {sum(mine.values())} events, but only {sum(engine.values())} gradients flowed: "
                "count only the events whose kind is 'gradient_flowed'.")
    return ""


# ------------------------------------------------------------------------------------------- shared
def _order(root) -> tuple:
    """The nodes behind ``root`` breadth first, each one's longest distance from the root, and the edges."""
    order, depth, pairs = [], {root: 0}, []
    queue = [root]
    while queue:
        fn = queue.pop(0)
        if fn not in order:
            order.append(fn)
        for nxt, _ in fn.next_functions:
            if nxt is None:
                continue
            if (fn, nxt) not in pairs:
                pairs.append((fn, nxt))
            if depth.get(nxt, -1) < depth[fn] + 1:
                depth[nxt] = depth[fn] + 1
                queue.append(nxt)
    return order, depth, pairs


def _walk(root, node: Callable, edge: Callable) -> tuple:
    """The graph behind ``root`` as ``(nodes, edges)`` for :func:`_graph_svg`: ``node(fn)`` gives
    (label, note, tone), ``edge(source, target)`` (note, tone); each node's column is its longest distance
    from the root."""
    order, depth, pairs = _order(root)
    index = {fn: i for i, fn in enumerate(order)}
    nodes = tuple((depth[fn],) + tuple(node(fn)) for fn in order)
    edges = tuple((index[s], index[t]) + tuple(edge(s, t)) for s, t in pairs)
    return nodes, edges


_COL, _ROW, _BOX_H, _NOTE_W, _TOP = 190, 96, 34, 230, 50


def _graph_svg(graph: tuple, label: str) -> str:
    """A small left-to-right drawing: the root in the first column, each node in the column of its distance
    from the root (in a column, ordered by the mean row of the nodes that send to it); notes under nodes,
    and over the row for edges, toned ``is-right``, ``is-wrong`` or ``is-hooked``."""
    if not graph:
        return ""
    nodes, edges = graph
    top = _TOP if any(e[2] for e in edges) else 20
    row = {}
    for col in sorted({n[0] for n in nodes}):
        members = [i for i, n in enumerate(nodes) if n[0] == col]
        senders = {i: [row[s] for s, t, *_ in edges if t == i and s in row] for i in members}
        members.sort(key=lambda i: sum(senders[i]) / len(senders[i]) if senders[i] else 0)
        row.update({i: r for r, i in enumerate(members)})
    width = max(n[0] for n in nodes) * _COL + 150 + _NOTE_W
    height = (max(row.values()) + 1) * _ROW + top
    xy = [(10 + n[0] * _COL, top + row[i] * _ROW) for i, n in enumerate(nodes)]
    widths = [max(60, 8 * len(n[1]) + 16) for n in nodes]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} '
             f'{height}" role="img" aria-label="{html.escape(label, quote=True)}">']
    for s, t, note, tone in edges:
        (x0, y0), (x1, y1) = xy[s], xy[t]
        x0 += widths[s]
        y0, y1 = y0 + _BOX_H / 2, y1 + _BOX_H / 2
        parts.append(f'<path class="edge {tone}" d="M {x0} {y0} C {x0 + 40} {y0}, {x1 - 40} {y1}, {x1} {y1}"/>')
        for k, line in enumerate(note.split("\n") if note else ()):
            parts.append(f'<text class="{tone}" x="{x0 - 30}" y="{min(y0, y1) - 38 + 16 * k}">'
                         f"{html.escape(line)}</text>")
    for (x, y), w, (_, text, note, tone) in zip(xy, widths, nodes):
        parts.append(f'<rect class="box {tone}" x="{x}" y="{y}" width="{w}" height="{_BOX_H}" rx="6"/>'
                     f'<text x="{x + w / 2}" y="{y + 22}" text-anchor="middle">{html.escape(text)}</text>')
        for k, line in enumerate(note.split("\n") if note else ()):
            parts.append(f'<text class="{tone}" x="{x}" y="{y + _BOX_H + 18 + 17 * k}">{html.escape(line)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _html(ok: bool, aria: str, verdict: str, svg: str, key: str, style: str = "") -> str:
    """A check's card, styled as :func:`~autograd_tutor.exercise.check_backward`'s: verdict, drawing, key."""
    tone = "is-right" if ok else "is-wrong"
    return (f'<div class="agt-check {tone}" role="group" aria-label="{aria}">{_STYLE}{_EXTRA_STYLE}{style}'
            f"<p class=\"agt-check-verdict\"><strong>{'&#10003; Right' if ok else '&#10007; Not yet'}</strong>: "
            f"{html.escape(verdict)}</p>{svg}<p class=\"agt-check-key\">{html.escape(key)}</p></div>")


_EXTRA_STYLE = """<style>
.agt-check .edge.is-hooked { stroke: #5a3fc0; stroke-width: 3; }
.agt-check text.is-hooked { fill: #5a3fc0; font-weight: 700; }
[data-jp-theme-light="false"] .agt-check .edge.is-hooked { stroke: #b9a7ff; }
[data-jp-theme-light="false"] .agt-check text.is-hooked { fill: #b9a7ff; }
.agt-check rect.box.is-wrong { stroke: var(--c-bad); stroke-width: 2.5; stroke-dasharray: 6 3; }
.agt-check rect.box.is-right { stroke: var(--c-good); stroke-width: 2.5; }
</style>"""


def _your_error(exc: BaseException, function) -> str:
    """One line: the error your function raised, and your line it came from."""
    code = getattr(function, "__code__", None)
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if code is not None and frame.filename == code.co_filename and frame.name == code.co_name:
            text = (frame.line or linecache.getline(frame.filename, frame.lineno)).strip()
            where = f" (your line {frame.lineno - code.co_firstlineno + 1}: {text})" if text else \
                f" (your line {frame.lineno - code.co_firstlineno + 1})"
            break
    message = str(exc).splitlines()[0] if str(exc) else ""
    name = getattr(function, "__name__", "function")
    return f"Your {name} raised {type(exc).__name__}: {message}{where}"


def _said(result) -> str:
    """What a hook returned, in a few words: its values, or its type."""
    if result is None:
        return "None"
    if isinstance(result, Tensor):
        return _short(_array(result))
    return f"a{'n' if type(result).__name__[0] in 'aeiou' else ''} {type(result).__name__}"


def _array(t: Tensor) -> np.ndarray:
    return t.detach().numpy().copy()


def _short(a) -> str:
    return values_text(np.asarray(a) + 0.0, most=4)   # + 0.0: -0 reads as 0
