"""The drawing under a check's verdict: the learner's graph, with the one problem the verdict names marked.

A graph (a :class:`~autograd_tutor.viz.model.GraphModel`) is laid out by the same layered method as every
drawing (:func:`~autograd_tutor.viz.layered.layout`: data flows left to right, input 0 enters above input 1),
and drawn in the style of :func:`autograd_tutor.exercise.check_backward`'s drawing: leaves as pills, results of
operations as rectangles named after their ``grad_fn``, untracked data as dashed grey boxes. A marked node or
edge is orange and dashed (``is-wrong``), with a short note on the edge; when the check passed, every edge is
green (``is-right``). A tensor the verdict names that is not in the graph at all (a parameter that does not
require grad) is drawn apart, under the graph, marked.

>>> import autograd_tutor as torch
>>> from autograd_tutor.viz.model import GraphModel
>>> x = torch.tensor(2., requires_grad=True)
>>> model = GraphModel.from_tensor(x * 3, namespace={"x": x})
>>> root = next(n for n in model.visible if n.root)
>>> svg = graph_svg(model, Marks(edge=(x._id, root.key, 0), note="here"))
>>> svg.count('class="edge is-wrong"'), ">here<" in svg
(1, True)
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Optional

from ..exercise import _STYLE
from ..viz.layered import Edge, layout, path_d
from ..viz.metrics import text_width

__all__ = ["Marks", "graph_svg", "check_html", "STYLE"]

FONT = 13
#: What a check's drawing adds to check_backward's style: dashed constants, marked boxes and notes.
STYLE = _STYLE + """<style>
.agt-check .box.is-constant { stroke-dasharray: 5 3; fill: var(--jp-layout-color2, #f2f2f2); }
.agt-check .box.is-wrong { stroke: var(--c-bad); stroke-width: 3; stroke-dasharray: 7 4; }
.agt-check .edge.is-data { stroke-dasharray: 4 3; }
.agt-check text.agt-check-sub { font-size: 11px; fill: var(--c-fg); opacity: 0.8; }
.agt-check h4 { margin: 8px 0 2px; font-size: 14px; }
.agt-check ul.agt-check-details { margin: 2px 0 4px; padding-left: 0; list-style: none; }
</style>"""


@dataclass(frozen=True)
class Marks:
    """What to mark: ``node`` (a model key), ``edge`` (``(src key, dst key, input_nr)``), ``apart`` (the name of
    a tensor outside the graph), with ``note``, a few words written beside the mark. ``ok``: all edges green."""
    node: Optional[int] = None
    edge: Optional[tuple] = None
    apart: str = ""
    note: str = ""
    ok: bool = False


def _texts(n) -> tuple:
    """(first line, second line) of a node's box: the variable name over its grad_fn, or the grad_fn alone."""
    if n.kind == "leaf":
        return n.label, "leaf"
    if n.kind == "constant":
        return n.label, "no grad"
    return (n.name, n.op) if n.name else (n.op, "")


def graph_svg(model, marks: Marks) -> str:
    """The SVG of ``model`` with ``marks``; deterministic (no ids from memory), so nbval can compare it."""
    nodes = list(model.visible)
    index = {n.key: i for i, n in enumerate(nodes)}
    sizes = [(max(text_width(t, FONT) for t in _texts(n)) + 28, 44 if _texts(n)[1] else 32) for n in nodes]
    edges = [e for e in model.edges if e.src in index and e.dst in index]
    marked_edge = marks.edge
    if marks.node is not None and marked_edge is None:  # a marked node: its edge out carries the note
        out = next((e for e in edges if e.src == marks.node), None)
        marked_edge = None if out is None else (out.src, out.dst, out.position)
    note = (text_width(marks.note, FONT, True) + 8, FONT + 6) if marks.note else None
    specs = [Edge(index[e.src], index[e.dst], e.position, len(model.node(e.dst).inputs) or 1,
                  note if (e.src, e.dst, e.position) == marked_edge else None) for e in edges]
    drawing = layout(sizes, specs)
    extra = 60 if marks.apart else 0
    tail = 28 if marks.note and marked_edge is None and not marks.apart else 0
    said = _mono(marks.note)  # a note under a node or beside an apart box
    beside = 72 + _mono(marks.apart) + said if marks.apart else said + 8 if tail else 0
    w, h = max(drawing.width, 260, beside), drawing.height + extra + tail
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
             f'viewBox="0 0 {w:.0f} {h:.0f}" role="img" aria-label="{html.escape(marks.note or "your graph")}">']
    for e, route, label in zip(edges, drawing.routes, drawing.labels):
        wrong = (e.src, e.dst, e.position) == marked_edge
        tone = " is-wrong" if wrong else " is-data" if not e.tracked else " is-right" if marks.ok else ""
        parts.append(f'<path class="edge{tone}" d="{path_d(route)}"><title>input {e.position} of '
                     f'{html.escape(_texts(model.node(e.dst))[0])}</title></path>')
        if wrong and label is not None and marks.note:
            parts.append(f'<text class="is-wrong" x="{label[0]:.1f}" y="{label[1]:.1f}" text-anchor="middle">'
                         f'{html.escape(marks.note)}</text>')
    for n, (cx, cy), (bw, bh) in zip(nodes, drawing.centres, sizes):
        tone = " is-wrong" if n.key == marks.node else " is-constant" if n.kind == "constant" else ""
        parts.append(_box(cx, cy, bw, bh, n.kind == "leaf", tone, _texts(n)))
        if n.key == marks.node and marked_edge is None and marks.note and not marks.apart:
            x = min(max(4.0, cx - said / 2), w - said - 4)  # centred under the node, within the drawing
            parts.append(f'<text class="is-wrong" x="{x:.1f}" y="{cy + bh / 2 + 18:.1f}">'
                         f'{html.escape(marks.note)}</text>')
    if marks.apart:
        bw = text_width(marks.apart, FONT) + 28
        y = drawing.height + 26
        parts.append(_box(24 + bw / 2, y, bw, 32, False, " is-wrong", (marks.apart, "")))
        parts.append(f'<text class="is-wrong" x="{36 + bw:.1f}" y="{y + 5:.1f}">{html.escape(marks.note)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _mono(text: str) -> float:
    """The width of ``text`` in the monospace font the check's SVG text uses (DejaVu Sans Mono: 0.602 em)."""
    return 0.61 * FONT * len(text)


def _box(cx: float, cy: float, w: float, h: float, pill: bool, tone: str, texts: tuple) -> str:
    first, second = (html.escape(t) for t in texts)
    rx = h / 2 if pill else 4
    out = (f'<rect class="box{tone}" x="{cx - w / 2:.1f}" y="{cy - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" '
           f'rx="{rx:.1f}"/>')
    if not second:
        return out + f'<text x="{cx:.1f}" y="{cy + 5:.1f}" text-anchor="middle">{first}</text>'
    return (out + f'<text x="{cx:.1f}" y="{cy - 3:.1f}" text-anchor="middle">{first}</text>'
            f'<text class="agt-check-sub" x="{cx:.1f}" y="{cy + 13:.1f}" text-anchor="middle">{second}</text>')


def check_html(ok: bool, what: str, verdict: str, drawings: list, key: str, details: tuple = ()) -> str:
    """A check's display: the verdict (ticked or not), its ``details`` (a list, one line each), then each
    ``(heading, svg)`` drawing, then ``key``."""
    tone = "is-right" if ok else "is-wrong"
    shown = "".join((f"<h4>{html.escape(head)}</h4>" if head else "") + svg for head, svg in drawings)
    listed = ("<ul class=\"agt-check-details\">" + "".join(f"<li>{html.escape(d)}</li>" for d in details) + "</ul>"
              if details else "")
    return (f'<div class="agt-check {tone}" role="group" aria-label="{html.escape(what, quote=True)}">{STYLE}'
            f"<p class=\"agt-check-verdict\"><strong>{'&#10003; Right' if ok else '&#10007; Not yet'}</strong>: "
            f"{html.escape(verdict)}</p>{listed}{shown}<p class=\"agt-check-key\">{html.escape(key)}</p></div>")
