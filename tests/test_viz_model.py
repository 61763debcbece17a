"""The graph model: nodes, kinds, edges, names, values, saved state, stable layout, node budget."""
from __future__ import annotations

import pytest

import autograd_tutor as torch
from autograd_tutor import events
from autograd_tutor.viz.geometry import Geometry
from autograd_tutor.viz import GraphModel, Layout
from autograd_tutor.viz.layered import path_segments


def _labels(model):
    return [n.label for n in model.visible]


def _edges(model):
    return [(model.node(e.src).label, model.node(e.dst).label, e.position, e.tracked) for e in model.edges]


def _abd():
    a = torch.tensor(3., requires_grad=True)
    b = torch.tensor(4., requires_grad=True)
    c = a * b
    d = c + a
    return a, b, c, d


def test_from_tensor_nodes_kinds_and_edges():
    a, b, c, d = _abd()
    m = GraphModel.from_tensor(d, namespace={"a": a, "b": b, "c": c, "d": d})
    assert [(n.label, n.kind, n.op) for n in m.visible] == [
        ("a", "leaf", ""), ("b", "leaf", ""), ("c", "op", "MulBackward0"), ("d", "op", "AddBackward0")]
    assert _edges(m) == [("a", "c", 0, True), ("b", "c", 1, True), ("c", "d", 0, True), ("a", "d", 1, True)]
    assert [n.subtitle for n in m.visible] == ["AccumulateGrad", "AccumulateGrad", "MulBackward0", "AddBackward0"]
    assert m.find("d").root and not m.find("c").root
    assert [n.value.text for n in m.visible] == ["3", "4", "12", "15"]


def test_events_and_walk_give_the_same_graph():
    with events.record() as trace:
        a, b, c, d = _abd()
    ns = {"a": a, "b": b, "c": c, "d": d}
    live = GraphModel.from_trace(trace, namespace=ns)
    walked = GraphModel.from_tensor(d, namespace=ns)
    assert _labels(live) == _labels(walked)
    assert _edges(live) == _edges(walked)
    assert [n.key for n in live.visible] == [n.key for n in walked.visible]  # the engine's ids, shared
    assert [(n.layer, n.slot) for n in live.visible] == [(n.layer, n.slot) for n in walked.visible]


def test_unnamed_nodes_are_called_by_their_grad_fn():
    x = torch.tensor(2., requires_grad=True)
    m = GraphModel.from_tensor((x * x).exp(), namespace={})
    assert _labels(m) == ["leaf", "MulBackward0", "ExpBackward0"]
    assert m.visible[1].subtitle == ""


def test_duplicate_inputs_keep_two_edges():
    x = torch.tensor(2., requires_grad=True)
    m = GraphModel.from_tensor(x * x, namespace={"x": x})
    assert _edges(m) == [("x", "MulBackward0", 0, True), ("x", "MulBackward0", 1, True)]
    ports = [path_segments(e["path"])[-1][3] for e in m.snapshot()["edges"]]
    assert ports[0] != ports[1]  # two distinct input ports on the consumer


def test_constants_and_data_tensors():
    w = torch.tensor(2., requires_grad=True)
    x = torch.tensor(5.)  # data: no grad
    y = w * x * 3
    m = GraphModel.from_tensor(y, namespace={"w": w, "x": x, "y": y})
    kinds = {n.label: n.kind for n in m.visible}
    assert kinds["w"] == "leaf" and kinds["x"] == "constant" and kinds["3"] == "constant"
    assert m.find("x").subtitle == "no grad"
    untracked = [(m.node(e.src).label, e.tracked) for e in m.edges if not e.tracked]
    assert untracked == [("x", False), ("3", False)]
    # a constant sits in the layer just before its consumer, not at the far left
    assert m.find("3").layer == m.find("y").layer - 1


def test_a_data_tensor_an_op_does_not_save_is_drawn_with_its_name_and_value():
    """AddBackward0 and SubBackward0 save neither input: a drawing made from the result finds a named data
    tensor (and a Python number) by what the engine noted on the node while someone listened, as the events
    tell it."""
    w = torch.tensor([1., 2.], requires_grad=True)
    x = torch.tensor([3., 4.])
    with events.record() as trace:
        loss = ((w * 2 + x) - 1.5).sum()
    names = {"w": w, "x": x, "loss": loss}
    for m in (GraphModel.from_tensor(loss, namespace=names), GraphModel.from_trace(trace, namespace=names)):
        constants = sorted((n.label, n.value.text) for n in m.visible if n.kind == "constant")
        assert constants == [("1.5", "1.5"), ("2", "2"), ("x", "[3, 4]")]
        assert m.find("x").subtitle == "no grad" and m.find("x").key == x._id


