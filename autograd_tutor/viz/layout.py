"""The model's bookkeeping of layers: each node gets a (layer, slot) once, when it is added, and keeps it forever.

This is not where a node is drawn (that is :mod:`.layered`, a layout of the whole graph, redone as it grows):
the model folds nodes past its budget into one collapsed node per layer, and puts a constant in the layer
before its consumer, by these numbers.

The layer of a node is ``1 + max(layer of its inputs)`` (0 for a node without inputs), so data flows left
to right and every edge points to a later layer. The slot is the node's row inside its layer: the free row
nearest to the mean row of its inputs from the closest layer, so a chain stays on one line. Nothing is ever
re-placed, so the folds stay put while a graph grows.

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

__all__ = ["Layout"]

SEARCH = 8


class Layout:
    """Incremental layered placement; ``positions[key] = (layer, slot)``."""

    def __init__(self) -> None:
        self.positions: dict = {}
        self.taken: dict = {}  # layer -> set of slots
        self._end: dict = {}  # layer -> one past the largest slot used

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
        self.positions[key] = (layer, slot)
        return layer, slot

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
