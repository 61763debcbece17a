"""The demos of autograd_tutor.demos: what they report must be what the engine (and PyTorch) does."""
from __future__ import annotations

import inspect
import subprocess
import sys

import numpy as np
import pytest

import autograd_tutor as at
from autograd_tutor import demos, events
from autograd_tutor.autograd.function import FREED_MESSAGE
from autograd_tutor.demos import pitfalls as pitfalls_mod
from autograd_tutor.demos.partial import CODE as PARTIAL_CODE
from autograd_tutor.demos.partial import _build as partial_build
from autograd_tutor.demos.saving import LEAVES, graph_nodes, saved_of
from autograd_tutor.demos.second_backward import CUBE_CODE, call_with_locals, cube
from autograd_tutor.viz import names

FREED_LINE = "RuntimeError: " + FREED_MESSAGE


@pytest.fixture(autouse=True)
def _outside_ipython(monkeypatch):
    """Names come from the caller's variables, as in a script, even if another test left an IPython shell."""
    monkeypatch.setattr(names, "notebook_namespace", lambda: None)


def _report(expression):
    return demos.which_ops_save([expression])[0]


# ---------------------------------------------------------------- which ops save tensors
@pytest.mark.parametrize("expression, graph, saved, raises_at", [
    ("x + 1", "AddBackward0", "-", None),
    ("x + x", "AddBackward0", "-", None),
    ("x.sum()", "SumBackward0", "-", None),
    ("x * 2", "MulBackward0", "other=tensor(2)", "MulBackward0"),
    ("x * x", "MulBackward0", "self=(2,), other=(2,)", "MulBackward0"),
    ("(x * 2).sum()", "SumBackward0 <- MulBackward0", "MulBackward0: other=tensor(2)", "MulBackward0"),
    ("x.exp()", "ExpBackward0", "result=(2,)", "ExpBackward0"),
    ("x.relu()", "ReluBackward0", "result=(2,)", "ReluBackward0"),
    ("x @ w", "DotBackward0", "self=(2,), tensor=(2,)", "DotBackward0"),
    ("x / 2", "DivBackward0", "other=tensor(2)", "DivBackward0"),
    ("x ** 3", "PowBackward0", "self=(2,)", "PowBackward0"),
    ("x.tanh()", "TanhBackward0", "result=(2,)", "TanhBackward0"),
    ("x[[0, 1]]", "IndexBackward0", "indices=[(2,)]", "IndexBackward0"),
    ("m.T", "PermuteBackward0", "-", None),
])
def test_which_ops_save_matches_the_catalogue(expression, graph, saved, raises_at):
    r = _report(expression)
    assert (r.graph_text, r.saved_text, r.failed_at) == (graph, saved, raises_at)
    assert r.second_backward_raises == (raises_at is not None) == r.saves
    if raises_at is not None:
        assert f"{r.error_type}: {r.error}" == FREED_LINE


def test_first_backward_frees_exactly_the_nodes_that_saved_something():
    for r in demos.which_ops_save():
        freed = sorted((name, sorted(names)) for name, names in r.freed)
        assert freed == sorted((n.name, sorted(s.name for s in n.saved)) for n in r.nodes if n.saved), r.expression


def test_second_backward_accumulates_or_leaves_grads_alone():
    ok = _report("x + 1")
    assert ok.grads == (("x", "[1, 1]", "[2, 2]"),) and ok.outcome == "OK: x.grad [1, 1] -> [2, 2]"
    failed = _report("x * x")
    assert failed.grads == (("x", "[2, 4]", "[2, 4]"),)
    assert failed.outcome == "RuntimeError at MulBackward0"
    two = _report("x * w")
    assert [g[0] for g in two.grads] == ["x", "w"]


