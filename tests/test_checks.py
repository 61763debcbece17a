"""The exercise checks of lessons 1, 2 and 4 (autograd_tutor.checks): a right answer passes, and each kind of
wrong answer gets its own verdict, with the problem marked on the drawing."""
from __future__ import annotations

import re

import pytest

import autograd_tutor as torch
from autograd_tutor.checks import (check_branches, check_first_none, check_grad_read, check_graph, check_retained,
                                    check_tracking, targets)


@pytest.fixture
def leaves():
    return tuple(torch.tensor(v, requires_grad=True) for v in (2.0, 3.0, 1.0))


def _marked(result) -> tuple:
    """(marked edges, marked boxes, notes) of a result's drawing."""
    html = result._repr_html_()
    return (html.count('class="edge is-wrong"'), html.count('class="box is-wrong"'),
            re.findall(r'<text class="is-wrong"[^>]*>([^<]*)<', html))


# ------------------------------------------------------------------ check_graph
def test_check_graph_right_answer(leaves):
    x, w, b = leaves
    result = check_graph((w * x + b).tanh() * x, targets.lesson1(x, w, b))
    assert result.ok and str(result) == "check_graph: right"
    assert _marked(result) == (0, 0, []) and result._repr_html_().count('class="edge is-right"') == 7


@pytest.mark.parametrize("code, verdict, notes", [
    ("(w * x + b) * x", "missing TanhBackward0 between AddBackward0 and MulBackward0 (input 0). Add that operation.",
     ["missing TanhBackward0"]),
    ("(w * x + b).exp().tanh() * x", "extra ExpBackward0 at input 0 of TanhBackward0: the target goes straight "
     "from AddBackward0 there. Remove that operation.", ["extra ExpBackward0"]),
    ("(w * x + b).tanh() * w", "input 1 of MulBackward0 comes from w in yours, from x in the target. Use x there.",
     ["should be x"]),
    ("(w * x + b).tanh() * 2", "at input 1 of MulBackward0, yours has a constant where the target has x.",
     ["should be x"]),
    ("(w * x - b).tanh() * x", "at input 0 of TanhBackward0, yours has SubBackward0 where the target has "
     "AddBackward0.", ["should be AddBackward0"]),
    ("x * (w * x + b).tanh()", "at input 0 of MulBackward0, yours has x where the target has TanhBackward0.",
     ["should be TanhBackward0"]),
])
def test_check_graph_names_the_first_difference_and_marks_it(leaves, code, verdict, notes):
    x, w, b = leaves
    result = check_graph(eval(code), targets.lesson1(x, w, b), names={"x": x, "w": w, "b": b})
    assert not result.ok and verdict in str(result)
    edges, boxes, said = _marked(result)
    assert said == notes and edges == 1


def test_check_graph_counts_the_differences_after_the_first(leaves):
    x, w, b = leaves
    result = check_graph((w * w + b) * w, targets.lesson1(x, w, b), names={"x": x, "w": w, "b": b})
    assert result.problem.startswith("missing TanhBackward0") and result.more == 2
    assert result.verdict.endswith("(2 more differences after this one.)")


def test_check_graph_sees_a_node_computed_twice_where_the_target_reuses_it(leaves):
    x, w, b = leaves
    y = w * x
    result = check_graph(w * x + w * x, y + y, names={"x": x, "w": w})
    assert "the target computes MulBackward0 once and uses it twice" in result.problem
    reused = check_graph(y + y, w * x + w * x, names={"x": x, "w": w})
    assert "you use one MulBackward0 twice" in reused.problem


def test_check_graph_no_graph_and_a_constant_where_a_leaf_belongs(leaves):
    x, w, b = leaves
    plain = torch.tensor(3.0)
    assert "at the root, yours has a constant where the target has MulBackward0" in str(
        check_graph(plain, w * x, names={"x": x, "w": w}))
    assert "yours has w where the target has a constant" in str(
        check_graph(x * w, x * 2, names={"x": x, "w": w}))


