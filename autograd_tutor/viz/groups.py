"""Module groups: the nodes one ``nn.Module`` call made, drawn as one box named as the learner knows it.

``model(X)`` on ``nn.Sequential(nn.Linear(2, 16), nn.Tanh(), ...)`` makes a dozen nodes; the learner thinks of
them as ``model.0 · Linear(2 -> 16)``, ``model.1 · Tanh()``, ... . The engine announces every module call with
a ``module_entered`` and a ``module_left`` event (only while someone listens); every id the call made lies
between their two ``mark`` s. :class:`ModuleCalls` keeps a bounded record of the calls, and
:class:`Grouping` turns them into groups of a drawing's nodes:

* a node belongs to the calls whose id range holds it; the one that groups it is the outermost *named child*
  of the drawn model (the top-level call): ``model.0`` rather than ``model`` or a module inside ``model.0``;
  a Sequential's children each form a group (``outer.net.0``, not ``outer.net``);
* a top-level call without calls inside it (``conv(X)``, a loss) groups what it made;
* a parameter of the module (when the namespace names the module) joins its group, and so does a Python
  number or a constant the call made that only it uses;
* a group of one node stays that node, and so does a group holding the drawn result (the loss stays in sight).

A group is *collapsed* (one box) or *expanded* (its nodes, framed); by default all are collapsed when the
drawing has more than ``COLLAPSE_ABOVE`` nodes. :meth:`Grouping.view` lays out the drawing as it is then.

>>> import autograd_tutor as torch
>>> from autograd_tutor import events, nn
>>> from autograd_tutor.viz import GraphModel
>>> _ = torch.manual_seed(0)
>>> model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
>>> with events.record() as trace:
...     out = model(torch.ones(4, 2)).sum()
>>> m = GraphModel.from_trace(trace, namespace={"model": model, "out": out})
>>> [g["label"] for g in m.snapshot(expanded=())["groups"]]
['model.0 · Linear(2 -> 3)', 'model.2 · Linear(3 -> 1)']
"""
from __future__ import annotations

import bisect
import collections
import itertools
import operator
import re
from typing import NamedTuple, Optional

import numpy as np

from .. import events
from .geometry import Geometry
from .layered import FRAME_BOTTOM, FRAME_SIDE, FRAME_TOP, path_segments
from .boxes import LABEL_SIZE, label_text
from .metrics import text_width
from .names import dotted

__all__ = ["ModuleCalls", "Call", "Grouping", "CALLS", "COLLAPSE_ABOVE", "module_text", "module_names"]

#: Past this many nodes a drawing opens with its groups collapsed.
COLLAPSE_ABOVE = 30
#: Module calls remembered (the most recent ones).
KEEP = 4096
#: ``extra_repr`` parts left out of a group's name: the defaults a learner did not write.
_DEFAULTS = {"bias=True", "stride=(1, 1)", "stride=1", "padding=0", "padding=(0, 0)", "dilation=1",
             "dilation=(1, 1)", "groups=1", "ceil_mode=False", "inplace=False", "start_dim=1", "end_dim=-1",
             "padding_mode='zeros'", "return_indices=False", "reduction='mean'", "dim=None", "eps=1e-05",
             "momentum=0.1", "affine=True", "track_running_stats=True", "elementwise_affine=True"}


class Call(NamedTuple):
    """One finished module call: ids in ``(start, end)`` were made by it; ``nested``: other calls ran inside."""
    module_id: int
    type_name: str
    start: int
    end: int
    nested: bool