def test_table_text_html_and_options():
    table = demos.which_ops_save(["x + 1", "x * x"])
    text = str(table)
    assert text.splitlines()[0].split() == ["expression", "graph", "(output", "first)", "saved", "for", "backward",
                                           "second", "backward"]
    assert text.endswith(FREED_LINE) and text == str(demos.which_ops_save(["x + 1", "x * x"]))
    html = table._repr_html_()
    assert html.count("<tr class=") == 2 and 'class="agt-demo-fails"' in html and "&lt;-" not in html
    assert str(demos.which_ops_save(["x + 1"])).count("\n") == 1  # no error line when nothing failed
    assert len(demos.which_ops_save("x * 2")) == 1
    assert _report("x.sum()").nodes[0].saved == ()
    custom = demos.which_ops_save(["v * v"], leaves={"v": [3.]})[0]
    assert custom.grads == (("v", "6", "6"),) and custom.failed_at == "MulBackward0"
    with pytest.raises(ValueError, match="builds no graph"):
        demos.which_ops_save(["x.detach() * 2"])


def test_graph_nodes_and_saved_of():
    x = at.tensor([1., 2.], requires_grad=True)
    y = (x * x).exp().sum()
    assert [n.name() for n in graph_nodes(y)] == ["SumBackward0", "ExpBackward0", "MulBackward0"]
    assert graph_nodes(x) == []
    assert [s.text for s in saved_of(x.max().grad_fn)] == ["self=(2,)", "result=()"]
    assert [s.text for s in saved_of((2 / x).grad_fn)] == ["other=tensor(2)"]


def _torch_saved(node, torch):
    """PyTorch's own account of what a node saved: its tensor-valued ``_saved_*`` attributes."""
    out = {}
    for attr in dir(node):
        if not attr.startswith("_saved_"):
            continue
        value = getattr(node, attr)
        if isinstance(value, torch.Tensor):
            out[attr[7:]] = repr(value) if value.dim() == 0 and not value.requires_grad else tuple(value.shape)
        elif isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
            out[attr[7:]] = tuple(tuple(v.shape) for v in value if v is not None)
    return out


def _torch_nodes(y):
    out, seen, todo = [], set(), [y.grad_fn]
    while todo:
        node = todo.pop(0)
        if node is None or node in seen or type(node).__name__ == "AccumulateGrad":
            continue
        seen.add(node)
        out.append(node)
        todo.extend(child for child, _ in node.next_functions)
    return out


@pytest.mark.parametrize("expression", demos.EXPRESSIONS)
def test_which_ops_save_agrees_with_torch(expression):
    torch = pytest.importorskip("torch")
    ours = _report(expression)
    leaves = {name: torch.tensor(v, requires_grad=True) for name, v in LEAVES.items()}
    y = eval(expression, {"torch": torch, **leaves})
    nodes = _torch_nodes(y)
    assert [n.name for n in ours.nodes] == [type(n).__name__ for n in nodes]
    for mine, theirs in zip(ours.nodes, nodes):
        expected = _torch_saved(theirs, torch)
        assert {s.name: (s.value or s.shape) for s in mine.saved} == expected, mine.name
    grad = None if y.numel() == 1 else torch.ones_like(y)
    y.backward(gradient=grad)
    first = {n: t.grad.clone() for n, t in leaves.items() if t.grad is not None}
    try:
        y.backward(gradient=grad)
        error = None
    except RuntimeError as exc:
        error = str(exc)
    assert error == ours.error
    assert [g[0] for g in ours.grads] == list(first)
    for (name, _, _), tensor in zip(ours.grads, first.values()):
        assert np.allclose(tensor.numpy() * (1 if error else 2), leaves[name].grad.numpy())


