"""Module groups (viz/groups.py, the module_entered / module_left events) and heatmaps (viz/heat.py)."""
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograd_tutor as torch
from autograd_tutor import events, nn
from autograd_tutor.viz import GraphModel, to_svg
from autograd_tutor.viz.boxes import node_size
from autograd_tutor.viz.format import Value
from autograd_tutor.viz.groups import CALLS, ModuleCalls, module_names, module_text
from autograd_tutor.viz.heat import LABEL_HEAT, heat_of, heats_of

sys.path.insert(0, str(Path(__file__).parent))
import viz_suite  # noqa: E402


def _mlp(widths=(2, 16, 16, 1)):
    torch.manual_seed(0)
    layers = []
    for a, b in zip(widths, widths[1:]):
        layers += [nn.Linear(a, b), nn.Tanh()]
    return nn.Sequential(*layers[:-1])


# ------------------------------------------------------------------ the events
def test_a_module_call_is_announced_only_while_someone_listens():
    lin = nn.Linear(2, 3)
    with events.record(kinds=["node_created"]) as trace:
        lin(torch.ones(1, 2))
    assert [e.kind for e in trace] == ["node_created", "node_created"]  # no module event was even built
    x = torch.ones(1, 2)
    with events.record() as trace:
        y = lin(x)
    kinds = [e.kind for e in trace]
    assert kinds[0] == "module_entered" and kinds[-1] == "module_left"
    entered, left = trace[0], trace[-1]
    assert entered.module_id == left.module_id == id(lin)
    assert entered.type_name == "Linear"
    assert entered.mark < y.grad_fn._id < left.mark and entered.mark < y._id < left.mark


def test_a_module_that_raises_still_leaves():
    class Broken(nn.Module):
        def forward(self, x):
            raise ValueError("no")
    with events.record(kinds=["module_entered", "module_left"]) as trace:
        with pytest.raises(ValueError, match="no"):
            Broken()(torch.ones(1))
    assert [e.kind for e in trace] == ["module_entered", "module_left"]


def test_nested_calls_are_recorded_inside_out():
    calls = ModuleCalls()
    calls.start()
    try:
        model = _mlp((2, 3, 1))
        model(torch.ones(1, 2))
        assert calls.busy is None
    finally:
        calls.stop()
    names = [(c.type_name, c.nested) for c in sorted(calls.since(0), key=lambda c: c.end)]
    assert names == [("Linear", False), ("Tanh", False), ("Linear", False), ("Sequential", True)]


def test_since_finds_the_calls_of_a_window_among_a_training_loops_later_ones():
    """since() reads the record from a bisection and stops at the first outermost call past the window: the
    same calls as filtering the whole record, also for a call that holds the window's end, and for an outer call
    in progress through the whole loop (it ends last of all)."""
    calls = ModuleCalls()
    calls.start()

    class Outer(nn.Module):  # a module whose call runs a whole loop of inner calls
        def __init__(self):
            super().__init__()
            self.inner = _mlp((2, 3, 1))

        def forward(self, x):
            return [self.inner(x) for _ in range(20)][-1]

    try:
        model = _mlp((2, 3, 1))
        for _ in range(30):
            model(torch.ones(1, 2))
        Outer()(torch.ones(1, 2))
    finally:
        calls.stop()
    everything = calls.since(-1)
    assert len(everything) == 30 * 4 + 20 * 4 + 1
    marks = sorted({c.start for c in everything} | {c.end for c in everything})
    for low in marks[::7]:
        for high in [None] + marks[::11]:
            expected = [c for c in everything if c.end > low and (high is None or c.start < high)]
            assert calls.since(low, high) == expected, (low, high)


