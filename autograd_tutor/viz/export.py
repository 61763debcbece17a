"""Leaving the notebook: a networkx graph for your own analysis, and ``save()`` to SVG or PNG files.

>>> import autograd_tutor as torch
>>> from autograd_tutor.viz.model import GraphModel
>>> x = torch.tensor(2., requires_grad=True)
>>> g = to_networkx(GraphModel.from_tensor(x * x, namespace={"x": x}))
>>> sorted(g.nodes(data="label")), g.number_of_edges()
([(0, 'x'), (1, 'MulBackward0')], 2)
"""
from __future__ import annotations

from pathlib import Path

from .svg import to_svg

__all__ = ["to_networkx", "save"]


def to_networkx(model):
    """A ``networkx.MultiDiGraph``: nodes by display index with kind, label, op, value, grad, layer, slot;
    one edge per input position (``x * x`` gives two) with ``position``, ``tracked`` and ``grad``."""
    import networkx as nx
    g = nx.MultiDiGraph()
    for n in model.visible:
        g.add_node(n.index, kind=n.kind, label=n.label, name=n.name, op=n.op,
                   value=n.value.text if n.value is not None else None,
                   grad=n.grad.text if n.grad is not None else None,
                   saved=tuple(n.saved), saved_state=n.saved_state, hidden=n.hidden, layer=n.layer, slot=n.slot)
    for e in model.edges:
        g.add_edge(model.node(e.src).index, model.node(e.dst).index, key=e.position, position=e.position,
                   tracked=e.tracked, grad=e.grad.text if e.grad is not None else None)
    return g


def save(model, path, state=None) -> Path:
    """Write the drawing to ``path``: ``.svg`` is the widget's static SVG, ``.png`` goes through matplotlib."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(to_svg(model, state), encoding="utf-8")
    elif suffix == ".png":
        from .mpl import save_png
        save_png(model, str(path), namespace={})
    else:
        raise ValueError(f"save() writes .svg or .png files, got {path.name!r}")
    return path
