"""The event stream: what the engine reports, with which ids and values, and that listening is harmless.

Most tests follow ``d = a*b + a`` (a = 3, b = 4), the course's first worked example: forward makes a
MulBackward0 and an AddBackward0; backward sends 1 along both edges out of AddBackward0, then 4 (= b) and
3 (= a) out of MulBackward0; the two gradients arriving at ``a`` are summed (1 + 4 = 5) before its
AccumulateGrad runs once.
"""
import gc
import sys
import weakref

import numpy as np
import pytest

import autograd_tutor as torch
from autograd_tutor import events
from autograd_tutor.autograd.function import FREED_MESSAGE, Node
from autograd_tutor.autograd.tensor import Tensor


def traced_example():
    """Run ``d = a*b + a`` and its backward under a recorder; return the trace and the tensors."""
    with events.record() as trace:
        a = torch.tensor(3.0, requires_grad=True)
        b = torch.tensor(4.0, requires_grad=True)
        c = a * b
        d = c + a
        d.backward()
    return trace, a, b, c, d


def flows(trace):
    return [(e.source_id, e.target_id, e.input_nr, e.position, e.value.item()) for e in trace.of("gradient_flowed")]


# ---------------------------------------------------------------- d = a*b + a, every kind of event

def test_the_example_emits_every_step_in_order():
    trace, *_ = traced_example()
    assert [e.kind for e in trace] == [
        "tensor_created", "tensor_created",                      # a, b
        "node_created", "tensor_created",                        # MulBackward0, then c
        "node_created", "tensor_created",                        # AddBackward0, then d
        "backward_started",
        "node_executed", "gradient_flowed", "gradient_flowed",   # AddBackward0 sends 1 and 1
        "node_executed", "saved_tensors_freed",                  # MulBackward0 runs and frees a, b
        "gradient_flowed", "gradient_flowed",                    # ... sends 4 and 3
        "grad_accumulated", "grad_accumulated",                  # a.grad, b.grad
        "backward_finished",
    ]
    seqs = [e.seq for e in trace]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_tensor_and_node_created_carry_stable_ids():
    trace, a, b, c, d = traced_example()
    created = trace.of("tensor_created")
    assert [e.tensor_id for e in created] == [a._id, b._id, c._id, d._id]
    ta, tb, tc, td = created
    assert (ta.shape, ta.dtype, ta.requires_grad, ta.is_leaf, ta.grad_fn_id) == ((), "torch.float32", True, True, None)
    assert ta.value == 3.0 and tb.value == 4.0 and tc.value == 12.0 and td.value == 15.0
    assert (tc.is_leaf, tc.grad_fn_id, td.grad_fn_id) == (False, c.grad_fn._id, d.grad_fn._id)

    acc_a, acc_b = (n._id for n, _ in c.grad_fn.next_functions)
    mul, add = trace.of("node_created")
    assert (mul.node_id, mul.name) == (c.grad_fn._id, "MulBackward0")
    assert (mul.input_ids, mul.output_id) == ((a._id, b._id), c._id)
    assert mul.next_functions == ((acc_a, 0), (acc_b, 0))
    assert sorted(mul.saved) == [("other", ()), ("self", ())]
    assert dict(mul.leaf_nodes) == {acc_a: a._id, acc_b: b._id}
    assert (add.node_id, add.name) == (d.grad_fn._id, "AddBackward0")
    assert (add.input_ids, add.output_id) == ((c._id, a._id), d._id)
    assert add.next_functions == ((mul.node_id, 0), (acc_a, 0))  # the same AccumulateGrad id for a, twice
    assert add.saved == () and dict(add.leaf_nodes) == {acc_a: a._id}


def test_a_python_number_has_no_tensor_id():
    x = torch.tensor(2.0, requires_grad=True)
    four = torch.tensor(4.0)
    with events.record(kinds=["node_created", "tensor_created"]) as trace:
        y = x * 2
        z = y * four
    assert [e.input_ids for e in trace.of("node_created")] == [(x._id, None), (y._id, four._id)]
    assert [e.tensor_id for e in trace.of("tensor_created")] == [y._id, z._id]  # the 2 is no tensor of yours


