"""A standalone SVG of a graph model: the static fallback of the widget, ``save("graph.svg")``, GitHub, nbviewer.

It draws exactly what the widget draws (same geometry from :meth:`GraphModel.snapshot`, same shapes and
palette from :mod:`~autograd_tutor.viz.style`), with inline styles so it needs no stylesheet, a legend,
and a ``<title>``/``<desc>`` for screen readers. The output is deterministic (no ids from memory, no
dates), so nbval can compare it.

>>> import autograd_tutor as torch
>>> from autograd_tutor.viz.model import GraphModel
>>> a = torch.tensor(3., requires_grad=True)
>>> svg = to_svg(GraphModel.from_tensor(a * 2, namespace={"a": a}))
>>> svg.startswith("<svg") and ">MulBackward0<" in svg and ">a<" in svg
True
"""
from __future__ import annotations

from html import escape
from typing import Optional

from .boxes import BOLD, SIZES, STACK, baseline, gheat_top, heat_top, label_text, room, row_texts
from .heat import GAP, heat_svg
from .metrics import FONT, text_width
from .replay import State
from .style import CUT_LEGEND, GROUP_LEGEND, KINDS, LEGEND, PALETTE

__all__ = ["to_svg", "node_svg", "frame_svg", "group_band", "FONT"]

_LEGEND_ROW = 24
#: The cross that ends the edge into a graph cut's box (defined only in drawings that have one).
_CROSS_MARKER = ('<marker id="agt-cross" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="9" markerHeight="9" '
                 f'orient="auto"><path d="M1,1L9,9M9,1L1,9" stroke="{PALETTE["cut"][0]}" stroke-width="2"/></marker>')
#: The cross of a graph cut, 8 px wide from (x, y).
_CROSS = '<path d="M{x},{y}l8,8m0,-8l-8,8" stroke="{stroke}" stroke-width="2" fill="none"/>'

_ROW_STYLE = (' font-weight="700" fill="{text}"', ' fill="{muted}"', ' fill="{text}"', ' font-weight="600" fill="{grad}"',
              ' fill="{muted}"')


def _squeezed(text: str, size: float, bold: bool, space: float) -> str:
    """The attributes that narrow a text to ``space`` when it is wider (a replay step's gradient can be
    longer than the one the box was sized for): it stays whole, never cut."""
    if text_width(text, size, bold) <= space:
        return ""
    return f' textLength="{space:.1f}" lengthAdjust="spacingAndGlyphs"'


def _shape(kind: str, w: float, h: float, root: bool, hidden: int) -> str:
    stroke, fill = PALETTE.get(kind, PALETTE["op"])
    width = 3 if root else 1.6
    if kind == "leaf":
        r = h / 2
        return (f'<rect width="{w}" height="{h}" rx="{r}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
                f'<rect x="3.5" y="3.5" width="{w - 7}" height="{h - 7}" rx="{r - 3.5}" fill="none" '
                f'stroke="{stroke}" stroke-width="1"/>')
    if kind == "group":  # a module call: a band along the top says "more inside"
        return (f'<rect width="{w}" height="{h}" rx="8" fill="{fill}" stroke="{stroke}" stroke-width="2.4"/>'
                f'<path d="{group_band(w)}" fill="{stroke}"/>')
    if kind == "cut":  # a dotted box with a cross under its text: the gradient stops here
        return (f'<rect width="{w}" height="{h}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="2" '
                f'stroke-dasharray="2 3"/>{_CROSS.format(x=w / 2 - 4, y=h - 20, stroke=stroke)}')
    dash = ' stroke-dasharray="5 3"' if kind == "constant" else ""
    back = ""
    if kind == "collapsed" or hidden:
        back = "".join(f'<rect x="{d}" y="{d}" width="{w}" height="{h}" rx="4" fill="{fill}" stroke="{stroke}" '
                       f'stroke-width="1.2"/>' for d in (STACK, STACK / 2))
    return back + (f'<rect width="{w}" height="{h}" rx="4" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{width}"{dash}/>')


def group_band(w: float) -> str:
    """The ``d`` of the band along the top of a module group's box (inside its rounded corners)."""
    return f"M1.2,6.5A5.3,5.3 0 0 1 6.5,1.2H{w - 6.5:g}A5.3,5.3 0 0 1 {w - 1.2:g},6.5V8H1.2Z"


