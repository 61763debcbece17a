"""The graph drawn with matplotlib, for books and slides: ``draw(tensor, ax=None)``, ``save_png(model, path)``.

The geometry is the widget's (one snapshot, one layout). Edges are a single ``LineCollection`` of sampled
curves, never one arrow patch per edge (matplotlib's ``FancyArrowPatch`` takes seconds on 1,000 edges);
beyond ``DETAIL`` nodes, nodes become one scatter of markers and text is left out, so a 1,000-node graph
draws in well under a second. matplotlib is imported only when you draw.

>>> import autograd_tutor as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> ax = draw(x * x + 1, namespace={"x": x})
>>> sorted(t.get_text() for t in ax.texts if t.get_text() in ("x", "MulBackward0"))
['MulBackward0', 'x']
"""
from __future__ import annotations

from typing import Optional

from .boxes import BOLD, SIZES, baseline, gheat_top, heat_top, label_text, row_texts
from .heat import COLOURS
from .layered import bezier_points, path_segments
from .names import caller_namespace
from .style import PALETTE

__all__ = ["draw", "save_png", "DETAIL"]

#: Above this many nodes the drawing keeps shapes and edges but drops per-node patches and text.
DETAIL = 200
_TS = tuple(i / 8 for i in range(9))


def _model(target, namespace):
    from .model import GraphModel
    if isinstance(target, GraphModel):
        return target
    if hasattr(target, "model") and isinstance(target.model, GraphModel):  # a GraphWidget
        return target.model
    return GraphModel.from_tensor(target, namespace=namespace)


def _curves(path: str) -> list:
    """Sample an edge's SVG path (as :func:`layered.path_d` writes it) into points."""
    points = []
    for seg in path_segments(path):
        points.extend(bezier_points(seg, _TS if not points else _TS[1:]))
    return points


