"""Graphs to lay out and a ruler for drawings: shared by tests/test_viz_geometry.py and benchmarks/viz.py.

``SUITE`` maps a name to a function returning ``(tensor, namespace)``. :func:`measure_svg` parses one of our
static SVGs and counts what a reader would call a broken drawing; :func:`dot_drawing` lays the same nodes and
edges out with Graphviz ``dot`` (same box sizes, left to right) and :func:`measure_boxes` counts its crossings
and edges through boxes the same way. Text widths here come from matplotlib's own FreeType measurement of
DejaVu Sans (kerning included), not from the table the layout uses, so the two check each other.
"""
from __future__ import annotations

import math
import random
import re
import subprocess
import xml.etree.ElementTree as ET

import numpy as np

import autograd_tutor as torch
from autograd_tutor import nn
from autograd_tutor.nn import functional as F
from autograd_tutor.viz.layered import path_segments

SVG = "{http://www.w3.org/2000/svg}"


# ------------------------------------------------------------------------------------------ the graphs
def chain():
    x = torch.tensor(0.5, requires_grad=True)
    y = x
    for f in ("exp", "sin", "tanh", "sigmoid", "cos", "exp", "log", "sqrt"):
        y = getattr(y, f)() if f not in ("log", "sqrt") else getattr((y * y + 1), f)()
    return y, {"x": x, "y": y}


def fan_in():
    leaves = {n: torch.tensor(float(i + 1), requires_grad=True) for i, n in enumerate("abcdef")}
    s = leaves["a"] + leaves["b"] + leaves["c"] + leaves["d"] + leaves["e"] + leaves["f"]
    return s, dict(leaves, s=s)


def square():
    x = torch.tensor(-1.25, requires_grad=True)
    y = x * x
    y.backward()
    return y, {"x": x, "y": y}


def flagship():
    a = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(4.0, requires_grad=True)
    d = a * b + a
    d.backward()
    return d, {"a": a, "b": b, "d": d}


def split():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    p, q = x.split(2)
    loss = (p * q).sum() + p.sum()
    loss.backward()
    return loss, {"x": x, "loss": loss}


def mlp_step():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
    X, Y = torch.randn(4, 2), torch.randn(4, 1)
    loss = nn.MSELoss()(model(X), Y)
    loss.backward()
    return loss, {"model": model, "X": X, "Y": Y, "loss": loss}


def cnn_step():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(18, 2))
    X = torch.randn(16, 1, 8, 8)
    Y = torch.tensor([i % 2 for i in range(16)])
    loss = nn.CrossEntropyLoss()(model(X), Y)
    loss.backward()
    return loss, {"model": model, "X": X, "Y": Y, "loss": loss}


def skip_connection():
    x = torch.tensor(0.3, requires_grad=True)
    y = x
    for i in range(16):
        y = (y * 1.1).tanh() if i % 2 else y.sin()
    out = y + x
    out.backward()
    return out, {"x": x, "out": out}


def random_dag(n_ops: int = 48, seed: int = 3):
    """Random binary and unary ops over earlier results; every result is used (the loose ends are summed)."""
    rng = random.Random(seed)
    values = [torch.tensor(0.1 * (i + 1), requires_grad=True) for i in range(8)]
    used = set()
    for _ in range(n_ops):
        kind = rng.random()
        i = rng.randrange(len(values))
        a = values[i]
        used.add(i)
        if kind < 0.5:
            j = max(0, len(values) - 1 - rng.randrange(6))
            used.add(j)
            values.append(a * values[j] if kind < 0.25 else a + values[j])
        else:
            values.append(a.tanh() if kind < 0.75 else a.sin())
    out = values[-1]
    for i in range(len(values) - 2, -1, -1):
        if i not in used:
            out = out + values[i]
    out.backward()
    return out, {"out": out}


def constants():
    x = torch.tensor(2.0, requires_grad=True)
    c = torch.tensor(3.0)
    y = (x * 2 + c) / 4 - x ** 2 + 7
    y.backward()
    return y, {"x": x, "c": c, "y": y}


def four_numbers():
    w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    k = torch.tensor([45.0, 54.0, 81.0, 90.0])
    loss = (w * k).sum()
    loss.backward()
    return loss, {"w": w, "k": k, "loss": loss}


def max_pool():
    a = torch.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
    p = F.max_pool2d(a, 2)
    s = p.sum()
    s.backward()
    return s, {"a": a, "p": p, "s": s}


