"""The geometry of the static SVG on a suite of graphs (tests/viz_suite.py), measured the way a reader sees it.

For each graph the SVG is parsed and measured: no edge passes through a node box, every text fits inside its
box (a pill's rounded ends included; widths from matplotlib's FreeType, not from our table), no two texts
overlap and no edge label covers a node or an edge, nothing lies outside the viewBox, and there are no more
crossings than Graphviz ``dot`` draws on the same nodes (same box sizes) and edges, each edge entering its
input's port, each open module group a dot cluster (a frame, as ours: with frames that hold exactly their nodes,
the MLP step needs 3 crossings in dot as in ours). An open group's frame holds exactly its own nodes, two groups' frames are
disjoint (or nested), and every
other node keeps clear of it. dot is not a test dependency: its counts were measured by ``python benchmarks/viz.py --only 6
--write-dot`` and committed in tests/data/dot_geometry.json; the test checks that they belong to the same
graphs (node and edge counts).
"""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import viz_suite  # noqa: E402

from autograd_tutor.viz import metrics, to_svg  # noqa: E402

DOT = json.loads((Path(__file__).parent / "data" / "dot_geometry.json").read_text())


def test_the_suite_has_what_the_issue_asks_for():
    assert len(viz_suite.SUITE) >= 10
    sizes = {name: viz_suite.build(name)[0] for name in ("random_dag", "skip_connection")}
    assert len(sizes["random_dag"].visible) >= 50
    assert len(sizes["skip_connection"].visible) >= 30  # a skip over 16 ops and their constants


@pytest.mark.parametrize("name", list(viz_suite.SUITE) + list(viz_suite.GROUPED))
def test_static_svg_geometry(name):
    model, _ = viz_suite.build(name)
    counts = viz_suite.measure_svg(to_svg(model))
    details = counts.pop("details")
    assert counts["through_nodes"] == 0
    assert counts["overflows"] == 0, details["overflows"]
    assert counts["overlaps"] == 0, details["overlaps"]
    assert counts["outside"] == 0
    assert counts["frames_cut"] == 0, details["frames"]  # nodes outside a group do not intersect its frame
    assert counts["frames_crossed"] == 0, details["crossed"]  # frames are disjoint or nested, never overlapping
    open_groups = [g for g in model.snapshot().get("groups", ()) if g["expanded"]]
    assert [(t, inside) for t, inside, _ in details["frames"]] == [  # a frame holds exactly its own nodes
        (g["tab_text"] + " ▾", len(g["members"])) for g in open_groups]
    dot = DOT[name]
    assert (counts["nodes"], counts["edges"]) == (dot["nodes"], dot["edges"])  # the graph dot was given
    assert counts["crossings"] <= dot["crossings"], (counts["crossings"], dot)


def test_open_groups_are_framed_in_the_static_svg():
    """GitHub and nbviewer show the static SVG: an open module group is a frame there too, named as the
    learner knows it, around exactly its nodes (lesson 7's image ``X`` stays outside the conv frame)."""
    for name, wanted in (("mlp_groups", "model.0 · Linear(2 -&gt; 16) ▾"),
                         ("cnn_groups", "model.0 · Conv2d(1 -&gt; 2, kernel_size=(3, 3)) ▾")):
        model, _ = viz_suite.build(name)
        svg = to_svg(model)
        assert svg.count('class="agt-frame"') == len(model.snapshot()["groups"]) >= 2
        assert f">{wanted}</text>" in svg


def test_the_ruler_sees_a_frame_over_another_node():
    """The frame check is not blind: a frame grown over its neighbours is found."""
    model, _ = viz_suite.build("cnn_groups")
    snap = model.snapshot()
    x0, y0, x1, y1 = snap["groups"][0]["frame"]
    svg = to_svg(model)
    grown = svg.replace(f'<rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}"',
                        f'<rect x="{x0:g}" y="{y0 - 200:g}" width="{x1 - x0 + 300:g}" height="{y1 - y0 + 400:g}"', 1)
    assert grown != svg
    counts = viz_suite.measure_svg(grown)
    inside = counts["details"]["frames"][0][1]
    assert counts["frames_cut"] > 0 or inside > len(snap["groups"][0]["members"])