# ---------------------------------------------------------------- running snippets
def test_run_snippet_records_output_warnings_and_errors():
    run = demos.run_snippet("x = torch.tensor(3., requires_grad=True)\nprint((x * x).item())")
    assert (run.output, run.warnings, run.raised, run.error_line) == ("9.0\n", (), False, "")
    assert isinstance(run.namespace["x"], at.Tensor)
    assert str(run) == run.code + "\n# output:\n# 9.0"
    bad = demos.run_snippet("import warnings\nwarnings.warn('careful')\nraise KeyError('k')")
    assert bad.warnings == ("UserWarning: careful",) and bad.error_line == "KeyError: 'k'"
    html = bad.to_html()
    assert '<pre class="agt-demo-warning">UserWarning: careful</pre>' in html and "agt-demo-error" in html
    assert str(demos.run_snippet("y = 1")) == "y = 1"


def test_run_snippet_with_torch_prints_the_same():
    torch = pytest.importorskip("torch")
    code = "x = torch.tensor(2., requires_grad=True)\ny = x ** 3\ny.backward()\nprint(x.grad)\ny.backward()"
    ours, theirs = demos.run_snippet(code), demos.run_snippet(code, module=torch)
    assert (ours.output, ours.error_line) == (theirs.output, theirs.error_line) == ("tensor(12.)\n", FREED_LINE)


# ---------------------------------------------------------------- pitfalls
def test_pitfall_accumulate():
    p = demos.accumulate_without_zero_grad()
    assert p.problem.output.split() == ["tensor(4.)", "tensor(8.)", "tensor(12.)"]
    assert p.fix.output.split() == ["tensor(4.)"] * 3
    assert "tensor(4.), tensor(8.), tensor(12.)" in p.explanation


def test_pitfall_nonleaf():
    p = demos.nonleaf_grad()
    assert p.problem.output.split() == ["tensor(36.)", "None"]
    assert len(p.problem.warnings) == 1 and p.problem.warnings[0].startswith(
        "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed.")
    assert p.fix.output.split() == ["tensor(36.)", "tensor(12.)"] and p.fix.warnings == ()
    assert "h.is_leaf is False: MulBackward0" in p.explanation and "tensor(12.)" in p.explanation


def test_pitfall_nonscalar():
    p = demos.nonscalar_backward()
    assert p.problem.error_line == "RuntimeError: grad can be implicitly created only for scalar outputs"
    assert p.fix.output == "tensor([2., 2., 2.])\n" and not p.fix.raised
    assert "shape (3,)" in p.explanation and "tensor([2., 2., 2.])" in p.explanation


def test_pitfall_inplace():
    p = demos.inplace_saved()
    assert p.problem.error.startswith("one of the variables needed for gradient computation has been modified by "
                                      "an inplace operation: [torch.FloatTensor [2]], which is output 0 of Exp, "
                                      "is at version 1; expected version 0 instead.")
    assert p.fix.output == "tensor([2.7183, 7.3891])\n"
    assert "ExpBackward0 saved result" in p.explanation and "y._version is now 1" in p.explanation


def test_pitfalls_print_and_render():
    shown = demos.all_pitfalls()
    assert [p.key for p in shown] == ["accumulate", "nonleaf", "nonscalar", "inplace"]
    for p in shown:
        text = str(p)
        assert text.startswith(p.title) and p.problem.code in text and p.fix.code in text and "Why: " in text
        assert p._repr_html_().startswith('<div class="agt-demo"><h4>')
        assert p == demos.PITFALLS[shown.index(p)]()  # deterministic


@pytest.mark.parametrize("key", sorted(pitfalls_mod.CODE))
def test_pitfall_code_behaves_as_in_torch(key):
    torch = pytest.importorskip("torch")
    for code in pitfalls_mod.CODE[key]:
        ours, theirs = demos.run_snippet(code), demos.run_snippet(code, module=torch)
        assert (ours.output, ours.warnings, ours.error_line) == (theirs.output, theirs.warnings, theirs.error_line)


