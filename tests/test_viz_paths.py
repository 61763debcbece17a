"""Edge routes as SVG paths (relative whole pixels, straight runs merged) and bundles of a data tensor's uses."""
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from autograd_tutor.viz.layered import Edge, bezier_points, layout, path_d, path_segments

sys.path.insert(0, str(Path(__file__).parent))
import viz_suite  # noqa: E402

TS = [k / 8 for k in range(9)]
FINE = [k / 64 for k in range(65)]


def _distance(p, line) -> float:
    """From point p to the polyline ``line``."""
    best = float("inf")
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy or 1)))
        best = min(best, ((p[0] - ax - t * dx) ** 2 + (p[1] - ay - t * dy) ** 2) ** 0.5)
    return best


@st.composite
def routes(draw):
    """Chains of cubic segments, some straight horizontal runs among them, at whole and fractional pixels."""
    at = (draw(st.floats(-50, 50)), draw(st.floats(-50, 50)))
    out = []
    for _ in range(draw(st.integers(1, 8))):
        dx = draw(st.floats(1, 120))
        if draw(st.booleans()):
            end = (at[0] + dx, at[1])
            out.append((at, (at[0] + dx / 3, at[1]), (at[0] + 2 * dx / 3, at[1]), end))
        else:
            end = (at[0] + dx, at[1] + draw(st.floats(-90, 90)))
            out.append((at, (at[0] + dx / 2, at[1]), (end[0] - dx / 2, end[1]), end))
        at = end
    return out


@settings(max_examples=200, deadline=None, derandomize=True)
@given(routes())
def test_a_path_draws_its_route_to_the_pixel(route):
    decoded = path_segments(path_d(route))
    assert len(decoded) <= len(route)  # straight runs at one height are one piece
    drawn = [p for seg in decoded for p in bezier_points(seg, FINE)]
    wanted = [p for seg in route for p in bezier_points(seg, TS)]
    assert decoded[0][0] == tuple(float(round(v)) for v in route[0][0])
    assert decoded[-1][3] == tuple(float(round(v)) for v in route[-1][3])
    # every point of the route lies within a pixel and a half of the drawn path (rounding to whole pixels)
    assert all(_distance(p, drawn) <= 1.5 for p in wanted), max(_distance(p, drawn) for p in wanted)


def test_a_data_tensors_uses_are_one_trunk_with_branches():
    """A chain y0 -> y1 -> y2 -> y3 with one data tensor c (box 4) going into each of y1, y2, y3: the edge to y3
    draws the trunk from c; the edges to y1 and y2 start on it, where they leave it, and no route crosses a box."""
    sizes = [(60, 30)] * 5
    chain = [Edge(k, k + 1, 0, 2) for k in range(3)]
    uses = [Edge(4, k, 1, 2, None, "data") for k in (1, 2, 3)]
    d = layout(sizes, chain + uses)
    trunk = [p for seg in path_segments(path_d(d.routes[5])) for p in bezier_points(seg, TS)]
    c = d.centres[4]
    assert abs(trunk[0][0] - (c[0] + 30)) <= 1 and abs(trunk[0][1] - c[1]) <= 1  # from c's right side
    for j in (3, 4):
        start = path_segments(path_d(d.routes[j]))[0][0]
        assert start[0] > c[0] + 30 + 1  # not from c: from the trunk ...
        assert _distance(start, trunk) <= 1  # ... on it
    boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for (x, y), (w, h) in zip(d.centres, sizes)]
    lines = [[p for seg in r for p in bezier_points(seg, TS)] for r in d.routes]
    assert viz_suite.through_nodes(lines, boxes) == 0
    alone = layout(sizes, chain + [e._replace(bundle=None) for e in uses])
    drawn = lambda dr: sum(len(path_d(r)) for r in dr.routes)  # noqa: E731
    assert drawn(d) < drawn(alone)  # the trunk is drawn once
