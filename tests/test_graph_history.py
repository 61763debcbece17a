"""Every drawing replays its own last pass, also when drawn after ``backward()``; the node budget bounds what a
drawing syncs and saves (nodes, SVG, replay), however big the graph and its pass."""
from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("anywidget")

import autograd_tutor as torch  # noqa: E402
from autograd_tutor import nn, optim  # noqa: E402
from autograd_tutor.viz import to_svg  # noqa: E402
from autograd_tutor.viz.format import Value  # noqa: E402
from autograd_tutor.viz.history import HEAD, HISTORY, TAIL, History  # noqa: E402
from autograd_tutor.viz.replay import MAX_STEPS  # noqa: E402
from autograd_tutor.widgets import GraphWidget  # noqa: E402


@pytest.fixture
def widgets():
    made = []
    yield made
    for w in made:
        w.close()


def drawn(widgets, tensor, **names) -> GraphWidget:
    g = GraphWidget(tensor, namespace=names)
    widgets.append(g)
    return g


def test_the_widgets_start_the_history():
    assert HISTORY.listening


def test_a_drawing_made_after_backward_replays_that_pass(widgets):
    """Lesson 3's chain: compute, backward, then draw: the 14 / 28 / 42 of the text can be stepped through."""
    x = torch.tensor(2.0, requires_grad=True)
    w = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    z = w * x
    y = z + b
    loss = y ** 2
    loss.backward()
    g = drawn(widgets, loss, x=x, w=w, b=b, z=z, y=y, loss=loss)
    texts = [s.text for s in g.steps]
    assert texts[0] == "Backward pass 1 starts at loss with the gradient 1 (∂loss/∂loss = 1)."
    assert texts[-1] == "Backward pass 1 is done: b.grad = 14, w.grad = 28, x.grad = 42."
    assert g.step == len(g.steps) and "replay steps" in repr(g) and "0 replay steps" not in repr(g)
    state = g.state(0)
    assert state.grads[g.model.find("x").key] == "None"  # before the pass: the start state is the pass's own


def test_a_custom_function_drawn_afterwards_replays_5_12_60(widgets):
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return grad_output * 3 * x ** 2

    x = torch.tensor(2.0, requires_grad=True)
    y = Cube.apply(x) * 5
    y.backward()
    g = drawn(widgets, y, x=x, y=y)
    text = " ".join(s.text for s in g.steps)
    assert "5" in text and "60" in text and "x.grad = 60" in g.steps[-1].text


