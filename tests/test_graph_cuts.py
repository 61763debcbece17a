"""Where the graph was cut (viz/cuts.py, the graph_cut event) and why a tensor gets no gradient."""
import warnings

import numpy as np
import pytest

import autograd_tutor as torch
from autograd_tutor import events, nn
from autograd_tutor.quiz import check_gradients, who_gets_grad
from autograd_tutor.viz import GraphModel, explain_no_grad, to_svg
from autograd_tutor.viz.cuts import CUTS, CutLog, cut_lines, cut_marks


@pytest.fixture
def log():
    log = CutLog()
    log.start()
    yield log
    log.stop()


def _boxes(model):
    snap = model.snapshot()
    nodes = snap["nodes"]
    return [(n["label"], n["sub"], sorted(nodes[e["src"]]["label"] for e in snap["edges"]
                                          if e.get("cut") and e["dst"] == n["key"]))
            for n in nodes if n["kind"] == "cut"]


def test_each_cut_emits_one_event_naming_its_cause_and_sources():
    with events.record(kinds=["graph_cut"]) as trace:
        x = torch.tensor(2.0, requires_grad=True)
        h = x * 3
        d = h.detach()
        x.data
        with torch.no_grad():
            u = x * h
        with torch.inference_mode():
            x * 2
        h.item(), h.tolist()
        d.numpy()
        x.requires_grad_(False)
        torch.tensor(5.0).detach()          # no grad to lose: no event
        torch.tensor(5.0).item()
        u * 2                               # computed from a cut's result, unrecorded: "derived"
    got = [(e.cause, e.source_ids, e.source_node_ids, e.op) for e in trace]
    assert got == [("detach", (h._id,), (h.grad_fn._id,), ""), ("data", (x._id,), (None,), ""),
                   ("no_grad", (x._id, h._id), (None, h.grad_fn._id), "MulBackward0"),
                   ("inference_mode", (x._id,), (None,), "MulBackward0"), ("item", (h._id,), (h.grad_fn._id,), ""),
                   ("tolist", (h._id,), (h.grad_fn._id,), ""), ("numpy", (d._id,), (None,), ""),
                   ("requires_grad", (x._id,), (None,), ""), ("derived", (u._id,), (None,), "MulBackward0")]
    assert trace[0].tensor_id == d._id and trace[4].tensor_id is None and float(trace[4].value) == 6.0


def test_no_cut_event_is_built_while_nobody_listens_to_that_kind(monkeypatch):
    with events.record(kinds=["tensor_created"]):  # a listener, but not to graph_cut
        monkeypatch.setitem(events._routes, events.GraphCut, ())  # whatever other tests left listening
        x = torch.tensor(2.0, requires_grad=True)
        d = x.detach()
        with torch.no_grad():
            y = x * 2
    assert not d._cut and not y._cut  # graph_cut returned before marking anything


@pytest.mark.parametrize("cause, label, sub", [
    ("detach", "detached here", "h.detach()"),
    ("data", "cut by .data", "h.data"),
    ("no_grad", "made under no_grad", "h: MulBackward0 not recorded"),
    ("item", "rebuilt from .item()", "h.item()"),
    ("tolist", "rebuilt from .tolist()", "h.tolist()"),
])
def test_a_live_drawing_marks_the_cut_between_the_source_and_the_tensor(log, cause, label, sub):
    with events.record() as trace:
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor(0.5, requires_grad=True)
        h = w * 3
        if cause == "no_grad":
            with torch.no_grad():
                cut = h * 1
        elif cause in ("item", "tolist"):
            cut = torch.tensor(getattr(h, cause)()) if cause == "tolist" else torch.tensor(h.sum().item())
            sub = sub if cause == "tolist" else "….item()"
        else:
            cut = getattr(h, cause)() if cause == "detach" else h.data
        loss = (cut * b).sum()
    model = GraphModel.from_trace(trace, namespace={"w": w, "b": b, "h": h, "cut": cut, "loss": loss})
    model.cuts = log  # the log that saw these events (from_trace keeps its own too)
    boxes = _boxes(model)
    if cause == "item":  # the unnamed sum handed out its number
        assert boxes == [(label, ".item()", ["SumBackward0"])]
        return
    assert boxes == [(label, sub, ["h"])]
    cut_edges = [e for e in model.snapshot()["edges"] if e.get("cut")]
    assert len(cut_edges) == 2 and not any(e["tracked"] for e in cut_edges)