def test_check_graph_refuses_what_is_not_a_tensor(leaves):
    x, w, b = leaves
    with pytest.raises(TypeError, match=r"your tensor is a float\. Pass the tensor your code computed"):
        check_graph(3.0, w * x)
    with pytest.raises(TypeError, match="the target is a function"):
        check_graph(w * x, targets.lesson1)


# ------------------------------------------------------------------ check_branches
CASES = {"x > 0": (2.0, lambda x: x * x), "x <= 0": (0.0, lambda x: x.exp() - 1)}


def test_check_branches_right_answer():
    def f(x):
        return x * x if x > 0 else x.exp() - 1
    result = check_branches(f, CASES)
    assert result.ok and "define-by-run" in result.verdict
    assert _marked(result) == (0, 0, [])


@pytest.mark.parametrize("body, verdict", [
    (lambda x: x * x, "For x = 0 (x <= 0), at the root, yours has MulBackward0 where the target has SubBackward0."),
    (lambda x: x * x if x >= 0 else x.exp() - 1, "For x = 0 (x <= 0), at the root, yours has MulBackward0"),
    (lambda x: x * x if x > 0 else x.exp(), "For x = 0 (x <= 0), missing SubBackward0 after ExpBackward0"),
    (lambda x: x * x if x > 0 else x.exp() + 1, "yours has AddBackward0 where the target has SubBackward0"),
    (lambda x: 1 / 0, "For x = 2 (x > 0) your f raised ZeroDivisionError: division by zero"),
    (lambda x: 3.0, "your f returned a float, not a tensor"),
])
def test_check_branches_wrong_answers(body, verdict):
    result = check_branches(body, CASES)
    assert not result.ok and verdict in result.verdict


def test_check_branches_draws_one_graph_per_case_the_wrong_one_marked():
    html = check_branches(lambda x: x * x, CASES)._repr_html_()
    assert html.count("<svg") == 2 and "x = 2 (x &gt; 0): right" in html and "x = 0 (x &lt;= 0): not yet" in html
    assert html.count('<text class="is-wrong"') == 1


def test_check_branches_refuses_a_result_instead_of_a_function():
    with pytest.raises(TypeError, match=r"expects your function f, got a Tensor"):
        check_branches(torch.tensor(1.0), CASES)
    with pytest.raises(ValueError, match="at least one case"):
        check_branches(lambda x: x, {})


# ------------------------------------------------------------------ check_tracking
def _fit(weight, bias, points):
    return ((weight * points).sum() + bias - 3) ** 2


def test_check_tracking_right_answer_keeps_the_graph_and_fills_no_grad():
    weight, bias = torch.tensor([1.0, -2.0], requires_grad=True), torch.tensor(0.0, requires_grad=True)
    points = torch.tensor([1.0, 2.0])
    fit = _fit(weight, bias, points)
    result = check_tracking(fit, trained={"weight": weight, "bias": bias}, data={"points": points})
    assert result.ok, result.problem
    assert result.verdict.startswith("fit.backward() will give weight.grad = [-12, -24], bias.grad = -12, "
                                     "and the data stays untracked. (Until it runs, their .grad is None")
    assert weight.grad is None
    fit.backward()                                   # the graph is still there
    assert weight.grad.tolist() == [-12.0, -24.0]


@pytest.mark.parametrize("make, verdict, note", [
    (lambda: (torch.tensor([0.5, -1.0], requires_grad=True) * 2, torch.tensor(0.0, requires_grad=True),
              torch.tensor([1.0, 2.0])), "weight is not a leaf (its grad_fn is MulBackward0)", "weight is not a leaf"),
    (lambda: (torch.tensor([1.0, -2.0]), torch.tensor(0.0, requires_grad=True), torch.tensor([1.0, 2.0])),
     "weight gets no gradient: it was created without requires_grad=True", "weight: no gradient"),
    (lambda: (torch.tensor([1.0, -2.0], requires_grad=True), torch.tensor(0.0, requires_grad=True),
              torch.tensor([1.0, 2.0], requires_grad=True)), "points is data, but it requires grad",
     "points is tracked"),
])
def test_check_tracking_names_the_tensor_that_is_wrong(make, verdict, note):
    weight, bias, points = make()
    result = check_tracking(_fit(weight, bias, points), trained={"weight": weight, "bias": bias},
                            data={"points": points})
    assert not result.ok and verdict in result.problem
    assert _marked(result)[2] == [note]


