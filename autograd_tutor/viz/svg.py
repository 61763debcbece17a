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

from .replay import State
from .style import KINDS, LEGEND, PALETTE

__all__ = ["to_svg", "node_svg", "FONT"]

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
LEGEND_HEIGHT = 40
_CHARS = 22  # characters that fit on one line of a node


def _fit(text: str, n: int = _CHARS) -> str:
    return text if len(text) <= n else text[:n - 1] + "…"


def _squeezed(text: str, width: float) -> str:
    """The attributes that narrow a line longer than a node's width to fit it whole: torch's node names
    (``MaxPool2DWithIndicesBackward0``) are read in full, never cut."""
    return f' textLength="{width - 10:g}" lengthAdjust="spacingAndGlyphs"' if len(text) > _CHARS else ""


def _shape(kind: str, w: float, h: float, root: bool, hidden: int) -> str:
    stroke, fill = PALETTE.get(kind, PALETTE["op"])
    width = 3 if root else 1.6
    if kind == "leaf":
        r = h / 2
        return (f'<rect width="{w}" height="{h}" rx="{r}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
                f'<rect x="3.5" y="3.5" width="{w - 7}" height="{h - 7}" rx="{r - 3.5}" fill="none" '
                f'stroke="{stroke}" stroke-width="1"/>')
    dash = ' stroke-dasharray="5 3"' if kind == "constant" else ""
    back = ""
    if kind == "collapsed" or hidden:
        back = (f'<rect x="6" y="6" width="{w}" height="{h}" rx="4" fill="{fill}" stroke="{stroke}" '
                f'stroke-width="1.2"/><rect x="3" y="3" width="{w}" height="{h}" rx="4" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="1.2"/>')
    return back + (f'<rect width="{w}" height="{h}" rx="4" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{width}"{dash}/>')


def _saved_row(names: list, state: str, w: float, y: float) -> str:
    word = {"freed": "freed:", "kept": "kept:"}.get(state, "saved:")
    style = {"freed": f' fill="{PALETTE["freed"]}" text-decoration="line-through"',
             "kept": f' fill="{PALETTE["kept"]}" font-weight="700"'}.get(state, "")
    spans = " ".join(f"<tspan{style}>{escape(n)}</tspan>" for n in names)
    return (f'<text x="{w / 2}" y="{y}" text-anchor="middle" font-size="10" fill="{PALETTE["muted"]}">'
            f"{word} {spans}</text>")


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
    label = n["label"] + (f" ×{n['hidden'] + 1}" if n["hidden"] and n["kind"] != "collapsed" else "")
    parts.append(f'<text x="{w / 2}" y="17" text-anchor="middle" font-size="12" font-weight="700" '
                 f'fill="{PALETTE["text"]}">{escape(_fit(label, 20))}</text>')
    if n["sub"]:
        parts.append(f'<text x="{w / 2}" y="30" text-anchor="middle" font-size="10.5"{_squeezed(n["sub"], w)} '
                     f'fill="{PALETTE["muted"]}">{escape(n["sub"])}</text>')
    if n["value"]:
        parts.append(f'<text x="{w / 2}" y="44" text-anchor="middle" font-size="11" '
                     f'fill="{PALETTE["text"]}">{escape(_fit(n["value"], 24))}</text>')
    if grad != "None":
        parts.append(f'<text x="{w / 2}" y="57" text-anchor="middle" font-size="11" font-weight="600" '
                     f'fill="{PALETTE["grad"]}">{escape(_fit("grad " + grad, 24))}</text>')
    elif n["kind"] == "leaf":
        parts.append(f'<text x="{w / 2}" y="57" text-anchor="middle" font-size="10.5" '
                     f'fill="{PALETTE["muted"]}">grad None</text>')
    if n["saved"]:
        parts.append(_saved_row(n["saved"], state, w, h - 6))
    parts.append(f"<title>{escape(_describe(n, grad, state))}</title></g>")
    return "".join(parts)


def _describe(n: dict, grad: str, state: str) -> str:
    what = {"leaf": "leaf tensor", "op": "result of " + n["op"], "constant": "constant, no grad",
            "collapsed": f"{n['hidden']} collapsed nodes"}[n["kind"]]
    bits = [f"{n['label']}: {what}"]
    if n["value"]:
        bits.append(f"value {n['value']}")
    if grad != "None" or n["kind"] == "leaf":
        bits.append(f"grad {grad}")
    if n["saved"]:
        bits.append(f"saved {', '.join(n['saved'])} ({state})")
    return ", ".join(bits)


