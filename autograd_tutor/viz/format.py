"""Short, deterministic text for numbers and arrays: what a node or an edge shows.

A drawing has room for a few characters per value, so a scalar prints with 4 significant digits, an array of
up to ``HEAT_MIN`` (6) numbers whole, and a larger one as its shape plus its first numbers (a drawing shows
that one as a heatmap with its shape, never as the cut list). The same strings feed the SVG, the widget, the table and the
narration, so they agree everywhere.

>>> import numpy as np
>>> number(5.0), number(0.1), number(-0.0), number(1234567.0)
('5', '0.1', '0', '1.235e+06')
>>> summary(np.float32(3)), summary(np.array([1., 2., 3.])), summary(np.arange(12.).reshape(3, 4))
('3', '[1, 2, 3]', '(3, 4) [0, 1, 2, …]')
"""
from __future__ import annotations

import functools
import math
from typing import Optional

import numpy as np

__all__ = ["number", "summary", "head", "Value", "sample_grid", "HEAT_MIN"]

#: How many numbers of an array a summary shows at most.
HEAD = 3
#: An array of more numbers than this is drawn as a heatmap of its ``GRID`` samples (rows, columns at most);
#: its first ``NUMBERS`` numbers are kept exactly, for the tooltip.
HEAT_MIN, GRID, NUMBERS = 6, (6, 16), 32
_FLOATS = (np.float16, np.float32, np.float64)


def number(x) -> str:
    """One number in at most 4 significant digits; integers and booleans as they are."""
    if type(x) is not float:
        if isinstance(x, (bool, np.bool_)):
            return str(bool(x))
        if isinstance(x, (int, np.integer)):
            return str(int(x))
        x = float(x)
    return f"{x + 0.0:.4g}"  # (+ 0.0: -0.0 is 0; nan stays nan)


class Value:
    """What a drawing keeps of an array: its shape, its first few numbers and, for more than ``HEAT_MIN``
    numbers, a small grid of samples to draw as a heatmap (never the whole array).

    Keeping only a head and a grid bounds the memory of a recording however large the tensors are.

    >>> v = Value.of(np.ones((100, 100)))
    >>> v.text, v.grid[:2], len(v.grid[2])
    ('(100, 100) [1, 1, 1, …]', (6, 16), 96)
    """
    __slots__ = ("shape", "head", "size", "grid", "_text", "_numbers")

    def __init__(self, shape: tuple, head: tuple, grid: Optional[tuple] = None) -> None:
        self.shape = tuple(shape)
        self.head = head
        self.size = math.prod(self.shape)
        self.grid = grid  # (rows, cols, samples row by row), see sample_grid
        self._text = self._numbers = None

    @classmethod
    def of(cls, array) -> "Value":
        if type(array) in _FLOATS:  # what events carry for 0-dim data (float() is many times faster than item())
            return cls((), (float(array),))
        a = array if type(array) is np.ndarray else np.asarray(array)
        if a.ndim == 0:
            return cls((), (a.item(),))
        flat = a.reshape(-1)
        if flat.size <= HEAT_MIN:
            return cls(a.shape, tuple(flat.tolist()))
        return cls(a.shape, tuple(flat[:NUMBERS].tolist()), sample_grid(a))

    @property
    def scalar(self):
        """The number itself for a one-element value, else None."""
        return self.head[0] if self.size == 1 else None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = _text(self.shape, self.head, self.size)
        return self._text

    @property
    def numbers(self) -> str:
        """The exact numbers kept (all of a small array, the first ``NUMBERS`` of a larger one), for a tooltip
        (made once: a replay's full sentences and its edge labels name the same gradients several times)."""
        if self._numbers is None:
            shown = ", ".join(map(number, self.head))
            self._numbers = shown if len(self.head) == self.size else \
                f"{shown}, … (the first {len(self.head)} of {self.size:,})"
        return self._numbers

    def __eq__(self, other) -> bool:
        return (isinstance(other, Value) and self.shape == other.shape and self.head == other.head
                and self.grid == other.grid)

    def __repr__(self) -> str:
        return f"Value({self.text})"


def sample_grid(a: np.ndarray) -> tuple:
    """``(rows, cols, samples)`` of an array seen as a matrix (the last dimension across, the others down),
    sampled at evenly spaced rows and columns to at most ``GRID`` = (rows, cols): what a heatmap draws.

    >>> sample_grid(np.arange(6.).reshape(2, 3))
    (2, 3, (0.0, 1.0, 2.0, 3.0, 4.0, 5.0))
    """
    m = a.reshape(1, -1) if a.ndim < 2 else a.reshape(-1, a.shape[-1])
    picked = m[_picks(*m.shape)].astype(float)
    return picked.shape[0], picked.shape[1], tuple(picked.reshape(-1).tolist())


@functools.lru_cache(maxsize=256)
def _picks(n_rows: int, n_cols: int) -> tuple:
    """The row and column indices :func:`sample_grid` samples a matrix of this shape at (as a column and a row,
    so that indexing with both picks the grid). Cached: a training loop formats arrays of the same few shapes."""
    rows, cols = (np.linspace(0, n - 1, min(n, most)).round().astype(np.intp)
                  for n, most in zip((n_rows, n_cols), GRID))
    return rows[:, None], cols


def _text(shape: tuple, head: tuple, size: int) -> str:
    if size == 1:
        return number(head[0])
    if size == 0:
        return f"{shape} []"
    if size <= HEAT_MIN:  # all of them: a 4-element gradient is shown whole (a larger one is a heatmap)
        nums = ", ".join(number(v) for v in head)
        return f"[{nums}]" if len(shape) == 1 else f"{shape} [{nums}]"
    nums = ", ".join(number(v) for v in head[:HEAD])
    more = ", …" if size > HEAD else ""
    return f"{shape} [{nums}{more}]"


def summary(array) -> str:
    """The text of :class:`Value` for an array (or None -> ``"None"``)."""
    if array is None:
        return "None"
    return Value.of(array).text


def head(array, n: int = HEAD) -> list:
    """The first ``n`` numbers of an array, flattened, as Python floats."""
    return [float(v) for v in np.asarray(array).reshape(-1)[:n]]
