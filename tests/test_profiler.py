"""``torch.autograd.profiler`` / ``torch.profiler``: the calls a block made, timed through the engine's events, and
torch's table layout (compared with torch's own ``_build_table`` on the same numbers)."""
import pytest

import autograd_tutor as torch
from autograd_tutor import nn
from autograd_tutor.autograd import profiler


def _model_run(backward=False):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
    x = torch.randn(4, 8)
    with profiler.profile() as prof:
        with profiler.record_function("model_inference"):
            y = model(x)
        if backward:
            y.sum().backward()
    return prof


def test_calls_are_named_and_counted_as_torch_names_them():
    averages = _model_run().key_averages()
    assert [(e.key, e.count) for e in averages] == [
        ("model_inference", 1), ("aten::linear", 2), ("aten::t", 2), ("aten::addmm", 2), ("aten::relu", 1)]


def test_ranges_contain_their_calls_and_times_add_up():
    prof = _model_run(backward=True)
    by_key = {}
    for e in prof.function_events:
        by_key.setdefault(e.key, []).append(e)
    outer = by_key["model_inference"][0]
    assert {c.key for c in outer.cpu_children} == {"aten::linear", "aten::relu"}
    assert all(t.cpu_parent.key == "aten::linear" for t in by_key["aten::t"] + by_key["aten::addmm"])
    assert [e.key for e in by_key["AddmmBackward0"]] == ["AddmmBackward0"] * 2  # the backward nodes that ran
    assert by_key["SumBackward0"][0].cpu_parent is None
    for e in prof.function_events:
        assert e.cpu_time_total >= e.self_cpu_time_total >= 0
    total = sum(e.self_cpu_time_total for e in prof.function_events)
    assert outer.cpu_time_total <= total
    assert prof.key_averages().table().endswith(f"Self CPU time total: {profiler._format_time(total)}\n")


def test_nothing_is_seen_outside_a_profile_or_without_a_graph():
    w = torch.ones(2, requires_grad=True)
    with profiler.record_function("alone"):  # no profile open: nothing to report to
        w * 2
    with profiler.profile() as prof:
        with torch.no_grad():
            w * 2
    w * 3
    assert prof.function_events == []
    assert prof.key_averages().table() == ""
    with profiler.profile(enabled=False) as off:
        w * 2
    assert off.function_events == []


def test_sort_by_and_row_limit():
    table = _model_run().key_averages().table(sort_by="cpu_time_total", row_limit=2)
    lines = table.splitlines()
    assert lines[1].split()[:4] == ["Name", "Self", "CPU", "%"]
    assert [line.split()[0] for line in lines[3:5]] == ["model_inference", "aten::linear"]
    assert len(lines) == 7


def test_aten_names_of_nodes():
    assert profiler._aten_name("AddmmBackward0") == "aten::addmm"
    assert profiler._aten_name("TBackward0") == "aten::t"
    assert profiler._aten_name("LogSoftmaxBackward0") == "aten::log_softmax"
    assert profiler._aten_name("MaxPool2DWithIndicesBackward0") == "aten::max_pool2d_with_indices"
    assert profiler._aten_name("torch::autograd::NotImplemented") == "torch::autograd::NotImplemented"


def test_the_new_face_takes_activities():
    w = torch.ones(2, requires_grad=True)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        with torch.profiler.record_function("double"):
            w * 2
        prof.step()
    assert [e.key for e in prof.key_averages()] == ["double", "aten::mul"]


def test_the_table_is_laid_out_as_torchs():
    real = pytest.importorskip("torch")
    from torch.autograd import profiler_util
    rows = [("model_inference", 1, 3207.0, 1951.5), ("aten::linear", 2, 1177.968, 67.505),
            ("aten::a_much_longer_operator_name_than_the_others", 4, 12.112, 0.5), ("aten::relu", 1, 77.584, 0.0)]
    theirs, ours = profiler_util.EventList(), profiler.EventList()
    for key, count, total, own in rows:
        for avg in (profiler_util.FunctionEventAvg(), profiler.FunctionEventAvg(key)):
            avg.key, avg.count, avg.cpu_time_total, avg.self_cpu_time_total = key, count, total, own
            avg.node_id = -1  # as every event of a CPU profile has (torch prints a Node ID column otherwise)
            (theirs if isinstance(avg, profiler_util.FunctionEventAvg) else ours).append(avg)
    for options in ({}, {"sort_by": "cpu_time_total", "row_limit": 3}, {"max_name_column_width": 20},
                    {"sort_by": "count", "header": "HEADER"}):
        assert ours.table(**options) == theirs.table(**options), options
    assert real.autograd.profiler.record_function.__name__ == profiler.record_function.__name__