def test_a_drawing_from_the_tensor_marks_the_cut_as_a_stub_and_a_frozen_leaf(log):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    frozen = torch.tensor([3.0, 4.0], requires_grad=True)
    frozen.requires_grad_(False)
    loss = (w.detach() * w).sum() + (frozen * w).sum()
    model = GraphModel.from_tensor(loss, namespace={"w": w, "frozen": frozen, "loss": loss})
    model.cuts = log
    assert sorted(_boxes(model)) == [("detached here", "w.detach()", ["w"]),  # w is drawn: the edge starts there
                                     ("requires_grad=False", "frozen.requires_grad_(False)", [])]
    x = torch.tensor(1.0, requires_grad=True)
    stub = GraphModel.from_tensor(x.detach() * x.exp().detach() * w)  # the sources are not in this graph
    stub.cuts = log
    assert _boxes(stub) == [("detached here", ".detach()", [])]


def test_the_static_svg_draws_the_cut_and_its_legend_only_when_there_is_one(log):
    w = torch.tensor(2.0, requires_grad=True)
    plain = GraphModel.from_tensor(w * 3)
    cut = GraphModel.from_tensor(w.detach() * w)
    cut.cuts = log
    assert "graph cut: no gradient back" not in to_svg(plain) and "url(#agt-cross)" not in to_svg(plain)
    svg = to_svg(cut)
    assert ">detached here<" in svg and "graph cut: no gradient back" in svg and 'marker-end="url(#agt-cross)"' in svg


def test_matplotlib_draws_the_cut_box_too(log):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    from autograd_tutor.viz import draw
    w = torch.tensor(2.0, requires_grad=True)
    model = GraphModel.from_tensor(w.detach() * w, namespace={"w": w})
    model.cuts = log
    texts = [t.get_text() for t in draw(model).texts]
    assert "detached here" in texts and "w.detach()" in texts


def test_a_training_loop_keeps_one_cut_per_repeated_update(log):
    w = torch.tensor(0.5, requires_grad=True)
    for _ in range(50):
        loss = (w - 3.0) ** 2
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
    assert len(log.cuts) == 1


def test_explain_no_grad_says_why_for_each_cause(log):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    plain = torch.tensor([1.0, 1.0])
    h = w * 3
    kept = h.detach()
    loss = (kept * b + plain * b).sum()
    assert explain_no_grad(b, loss, log).startswith("b gets a gradient: it is a leaf that requires grad")
    assert explain_no_grad(w, loss, log) == (
        "w gets no gradient from loss: h was computed from w, then h.detach() cut it from the graph (detached "
        "here), and loss was computed from what came out, so backward stops there.")
    assert explain_no_grad(kept, loss, log).startswith("kept gets no gradient: it was made by .detach()")
    assert explain_no_grad(plain, loss, log).startswith("plain gets no gradient: it was created without "
                                                        "requires_grad=True")
    assert explain_no_grad(h, loss, log).startswith("h gets no gradient from loss: h is not a leaf")
    step = w * 2  # a non-leaf on the path: passed through, not kept
    assert explain_no_grad(step, (step * b).sum(), log).startswith("step is not a leaf (its grad_fn is MulBackward0)")
    with torch.no_grad():
        u = w * b
    assert "inside torch.no_grad() (w: MulBackward0 not recorded)" in explain_no_grad(w, (u * b).sum(), log)
    model = nn.Linear(2, 1)
    model.weight.requires_grad_(False)
    out = model(w).sum()
    assert explain_no_grad(model.weight, out, log).startswith("model.weight gets no gradient: it was switched off")
    with pytest.raises(TypeError, match="explain_no_grad\\(\\) expects two tensors, got int and Tensor"):
        explain_no_grad(3, loss)


