"""The text alternative to a drawing: one row per node (name, kind, operation, value, grad, saved).

A screen reader reads the HTML table; nbval compares the plain-text one. Both can show the state at any
replay position, so they stay in step with the diagram.

>>> import autograd_tutor as torch
>>> a = torch.tensor(3., requires_grad=True); b = torch.tensor(4., requires_grad=True)
>>> d = a * b + a; d.backward(retain_graph=True)
>>> from autograd_tutor.viz.model import GraphModel
>>> print(text_table(GraphModel.from_tensor(d, namespace={"a": a, "b": b, "d": d})))
name          kind    operation       value  grad  saved
a             leaf    AccumulateGrad  3      5
b             leaf    AccumulateGrad  4      3
MulBackward0  result  MulBackward0                 self, other
d             result  AddBackward0    15
"""
from __future__ import annotations

import html
from typing import Optional

from .replay import State

__all__ = ["rows", "text_table", "html_table"]

HEADER = ("name", "kind", "operation", "value", "grad", "saved")
_KIND = {"leaf": "leaf", "op": "result", "constant": "constant", "collapsed": "collapsed"}
_STATE = {"saved": "", "freed": " (freed)", "kept": " (kept)", "none": ""}


def rows(model, state: Optional[State] = None) -> list:
    """One tuple of strings per visible node, in display order; ``state`` overrides grads and saved state."""
    out = []
    for n in model.visible:
        grad = state.grads.get(n.key) if state is not None else (n.grad.text if n.grad is not None else "None")
        saved_state = state.saved.get(n.key, n.saved_state) if state is not None else n.saved_state
        op = "AccumulateGrad" if n.kind == "leaf" else n.op if n.kind == "op" else ""
        if n.kind == "collapsed" or n.hidden:
            op = (op + " " if op else "") + f"(+{n.hidden} hidden)"
        saved = ", ".join(n.saved) + _STATE[saved_state] if n.saved else ""
        show_grad = grad if grad not in (None, "None") else "None" if n.kind == "leaf" else ""
        out.append((n.label, _KIND[n.kind], op, n.value.text if n.value is not None else "", show_grad, saved))
    return out


def text_table(model, state: Optional[State] = None, limit: Optional[int] = None) -> str:
    """The table as aligned plain text (at most ``limit`` rows, then a line saying how many more)."""
    body = rows(model, state)
    more = len(body) - limit if limit is not None and len(body) > limit else 0
    body = body[:limit] if more else body
    widths = [max(len(r[i]) for r in [HEADER, *body]) for i in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [HEADER, *body]]
    if more:
        lines.append(f"… {more} more nodes")
    return "\n".join(lines)


def html_table(model, state: Optional[State] = None, caption: str = "Nodes of the computation graph") -> str:
    """The table as accessible HTML: a caption, column headers with ``scope``, one row per node."""
    head = "".join(f'<th scope="col">{h}</th>' for h in HEADER)
    body = []
    for r in rows(model, state):
        cells = f'<th scope="row">{html.escape(r[0])}</th>' + "".join(f"<td>{html.escape(c)}</td>" for c in r[1:])
        body.append(f"<tr>{cells}</tr>")
    return (f'<table class="agt-table"><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>")