def test_backward_started_and_finished_name_the_root():
    trace, a, b, c, d = traced_example()
    (started,), (finished,) = trace.of("backward_started"), trace.of("backward_finished")
    assert (started.root_ids, started.root_node_ids) == ((d._id,), (d.grad_fn._id,))
    assert (started.retain_graph, started.create_graph) == (False, False)
    assert finished.root_ids == (d._id,) and trace[-1] is finished


def test_gradients_flow_along_every_edge_with_their_values():
    trace, a, b, c, d = traced_example()
    add, mul = d.grad_fn._id, c.grad_fn._id
    acc_a, acc_b = (n._id for n, _ in c.grad_fn.next_functions)
    assert flows(trace) == [
        (add, mul, 0, 0, 1.0), (add, acc_a, 0, 1, 1.0),  # d(c + a)/dc = d(c + a)/da = 1
        (mul, acc_a, 0, 0, 4.0), (mul, acc_b, 0, 1, 3.0),  # d(a*b)/da = b = 4, d(a*b)/db = a = 3
    ]
    known = {e.node_id for e in trace.of("node_created")}
    known |= {acc for e in trace.of("node_created") for acc, _ in e.leaf_nodes}
    ends = {e.source_id for e in trace.of("gradient_flowed")} | {e.target_id for e in trace.of("gradient_flowed")}
    assert ends <= known


def test_node_executed_carries_grads_in_and_out():
    trace, a, b, c, d = traced_example()
    add, mul = trace.of("node_executed")
    assert (add.node_id, add.name) == (d.grad_fn._id, "AddBackward0")
    assert (mul.node_id, mul.name) == (c.grad_fn._id, "MulBackward0")
    assert [g.item() for g in add.grad_outputs] == [1.0] and [g.item() for g in add.grad_inputs] == [1.0, 1.0]
    assert [g.item() for g in mul.grad_outputs] == [1.0] and [g.item() for g in mul.grad_inputs] == [4.0, 3.0]


def test_node_executed_reports_none_for_an_input_that_needs_no_grad():
    x = torch.tensor(2.0, requires_grad=True)
    with events.record(kinds="node_executed") as trace:
        (x * torch.tensor(5.0)).backward()
    (mul,) = trace
    assert mul.grad_inputs[0].item() == 5.0 and mul.grad_inputs[1] is None


def test_the_two_paths_into_a_are_summed_before_one_accumulation():
    trace, a, b, c, d = traced_example()
    acc_a = c.grad_fn.next_functions[0][0]._id
    into_a = [e.value.item() for e in trace.of("gradient_flowed") if e.target_id == acc_a]
    accumulated = {e.tensor_id: (e.node_id, e.before, e.after.item()) for e in trace.of("grad_accumulated")}
    assert into_a == [1.0, 4.0]
    assert accumulated == {a._id: (acc_a, None, 5.0), b._id: (c.grad_fn.next_functions[1][0]._id, None, 3.0)}
    assert a.grad.item() == sum(into_a) == 5.0 and b.grad.item() == 3.0


def test_grad_accumulated_across_two_backward_calls():
    a = torch.tensor(3.0, requires_grad=True)
    with events.record(kinds=["grad_accumulated"]) as trace:
        (a * a).backward()
        (a * a).backward()
    assert [(e.tensor_id, e.before, e.after.item()) for e in trace[:1]] == [(a._id, None, 6.0)]
    assert (trace[1].before.item(), trace[1].after.item()) == (6.0, 12.0)


def test_retain_grad_reports_the_non_leaf_accumulation():
    a = torch.tensor(3.0, requires_grad=True)
    h = a * 2
    h.retain_grad()
    with events.record(kinds="grad_accumulated") as trace:
        (h * h).backward()
    acc_a = h.grad_fn.next_functions[0][0]._id
    assert [(e.tensor_id, e.node_id, e.after.item()) for e in trace] == [(h._id, h.grad_fn._id, 12.0),
                                                                        (a._id, acc_a, 24.0)]


# ---------------------------------------------------------------- saved tensors, failures

def test_saved_tensors_freed_after_plain_backward_only():
    x = torch.tensor(2.0, requires_grad=True)
    y = x * x
    with events.record() as trace:
        y.backward(retain_graph=True)
    assert trace.of("saved_tensors_freed") == [] and trace.of("backward_started")[0].retain_graph is True
    with events.record() as trace:
        y.backward()
    (freed,) = trace.of("saved_tensors_freed")
    assert (freed.node_id, freed.name, sorted(freed.names)) == (y.grad_fn._id, "MulBackward0", ["other", "self"])
    assert x.grad.item() == 8.0


