"""Backward replay from recorded events: steps, narration, edge gradients, fan-in sums, accumulation, state."""
from __future__ import annotations

import pytest

import autograd_tutor as torch
from autograd_tutor import events
from autograd_tutor.viz import GraphModel, build_steps, replay_json, state_at
from autograd_tutor.viz.narrate import local_formula, node_sentence
from autograd_tutor.widgets import GraphWidget


def _record(fn):
    with events.record() as trace:
        ns = fn()
    model = GraphModel.from_trace(trace, namespace=ns)
    return model, build_steps(model)


def _abd(retain=False, twice=False):
    a = torch.tensor(3., requires_grad=True)
    b = torch.tensor(4., requires_grad=True)
    c = a * b
    d = c + a
    d.backward(retain_graph=retain or twice)
    if twice:
        d.backward()
    return {"a": a, "b": b, "c": c, "d": d}


def test_steps_of_a_times_b_plus_a():
    model, steps = _record(_abd)
    assert [s.kind for s in steps] == ["start", "node", "node", "accumulate", "accumulate", "finish"]
    assert [s.text for s in steps] == [
        "Backward pass 1 starts at d with the gradient 1 (∂d/∂d = 1).",
        "AddBackward0 passes the gradient 1 unchanged to c and to a.",
        "MulBackward0 sends 1 × b = 4 to a and 1 × a = 3 to b, then frees its saved self and other.",
        "a receives 1 + 4 = 5 and stores it in a.grad, which becomes 5.",
        "b receives 3 and stores it in b.grad, which becomes 3.",
        "Backward pass 1 is done: a.grad = 5, b.grad = 3.",
    ]
    labels = [model.node(s.active).label if s.active is not None else None for s in steps]
    assert labels == ["d", "d", "c", "a", "b", None]


def test_edge_gradients_appear_step_by_step():
    model, steps = _record(_abd)
    names = {e.index: (model.node(e.src).label, model.node(e.dst).label) for e in model.edges}

    def edges_at(k):
        return {names[i]: v for i, v in state_at(model, steps, k).edges.items()}

    assert edges_at(1) == {}
    assert edges_at(2) == {("c", "d"): "1", ("a", "d"): "1"}
    assert edges_at(3) == {("c", "d"): "1", ("a", "d"): "1", ("a", "c"): "4", ("b", "c"): "3"}
    a, b = model.find("a").key, model.find("b").key
    assert state_at(model, steps, 3).grads[a] == "None"
    assert state_at(model, steps, 4).grads[a] == "5" and state_at(model, steps, 4).grads[b] == "None"
    assert state_at(model, steps, 6).grads[b] == "3"
    assert steps[3].total == "1 + 4 = 5" and steps[4].total == ""
    assert [t for _, t in steps[2].locals] == ["∂c/∂a = b", "∂c/∂b = a"]


def test_saved_state_changes_during_replay():
    model, steps = _record(_abd)
    c = model.find("c").key
    assert state_at(model, steps, 2).saved[c] == "saved"
    assert state_at(model, steps, 3).saved[c] == "freed"


def test_two_backward_calls_accumulate_into_grad():
    model, steps = _record(lambda: _abd(twice=True))
    texts = [s.text for s in steps]
    assert texts[0].endswith("; retain_graph=True keeps what the nodes saved.")
    assert "and keeps its saved self and other." in texts[2]
    assert texts[6] == "Backward pass 2 starts at d with the gradient 1 (∂d/∂d = 1)."
    assert texts[8].endswith("then frees its saved self and other.")
    assert texts[9] == "a receives 1 + 4 = 5 and adds it to a.grad: 5 + 5 = 10."
    assert texts[10] == "b receives 3 and adds it to b.grad: 3 + 3 = 6."
    assert texts[11] == "Backward pass 2 is done: a.grad = 10, b.grad = 6."
    c, a = model.find("c").key, model.find("a").key
    assert [state_at(model, steps, k).saved[c] for k in (2, 3, 8, 9)] == ["saved", "kept", "kept", "freed"]
    assert [state_at(model, steps, k).grads[a] for k in (0, 4, 9, 10)] == ["None", "5", "5", "10"]
    assert steps[6].reset and not state_at(model, steps, 7).edges  # a new pass clears the edge labels first
    assert set(state_at(model, steps, 8).edges) == {e.index for e in model.edges_from(model.find("c").key)} | \
        {e.index for e in model.edges if model.node(e.src).label == "a" and model.node(e.dst).label == "d"}


