"""The layered drawing of a graph (Sugiyama's method), computed once in Python for every renderer.

The widget, the static SVG, the PNG and matplotlib all draw the positions and routes computed here, so they
agree to the pixel. The four classic phases, each a short function:

1. **Layers.** Each node gets a layer, so that every edge points to a later one (data flows left to right)
   and the edges are as short as they can be in total (dot's network simplex, solved with networkx): a leaf
   lands just before its first consumer instead of in the first column.
2. **Ranks and dummies.** Layer ``L`` becomes rank ``2L``; the odd ranks between hold the edge labels (the
   gradient written on an edge is a box of its own, like dot's label nodes). An edge spanning more ranks gets a
   dummy vertex in each one it crosses, so it is routed *between* the nodes, never through one.
3. **Order.** Within each rank the vertices are sorted by the barycentre of their neighbours, sweeping down
   and up, then neighbours are swapped while that removes crossings ("transpose"); the best order seen is
   kept. Input ports count: the edge into input 0 of a node enters above the edge into input 1.
4. **Coordinates and routes.** Each rank is a column as wide as its widest box; within it, boxes keep their
   order and their spacing and move towards their neighbours (weighted like dot: long edges pull hardest, so
   they run straight); each step is an isotonic regression (pool adjacent violators). An edge runs
   horizontally through every column it crosses, in its own band, and bends only in the empty gaps between
   columns, as a cubic with horizontal tangents.

What this guarantees by construction: no box overlaps another (order plus spacing in a column, disjoint
columns otherwise), no edge crosses a box (columns are crossed in the edge's own band, curves stay in gaps),
and no label overlaps a box, an edge or another label (a label is a box in a label column, above its edge).

**Frames.** Boxes given the same ``cluster`` (an open module group) are framed: after ordering, each rank lists
a cluster's boxes next to each other, and after placing, whatever else lies in the columns a frame spans is
moved out of it (up or down, keeping the order), so a frame, ``FRAME_PAD`` around its boxes, holds exactly
them and stays ``FRAME_CLEAR`` px away from every other box, label and edge band.

**Bundles.** A data tensor used by many operations (a constant multiplied in at every step of a chain) would
run an edge from its box to each use, side by side across the whole drawing. Edges of one source given the same
``bundle`` share their dummies instead, rank by rank, as one trunk (dot's ``concentrate``): the trunk is drawn
once, as part of the route of the edge that goes farthest, and every other edge's route starts where it leaves
the trunk, on the trunk's line, and goes to its target from there.

>>> d = layout([(60, 30), (60, 30), (80, 40)], [Edge(0, 2, 0, 2, (30, 14)), Edge(1, 2, 1, 2, (30, 14))])
>>> [round(y) for _, y in d.centres][:2] == sorted(round(y) for _, y in d.centres[:2])  # input 0 above input 1
True
>>> d.crossings, len(d.routes), d.labels[0] is not None
(0, 2, True)
"""
from __future__ import annotations

import bisect
import random
import re
from typing import NamedTuple, Optional

__all__ = ["Edge", "Drawing", "layout", "path_d", "path_segments", "bezier_points", "MARGIN", "LABEL_LIFT", "FRAME_SIDE", "FRAME_TOP",
           "FRAME_BOTTOM", "FRAME_CLEAR"]

MARGIN = 24        # around the drawing
NODE_SEP = 22      # between two boxes in a column
EDGE_SEP = 8       # between an edge (or a label) and its neighbour in a column
PORT = 14          # between two input ports on a box's left side (less on a box with many inputs)
OUT_PORT = 8       # between two edges leaving a box's right side
LABEL_LIFT = 5     # from an edge up to its label's baseline
GAP_MIN, GAP_MAX = 14, 96  # the width of the gap between two columns, where edges bend
#: Around a cluster's boxes: its frame (left/right, top: room for its title, bottom), and the free space outside.
FRAME_SIDE, FRAME_TOP, FRAME_BOTTOM, FRAME_CLEAR = 8, 20, 8, 8


class Edge(NamedTuple):
    """An edge from node ``src`` into input ``port`` of node ``dst`` (which has ``ports`` inputs); ``label`` is
    the ``(width, height)`` to keep free for its text above the edge (ascent + descent), or None. Edges of one
    source with the same ``bundle`` (not None) are drawn as one bundle (see "Bundles" above)."""
    src: int
    dst: int
    port: int = 0
    ports: int = 1
    label: Optional[tuple] = None
    bundle: Optional[str] = None


class Drawing(NamedTuple):
    """``centres[i]``: the centre of box ``i``; ``routes[j]``: edge ``j`` as cubic segments ``(p0, p1, p2, p3)``
    from the source to the target; ``labels[j]``: ``(x, baseline)`` of its label (centred), or None."""
    centres: list
    routes: list
    labels: list
    width: float
    height: float
    crossings: int


