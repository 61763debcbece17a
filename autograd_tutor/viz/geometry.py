"""The pixel geometry of a snapshot: box sizes from :mod:`.boxes`, positions and routes from :mod:`.layered`.

:meth:`Geometry.place` takes the node and edge dicts of a drawing (what they show) and returns them with where
to draw them: ``x``, ``y`` (a box's centre), ``w``, ``h`` and ``top`` (where its text rows start) for a node,
``room`` (the width its gradient row may take), ``path`` (SVG ``d``), ``lx``, ``ly`` (its label's centre and
baseline; None without a label) for an edge. The layout runs again only
when a size or an edge changed, and a dict is made anew only when its place changed, so the JSON of
unchanged runs stays cached (see :meth:`GraphModel.snapshot_json`).

>>> g = Geometry()
>>> node = {"kind": "op", "label": "MulBackward0", "sub": "", "value": "6", "grad": "", "saved": [], "hidden": 0,
...         "key": 0}
>>> snap = g.place([node], [], 0)
>>> snap["nodes"][0]["w"] >= 104, snap["width"] > snap["nodes"][0]["w"]
(True, True)
"""
from __future__ import annotations

from .boxes import STACK, label_heat_w, label_size, node_size, room
from .layered import Edge, layout, path_d

__all__ = ["Geometry"]


class Geometry:
    """Places snapshots, remembering the last layout (see the module docstring)."""

    def __init__(self) -> None:
        self._key = None
        self._drawing = None
        self._sizes: dict = {}   # node index -> (its dict, (w, h, top))
        self._specs: dict = {}   # edge index -> (its dict, its source's dict, the Edge given to the layout)
        self._nodes: dict = {}   # node index -> (its dict, x, y, placed dict)
        self._edges: dict = {}   # edge index -> (its dict, path, lx, ly, placed dict)

    def place(self, nodes: list, edges: list, hidden: int, clusters: tuple = ()) -> dict:
        """``clusters[i]``: the open module group node ``i`` is framed in, or -1 (see :mod:`.layered`)."""
        ports = [1] * len(nodes)
        for e in edges:
            ports[e["dst"]] = max(ports[e["dst"]], e["pos"] + 1)
        sizes, boxes = [], []
        for i, n in enumerate(nodes):
            done = self._sizes.get(i)
            if done is None or done[0] is not n or done[1][1] < 16 + 14 * (ports[i] - 1):
                done = self._sizes[i] = (n, node_size(n, ports[i]))
            w, h, _ = done[1]
            sizes.append(done[1])
            stacked = n["kind"] == "collapsed" or n["hidden"]
            boxes.append((w + STACK, h + STACK) if stacked else (w, h))
        specs = []
        for j, e in enumerate(edges):
            done = self._specs.get(j)
            source = nodes[e["src"]]
            if done is None or done[0] is not e or done[1] is not source or done[2].ports != ports[e["dst"]]:
                label = label_size(e["grad"], source["value"], label_heat_w(e, source)) if e["tracked"] else None
                bundle = None if e["tracked"] or e.get("cut") else "data"  # a data tensor's uses: one bundle
                done = self._specs[j] = (e, source, Edge(e["src"], e["dst"], e["pos"], ports[e["dst"]], label,
                                                         bundle))
            specs.append(done[2])
        key = (tuple(boxes), tuple(specs), tuple(clusters))
        if key != self._key:
            self._key, self._drawing = key, layout(boxes, specs, clusters=list(clusters) or None)
        d = self._drawing
        placed = []
        for i, (n, (w, h, top), box) in enumerate(zip(nodes, sizes, boxes)):
            x, y = d.centres[i]
            x, y = round(x - (box[0] - w) / 2, 1), round(y - (box[1] - h) / 2, 1)  # the front box of a stack
            done = self._nodes.get(i)
            if done is None or done[0] is not n or done[1] != x or done[2] != y:
                item = dict(n, x=x, y=y, w=w, h=h, top=top)
                item["room"] = round(room(item, 3), 1)  # the width the gradient row may take
                done = self._nodes[i] = (n, x, y, item)
            placed.append(done[3])
        out = []
        for j, e in enumerate(edges):
            path = path_d(d.routes[j])
            lx, ly = (round(d.labels[j][0], 1), round(d.labels[j][1], 1)) if d.labels[j] else (None, None)
            done = self._edges.get(j)
            if done is None or done[0] is not e or done[1] != path or done[2] != lx or done[3] != ly:
                done = self._edges[j] = (e, path, lx, ly, dict(e, path=path, lx=lx, ly=ly))
            out.append(done[4])
        return {"nodes": placed, "edges": out, "hidden": hidden, "width": round(d.width, 1),
                "height": round(d.height, 1), "crossings": d.crossings}
