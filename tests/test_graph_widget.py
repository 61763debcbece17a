"""GraphWidget without a browser: the traits it sends, its replay, its repr and mimebundle, watch() and show()."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("anywidget")

import autograd_tutor as torch  # noqa: E402
from autograd_tutor import events  # noqa: E402
from autograd_tutor.viz import GraphModel, build_steps, replay_json, summary, tensors_in  # noqa: E402
from autograd_tutor.viz.model import MAX_PASSES  # noqa: E402
from autograd_tutor.viz.history import HISTORY  # noqa: E402
from autograd_tutor.viz.model import STRUCTURE_KINDS  # noqa: E402
from autograd_tutor.widgets import GraphWidget, show, watch  # noqa: E402
from autograd_tutor.widgets import graph as graph_module  # noqa: E402


@pytest.fixture
def widgets():
    made = []
    yield made
    for w in made:
        w.close()


def _labels(w):
    return [n["label"] for n in w.graph["nodes"]]


def test_live_widget_grows_as_code_runs(widgets):
    g = GraphWidget(namespace={})
    widgets.append(g)
    assert g.graph["nodes"] == [] and g.replay["steps"] == []
    a = torch.tensor(3., requires_grad=True)
    b = torch.tensor(4., requires_grad=True)
    g.refresh()
    assert [n["kind"] for n in g.graph["nodes"]] == ["leaf", "leaf"]  # leaves appear as they are made
    positions = [(n["x"], n["y"]) for n in g.graph["nodes"]]
    d = a * b + a
    g._namespace = {"a": a, "b": b, "d": d}
    g.refresh()
    assert _labels(g) == ["a", "b", "MulBackward0", "d"]
    assert [n["y"] for n in g.graph["nodes"][:2]] == sorted(n["y"] for n in g.graph["nodes"][:2])  # a above b
    assert positions[0][1] < positions[1][1]  # as before: nodes may move as the graph grows, in their order
    assert [(e["src"], e["dst"], e["pos"]) for e in g.graph["edges"]] == [(0, 2, 0), (1, 2, 1), (2, 3, 0),
                                                                          (0, 3, 1)]
    assert [n["saved"] for n in g.graph["nodes"]] == [[], [], ["self", "other"], []]
    assert [n["state"] for n in g.graph["nodes"]][2] == "saved"


def test_backward_replay_state(widgets):
    g = GraphWidget(namespace={})
    widgets.append(g)
    a = torch.tensor(3., requires_grad=True)
    b = torch.tensor(4., requires_grad=True)
    d = a * b + a
    d.backward()
    g._namespace = {"a": a, "b": b, "d": d}
    g.refresh()
    assert g.step == len(g.steps) == 6  # the player starts at the end: the final state is visible
    assert [e["grad"] for e in g.graph["edges"]] == ["4", "3", "1", "1"]
    assert [n["grad"] for n in g.graph["nodes"]] == ["5", "3", "", ""]
    assert g.graph["nodes"][2]["state"] == "freed"
    g.step = 2
    assert g.narration == "AddBackward0 passes the gradient 1 unchanged to MulBackward0 and to a."
    assert g.state().edges == {2: "1", 3: "1"}
    g.step = 4
    assert g.narration == "a receives 1 + 4 = 5 and stores it in a.grad, which becomes 5."
    assert "<td>5</td>" in g.table() and "<td>5</td>" not in g.table(step=3)
    steps = g.replay["steps"]
    assert steps[3]["active"] == 0 and steps[3]["total"] == "1 + 4 = 5" and steps[3]["grads"] == [[0, "5"]]
    assert steps[2]["edges"] == [[0, "4"], [1, "3"]] and steps[2]["saved"] == [[2, "freed"]]


def test_a_second_backward_adds_steps_and_accumulates(widgets):
    a = torch.tensor(3., requires_grad=True)
    b = torch.tensor(4., requires_grad=True)
    d = a * b + a
    g = GraphWidget(d, namespace={"a": a, "b": b, "d": d})
    widgets.append(g)
    assert g.steps == [] and g.graph["nodes"][0]["grad"] == ""
    d.backward(retain_graph=True)
    g.refresh()
    assert g.graph["nodes"][2]["state"] == "kept"
    d.backward()
    g.refresh()
    assert len(g.steps) == 12 and g.step == 12
    assert g.steps[9].text == "a receives 1 + 4 = 5 and adds it to a.grad: 5 + 5 = 10."
    assert g.graph["nodes"][0]["grad"] == "10" and g.graph["nodes"][2]["state"] == "freed"


def test_graph_of_a_tensor_ignores_later_unrelated_code(widgets):
    x = torch.tensor(2., requires_grad=True)
    y = x * x
    g = GraphWidget(y, namespace={"x": x, "y": y})
    widgets.append(g)
    z = x + 1  # noqa: F841
    g.refresh()
    assert _labels(g) == ["x", "y"]


def test_repr_is_deterministic_text(widgets):
    a = torch.tensor(3., requires_grad=True)
    b = torch.tensor(4., requires_grad=True)
    d = a * b + a
    d.backward()
    g = GraphWidget(d, namespace={"a": a, "b": b, "d": d})
    widgets.append(g)
    text = repr(g)
    assert text.splitlines() == [
        "GraphWidget: 4 nodes, 4 edges, 6 replay steps",  # the pass that ran before it was drawn
        "name          kind    operation       value  grad  saved",
        "a             leaf    AccumulateGrad  3      5",
        "b             leaf    AccumulateGrad  4      3",
        "MulBackward0  result  MulBackward0                 self, other (freed)",
        "d             result  AddBackward0    15",
    ]
    assert not re.search(r"0x[0-9a-f]+", text)


def test_mimebundle_has_widget_view_static_svg_and_plain_text(widgets):
    x = torch.tensor(2., requires_grad=True)
    y = x * 3
    g = GraphWidget(y, namespace={"x": x, "y": y})
    widgets.append(g)
    data, _ = g._repr_mimebundle_()
    assert set(data) == {"text/plain", "image/svg+xml", "application/vnd.jupyter.widget-view+json"}
    assert data["text/plain"] == repr(g)
    assert data["image/svg+xml"].startswith("<svg") and ">MulBackward0<" in data["image/svg+xml"]
    assert data["image/svg+xml"] == g.to_svg()


def test_watch_records_a_block_and_stops():
    with watch() as g:
        p = torch.tensor(1., requires_grad=True)
        q = (p * 2).exp()
        q.backward()
    try:
        assert _labels(g) == ["p", "MulBackward0", "2", "q"]  # the Python number, from node_created's constants
        assert g.steps and g.steps[-1].text == "Backward pass 1 is done: p.grad = 14.78."
        n = len(g.graph["nodes"])
        r = p * 5  # noqa: F841  after the block: not recorded
        g.refresh()
        assert len(g.graph["nodes"]) == n
    finally:
        g.close()


def test_show_prints_outside_ipython_and_leaves_no_listener(capsys):
    x = torch.tensor(2., requires_grad=True)
    y = x * x
    before = len(events._subscribers)
    show(y)
    out = capsys.readouterr().out
    assert out.startswith("GraphWidget: 2 nodes, 2 edges") and "\nx " in out and "\ny " in out
    assert len(events._subscribers) == before  # a printed drawing must not slow every later backward pass


def test_close_removes_the_subscriptions():
    before = len(events._subscribers)
    g = GraphWidget(namespace={})
    assert len(events._subscribers) == before + len(STRUCTURE_KINDS)  # one per structure kind
    assert g._on_pass in HISTORY._listeners  # the backward passes come from the history
    g.close()
    assert len(events._subscribers) == before and g._on_pass not in HISTORY._listeners


def test_updates_to_the_browser_are_batched(widgets, monkeypatch):
    monkeypatch.setattr(graph_module, "SYNC_INTERVAL", 3600.0)
    g = GraphWidget(namespace={})
    widgets.append(g)
    sent = []
    g.observe(lambda change: sent.append(change["name"]), names=["graph_json"])
    x = torch.tensor(1., requires_grad=True)
    for _ in range(50):
        x = x * 1.1
    assert sent == []  # 50 operations, no message yet: they wait for the interval or the end of the cell
    g.refresh()
    assert sent == ["graph_json"]
    assert [n["kind"] for n in g.graph["nodes"]].count("op") == 50


def test_events_fed_as_they_come_give_the_drawing_of_events_applied_one_by_one(widgets):
    """The widget applies each event as it arrives and formats values when the model is read: until its budget
    is spent it shows what a model fed one event at a time shows, and the JSON it sends is that drawing. Then it
    stops listening to operations and counts the passes that follow (a training loop costs one check per pass).
    Each step takes a new leaf ``x``, so no step repeats another (see test_graph_history for a loop that does)."""
    g = GraphWidget(namespace={}, max_nodes=30)
    widgets.append(g)
    with events.record() as trace:
        w = torch.tensor(0.3, requires_grad=True)
        b = torch.tensor(np.full(80, -0.1), requires_grad=True)
        for i in range(40):
            w.grad = b.grad = None
            x = torch.tensor(np.full(80, 0.01 * i), requires_grad=True)
            loss = ((w * x + b).tanh() - x).pow(2).sum()
            loss.backward(retain_graph=i == 39)
            with torch.no_grad():
                w -= 0.1 * w.grad
                b -= 0.1 * b.grad
        (w * 2).backward()  # past the budget too: counted
    assert g.model.counting and len(g.model.visible) <= 31  # the budget, and a collapsed node
    # a record is an event (a named tuple) until it is made light, then a namespace
    arrays = [v for records in g.model.passes for r in records
              for v in (r if isinstance(r, tuple) else vars(r).values())]
    assert not [a for v in arrays for a in (v if type(v) is tuple else (v,))
                if isinstance(a, np.ndarray) and a.size > 64]  # kept passes hold no big arrays
    namespace = {"w": w, "b": b, "loss": loss}
    g._namespace = namespace
    g.refresh()
    one = GraphModel(max_nodes=30)
    for k, event in enumerate(trace):
        full = one.full
        one.apply(event)
        if event.kind == "node_created" and full:  # the first operation past the budget: folded, then counting
            break
    taken = one.pass_count
    one.grow = False  # what follows only updates what is drawn: the pass through the half-drawn step
    for event in trace[k + 1:]:
        one.apply(event)
    later = [e for e in trace[k:] if e.kind == "backward_finished"]
    one.set_names(tensors_in(namespace))
    assert one.pass_count == taken + 1  # the step being drawn when the budget ran out is taken, the rest counted
    assert g.model.counted[0] == len(later) - 1 > 1 and g.model.counted[1] > 0
    assert g.graph == dict(one.snapshot(), counted=g.model.counted)
    assert g.graph_json == json.dumps(g.graph, separators=(",", ":"))
    assert g.replay == dict(replay_json(one, build_steps(one)), note="")
    assert [(e.src, e.dst, e.count) for e in g.model.edges] == [(e.src, e.dst, e.count) for e in one.edges]


def test_save_draw_networkx(widgets, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    x = torch.tensor(2., requires_grad=True)
    y = x * x
    g = GraphWidget(y, namespace={"x": x, "y": y})
    widgets.append(g)
    assert g.save(tmp_path / "g.svg").read_text() == g.to_svg()
    assert g.save(tmp_path / "g.png").stat().st_size > 1000
    assert g.to_networkx().number_of_edges() == 2
    assert "x" in [t.get_text() for t in g.draw().texts]


def test_widget_for_a_torch_tensor(widgets):
    real = pytest.importorskip("torch")
    x = real.tensor(2., requires_grad=True)
    y = (x * x).sin()
    g = GraphWidget(y, namespace={"x": x, "y": y})
    widgets.append(g)
    assert _labels(g) == ["x", "MulBackward0", "y"]
    assert g.graph["nodes"][2]["sub"] == "SinBackward0"


def test_importing_the_package_stays_light():
    code = ("import sys, autograd_tutor; bad = [m for m in ('ipywidgets', 'anywidget', 'matplotlib', 'networkx', "
            "'autograd_tutor.viz', 'autograd_tutor.widgets') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    code = "import sys, autograd_tutor.viz; print([m for m in ('ipywidgets', 'matplotlib') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_split_is_one_node_that_joins_the_gradients_of_its_pieces():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    with events.record() as trace:
        a, b, c = x.split([1, 1, 2])
        loss = (a * 2).sum() + (c ** 2).sum()
        loss.backward()
    names = {"x": x, "a": a, "b": b, "c": c, "loss": loss}
    for model in (GraphModel.from_trace(trace, namespace=names), GraphModel.from_tensor(loss, namespace=names)):
        split = model.find("SplitWithSizesBackward0")  # no piece's name or value stands for the whole split
        assert split.value is None and [model.node(e.src).label for e in model.edges_into(split.key)] == ["x"]
        assert sorted(e.position for e in model.edges_from(split.key)) == [0, 0]
    steps = [s.text for s in build_steps(GraphModel.from_trace(trace, namespace=names))]
    assert ("SplitWithSizesBackward0 joins the gradients of its 3 outputs, 2, nothing and [6, 8], and sends "
            "[2, 0, 6, 8] to x.") in steps
    assert "PowBackward0 sends [6, 8] to SplitWithSizesBackward0, then frees its saved self." in steps
