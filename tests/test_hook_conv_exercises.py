"""Lesson 5's and 7's exercise checks: a right answer passes, each usual mistake gets its own verdict, the
drawing marks what is wrong, and bad input to a checker is refused with a sentence that says what to pass.
Lesson 9's Predict.who_gets_grad grades before backward and its reveal reports the engine's .grad values."""
import json
from pathlib import Path

import numpy as np
import pytest

import autograd_tutor as torch
from autograd_tutor import events
from autograd_tutor.checks.kernel_grad import CASES, check_kernel_grad
from autograd_tutor.checks import check_hook, check_listener

LESSONS = Path(__file__).parent.parent / "notebooks"


def lesson_cell(name: str, text: str) -> str:
    cells = json.loads((LESSONS / name).read_text())["cells"]
    (source,) = ["".join(c["source"]) for c in cells if text in "".join(c["source"])]
    return source


# ------------------------------------------------------------------------------- check_hook
def test_a_clipping_hook_is_right_and_the_leaves_get_the_clipped_gradient():
    result = check_hook(lambda grad: grad.clamp(-1, 1))
    assert result.ok, str(result)
    assert [(leaf.name, leaf.ok) for leaf in result.leaves] == [("w", True), ("x", True)]
    # w.grad = clip(2h) * x with h = w * x; computed here by hand from the exercise's numbers
    w, x = np.array([2.0, -1.0, 0.5, 3.0]), np.array([1.5, 1.0, -4.0, 0.1])
    clipped = np.clip(2 * w * x, -1, 1)
    np.testing.assert_allclose(result.leaves[0].got, clipped * x, rtol=1e-6)
    np.testing.assert_allclose(result.leaves[1].got, clipped * w, rtol=1e-6)
    assert "is-right" in result._repr_html_() and "is-wrong" not in result._repr_html_().split("</style>")[-1]


@pytest.mark.parametrize("hook, verdict", [
    (lambda grad: None, "Your hook returned None, so autograd kept the gradient as it was"),
    (lambda grad: grad.clamp_(-1, 1), "Your hook changed grad in place"),
    (lambda grad: grad.sum().clamp(-1, 1), "returned a tensor of shape (), but the gradient has shape (4,)"),
    (lambda grad: grad[:2].clamp(-1, 1), "returned a tensor of shape (2,)"),
    (lambda grad: 1.0, "Your hook returned float, not a tensor"),
    (lambda grad: grad.clamp(-1, 1).numpy(), "Your hook returned ndarray, not a tensor"),
    (lambda grad: grad.clamp(0, 1), "w.grad and x.grad are not what clipping to [-1, 1] gives"),
    (lambda grad: grad.clamp(-1, 1).double(), "has changed the type of value"),
    (lambda: None, "raised TypeError"),
])
def test_each_usual_mistake_gets_its_own_sentence(hook, verdict):
    result = check_hook(hook)
    assert not result.ok
    assert verdict in result.verdict, result.verdict


def test_an_error_in_the_hook_names_the_learners_line_and_the_hooked_edge_shows_what_it_returned():
    def clip(grad):
        limit = undefined_bound  # noqa: F821
        return grad.clamp(-limit, limit)
    result = check_hook(clip)
    assert result.verdict.startswith("Your clip raised NameError: name 'undefined_bound' is not defined (your "
                                     "line 2: limit = undefined_bound")
    wrong_bounds = check_hook(lambda grad: grad.clamp(-2, 2))._repr_html_()
    assert 'class="edge is-hooked"' in wrong_bounds
    assert "hook on h got [6, -2, -4, 0.6]" in wrong_bounds and "returned [2, -2, -2, 0.6]" in wrong_bounds
    assert wrong_bounds.count('class="box is-wrong"') == 2


def test_check_hook_refuses_what_is_not_a_function():
    with pytest.raises(TypeError, match="check_hook expects your hook, a function that takes grad"):
        check_hook(torch.tensor([1.0]).clamp(-1, 1))


def test_lesson_5_starts_with_a_hook_that_drops_its_result_and_its_fix_passes():
    source = lesson_cell("05_hooks_and_events.ipynb", "check_hook(clip)")
    namespace = {"torch": torch}
    exec(source.replace("check_hook(clip)", "result = check_hook(clip)"), namespace)
    assert "Your hook returned None" in namespace["result"].verdict
    exec(source.replace("    grad.clamp(-1, 1)", "    return grad.clamp(-1, 1)")
         .replace("check_hook(clip)", "result = check_hook(clip)"), namespace)
    assert namespace["result"].ok


