"""How big a node's box and an edge's label must be for their text to fit, measured with the font's widths.

A node shows up to five rows: its name (bold), its operation, its value, its gradient (bold) and what it saved.
Every renderer writes them at the baselines given here, and the box is as wide as its widest row needs: a
leaf is a pill, so a row near its top or bottom loses the width of the rounded ends at that height (a circle's
chord), inside its inner outline. Nothing is cut: ``MaxPool2DWithIndicesBackward0`` makes its box wider.

The gradient row keeps room for a gradient as long as the node's value (they have the same shape), since it
changes during the replay; an edge label keeps room for its gradient, or one of the shape of its source's value.
No row and no label is a cut list of numbers: a tensor of more than a few numbers is its shape and a heatmap
(the value's under the value row, the gradient's under the gradient row, an edge's beside its label).
Widths go up in steps of 16 px, so a value that changes by a digit (a training step) does not move the layout.

>>> w, h, top = node_size({"kind": "leaf", "label": "x", "sub": "AccumulateGrad", "value": "[1, 2, 3, 4]",
...                        "grad": "[45, 54, 81, 90]", "saved": [], "hidden": 0}, ports=1)
>>> w > text_width("grad [45, 54, 81, 90]", GRAD_SIZE, True) + 2 * 20, h, top
(True, 70, 4)
"""
from __future__ import annotations

import math

from .heat import GAP, LABEL_HEAT, heat_size
from .metrics import ASCENT, DESCENT, text_width

__all__ = ["node_size", "label_size", "label_text", "row_texts", "baseline", "room", "heat_shift", "heat_top",
           "gheat_top", "shape_of", "label_heat_w", "BASELINES", "LABEL_SIZE", "GRAD_SIZE", "SIZES", "STACK", "ROW_PAD"]

#: Font size (px) and weight of each row: name, operation, value, gradient, saved.
SIZES = (12, 10.5, 11, 11, 10)
BOLD = (True, False, False, True, False)
GRAD_SIZE = SIZES[3]
#: Baselines of the first four rows below the box's text top; the saved row sits 6 px above the bottom.
BASELINES = (17, 30, 44, 57)
_HEIGHT, _SAVED_ROW, _LEAF_EXTRA = 62, 14, 8
MIN_WIDTH, ROW_PAD = 104, 8
#: How far the two shadow boxes behind a folded node reach right and down.
STACK = 6
#: Edge labels: bold, at the size of the label of the current step.
LABEL_SIZE = 13
_PORT = 14
_SCALAR = "-0.000e-00"  # the widest a number is written (format.number: 4 significant digits)
_STEP = 16  # widths go up in steps of this many pixels


def shape_of(text: str) -> str:
    """What a row or label shows of a value written with a cut list of numbers: its shape alone (a heatmap
    shows the numbers), ``"(16, 2) [-0.1, 0.3, 0.2, …]"`` -> ``"(16, 2)"``; a whole value as it is."""
    return text.split(" [")[0] if "…" in text else text


def row_texts(n: dict, grad: str = None) -> list:
    """The texts of a node's five rows ('' for an empty one), as every renderer writes them."""
    grad = n["grad"] if grad is None else grad
    label = n["label"] + (f" ×{n['hidden'] + 1}" if n["hidden"] and n["kind"] != "collapsed" else "")
    grad_row = f"grad {shape_of(grad)}" if grad and grad != "None" else "grad None" if n["kind"] == "leaf" else ""
    saved = ("saved: " + " ".join(n["saved"])) if n["saved"] else ""
    value = n["value"].split(" [")[0] if n.get("heat") else n["value"]  # a heatmap: its shape above it
    return [label, n["sub"], value, grad_row, saved]


def heat_shift(n: dict) -> float:
    """How far a node's heatmap (under its value row) pushes the rows below it down (0 without one)."""
    heat = n.get("heat")
    return heat["h"] + GAP if heat else 0


def heat_top(n: dict) -> float:
    """Where a node's heatmap starts, from the top of its box."""
    return n["top"] + BASELINES[2] + GAP


def gheat_top(n: dict) -> float:
    """Where the heatmap of a node's gradient starts (under its gradient row), from the top of its box."""
    return n["top"] + BASELINES[3] + heat_shift(n) + GAP