def test_a_pass_of_another_graph_sharing_only_the_leaves_never_takes_over(widgets):
    """Lesson 6: draw the loss of 4 samples with its pass, then train on new graphs: the drawing keeps its own
    pass and says once that the parameters' .grad changed since."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    opt = optim.SGD(model.parameters(), lr=0.1)
    X, Y = torch.randn(8, 2), torch.randn(8, 1)
    loss = nn.MSELoss()(model(X[:4]), Y[:4])
    loss.backward()
    g = drawn(widgets, loss, loss=loss)
    mine = [s.text for s in g.steps]
    assert mine[0].startswith("Backward pass 1 starts at loss") and g.model.note == ""
    for _ in range(5):
        opt.zero_grad()
        nn.MSELoss()(model(X), Y).backward()
        opt.step()
    g.refresh()
    assert [s.text for s in g.steps] == mine  # still its own pass, not a training step on (8, 4) tensors
    assert g.model.note.startswith("The leaves' .grad changed since") and g.replay["note"] == g.model.note
    assert repr(g).count("changed since") == 1  # said once


def test_a_pass_through_the_drawing_that_starts_outside_it_is_its_pass(widgets):
    a = torch.tensor(3.0, requires_grad=True)
    y = a * 2
    g = drawn(widgets, y, a=a, y=y)
    (y * 5).backward()
    g.refresh()
    assert "starts outside this drawing" in g.steps[0].text and g.model.note == ""


def test_the_history_keeps_a_long_pass_bounded():
    history = History(keep=2)
    history.start()
    try:
        x = torch.tensor(0.5, requires_grad=True)
        y = x
        for _ in range(HEAD + TAIL):  # each op gives at least a node_executed and a gradient_flowed
            y = y * 1.0
        y.backward()
        for _ in range(3):
            (x * 2).backward()
    finally:
        history.stop()
    assert len(history.passes) == 2 and history.count == 4
    assert history.passes[-1].number == 4
    long = History(keep=1)
    long.start()
    try:
        z = x
        for _ in range(HEAD + TAIL):
            z = z * 1.0
        z.backward()
    finally:
        long.stop()
    record = long.passes[0]
    assert record.dropped > 0 and len(record.events) == HEAD + TAIL + 3  # started, head, gap, tail, finished
    assert record.events[HEAD + 1].kind == "events_dropped" and record.events[HEAD + 1].count == record.dropped
    assert abs(record.ran - (HEAD + TAIL)) <= 3  # the nodes that ran, those in the gap estimated


def test_a_new_kind_of_op_past_the_budget_folds_instead_of_growing():
    """300 `* c` then 10,000 `tanh()`: the chain of tanh folds into one collapsed node (it gave 10,401 nodes)."""
    x = torch.tensor(0.1, requires_grad=True)
    y = x
    for _ in range(300):
        y = y * 1.001
    for _ in range(10_000):
        y = y.tanh()
    g = GraphWidget(y, namespace={}, live=False)
    try:
        assert len(g.graph["nodes"]) <= 400 + 30
        assert g.model.hidden >= 10_000 - 400
    finally:
        g.close()


def _chain(ops: int, shape: tuple = ()):
    """A graph of ``ops`` operations mixing kinds (mul by a tensor constant, add, tanh) on tensors of ``shape``,
    and its backward pass."""
    x = torch.tensor(np.full(shape, 0.3), requires_grad=True)
    c = torch.tensor(np.full(shape, 0.999))
    y = x
    for i in range(ops // 3):
        y = (y * c + 0.001).tanh()
    (y.sum() if shape else y).backward()
    return y


def _saved_size(widget) -> dict:
    """What a saved notebook keeps of a widget: its state (every synced trait) and its output's mimebundle."""
    state = widget.get_state()
    data, _ = widget._repr_mimebundle_()
    sizes = {"graph_json": len(state["graph_json"]), "replay_json": len(state["replay_json"]),
             "svg": len(data["image/svg+xml"]), "text": len(data["text/plain"])}
    sizes["total"] = len(json.dumps(state, default=str)) + len(json.dumps(data))
    return sizes


@pytest.mark.parametrize("make", ["show", "live"])
def test_the_saved_size_does_not_grow_with_the_graph(make, widgets):
    """10,000 and 100,000 operations and their pass, drawn after backward() or live: the same bounded size, far
    under 2 MB."""
    sizes = {}
    for ops in (10_000, 100_000):
        if make == "show":
            y = _chain(ops)
            g = drawn(widgets, y, y=y)
        else:
            g = GraphWidget(namespace={})
            widgets.append(g)
            y = _chain(ops)
            g.refresh()
        sizes[ops] = _saved_size(g)
        g.close()
        assert len(g.graph["nodes"]) <= 430 and len(g.steps) <= MAX_STEPS
    small, big = sizes[10_000], sizes[100_000]
    print(f"\n{make}: 10k ops {small}\n{make}: 100k ops {big}")
    assert big["total"] < 1_500_000  # the layered drawing (routes, SVG fallback) at 1.33 MB: well under 2 MB
    for part in ("graph_json", "replay_json", "svg"):
        assert big[part] <= small[part] * 1.1 + 2_000, (part, small[part], big[part])


