"""Renderers of the model: static SVG, text and HTML tables, matplotlib, networkx, files."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import autograd_tutor as torch
from autograd_tutor import events
from autograd_tutor.viz import (GraphModel, build_steps, draw, html_table, save, state_at, text_table,
                                to_networkx, to_svg)

SVG = "{http://www.w3.org/2000/svg}"


def _model(backward=True):
    with events.record() as trace:
        a = torch.tensor(3., requires_grad=True)
        b = torch.tensor(4., requires_grad=True)
        d = a * b + a
        if backward:
            d.backward()
    return GraphModel.from_trace(trace, namespace={"a": a, "b": b, "d": d})


def _texts(svg: str) -> list:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_svg_is_valid_and_shows_nodes_values_grads_and_edge_gradients():
    svg = to_svg(_model())
    texts = _texts(svg)
    for expected in ("a", "b", "MulBackward0", "d", "AccumulateGrad", "AddBackward0", "12", "15", "grad 5",
                     "grad 3", "freed: self other"):
        assert expected in texts, expected
    root = ET.fromstring(svg)
    edge_labels = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "agt-elabel"]
    assert sorted(edge_labels) == ["1", "1", "3", "4"]  # the gradients written on the edges
    assert root.get("role") == "img" and root.find(f"{SVG}title").text.startswith("Computation graph: 4 nodes")
    assert 'text-decoration="line-through"' in svg  # what backward freed is struck out


def test_svg_is_deterministic_and_has_no_addresses():
    first, second = to_svg(_model()), to_svg(_model())
    assert first == second
    assert not re.search(r"0x[0-9a-f]{6,}", first)


def test_leaf_and_non_leaf_differ_by_shape_and_line_style():
    svg = to_svg(_model(backward=False))
    root = ET.fromstring(svg)
    groups = [g for g in root.iter(f"{SVG}g") if g.get("transform", "").startswith("translate(") and
              g.find(f"{SVG}title") is not None]
    leaf, op = groups[0].findall(f"{SVG}rect"), groups[2].findall(f"{SVG}rect")
    assert len(leaf) == 2 and float(leaf[0].get("rx")) == float(leaf[0].get("height")) / 2  # pill, double line
    assert len(op) == 1 and op[0].get("rx") == "4"  # rectangle, single line
    assert leaf[0].get("stroke") != op[0].get("stroke")
    x = torch.tensor(2.)
    w = torch.tensor(1., requires_grad=True)
    assert 'stroke-dasharray="5 3"' in to_svg(GraphModel.from_tensor(w * x))  # a constant: dashed


def test_svg_at_a_replay_step():
    model = _model()
    steps = build_steps(model)
    early = to_svg(model, state_at(model, steps, 2))
    assert "grad None" in _texts(early) and "grad 5" not in _texts(early)
    root = ET.fromstring(early)
    assert ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "agt-elabel"] == ["1", "1"]


def test_text_table_and_html_table():
    model = _model()
    assert text_table(model).splitlines() == [
        "name          kind    operation       value  grad  saved",
        "a             leaf    AccumulateGrad  3      5",
        "b             leaf    AccumulateGrad  4      3",
        "MulBackward0  result  MulBackward0    12           self, other (freed)",
        "d             result  AddBackward0    15",
    ]
    steps = build_steps(model)
    html = html_table(model, state_at(model, steps, 3))
    assert html.startswith('<table class="agt-table"><caption>')
    assert '<th scope="col">grad</th>' in html and '<th scope="row">a</th>' in html
    assert "<td>None</td>" in html and "<td>5</td>" not in html  # in step with the replay
    assert "<td>5</td>" in html_table(model)
    assert text_table(model, limit=2).splitlines()[-1] == "… 2 more nodes"


def test_networkx_export():
    g = to_networkx(_model())
    assert g.number_of_nodes() == 4 and g.number_of_edges() == 4
    labels = dict(g.nodes(data="label"))
    assert {labels[u]: d["grad"] for u, _, d in g.edges(data=True) if labels[u] in ("b",)} == {"b": "3"}
    assert g.nodes[0]["kind"] == "leaf" and g.nodes[0]["grad"] == "5"
    x = torch.tensor(2., requires_grad=True)
    assert to_networkx(GraphModel.from_tensor(x * x)).number_of_edges() == 2  # a multigraph: x * x


def test_matplotlib_drawing_small_and_large(monkeypatch):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    from matplotlib.patches import FancyArrowPatch

    ax = draw(_model())
    texts = [t.get_text() for t in ax.texts]
    assert {"a", "b", "MulBackward0", "d", "grad 5", "4", "3"} <= set(texts)
    plt.close(ax.figure)

    x = torch.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(300):
        y = y * 1.01 + x
    fig, ax = plt.subplots()
    assert draw(GraphModel.from_tensor(y, max_nodes=None), ax=ax) is ax
    assert len(GraphModel.from_tensor(y, max_nodes=None).visible) > 900
    assert not [p for p in ax.patches if isinstance(p, FancyArrowPatch)]  # no per-edge arrow patches
    assert len([c for c in ax.collections if isinstance(c, LineCollection)]) <= 3
    plt.close(fig)


def test_save_svg_and_png(tmp_path):
    pytest.importorskip("matplotlib")
    model = _model()
    svg = save(model, tmp_path / "graph.svg")
    assert svg.read_text().startswith("<svg")
    png = save(model, tmp_path / "graph.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="writes .svg or .png"):
        save(model, tmp_path / "graph.pdf")


def test_torch_tensor_drawn_with_matplotlib_and_svg():
    real = pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    a = real.tensor(3., requires_grad=True)
    b = real.tensor(4., requires_grad=True)
    d = a * b + a
    model = GraphModel.from_tensor(d, namespace={"a": a, "b": b, "d": d})
    texts = _texts(to_svg(model))
    assert {"a", "b", "MulBackward0", "d", "AddBackward0"} <= set(texts)