def test_backward_failed_names_the_node_and_carries_torchs_message():
    x = torch.tensor(2.0, requires_grad=True)
    y = x * 2
    y.backward()
    with events.record() as trace:
        with pytest.raises(RuntimeError) as info:
            y.backward()
    failed = trace[-1]
    assert [e.kind for e in trace] == ["backward_started", "backward_failed"]
    assert (failed.node_id, failed.name, failed.error_type) == (y.grad_fn._id, "MulBackward0", "RuntimeError")
    assert failed.message == str(info.value) == FREED_MESSAGE
    assert failed.message.startswith("Trying to backward through the graph a second time (or directly access "
                                     "saved tensors after they have already been freed).")


def test_backward_failed_message_is_torchs():
    real = pytest.importorskip("torch")
    x = real.tensor(2.0, requires_grad=True)
    y = x * 2
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == FREED_MESSAGE


def test_backward_failed_before_any_node_ran():
    with events.record() as trace:
        with pytest.raises(RuntimeError) as info:
            torch.tensor(1.0).backward()
    failed = trace[-1]
    assert (failed.kind, failed.node_id, failed.name) == ("backward_failed", None, None)
    assert failed.error_type == "RuntimeError"
    assert failed.message == str(info.value) == "element 0 of tensors does not require grad and does not have a grad_fn"


# ---------------------------------------------------------------- hooks

def test_hook_fired_for_every_kind_of_hook():
    x = torch.tensor(2.0, requires_grad=True)
    y = x * 3

    def times_ten(g):
        return g * 10

    def check(t):
        assert t.grad.item() == 30.0

    y.register_hook(times_ten)
    y.grad_fn.register_prehook(lambda grad_outputs: None)
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
    x.register_hook(lambda g: None)
    x.register_post_accumulate_grad_hook(check)
    acc = y.grad_fn.next_functions[0][0]._id
    with events.record(kinds=["hook_fired", "node_executed", "grad_accumulated"]) as trace:
        y.backward()
    seen = [(e.kind, getattr(e, "hook_kind", None), e.node_id, getattr(e, "hook_name", None)) for e in trace]
    mul = y.grad_fn._id
    assert seen == [
        ("hook_fired", "tensor", mul, "times_ten"),
        ("hook_fired", "prehook", mul, "<lambda>"),
        ("hook_fired", "posthook", mul, "<lambda>"),
        ("node_executed", None, mul, None),
        ("hook_fired", "tensor", acc, "<lambda>"),
        ("grad_accumulated", None, acc, None),
        ("hook_fired", "post_accumulate", acc, "check"),
    ]
    assert trace[4].tensor_id == trace[6].tensor_id == x._id
    assert trace[3].grad_outputs[0].item() == 10.0 and x.grad.item() == 30.0  # the hook's result went on


# ---------------------------------------------------------------- subscribing

def test_kinds_filter_and_trace_of():
    with events.record(kinds=["gradient_flowed", "backward_finished"]) as trace:
        a = torch.tensor(3.0, requires_grad=True)
        (a * 4 + a).backward()
    assert [e.kind for e in trace] == ["gradient_flowed"] * 3 + ["backward_finished"]
    assert trace.of("gradient_flowed") == trace[:3] and trace.of("node_created") == []
    with events.record(kinds="backward_started") as only:
        (a * 1).backward()
    assert [e.kind for e in only] == ["backward_started"]


@pytest.mark.parametrize("call", [
    lambda: events.subscribe(print, kinds=["node_created", "gradient_flow"]),
    lambda: events.record(kinds=["backwards_started"]).__enter__(),
    lambda: events.Trace().of("tensor"),
])
def test_unknown_kind_is_a_value_error(call):
    before = list(events._subscribers)
    with pytest.raises(ValueError, match="unknown event kind"):
        call()
    assert events._subscribers == before


def test_subscribe_needs_a_callable():
    with pytest.raises(TypeError, match="subscribe\\(\\) expects a callable, got int"):
        events.subscribe(3)