def test_the_heatmaps_of_a_replay_do_not_grow_with_the_pass(widgets):
    """The same chain on (8, 8) tensors: every step's gradient carries a heatmap, yet 100,000 operations and
    their pass save no more than 10,000 do, and under 1.4 MB."""
    sizes, heats = {}, {}
    for ops in (10_000, 100_000):
        y = _chain(ops, (8, 8))
        g = drawn(widgets, y, y=y)
        sizes[ops], heats[ops] = _saved_size(g), json.loads(g.replay_json)["heats"]
        assert sum(len(s.edges) for s in g.steps) > 300  # the steps write gradients on edges...
        g.close()
    small, big = sizes[10_000], sizes[100_000]
    assert 200 < len(heats[100_000]) <= 2 * MAX_STEPS  # ...each with its heatmap, sent once however often used
    # the data tensor c, used by every third operation, is one node with an edge into each of them, as the live
    # drawing draws it (before backward freed c from the saved tensors, show() drew it so too): its ~130 edges
    # are one bundle (a trunk drawn once, a branch into each use), routes in relative whole pixels, heatmaps as
    # rectangles of equal cells: 1.35 MB in all (1.89 MB with an edge each, absolute routes, a path per cell)
    assert big["total"] < 1_400_000 and big["replay_json"] <= small["replay_json"] * 1.1 + 2_000, (small, big)


def test_a_replay_longer_than_the_budget_is_summarised_with_the_same_end_state(widgets):
    y = _chain(3_000)
    g = drawn(widgets, y, y=y)
    steps = g.steps
    assert len(steps) <= MAX_STEPS and any(s.kind == "summary" for s in steps)
    x = next(n for n in g.model.visible if n.kind == "leaf")
    assert g.state(len(steps)).grads[x.key] == x.grad.text  # the end of the replay is the pass's result


def test_a_training_step_drawn_live_keeps_the_replay_of_what_it_drew(widgets):
    """A live drawing past its budget counts the passes that follow instead of growing or recording them (each
    step takes a new leaf: no step repeats another)."""
    g = GraphWidget(namespace={}, max_nodes=40)
    widgets.append(g)
    for _ in range(30):
        w = torch.tensor(np.ones(3), requires_grad=True)
        (w * 2).sum().backward()
    g.refresh()
    assert g.model.counting and g.model.counted[0] > 0 and g.graph["counted"] == g.model.counted
    assert len(g.graph["nodes"]) <= 41 and g.steps


def _mlp_loop(steps: int, model, X, Y, batch: int = 0) -> None:
    """SGD with momentum on all of X (``batch=0``) or on mini-batches of ``batch`` rows (new tensors each step)."""
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(steps):
        optimizer.zero_grad()
        start = step * batch % len(X)
        x, y = (X[start:start + batch], Y[start:start + batch]) if batch else (X, Y)
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        optimizer.step()


def _mlp():
    torch.manual_seed(0)
    X, Y = torch.randn(8, 2), torch.randn(8, 1)
    return nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1)), X, Y


@pytest.mark.parametrize("batch", [0, 4])
def test_a_training_loop_drawn_live_stays_one_step_and_replays_its_last_pass(batch, widgets):
    """Lesson 6's loop under a live drawing: the second step folds onto the first, op by op; from then on the
    widget no longer listens to operations (the engine builds no events for it) and takes each pass of the same
    shape as one more copy of the step. What it shows is what a model fed every event shows: one step, each
    node ``× 50`` (the mini-batches too, new tensors each step), and the replay of pass 50."""
    from autograd_tutor import events
    from autograd_tutor.viz import GraphModel, build_steps, replay_json
    model, X, Y = _mlp()
    g = GraphWidget(namespace={})
    widgets.append(g)
    with events.record() as trace:
        _mlp_loop(50, model, X, Y, batch)
    assert g.model.repeating and not g._subscriptions
    g.refresh()
    fed = GraphModel.from_trace(trace)
    assert g.graph == dict(fed.snapshot(), counted=[0, 0])
    assert g.replay == dict(replay_json(fed, build_steps(fed)), note="")
    assert [(e.src, e.dst, e.count) for e in g.model.edges] == [(e.src, e.dst, e.count) for e in fed.edges]
    assert {n.hidden for n in g.model.visible if n.kind == "op"} == {49}
    assert {n.hidden for n in g.model.visible if n.kind == "constant"} == {49 if batch else 0}
    assert len(g.graph["nodes"]) == 12  # 4 parameters, X, Y, 2 x (TBackward0, AddmmBackward0), tanh, MSE
    assert g.steps[-1].text.startswith("Backward pass 50 is done")
    leaves = {n.key: n for n in g.model.visible if n.kind == "leaf"}
    assert [leaves[p._id].grad.text for p in model.parameters()] == [Value.of(p.grad._data).text
                                                                   for p in model.parameters()]