def draw(target, ax=None, namespace: Optional[dict] = None, state=None):
    """Draw the graph of a tensor (ours or PyTorch's), a :class:`GraphModel` or a widget on ``ax``.

    Names come from ``namespace`` (default: the notebook's, or the caller's variables). Returns the axes.
    """
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    from matplotlib.patches import FancyBboxPatch

    model = _model(target, namespace if namespace is not None else caller_namespace())
    snap = model.snapshot()
    closed = [dict(g, kind="group", value="", grad="", saved=[], state="none", hidden=0)
              for g in snap.get("groups", ()) if not g["expanded"]]
    nodes = [n for n in snap["nodes"] if "inside" not in n]  # those in a closed group: its box instead
    edges = [e for e in snap["edges"] if e["path"]]
    if ax is None:
        w, h = max(snap["width"], 200) / 100, max(snap["height"], 120) / 100
        scale = min(1.0, 16 / w, 12 / h)
        _, ax = plt.subplots(figsize=(w * scale, h * scale))
    ax.set_xlim(0, max(snap["width"], 1))
    ax.set_ylim(max(snap["height"], 1), 0)
    ax.set_aspect("equal")
    ax.axis("off")
    box = ax.get_window_extent()
    # font sizes in points for text sized in drawing pixels: the drawing's boxes were sized for DejaVu Sans,
    # matplotlib's own font, so the text fits the same way at any figure size
    pt = min(box.width / max(snap["width"], 1), box.height / max(snap["height"], 1)) * 72 / ax.figure.dpi
    detail = len(nodes) <= DETAIL
    for g in snap.get("groups", ()):  # an open module group: its frame and name, as in the SVG
        if g["expanded"] and detail:
            x0, y0, x1, y1 = g["frame"]
            stroke, fill = PALETTE["group"]
            ax.add_patch(FancyBboxPatch((x0, y0), x1 - x0, y1 - y0, boxstyle="round,pad=0,rounding_size=10",
                                        fc=fill, alpha=0.5, ec=stroke, lw=1.0, ls=(0, (6, 3)), zorder=0))
            ax.text(g["tab"][0], g["tab"][1], g["tab_text"] + " ▾", fontsize=11 * pt, fontweight="bold",
                    color="#00634A", va="baseline", zorder=4)
    edge_grads = state.edges if state is not None else {i: e["grad"] for i, e in enumerate(edges)}
    for tracked, flowing in ((False, False), (True, False), (True, True)):
        group = [i for i, e in enumerate(edges) if e["tracked"] == tracked and bool(edge_grads.get(i)) == flowing]
        if not group:
            continue
        colour = PALETTE["grad"] if flowing else PALETTE["edge"] if tracked else PALETTE["data_edge"]
        ax.add_collection(LineCollection([_curves(edges[i]["path"]) for i in group], colors=colour,
                                         linewidths=1.6 if flowing else 1.0,
                                         linestyles="solid" if tracked else (0, (4, 3)), zorder=1))
        if detail:
            for i in group:
                if edge_grads.get(i) and edges[i]["lx"] is not None:
                    ax.text(edges[i]["lx"], edges[i]["ly"], label_text(edge_grads[i]), ha="center",
                            va="baseline", fontsize=11.5 * pt, color=PALETTE["grad"], fontweight="bold", zorder=4)
    if not detail:
        for kind, marker in (("leaf", "o"), ("op", "s"), ("constant", "D"), ("collapsed", "p")):
            pts = [(n["x"], n["y"]) for n in nodes if n["kind"] == kind]
            if pts:
                stroke, fill = PALETTE[kind]
                ax.scatter(*zip(*pts), s=40, marker=marker, c=fill, edgecolors=stroke, zorder=2,
                           linestyles="dashed" if kind == "constant" else "solid")
        return ax
    by_index = {n.index: n.key for n in model.visible}
    for n in nodes + closed:
        stroke, fill = PALETTE[n["kind"]]
        w, h = n["w"], n["h"]
        radius = h / 2 if n["kind"] == "leaf" else 4
        ax.add_patch(FancyBboxPatch((n["x"] - w / 2, n["y"] - h / 2), w, h,
                                    boxstyle=f"round,pad=0,rounding_size={radius}", fc=fill, ec=stroke,
                                    lw=2.4 if n["root"] else 1.3,
                                    ls={"constant": "--", "cut": ":"}.get(n["kind"], "-"),
                                    zorder=2))
        if n["kind"] == "leaf":  # the double outline of a leaf
            ax.add_patch(FancyBboxPatch((n["x"] - w / 2 + 4, n["y"] - h / 2 + 4), w - 8, h - 8,
                                        boxstyle=f"round,pad=0,rounding_size={radius - 4}", fc="none",
                                        ec=stroke, lw=0.8, zorder=2))
        if n.get("heat"):
            _heatmap(ax, n, n["heat"], heat_top(n))
        if n["kind"] == "cut":  # the cross under its text: no gradient goes back past it
            ax.plot(n["x"], n["y"] + h / 2 - 16, marker="x", color=stroke, markersize=6, mew=2, zorder=3)
        key = by_index.get(n.get("key"))  # None for a group box or a graph cut's box (viz/cuts.py): no replay state
        grad = state.grads.get(key, n["grad"]) if state is not None else (n["grad"] or "None")
        saved_state = state.saved.get(key, n["state"]) if state is not None else n["state"]
        colours = (PALETTE["text"], PALETTE["muted"], PALETTE["text"], PALETTE["grad"],
                   PALETTE["kept"] if saved_state == "kept" else PALETTE["muted"])
        if n.get("gheat") and grad == n["grad"]:  # the gradient's heatmap, under its row
            _heatmap(ax, n, n["gheat"], gheat_top(n))
        texts = row_texts(n, grad)
        texts[4] = _saved_text(n["saved"], saved_state)
        top = n["y"] - h / 2
        for row, text in enumerate(texts):
            if text:
                ax.text(n["x"], top + baseline(n, row), text, ha="center", va="baseline", fontsize=SIZES[row] * pt,
                        fontweight="bold" if BOLD[row] and text != "grad None" else "normal", color=colours[row],
                        zorder=3)
    return ax


def _heatmap(ax, n: dict, heat: dict, top: float) -> None:
    """A heatmap of node ``n`` (its cells' colours from viz/heat.py), ``top`` px below the top of its box."""
    from matplotlib.colors import to_rgb
    rgb = [[to_rgb(COLOURS[int(c)]) for c in heat["cells"][r * heat["cols"]:(r + 1) * heat["cols"]]]
           for r in range(heat["rows"])]
    x0, y0 = n["x"] - heat["w"] / 2, n["y"] - n["h"] / 2 + top
    ax.imshow(rgb, extent=(x0, x0 + heat["w"], y0 + heat["h"], y0), interpolation="nearest", zorder=3)


def _saved_text(names: list, state: str) -> str:
    if not names:
        return ""
    word = {"freed": "freed", "kept": "kept"}.get(state, "saved")
    return f"{word}: {' '.join(names)}"


def save_png(target, path: str, namespace: Optional[dict] = None, dpi: int = 150) -> None:
    """Draw with matplotlib and write a PNG (the figure is closed afterwards)."""
    import matplotlib.pyplot as plt
    ax = draw(target, namespace=namespace if namespace is not None else caller_namespace())
    ax.figure.savefig(path, dpi=dpi, bbox_inches="tight", facecolor="white")
    plt.close(ax.figure)