# ---------------------------------------------------------------- partial accumulation
def test_partial_accumulation_from_the_events():
    d = demos.partial_accumulation()
    assert d.grads == (("a", "4", "4"), ("b", "1", "2"))
    assert (d.changed, d.unchanged, d.failed_at, d.error_line) == (["b"], ["a"], "MulBackward0", FREED_LINE)
    assert d.steps[2] == "b receives 1 and adds it to b.grad: 1 + 1 = 2."
    assert d.steps[-1].startswith("Backward pass 2 stops at MulBackward0 with RuntimeError")
    assert "b.grad went 1 -> 2" in d.explanation and "a.grad stayed 4" in d.explanation
    assert str(d).startswith(d.code) and "<ol><li>" in d._repr_html_()
    # The order, straight from the engine: b accumulates, then MulBackward0 fails.
    y = partial_build()
    y.backward()
    with events.record(kinds=["grad_accumulated", "backward_failed"]) as trace:
        with pytest.raises(RuntimeError):
            y.backward()
    assert [e.kind for e in trace] == ["grad_accumulated", "backward_failed"]
    assert trace[1].name == "MulBackward0"


def test_partial_accumulation_agrees_with_torch():
    torch = pytest.importorskip("torch")
    run = demos.run_snippet(PARTIAL_CODE + "\ny.backward()\ntry:\n    y.backward()\nexcept RuntimeError:\n    pass\n"
                            "print(a.grad, b.grad)", module=torch)
    assert run.output == "tensor(4.) tensor(2.)\n"
    assert demos.partial_accumulation().grads[1][2] == "2"


def test_shown_code_is_the_code_that_runs():
    assert all(line.strip() in inspect.getsource(cube) for line in CUBE_CODE.splitlines())
    assert all(line.strip() in inspect.getsource(partial_build) for line in PARTIAL_CODE.splitlines())


# ---------------------------------------------------------------- SecondBackward
def test_second_backward_default_flow():
    d = demos.SecondBackward()
    assert (d.root_name, d.can_reset, d.code) == ("y", True, CUBE_CODE)
    assert d.explain() == ("In the forward pass `PowBackward0` saved `self` (x = 2), to compute its gradient "
                           "later.", "")
    first = d.backward()
    assert first.ok and first.grads == (("x", "None", "12"),) and first.freed == (("PowBackward0", ("self",)),)
    second = d.backward()
    assert not second.ok and second.error_line == FREED_LINE and second.failed_at == "PowBackward0"
    assert second.grads == (("x", "12", "12"),) and second.accumulated == ()
    assert d.model.node(second.failed_key).op == "PowBackward0"
    why, fix = d.explain()
    assert "stopped at `PowBackward0`" in why and "saved `self` (x = 2)" in why and "3·x^2" in why
    assert "Call 1, `y.backward()`, used it" in why
    assert "`y.backward(retain_graph=True)`" in fix and "`reset()`" in fix
    d.reset()
    assert d.attempts == [] and d.history() == [("x", ["None"])]
    kept = d.backward(retain_graph=True)
    assert kept.kept == (("PowBackward0", ("self",)),) and kept.freed == ()
    assert d.model.find("y").saved_state == "kept"
    again = d.backward()
    assert again.grads == (("x", "12", "24"),) and d.model.find("y").saved_state == "freed"
    assert "12 + 12 = 24" in d.explain()[0]
    third = d.backward()
    assert third.error == FREED_MESSAGE and "Call 2, `y.backward()`" in d.explain()[0]
    assert d.history() == [("x", ["None", "12", "24", "24"])]
    assert repr(d).splitlines()[0] == "SecondBackward: y (3 backward calls)"


def test_second_backward_matches_torch():
    torch = pytest.importorskip("torch")
    x = torch.tensor(2., requires_grad=True)
    y = x ** 3
    y.backward(retain_graph=True)
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    d = demos.SecondBackward()
    d.backward(retain_graph=True), d.backward()
    assert d.backward().error == str(info.value) and d.history()[0][1][-1] == "24" == f"{x.grad.item():g}"