def test_second_backward_error_is_a_step():
    def run():
        x = torch.tensor(2., requires_grad=True)
        y = x * x
        y.backward()
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            y.backward()
        return {"x": x, "y": y}
    model, steps = _record(run)
    last = steps[-1]
    assert last.kind == "fail" and model.node(last.active).label == "y"
    assert last.text == ("Backward pass 2 stops at MulBackward0 with RuntimeError: Trying to backward through the "
                         "graph a second time (or directly access saved tensors after they have already been freed).")


def test_hooks_are_steps():
    def run():
        x = torch.tensor(2., requires_grad=True)
        x.register_hook(lambda g: g * 2)
        (x * 3).backward()
        return {"x": x}
    model, steps = _record(run)
    hook = [s for s in steps if s.kind == "hook"]
    assert len(hook) == 1 and hook[0].text == "Hook <lambda> runs on the gradient of x."
    assert steps[-1].text == "Backward pass 1 is done: x.grad = 6."


def test_vectors_are_summarised_not_multiplied_out():
    def run():
        w = torch.tensor([1., 2., 3.], requires_grad=True)
        s = (w * w).sum()
        s.backward()
        return {"w": w, "s": s}
    model, steps = _record(run)
    assert steps[1].text == "SumBackward0 passes the gradient 1 unchanged to MulBackward0."
    assert steps[2].text == ("MulBackward0 sends [1, 2, 3] to w and [1, 2, 3] to w, then frees its saved self "
                             "and other.")
    assert steps[3].text == "w receives [1, 2, 3] + [1, 2, 3] = [2, 4, 6] and stores it in w.grad, which becomes " \
                            "[2, 4, 6]."


def test_retain_grad_on_a_non_leaf():
    def run():
        x = torch.tensor(2., requires_grad=True)
        h = x * 3
        h.retain_grad()
        y = h * h
        y.backward()
        return {"x": x, "h": h, "y": y}
    model, steps = _record(run)
    kept = [s.text for s in steps if s.kind == "accumulate"]
    assert kept[0] == "h keeps its gradient 6 + 6 = 12 in h.grad (retain_grad)."
    assert model.find("h").grad.text == "12"


def test_local_formulas_and_sentences():
    assert local_formula("MulBackward0", 1, ["a", "b"]) == "a"
    assert local_formula("MulBackward0", 1, [None, "b"]) is None  # an unnamed input: numbers instead
    assert local_formula("NotAnOp", 0, ["a"]) is None
    assert node_sentence("AddBackward0", ["1", "2"], "3", [("x", "1", "3")], None) == \
        "AddBackward0 adds up 1 + 2 = 3 and passes the gradient 3 unchanged to x."
    assert node_sentence("SinBackward0", ["1"], "1", [("x", "0.5403", "0.5403")], ("kept", ["self"])) == \
        "SinBackward0 sends 1 × 0.5403 = 0.5403 to x, and keeps its saved self."


def test_replay_json_matches_python_fold():
    model, steps = _record(lambda: _abd(twice=True))
    payload = replay_json(model, steps)
    assert len(payload["steps"]) == len(steps)
    index = {n.key: n.index for n in model.visible}
    for k in range(len(steps) + 1):  # fold the JSON the way graph.js does and compare with state_at
        grads = dict(payload["start"]["grads"])
        edges = {}
        for s in payload["steps"][:k]:
            edges = {} if s["reset"] else edges
            edges.update(dict(s["edges"]))
            grads.update(dict(s["grads"]))
        state = state_at(model, steps, k)
        assert edges == state.edges
        assert grads == {index[key]: v for key, v in state.grads.items()}


def test_only_the_last_passes_are_kept():
    from autograd_tutor.viz.model import MAX_PASSES
    x = torch.tensor(1., requires_grad=True)
    model = GraphModel()
    with events.subscribe(model.apply):
        y = x * 2
        for _ in range(MAX_PASSES + 5):
            y.backward(retain_graph=True)  # passes through the drawn graph itself
    steps = build_steps(model)
    assert len(model.passes) == MAX_PASSES and model.pass_count == MAX_PASSES + 5
    assert steps[0].text.startswith("Backward pass 6 starts")


def test_of_a_repeated_step_only_the_last_two_passes_are_kept():
    """A loop building the same step again folds each copy onto the first (x 13); its passes walk the same nodes,
    so the replay keeps the last two (the loop's last step and the one before), numbered as they ran."""
    from autograd_tutor.viz.passes import MAX_COPIES
    x = torch.tensor(1., requires_grad=True)
    model = GraphModel()
    with events.subscribe(model.apply):
        for _ in range(13):
            (x * 2).backward()
    steps = build_steps(model)
    assert MAX_COPIES == 2 and len(model.passes) == 2 and model.pass_count == 13
    assert [s.text.split(" starts")[0] for s in steps if s.kind == "start"] == ["Backward pass 12", "Backward pass 13"]
    assert model.node(x._id).grad.text == "26"  # every pass still accumulated into x.grad


