"""The heatmap's cells drawn as rectangles of equal cells: they tile the grid exactly, each of its cells' level."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from autograd_tutor.viz.heat import heat_rects, heat_svg


@st.composite
def grids(draw):
    rows, cols = draw(st.integers(1, 12)), draw(st.integers(1, 16))
    cells = draw(st.text(alphabet=draw(st.sampled_from(["4", "48", "0148", "012345678"])),
                         min_size=rows * cols, max_size=rows * cols))
    return {"rows": rows, "cols": cols, "cells": cells, "w": cols * 2, "h": rows * 2}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(grids())
def test_the_rectangles_tile_the_grid_with_each_cells_level(heat):
    drawn = [[None] * heat["cols"] for _ in range(heat["rows"])]
    for level, col, row, cols, rows in heat_rects(heat):
        for r in range(row, row + rows):
            for k in range(col, col + cols):
                assert drawn[r][k] is None, (heat, r, k)  # no cell drawn twice
                drawn[r][k] = level
    assert "".join("".join(r) for r in drawn) == heat["cells"]  # every cell, in its level


def test_an_even_tensor_is_one_rectangle():
    heat = {"rows": 8, "cols": 8, "cells": "8" * 64, "w": 16, "h": 16}
    assert heat_rects(heat) == [("8", 0, 0, 8, 8)]
    assert heat_svg(heat).count("M") == 1
