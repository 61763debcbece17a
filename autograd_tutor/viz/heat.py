"""Heatmaps: a tensor of more than a few numbers is drawn as a small grid of coloured cells with its shape.

A cut-off list (``(16, 2) [-0.005, 0.38, -0.58, …]``) hides most of a weight matrix; a heatmap shows all of its
shape at a glance: the value's grid of samples (:func:`format.sample_grid`) coloured by a diverging,
colour-blind-safe scale (ColorBrewer's PuOr): purple below zero, white at zero, orange above, each number
scaled by the largest magnitude in the grid. The exact numbers stay in the node's tooltip.

Every renderer draws the same cells: heat_of turns a grid into one character per cell (``"0"`` to
``"8"``, ``"4"`` is zero) that the node's JSON carries to the widget, and :func:`heat_svg` writes one
``<path>`` per colour (a few hundred bytes per node, however large the tensor).

>>> heat = heat_of((2, 3, (-2.0, 0.0, 2.0, 1.0, 0.5, -1.0)))
>>> heat["cells"], heat["w"], heat["h"]
('048652', 18, 12)
>>> heat_svg(heat).count("<path")  # one per colour used
6
"""
from __future__ import annotations

from typing import Optional

import numpy as np

__all__ = ["COLOURS", "heat_of", "heats_of", "heat_rects", "heat_size", "heat_svg", "HEAT_W", "HEAT_H", "LABEL_HEAT",
           "GAP"]

#: PuOr, 9 classes: from the most negative (purple) through white to the most positive (orange).
COLOURS = ("#542788", "#8073AC", "#B2ABD2", "#D8DAEB", "#F7F7F7", "#FEE0B6", "#FDB863", "#E08214", "#B35806")
#: The largest a heatmap gets (px), and the cell size it starts from.
HEAT_W, HEAT_H, CELL = 96, 24, 6
#: The largest an edge label's heatmap gets (px): ``(w, h)``, as tall as the label's text.
LABEL_HEAT = (48, 12)
#: Space between the heatmap and the rows above and below it (or the text beside it).
GAP = 4


def heat_of(grid: Optional[tuple], most: tuple = (HEAT_W, HEAT_H)) -> Optional[dict]:
    """``{"rows", "cols", "cells", "w", "h"}`` of a value's grid (None for a value without one), at most
    ``most`` = (w, h) px (cells of 2 px at least).

    >>> heat_of((6, 16, (1.0,) * 96), LABEL_HEAT)["w"], heat_of((6, 16, (1.0,) * 96))["w"]
    (32, 64)
    """
    return heats_of([(grid, most)])[0]


def heats_of(wanted: list) -> list:
    """:func:`heat_of` of each ``(grid, most)`` in ``wanted``, the levels of all of them computed at once (a
    replay has a heatmap for every gradient it shows: one NumPy pass instead of one per heatmap).

    >>> [h["cells"] for h in heats_of([((1, 2, (1.0, -1.0)), LABEL_HEAT), ((1, 3, (0.0, 2.0, 1.0)), LABEL_HEAT)])]
    ['80', '486']
    """
    grids = [grid for grid, _ in wanted if grid is not None]
    lengths = np.array([len(grid[2]) for grid in grids], dtype=np.intp)
    a = np.array([x for grid in grids for x in grid[2]], dtype=float)
    known = a == a  # NaN is drawn as zero
    full = lengths > 0
    top = np.zeros(len(grids))
    if a.size:
        top[full] = np.maximum.reduceat(np.where(known, np.abs(a), 0.0), (np.cumsum(lengths) - lengths)[full])
    top[top == 0] = 1.0
    with np.errstate(invalid="ignore"):  # an infinity over itself: NaN, drawn as zero like the others then
        levels = np.clip(np.rint(4 + 4 * a / np.repeat(top, lengths)), 0, 8)  # rint: to the even level at a half
    levels[~known | np.isnan(levels)] = 4
    cells = (levels.astype(np.uint8) + ord("0")).tobytes().decode()
    out, at, i = [], 0, 0
    for grid, most in wanted:
        if grid is None:
            out.append(None)
            continue
        rows, cols, _ = grid
        n = int(lengths[i])
        w, h = heat_size(rows, cols, most)
        out.append({"rows": rows, "cols": cols, "cells": cells[at:at + n], "w": w, "h": h})
        at, i = at + n, i + 1
    return out


def heat_size(rows: int, cols: int, most: tuple = (HEAT_W, HEAT_H)) -> tuple:
    """``(w, h)`` of the heatmap of a ``rows`` x ``cols`` grid, at most ``most`` (cells of 2 px at least)."""
    cell = max(2, min(CELL, most[1] // rows, most[0] // cols))
    return cols * cell, rows * cell


def heat_rects(heat: dict) -> list:
    """The cells as rectangles of one level each, ``(level, col, row, cols, rows)`` in cells: a row's run of
    equal cells is one, and a run repeated in the rows below grows down (a smooth tensor is a few rectangles,
    not one per number; the same picture).

    >>> heat_rects({"rows": 2, "cols": 3, "cells": "448448"})
    [('4', 0, 0, 2, 2), ('8', 2, 0, 1, 2)]
    """
    cols, cells, done, growing = heat["cols"], heat["cells"], [], {}
    for r in range(heat["rows"]):
        row, k, runs = cells[r * cols:(r + 1) * cols], 0, {}
        while k < cols:
            end = k
            while end < cols and row[end] == row[k]:
                end += 1
            key = (row[k], k, end - k)
            runs[key] = growing.pop(key, (r, 0))
            k = end
        done += [(c, k, top, n, r - top) for (c, k, n), (top, _) in growing.items()]  # runs that stopped
        growing = runs
    done += [(c, k, top, n, heat["rows"] - top) for (c, k, n), (top, _) in growing.items()]
    return sorted(done, key=lambda t: (t[2], t[1]))


def heat_svg(heat: dict) -> str:
    """The heatmap's cells as SVG paths (one per colour, of :func:`heat_rects`), at (0, 0), with a thin frame."""
    cell = heat["w"] // heat["cols"]
    by_level: dict = {}
    for c, k, r, n, m in heat_rects(heat):
        by_level.setdefault(c, []).append(f"M{k * cell},{r * cell}h{n * cell}v{m * cell}h-{n * cell}z")
    paths = "".join(f'<path fill="{COLOURS[int(c)]}" d="{"".join(d)}"/>' for c, d in sorted(by_level.items()))
    return paths + (f'<rect width="{heat["w"]}" height="{heat["h"]}" fill="none" stroke="#8A8A8A" '
                    f'stroke-width="0.6"/>')