# ------------------------------------------------------------------------------- check_listener
def counting(key: str, kinds=("gradient_flowed",)):
    counts = {}

    def listener(event):
        if event.kind in kinds:
            counts[getattr(event, key)] = counts.get(getattr(event, key), 0) + 1
    return listener, counts


def test_a_listener_that_counts_arrivals_matches_the_engines_record():
    listener, counts = counting("target_id")
    counts["stale"] = 99                       # left from an earlier run: the check starts from an empty dict
    result = check_listener(listener, counts)
    assert result.ok, str(result)
    assert sorted((n.name, n.expected) for n in result.nodes) == [
        ("AddBackward0 (r)", 0), ("MulBackward0 #1", 1), ("MulBackward0 #2", 1), ("p", 3), ("q", 1)]


def test_the_engine_side_is_the_record_of_a_real_pass():
    """The expected counts are those of events.record() on the same graph, not a table."""
    p, q = torch.tensor(2.0, requires_grad=True), torch.tensor(-1.0, requires_grad=True)
    r = p * q + p * p
    with events.record(kinds=["gradient_flowed"]) as trace:
        r.backward()
    leaf_p = next(fn for fn, _ in r.grad_fn.next_functions[1][0].next_functions)
    assert sum(e.target_id == leaf_p._id for e in trace) == 3


@pytest.mark.parametrize("make, verdict", [
    (lambda: counting("source_id"), "You counted the gradients leaving each node (event.source_id)"),
    (lambda: counting("target_id", kinds=()), "Your listener counted nothing"),
    (lambda: counting("target_id", kinds=("gradient_flowed", "node_executed", "backward_started",
                                           "grad_accumulated")),
     "raised AttributeError"),
])
def test_each_usual_listener_mistake_gets_its_own_sentence(make, verdict):
    listener, counts = make()
    result = check_listener(listener, counts)
    assert not result.ok and verdict in result.verdict, result.verdict


def test_counts_keyed_by_name_are_told_why_ids_are_needed():
    counts = {}

    def by_name(event):
        if event.kind == "node_executed":
            counts[event.name] = counts.get(event.name, 0) + 1
    result = check_listener(by_name, counts)
    assert "keyed by str ('AddBackward0'" in result.verdict and "two MulBackward0" in result.verdict
    html = result._repr_html_()
    assert html.count('class="box is-wrong"') == 4 and "engine 3, yours 0" in html


def test_check_listener_refuses_bad_input():
    with pytest.raises(TypeError, match="check_listener expects your listener"):
        check_listener({}, {})
    with pytest.raises(TypeError, match="counts must be the dict your listener fills"):
        check_listener(print, [])


def test_lesson_5_starts_counting_at_the_wrong_end_and_its_fix_passes():
    source = lesson_cell("05_hooks_and_events.ipynb", "check_listener(count_arrivals, arrivals)")
    namespace = {"check_listener": check_listener}
    exec(source.replace("check_listener(count", "result = check_listener(count"), namespace)
    assert "leaving each node" in namespace["result"].verdict
    exec(source.replace("source_id", "target_id").replace("check_listener(count", "result = check_listener(count"),
         namespace)
    assert namespace["result"].ok


def test_lesson_5s_event_prediction_key_agrees_with_the_engine():
    u, v = torch.tensor(2.0, requires_grad=True), torch.tensor(-3.0, requires_grad=True)
    s = u * v * u + v
    with events.record(kinds=["gradient_flowed"]) as flows:
        s.backward()
    assert "NumericKey.near(6, 0)" in lesson_cell("05_hooks_and_events.ipynb", "flows_question = Question(")
    assert len(flows) == 6


# ------------------------------------------------------------------------------- check_kernel_grad
def by_loops(image, grad_output):
    k = image.shape[0] - grad_output.shape[0] + 1
    grad = np.zeros((k, k))
    for i in range(grad_output.shape[0]):
        for j in range(grad_output.shape[1]):
            grad += grad_output[i, j] * image[i:i + k, j:j + k]
    return grad


def test_the_fan_in_loop_is_right_and_agrees_with_autograd_on_both_cases():
    result = check_kernel_grad(by_loops)
    assert result.ok, str(result)
    assert "Right" in result._repr_html_() and 'class="cell is-wrong"' not in result._repr_html_()
    torch_ = pytest.importorskip("torch")
    for image, g in CASES:                     # autograd_tutor's key is torch's w.grad
        k = image.shape[0] - g.shape[0] + 1
        w = torch_.ones(1, 1, k, k, dtype=torch_.float64, requires_grad=True)
        torch_.nn.functional.conv2d(torch_.tensor(image)[None, None], w).backward(torch_.tensor(g)[None, None])
        np.testing.assert_allclose(by_loops(image, g), w.grad[0, 0].numpy())


