"""Which operations save tensors for backward, and so which graphs a second ``backward()`` breaks.

To send a gradient back, a node often needs values from the forward pass: ``x * w`` needs ``w`` for the
gradient of ``x`` (∂(x·w)/∂x = w), ``x.exp()`` needs its own result. The node *saves* them. ``backward()``
frees what each node saved once the node has run (unless ``retain_graph=True``), so a second ``backward()``
stops at the first node that needs a freed tensor. A node that saved nothing (``x + 1``, ``x.sum()``) can
run again and again: its gradients just accumulate.

:func:`which_ops_save` checks this live for each expression. It evaluates the expression on fresh leaves
(``x = [1., 2.]``, ``w = [3., 4.]``, ``m = [[1., 2.], [3., 4.]]``, all requiring grad), walks the graph
from the output to the leaves, reads what each node saved from the node itself (``saved_summary()`` and
torch's ``grad_fn._saved_<name>``), then runs ``backward()`` twice for real: the engine's events tell which
nodes the first call freed and where the second one failed.

>>> print(which_ops_save(["x + 1", "x * 2", "(x * 2).sum()"]))
expression     graph (output first)          saved for backward             second backward
x + 1          AddBackward0                  -                              OK: x.grad [1, 1] -> [2, 2]
x * 2          MulBackward0                  other=tensor(2)                RuntimeError at MulBackward0
(x * 2).sum()  SumBackward0 <- MulBackward0  MulBackward0: other=tensor(2)  RuntimeError at MulBackward0
<BLANKLINE>
RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Mapping, Optional, Sequence

from .. import events
from ..viz.format import summary

__all__ = ["EXPRESSIONS", "LEAVES", "SavedInfo", "NodeInfo", "OpReport", "OpTable", "which_ops_save",
           "graph_nodes", "saved_of"]

#: The expressions of the lesson: from ops that save nothing to ops that save their inputs or their result.
EXPRESSIONS = ("x + 1", "x + x", "1 - x", "-x", "x * 2", "x * x", "x * w", "x / 2", "x ** 3", "x.sum()",
               "x.mean()", "(x * 2).sum()", "x.exp()", "x.log()", "x.tanh()", "x.sigmoid()", "x.relu()",
               "x.abs()", "x @ w", "m @ x", "m.reshape(4)", "m.T", "x[0]", "x[1:]", "x[[0, 1]]", "x.clone()",
               "x.max()", "torch.softmax(x, 0)")

#: The leaves an expression may use (fresh ones for every expression), all with requires_grad=True.
LEAVES = {"x": [1., 2.], "w": [3., 4.], "m": [[1., 2.], [3., 4.]]}


@dataclass(frozen=True)
class SavedInfo:
    """One tensor a node saved: its torch name (``self``, ``other``, ``result``...) and what it is.

    ``shape`` is the tensor's shape (a tuple of shapes for a list of tensors, such as ``indices``);
    ``value`` is the repr of a saved Python number (``x * 2`` saves ``tensor(2)``), else "".
    """
    name: str
    shape: tuple
    value: str = ""

    @property
    def text(self) -> str:
        if self.value:
            return f"{self.name}={self.value}"
        if self.shape and isinstance(self.shape[0], tuple):
            return f"{self.name}=[{', '.join(str(s) for s in self.shape)}]"
        return f"{self.name}={self.shape}"


@dataclass(frozen=True)
class NodeInfo:
    """A node of the graph: its name (``MulBackward0``) and what it saved for backward."""
    name: str
    saved: tuple

    @property
    def text(self) -> str:
        return ", ".join(s.text for s in self.saved)


@dataclass(frozen=True)
class OpReport:
    """What one expression built, saved and freed, and what a second backward did.

    ``nodes``: the graph's nodes from the output to the leaves (AccumulateGrad left out); ``freed``: the
    nodes whose saved tensors the first backward freed, as ``(node name, names)`` from the engine's events;
    ``grads``: ``(leaf, .grad after the first backward, after the second)``; ``error`` and ``failed_at``:
    the second backward's message and the node where it fired (None when it ran).
    """
    expression: str
    nodes: tuple
    freed: tuple
    grads: tuple
    error_type: Optional[str]
    error: Optional[str]
    failed_at: Optional[str]

    @property
    def second_backward_raises(self) -> bool:
        return self.error is not None

    @property
    def saves(self) -> bool:
        """True when some node of the graph saved a tensor."""
        return any(n.saved for n in self.nodes)

    @property
    def graph_text(self) -> str:
        return " <- ".join(n.name for n in self.nodes)

    @property
    def saved_text(self) -> str:
        saving = [n for n in self.nodes if n.saved]
        if not saving:
            return "-"
        if len(self.nodes) == 1:
            return saving[0].text
        return "; ".join(f"{n.name}: {n.text}" for n in saving)

    @property
    def outcome(self) -> str:
        if self.error is not None:
            return f"{self.error_type} at {self.failed_at}" if self.failed_at else self.error_type
        return "OK: " + ", ".join(f"{name}.grad {first} -> {second}" for name, first, second in self.grads)


class OpTable(list):
    """The reports of :func:`which_ops_save`, printed as a table (text, or HTML in a notebook)."""

    _HEAD = ("expression", "graph (output first)", "saved for backward", "second backward")

    def rows(self) -> list:
        return [(r.expression, r.graph_text, r.saved_text, r.outcome) for r in self]

    def errors(self) -> list:
        """The distinct error lines of the failing second backwards (torch's text, word for word)."""
        return list(dict.fromkeys(f"{r.error_type}: {r.error}" for r in self if r.error is not None))

    def __str__(self) -> str:
        rows = [self._HEAD] + self.rows()
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[3] for row in rows]
        errors = self.errors()
        return "\n".join(lines + ([""] + errors if errors else []))

    def _repr_html_(self) -> str:
        head = "".join(f'<th scope="col">{escape(h)}</th>' for h in self._HEAD)
        body = []
        for r, row in zip(self, self.rows()):
            cls = "agt-demo-fails" if r.second_backward_raises else "agt-demo-ok"
            cells = "".join(f"<td><code>{escape(c)}</code></td>" for c in row[:3])
            body.append(f'<tr class="{cls}">{cells}<td>{escape(row[3])}</td></tr>')
        notes = "".join(f'<pre class="agt-demo-error">{escape(e)}</pre>' for e in self.errors())
        return (f'<table class="agt-demo-table"><caption>Which operations save tensors, and does a second '
                f'backward() work?</caption><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
                f"</table>{notes}")