def test_who_gets_grad_keys_the_leaves_the_root_reaches():
    w = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    loss = w.detach() * b + b
    q = who_gets_grad(loss, {"w": w, "b": b, "loss": loss})
    assert q.choices == ("w", "b", "loss") and q.kind == "multiple"
    assert q.check([1])[0] and not q.check([0, 1])[0] and not q.check([1, 2])[0]
    loss.backward()
    assert (w.grad is None, b.grad is not None) == (True, True)  # what the key said
    with pytest.raises(ValueError, match="at least one candidate"):
        who_gets_grad(loss, {})


def test_check_gradients_names_the_parameter_still_without_a_gradient():
    x = torch.tensor([1.0, 2.0])

    def broken(w, b):
        return ((x * torch.tensor(w.item()) + b) ** 2).mean()

    def fixed(w, b):
        return ((x * w + b) ** 2).mean()

    report = check_gradients(broken, {"w": torch.tensor(0.5), "b": torch.tensor(0.0)})
    assert report.missing == ["w"] and not report.ok
    text = repr(report)
    assert text.startswith("w still gets no gradient.") and "w.item() handed out w's numbers" in text
    assert "✓ b gets a gradient" in text
    assert check_gradients(fixed, {"w": torch.tensor(0.5), "b": torch.tensor(0.0)}).ok
    with pytest.raises(TypeError, match="the step must return its loss"):
        check_gradients(lambda w: None, {"w": torch.tensor(1.0)})


def test_check_gradients_draws_the_loss_with_the_edge_where_each_missing_gradient_stops():
    x, y = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 4.0, 6.0])
    start = {"w": torch.tensor(0.5), "b": torch.tensor(0.0)}

    def one_cut(w, b):
        return ((x * w + b.detach() - y) ** 2).mean()

    def two_cuts(w, b):
        return ((x * torch.tensor(w.item()) + b.detach() - y) ** 2).mean()

    def fixed(w, b):
        return ((x * w + b - y) ** 2).mean()

    html = check_gradients(one_cut, start)._repr_html_()
    assert "&#10007; Not yet" in html and html.count('class="edge is-wrong"') == 1
    assert ">b.detach(): b&#x27;s gradient stops here<" in html and "Where b&#x27;s gradient stops" in html
    assert ">x<" in html and ">y<" in html                    # the data, by their names
    assert "<li>✓ w gets a gradient (w.grad = tensor(-14.)).</li>" in html
    both = check_gradients(two_cuts, start)._repr_html_()     # loss has no graph: its box marked, b drawn apart
    assert both.count("<svg") == 2 and 'class="box is-wrong"' in both
    assert ">made from w.item(): no path back to w<" in both and ">not in the graph: b.detach() cut it off<" in both
    right = check_gradients(fixed, start)._repr_html_()
    assert "&#10003; Right" in right and "is-wrong" not in right.split("</style>")[-1]
    assert right.count('class="edge is-right"') == 6  # every tracked edge


def test_the_widgets_start_the_shared_log_and_their_text_names_the_cuts():
    pytest.importorskip("anywidget")
    from autograd_tutor.widgets import GraphWidget
    assert CUTS.listening
    w = torch.tensor(2.0, requires_grad=True)
    h = w * 3
    kept = h.detach()
    loss = kept * w
    text = repr(GraphWidget(loss, live=False))
    assert text.splitlines()[-1] == "graph cut: detached here (h.detach()) -> kept", text
    assert "graph cut" not in repr(GraphWidget(h, live=False))
    snap_nodes, snap_edges = cut_marks(GraphModel(), [], [])
    assert (snap_nodes, snap_edges) == ([], [])


def _lines_before_and_after_backward(loss, namespace, log):
    """The cut lines of a drawing made before ``loss.backward()`` and of one made after it."""
    before = GraphModel.from_tensor(loss, namespace=namespace)
    before.cuts = log
    lines = cut_lines(before)
    loss.backward()
    after = GraphModel.from_tensor(loss, namespace=namespace)
    after.cuts = log
    return lines, cut_lines(after)


def test_a_drawing_made_after_backward_still_marks_every_cut(log):
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    h = w * 3
    kept = h.detach()
    with torch.no_grad():
        u = w * 5
    loss = kept * b + u * b + w.data * b + torch.tensor(w.item()) * b
    before, after = _lines_before_and_after_backward(loss, {"w": w, "b": b, "h": h, "kept": kept, "u": u,
                                                            "loss": loss}, log)
    assert before == after == ["graph cut: detached here (h.detach()) -> kept",
                               "graph cut: made under no_grad (w: MulBackward0 not recorded) -> u",
                               "graph cut: cut by .data (w.data) -> 2",
                               "graph cut: rebuilt from .item() (w.item()) -> 2"]
    first = loss.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]  # kept * b
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        first._saved_self  # backward freed the saved copy the drawing used to find the cut by