def test_an_untracked_image_of_a_convolution_is_found_in_its_saved_input():
    x = torch.arange(16.).reshape(1, 1, 4, 4)  # data: saved by ConvolutionBackward0 as ``input``, not ``self``
    w = torch.ones(1, 1, 2, 2, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    y = torch.nn.functional.conv2d(x, w, b)
    m = GraphModel.from_tensor(y, namespace={"x": x, "w": w, "b": b, "y": y})
    assert sorted((n.label, n.kind) for n in m.visible) == [("b", "leaf"), ("w", "leaf"), ("x", "constant"),
                                                            ("y", "op")]
    assert m.find("x").value.shape == (1, 1, 4, 4)


def test_an_optional_input_left_out_is_not_drawn():
    """conv2d(x, w) has no bias: torch's node still has three edges, (None, 0) for the bias, but there is no
    tensor behind it, so the drawing shows no box for it, whether built from the tensor or from the events."""
    x = torch.arange(16.).reshape(1, 1, 4, 4)
    w = torch.ones(1, 1, 2, 2, requires_grad=True)
    with events.record() as trace:
        y = torch.nn.functional.conv2d(x, w)
    names = {"x": x, "w": w, "y": y}
    assert y.grad_fn.next_functions[2] == (None, 0)
    for m in (GraphModel.from_tensor(y, namespace=names), GraphModel.from_trace(trace, namespace=names)):
        assert sorted((n.label, n.kind) for n in m.visible) == [("w", "leaf"), ("x", "constant"), ("y", "op")]
        assert sorted((src, pos) for src, _, pos, _ in _edges(m)) == [("w", 1), ("x", 0)]


def test_constants_from_events_take_their_value_from_factory_events():
    with events.record() as trace:
        w = torch.tensor(2., requires_grad=True)
        x = torch.tensor([1., 2., 3.])
        y = (w * x).sum()
    m = GraphModel.from_trace(trace, namespace={})
    assert [(n.kind, n.value.text) for n in m.visible if n.kind == "constant"] == [("constant", "[1, 2, 3]")]


def test_saved_tensors_saved_freed_kept():
    a, b, c, d = _abd()
    with events.record() as trace:
        e = d * d
        e.backward(retain_graph=True)
    m = GraphModel.from_trace(trace, namespace={"d": d, "e": e})
    assert m.find("e").saved == ("self", "other") and m.find("e").saved_state == "kept"
    with events.record() as trace2:
        e.backward()
    for ev in trace2:
        m.apply(ev)
    assert m.find("e").saved_state == "freed"
    walked = GraphModel.from_tensor(e, namespace={"e": e})
    assert walked.find("e").saved_state == "freed"  # read from node._saved being released


def test_grads_and_edge_gradients_from_events():
    with events.record() as trace:
        a, b, c, d = _abd()
        d.backward()
    m = GraphModel.from_trace(trace, namespace={"a": a, "b": b, "c": c, "d": d})
    assert {n.label: n.grad.text for n in m.visible if n.grad is not None} == {"a": "5", "b": "3"}
    assert [(m.node(e.src).label, m.node(e.dst).label, e.grad.text) for e in m.edges] == [
        ("a", "c", "4"), ("b", "c", "3"), ("c", "d", "1"), ("a", "d", "1")]


def test_names_stick_until_they_move_and_values_refresh():
    a, b, c, d = _abd()
    m = GraphModel.from_tensor(d, namespace={"a": a, "b": b, "c": c, "d": d})
    assert m.find("c").kind == "op"
    assert m.set_names([("a", a), ("d", d)]) is False  # b and c are gone (or elsewhere): they keep their names
    assert m.set_names([("c", d)]) is True  # the name c now points to another node of the drawing: it moves
    assert _labels(m) == ["a", "b", "MulBackward0", "c"]
    with torch.no_grad():
        a.add_(1)
    m.set_names([("a", a)])
    assert m.find("a").value.text == "4"


def test_module_parameters_get_dotted_names():
    class Tiny:
        def __init__(self):
            self.weight = torch.tensor(2., requires_grad=True)

        def named_parameters(self):
            return [("weight", self.weight)]

    model = Tiny()
    y = model.weight * 3
    m = GraphModel.from_tensor(y, namespace={"model": model})
    assert m.visible[0].label == "model.weight"


def test_layout_layers_and_stability_while_growing():
    lay = Layout()
    assert lay.place("a", []) == (0, 0)
    assert lay.place("b", ["a"]) == (1, 0)
    assert lay.place("c", ["a", "b"]) == (2, 0)
    before = dict(lay.positions)
    lay.place("d", ["a"])  # lands in layer 1, beside b
    assert lay.positions["d"] == (1, 1)
    assert all(lay.positions[k] == v for k, v in before.items())


def test_live_growth_never_moves_a_node():
    m = GraphModel()
    sub = events.subscribe(m.apply)
    try:
        x = torch.tensor(1., requires_grad=True)
        seen = {}
        y = x
        for i in range(30):
            y = y * 1.5 + x
            for n in m.visible:
                seen.setdefault(n.key, (n.layer, n.slot))
                assert seen[n.key] == (n.layer, n.slot)
    finally:
        sub.remove()
    for n in m.visible:
        for k in n.inputs:
            if m.node(k) is not None and m.node(k).kind != "constant":
                assert m.node(k).layer < n.layer  # layer = 1 + max layer of the inputs


def test_node_budget_collapses_repeated_structure():
    w = torch.tensor(0.5, requires_grad=True)
    m = GraphModel(max_nodes=40)
    sub = events.subscribe(m.apply)
    try:
        for step in range(30):  # the same little graph again and again, each on a new leaf x (no copies)
            x = torch.tensor(float(step), requires_grad=True)
            loss = (w * x - 1.0) ** 2
            loss.backward()
    finally:
        sub.remove()
    assert len(m.visible) <= 40 + m.layout.layers  # the budget, plus at most one collapsed node per layer
    assert m.hidden > 0
    assert sum(n.hidden for n in m.visible) == m.hidden
    snap = m.snapshot()
    assert snap["hidden"] == m.hidden and all("×" not in n["label"] for n in snap["nodes"])
    assert any(n.hidden and n.op == "PowBackward0" for n in m.visible)  # folded into the first loss node


def test_fixed_structure_ignores_unrelated_graphs():
    a, b, c, d = _abd()
    m = GraphModel.from_tensor(d, namespace={"d": d})
    n_before = len(m.visible)
    other = torch.tensor(1., requires_grad=True)
    with events.record() as trace:
        (other * 2).backward()
        d.backward()
    for e in trace:
        m.apply(e)
    assert len(m.visible) == n_before and len(m.passes) == 1


def test_cross_check_with_torch_draws_the_same_graph():
    real = pytest.importorskip("torch")
    ta = real.tensor(3., requires_grad=True)
    tb = real.tensor(4., requires_grad=True)
    tx = real.tensor(2.)
    td = (ta * tb + ta) * tx
    td.backward(retain_graph=True)
    a = torch.tensor(3., requires_grad=True)
    b = torch.tensor(4., requires_grad=True)
    x = torch.tensor(2.)
    d = (a * b + a) * x
    d.backward(retain_graph=True)
    mine = GraphModel.from_tensor(d, namespace={"a": a, "b": b, "x": x, "d": d})
    theirs = GraphModel.from_tensor(td, namespace={"a": ta, "b": tb, "x": tx, "d": td})
    assert [(n.label, n.kind, n.op) for n in mine.visible] == [(n.label, n.kind, n.op) for n in theirs.visible]
    assert _edges(mine) == _edges(theirs)
    assert [n.saved for n in mine.visible] == [n.saved for n in theirs.visible]
    assert [n.value and n.value.text for n in mine.visible] == [n.value and n.value.text for n in theirs.visible]
    assert [n.grad and n.grad.text for n in mine.visible] == [n.grad and n.grad.text for n in theirs.visible]
    td.backward()
    d.backward()
    for t in (td, d):
        root = next(n for n in GraphModel.from_tensor(t).visible if n.root)
        assert (root.op, root.saved, root.saved_state) == ("MulBackward0", ("other",), "freed")


def test_python_numbers_in_a_live_graph_show_their_value_even_after_backward_freed_them():
    import autograd_tutor as torch
    from autograd_tutor import events
    from autograd_tutor.viz import GraphModel
    with events.record() as trace:
        x = torch.tensor(3., requires_grad=True)
        y = x * 2 + 1
        y.backward()
    created = trace.of("node_created")
    assert [e.constants for e in created] == [(None, 2), (None, 1)]
    model = GraphModel.from_trace(trace, namespace={"x": x, "y": y})
    constants = sorted(n.value.scalar for n in model.visible if n.kind == "constant")
    assert constants == [1, 2]


class _Forgetful(dict):
    """A memo that never remembers: the model then works out every fold from the node's signature."""

    def __setitem__(self, key, value) -> None:
        pass


def _folded_loop(steps: int) -> list:
    """The events of a training loop past a small budget: two shapes of step, a new op now and then, and a
    constant that starts requiring grad halfway (it changes the signature of the nodes that use it). Each step
    takes a new leaf ``x``, so that no step is a copy of another (those fold before the budget is spent)."""
    with events.record() as trace:
        w = torch.tensor(0.5, requires_grad=True)
        c = torch.tensor(2.)
        for step in range(steps):
            x = torch.tensor(float(step), requires_grad=True)
            y = (w * x + c).tanh() if step % 2 else (w * x - 1.0) ** 2
            if step % 7 == 3:
                y = y.exp() * c
            if step == steps // 2:
                c.requires_grad_()
            y.backward()
            w.grad = None
    return trace


def _drawing(model) -> tuple:
    from autograd_tutor.viz import build_steps, replay_json, text_table
    return (model.snapshot(), replay_json(model, build_steps(model)), text_table(model), model.hidden,
            [(e.src, e.dst, e.position, e.count) for e in model.edges])


def test_remembered_folds_draw_what_working_each_fold_out_draws():
    """Past the budget a node folds where its (kind, op, layer, visible inputs) folded before, and an op of a
    shape seen before folds as that one did; the drawing, the counts of what is hidden, the replay and the
    table are those of a model that works every fold out."""
    trace = _folded_loop(60)
    memo, plain = GraphModel(max_nodes=30), GraphModel(max_nodes=30)
    plain._folds = plain._repeats = _Forgetful()
    for i in range(0, len(trace), 50):
        memo.apply_all(trace[i:i + 50])
        plain.apply_all(trace[i:i + 50])
    assert memo.hidden > 200 and len(memo._folds) > 1 and len(memo._repeats) > 1
    assert any(n.kind == "collapsed" for n in memo.visible)
    assert _drawing(memo) == _drawing(plain)
    assert sum(n.hidden for n in memo.visible) == memo.hidden
    drawn = [n for n in memo.visible if n.kind != "collapsed"]
    assert memo.hidden + len(drawn) == _nodes_built(trace)  # every node is drawn or counted, once


def _nodes_built(trace) -> int:
    """How many nodes a trace builds: ops, the leaves and tensors they take, and their Python numbers."""
    keys, numbers = set(), 0
    for e in trace.of("node_created"):
        keys.add(e.node_id)
        leaves = dict(e.leaf_nodes)
        for (nid, _), tid in zip(e.next_functions, e.input_ids):
            if tid is None:
                numbers += 1
            elif nid is None or nid in leaves:
                keys.add(tid)
    return len(keys) + numbers


def test_a_node_that_changes_kind_forgets_the_remembered_folds():
    trace = _folded_loop(60)
    memo, stale = GraphModel(max_nodes=30), GraphModel(max_nodes=30)
    stale._retyped = stale._touch  # the folds remembered before requires_grad_() would stay
    memo.apply_all(trace)
    stale.apply_all(trace)
    assert _drawing(memo) != _drawing(stale)


def test_snapshot_json_encodes_again_only_the_runs_that_changed(monkeypatch):
    import json

    from autograd_tutor.viz import model as model_module
    chunk = model_module.CHUNK
    with events.record() as trace:
        x = torch.tensor(1., requires_grad=True)
        y = x
        for _ in range(100):  # 201 nodes (a product and its 1.5 each time), 200 edges
            y = y * 1.5
    m = GraphModel.from_trace(trace)
    before = m.snapshot()
    assert m.snapshot_json(before) == json.dumps(before, separators=(",", ":"))
    encoded = []
    dumps = model_module._dumps
    monkeypatch.setattr(model_module, "_dumps", lambda v: encoded.append(v) or dumps(v))
    last = m.visible[-1]
    assert m.set_names([("z", y)])  # the last node is named: its box keeps its size, so nothing moves
    after = m.snapshot()
    assert m.snapshot_json(after) == json.dumps(after, separators=(",", ":"))
    runs = [v for v in encoded if type(v) is list]
    assert [r[0]["key"] for r in runs if "key" in r[0]] == [last.index // chunk * chunk]
    assert [r for r in runs if "path" in r[0]] == []  # no edge moved


def test_events_of_a_pass_applied_together_draw_what_applying_each_one_draws():
    """The events inside a backward pass are queued and applied together (when the pass ends or the model
    is read): the drawing, the replay and the table are those of a model that applies each as it arrives."""
    trace = _folded_loop(40)
    together, each = GraphModel(max_nodes=30), GraphModel(max_nodes=30)
    handlers = each.handlers()
    for e in trace:
        handlers[e.kind](e)
        each.settle()  # read after every event: nothing waits in the queue
    together.apply_all(trace)
    assert not each._queue and _drawing(together) == _drawing(each)


def test_reading_the_model_in_the_middle_of_a_pass_applies_what_arrived():
    with events.record() as trace:
        a = torch.tensor(2., requires_grad=True)
        (a * a).tanh().backward()
    m = GraphModel()
    handlers = m.handlers()
    freed = next(i for i, e in enumerate(trace) if e.kind == "saved_tensors_freed")
    for e in trace[:freed + 1]:
        handlers[e.kind](e)
    m.settle()
    assert m.find("TanhBackward0").saved_state == "freed" and m.find("MulBackward0").saved_state == "saved"
    assert m.pass_count == 0
    for e in trace[freed + 1:]:
        handlers[e.kind](e)
    m.settle()
    assert m.find("MulBackward0").saved_state == "freed" and m.pass_count == 1


def test_cached_edge_routes_equal_fresh_routes():
    """The geometry is cached (the layout runs again only when a box or an edge changed, a dict is made
    anew only when its place changed): what is drawn equals laying everything out afresh."""
    with events.record() as trace:
        leaves = [torch.tensor(0.5 + i, requires_grad=True) for i in range(4)]
        y = leaves[0]
    m = GraphModel.from_trace(trace)
    for step in range(12):
        with events.record() as trace:
            y = (y * leaves[step % 4]).tanh() + leaves[(step * 3) % 4]
            y.backward(retain_graph=True)
        m.apply_all(trace)
        drawn = m.snapshot()["edges"]
        m._edge_cache.clear()
        m._geometry = Geometry()
        assert m.snapshot()["edges"] == drawn
    assert any(e["grad"] for e in drawn) and any(len(path_segments(e["path"])) > 1 for e in drawn)


def test_a_step_that_repeats_a_drawn_step_after_its_pass_folds_onto_it():
    """A training loop over the same parameters: from the second step on, each op repeats a drawn op on the same
    drawn inputs (constants aside) after a pass ran it, so it is counted there (``× 30``) instead of drawn again;
    every node of every step is drawn or counted once, and the replay is the last step's pass."""
    w = torch.tensor(0.5, requires_grad=True)
    with events.record() as trace:
        for step in range(30):
            x = torch.tensor(float(step))
            loss = (w * x - 1.0) ** 2
            loss.backward()
    first = next(i for i, e in enumerate(trace) if e.kind == "backward_finished")
    one = GraphModel.from_trace(trace[:first + 1])
    m = GraphModel.from_trace(trace, namespace={"w": w})
    assert [(n.kind, n.op) for n in m.visible] == [(n.kind, n.op) for n in one.visible]  # one step drawn
    assert [n.hidden for n in m.visible if n.kind != "leaf"] == [29] * (len(m.visible) - 1)  # x, 1.0, 2 too
    assert m.hidden + len(m.visible) == _nodes_built(trace)
    assert [(e.src, e.dst, e.count) for e in m.edges] == [(e.src, e.dst, 30) for e in one.edges]
    from autograd_tutor.viz import build_steps
    assert build_steps(m)[-1].text == f"Backward pass 30 is done: w.grad = {m.find('w').grad.text}."
    assert m.find("w").grad.text == f"{w.grad.item():.4g}"


def test_a_repeat_built_before_any_pass_is_drawn():
    """Only what a pass ran is folded onto: two equal products built before the first backward are two nodes."""
    w = torch.tensor(0.5, requires_grad=True)
    with events.record() as trace:
        y1, y2 = w * 3, w * 3
        (y1 + y2).backward()
        w * 3  # after the pass: a copy of y1's node
    m = GraphModel.from_trace(trace)
    assert [n.hidden for n in m.visible if n.op == "MulBackward0"] == [1, 0]