def test_passes_are_made_light_once_and_keep_their_event_types():
    from autograd_tutor.viz import Value
    x = torch.tensor(1., requires_grad=True)
    model = GraphModel()
    with events.subscribe(model.apply):
        (x * x).backward()
    records = model.passes[0]
    assert model.passes[0] is records and [type(r) for r in records] == [
        type(e) for e in records]  # read again: the same light records, not converted twice
    flowed = [r for r in records if r.kind == "gradient_flowed"]
    assert flowed and all(isinstance(r, events.GradientFlowed) and type(r.value) is Value for r in flowed)
    executed = next(r for r in records if r.kind == "node_executed")
    assert all(v is None or type(v) is Value for v in executed.grad_outputs + executed.grad_inputs)


def test_a_pass_that_starts_outside_a_drawing_is_replayed_inside_it():
    """GraphWidget(y), then y * 5 backward: the drawing replays where the gradient enters it and what it does
    there; a later backward pass of another graph is not recorded."""
    a = torch.tensor(2., requires_grad=True)
    b = torch.tensor(3., requires_grad=True)
    y = a * b
    g = GraphWidget(y, namespace={"a": a, "b": b, "y": y})
    try:
        (y * 5).backward()
        other = torch.tensor(1., requires_grad=True)
        (other * 3).backward()
        g.refresh()
        assert g.model.pass_count == 1
        assert g.steps[0].text == ("Backward pass 1 starts outside this drawing, at MulBackward0; follow the gradient "
                                   "into the drawing.")
        assert [s.text for s in g.steps[-3:]] == ["a receives 15 and stores it in a.grad, which becomes 15.",
                                                  "b receives 10 and stores it in b.grad, which becomes 10.",
                                                  "Backward pass 1 is done: a.grad = 15, b.grad = 10."]
        assert [e["grad"] for e in g.graph["edges"]] == ["15", "10"]
        assert [n["state"] for n in g.graph["nodes"] if n["label"] == "y"] == ["freed"]
    finally:
        g.close()


def test_replay_steps_carry_a_heatmap_of_each_large_gradient_sent_once():
    """A gradient of more than a few numbers comes with its heatmap ([index, text, h], ``h`` into ``heats``):
    an edge's at an edge label's size, a ``.grad``'s at a node's (the one the drawing shows at the end), and
    the same heatmap once (a scalar gradient stays [index, text]: see test_graph_widget)."""
    import json

    import numpy as np

    from autograd_tutor.viz.heat import LABEL_HEAT, heat_of

    def mlp():
        w = torch.tensor(np.linspace(-1, 1, 32).reshape(16, 2), requires_grad=True)
        x = torch.tensor(np.linspace(0, 1, 8).reshape(4, 2))
        h = (x @ w.t()).tanh()
        loss = (h * h).sum()
        loss.backward()
        return {"w": w, "x": x, "h": h, "loss": loss}
    model, steps = _record(mlp)
    payload = json.loads(json.dumps(replay_json(model, steps)))
    heats = payload["heats"]
    sent = [e for s in payload["steps"] for e in s["edges"]]
    made = [(e.index, v, g) for s in steps for e, v, g in s.edges]
    assert [e[:2] for e in sent] == [[i, v] for i, v, _ in made] and all(g is not None for *_, g in made)
    for entry, (_, _, grid) in zip(sent, made):  # (4, 16), (4, 2) and (16, 2) gradients: all heatmaps
        assert heats[entry[2]] == heat_of(grid, LABEL_HEAT) and heats[entry[2]]["w"] <= LABEL_HEAT[0]
    w = model.find("w")
    [stored] = [g for s in payload["steps"] for g in s["grads"] if g[0] == w.index]
    own = {n["key"]: n for n in model.snapshot()["nodes"]}[w.index]["gheat"]
    assert stored[1] == w.grad.text and heats[stored[2]] == own  # the leaf's .grad: what its box was sized for
    [mul] = [p for p, s in zip(payload["steps"], steps) if s.kind == "node" and s.text.startswith("MulBackward0")]
    assert len(mul["edges"]) == 2 and mul["edges"][0][2] == mul["edges"][1][2]  # h * h: the same heatmap twice
    assert len({json.dumps(h, sort_keys=True) for h in heats}) == len(heats)