class ModuleCalls:
    """The last ``KEEP`` module calls, from the engine's module events (:meth:`start` subscribes)."""

    def __init__(self) -> None:
        self.calls: collections.deque = collections.deque(maxlen=KEEP)
        self._open: list = []        # [event, nested] of the calls in progress
        self._subscriptions: list = []

    def handlers(self) -> dict:
        return {"module_entered": self._entered, "module_left": self._left}

    def _entered(self, e) -> None:
        self._open.append([e, False])

    def _left(self, e) -> None:
        if not self._open:
            return
        start, nested = self._open.pop()
        if self._open:
            self._open[-1][1] = True
        # made a Call only when a drawing asks (see since); the depth says whether it ran inside another call
        self.calls.append((start, e.mark, nested, len(self._open)))

    def since(self, low: int, high: Optional[int] = None) -> list:
        """The calls remembered that ended above id ``low`` (and began below ``high``, if given), as :class:`Call`,
        in the order they began. The record is in the order the calls ended, so the first to read is found by
        bisection, and reading stops at an outermost call that began at ``high`` or later: any call that ended
        after it began after it too (a call that began before it would hold it, so it would not be outermost).
        A training loop's later calls, which hold none of a drawing's nodes, are not read."""
        found = []
        first = bisect.bisect_right(self.calls, low, key=operator.itemgetter(1))
        for s, end, nested, depth in itertools.islice(self.calls, first, None):
            if high is not None and s.mark >= high:
                if depth == 0:
                    break
                continue
            found.append(Call(s.module_id, s.type_name, s.mark, end, nested))
        return sorted(found, key=lambda c: c.start)

    @property
    def busy(self) -> Optional[int]:
        """The ``mark`` of the outermost call in progress (its groups are not known yet), or None."""
        return self._open[0][0].mark if self._open else None

    def start(self) -> None:
        if not self._subscriptions:
            self._subscriptions = [events.subscribe(h, (k,)) for k, h in self.handlers().items()]

    def stop(self) -> None:
        for s in self._subscriptions:
            s.remove()
        self._subscriptions = []


#: The module calls of the whole session, kept once the widgets are in use (as the backward passes are).
CALLS = ModuleCalls()


def module_text(type_name: str, extra: str) -> str:
    """The first line of a module's repr, short: ``Linear(2 -> 16)``, ``MaxPool2d(kernel_size=2, stride=2)``.

    >>> module_text("Linear", "in_features=2, out_features=16, bias=True"), module_text("Conv2d", "1, 2, kernel_size=(3, 3), stride=(1, 1)")
    ('Linear(2 -> 16)', 'Conv2d(1 -> 2, kernel_size=(3, 3))')
    """
    if "\n" in extra:
        return type_name + "(…)"
    parts = [p for p in _top_level_parts(extra) if p not in _DEFAULTS]
    if len(parts) >= 2 and parts[0].startswith("in_features=") and parts[1].startswith("out_features="):
        parts[:2] = [f"{parts[0].split('=')[1]} -> {parts[1].split('=')[1]}"]
    elif len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
        parts[:2] = [f"{parts[0]} -> {parts[1]}"]
    return f"{type_name}({', '.join(parts)})"