def _recorded(step):
    """(model, tensor) of a step run under events.record(): its module calls group its nodes."""
    from autograd_tutor import events
    from autograd_tutor.viz import GraphModel
    with events.record() as trace:
        tensor, namespace = step()
    return GraphModel.from_trace(trace, namespace=namespace), tensor


def mlp_groups():
    """The MLP step with its module calls: 17 nodes, so its groups are open (as without groups)."""
    return _recorded(mlp_step)


def cnn_groups():
    return _recorded(cnn_step)


def deep_mlp_groups():
    """A 6-layer MLP step: past 30 nodes, so each Linear is one closed box (model.0 · Linear(2 -> 8), ...)."""
    def step():
        torch.manual_seed(0)
        layers = []
        for i in range(6):
            layers += [nn.Linear(2 if i == 0 else 8, 8 if i < 5 else 1), nn.Tanh()]
        model = nn.Sequential(*layers[:-1])
        X, Y = torch.randn(4, 2), torch.randn(4, 1)
        loss = nn.MSELoss()(model(X), Y)
        loss.backward()
        return loss, {"model": model, "X": X, "Y": Y, "loss": loss}
    return _recorded(step)


def custom_module_groups():
    """A model of its own class: its four blocks group (not the model), the residual add stays outside; past 30
    nodes, so the blocks are closed boxes and the skip from X runs past them."""
    class Block(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.fc = nn.Linear(n, n)

        def forward(self, x):
            return self.fc(x).tanh() * 2

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.first, self.second, self.third, self.fourth = Block(3), Block(3), Block(3), Block(3)

        def forward(self, x):
            return self.fourth(self.third(self.second(self.first(x)))) + x

    def step():
        torch.manual_seed(0)
        net = Net()
        X = torch.randn(5, 3, requires_grad=True)
        out = net(X).sum()
        out.backward()
        return out, {"net": net, "X": X, "out": out}
    return _recorded(step)


def norm_groups():
    """Normalisation layers and a module whose repr is longer than its frame: BatchNorm1d's defaults are left
    out of its name (``model.1 · BatchNorm1d(8)``); the long name is shortened to fit (whole in its tooltip)."""
    class Scale(nn.Module):
        def __init__(self):
            super().__init__()
            self.gain = nn.Parameter(torch.ones(1))

        def forward(self, x):
            return x * self.gain

        def extra_repr(self):
            return "gain_init=1.0, learnable=True, note='a learned scale for the output of the block'"

    def step():
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 1),
                              Scale(), nn.LayerNorm(1, eps=1e-3))
        X = torch.randn(4, 3)
        loss = model(X).pow(2).mean()
        loss.backward()
        return loss, {"model": model, "X": X, "loss": loss}
    return _recorded(step)


def graph_cuts():
    """Every kind of cut one graph can show: detach, no_grad, .data, a tensor rebuilt from .item()."""
    from autograd_tutor.viz.cuts import CUTS
    CUTS.start()  # as the widgets do: the drawing reads the cuts the log saw
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    h = (w * 3).tanh()
    kept = h.detach()
    with torch.no_grad():
        scaled = w * 2
    rebuilt = torch.tensor(b.item())
    loss = (kept * b + scaled * b + w.data * w).sum() * rebuilt  # no backward: it would free the saved
    # constants, and a drawing made from the tensor afterwards would no longer know which tensors they were
    return loss, {"w": w, "b": b, "h": h, "kept": kept, "scaled": scaled, "rebuilt": rebuilt, "loss": loss}


OP_KINDS = 12