def test_check_tracking_a_detached_bias_is_cut_off():
    weight, bias = torch.tensor([1.0, -2.0], requires_grad=True), torch.tensor(0.0, requires_grad=True)
    points = torch.tensor([1.0, 2.0])
    result = check_tracking(_fit(weight, bias.detach(), points), trained={"weight": weight, "bias": bias})
    assert "bias gets no gradient from loss" in result.problem
    edges, boxes, notes = _marked(result)
    assert notes == ["bias: no gradient"] and boxes == 1   # drawn apart: the graph does not reach it


def test_check_tracking_refuses_bad_input():
    w = torch.tensor(1.0, requires_grad=True)
    with pytest.raises(TypeError, match=r"but loss is a float\. Pass the loss tensor"):
        check_tracking(1.0, trained={"w": w})
    with pytest.raises(ValueError, match="needs the tensors you train"):
        check_tracking(w * 2, trained={})


# ------------------------------------------------------------------ check_retained
def _step(retain_grad=True, retain_graph=True, passes=2, reset=False):
    def step(x):
        h = x * 3
        if retain_grad:
            h.retain_grad()
        out = h * h
        out.backward(retain_graph=retain_graph)
        for _ in range(passes - 1):
            if reset:
                x.grad = None
            out.backward()
    return step


def test_check_retained_right_answer():
    result = check_retained(_step())
    assert result.ok and result.grads[1] == 2 * result.grads[0] == 72
    assert result.verdict == ("h kept its gradient (h.grad = 24 after both passes), and x.grad went from 36 "
                              "after the first pass to 72 "
                              "after the second: the gradients added up.")


@pytest.mark.parametrize("step, verdict, note", [
    (_step(retain_graph=False), "your second backward raised RuntimeError: the first pass freed the values "
     "MulBackward0 saved. Pass retain_graph=True to the first backward()", ["saved values freed"]),
    (_step(retain_grad=False), "h.grad stays None: h is not a leaf, so backward keeps no gradient in it. Call "
     "h.retain_grad() before the first backward.", ["h keeps no .grad"]),
    (_step(passes=1), "your step ran backward 1 time: run it twice", []),
    (_step(reset=True), "x.grad is 36 after the second pass, not twice the first (36)", []),
])
def test_check_retained_says_which_call_is_missing(step, verdict, note):
    result = check_retained(step)
    assert not result.ok and verdict in result.problem
    assert _marked(result)[2] == note


def test_check_retained_the_freed_node_is_the_one_marked():
    result = check_retained(_step(retain_graph=False))
    marked = result.model.node(result.marks.node)
    assert marked.op == "MulBackward0" and marked.name == "out"


def test_check_retained_other_errors_and_bad_input():
    def broken(x):
        h = x * 3
        return h.nope
    assert "your step raised AttributeError" in check_retained(broken).problem
    assert "no intermediate h" in check_retained(lambda x: (x * 2).backward()).problem
    with pytest.raises(TypeError, match=r"expects your function, got a NoneType"):
        check_retained(None)


# ------------------------------------------------------------------ check_first_none (lesson 1)
def _score(cut: bool):
    def score(w, x):
        hidden = (w * x).relu()
        total = hidden.sum()
        mean = total / len(x)
        clipped = torch.tensor(min(mean.item(), 5.0)) if cut else mean.clamp(max=5.0)
        return clipped * 2
    return score


def _score_inputs():
    return {"w": torch.tensor([0.5, -1.0, 2.0], requires_grad=True), "x": torch.tensor([1.0, 2.0, 3.0])}


@pytest.mark.parametrize("given, verdict", [
    ("", "score(w, x) has grad_fn=None, so backward cannot reach w. Print each variable's grad_fn"),
    ("total", "total prints grad_fn=<SumBackward0>: it still has its history. Look further down."),
    ("nope", "score has no tensor variable 'nope'; its variables are hidden, total, mean, clipped."),
])
def test_check_first_none_until_the_cut_is_named(given, verdict):
    result = check_first_none(_score(cut=True), _score_inputs(), given)
    assert not result.ok and result.verdict.startswith(verdict) and result.found == "clipped"
    assert _marked(result) == (0, 1, ["grad_fn=None"])           # the result, drawn apart: it has no node