def test_every_kind_names_its_event_class():
    assert set(events.KINDS) == {"tensor_created", "node_created", "backward_started", "node_executed",
                                 "gradient_flowed", "grad_accumulated", "hook_fired", "saved_tensors_freed",
                                 "backward_finished", "backward_failed", "module_entered", "module_left",
                                 "graph_cut"}
    assert all(cls.kind == kind for kind, cls in events.KINDS.items())


def test_handle_remove_stops_deliveries():
    seen = []
    handle = events.subscribe(seen.append, kinds=["tensor_created"])
    torch.tensor(1.0)
    handle.remove()
    torch.tensor(2.0)
    handle.remove()  # a second remove is harmless
    assert [e.value.item() for e in seen] == [1.0]
    with events.subscribe(seen.append, kinds=["tensor_created"]):
        torch.tensor(3.0)
    torch.tensor(4.0)
    assert [e.value.item() for e in seen] == [1.0, 3.0]


def test_no_event_is_built_without_a_subscriber(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("an event was built with nobody listening")

    monkeypatch.setattr(events, "_subscribers", [])  # whatever other tests left subscribed, nobody listens here
    for kind in events.KINDS.values():
        monkeypatch.setattr(kind, "emit", staticmethod(fail))
    monkeypatch.setattr(events, "copy_of", fail)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).exp().sum()
    y.register_hook(lambda g: None)
    y.backward()
    torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert x.grad.tolist() == pytest.approx([2 * np.e, 4 * np.e ** 4])


