"""A stable layered layout: each node gets a (layer, slot) once, when it is added, and keeps it forever.

The layer of a node is ``1 + max(layer of its inputs)`` (0 for a node without inputs), so data flows left
to right and every edge points to a later layer. The slot is the node's row inside its layer: the free row
nearest to the mean row of its inputs from the closest layer, so a chain stays on one line. Because nothing
is ever re-placed, a graph that grows while cells run never jumps around: new nodes only appear.

Placement costs O(1) per node: at most ``SEARCH`` rows are tried around the wanted one before the node goes
to the end of its layer.

>>> lay = Layout()
>>> lay.place("a", []), lay.place("b", []), lay.place("c", ["a", "b"]), lay.place("d", ["c", "a"])
((0, 0), (0, 1), (1, 0), (2, 0))
>>> lay.place("c", ["d"])  # already placed: never moves
(1, 0)
"""
from __future__ import annotations

from typing import Hashable, Iterable, Optional

__all__ = ["Layout", "coordinates", "route", "bezier_points", "path_d", "COLUMN", "ROW", "MARGIN", "PORT"]

#: Pixel pitch between layers (columns) and slots (rows), the margin around the drawing, the spacing of
#: input ports on a node's left side.
COLUMN, ROW, MARGIN, PORT = 240, 100, 24, 14
_HALF = 78  # half a node's width (style.NODE_WIDTH / 2)
_CLEAR = 44  # a channel closer than this to a node's centre row would cross the node
SEARCH = 8
ROUTED = 12  # edges spanning more layers than this are drawn as one curve, not routed around nodes


class Layout:
    """Incremental layered placement; ``positions[key] = (layer, slot)``."""

    def __init__(self) -> None:
        self.positions: dict = {}
        self.taken: dict = {}  # layer -> set of slots
        self._end: dict = {}  # layer -> one past the largest slot used
        self._last: dict = {}  # layer -> placement number of its newest node

    def __len__(self) -> int:
        return len(self.positions)

    def __contains__(self, key: Hashable) -> bool:
        return key in self.positions

    def place(self, key: Hashable, inputs: Iterable[Hashable], layer: Optional[int] = None,
              near: Optional[float] = None) -> tuple:
        """Place ``key`` after its (already placed) ``inputs``; return its ``(layer, slot)``.

        ``layer`` forces the layer (used to put a constant right before its consumer); ``near`` the wanted row.
        """
        if key in self.positions:
            return self.positions[key]
        positions = self.positions
        placed = [positions[i] for i in inputs if i in positions]
        if placed:
            top = max(placed)[0]
            if layer is None:
                layer = top + 1
            if near is None:  # the rows of the closest inputs: a chain stays on its line
                rows = [p[1] for p in placed if p[0] == top]
                near = sum(rows) / len(rows)
        elif layer is None:
            layer = 0
        slot = self._free_slot(layer, near)
        self.taken.setdefault(layer, set()).add(slot)
        self._end[layer] = max(self._end.get(layer, 0), slot + 1)
        self._last[layer] = len(self.positions)
        self.positions[key] = (layer, slot)
        return layer, slot

    def stamp(self, first: int, stop: int) -> int:
        """When a node was last placed in layers ``first .. stop - 1`` (what a route across them depends on)."""
        if stop - first > ROUTED:
            return 0
        if stop <= first:  # neighbouring layers, most edges: nothing in between
            return -1
        last = self._last
        return max((last.get(layer, -1) for layer in range(first, stop)), default=-1)

    def _free_slot(self, layer: int, near: Optional[float]) -> int:
        taken = self.taken.get(layer, ())
        end = self._end.get(layer, 0)
        if near is None:
            return end
        want = max(0, int(round(near)))
        for d in range(SEARCH):
            for s in (want + d, want - d) if d else (want,):
                if s >= 0 and s not in taken:
                    return s
        return max(end, want)

    @property
    def layers(self) -> int:
        return 1 + max((p[0] for p in self.positions.values()), default=-1)

    @property
    def rows(self) -> int:
        return max(self._end.values(), default=0)