def graph_nodes(tensor) -> list:
    """The function nodes behind ``tensor``, from its ``grad_fn`` down to the leaves, each once.

    >>> import autograd_tutor as torch
    >>> x = torch.tensor(2., requires_grad=True)
    >>> [n.name() for n in graph_nodes((x * 3).exp())]
    ['ExpBackward0', 'MulBackward0']
    """
    out, seen = [], set()
    todo = [tensor.grad_fn] if tensor.grad_fn is not None else []
    while todo:
        node = todo.pop(0)
        if node is None or id(node) in seen or hasattr(node, "variable"):
            continue
        seen.add(id(node))
        out.append(node)
        todo.extend(child for child, _ in node.next_functions)
    return out


def saved_of(node) -> tuple:
    """What ``node`` saved, as :class:`SavedInfo` in input order (self, other..., then result).

    >>> import autograd_tutor as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> [s.text for s in saved_of((x * x).grad_fn)], [s.text for s in saved_of((x / 2).grad_fn)]
    (['self=(2,)', 'other=(2,)'], ['other=tensor(2)'])
    """
    names = [name for name, _ in node.saved_summary()]
    order = list(getattr(type(node), "saved_names", ())) + ["result"]
    names.sort(key=lambda n: order.index(n) if n in order else len(order))
    return tuple(_info(name, getattr(node, "_saved_" + name)) for name in names)


def _info(name: str, value) -> SavedInfo:
    if isinstance(value, (tuple, list)):
        return SavedInfo(name, tuple(tuple(t.shape) for t in value if t is not None))
    if value.dim() == 0 and not value.requires_grad:
        return SavedInfo(name, (), repr(value))
    return SavedInfo(name, tuple(value.shape))


def _fresh_leaves(torch, leaves: Mapping) -> dict:
    return {name: torch.tensor(values, requires_grad=True) for name, values in leaves.items()}


def _backward(torch, y) -> None:
    """``y.backward()``, with ``gradient=ones`` when ``y`` has more than one element (as ``y.sum()`` would)."""
    y.backward(gradient=None if y.numel() == 1 else torch.ones_like(y))


def _grad_text(t) -> str:
    return summary(t.grad._data) if t.grad is not None else "None"


def report(expression: str, leaves: Optional[Mapping] = None) -> OpReport:
    """Evaluate ``expression`` on fresh leaves, inspect its graph, and run backward twice (see the module)."""
    import autograd_tutor as torch
    namespace = _fresh_leaves(torch, LEAVES if leaves is None else leaves)
    y = eval(expression, {"torch": torch, **namespace})
    if not getattr(y, "requires_grad", False):
        raise ValueError(f"{expression!r} builds no graph: its result does not require grad")
    nodes = tuple(NodeInfo(n.name(), saved_of(n)) for n in graph_nodes(y))
    with events.record(kinds=["saved_tensors_freed"]) as first:
        _backward(torch, y)
    used = {name: t for name, t in namespace.items() if t.grad is not None}
    after_first = {name: _grad_text(t) for name, t in used.items()}
    with events.record(kinds=["backward_failed"]) as second:
        try:
            _backward(torch, y)
        except RuntimeError:
            pass
    failed = second[0] if second else None
    grads = tuple((name, after_first[name], _grad_text(t)) for name, t in used.items())
    return OpReport(expression, nodes, tuple((e.name, e.names) for e in first), grads,
                    failed.error_type if failed else None, failed.message if failed else None,
                    failed.name if failed else None)


def which_ops_save(expressions: Sequence[str] = EXPRESSIONS, leaves: Optional[Mapping] = None) -> OpTable:
    """For each expression: its graph, what each node saved, and whether a second backward raises.

    ``leaves`` maps names to values for the leaves the expressions use (default :data:`LEAVES`).
    """
    if isinstance(expressions, str):
        expressions = [expressions]
    return OpTable(report(e, leaves) for e in expressions)