def _top_level_parts(extra: str) -> list:
    """``"1, 2, kernel_size=(3, 3)"`` -> ``["1", "2", "kernel_size=(3, 3)"]`` (commas inside brackets kept)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(extra):
        depth += (c in "([{") - (c in ")]}")
        if c == "," and depth == 0:
            parts.append(extra[start:i].strip())
            start = i + 1
    parts.append(extra[start:].strip())
    return [p for p in parts if p]


def module_names(namespace_items) -> dict:
    """``id(module) -> (name, module)`` for the modules of a namespace: a variable's own name first, then the
    dotted names ``named_modules()`` gives inside each (``model.0``)."""
    modules = [(name, value) for name, value in namespace_items
               if isinstance(name, str) and not name.startswith("_")
               and callable(getattr(value, "named_modules", None)) and not isinstance(value, type)]
    names = {id(module): (name, module) for name, module in reversed(modules)}
    for name, sub in dotted(modules, "named_modules"):
        names.setdefault(id(sub), (name, sub))
    return names


def _grouping_call(chain: list) -> Optional[Call]:
    """Of the calls holding a node (outermost first), the one whose group it is (see the module docstring)."""
    if len(chain) == 1:
        return None if chain[0].nested else chain[0]
    i = 1
    while chain[i].type_name == "Sequential" and i + 1 < len(chain):
        i += 1
    return chain[i]


#: Where along each curve of an edge a frame's name looks for it: the curve as 24 straight pieces, each point a
#: weighted sum of the curve's four control points (the cubic Bernstein weights at t = 0, 1/24, ..., 1).
_ALONG = np.linspace(0.0, 1.0, 25)
_BERNSTEIN = np.stack([(1 - _ALONG) ** 3, 3 * (1 - _ALONG) ** 2 * _ALONG, 3 * (1 - _ALONG) * _ALONG ** 2,
                       _ALONG ** 3], axis=1)


def _obstacles(edges: list) -> tuple:
    """What a frame's name must not cover, besides other boxes: edge labels (boxes) and the edges (every curve
    cut into straight pieces, one row ``ax, ay, bx, by`` each)."""
    labels = []
    for e in edges:
        if e.get("lx") is not None and e["grad"]:
            half = text_width(label_text(e["grad"]), LABEL_SIZE, True) / 2
            labels.append((e["lx"] - half, e["ly"] - 13, e["lx"] + half, e["ly"] + 4))
    curves = [c for e in edges for c in path_segments(e["path"])]
    if not curves:
        return labels, np.empty((0, 4))
    points = np.einsum("tk,nkd->ntd", _BERNSTEIN, np.array(curves, dtype=float)).round(1)  # (curves, 25, 2)
    return labels, np.concatenate([points[:, :-1], points[:, 1:]], axis=2).reshape(-1, 4)


def _spans(pieces, lo: float, hi: float) -> list:
    """The x-intervals where straight pieces (rows ``ax, ay, bx, by``) pass between heights ``lo`` and ``hi``:
    each piece clipped to that band.

    >>> _spans(np.array([(0, 0, 10, 100)]), 40, 60)  # a steep line crosses the band between x = 4 and x = 6
    [(4.0, 6.0)]
    """
    ax, ay, bx, by = pieces[(np.maximum(pieces[:, 1], pieces[:, 3]) >= lo)
                            & (np.minimum(pieces[:, 1], pieces[:, 3]) <= hi)].T
    flat = ay == by
    rise = np.where(flat, 1.0, by - ay)
    ta, tb = (lo - ay) / rise, (hi - ay) / rise
    t0 = np.where(flat, 0.0, np.minimum(ta, tb)).clip(0.0, None)
    t1 = np.where(flat, 1.0, np.maximum(ta, tb)).clip(None, 1.0)
    xa, xb = ax + (bx - ax) * t0, ax + (bx - ax) * t1
    return list(zip(np.minimum(xa, xb).tolist(), np.maximum(xa, xb).tolist()))


def _tab_place(g: dict, others: list, obstacles: tuple) -> tuple:
    """Where an open group's name goes and what it says: ``([x, baseline], text)``, in the strip along the top of
    its frame (its boxes start below it), the left-most place where no other box, edge or edge label
    (``obstacles``) is. A name too long for any free place loses its last arguments (``BatchNorm1d(8, …)``; the
    whole name stays in the tooltip); at the top left if even the bare class name finds no free place."""
    x0, y0, x1, _ = g["frame"]
    top, base = y0 + 2, y0 + 13
    blocked = [(b["x"] - b["w"] / 2, b["y"] - b["h"] / 2, b["x"] + b["w"] / 2, b["y"] + b["h"] / 2) for b in others]
    blocked += obstacles[0]
    spans = [(a, b) for a, b in _spans(obstacles[1], top - 3, base + 6) if b >= x0 and a <= x1]
    texts = _shorter(g["label"])
    for text in texts:
        w, x = text_width(text + " ▾", 11, True), x0 + 8
        while x + w <= x1 - 8:
            free = not any(a < x + w + 2 and x - 2 < c and b < base + 5 and top < d for a, b, c, d in blocked)
            if free and not any(a < x + w + 3 and x - 3 < b for a, b in spans):
                return [round(x, 1), round(base, 1)], text
            x += 8
    return [round(x0 + 8, 1), round(base, 1)], texts[-1]


def _shorter(label: str) -> list:
    """``label`` and ever shorter forms of it, the last arguments first dropped.

    >>> _shorter("model.1 · BatchNorm1d(8, eps=0.001, momentum=0.2)")
    ['model.1 · BatchNorm1d(8, eps=0.001, momentum=0.2)', 'model.1 · BatchNorm1d(8, eps=0.001, …)', 'model.1 · BatchNorm1d(8, …)', 'model.1 · BatchNorm1d(…)']
    """
    head, paren, args = label.partition("(")
    if not paren or not args.endswith(")"):
        return [label]
    parts = _top_level_parts(args[:-1])
    return [label] + [f"{head}({', '.join(parts[:k] + ['…'])})" for k in range(len(parts) - 1, -1, -1)]


class Grouping:
    """The groups of one drawing: which call each node belongs to (found once, when its calls are over) and
    the layout of the drawing with some groups collapsed."""

    def __init__(self, calls: Optional[ModuleCalls] = None) -> None:
        self.calls = calls if calls is not None else ModuleCalls()
        self.names: dict = {}        # id(module) -> (the learner's name for it, the module), see module_names
        self._of: dict = {}          # node key -> its Call (None: in no group)
        self._geometry = Geometry()

    def assign(self, model) -> dict:
        """``key -> Call`` for the visible nodes in a group (two nodes at least)."""
        busy = self.calls.busy
        todo = sorted(n.key for n in model.visible if n.key not in self._of and n.key > 0
                      and n.kind != "leaf" and (busy is None or n.key < busy))
        if todo:
            chains: dict = {}
            for call in self.calls.since(todo[0], todo[-1]):
                lo, hi = bisect.bisect_right(todo, call.start), bisect.bisect_left(todo, call.end)
                for key in todo[lo:hi]:
                    chains.setdefault(key, []).append(call)
            for key in todo:
                self._of[key] = _grouping_call(chains[key]) if key in chains else None
        of = {n.key: self._of.get(n.key) for n in model.visible if self._of.get(n.key) is not None}
        if not of:
            return of
        calls = set(of.values())
        params = {c: self._parameters(c) for c in calls}
        consumers = collections.defaultdict(set)  # key -> the groups (or None) of the nodes it feeds
        for e in model.edges:
            consumers[e.src].add(of.get(e.dst))
        for n in model.visible:  # parameters, and constants only their call uses, join its group
            if n.key in of or n.kind not in ("leaf", "constant"):
                continue
            users = consumers[n.key]
            if n.kind == "leaf":
                owner = [c for c in calls if n.key in params[c] and c in users]
                if owner:
                    of[n.key] = max(owner, key=lambda c: c.start)
            elif n.kind == "constant" and len(users) == 1 and None not in users:
                call = next(iter(users))
                number = n.key < 0 and n.value is not None and n.value.size == 1  # a Python number it used
                if number or call.start < n.key < call.end:
                    of[n.key] = call
        sizes = collections.Counter(of.values())
        rooted = {c for k, c in of.items() if model._nodes[k].root}  # the drawn result stays in sight
        return {k: c for k, c in of.items() if sizes[c] >= 2 and c not in rooted}

    def _parameters(self, call: Call) -> set:
        """The ids of the called module's parameters (when the namespace names the module, else none)."""
        _, module = self.names.get(call.module_id, ("", None))
        try:
            return {p._id for p in module.parameters()} if module is not None else set()
        except Exception:  # a user object that only looks like a module
            return set()

    def label(self, call: Call) -> str:
        """``model.0 · Linear(2 -> 16)`` for a module the namespace names, its class name for another."""
        name, module = self.names.get(call.module_id, ("", None))
        if module is None:
            return call.type_name
        try:
            extra = module.extra_repr()
        except Exception:  # a user object that only looks like a module
            extra = ""
        return f"{name} · {module_text(call.type_name, extra)}"

    def view(self, model, nodes: list, edges: list, expanded=None) -> Optional[dict]:
        """The placed snapshot with groups (None when the drawing has none). ``expanded``: the indices of the
        groups drawn open (default: all when at most ``COLLAPSE_ABOVE`` nodes, else none)."""
        of = self.assign(model)
        if not of:
            return None
        index = {n.key: n.index for n in model.visible}
        order = sorted(set(of.values()), key=lambda c: c.start)
        gid = {c: g for g, c in enumerate(order)}
        member = {index[k]: gid[c] for k, c in of.items()}
        if expanded is None:
            expanded = range(len(order)) if len(nodes) <= COLLAPSE_ABOVE else ()
        opened = set(expanded)
        groups = [{"id": g, "label": self.label(c), "members": sorted(i for i, h in member.items() if h == g),
                   "expanded": g in opened} for g, c in enumerate(order)]
        if len(opened) >= len(order):
            clusters = tuple(member.get(i, -1) for i in range(len(nodes)))
            placed = model._geometry.place(nodes, edges, model.hidden, clusters)
        else:
            placed = self._collapsed(nodes, edges, model.hidden, member, groups, opened)
        obstacles = _obstacles(placed["edges"]) if opened else ((), np.empty((0, 4)))
        for g in groups:
            if g["expanded"]:
                boxes = [placed["nodes"][i] for i in g["members"]]
                g["frame"] = [round(min(b["x"] - b["w"] / 2 for b in boxes) - FRAME_SIDE, 1),
                              round(min(b["y"] - b["h"] / 2 for b in boxes) - FRAME_TOP, 1),  # room for its name
                              round(max(b["x"] + b["w"] / 2 for b in boxes) + FRAME_SIDE, 1),
                              round(max(b["y"] + b["h"] / 2 for b in boxes) + FRAME_BOTTOM, 1)]
                g["tab"], g["tab_text"] = _tab_place(g, [b for i, b in enumerate(placed["nodes"])
                                                         if i not in g["members"] and "inside" not in b], obstacles)
        return dict(placed, groups=groups)

    def _collapsed(self, nodes, edges, hidden, member, groups, opened) -> dict:
        """Lay out the drawing with each closed group as one box; its nodes take the box's place (``in``)."""
        box_of, boxes, clusters = {}, [], []
        for i, n in enumerate(nodes):
            if member.get(i) not in opened and i in member:
                continue
            box_of[i] = len(boxes)
            boxes.append(n)
            clusters.append(member.get(i, -1))
        group_box = {}
        for g in groups:
            if g["id"] in opened:
                continue
            group_box[g["id"]] = len(boxes)
            inside = [nodes[i] for i in g["members"]]
            roots = [n for n in inside if n["root"]]
            clusters.append(-1)
            boxes.append({"key": -1 - g["id"], "kind": "group", "label": g["label"],
                          "sub": f"{len(inside)} nodes inside", "op": "", "value": "", "grad": "", "saved": [],
                          "state": "none", "hidden": 0, "root": bool(roots)})
            for i in g["members"]:
                box_of[i] = group_box[g["id"]]
        reduced, drawn, ports = [], {}, collections.Counter()
        for j, e in enumerate(edges):
            s, d = box_of[e["src"]], box_of[e["dst"]]
            if s == d:
                continue
            pos = e["pos"] if boxes[d]["kind"] != "group" else ports[d]
            ports[d] += boxes[d]["kind"] == "group"
            drawn[j] = len(reduced)
            reduced.append(dict(e, src=s, dst=d, pos=pos))
        placed = self._geometry.place(boxes, reduced, hidden, tuple(clusters))
        out_nodes = []
        for i, n in enumerate(nodes):
            b = placed["nodes"][box_of[i]]
            out_nodes.append(b if boxes[box_of[i]] is n else
                             dict(n, x=b["x"], y=b["y"], w=b["w"], h=b["h"], top=b["top"], room=b["room"],
                                  inside=member[i]))
        for g in groups:
            if g["id"] in group_box:
                b = placed["nodes"][group_box[g["id"]]]
                g.update(x=b["x"], y=b["y"], w=b["w"], h=b["h"], top=b["top"], sub=b["sub"], root=b["root"])
        out_edges = [dict(e, src=e["src"], dst=e["dst"], pos=e["pos"], path=placed["edges"][drawn[j]]["path"],
                          lx=placed["edges"][drawn[j]]["lx"], ly=placed["edges"][drawn[j]]["ly"])
                     if j in drawn else dict(e, path="", lx=None, ly=None) for j, e in enumerate(edges)]
        return dict(placed, nodes=out_nodes, edges=out_edges)