def test_kinds_nobody_listens_to_are_not_prepared(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("an event nobody asked for was prepared")

    monkeypatch.setattr(events.TensorCreated, "emit", staticmethod(fail))
    monkeypatch.setattr(events.NodeCreated, "emit", staticmethod(fail))
    with events.record(kinds=["grad_accumulated"]) as trace:
        a = torch.tensor(3.0, requires_grad=True)
        (a * a + a).backward()
    assert [(e.kind, float(e.after)) for e in trace] == [("grad_accumulated", 7.0)]


def test_emit_builds_the_same_event_as_the_kind_s_own_emit():
    with events.record(kinds=["node_created", "gradient_flowed"]) as trace:
        events.emit(events.NodeCreated, node_id=1, name="MulBackward0", next_functions=((None, 0),), input_ids=(2,),
                    output_id=3, saved=())
        events.GradientFlowed.emit(source_id=1, target_id=2, input_nr=0, position=0, value=np.float32(5))
    created, flowed = trace
    assert (created.leaf_nodes, created.constants, created.output_id) == ((), (), 3)  # the fields' defaults
    assert flowed.seq == created.seq + 1 and flowed.value == 5
    with pytest.raises(TypeError):
        events.GradientFlowed.emit(source_id=1)  # the fields without defaults are required, as in __init__


def test_an_event_is_an_immutable_named_tuple_whose_repr_leaves_out_arrays():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with events.record(kinds=["gradient_flowed"]) as trace:
        (a * 3).sum().backward()
    flowed = trace[-1]
    assert isinstance(flowed, events.Event) and flowed._fields[0] == "seq" and flowed.kind == "gradient_flowed"
    assert flowed.value.tolist() == [3.0, 3.0]
    with pytest.raises(AttributeError):
        flowed.value = None
    shown = repr(flowed)
    assert shown.startswith(f"GradientFlowed(seq={flowed.seq}, source_id=") and "value" not in shown


@pytest.fixture
def no_pass_history():
    """Without the widgets' pass history (on once a test imported the widgets): only this test's listener."""
    history = sys.modules.get("autograd_tutor.viz.history")
    listening = history is not None and history.HISTORY.listening
    if listening:
        history.HISTORY.stop()
    yield
    if listening:
        history.HISTORY.start()


def test_only_the_step_events_wanted_are_prepared(monkeypatch, no_pass_history):
    def fail(*args, **kwargs):
        raise AssertionError("a gradient copy was made for events nobody asked for")

    monkeypatch.setattr(events, "copy_of", fail)
    with events.record(kinds=["backward_started", "saved_tensors_freed", "backward_finished"]) as trace:
        a = torch.tensor(3.0, requires_grad=True)
        (a * a + a).backward()
    assert [e.kind for e in trace] == ["backward_started", "saved_tensors_freed", "backward_finished"]
    assert a.grad.item() == 7.0


def test_a_subscriber_that_raises_is_a_warning_and_the_learner_gets_the_right_result():
    def broken(event):
        raise KeyError("widget bug")

    seen = []
    with events.subscribe(broken), events.record() as trace, events.subscribe(seen.append):
        with pytest.warns(RuntimeWarning, match=r"event subscriber .*broken.* raised KeyError\('widget bug'\)"):
            a = torch.tensor(3.0, requires_grad=True)
            b = torch.tensor(4.0, requires_grad=True)
            d = a * b + a
            d.backward()
    assert (d.item(), a.grad.item(), b.grad.item()) == (15.0, 5.0, 3.0)
    assert len(seen) == len(trace) == 17  # the others still got every event


# ---------------------------------------------------------------- copies, and no references to the graph

def test_events_carry_copies():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with events.record() as trace:
        y = a * 3
        y.sum().backward()
    created, flowed = trace.of("tensor_created")[0], trace.of("gradient_flowed")[-1]
    acc = trace.of("grad_accumulated")[0]
    with torch.no_grad():
        a.mul_(100)
        y.mul_(100)
    (a * 3).sum().backward()  # accumulates into the same a.grad object, in place
    assert a.grad.tolist() == [6.0, 6.0]
    assert created.tensor_id == y._id and created.value.tolist() == [3.0, 6.0]
    assert flowed.value.tolist() == [3.0, 3.0] and acc.after.tolist() == [3.0, 3.0]


def test_events_hold_no_tensors_or_nodes():
    x = torch.tensor(2.0, requires_grad=True)
    with events.record() as trace:
        (x * x).backward(retain_graph=False)
        torch.autograd.grad(x ** 3, x, create_graph=True)
    fields = [v for e in trace for v in e]
    fields += [x for v in fields if isinstance(v, tuple) for x in v]
    assert not [v for v in fields if isinstance(v, (Tensor, Node))]
    # arrays, or for 0-dim values NumPy scalars: plain, immutable numbers
    assert all(isinstance(g, (np.ndarray, np.generic)) for e in trace.of("node_executed") for g in e.grad_outputs)
    assert all(type(e.value) is np.float32 for e in trace.of("tensor_created"))


def test_event_copies_do_not_change_with_the_tensor():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    s = torch.tensor(3.0, requires_grad=True)
    with events.record(kinds=["tensor_created", "grad_accumulated"]) as trace:
        y = (x * s).sum()
        y.backward()
    values = [e.value for e in trace.of("tensor_created")]
    after = [e.after for e in trace.of("grad_accumulated")]
    with torch.no_grad():
        x.mul_(10)
        s.mul_(10)
        x.grad.mul_(10)
        s.grad.mul_(10)
    assert [np.asarray(v).tolist() for v in values] == [[3.0, 6.0], 9.0]
    assert sorted(np.asarray(a).tolist() for a in after if np.ndim(a) == 0) == [3.0]
    assert [np.asarray(a).tolist() for a in after if np.ndim(a) == 1] == [[3.0, 3.0]]


def test_subscribing_does_not_keep_graphs_alive():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with events.record() as trace:
        y = (a * 2).exp().sum()
        refs = [weakref.ref(y), weakref.ref(y.grad_fn), weakref.ref(y.grad_fn.next_functions[0][0])]
        del y
        assert [r() for r in refs] == [None, None, None]
        y = (a * 2).exp().sum()
        y.backward()
        refs = [weakref.ref(y), weakref.ref(y.grad_fn)]
        del y
        gc.collect()
        assert [r() for r in refs] == [None, None]
    assert len(trace) > 10


FLAT_LOOP = """
import gc, tracemalloc
import autograd_tutor as torch
from autograd_tutor import events
import autograd_tutor.widgets  # as in a notebook: the widgets' recent-pass, module-call and cut logs listen too
w = torch.tensor(0.5, requires_grad=True)
target = torch.tensor(3.0)
with events.record() as trace:
    for step in range(1, 10_001):
        loss = (w - target) ** 2
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
        w.grad = None
        assert len(trace) > 5
        trace.clear()
        if step == 1_000:
            gc.collect()
            tracemalloc.start()
    gc.collect()
    print(w.item(), tracemalloc.get_traced_memory()[0])
"""


def test_memory_stays_flat_over_ten_thousand_steps_with_a_recorder():
    """A tiny training loop, recorded and cleared every step: what step 1,000 holds, step 10,000 holds too. Run
    in a fresh process: in this one, other tests' open drawings and the browser tests' threads allocate too."""
    import subprocess
    run = subprocess.run([sys.executable, "-c", FLAT_LOOP], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    w, grown = run.stdout.split()
    assert float(w) == pytest.approx(3.0, abs=1e-4)  # the learner's training still converged
    assert int(grown) < 100_000, f"{grown} bytes still allocated after 9,000 more steps"


def test_a_broken_subscriber_never_raises_into_code_that_turns_warnings_into_errors(capsys):
    import warnings

    import autograd_tutor as torch
    from autograd_tutor import events
    handle = events.subscribe(lambda e: 1 / 0, kinds=["tensor_created"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            t = torch.tensor(2.) * 3
    finally:
        handle.remove()
    assert t.item() == 6.0
    assert "ZeroDivisionError" in capsys.readouterr().err


def test_one_copy_per_gradient_is_shared_by_the_events_that_show_it_and_stays_unchanged():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with events.record() as trace:
        (x.exp() * 3).sum().backward()
    flowed = {e.target_id: e.value for e in trace.of("gradient_flowed")}
    for e in trace.of("node_executed"):
        if e.node_id in flowed:  # a node that received a single gradient shows the copy that flowed into it
            assert e.grad_outputs[0] is flowed[e.node_id]
    (acc,) = trace.of("grad_accumulated")
    assert acc.after is flowed[acc.node_id]
    expected = np.exp([1.0, 2.0]) * 3
    x.grad.zero_()  # the learner changes .grad: what was recorded does not move
    np.testing.assert_allclose(acc.after, expected, rtol=1e-6)


def test_a_node_with_several_outputs_shows_one_gradient_per_output():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with events.record(kinds=["node_executed", "gradient_flowed"]) as trace:
        a, b, c = x.unbind()
        (a * 2 + c).backward()
    unbind = [e for e in trace.of("node_executed") if e.name == "UnbindBackward0"][0]
    assert [None if g is None else float(g) for g in unbind.grad_outputs] == [2.0, None, 1.0]
    assert unbind.grad_inputs[0].tolist() == [2.0, 0.0, 1.0]
    into = [(e.input_nr, float(e.value)) for e in trace.of("gradient_flowed") if e.target_id == unbind.node_id]
    assert sorted(into) == [(0, 2.0), (2, 1.0)]  # input_nr: which output of the node the gradient is for


# ---------------------------------------------------------------- listeners that keep failing, interrupted passes

def test_a_subscriber_that_keeps_raising_warns_once_even_as_its_message_changes():
    def broken(event):
        raise KeyError(event.seq)  # a new message at every event

    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # no deduplication by Python's registry: the once is ours
        with events.subscribe(broken) as handle, events.record() as trace:
            x = torch.tensor(1.5, requires_grad=True)
            y = x
            for _ in range(100):
                y = y * 1.01
            y.backward()
    ours = [w for w in caught if "event subscriber" in str(w.message)]
    assert len(ours) == 1 and "KeyError" in str(ours[0].message) and "only counted" in str(ours[0].message)
    assert handle.errors == len(trace) > 400
    assert x.grad.item() == pytest.approx(1.01 ** 100, rel=1e-5)


def test_two_broken_subscribers_warn_once_each():
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with events.subscribe(lambda e: 1 / 0), events.subscribe(lambda e: [][e.seq]):
            (torch.tensor(2.0, requires_grad=True) * 3).backward()
    messages = [str(w.message) for w in caught if "event subscriber" in str(w.message)]
    assert len(messages) == 2 and "ZeroDivisionError" in messages[0] and "IndexError" in messages[1]


@pytest.mark.parametrize("error", [KeyboardInterrupt, SystemExit, GeneratorExit])
def test_an_interrupted_backward_still_emits_backward_failed(error):
    x = torch.tensor(2.0, requires_grad=True)
    y = x * x

    def interrupt(grad):
        raise error()
    y.register_hook(interrupt)
    with events.record(kinds=["backward_started", "backward_failed", "backward_finished"]) as trace:
        with pytest.raises(error):
            (y * 3).backward()
    assert [e.kind for e in trace] == ["backward_started", "backward_failed"]
    assert (trace[-1].error_type, trace[-1].name) == (error.__name__, "MulBackward0")
    assert torch.is_grad_enabled()  # the grad mode was restored on the way out