# ------------------------------------------------------------------ names
def test_module_text_is_the_repr_first_line_without_defaults():
    assert module_text("Linear", "in_features=2, out_features=16, bias=True") == "Linear(2 -> 16)"
    assert module_text("Linear", "in_features=2, out_features=16, bias=False") == "Linear(2 -> 16, bias=False)"
    assert module_text("Conv2d", "1, 2, kernel_size=(3, 3), stride=(1, 1)") == "Conv2d(1 -> 2, kernel_size=(3, 3))"
    assert module_text("MaxPool2d", "kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False") == \
        "MaxPool2d(kernel_size=2, stride=2)"
    assert module_text("Tanh", "") == "Tanh()"
    lin = nn.Linear(2, 16)
    assert module_text("Linear", lin.extra_repr()) == "Linear(2 -> 16)"


def test_module_names_are_the_learners():
    model = _mlp()
    first = model[0]
    names = module_names({"model": model, "first": first, "_hidden": model, "n": 3}.items())
    assert names[id(model)] == ("model", model) and names[id(model[2])] == ("model.2", model[2])
    assert names[id(first)] == ("first", first)  # a variable of its own comes first


# ------------------------------------------------------------------ grouping
def _grouped(build, namespace_of, expanded=None):
    with events.record() as trace:
        out, namespace = build()
    model = GraphModel.from_trace(trace, namespace=namespace)
    return model, model.snapshot(expanded=expanded), out


def test_each_child_of_a_sequential_is_a_group_with_its_parameters():
    def build():
        model = _mlp()
        X = torch.randn(4, 2)
        loss = model(X).pow(2).mean()
        return loss, {"model": model, "X": X, "loss": loss}
    m, snap, _ = _grouped(build, None, expanded=())
    labels = [g["label"] for g in snap["groups"]]
    assert labels == ["model.0 · Linear(2 -> 16)", "model.2 · Linear(16 -> 16)", "model.4 · Linear(16 -> 1)"]
    inside = {m.visible[i].label for i in snap["groups"][0]["members"]}
    assert inside == {"model.0.weight", "model.0.bias", "TBackward0", "AddmmBackward0"}
    assert "inside" not in snap["nodes"][m.find("X").index]  # the data is not the module's
    assert "inside" not in snap["nodes"][m.find("TanhBackward0").index]  # a group of one node stays that node
    for e in snap["edges"]:  # an edge inside a closed group is not drawn; the others are routed to its box
        src, dst = snap["nodes"][e["src"]], snap["nodes"][e["dst"]]
        same = "inside" in src and src.get("inside") == dst.get("inside")
        assert (e["path"] == "") == same


def test_a_custom_model_groups_its_children_and_keeps_its_own_ops():
    model, _ = viz_suite.build("custom_module_groups")
    snap = model.snapshot(expanded=())
    assert [g["label"] for g in snap["groups"]] == [f"net.{n} · Block()" for n in ("first", "second", "third",
                                                                                  "fourth")]
    add = [n for n in model.visible if n.op == "AddBackward0"]
    assert add and "inside" not in snap["nodes"][add[0].index]  # the residual add is the model's own


def test_a_top_level_layer_groups_what_it_made():
    def build():
        torch.manual_seed(0)
        conv = nn.Conv2d(1, 2, 3)
        y = conv(torch.randn(1, 1, 5, 5)).sum()
        return y, {"conv": conv, "y": y}
    m, snap, _ = _grouped(build, None, expanded=())
    assert [g["label"] for g in snap["groups"]] == ["conv · Conv2d(1 -> 2, kernel_size=(3, 3))"]


def test_groups_open_up_to_30_nodes_and_close_beyond():
    small, _ = viz_suite.build("mlp_groups")
    assert len(small.visible) <= 30 and all(g["expanded"] for g in small.snapshot()["groups"])
    big, _ = viz_suite.build("deep_mlp_groups")
    snap = big.snapshot()
    assert len(big.visible) > 30 and not any(g["expanded"] for g in snap["groups"])
    drawn = [n for n in snap["nodes"] if "inside" not in n]
    assert len(drawn) + len(snap["groups"]) <= 30  # with its groups closed, the drawing is small again
    opened = big.snapshot(expanded=[0])["groups"]
    assert opened[0]["expanded"] and len(opened[0]["frame"]) == 4 and not opened[1]["expanded"]