def _legend(width: float) -> str:
    items, x = [], 12
    for kind, text in LEGEND:
        stroke, fill = PALETTE[kind]
        if kind == "leaf":
            shape = (f'<rect x="{x}" y="10" width="26" height="16" rx="8" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="1.6"/><rect x="{x + 2.5}" y="12.5" width="21" height="11" rx="5.5" fill="none" '
                     f'stroke="{stroke}"/>')
        else:
            dash = ' stroke-dasharray="4 2"' if kind == "constant" else ""
            shape = (f'<rect x="{x}" y="10" width="26" height="16" rx="3" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="1.6"{dash}/>')
        items.append(shape + f'<text x="{x + 32}" y="22" font-size="11" fill="{PALETTE["text"]}">{text}</text>')
        x += 40 + 6.2 * len(text)
    items.append(f'<line x1="{x}" y1="18" x2="{x + 26}" y2="18" stroke="{PALETTE["edge"]}" stroke-width="1.5"/>'
                 f'<text x="{x + 32}" y="22" font-size="11" fill="{PALETTE["text"]}">gradient path</text>')
    x += 40 + 6.2 * 13
    items.append(f'<line x1="{x}" y1="18" x2="{x + 26}" y2="18" stroke="{PALETTE["data_edge"]}" '
                 f'stroke-width="1.5" stroke-dasharray="4 3"/>'
                 f'<text x="{x + 32}" y="22" font-size="11" fill="{PALETTE["text"]}">no gradient</text>')
    x += 40 + 6.2 * 11
    items.append(f'<text x="{x}" y="22" font-size="11" fill="{PALETTE["grad"]}" font-weight="600">1.5</text>'
                 f'<text x="{x + 26}" y="22" font-size="11" fill="{PALETTE["text"]}">gradient value</text>')
    x += 40 + 6.2 * 14
    items.append(f'<text x="{x}" y="22" font-size="11" fill="{PALETTE["muted"]}">saved: x '
                 f'<tspan fill="{PALETTE["freed"]}" text-decoration="line-through">x</tspan> freed '
                 f'<tspan fill="{PALETTE["kept"]}" font-weight="700">x</tspan> kept</text>')
    return f'<g aria-hidden="true">{"".join(items)}</g>'


def to_svg(model, state: Optional[State] = None, legend: bool = True, title: str = "Computation graph") -> str:
    """The whole drawing as an SVG string; ``state`` (from :func:`replay.state_at`) shows one replay step."""
    snap = model.snapshot()
    nodes, edges = snap["nodes"], snap["edges"]
    top = LEGEND_HEIGHT if legend else 0
    width = max(snap["width"], 760 if legend else 0)
    height = snap["height"] + top
    by_index = {n.index: n.key for n in model.visible}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
             f'viewBox="0 0 {width:g} {height:g}" role="img" font-family="{FONT}">',
             f"<title>{escape(title)}: {_summary(model)}</title>",
             '<defs><marker id="agt-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
             f'orient="auto"><path d="M0,1L9,5L0,9z" fill="{PALETTE["edge"]}"/></marker>'
             '<marker id="agt-back" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
             f'orient="auto-start-reverse"><path d="M0,1L9,5L0,9z" fill="{PALETTE["grad"]}"/></marker></defs>',
             f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>']
    if legend:
        parts.append(_legend(width))
    parts.append(f'<g transform="translate(0,{top})">')
    labels = []
    for i, e in enumerate(edges):
        grad = state.edges.get(i, "") if state is not None else e["grad"]
        if not e["tracked"]:
            stroke = f'stroke="{PALETTE["data_edge"]}" stroke-dasharray="4 3" marker-end="url(#agt-arrow)"'
        elif grad:
            stroke = f'stroke="{PALETTE["grad"]}" stroke-width="2" marker-start="url(#agt-back)"'
        else:
            stroke = f'stroke="{PALETTE["edge"]}" stroke-width="1.4" marker-end="url(#agt-arrow)"'
        parts.append(f'<path d="{e["path"]}" fill="none" {stroke}/>')
        if grad:
            labels.append(f'<text x="{e["lx"]:g}" y="{e["ly"] - 4:g}" text-anchor="middle" font-size="11.5" '
                          f'font-weight="700" fill="{PALETTE["grad"]}" stroke="#ffffff" stroke-width="3.5" '
                          f'paint-order="stroke">{escape(_fit(grad, 18))}</text>')
    for n in nodes:
        key = by_index[n["key"]]
        grad = state.grads.get(key) if state is not None else None
        saved = state.saved.get(key) if state is not None else None
        active = state is not None and state.active == key
        parts.append(node_svg(n, grad, saved, active))
    parts.extend(labels)
    if snap["hidden"]:
        parts.append(f'<text x="12" y="{snap["height"] - 8:g}" font-size="11" fill="{PALETTE["muted"]}">'
                     f"{snap['hidden']} repeated nodes collapsed (node budget {model.max_nodes})</text>")
    parts.append("</g></svg>")
    return "".join(parts)


def _summary(model) -> str:
    counts = {}
    for n in model.visible:
        counts[n.kind] = counts.get(n.kind, 0) + 1
    kinds = ", ".join(f"{c} {KINDS[k]}" for k, c in counts.items())
    return f"{len(model.visible)} nodes ({kinds}), {len(model.edges)} edges"