def op_mix(choices: list, width: int = 3):
    """A random graph from ``choices``, each ``(kind, i, j)``: op ``kind`` (of ``OP_KINDS``) on earlier values
    ``i`` and ``j`` (taken modulo how many there are): products, sums, reuse ``a * a``, unary ops, Python numbers,
    constants, views, multi-output ``unbind``/``split`` put back together, ``detach`` and ``no_grad`` cuts, a
    shared ``nn.Linear``. Loose ends are summed into the result, so every op is drawn.

    >>> op_mix([(2, 0, 0)]).grad_fn.name()  # (v0 * v0).sum() + leaves' sums
    'AddBackward0'
    """
    torch.manual_seed(0)
    vals = [torch.randn(width, requires_grad=True) for _ in range(3)]
    used = set()
    lin = nn.Linear(width, width)
    for kind, i, j in choices:
        i, j = i % len(vals), j % len(vals)
        a, b = vals[i], vals[j]
        used.update((i, j))
        if kind == 0:
            v = a * b
        elif kind == 1:
            v = a + b
        elif kind == 2:
            v = a * a
        elif kind == 3:
            v = a.tanh()
        elif kind == 4:
            v = a * 2.5
        elif kind == 5:
            v = a + torch.arange(float(width))
        elif kind == 6:
            v = a.view(width, 1).view(width)
        elif kind == 7:
            p, q, *rest = a.unbind(0)
            v = torch.stack([q, *rest, p])
        elif kind == 8:
            p, q = a.split([1, width - 1])
            v = torch.cat([q, p])
        elif kind == 9:
            v = a.detach() * b
        elif kind == 10:
            with torch.no_grad():
                c = a * 3
            v = c + b
        else:
            v = lin(a)
        vals.append(v)
    out = vals[-1].sum()
    for k in range(len(vals) - 2, -1, -1):
        if k not in used and vals[k].requires_grad:
            out = out + vals[k].sum()
    return out


def op_mix_model(choices: list, grouped: bool = False):
    """The drawing of :func:`op_mix`: with ``grouped``, recorded so its ``nn.Linear`` calls are module groups."""
    from autograd_tutor import events
    from autograd_tutor.viz import GraphModel
    from autograd_tutor.viz.groups import ModuleCalls
    if grouped:
        with events.record() as trace:
            out = op_mix(choices)
        return GraphModel.from_trace(trace, namespace={"out": out})
    model = GraphModel.from_tensor(op_mix(choices), namespace={})
    model.grouping.calls = ModuleCalls()
    return model


SUITE = {f.__name__: f for f in (chain, fan_in, square, flagship, split, mlp_step, cnn_step, skip_connection,
                                  random_dag, constants, four_numbers, max_pool, graph_cuts)}
#: Graphs built under events.record(), whose module calls group their nodes: (model, tensor) directly.
GROUPED = {f.__name__: f for f in (mlp_groups, cnn_groups, deep_mlp_groups, custom_module_groups, norm_groups)}


# ------------------------------------------------------------------------------------------ measuring text
_FONTS = {}


def text_width(text: str, size: float, bold: bool) -> float:
    """matplotlib's FreeType width of ``text`` in DejaVu Sans at ``size`` px (kerning included)."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font, LoadFlags
    font = _FONTS.get(bold)
    if font is None:
        path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans",
                                                                 weight="bold" if bold else "normal"))
        font = _FONTS[bold] = FT2Font(path)
    font.set_size(size, 72)  # 72 dpi: one point is one pixel
    font.set_text(text, 0.0, flags=LoadFlags.NO_HINTING)
    return font.get_width_height()[0] / 64


ASCENT, DESCENT = 0.928, 0.236  # DejaVu Sans, in em


# ------------------------------------------------------------------------------------------ geometry helpers
def cubic_points(path: str, per: int = 12) -> list:
    """Points along an edge's SVG path (M, then c or C commands)."""
    segments = path_segments(path)
    pts = [segments[0][0]]
    for p0, p1, p2, p3 in segments:
        for k in range(1, per + 1):
            t = k / per
            u = 1 - t
            pts.append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                             for a, b, c, d in zip(p0, p1, p2, p3)))
    return pts


def _segments_cross(p, q, r, s) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2, d3, d4 = orient(r, s, p), orient(r, s, q), orient(p, q, r), orient(p, q, s)
    return d1 * d2 < 0 and d3 * d4 < 0


def _inside(pt, box, shrink: float = 1.0) -> bool:
    x0, y0, x1, y1 = box
    return x0 + shrink < pt[0] < x1 - shrink and y0 + shrink < pt[1] < y1 - shrink