def test_after_backward_the_constants_keep_their_ids_and_values_but_not_the_tensors(log):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (w.detach() * 2 * w).sum()  # the detached copy and what came of it exist only inside the graph
    loss.backward()
    model = GraphModel.from_tensor(loss)
    model.cuts = log
    mul = loss.grad_fn.next_functions[0][0]
    tensor_id, value = log.input_of(mul._id, 0)
    assert [n.value.head for n in model.visible if n.tensor_id == tensor_id] == [(2.0, 4.0)]
    assert _boxes(model) == [("detached here", ".detach()", ["leaf"])]  # from w (unnamed: "leaf")
    import gc
    gc.collect()
    assert not any(getattr(o, "_id", None) == tensor_id for o in gc.get_objects() if isinstance(o, torch.Tensor))


def test_a_cut_nobody_used_in_a_recorded_op_is_not_remembered_as_an_input(log):
    x = torch.tensor([1.0, 2.0])  # numbers no tensor handed out
    w = torch.tensor(1.0, requires_grad=True)
    (x * w).sum().backward()
    assert not log.inputs and not log.cuts


def test_the_inputs_the_log_remembers_are_bounded(log, monkeypatch):
    from autograd_tutor.viz import cuts
    monkeypatch.setattr(cuts, "KEEP", 8)
    w = torch.tensor(1.0, requires_grad=True)
    for _ in range(20):
        (w.detach() * w).backward()
    assert len(log.inputs) == 8 and len(log.cuts) <= 8


@pytest.mark.parametrize("make, label, sub", [
    (lambda w: torch.tensor(float(w)), "rebuilt from float()", "float(w)"),
    (lambda w: torch.tensor(int(w)), "rebuilt from int()", "int(w)"),
    (lambda w: torch.tensor(w.tolist()), "rebuilt from .tolist()", "w.tolist()"),
    (lambda w: torch.tensor(w), "copied with torch.tensor()", "torch.tensor(w)"),
    (lambda w: torch.as_tensor(w.detach().numpy()), "rebuilt from .numpy()", "w.detach().numpy()"),
    (lambda w: torch.tensor(np.array(w.detach())), "rebuilt from .numpy()", "w.detach().numpy()"),
    (lambda w: torch.from_numpy(w.data.numpy().copy()), "rebuilt from .numpy()", "w.data.numpy()"),
])
def test_numbers_taken_out_and_built_back_are_cuts_drawn_before_and_after_backward(log, make, label, sub):
    w = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's warnings for float(w) and torch.tensor(w): tested below
        rebuilt = make(w)
    loss = rebuilt * b
    before, after = _lines_before_and_after_backward(loss, {"w": w, "b": b, "loss": loss}, log)
    assert before == after == [f"graph cut: {label} ({sub}) -> 3"]
    assert w.grad is None and b.grad is not None
    assert explain_no_grad(w, loss, log, {"w": w, "loss": loss}).startswith("w gets no gradient from loss: ")


def test_each_way_out_of_the_graph_emits_its_cause():
    w = torch.tensor(3.0, requires_grad=True)
    with events.record(kinds=["graph_cut"]) as trace, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        float(w), int(w)
        copy = torch.tensor(w)
        again = torch.tensor(w.detach())      # a copy of a cut's result: the same cut, one step further
        torch.tensor(torch.tensor(1.0))       # nothing that required grad: no event
    assert [(e.cause, e.source_ids) for e in trace] == [("float", (w._id,)), ("int", (w._id,)),
                                                        ("copy", (w._id,)), ("detach", (w._id,)),
                                                        ("derived", (trace[3].tensor_id,))]
    assert trace[2].tensor_id == copy._id and trace[4].tensor_id == again._id and float(trace[0].value) == 3.0