def node_svg(n: dict, grad: Optional[str] = None, state: Optional[str] = None, active: bool = False) -> str:
    """One node of a snapshot as an SVG group (``grad`` and ``state`` override the snapshot's)."""
    w, h = n["w"], n["h"]
    grad = (n["grad"] or "None") if grad is None else grad
    state = n["state"] if state is None else state
    parts = [f'<g transform="translate({n["x"] - w / 2:g},{n["y"] - h / 2:g})">']
    if active:
        parts.append(f'<rect x="-5" y="-5" width="{w + 10}" height="{h + 10}" rx="8" fill="none" '
                     f'stroke="{PALETTE["active"]}" stroke-width="3"/>')
    parts.append(_shape(n["kind"], w, h, n["root"], n["hidden"]))
    texts = row_texts(n, grad)
    for row, text in enumerate(texts[:4]):
        if not text:
            continue
        size, bold, style = SIZES[row], BOLD[row], _ROW_STYLE[row]
        if row == 3 and grad == "None":  # a leaf without a gradient yet
            size, bold, style = SIZES[1], False, _ROW_STYLE[1]
        parts.append(f'<text x="{w / 2:g}" y="{baseline(n, row):g}" text-anchor="middle" font-size="{size}"'
                     f'{style.format(**PALETTE)}{_squeezed(text, size, bold, room(n, row))}>{escape(text)}</text>')
    if n.get("heat"):
        heat = n["heat"]
        parts.append(f'<g transform="translate({(w - heat["w"]) / 2:g},{heat_top(n):g})">{heat_svg(heat)}</g>')
    if n.get("gheat") and grad == n["grad"]:  # the gradient's heatmap: only for the gradient it was made of
        heat = n["gheat"]
        parts.append(f'<g transform="translate({(w - heat["w"]) / 2:g},{gheat_top(n):g})">{heat_svg(heat)}</g>')
    if n["saved"]:
        parts.append(_saved_row(n, state))
    parts.append(f"<title>{escape(_describe(n, grad, state))}</title></g>")
    return "".join(parts)


def _saved_row(n: dict, state: str) -> str:
    word = {"freed": "freed:", "kept": "kept:"}.get(state, "saved:")
    style = {"freed": f' fill="{PALETTE["freed"]}" text-decoration="line-through"',
             "kept": f' fill="{PALETTE["kept"]}" font-weight="700"'}.get(state, "")
    spans = " ".join(f"<tspan{style}>{escape(s)}</tspan>" for s in n["saved"])
    text = f"{word} {' '.join(n['saved'])}"
    return (f'<text x="{n["w"] / 2:g}" y="{baseline(n, 4):g}" text-anchor="middle" font-size="{SIZES[4]}" '
            f'fill="{PALETTE["muted"]}"{_squeezed(text, SIZES[4], state == "kept", room(n, 4))}>{word} {spans}</text>')


def _describe(n: dict, grad: str, state: str) -> str:
    what = {"leaf": "leaf tensor", "op": "result of " + n["op"], "constant": "constant, no grad",
            "collapsed": f"{n['hidden']} collapsed nodes", "group": f"module call, {n['sub']}",
            "cut": "graph cut, " + n["sub"]}[n["kind"]]
    bits = [f"{n['label']}: {what}"]
    if n.get("numbers"):
        bits.append(f"value {n['value'].split(' [')[0]} [{n['numbers']}]")
    elif n["value"]:
        bits.append(f"value {n['value']}")
    if n.get("gnumbers") and grad == n["grad"]:
        bits.append(f"grad {grad.split(' [')[0]} [{n['gnumbers']}]")
    elif grad != "None" or n["kind"] == "leaf":
        bits.append(f"grad {grad}")
    if n["saved"]:
        bits.append(f"saved {', '.join(n['saved'])} ({state})")
    return ", ".join(bits)