def test_check_first_none_named_then_fixed():
    inputs = _score_inputs()
    found = check_first_none(_score(cut=True), inputs, "clipped")
    assert not found.ok and found.verdict.startswith(
        "Found it: clipped is the first to print grad_fn=None (line `clipped = torch.tensor(min(mean.item(), 5.0)) "
        "if cut else mean.clamp(max=5.0)`).")
    assert _marked(found) == (0, 1, ["the first grad_fn=None"])
    fixed = check_first_none(_score(cut=False), inputs, "clipped")
    assert fixed.ok and fixed.verdict == ("score(w, x) has grad_fn=MulBackward0, and backward will give "
                                          "w.grad = [0.6667, 0, 2]: the history reaches your inputs again.")
    assert _marked(fixed) == (0, 0, []) and fixed._repr_html_().count('class="edge is-right"') >= 4
    assert inputs["w"].grad is None                                # the check used copies


def test_check_first_none_a_later_one_and_bad_input():
    def twice(w):
        a = w.detach()
        b = a * 2
        return b + 1
    w = {"w": torch.tensor(1.0, requires_grad=True)}
    assert check_first_none(twice, w, "b").verdict == ("b prints grad_fn=None, but it is not the first one that "
                                                      "does. Look further up.")
    assert check_first_none(twice, w, "a").verdict.startswith("Found it: a is the first")
    with pytest.raises(TypeError, match="expects tensors as inputs, but w is a float"):
        check_first_none(twice, {"w": 1.0})
    with pytest.raises(TypeError, match="returned a float, not a tensor"):
        check_first_none(lambda w: 1.0, w)


# ------------------------------------------------------------------ check_grad_read (lesson 2)
def _reads(order: str):
    def step(w, x):
        loss = ((w * x).sum() - 1) ** 2
        if order == "early-use":
            print("gradient norm:", w.grad.norm())
        g = w.grad
        if order != "never":
            loss.backward()
        if order == "late-use":
            print("gradient norm:", w.grad.norm())
        return g if order == "early-return" else w.grad * 2 if order == "doubled" else w.grad
    return step


def _read_inputs():
    return {"w": torch.tensor([0.5, -1.0], requires_grad=True), "x": torch.tensor([1.0, 2.0])}


def test_check_grad_read_right_after_backward(capsys):
    inputs = _read_inputs()
    result = check_grad_read(_reads("late-use"), inputs)
    assert result.ok and result.verdict == ("w.grad was None until backward() ran; your step read it after, and "
                                            "returned w.grad = [-5, -10].")
    assert "gradient norm: tensor(11.1803)" in capsys.readouterr().out and inputs["w"].grad is None
    assert _marked(result) == (0, 0, [])


@pytest.mark.parametrize("order, verdict", [
    ("early-use", "your step raised AttributeError: 'NoneType' object has no attribute 'norm' (line "
     "`print(\"gradient norm:\", w.grad.norm())`), before any backward() ran: w.grad is None until backward() "
     "fills it. Use it after loss.backward()."),
    ("early-return", "your step returned None: it read w.grad before backward() filled it"),
    ("never", "your step never called backward(), so w.grad is still None"),
    ("doubled", "your step returned [-10, -20], not w.grad as backward() left it ([-5, -10]): return w.grad."),
])
def test_check_grad_read_says_what_was_early(order, verdict):
    result = check_grad_read(_reads(order), _read_inputs())
    assert not result.ok and result.verdict.startswith(verdict)
    assert _marked(result)[2] == ["w.grad is None here"]


def test_check_grad_read_refuses_bad_input():
    with pytest.raises(TypeError, match="expects your function"):
        check_grad_read(None, _read_inputs())
    with pytest.raises(ValueError, match="needs an input that requires grad"):
        check_grad_read(_reads("late-use"), {"w": torch.tensor([1.0]), "x": torch.tensor([1.0])})