def test_svg_marks_saved_state_and_the_failing_node():
    d = demos.SecondBackward()
    svg = d.svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "agt-failed" not in svg and ">self<" in svg
    d.backward()
    assert 'text-decoration="line-through">self<' in d.svg()
    d.backward()
    svg = d.svg(title="Graph of y")
    assert svg.count('class="agt-failed"') == 1 and "✗ RuntimeError here" in svg
    assert "<title>RuntimeError raised at PowBackward0</title>" in svg and "Graph of y" in svg
    d.reset()
    d.backward(retain_graph=True)
    assert 'font-weight="700">self<' in d.svg() and "agt-failed" not in d.svg()


def test_second_backward_on_your_tensor_and_your_function():
    w = at.tensor(3., requires_grad=True)
    b = at.tensor(1., requires_grad=True)
    loss = (w * 2 + b) ** 2
    d = demos.SecondBackward(loss)
    assert d.can_reset is False and d.root_name == "loss" and [n for n, _ in d.history()] == ["w", "b"]
    with pytest.raises(RuntimeError, match="needs a function that builds the graph"):
        d.reset()
    assert d.backward().grads == (("w", "None", "28"), ("b", "None", "14"))
    failed = d.backward()
    assert failed.failed_at == "PowBackward0" and "(`reset()` does that)" not in d.explain()[1]

    def build():
        u = at.tensor(2., requires_grad=True)
        v = u.exp()
        return v * 3
    f = demos.SecondBackward(build)
    assert f.code.startswith("def build():") and f.root_name == "output" and f.history() == [("u", ["None"])]
    f.backward()
    assert f.backward().failed_at == "MulBackward0"  # created last, so it runs (and fails) first


def test_second_backward_special_graphs():
    x = at.tensor(2., requires_grad=True)
    free = demos.SecondBackward(x + 1)  # saves nothing: backward works any number of times
    assert "No node of this graph saved a tensor" in free.explain()[0]
    assert [free.backward().ok for _ in range(3)] == [True] * 3 and free.history() == [("x", ["None", "1", "2", "3"])]
    assert "nothing was freed" in free.explain()[0]
    z = at.tensor(2., requires_grad=True)
    used = z * z
    used.backward()  # freed before the demo sees it
    late = demos.SecondBackward(used, names={"z": z, "used": used})
    assert late.history() == [("z", ["4"])] and late.explain()[0].endswith("has already freed them.")
    late.backward()
    assert "A `backward()` that ran before this demo started" in late.explain()[0]
    with pytest.raises(RuntimeError, match="shape \\(2,\\)"):
        demos.SecondBackward(at.tensor([1., 2.], requires_grad=True) * 2)
    with pytest.raises(RuntimeError, match="does not require grad"):
        demos.SecondBackward(at.tensor(1.) * 2)
    with pytest.raises(TypeError, match="got int"):
        demos.SecondBackward(3)
    with pytest.raises(TypeError, match="must return a tensor"):
        demos.SecondBackward(lambda: 3)


def test_other_errors_are_reported_without_a_retain_graph_story():
    def build():
        x = at.tensor([1., 2.], requires_grad=True)
        y = x.exp()
        y.add_(1)
        return y.sum()
    d = demos.SecondBackward(build)
    a = d.backward()
    assert a.error.startswith("one of the variables needed for gradient computation") and a.failed_at == "ExpBackward0"
    assert d.explain() == ("`output.backward()` raised RuntimeError at `ExpBackward0`.", "")


def test_call_with_locals_restores_the_profiler():
    def profiler(frame, event, arg):
        return None
    sys.setprofile(profiler)
    try:
        previous = sys.getprofile()
        assert call_with_locals(cube)[1]["x"].item() == 2.0
        assert sys.getprofile() is previous
    finally:
        sys.setprofile(None)
    assert call_with_locals(lambda: 5) == (5, {})


def test_demos_import_no_widget_libraries():
    code = ("import sys, autograd_tutor.demos; "
            "print(sorted(m for m in ('ipywidgets', 'anywidget', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