def test_static_svg_shows_closed_groups_and_says_how_to_open_them():
    big, _ = viz_suite.build("deep_mlp_groups")
    svg = to_svg(big)
    assert ">model.0 · Linear(2 -&gt; 8)<" in svg and "press Enter" in svg and "module call" in svg
    small, _ = viz_suite.build("mlp_groups")
    svg = to_svg(small)  # open groups: its nodes, each group's framed, no closed box and no note about them
    assert "its nodes in one box" not in svg and "drawn as one box" not in svg
    assert ">model.0.weight<" in svg and ">AddmmBackward0<" in svg and svg.count('class="agt-frame"') == 3


def test_the_replay_lights_the_closed_group_of_the_node_that_runs():
    from autograd_tutor.viz import build_steps, state_at
    big, _ = viz_suite.build("deep_mlp_groups")
    steps = build_steps(big)
    addmm = big.find("AddmmBackward0")
    at = next(i for i, s in enumerate(steps, 1) if state_at(big, steps, i).active == addmm.key)
    svg = to_svg(big, state_at(big, steps, at))
    assert svg.count(f'stroke="{"#000000"}" stroke-width="3"/>') == 1  # one box lit: the group's


def test_show_after_backward_groups_from_the_session_record():
    """Lesson 6's order: run the model, backward, then draw: the calls were recorded (CALLS, started with the
    widgets), so the drawing made from the tensor groups."""
    pytest.importorskip("anywidget")
    from autograd_tutor.widgets import GraphWidget
    assert CALLS._subscriptions
    model = _mlp()
    X = torch.randn(4, 2)
    loss = model(X).pow(2).mean()
    loss.backward()
    widget = GraphWidget(loss, namespace={"model": model, "X": X, "loss": loss})
    try:
        groups = widget.graph["groups"]
        assert [g["label"] for g in groups][:1] == ["model.0 · Linear(2 -> 16)"] and groups[0]["expanded"]
        widget.set_state({"expanded": []})  # the browser closed them all
        assert not any(g["expanded"] for g in widget.graph["groups"])
        assert any("inside" in n for n in json.loads(widget.graph_json)["nodes"])
        widget.set_state({"expanded": ["x", -1]})  # refused: not group indices
        assert widget.expanded == []
    finally:
        widget.close()


# ------------------------------------------------------------------ heatmaps
def test_a_large_value_keeps_a_grid_and_its_first_numbers():
    a = np.arange(200, dtype=np.float32).reshape(20, 10) - 100
    v = Value.of(a)
    rows, cols, samples = v.grid
    assert (rows, cols) == (6, 10) and samples[0] == -100 and samples[-1] == 99
    assert v.text == "(20, 10) [-100, -99, -98, …]"  # the text is what it was
    assert v.numbers.startswith("-100, -99") and v.numbers.endswith("(the first 32 of 200)")
    assert Value.of(np.ones(6)).grid is None  # a few numbers stay a list


def test_heat_levels_are_signed_and_scaled():
    heat = heat_of((1, 3, (-4.0, 0.0, 4.0)))
    assert heat["cells"] == "048" and (heat["w"], heat["h"]) == (18, 6)
    assert heat_of((1, 2, (float("nan"), 1.0)))["cells"] == "48"
    assert heat_of((1, 3, (float("inf"), 1.0, -2.0)))["cells"] == "444"  # an infinity: the others are 0 beside it
    assert heat_of(None) is None


_GRIDS = st.lists(st.floats(allow_nan=True, allow_infinity=True, width=32), min_size=1, max_size=12).map(
    lambda xs: (1, len(xs), tuple(xs))) | st.none()


@given(st.lists(st.tuples(_GRIDS, st.sampled_from([LABEL_HEAT, (96, 24)])), max_size=8))
@settings(max_examples=60, deadline=None)
def test_the_heatmaps_of_a_replay_made_at_once_are_each_made_alone(wanted):
    """heats_of computes the levels of many grids in one pass: each grid's scale is its own largest number."""
    together = heats_of(wanted)
    assert together == [heats_of([w])[0] for w in wanted]
    for heat, (grid, _) in zip(together, wanted):
        if grid is not None:
            finite = [x for x in grid[2] if x == x]
            top = max(map(abs, finite), default=0.0) or 1.0
            assert heat["cells"] == "".join(
                "4" if x != x or top == float("inf") else str(int(min(8, max(0, np.rint(4 + 4 * x / top)))))
                for x in grid[2])