def _legend_items(groups: bool = False, cuts: bool = False) -> list:
    """``(svg at x = 0, width)`` of each legend entry (the module group's with ``groups``, the graph cut's with
    ``cuts``: only when the drawing has one)."""
    items = []
    for kind, text in LEGEND + ([GROUP_LEGEND] if groups else []) + ([CUT_LEGEND] if cuts else []):
        stroke, fill = PALETTE[kind]
        if kind == "leaf":
            shape = (f'<rect y="10" width="26" height="16" rx="8" fill="{fill}" stroke="{stroke}" stroke-width="1.6"/>'
                     f'<rect x="2.5" y="12.5" width="21" height="11" rx="5.5" fill="none" stroke="{stroke}"/>')
        elif kind == "cut":
            shape = (f'<rect y="10" width="26" height="16" rx="3" fill="{fill}" stroke="{stroke}" stroke-width="1.6" '
                     f'stroke-dasharray="2 2"/>{_CROSS.format(x=3, y=13, stroke=stroke)}')
        else:
            dash = ' stroke-dasharray="4 2"' if kind == "constant" else ""
            shape = (f'<rect y="10" width="26" height="16" rx="3" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="1.6"{dash}/>')
        items.append((shape, text))
    items.append((f'<line y1="18" x2="26" y2="18" stroke="{PALETTE["edge"]}" stroke-width="1.5"/>', "gradient path"))
    items.append((f'<line y1="18" x2="26" y2="18" stroke="{PALETTE["data_edge"]}" stroke-width="1.5" '
                  f'stroke-dasharray="4 3"/>', "no gradient"))
    items.append((f'<text y="22" font-size="11" fill="{PALETTE["grad"]}" font-weight="600">1.5</text>',
                  "gradient value"))
    out = [(shape + f'<text x="32" y="22" font-size="11" fill="{PALETTE["text"]}">{text}</text>',
            32 + text_width(text, 11)) for shape, text in items]
    saved = "saved: x x freed x kept"
    out.append((f'<text y="22" font-size="11" fill="{PALETTE["muted"]}">saved: x '
                f'<tspan fill="{PALETTE["freed"]}" text-decoration="line-through">x</tspan> freed '
                f'<tspan fill="{PALETTE["kept"]}" font-weight="700">x</tspan> kept</text>', text_width(saved, 11, True)))
    return out


def _legend(width: float, groups: bool = False, cuts: bool = False) -> tuple:
    """The legend wrapped to ``width``, and its height."""
    parts, x, y = [], 12, 0
    for svg, w in _legend_items(groups, cuts):
        if x > 12 and x + w > width - 12:
            x, y = 12, y + _LEGEND_ROW
        parts.append(f'<g transform="translate({x:g},{y})">{svg}</g>')
        x += w + 18
    return f'<g aria-hidden="true">{"".join(parts)}</g>', y + _LEGEND_ROW + 12


def to_svg(model, state: Optional[State] = None, legend: bool = True, title: str = "Computation graph") -> str:
    """The whole drawing as an SVG string; ``state`` (from :func:`replay.state_at`) shows one replay step."""
    snap = model.snapshot()
    nodes, edges = snap["nodes"], snap["edges"]
    width = max(snap["width"], 320 if legend else 0)
    closed = [g for g in snap.get("groups", ()) if not g["expanded"]]
    cuts = any(n["kind"] == "cut" for n in nodes)
    legend_svg, top = _legend(width, bool(closed), cuts) if legend else ("", 0)
    notes = _notes(model, snap, closed, width)
    height = snap["height"] + top + 22 * len(notes)
    by_index = {n.index: n.key for n in model.visible}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
             f'viewBox="0 0 {width:g} {height:g}" role="img" font-family="{FONT}">',
             f"<title>{escape(title)}: {_summary(model)}</title>",
             '<defs><marker id="agt-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
             f'orient="auto"><path d="M0,1L9,5L0,9z" fill="{PALETTE["edge"]}"/></marker>'
             '<marker id="agt-back" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
             f'orient="auto-start-reverse"><path d="M0,1L9,5L0,9z" fill="{PALETTE["grad"]}"/></marker>'
             + (_CROSS_MARKER if cuts else "") + '</defs>',
             f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>', legend_svg,
             f'<g transform="translate(0,{top})">']
    parts.extend(frame_svg(g) for g in snap.get("groups", ()) if g["expanded"])
    labels = []
    for i, e in enumerate(edges):
        if not e["path"]:  # inside a closed group
            continue
        grad = state.edges.get(i, "") if state is not None else e["grad"]
        if e.get("cut"):
            end = "agt-cross" if nodes[e["dst"]]["kind"] == "cut" else "agt-arrow"
            stroke = (f'stroke="{PALETTE["cut"][0]}" stroke-width="1.6" stroke-dasharray="2 3" '
                      f'marker-end="url(#{end})"')
        elif not e["tracked"]:
            stroke = f'stroke="{PALETTE["data_edge"]}" stroke-dasharray="4 3" marker-end="url(#agt-arrow)"'
        elif grad:
            stroke = f'stroke="{PALETTE["grad"]}" stroke-width="2" marker-start="url(#agt-back)"'
        else:
            stroke = f'stroke="{PALETTE["edge"]}" stroke-width="1.4" marker-end="url(#agt-arrow)"'
        parts.append(f'<path d="{e["path"]}" fill="none" {stroke}/>')
        if grad and e["lx"] is not None:
            labels.append(_edge_label(e, grad))
    lit = set()
    for n in nodes:
        key = by_index.get(n["key"])  # None for a graph cut's box: no replay state
        active = state is not None and key is not None and state.active == key
        if "inside" in n:  # drawn as its group's box, which the replay lights when it is this node's turn
            if active:
                lit.add(n["inside"])
            continue
        grad = state.grads.get(key) if state is not None else None
        saved = state.saved.get(key) if state is not None else None
        parts.append(node_svg(n, grad, saved, active))
    for g in closed:
        parts.append(node_svg(dict(g, kind="group", op="", value="", grad="", saved=[], state="none", hidden=0),
                              active=g["id"] in lit))
    parts.extend(labels)
    for row, text in enumerate(notes):
        parts.append(f'<text x="12" y="{snap["height"] + 12 + 22 * row:g}" font-size="11" '
                     f'fill="{PALETTE["muted"]}">{escape(text)}</text>')
    parts.append("</g></svg>")
    return "".join(parts)