def node_size(n: dict, ports: int) -> tuple:
    """``(width, height, text_top)`` of a node's box (without the shadow boxes of a folded node)."""
    leaf = n["kind"] == "leaf"
    roomy = leaf or n["kind"] == "group"  # a pill's rounded ends, a group's band: the rows start lower
    top = _LEAF_EXTRA // 2 if roomy else 0
    shift = heat_shift(n)
    gheat = n.get("gheat")
    h = _HEIGHT + (_LEAF_EXTRA if roomy else 0) + (_SAVED_ROW if n["saved"] else 0) + shift
    h += gheat["h"] + GAP if gheat else 0
    h = max(h, 16 + _PORT * (ports - 1))
    texts = row_texts(n)
    if n["value"]:  # room for any gradient of the value's shape (the replay changes it)
        texts.append("grad " + shape_of(n["value"]))
    w = MIN_WIDTH
    for i, text in enumerate(texts):
        if not text:
            continue
        row = min(i, 4)
        need = text_width(text, SIZES[row], BOLD[row]) + 2 * ROW_PAD
        if leaf:
            base = h - 6 if row == 4 else top + BASELINES[row] + (shift if row == 3 else 0)
            need += 2 * _pill_inset(h, base - ASCENT * SIZES[row], base + DESCENT * SIZES[row])
        w = max(w, math.ceil(need / _STEP) * _STEP)
    for heat, y0 in ((n.get("heat"), top + BASELINES[2] + GAP), (gheat, top + BASELINES[3] + shift + GAP)):
        if heat:
            need = heat["w"] + 2 * ROW_PAD + (2 * _pill_inset(h, y0, y0 + heat["h"]) if leaf else 0)
            w = max(w, math.ceil(need / _STEP) * _STEP)
    return w, h, top


def _pill_inset(h: float, y0: float, y1: float) -> float:
    """How much narrower a pill of height ``h`` is, inside its inner outline (3.5 px in), over rows y0..y1."""
    r = h / 2 - 3.5
    dy = max(abs(y0 - h / 2), abs(y1 - h / 2))
    if dy >= r:
        return r + 3.5
    return 3.5 + r - math.sqrt(r * r - dy * dy)


def label_text(grad: str) -> str:
    """What an edge label shows: a gradient of up to six numbers whole (``(1, 1, 2, 2) [45, 54, 81, 90]``), of
    a larger one its shape (``(16, 2)``), with a heatmap beside it and its numbers in the heatmap's tooltip."""
    return shape_of(grad)


def label_size(grad: str, source_value: str, heat_w: float = 0) -> tuple:
    """``(width, height)`` kept free above an edge for its gradient label (``heat_w``: its heatmap's width): room
    for any gradient the replay writes there, which has the shape of the edge's source. A gradient drawn by its
    shape says that shape; else the source's value does, or the widest number (an op's value is not kept)."""
    if grad and label_text(grad) != grad:  # "(4, 16) [...]": every gradient on this edge reads "(4, 16)"
        template = grad
    else:
        template = _SCALAR if not source_value or source_value[0] not in "([" else source_value
    w = max(text_width(label_text(t), LABEL_SIZE, True) for t in (grad or "", template))
    w += GAP + heat_w if heat_w else 0
    w = math.ceil(w / _STEP) * _STEP  # in steps: a new gradient of about the same length moves nothing
    return w + 2, math.ceil((ASCENT + DESCENT) * LABEL_SIZE)


def label_heat_w(edge: dict, source: dict) -> float:
    """The width of an edge label's heatmap: its gradient's, or one of its source value's shape (0: none)."""
    if edge.get("heat"):
        return edge["heat"]["w"]
    heat = source.get("heat")
    return heat_size(heat["rows"], heat["cols"], LABEL_HEAT)[0] if heat else 0


def baseline(n: dict, row: int) -> float:
    """The baseline of row ``row`` of a placed node (``h``, ``top``), from the top of its box."""
    return n["h"] - 6 if row == 4 else n["top"] + BASELINES[row] + (heat_shift(n) if row == 3 else 0)


def room(n: dict, row: int) -> float:
    """The width row ``row`` of a placed node may take (a pill's rounded ends and the padding left out)."""
    space = n["w"] - 2 * ROW_PAD
    if n["kind"] == "leaf":
        base = baseline(n, row)
        space -= 2 * _pill_inset(n["h"], base - ASCENT * SIZES[row], base + DESCENT * SIZES[row])
    return space