def coordinates(layer: int, slot: int) -> tuple:
    """The pixel centre of a node at ``(layer, slot)``."""
    return MARGIN + _HALF + layer * COLUMN, MARGIN + 36 + slot * ROW


def route(src: tuple, dst: tuple, port: float, taken: dict) -> tuple:
    """The path of an edge from the node at ``src`` (layer, slot) to input ``port`` of the node at ``dst``.

    Returns ``(segments, label_point)``: cubic segments ``(p0, p1, p2, p3)`` with horizontal tangents,
    which go around the nodes of the layers in between (through the channel between two rows), and where
    to write the edge's gradient. ``taken[layer]`` is the set of occupied slots (``Layout.taken``).

    >>> segs, label = route((0, 0), (1, 0), 0, {})
    >>> len(segs), segs[0][0], segs[-1][-1], label
    (1, (180, 60), (264, 60), (225.2, 60.0))
    """
    sx, sy = coordinates(*src)
    tx, ty = coordinates(*dst)
    start, end = (sx + _HALF, sy), (tx - _HALF, ty + port)
    if dst[0] <= src[0]:  # only between collapsed nodes: loop below
        c = (start, (start[0] + 60, start[1] + 70), (end[0] - 60, end[1] + 70), end)
        return [c], bezier_points(c, (0.5,))[0]
    span = dst[0] - src[0]
    if span == 1:  # neighbouring layers, most edges: one curve
        dx = (end[0] - start[0]) / 2
        c = (start, (start[0] + dx, start[1]), (end[0] - dx, end[1]), end)
        return [c], bezier_points(c, (0.55,))[0]
    points = [start]
    crossed = range(src[0] + 1, dst[0]) if span <= ROUTED else ()  # very long edges: one plain curve
    for step, layer in enumerate(crossed, 1):
        x = coordinates(layer, 0)[0]
        y = start[1] + (end[1] - start[1]) * step / span
        slot = round((y - coordinates(0, 0)[1]) / ROW)
        cy = coordinates(layer, slot)[1]
        if slot in taken.get(layer, ()) and abs(cy - y) < _CLEAR:
            y = cy - ROW / 2 if y <= cy else cy + ROW / 2
        points += [(x - _HALF - 10, y), (x + _HALF + 10, y)]
    points.append(end)
    segments = []
    for i in range(0, len(points) - 1):
        p, q = points[i], points[i + 1]
        dx = (q[0] - p[0]) / 2
        segments.append((p, (p[0] + dx, p[1]), (q[0] - dx, q[1]), q))
    if len(segments) == 1:
        return segments, bezier_points(segments[0], (0.55,))[0]
    channels = segments[1::2]  # the straight runs between the rows of the layers crossed
    middle = channels[(len(channels) - 1) // 2]
    return segments, ((middle[0][0] + middle[3][0]) / 2, middle[0][1])


def bezier_points(c: tuple, ts) -> list:
    """Points of the cubic Bézier ``c`` at the parameters ``ts``."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = c
    out = []
    for t in ts:
        u = 1 - t
        a, b, cc, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append((round(a * x0 + b * x1 + cc * x2 + d * x3, 1), round(a * y0 + b * y1 + cc * y2 + d * y3, 1)))
    return out


def path_d(segments: list) -> str:
    """The SVG ``d`` attribute of a list of cubic segments (the first one formatted in one go: most edges
    have only that one)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = segments[0]
    d = "M%g,%gC%g,%g %g,%g %g,%g" % (x0, y0, x1, y1, x2, y2, x3, y3)
    if len(segments) == 1:
        return d
    return d + "".join(["C%g,%g %g,%g %g,%g" % (*c1, *c2, *end) for _, c1, c2, end in segments[1:]])