def _edge_label(e: dict, grad: str) -> str:
    """An edge's gradient label: the whole gradient, or its shape and a heatmap (the numbers in its tooltip),
    centred where the layout kept room."""
    text = label_text(grad)
    heat = e.get("heat") if grad == e["grad"] else None
    style = f'font-size="11.5" font-weight="700" fill="{PALETTE["grad"]}"'
    if heat is None:
        return (f'<text class="agt-elabel" x="{e["lx"]:g}" y="{e["ly"]:g}" text-anchor="middle" {style}>'
                f'{escape(text)}</text>')
    tw = text_width(text, 11.5, True)
    x0 = e["lx"] - (tw + GAP + heat["w"]) / 2
    return (f'<text class="agt-elabel" x="{x0:g}" y="{e["ly"]:g}" {style}>{escape(text)}</text>'
            f'<g class="agt-lheat" transform="translate({x0 + tw + GAP:g},{e["ly"] + 2 - heat["h"]:g})">'
            f'{heat_svg(heat)}<title>gradient {escape(text)}: {escape(e["numbers"])}</title></g>')


def frame_svg(g: dict) -> str:
    """An open module group: a dashed frame around exactly its nodes, its name in the strip along its top
    (as the widget draws it; the full name and how to close it in the ``<title>``)."""
    x0, y0, x1, y1 = g["frame"]
    stroke, fill = PALETTE["group"]
    return (f'<g class="agt-frame"><rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}" rx="10" '
            f'fill="{fill}" fill-opacity="0.35" stroke="{stroke}" stroke-width="1.4" stroke-dasharray="6 3"/>'
            f'<text x="{g["tab"][0]:g}" y="{g["tab"][1]:g}" font-size="11" font-weight="700" fill="#00634A">'
            f'{escape(g["tab_text"])} ▾</text><title>{escape(g["label"])}: a module call, {len(g["members"])} nodes '
            '(in the live widget, click its name to close it)</title></g>')


def _notes(model, snap: dict, closed: list, width: float) -> list:
    """The lines under the drawing: what was folded, and how to open the module boxes (one line each, short
    enough for the drawing's width)."""
    notes = []
    if snap["hidden"]:
        notes.append(f"{snap['hidden']} repeated nodes collapsed (node budget {model.max_nodes})")
    if closed:
        for text in (f"{len(closed)} module calls are drawn as one box each: in the live widget, click one "
                     "(or Tab to it and press Enter) to see its nodes.",
                     f"{len(closed)} module calls drawn as one box each: click one in the live widget to open it.",
                     "Module calls: one box each (click to open)."):
            if text_width(text, 11) <= width - 24:
                break
        notes.append(text)
    return notes


def _summary(model) -> str:
    counts = {}
    for n in model.visible:
        counts[n.kind] = counts.get(n.kind, 0) + 1
    kinds = ", ".join(f"{c} {KINDS[k]}" for k, c in counts.items())
    return f"{len(model.visible)} nodes ({kinds}), {len(model.edges)} edges"