def layout(sizes: list, edges: list, quality: Optional[int] = None, clusters: Optional[list] = None) -> Drawing:
    """Lay out boxes of ``sizes`` (``(w, h)``) joined by ``edges`` (:class:`Edge`); self-loops are ignored.

    ``quality`` is the number of ordering sweeps (default: more for small graphs, fewer for large ones);
    ``clusters[i]``: the frame box ``i`` is drawn in (-1: none), see "Frames" above.
    """
    n = len(sizes)
    pairs = [(e.src, e.dst) for e in edges]
    flipped = _feedback_edges(n, pairs)
    pairs = [(d, s) if j in flipped else (s, d) for j, (s, d) in enumerate(pairs)]
    layer = _layers(n, [p for p in pairs if p[0] != p[1]])
    g = _Graph(sizes, edges, pairs, layer, flipped)
    size = len(g.rank)  # boxes and dummies: what the ordering works on
    tier = 0 if size < 600 else 1 if size < 3000 else 2  # the effort shrinks as the graph grows
    if quality is None:
        quality = (12, 2, 1)[tier]
    # Past 600 boxes and dummies (a live drawing of a training loop: its steps share the parameters, so
    # thousands of crossings remain whatever the order) one start and few sweeps: the drawing is an overview,
    # and its layout runs while the learner's cell does.
    g.rounds, g.sifts, passes = (12, 4, 1)[tier], (3, 0, 0)[tier], (24, 8, 4)[tier]
    crossings = _order(g, quality, starts=(2, 1, 1)[tier])
    if clusters and max(clusters) >= 0:
        crossings = _cluster_order(g, clusters)
    _ports(g)
    _place_y(g, passes)
    if g.cluster:
        _clear_frames(g)
    _to_margin(g)
    return _routes(g, crossings)


# ------------------------------------------------------------------------------------------ 1. layers
def _feedback_edges(n: int, pairs: list) -> set:
    """Edges to reverse so the graph has no cycle: those that close one in a depth-first search (only folded
    nodes can form cycles)."""
    out = [[] for _ in range(n)]
    for j, (s, d) in enumerate(pairs):
        if s != d:
            out[s].append((d, j))
    state, flipped = [0] * n, set()  # 0 new, 1 on the stack, 2 done
    for start in range(n):
        if state[start]:
            continue
        state[start] = 1
        stack = [(start, iter(out[start]))]
        while stack:
            v, it = stack[-1]
            for w, j in it:
                if state[w] == 1:
                    flipped.add(j)
                elif state[w] == 0:
                    state[w] = 1
                    stack.append((w, iter(out[w])))
                    break
            else:
                state[v] = 2
                stack.pop()
    return flipped


def _layers(n: int, pairs: list) -> list:
    """A layer per node with the least total edge length (every edge spans at least one layer), as dot's
    network simplex finds it. That linear program's dual is a min-cost flow, which networkx solves: each node
    asks for (edges in - edges out) units, each edge carries any flow at a profit of 1. The layers are then the
    potentials of the optimal flow: shortest distances in its residual graph."""
    if not pairs:
        return [0] * n
    import networkx as nx
    g = nx.DiGraph()
    g.add_nodes_from(range(n), demand=0)
    for s, d in pairs:
        g.nodes[d]["demand"] += 1
        g.nodes[s]["demand"] -= 1
        g.add_edge(s, d, weight=-1)
    _, flow = nx.network_simplex(g)
    residual = nx.DiGraph()
    residual.add_weighted_edges_from((s, d, -1) for s, d in g.edges)
    residual.add_weighted_edges_from((d, s, 1) for s, d in g.edges if flow[s][d] > 0)
    residual.add_weighted_edges_from((-1, v, 0) for v in range(n))
    distance = nx.single_source_bellman_ford_path_length(residual, -1)
    low = max((distance[v] for v in range(n)), default=0)
    return [low - distance[v] for v in range(n)]


# ------------------------------------------------------------------------------------------ 2. ranks and dummies
#: Dummies are made for at most this many edge crossings of a rank; beyond, the longest edges take a lane.
DUMMY_BUDGET = 4000


def _lanes(spans: list) -> set:
    """The edges that go round below the drawing instead of through every rank they span: the longest ones,
    until the others need at most ``DUMMY_BUDGET`` dummies (none on the graphs a lesson draws)."""
    total = sum(max(span - 1, 0) for span in spans)
    lanes = set()
    for j in sorted(range(len(spans)), key=lambda j: -spans[j]):
        if total <= DUMMY_BUDGET or spans[j] < 6:
            break
        lanes.add(j)
        total -= spans[j] - 3
    return lanes