def test_a_drawing_repeating_a_step_listens_again_at_another_pass_or_the_end_of_the_cell(widgets):
    model, X, Y = _mlp()
    g = GraphWidget(namespace={})
    widgets.append(g)
    _mlp_loop(5, model, X, Y)
    assert g.model.repeating
    model(X).sum().backward()  # another shape: built unseen, so not this drawing's pass; listening again
    assert not g.model.repeating and g._subscriptions and "changed since" in g.model.note
    z = model[0].weight * 2
    g.refresh()
    assert g.model.node(z.grad_fn._id).op == "MulBackward0"
    _mlp_loop(5, model, X, Y)
    assert g.model.repeating
    g._on_cell_end()
    assert not g.model.repeating and g._subscriptions


def test_a_folded_loop_keeps_its_count_and_last_pass_after_the_listening_stops(widgets):
    """Once the drawing stops listening (``stop()``, as at the end of ``watch()``), what it counted and the replay
    of its last pass stay; later passes change nothing. ``GraphWidget(loss)`` after the loop replays that loop's
    last pass, and a pass of the same shape run through the drawing's own nodes is its own pass, not a copy."""
    model, X, Y = _mlp()
    g = GraphWidget(namespace={})
    widgets.append(g)
    _mlp_loop(20, model, X, Y)
    assert g.model.repeating
    g.stop()
    _mlp_loop(5, model, X, Y)  # not seen: the drawing stopped listening
    g.refresh()
    assert {n.hidden for n in g.model.visible if n.kind == "op"} == {19}
    assert g.model.pass_count == 20 and g.steps[-1].text.startswith("Backward pass 20 is done")
    loss = nn.MSELoss()(model(X), Y)
    loss.backward()
    after = drawn(widgets, loss, loss=loss)
    assert after.steps and after.steps[0].text.startswith("Backward pass 1 starts at loss")
    assert after.model.node(loss.grad_fn._id).root


def test_a_pass_of_the_steps_shape_through_the_drawings_own_nodes_is_not_counted_as_a_copy(widgets):
    model, X, Y = _mlp()
    g = GraphWidget(namespace={})
    widgets.append(g)
    kept = []
    for _ in range(6):  # the same step six times, each graph kept (no optimizer step: the graphs stay valid)
        model.zero_grad()
        loss = nn.MSELoss()(model(X), Y)
        loss.backward(retain_graph=True)
        kept.append(loss)
    assert g.model.repeating
    hidden = [n.hidden for n in g.model.visible]
    kept[0].backward(retain_graph=True)  # the first step's graph, drawn: the drawing's own pass
    assert [n.hidden for n in g.model.visible] == hidden and g.model.repeating
    kept[-1].backward(retain_graph=True)  # the last copy's graph, folded onto the drawing: its own pass too
    assert [n.hidden for n in g.model.visible] == hidden and g.model.repeating
    g.refresh()
    assert g.model.pass_count == 8 and g.steps[-1].text.startswith("Backward pass 8 is done")
    assert {n.hidden for n in g.model.visible if n.kind == "op"} == {5}


@pytest.mark.parametrize("shape", [(7,), (200, 16), (16, 1), (3, 5, 4), (1, 300), (9, 2)])
def test_a_heatmap_samples_evenly_spaced_rows_and_columns(shape):
    """``sample_grid`` (its picks cached per shape) takes rows and columns at ``linspace`` positions, at most
    ``GRID`` of each, of the array seen as a matrix (the last dimension across)."""
    from autograd_tutor.viz.format import GRID, sample_grid
    a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    m = a.reshape(-1, shape[-1]) if a.ndim > 1 else a.reshape(1, -1)
    rows, cols = (np.linspace(0, n - 1, min(n, most)).round().astype(int) for n, most in zip(m.shape, GRID))
    assert sample_grid(a) == (len(rows), len(cols), tuple(float(m[r, c]) for r in rows for c in cols))
    assert sample_grid(a) == sample_grid(a.copy())  # the cached picks give the same grid again