def test_a_cut_used_by_a_recorded_op_says_where():
    w = torch.tensor(2.0, requires_grad=True)
    with events.record(kinds=["graph_cut"]) as trace:
        kept = w.detach()
        y = w * kept
    used = trace[1]
    assert (used.cause, used.tensor_id, used.source_node_ids, used.op, used.position, float(used.value)) == (
        "used", kept._id, (y.grad_fn._id,), "MulBackward0", 1, 2.0)


def test_torch_tensor_of_a_tensor_warns_as_torch_does_and_keeps_the_dtype_asked():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning) as caught:
        copy = torch.tensor(w, dtype=torch.float64)
    assert str(caught[0].message) == (
        "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
        "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).")
    assert copy.dtype == torch.float64 and copy.grad_fn is None and not copy.requires_grad


def test_a_widget_drawn_after_backward_names_the_cut():
    pytest.importorskip("anywidget")
    from autograd_tutor.widgets import GraphWidget
    w = torch.tensor(2.0, requires_grad=True)
    h = w * 3
    loss = h.detach() * w
    loss.backward()
    text = repr(GraphWidget(loss, live=False))
    assert text.splitlines()[-1] == "graph cut: detached here (h.detach()) -> 6", text


def test_a_literal_with_the_value_of_handed_out_numbers_is_no_cut(log):
    """``torch.tensor(3.0)`` written after ``a.item()`` gave 3.0 is the learner's own constant; only a tensor
    built from the very numbers handed out (``torch.tensor(v)`` with ``v = a.item()``) is marked as rebuilt."""
    a = torch.tensor(3.0, requires_grad=True)
    v = a.item()
    x = torch.tensor(2.0, requires_grad=True)
    c = torch.tensor(3.0)
    rebuilt = torch.tensor(v)
    y = x * c + x * rebuilt
    model = GraphModel.from_tensor(y, namespace={"a": a, "x": x, "c": c, "rebuilt": rebuilt, "y": y})
    model.cuts = log
    assert [box[:2] for box in _boxes(model)] == [("rebuilt from .item()", "a.item()")]


def test_a_list_holding_handed_out_numbers_is_rebuilt_and_a_literal_list_is_not(log):
    """``torch.tensor([w.item(), 1.0])`` holds the very number ``w.item()`` handed out: rebuilt, drawn before
    and after backward; ``torch.tensor([3.0, 1.0])``, the same numbers typed in, is the learner's constant."""
    w = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    rebuilt = torch.tensor([w.item(), 1.0])
    literal = torch.tensor([3.0, 1.0])
    loss = (rebuilt * b).sum() + (literal * b).sum()
    before, after = _lines_before_and_after_backward(loss, {"w": w, "b": b, "loss": loss}, log)
    assert before == after == ["graph cut: rebuilt from .item() (w.item()) -> constant"]


def test_a_tensor_built_from_numbers_of_two_tensors_comes_from_both(log):
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(5.0, requires_grad=True)
    x = torch.tensor(1.0, requires_grad=True)
    with events.record(kinds=["graph_cut"]) as trace:
        rows = torch.tensor([[w.item(), 0.0], [b.item(), 1]])
    rebuilt = [e for e in trace if e.tensor_id == rows._id]
    assert [(e.cause, e.source_ids) for e in rebuilt] == [("item", (w._id, b._id))]
    model = GraphModel.from_tensor((rows * x).sum(), namespace={"w": w, "b": b, "x": x, "rows": rows})
    model.cuts = log
    assert _boxes(model) == [("rebuilt from .item()", "w.item()", [])]  # w and b are not in this graph


def test_a_list_is_rebuilt_only_from_objects_python_does_not_share(log):
    """A small int is one object wherever it appears, so ``[2, 1]`` after ``int(w)`` gave 2 says nothing; a
    handed-out list inside a list (``[w.tolist(), ...]``) is the very object."""
    w = torch.tensor([2.0, 1.0], requires_grad=True)
    int(w[0])
    with events.record(kinds=["graph_cut"]) as trace:
        small = torch.tensor([2, 1])
        nested = torch.tensor([w.tolist(), [0.0, 0.0]])
    assert not small._cut and nested._cut is True
    assert [(e.cause, e.tensor_id, e.source_ids) for e in trace if e.tensor_id is not None] == [
        ("tolist", nested._id, (w._id,))]