def _boxes_overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def crossings(lines: list, ends: list, boxes: list, cell: float = 48) -> int:
    """Pairs of edges whose polylines cross, not counting where they meet at a shared end box (segments are
    bucketed in a grid, so only neighbours are compared)."""
    grid = {}
    for i, line in enumerate(lines):
        for p, q in zip(line, line[1:]):
            for gx in range(int(min(p[0], q[0]) // cell), int(max(p[0], q[0]) // cell) + 1):
                for gy in range(int(min(p[1], q[1]) // cell), int(max(p[1], q[1]) // cell) + 1):
                    grid.setdefault((gx, gy), []).append((i, p, q))
    found = set()
    for segs in grid.values():
        for x in range(len(segs)):
            i, p, q = segs[x]
            for y in range(x + 1, len(segs)):
                j, r, s = segs[y]
                if i == j or (min(i, j), max(i, j)) in found or not _segments_cross(p, q, r, s):
                    continue
                shared = [boxes[k] for k in set(ends[i]) & set(ends[j])]
                if not any(_inside(p, _grow(bx, 3), 0) for bx in shared):
                    found.add((min(i, j), max(i, j)))
    return len(found)


def _grow(box, d):
    return box[0] - d, box[1] - d, box[2] + d, box[3] + d


def through_nodes(lines: list, boxes: list) -> int:
    """Edges with a point strictly inside a box (1 px in from its outline)."""
    return sum(any(_inside(p, b) for p in line for b in boxes) for line in lines)


def measure_boxes(boxes: list, lines: list, ends: list) -> dict:
    return {"crossings": crossings(lines, ends, boxes), "through_nodes": through_nodes(lines, boxes)}


# ------------------------------------------------------------------------------------------ our SVG
def _translate(el) -> tuple:
    m = re.match(r"translate\(([-\d.e]+),([-\d.e]+)\)", el.get("transform", ""))
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


def _text_box(t, dx: float, dy: float) -> tuple:
    """The box (x0, y0, x1, y1) of a <text> with its tspans, and its string."""
    text = "".join(t.itertext())
    size = float(t.get("font-size"))
    bold = t.get("font-weight") in ("600", "700", "bold")
    width = float(t.get("textLength")) if t.get("textLength") else text_width(text, size, bold)
    x, y = float(t.get("x", 0)) + dx, float(t.get("y", 0)) + dy
    anchor = t.get("text-anchor", "start")
    x0 = x - width / 2 if anchor == "middle" else x
    return (x0, y - ASCENT * size, x0 + width, y + DESCENT * size), text


def _shape_contains(shape, box) -> bool:
    """Whether the text box lies inside a node's shape: its inner outline for a pill (rounded ends), the
    rectangle (1 px in) otherwise."""
    x0, y0, x1, y1, r = shape
    for px, py in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
        if not (x0 <= px <= x1 and y0 <= py <= y1):
            return False
        cx = min(max(px, x0 + r), x1 - r)
        cy = min(max(py, y0 + r), y1 - r)
        if (px - cx) ** 2 + (py - cy) ** 2 > r * r:
            return False
    return True


def measure_svg(svg: str) -> dict:
    """Counts on one of our static SVGs: crossings, edges through nodes, text overflows, overlapping texts
    (texts with texts, edge labels and frame titles with nodes and edges), anything outside the viewBox, and for
    each open module group's frame its title, how many boxes lie inside it and which cut it or come within
    ``FRAME_CLEAR`` px of it (``frames_cut``), and the pairs of frames that overlap with neither nested in the
    other (``frames_crossed``)."""
    root = ET.fromstring(svg)
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    drawing = [g for g in root if g.tag == SVG + "g" and g.get("transform")][0]
    ox, oy = _translate(drawing)
    boxes, shapes, texts, lines, labels, frames, outside = [], [], [], [], [], [], 0
    for child in root:
        if child.tag == SVG + "g" and child is not drawing:
            for g in child.iter(SVG + "g"):
                gx, gy = _translate(g)
                for t in g.findall(SVG + "text"):
                    box, _ = _text_box(t, gx, gy)
                    outside += not (0 <= box[0] and box[2] <= width and 0 <= box[1] and box[3] <= height)
    for el in drawing:
        if el.tag == SVG + "g" and el.get("class") == "agt-frame":  # an open module group: frame and title
            r = el.find(SVG + "rect")
            x, y = float(r.get("x")) + ox, float(r.get("y")) + oy
            title = _text_box(el.find(SVG + "text"), ox, oy)
            labels.append(title)
            frames.append(((x, y, x + float(r.get("width")), y + float(r.get("height"))), title[1]))
        elif el.tag == SVG + "g" and el.get("class") == "agt-lheat":  # an edge label's heatmap: part of the label
            gx, gy = _translate(el)
            r = el.find(SVG + "rect")
            labels.append(((gx + ox, gy + oy, gx + ox + float(r.get("width")), gy + oy + float(r.get("height"))),
                           "heatmap"))
        elif el.tag == SVG + "path":
            lines.append([(x + ox, y + oy) for x, y in cubic_points(el.get("d"))])
        elif el.tag == SVG + "g":
            gx, gy = _translate(el)
            gx, gy = gx + ox, gy + oy
            rects = [r for r in el.findall(SVG + "rect") if r.get("fill") != "none"]
            front = rects[-1]
            w, h = float(front.get("width")), float(front.get("height"))
            reach = max(float(r.get("x", 0)) for r in rects)  # the shadow boxes of a folded node
            boxes.append((gx, gy, gx + w + reach, gy + h + reach))
            inner = [r for r in el.findall(SVG + "rect") if r.get("fill") == "none" and r.get("x") == "3.5"]
            if inner:
                r = inner[0]
                shape = (gx + 3.5, gy + 3.5, gx + w - 3.5, gy + h - 3.5, float(r.get("rx")))
            else:
                shape = (gx + 1, gy + 1, gx + w - 1, gy + h - 1, 3)
            for t in el.findall(SVG + "text"):
                box, text = _text_box(t, gx, gy)
                texts.append((box, text, len(boxes) - 1))
                shapes.append((shape, box, text))
        elif el.tag == SVG + "text":
            box, text = _text_box(el, ox, oy)
            labels.append((box, text))
    overflows = [text for shape, box, text in shapes if not _shape_contains(shape, box)]
    overlaps = []
    every = [(b, t) for b, t, _ in texts] + labels
    for i in range(len(every)):
        for j in range(i + 1, len(every)):
            if _boxes_overlap(every[i][0], every[j][0]):
                overlaps.append((every[i][1], every[j][1]))
    for box, text in labels:
        overlaps += [(text, "a node") for b in boxes if _boxes_overlap(box, b)]
        overlaps += [(text, "an edge") for line in lines if any(_inside(p, box, 0) for p in line)]
    for b in boxes:
        outside += not (0 <= b[0] and b[2] <= width and 0 <= b[1] and b[3] <= height)
    for box, _ in every:
        outside += not (0 <= box[0] and box[2] <= width and 0 <= box[1] and box[3] <= height)
    for line in lines:
        outside += any(not (0 <= x <= width and 0 <= y <= height) for x, y in line)
    ends = [_ends(line, boxes) for line in lines]
    counts = measure_boxes(boxes, lines, ends)
    framed = [(title, sum(_contains(frame, b) for b in boxes),
               [k for k, b in enumerate(boxes) if _boxes_overlap(_grow(frame, FRAME_CLEAR), b) and not _contains(frame, b)])
              for frame, title in frames]
    crossed = [(frames[i][1], frames[j][1]) for i in range(len(frames)) for j in range(i + 1, len(frames))
               if _boxes_overlap(frames[i][0], frames[j][0]) and not _contains(frames[i][0], frames[j][0])
               and not _contains(frames[j][0], frames[i][0])]
    counts.update(overflows=len(overflows), overlaps=len(overlaps), outside=outside,
                  nodes=len(boxes), edges=len(lines), frames=len(frames), frames_cut=sum(len(c) for _, _, c in framed),
                  frames_crossed=len(crossed))
    counts["details"] = {"overflows": overflows, "overlaps": overlaps, "frames": framed, "crossed": crossed}
    return counts


#: How far (px) a box outside a module group's frame must keep from it.
FRAME_CLEAR = 4


def _contains(outer, box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def _ends(line: list, boxes: list) -> tuple:
    """The boxes an edge starts and ends at (nearest to its first and last points)."""
    def nearest(p):
        return min(range(len(boxes)), key=lambda k: _distance(p, boxes[k]))
    return nearest(line[0]), nearest(line[-1])


def _distance(p, box) -> float:
    dx = max(box[0] - p[0], 0, p[0] - box[2])
    dy = max(box[1] - p[1], 0, p[1] - box[3])
    return math.hypot(dx, dy)


# ------------------------------------------------------------------------------------------ Graphviz dot
def drawn(snapshot: dict) -> dict:
    """The boxes and edges a snapshot draws: a closed module group is one box (its nodes and inner edges are
    not drawn), as dot should get them. A graph without closed groups comes back as it is."""
    closed = [g for g in snapshot.get("groups", ()) if not g["expanded"]]
    if not closed:
        return snapshot
    nodes = [n for n in snapshot["nodes"] if "inside" not in n]
    nodes += [dict(g, key=len(snapshot["nodes"]) + g["id"]) for g in closed]
    box = {n["key"]: (len(snapshot["nodes"]) + n["inside"] if "inside" in n else n["key"]) for n in snapshot["nodes"]}
    index = {n["key"]: i for i, n in enumerate(nodes)}
    edges, ports = [], {}
    for e in snapshot["edges"]:
        if not e["path"]:
            continue
        dst = box[e["dst"]]
        grouped = dst >= len(snapshot["nodes"])
        pos = ports.setdefault(dst, 0) if grouped else e["pos"]
        ports[dst] = ports.get(dst, 0) + grouped
        edges.append(dict(e, src=index[box[e["src"]]], dst=index[dst], pos=pos))
    return {"nodes": [dict(n, key=i) for i, n in enumerate(nodes)], "edges": edges}


def dot_source(snapshot: dict, ports: bool = True) -> str:
    """The snapshot's nodes (same box sizes) and edges as DOT, left to right. With ``ports``, a node with
    several inputs is a record with one field per input, top to bottom, and each edge enters its field (the
    order we keep); without, dot may reorder them (as torchviz's drawings do). An open module group is a
    cluster: dot frames it too, and must keep every other node out of the frame, as ours does."""
    inputs = {}
    for e in snapshot["edges"]:
        inputs[e["dst"]] = max(inputs.get(e["dst"], 0), e["pos"] + 1)
    lines = ["digraph G {", "rankdir=LR;", 'node [shape=box, fixedsize=true, label=""];']
    for n in snapshot["nodes"]:
        k = inputs.get(n["key"], 0) if ports else 0
        record = f', shape=record, label="{"|".join(f"<p{i}>" for i in range(k))}"' if k > 1 else ""
        lines.append(f'n{n["key"]} [width={n["w"] / 72:.3f}, height={n["h"] / 72:.3f}{record}];')
    for g in snapshot.get("groups", ()):  # an open module group: a cluster, framed as ours are
        if g["expanded"]:
            members = " ".join(f'n{snapshot["nodes"][i]["key"]};' for i in g["members"])
            lines.append(f'subgraph cluster_{g["id"]} {{ label=""; margin=8; {members} }}')
    for e in snapshot["edges"]:
        port = f':p{e["pos"]}:w' if ports and inputs[e["dst"]] > 1 else ""
        lines.append(f'n{e["src"]} -> n{e["dst"]}{port};')
    lines.append("}")
    return "\n".join(lines)


def dot_drawing(snapshot: dict, ports: bool = True, timeout: float = 60) -> tuple:
    """Run ``dot -Tplain``; return (boxes, polylines, ends) in pixels, y down."""
    out = subprocess.run(["dot", "-Tplain"], input=dot_source(snapshot, ports), capture_output=True, text=True,
                         timeout=timeout, check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    height = float(rows[0][3]) * 72
    boxes, index, lines, ends = [], {}, [], []
    for r in rows:
        if r[0] == "node":
            x, y, w, h = (float(v) * 72 for v in r[2:6])
            index[r[1]] = len(boxes)
            boxes.append((x - w / 2, height - y - h / 2, x + w / 2, height - y + h / 2))
    for r in rows:
        if r[0] == "edge":
            n = int(r[3])
            ctrl = [(float(r[4 + 2 * k]) * 72, height - float(r[5 + 2 * k]) * 72) for k in range(n)]
            d = f"M{ctrl[0][0]},{ctrl[0][1]}" + "".join(
                f"C{a[0]},{a[1]} {b[0]},{b[1]} {c[0]},{c[1]}" for a, b, c in zip(ctrl[1::3], ctrl[2::3], ctrl[3::3]))
            lines.append(cubic_points(d))
            ends.append((index[r[1].split(":")[0]], index[r[2].split(":")[0]]))
    return boxes, lines, ends


def measure_dot(snapshot: dict, ports: bool = True) -> dict:
    boxes, lines, ends = dot_drawing(snapshot, ports)
    return measure_boxes(boxes, lines, ends)


def build(name: str):
    """(model, tensor) of a suite graph: those of ``SUITE`` without module groups, ``GROUPED`` with them."""
    from autograd_tutor.viz import GraphModel
    if name in GROUPED:
        return GROUPED[name]()
    from autograd_tutor.viz.groups import ModuleCalls
    tensor, namespace = SUITE[name]()
    model = GraphModel.from_tensor(tensor, namespace=namespace)
    model.grouping.calls = ModuleCalls()  # drawn without module groups (GROUPED has them), also once the widgets
    return model, tensor                  # are imported and record the session's module calls


np.seterr(all="ignore")