def test_the_ruler_sees_broken_drawings():
    """The measurement is not blind: a node moved onto another, an edge through a box, a text too wide."""
    model, _ = viz_suite.build("flagship")
    svg = to_svg(model)
    snap = model.snapshot()
    a, mul = snap["nodes"][0], snap["nodes"][2]
    moved = svg.replace(f'translate({mul["x"] - mul["w"] / 2:g},{mul["y"] - mul["h"] / 2:g})',
                        f'translate({a["x"] - a["w"] / 2 + 20:g},{a["y"] - a["h"] / 2:g})')
    counts = viz_suite.measure_svg(moved)
    assert counts["through_nodes"] > 0 and counts["overlaps"] > 0
    wide = svg.replace(">MulBackward0<", ">MulBackward0MulBackward0<")
    assert viz_suite.measure_svg(wide)["overflows"] == 1


def test_the_font_table_is_the_fonts():
    """The widths the layout sizes boxes with are DejaVu Sans's own, read again with matplotlib."""
    for text in ("MaxPool2DWithIndicesBackward0", "grad [45, 54, 81, 90]", "model.0.weight", "-0.0000"):
        for bold in (False, True):
            ours = metrics.text_width(text, 12, bold)
            assert abs(ours - viz_suite.text_width(text, 12, bold)) <= 0.03 * ours + 1


def test_whole_texts_are_shown():
    for name, wanted in (("max_pool", "MaxPool2DWithIndicesBackward0"), ("four_numbers", "grad [45, 54, 81, 90]")):
        model, _ = viz_suite.build(name)
        assert f">{wanted}<" in to_svg(model)


def _quiz_diagrams():
    from autograd_tutor.quiz import bank_names, load_bank
    from autograd_tutor.widgets import QuizWidget
    found = [q.diagram for name in bank_names() for q in load_bank(name).questions if q.kind == "classify"]
    loss, _ = viz_suite.mlp_step()
    found += [q.diagram for q in QuizWidget.from_tensor(loss).quiz.questions if q.kind == "classify"]
    return found


def test_quiz_diagrams_use_the_layout_and_no_edge_runs_through_a_tensor():
    """The "classify the tensors" diagrams are laid out by the drawings' layout: an edge only touches its ends
    (a diagram once drew ``b -> y`` through ``z``)."""
    from autograd_tutor.quiz.model import NODE_H, NODE_W
    diagrams = _quiz_diagrams()
    assert diagrams
    for d in diagrams:
        boxes = {i: (x, y, x + NODE_W, y + NODE_H) for i, (x, y) in d["at"].items()}
        for (a, b, _), path in zip(d["edges"], d["paths"]):
            if a not in boxes or b not in boxes:
                continue
            line = viz_suite.cubic_points(path)
            others = [box for i, box in boxes.items() if i not in (a, b)]
            assert viz_suite.through_nodes([line], others) == 0, (a, b)
            assert all(0 <= x <= d["width"] and 0 <= y <= d["height"] for x, y in line)


def _drawn_texts(svg: str) -> list:
    """Every text a reader sees in the drawing (not the tooltips)."""
    import xml.etree.ElementTree as ET
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(viz_suite.SVG + "text")]


@pytest.mark.parametrize("name", list(viz_suite.SUITE) + list(viz_suite.GROUPED))
def test_no_row_or_label_is_a_cut_list_of_numbers(name):
    """Either all the numbers fit, or the tensor is its shape and a heatmap: nothing reads ``[45, 54, …``."""
    model, _ = viz_suite.build(name)
    cut = [t for t in _drawn_texts(to_svg(model)) if "[" in t and "…" in t]
    assert not cut