def test_a_heatmap_makes_room_in_its_box_and_shows_its_shape():
    node = {"kind": "op", "label": "h", "sub": "TanhBackward0", "value": "(4, 16) [0.1, 0.2, 0.3, …]", "grad": "",
            "saved": [], "hidden": 0}
    _, plain_h, _ = node_size(node, 1)
    heat = heat_of(Value.of(np.linspace(-1, 1, 64).reshape(4, 16)).grid)
    _, h, _ = node_size(dict(node, heat=heat), 1)
    assert h == plain_h + heat["h"] + 4
    model, _ = viz_suite.build("mlp_step")
    svg = to_svg(model)
    weight = model.find("model.2.weight")
    assert weight.value.grid is not None and ">(16, 16)<" in svg and 'fill="#542788"' in svg or 'fill="#B35806"' in svg
    assert "value (16, 16) [-0.1109, -0.009021" in svg  # the exact numbers, in the node's title


# ------------------------------------------------------------------ narration
@pytest.mark.parametrize("name", ["mlp_groups", "deep_mlp_groups", "custom_module_groups", "cnn_groups"])
def test_narration_names_big_tensors_by_shape_and_keeps_every_number_one_click_away(name):
    """Issue 13: no sentence holds a cut list; a tensor of more than 6 numbers is named by its shape, and the
    full sentence (``Step.full``, behind the widget's disclosure button) has the numbers the drawing kept."""
    from autograd_tutor.viz import build_steps, replay_json
    model, _ = viz_suite.build(name)
    steps = build_steps(model)
    cut = [s.text for s in steps if "…" in s.text and s.kind not in ("summary", "gap")]
    assert steps and not cut
    big = [s for s in steps if " tensor" in s.text and s.full]
    assert big, "no sentence names a big tensor by its shape"
    for s in big:
        lists = re.findall(r"\[([^\]]*)\]", s.text)
        assert s.text.endswith(".") and all(part.count(",") < 6 for part in lists), s.text
        assert "[" in s.full and "a (" not in s.full  # the full one spells the numbers out
    finish = steps[-1]
    assert finish.kind == "finish" and ".grad is a (" in finish.text
    assert finish.full.count(".grad = ") == len([s for s in steps if s.kind == "accumulate" and s.grads])
    assert replay_json(model, steps)["steps"][-1]["full"] == finish.full


def test_matplotlib_draws_closed_groups_and_heatmaps():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from autograd_tutor.viz import draw
    big, _ = viz_suite.build("deep_mlp_groups")
    ax = draw(big)
    texts = {t.get_text() for t in ax.texts}
    assert "model.0 · Linear(2 -> 8)" in texts and "model.0.weight" not in texts  # inside its closed box
    assert ax.images  # the heatmaps of the (4, 8) activations
    plt.close(ax.figure)


@pytest.mark.parametrize("name", sorted(viz_suite.GROUPED))
def test_a_frame_is_no_taller_than_its_boxes_stacked(name):
    """Frames that share columns lie one below the other, each whole: a frame is at most as tall as its boxes
    stacked in one column (the LayerNorm frame of norm_groups was 800 px tall for 3 boxes: only the ranks in
    the way had moved down)."""
    from autograd_tutor.viz.layered import FRAME_BOTTOM, FRAME_TOP, NODE_SEP
    model, _ = viz_suite.build(name)
    snap = model.snapshot()
    for g in snap["groups"]:
        if not g["expanded"]:
            continue
        boxes = [snap["nodes"][i] for i in g["members"]]
        stacked = sum(b["h"] for b in boxes) + NODE_SEP * (len(boxes) - 1) + FRAME_TOP + FRAME_BOTTOM
        assert g["frame"][3] - g["frame"][1] <= stacked + 1, (g["label"], g["frame"], stacked)