class _Graph:
    """Vertices (boxes, label boxes, dummies) in ranks, and the segments between neighbouring ranks."""

    def __init__(self, sizes, edges, pairs, layer, flipped) -> None:
        n = len(sizes)
        self.n = n
        self.rank = [2 * x for x in layer]
        self.width = [w for w, _ in sizes]
        self.top = [h / 2 for _, h in sizes]       # extent above the vertex's y (where its edges attach)
        self.bottom = list(self.top)               # extent below it
        self.edge_of = [-1] * n                    # the edge a dummy belongs to
        self.up = [[] for _ in range(n)]           # vertex -> segments (index) ending at it
        self.down = [[] for _ in range(n)]         # vertex -> segments starting at it
        self.seg_a, self.seg_b, self.seg_in = [], [], []  # a segment: from a to b, entering b at offset seg_in
        self.seg_out = []                          # ... leaving a at this offset (set by _ports)
        self.chains, self.label_at = [], []        # edge -> its segments; edge -> its label vertex or -1
        self.flipped = flipped
        self.ports = [(e.port, max(e.ports, e.port + 1)) for e in edges]
        self.sizes = sizes
        bundled = [e.bundle is not None and e.label is None and j not in flipped for j, e in enumerate(edges)]
        self.lanes = _lanes([0 if b else self.rank[d] - self.rank[s] for b, (s, d) in zip(bundled, pairs)])
        shared, joined = {}, {}  # (source, bundle, rank) -> its dummy; (a, b) -> the segment bundled edges share
        self.owner = []  # segment -> the edge whose route draws it (the farthest-going edge of a bundle)
        for j, ((s, d), e) in enumerate(zip(pairs, edges)):
            if s == d:
                self.chains.append(None)
                self.label_at.append(-1)
                continue
            chain, segs = [s], []
            crossed = range(self.rank[s] + 1, self.rank[d])
            if j in self.lanes:  # only where it leaves and where it arrives: it runs below the drawing between
                crossed = (crossed[0], crossed[-1])
            for r in crossed:
                if bundled[j]:
                    v = shared.get((s, e.bundle, r))
                    if v is None:
                        v = shared[s, e.bundle, r] = self._vertex(r, j)
                    chain.append(v)
                    continue
                v = self._vertex(r, j)
                if r == self.rank[s] + 1 and e.label is not None:
                    w, h = e.label
                    self.width[v], self.top[v], self.bottom[v] = w, h + LABEL_LIFT, 2
                chain.append(v)
            chain.append(d)
            self.chains.append(segs)
            self.label_at.append(chain[1] if e.label is not None and len(chain) > 2 else -1)
            for a, b in zip(chain, chain[1:]):
                if j in self.lanes and a == chain[1]:
                    segs.append(-1)  # the lane: no segment to order or to place by
                    continue
                if bundled[j] and (a, b) in joined:  # the trunk so far: drawn by the edge that goes farthest
                    k = joined[a, b]
                    segs.append(k)
                    far = self.owner[k]
                    if self.rank[pairs[far][1]] < self.rank[d]:
                        self.owner[k] = j
                    continue
                k = len(self.seg_a)
                if bundled[j] and b != d:
                    joined[a, b] = k
                self.owner.append(j)
                segs.append(k)
                self.seg_a.append(a)
                self.seg_b.append(b)
                self.seg_in.append(self._in_offset(b, j) if b == d and j not in flipped else 0.0)
                self.down[a].append(k)
                self.up[b].append(k)
        self.seg_out = [0.0] * len(self.seg_a)
        self.frac = [self.fraction(k) for k in range(len(self.seg_a))]
        ranks = 1 + max(self.rank, default=-1)
        self.order = [[] for _ in range(ranks)]
        self.cluster = None                        # vertex -> its frame's cluster or -1 (see _cluster_order)
        self.whole = None                          # cluster -> its vertices, dummies too (see _clear_frames)

    def _vertex(self, r: int, edge: int) -> int:
        for lst, value in ((self.rank, r), (self.width, 0), (self.top, 1), (self.bottom, 1), (self.edge_of, edge),
                           (self.up, []), (self.down, [])):
            lst.append(value)
        return len(self.rank) - 1

    def _in_offset(self, node: int, edge: int) -> float:
        port, ports = self.ports[edge]
        if ports == 1:
            return 0.0
        step = min(PORT, (self.sizes[node][1] - 16) / (ports - 1))
        return (port - (ports - 1) / 2) * step

    def fraction(self, k: int) -> float:
        """Where segment ``k`` enters its target, as a fraction of a position (input 0 above input 1)."""
        b = self.seg_b[k]
        if b >= self.n or self.seg_in[k] == 0:
            return 0.0
        h = self.sizes[b][1]
        return 0.8 * self.seg_in[k] / h