@pytest.mark.parametrize("answer, verdict", [
    (lambda i, g: by_loops(i, np.ones_like(g)), "You added up the patches"),
    (lambda i, g: by_loops(i, g).T, "Rows and columns are swapped"),
    (lambda i, g: by_loops(i, g)[::-1, ::-1], "Your kernel gradient is flipped"),
    (lambda i, g: None, "Your function returned None"),
    (lambda i, g: by_loops(i, g).ravel(), "returned shape (4,), but the kernel is (2, 2)"),
    (lambda i, g: "grad", "returned str"),
    (lambda i, g: sum(g[a, b] * i[a:a + 2, b:b + 2] for a in range(3) for b in range(3)),
     "Right for the 4x4 image with a 2x2 kernel, but not for a 5x5 image"),
    (lambda i, g: torch.tensor(by_loops(i, g) + np.eye(len(by_loops(i, g)))), "Entries [0, 0], [1, 1] of your"),
])
def test_each_kernel_mistake_gets_its_sentence(answer, verdict):
    result = check_kernel_grad(answer)
    assert not result.ok and verdict in result.verdict, result.verdict


def test_the_heatmap_marks_exactly_the_wrong_entries_and_an_error_names_the_line():
    def one_off(image, grad_output):
        grad = by_loops(image, grad_output)
        grad[0, 1] += 3
        return grad
    html = check_kernel_grad(one_off)._repr_html_()
    assert html.count('class="cell is-wrong"') == 1 and html.count('class="cell is-right"') == 3
    assert "yours 33" in html and "autograd 30" in html

    def crash(image, grad_output):
        return image[9]
    assert check_kernel_grad(crash).verdict.startswith(
        "Your crash raised IndexError: index 9 is out of bounds for axis 0 with size 4 (your line 2")
    with pytest.raises(TypeError, match=r"kernel_grad\(image, grad_output\) itself"):
        check_kernel_grad(np.zeros((2, 2)))


def test_lesson_7_starts_without_grad_output_and_its_fix_passes():
    source = lesson_cell("07_a_small_cnn.ipynb", "check_kernel_grad(kernel_grad)")
    namespace = {"np": np}
    exec(source.replace("check_kernel_grad(kernel_grad)", "result = check_kernel_grad(kernel_grad)"), namespace)
    assert "You added up the patches" in namespace["result"].verdict
    exec(source.replace("grad += image", "grad += grad_output[i, j] * image")
         .replace("check_kernel_grad(kernel_grad)", "result = check_kernel_grad(kernel_grad)"), namespace)
    assert namespace["result"].ok


# ------------------------------------------------------------------------------- lesson 9's Predict
def test_predict_who_gets_grad_grades_before_backward_and_reveals_the_cut():
    from autograd_tutor.widgets import Predict
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    h = w * 3
    loss = (h.detach() * b).sum()
    p = Predict.who_gets_grad(loss, {"w": w, "b": b, "h": h})
    assert p.question["choices"] == ["w", "b", "h"] and b.grad is None
    assert p.predict([1]).correct
    assert p.outcome["seen"] == "loss.backward() ran: w.grad = None, b.grad = 9, h.grad = None."
    assert "h.detach() cut it from the graph" in p.outcome["explanation"]
    assert any(n.get("kind") == "cut" or "detached" in json.dumps(n) for n in p.graph.graph["nodes"])
    assert not p.predict([0]).valid                     # one prediction per widget
    p.graph.close()


def test_predict_who_gets_grad_says_where_a_detour_through_python_cut_the_path():
    """The explanation names the caller's tensor that was cut (``score``), not only the candidates."""
    from autograd_tutor.widgets import Predict
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    score = (w * torch.tensor([2.0, 3.0])).sum()
    loss = torch.tensor(min(score.item(), 1.0)) * b
    p = Predict.who_gets_grad(loss, {"w": w, "b": b}, graph=False)
    assert p.predict([1]).explanation.startswith(
        "w gets no gradient from loss: score was computed from w, then score.item() cut it from the graph "
        "(rebuilt from .item()), and loss was computed from what came out, so backward stops there.")
    assert p.outcome["seen"] == "loss.backward() ran: w.grad = None, b.grad = -2."