def test_large_gradients_are_heatmaps_with_their_shape_and_the_numbers_in_a_tooltip():
    """The MLP step (recorded with its pass, so its edges carry their gradients): the (16, 2) weight's gradient
    row says ``grad (16, 2)`` over a heatmap, the edge into it is labelled ``(16, 2)`` beside a small heatmap
    whose tooltip holds the numbers; a 6-number value is whole."""
    import xml.etree.ElementTree as ET
    model, _ = viz_suite.build("mlp_groups")
    svg = to_svg(model)
    root = ET.fromstring(svg)
    weight = next(g for g in root.iter(viz_suite.SVG + "g")
                  if any("".join(t.itertext()) == "model.0.weight" for t in g.findall(viz_suite.SVG + "text")))
    texts = ["".join(t.itertext()) for t in weight.findall(viz_suite.SVG + "text")]
    assert "grad (16, 2)" in texts
    heats = [h for h in weight.findall(viz_suite.SVG + "g") if h.find(viz_suite.SVG + "path") is not None]
    assert len(heats) == 2  # the value's and the gradient's
    grad = model.snapshot()["nodes"][0]
    assert weight.find(viz_suite.SVG + "title").text.count(grad["gnumbers"].split(",")[0]) >= 1
    labels = [g for g in root.iter(viz_suite.SVG + "g") if g.get("class") == "agt-lheat"]
    assert any(g.find(viz_suite.SVG + "title").text.startswith("gradient (16, 2): ") for g in labels)
    from autograd_tutor.viz.format import summary
    import numpy as np
    assert summary(np.arange(6.0)) == "[0, 1, 2, 3, 4, 5]"


def test_the_ruler_sees_two_frames_overlapping():
    """The frames check is not blind: a frame moved onto its neighbour's corner (lesson 6 once drew model.2's
    frame over model.0's) is counted, and a frame nested in another is not."""
    model, _ = viz_suite.build("mlp_groups")
    frames = [g["frame"] for g in model.snapshot()["groups"]]
    svg = to_svg(model)
    (x0, y0, x1, y1), (u0, v0, _, _) = frames[0], frames[1]
    rect = f'<rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}"'
    assert rect in svg and viz_suite.measure_svg(svg)["frames_crossed"] == 0
    corner = svg.replace(rect, f'<rect x="{u0 - 40:g}" y="{v0 - 40:g}" width="{x1 - x0:g}" height="{y1 - y0:g}"', 1)
    assert viz_suite.measure_svg(corner)["frames_crossed"] >= 1
    nested = svg.replace(rect, f'<rect x="{u0 + 2:g}" y="{v0 + 2:g}" width="4" height="4"', 1)
    assert viz_suite.measure_svg(nested)["frames_crossed"] == 0


def test_an_edge_label_keeps_room_for_its_gradients_shape_not_for_the_widest_number():
    """An op's value is not kept, so an edge out of it keeps room for the widest number; once its gradient is
    known to be a tensor drawn by its shape, every gradient the replay writes there reads that shape: the
    MLP step's (4, 16) labels take what "(4, 16)" and its heatmap take, as if the source's value were known
    (lesson 6's drawing: 3,499 -> 3,339 px wide)."""
    pytest.importorskip("anywidget")
    import autograd_tutor as torch
    from autograd_tutor import nn
    from autograd_tutor.viz.boxes import label_size, label_heat_w
    from autograd_tutor.widgets import GraphWidget
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
    loss = net(torch.ones(4, 2)).pow(2).mean()
    loss.backward()  # drawn afterwards, from the tensor (and its pass): the ops' values are not kept
    widget = GraphWidget(loss, namespace={"net": net, "loss": loss})
    snap = widget.graph
    widget.close()
    nodes = snap["nodes"]
    out_of_ops = [e for e in snap["edges"] if e.get("heat") and not nodes[e["src"]]["value"]]
    assert out_of_ops
    for e in out_of_ops:
        shape = e["grad"].split(" [")[0]
        assert label_size(e["grad"], "", e["heat"]["w"]) == label_size(e["grad"], e["grad"], e["heat"]["w"])
        assert label_size(e["grad"], "", e["heat"]["w"])[0] < label_size("", "", e["heat"]["w"])[0], shape
        assert label_heat_w(e, nodes[e["src"]]) == e["heat"]["w"]