# ------------------------------------------------------------------------------------------ 3. order
def _order(g: _Graph, sweeps: int, starts: int = 2) -> int:
    """Order every rank to few crossings; returns the number of crossings between neighbouring ranks.

    Two starts (a walk from the results, one from the inputs), each improved by ``sweeps`` rounds of a sweep
    plus transposition; after a few rounds without progress a start goes back to its best order (as dot's
    mincross does). The fewest crossings win."""
    g.pos = [0] * len(g.rank)
    best, best_order = None, None
    for start in range(starts):
        _initial_order(g, start % 2 == 0, start // 2)
        c = _crossings(g)
        here, here_order, stale = c, [list(r) for r in g.order], 0
        for it in range(sweeps):
            if here == 0:
                break
            down = it % 2 == 0
            for r in (range(1, len(g.order)) if down else range(len(g.order) - 2, -1, -1)):
                _sort_rank(g, r, down)
            _transpose(g, equal=it % 4 >= 2)
            c = _crossings(g)
            if c < here:
                here, here_order, stale = c, [list(r) for r in g.order], 0
            else:
                stale += 1
                if stale >= 4:
                    _set_order(g, [list(r) for r in here_order])
                    stale = 0
        _set_order(g, here_order)
        for _ in range(g.sifts):
            if not _sift(g):
                break
            here, here_order = _crossings(g), [list(r) for r in g.order]
        if best is None or here < best:
            best, best_order = here, here_order
    _set_order(g, best_order)
    return best


def _set_order(g: _Graph, order: list) -> None:
    g.order = order
    for lst in order:
        for i, v in enumerate(lst):
            g.pos[v] = i


def _initial_order(g: _Graph, backwards: bool, seed: int = 0) -> None:
    """A depth-first walk from the results back to the inputs (input 0 first: a tree comes out planar), or
    from the inputs forward; each rank lists its vertices in the order the walk meets them. A ``seed``
    shuffles the walk's starts (a deterministic shuffle: the same graph always gives the same drawing)."""
    order = [[] for _ in g.order]
    seen = [False] * len(g.rank)
    ends = [v for v in range(g.n) if not (g.down[v] if backwards else g.up[v])]
    starts = ends + list(range(g.n))
    if seed:
        random.Random(seed).shuffle(starts)
    for start in starts:
        if seen[start]:
            continue
        stack = [start]
        while stack:
            v = stack.pop()
            if seen[v]:
                continue
            seen[v] = True
            order[g.rank[v]].append(v)
            if backwards:
                ins = sorted(g.up[v], key=lambda k: -g.seg_in[k])  # reversed: input 0 is popped first
                stack.extend(g.seg_a[k] for k in ins if not seen[g.seg_a[k]])
            else:
                stack.extend(g.seg_b[k] for k in reversed(g.down[v]) if not seen[g.seg_b[k]])
    _set_order(g, order)


def _sort_rank(g: _Graph, r: int, down: bool) -> None:
    pos, keys = g.pos, {}
    for v in g.order[r]:
        if down:
            ns = [pos[g.seg_a[k]] for k in g.up[v]]
        else:
            ns = [pos[g.seg_b[k]] + g.frac[k] for k in g.down[v]]
        keys[v] = sum(ns) / len(ns) if ns else pos[v]
    g.order[r].sort(key=lambda v: (keys[v], pos[v]))
    for i, v in enumerate(g.order[r]):
        pos[v] = i


def _transpose(g: _Graph, equal: bool = False) -> None:
    """Swap neighbours in a rank while that removes crossings (``equal``: also when it keeps their number,
    which lets a later sweep find a way out); again wherever a neighbouring rank changed."""
    pos, frac = g.pos, g.frac
    dirty = set(range(len(g.order)))
    for _ in range(g.rounds):
        changed = set()
        for r in sorted(dirty):
            lst = g.order[r]
            if len(lst) < 2:
                continue
            ends = {v: ([pos[g.seg_a[k]] for k in g.up[v]], [pos[g.seg_b[k]] + frac[k] for k in g.down[v]])
                    for v in lst}
            for i in range(len(lst) - 1):
                u, v = lst[i], lst[i + 1]
                (ua, ub), (va, vb) = ends[u], ends[v]
                now = _pairs(ua, va) + _pairs(ub, vb)
                swapped = _pairs(va, ua) + _pairs(vb, ub)
                if swapped < now or (equal and swapped == now and now > 0):
                    lst[i], lst[i + 1] = v, u
                    pos[u], pos[v] = i + 1, i
                    changed.add(r)
        if not changed:
            break
        dirty = {x for r in changed for x in (r - 1, r, r + 1) if 0 <= x < len(g.order)}


def _sift(g: _Graph) -> bool:
    """Move each vertex, one at a time, to the place in its rank where it crosses least ("sifting");
    returns whether anything moved."""
    pos, frac, moved = g.pos, g.frac, False
    for lst in g.order:
        if len(lst) < 3:
            continue
        ends = {v: ([pos[g.seg_a[k]] for k in g.up[v]], [pos[g.seg_b[k]] + frac[k] for k in g.down[v]])
                for v in lst}
        for v in list(lst):
            others = [w for w in lst if w != v]
            va, vb = ends[v]
            cost = best = sum(_pairs(va, ends[w][0]) + _pairs(vb, ends[w][1]) for w in others)  # v on top
            at, place = lst.index(v), 0
            for i, w in enumerate(others, 1):  # move v below w
                wa, wb = ends[w]
                cost += _pairs(wa, va) + _pairs(wb, vb) - _pairs(va, wa) - _pairs(vb, wb)
                if cost < best:
                    best, place = cost, i
            if place != at:
                current = sum(_pairs(va, ends[w][0]) + _pairs(vb, ends[w][1]) for w in lst[at + 1:]) + \
                    sum(_pairs(ends[w][0], va) + _pairs(ends[w][1], vb) for w in lst[:at])
                if best < current:
                    others.insert(place, v)
                    lst[:] = others
                    for i, w in enumerate(lst):
                        pos[w] = i
                    moved = True
    return moved


def _pairs(upper: list, lower: list) -> int:
    """How many edges of a vertex (ends ``upper``) cross those of the vertex below it (ends ``lower``)."""
    if len(upper) == 1 and len(lower) == 1:
        return upper[0] > lower[0]
    return sum(1 for x in upper for y in lower if x > y) if upper and lower else 0


#: Up to this many segments between two ranks, their crossings are counted pair by pair.
_FEW = 12


def _crossings(g: _Graph, ranks: Optional[set] = None) -> int:
    """Crossings between all neighbouring ranks (inversions, counted with a Fenwick tree); with ``ranks``, only
    those of the segments leaving these ranks."""
    by_rank = {}
    pos = g.pos
    for k, a in enumerate(g.seg_a):
        if ranks is None or g.rank[a] in ranks:
            by_rank.setdefault(g.rank[a], []).append((pos[a], pos[g.seg_b[k]] + g.frac[k]))
    total = 0
    for segs in by_rank.values():
        if len(segs) <= _FEW:  # few segments: count the crossing pairs directly (the tree costs more)
            total += sum([(a < c and b > d) or (a > c and b < d) for i, (a, b) in enumerate(segs)
                          for c, d in segs[i + 1:]])
            continue
        segs.sort()
        values = sorted(set(b for _, b in segs))
        tree = [0] * (len(values) + 1)
        seen = 0
        i = 0
        while i < len(segs):  # segments from the same vertex never cross each other
            j = i
            while j < len(segs) and segs[j][0] == segs[i][0]:
                j += 1
            for _, b in segs[i:j]:
                x = bisect.bisect_right(values, b)  # how many seen end strictly below b: cross
                below = 0
                while x > 0:
                    below += tree[x]
                    x -= x & -x
                total += seen - below
            for _, b in segs[i:j]:
                x = bisect.bisect_left(values, b) + 1
                while x <= len(values):
                    tree[x] += 1
                    x += x & -x
                seen += 1
            i = j
    return total


def _cluster_order(g: _Graph, clusters: list) -> int:
    """Sort each rank so a cluster's vertices are next to each other (at the mean place they had); an edge's
    dummies belong to the cluster of its two ends when they share one. Returns the crossings then."""
    cluster = list(clusters) + [-1] * (len(g.rank) - g.n)
    for segs in g.chains:
        if not segs:
            continue
        ends = [g.seg_a[k] for k in segs if k >= 0] + [g.seg_b[k] for k in segs if k >= 0]
        src, dst = ends[0], ends[-1]
        if clusters[src] >= 0 and clusters[src] == clusters[dst]:
            for v in ends:
                cluster[v] = clusters[src]
    g.cluster = cluster
    for lst in g.order:
        _contiguous(g, lst)
    best, best_order = _swap_blocks(g, _crossings(g)), [list(r) for r in g.order]
    for it in range(8):  # sweeps as in _order, each rank made contiguous again after it is sorted
        if best == 0:
            break
        down = it % 2 == 0
        for r in (range(1, len(g.order)) if down else range(len(g.order) - 2, -1, -1)):
            _sort_rank(g, r, down)
            _contiguous(g, g.order[r])
        c = _swap_blocks(g, _crossings(g))
        if c < best:
            best, best_order = c, [list(r) for r in g.order]
    _set_order(g, best_order)
    return best


def _contiguous(g: _Graph, lst: list) -> None:
    """Sort one rank so each cluster's vertices are next to each other, at the mean place they had."""
    cluster, places = g.cluster, {}
    for v in lst:
        if cluster[v] >= 0:
            places.setdefault(cluster[v], []).append(g.pos[v])
    if not places:
        return
    mean = {c: sum(p) / len(p) for c, p in places.items()}
    lst.sort(key=lambda v: (mean[cluster[v]], 0, cluster[v], g.pos[v]) if cluster[v] >= 0 else
             (g.pos[v], 1, -1, g.pos[v]))
    for i, v in enumerate(lst):
        g.pos[v] = i


def _swap_blocks(g: _Graph, crossings: int, rounds: int = 4) -> int:
    """Swap neighbouring blocks of a rank (a cluster's run of vertices, or one other vertex) while that removes
    crossings: the transposition of :func:`_transpose`, keeping clusters whole. Returns the crossings."""
    for _ in range(rounds):
        better = False
        for r, lst in enumerate(g.order):
            near = {r - 1, r}  # the segments into and out of rank r: the only crossings a swap there changes
            here, i = _crossings(g, near), 0
            while True:
                blocks, start = [], 0
                for k in range(1, len(lst) + 1):
                    if k == len(lst) or g.cluster[lst[k]] < 0 or g.cluster[lst[k]] != g.cluster[lst[k - 1]]:
                        blocks.append(lst[start:k])
                        start = k
                if i + 1 >= len(blocks):
                    break
                at = sum(len(b) for b in blocks[:i])
                swapped = blocks[i + 1] + blocks[i]
                old = lst[at:at + len(swapped)]
                lst[at:at + len(swapped)] = swapped
                for p, v in enumerate(lst):
                    g.pos[v] = p
                c = _crossings(g, near)
                if c < here:
                    crossings, here, better = crossings - here + c, c, True
                else:
                    lst[at:at + len(swapped)] = old
                    for p, v in enumerate(lst):
                        g.pos[v] = p
                i += 1
        if not better:
            break
    return crossings


def _clear_frames(g: _Graph) -> None:
    """Move every vertex out of the frames it does not belong to (a frame: ``FRAME_PAD`` around its cluster's
    boxes, over the ranks they span), up if it lies above the cluster in its rank, else down; a vertex moves
    with all those beyond it in its rank, so the order and the spacing stay; a box of another cluster moves with
    its whole cluster, in every rank the cluster spans, so that frame keeps its height (moving only the ranks in
    the way stretched it, 800 px for 3 boxes). Repeated while something moved (a moved cluster's frame moves
    too)."""
    y, cluster = g.y, g.cluster
    boxes: dict = {}
    for v in range(g.n):
        if cluster[v] >= 0:
            boxes.setdefault(cluster[v], []).append(v)
    g.whole = {c: {v for v in range(len(g.rank)) if cluster[v] == c} for c in boxes}  # with its edges' dummies
    for _ in range(4 * len(boxes) + 4):
        moved = False
        for c, members in boxes.items():
            top = min(y[v] - g.top[v] for v in members) - FRAME_TOP - FRAME_CLEAR
            bottom = max(y[v] + g.bottom[v] for v in members) + FRAME_BOTTOM + FRAME_CLEAR
            for r in range(min(g.rank[v] for v in members), max(g.rank[v] for v in members) + 1):
                lst = g.order[r]
                inside = [i for i, v in enumerate(lst) if cluster[v] == c]
                first = inside[0] if inside else next((i for i, v in enumerate(lst) if y[v] > (top + bottom) / 2),
                                                      len(lst))
                last = inside[-1] if inside else first - 1
                if first > 0:  # the vertex just above the cluster, with its own frame's bottom
                    v = lst[first - 1]
                    framed = v < g.n and cluster[v] >= 0
                    over = y[v] + g.bottom[v] + (FRAME_BOTTOM if framed else 0) - top
                    if over > 0.01:
                        if framed:  # two frames: the lower one in the rank moves down, never the upper up
                            _shift(g, boxes[c], over)
                        else:
                            _shift(g, [v], -over)
                        moved = True
                if last + 1 < len(lst):
                    v = lst[last + 1]
                    framed = v < g.n and cluster[v] >= 0
                    over = bottom - (y[v] - g.top[v] - (FRAME_TOP if framed else 0))
                    if over > 0.01:
                        _shift(g, [v], over)
                        moved = True
        moved = _part_frames(g, list(boxes.values())) or moved
        if not moved:
            break


def _part_frames(g: _Graph, clusters: list) -> bool:
    """Two frames over a common rank that overlap (a frame is one rectangle over all its ranks, so clusters
    clear of each other in every rank may still overlap at a corner): the lower cluster, with all that lies
    below it in its ranks, moves down until the frames are ``FRAME_CLEAR`` apart. True if something moved."""
    y = g.y

    def frame(members):
        return (min(g.rank[v] for v in members), max(g.rank[v] for v in members),
                min(y[v] - g.top[v] for v in members) - FRAME_TOP, max(y[v] + g.bottom[v] for v in members) + FRAME_BOTTOM)
    moved = False
    for i, a in enumerate(clusters):
        for b in clusters[i + 1:]:
            (a0, a1, a_top, a_bottom), (b0, b1, b_top, b_bottom) = frame(a), frame(b)
            if a1 < b0 or b1 < a0 or a_bottom + FRAME_CLEAR <= b_top or b_bottom + FRAME_CLEAR <= a_top:
                continue
            a_first, b_first = _precedes(g, a, b), _precedes(g, b, a)
            if not a_first and not b_first:
                continue  # interleaved in some rank: moving one down would move the other too
            if a_first == b_first:  # no rank holds both: the one whose centre is higher stays
                a_first = a_top + a_bottom < b_top + b_bottom
            upper_bottom, lower, lower_top = (a_bottom, b, b_top) if a_first else (b_bottom, a, a_top)
            _shift(g, lower, upper_bottom + FRAME_CLEAR - lower_top)
            moved = True
    return moved


def _shift(g: _Graph, members: list, by: float) -> None:
    """Move ``members`` by ``by`` (down if positive), with all that lies beyond them (below, or above if moving
    up) in each rank they span, so every rank keeps its order and spacing; a cluster caught in what moves moves
    whole, in all its ranks, so no frame is stretched."""
    inside, grown = set(members), True
    while grown:
        moving = set()
        for r in {g.rank[v] for v in inside}:
            lst = g.order[r]
            at = [k for k, v in enumerate(lst) if v in inside]
            moving.update(lst[at[0]:] if by > 0 else lst[:at[-1] + 1])
        caught = {g.cluster[u] for u in moving if g.cluster[u] >= 0}
        grown = not all(g.whole[c] <= inside for c in caught)
        for c in caught:
            inside |= g.whole[c]
    for u in moving:
        g.y[u] += by


def _precedes(g: _Graph, a: list, b: list) -> bool:
    """Does every vertex of cluster ``a`` come before (above) every vertex of ``b`` in each rank holding both?"""
    last: dict = {}
    for v in a:
        last[g.rank[v]] = max(last.get(g.rank[v], -1), g.pos[v])
    return all(g.pos[v] > last[g.rank[v]] for v in b if g.rank[v] in last)


# ------------------------------------------------------------------------------------------ 4. coordinates, routes
def _ports(g: _Graph) -> None:
    """Spread the edges leaving a box over its right side, in the order of where they go."""
    pos = g.pos
    for a in range(g.n):
        segs = g.down[a]
        if len(segs) < 2:
            continue
        segs = sorted(segs, key=lambda k: (pos[g.seg_b[k]], g.seg_in[k]))
        step = min(OUT_PORT, (g.sizes[a][1] - 16) / (len(segs) - 1))
        for i, k in enumerate(segs):
            g.seg_out[k] = (i - (len(segs) - 1) / 2) * step


def _separation(g: _Graph, a: int, b: int) -> float:
    sep = NODE_SEP if a < g.n and b < g.n else EDGE_SEP
    return g.bottom[a] + g.top[b] + sep


def _place_y(g: _Graph, passes: int) -> None:
    """Each vertex's y: stacked in rank order, then moved towards its neighbours rank by rank, down and up."""
    shifts = [_stacked(g, lst) for lst in g.order]  # (the same at every pass: computed once)
    y = g.y = [0.0] * len(g.rank)
    for lst, shift in zip(g.order, shifts):
        for v, at in zip(lst, shift):
            y[v] = at
    weight = []
    for a, b in zip(g.seg_a, g.seg_b):
        dummies = (a >= g.n) + (b >= g.n)
        weight.append((1, 2, 8)[dummies])
    # what pulls each vertex, read once: (weight, neighbour, + offset, - offset) of its segments up, then down
    pulls = [[(weight[k], g.seg_a[k], g.seg_out[k], g.seg_in[k]) for k in g.up[v]]
             + [(weight[k], g.seg_b[k], g.seg_in[k], g.seg_out[k]) for k in g.down[v]] for v in range(len(y))]
    pulled = [float(sum(w for w, _, _, _ in p)) for p in pulls]
    ranks = len(g.order)
    for it in range(passes):
        for r in (range(ranks) if it % 2 == 0 else range(ranks - 1, -1, -1)):
            lst = g.order[r]
            if not lst:
                continue
            want, wts = [], []
            for v in lst:
                total = 0.0
                for w, u, plus, minus in pulls[v]:
                    total += w * (y[u] + plus - minus)
                tw = pulled[v]
                want.append(total / tw if tw else y[v])
                wts.append(tw or 0.01)
            for v, value in zip(lst, _isotonic(want, wts, shifts[r])):
                y[v] = value


def _to_margin(g: _Graph) -> None:
    """Move everything so the top-most vertex starts ``MARGIN`` below the top."""
    y = g.y
    low = min((y[v] - g.top[v] for v in range(len(y))), default=0.0)
    for v in range(len(y)):
        y[v] += MARGIN - low


def _stacked(g: _Graph, lst: list) -> list:
    """The y of each vertex of a rank stacked from 0 in order, each its separation below the one before."""
    shift = [0.0]
    for a, b in zip(lst, lst[1:]):
        shift.append(shift[-1] + _separation(g, a, b))
    return shift


def _isotonic(want: list, wts: list, shift: list) -> list:
    """The y values closest to ``want`` (weighted least squares) that keep a rank's order and spacing (``shift``,
    from :func:`_stacked`): pool adjacent violators on y minus the spacing accumulated from the top."""
    if len(want) == 1:  # (a rank of one: where it wants to be)
        return want
    blocks = []  # [mean, weight, count]
    for w, s, wt in zip(want, shift, wts):
        blocks.append([w - s, wt, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, c2 = blocks.pop()
            m1, w1, c1 = blocks[-1]
            blocks[-1] = [(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2]
    out = []
    for mean, _, count in blocks:
        out.extend([mean] * count)
    return [z + s for z, s in zip(out, shift)]


def _routes(g: _Graph, crossings: int) -> Drawing:
    """Columns from the ranks, then each edge's cubic segments and its label's place."""
    y, ranks = g.y, len(g.order)
    col_w = [max((g.width[v] for v in lst), default=0) for lst in g.order]
    gaps = [GAP_MIN] * ranks  # gaps[r]: between rank r and r + 1
    for k, (a, b) in enumerate(zip(g.seg_a, g.seg_b)):
        dy = abs((y[a] + g.seg_out[k]) - (y[b] + g.seg_in[k]))
        r = g.rank[a]
        gaps[r] = max(gaps[r], min(GAP_MAX, dy * 0.35))
    left, x = [], MARGIN
    for r in range(ranks):
        left.append(x)
        x += col_w[r] + (gaps[r] if r < ranks - 1 else 0)
    width = x + MARGIN
    centres = [(left[g.rank[v]] + col_w[g.rank[v]] / 2, y[v]) for v in range(g.n)]
    lane = max((y[v] + g.bottom[v] for v in range(len(y))), default=0)
    routes, labels = [], []
    for j, segs in enumerate(g.chains):
        if segs is None:
            routes.append([])
            labels.append(None)
            continue
        a = g.seg_a[segs[0]]
        xa = centres[a][0] + g.sizes[a][0] / 2
        pieces = []  # lines through the columns, curves in the gaps
        for i, k in enumerate(segs):
            if k < 0:  # a lane: down in the gap after where it left, along below everything, up before it arrives
                lane += EDGE_SEP
                leave, arrive = g.seg_b[segs[i - 1]], g.seg_a[segs[i + 1]]
                ra, rb = g.rank[leave], g.rank[arrive]
                down, up = (left[ra + 1], lane), (left[rb - 1] + col_w[rb - 1], lane)
                pieces += [_curve((left[ra] + col_w[ra], y[leave]), down), _line(down, up),
                           _curve(up, (left[rb], y[arrive]))]
                xa = left[rb]
                continue
            a, b = g.seg_a[k], g.seg_b[k]
            ya, yb = y[a] + g.seg_out[k], y[b] + g.seg_in[k]
            right = left[g.rank[a]] + col_w[g.rank[a]]
            xb = left[g.rank[b]]
            end = centres[b][0] - g.sizes[b][0] / 2 if b < g.n else xb + col_w[g.rank[b]]
            if g.owner[k] == j:  # (a bundle's trunk is drawn by the edge that goes farthest)
                if xa < right - 0.5:
                    pieces.append(_line((xa, ya), (right, ya)))
                pieces.append(_curve((right, ya), (xb, yb)))
                if end > xb + 0.5:
                    pieces.append(_line((xb, yb), (end, yb)))
            xa = end
        pieces = _merged(pieces)
        if j in g.flipped:
            pieces = [(p3, p2, p1, p0) for p0, p1, p2, p3 in reversed(pieces)]
        routes.append(pieces)
        v = g.label_at[j]
        labels.append((left[g.rank[v]] + col_w[g.rank[v]] / 2, y[v] - LABEL_LIFT) if v >= 0 else None)
    return Drawing(centres, routes, labels, width, lane + MARGIN, crossings)


def _merged(pieces: list) -> list:
    """Runs of horizontal pieces at one height as one piece (a long straight edge is one line)."""
    out = []
    for c in pieces:
        if out and c[0][1] == c[3][1] == out[-1][0][1] == out[-1][3][1]:
            out[-1] = _line(out[-1][0], c[3])
        else:
            out.append(c)
    return out


def _line(p, q) -> tuple:
    return (p, (p[0] + (q[0] - p[0]) / 3, p[1]), (p[0] + 2 * (q[0] - p[0]) / 3, q[1]), q)


def _curve(p, q) -> tuple:
    dx = (q[0] - p[0]) / 2
    return (p, (p[0] + dx, p[1]), (q[0] - dx, q[1]), q)


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
    """The SVG ``d`` attribute of a list of cubic segments: ``M`` then relative ``c`` commands, in whole pixels,
    a run of straight horizontal pieces (a long edge passing layers) as one. A long edge has hundreds of
    points: relative whole pixels are two or three digits each, where absolute tenths were six.

    >>> path_d([((0, 0), (10, 0), (20, 0), (30, 0)), ((30, 0), (40, 0), (50, 0), (60, 0)),
    ...         ((60, 0), (65.4, 0), (65.4, 9.6), (71, 10))])
    'M0,0c20,0 40,0 60,0c5,0 5,10 11,10'
    """
    if not segments:
        return ""
    point = lambda p: (round(p[0]), round(p[1]))  # noqa: E731
    at = point(segments[0][0])
    pieces = []  # [start, c1, c2, end, straight]
    for _, c1, c2, e in segments:
        c1, c2, e = point(c1), point(c2), point(e)
        xs = (at[0], c1[0], c2[0], e[0])
        straight = at[1] == c1[1] == c2[1] == e[1] and (list(xs) == sorted(xs) or list(xs) == sorted(xs)[::-1])
        last = pieces[-1] if pieces else None
        if straight and last and last[4] and (e[0] - at[0]) * (last[3][0] - last[0][0]) >= 0:
            s0, dx = last[0], e[0] - last[0][0]
            pieces[-1] = [s0, (s0[0] + round(dx / 3), s0[1]), (s0[0] + round(2 * dx / 3), s0[1]), e, True]
        else:
            pieces.append([at, c1, c2, e, straight])
        at = e
    x0, y0 = pieces[0][0]
    return f"M{x0},{y0}" + "".join(f"c{a[0] - s[0]},{a[1] - s[1]} {b[0] - s[0]},{b[1] - s[1]} {e[0] - s[0]},{e[1] - s[1]}"
                                   for s, a, b, e, _ in pieces)


def path_segments(d: str) -> list:
    """The cubic segments ``(start, c1, c2, end)`` of a path :func:`path_d` wrote (``M``, then ``c`` or
    absolute ``C`` commands), in absolute coordinates.

    >>> path_segments("M0,0c20,0 40,0 60,0C65,0 65,10 71,10")
    [((0.0, 0.0), (20.0, 0.0), (40.0, 0.0), (60.0, 0.0)), ((60.0, 0.0), (65.0, 0.0), (65.0, 10.0), (71.0, 10.0))]
    """
    out, at = [], None
    for command, numbers in re.findall(r"([MCc])([^MCc]*)", d):
        v = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", numbers)]
        if command == "M":
            at = (v[0], v[1])
            continue
        for k in range(0, len(v) - 5, 6):
            base = at if command == "c" else (0.0, 0.0)
            c1, c2, e = ((base[0] + v[k + j], base[1] + v[k + j + 1]) for j in (0, 2, 4))
            out.append((at, c1, c2, e))
            at = e
    return out
