"""The predict and exercise steps as a learner meets them, in JupyterLab 4 and Notebook 7, light and dark.

* Every prediction of every lesson (PREDICTIONS) is answered wrong in Notebook 7 and right in JupyterLab, typed
  by keyboard or ticked by mouse: Python's verdict says which, and what the engine then did; its drawing replays.
* Lesson 3's prediction by keyboard, its drawing then stepped; lesson 4's by mouse alone; lesson 5's event count;
  lesson 9's five who-gets-a-gradient predictions, each drawing marking its cut before the pass and replaying it
  after (JupyterLab and Notebook 7).
* Every exercise starts with one marked problem and, fixed by typing in the cell and run again, turns to "Right":
  lesson 3's Square (both front ends, both themes), lessons 1, 2 and 4's checks (lesson 1's graph in Notebook 7
  too), lesson 5's hook and listener, lesson 6's MySigmoid and lesson 8's MulAdd (their labels clear the node),
  lesson 7's kernel, and lesson 9's training step, fixed a line at a time.
* axe-core finds no serious or critical violation (contrast included) in the predictions and the checks.

Screenshots: ``tests/browser/artifacts/predict-*.png``, ``exercise-*.png``.
"""
from __future__ import annotations

import json
import re
import shutil

import pytest
from playwright.sync_api import expect
from conftest import ARTIFACTS
from test_front_ends_browser import AXE, LESSONS, _run_all, _set_theme


#: Scroll ``el`` into the view until it stays there, then say whether its rendered text holds ``text``.
_IN_VIEW_AND_SAYS = """([el, text]) => {
  const r = el.getBoundingClientRect();
  if (r.bottom <= 0 || r.top >= innerHeight) { el.scrollIntoView({ block: 'center' }); return false; }
  return el.innerText.includes(text);
}"""


def _shows(locator, text: str, timeout: float = 20_000) -> None:
    """Wait until ``locator`` is in view and its rendered text contains ``text``. JupyterLab does not lay out
    cells out of view (``content-visibility: auto``): a scroll aimed with their placeholder heights lands short
    when the cells it brings into view grow (lesson 6's drawing: 2,400 px), and a cell left out of view has an
    empty innerText. So the check scrolls again, each frame, until the element is in view."""
    locator.page.wait_for_function(_IN_VIEW_AND_SAYS, arg=[locator.element_handle(), text], timeout=timeout)


LESSON_3 = "03_backward_and_chain_rule.ipynb"
LESSON_4 = "04_retain_grad_and_retain_graph.ipynb"
FIXED_SQUARE = '''from autograd_tutor.exercise import check_backward

class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * 2 * x

xs = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
check_backward(Square, xs)'''


def _axe(page, selector: str) -> list:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async (selector) => {
             const include = [...document.querySelectorAll(selector)];
             const result = await axe.run({ include }, { runOnly: ['wcag2a', 'wcag2aa'] });
             return result.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary) }));
           }""", selector)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def _cell_with(page, text: str):
    """The code cell whose source holds ``text``."""
    return page.locator(".jp-CodeCell").filter(has=page.locator(".jp-InputArea", has_text=text)).first


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("front", ["lab", "notebook"])
def test_lesson_3_prediction_by_keyboard_and_exercise_fixed_in_the_cell(lab, lab_page, front, theme):
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / LESSON_3, lab.root / LESSON_3)
    _set_theme(lab, theme)
    _run_all(lab, page, LESSON_3, front)
    tag = f"{front}-{theme}"

    # predict: type 3 by keyboard, Enter; Python's verdict arrives and the drawing under it holds the pass
    cell = _cell_with(page, 'Predict.from_tensor(r, "grad-value")')
    predict = cell.locator(".agt-predict")
    predict.scroll_into_view_if_needed()
    drawing = cell.locator(".agt-root")
    predict.get_by_label("Your prediction (a number)").focus()
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    verdict = predict.locator(".agt-quiz-feedback.is-correct")
    verdict.wait_for(timeout=20_000)
    assert "You predicted right." in verdict.inner_text()
    assert "r.backward() ran: p.grad = 3, q.grad = 2, r.grad = None." in verdict.inner_text()
    assert predict.get_by_role("button", name="Predicted").is_disabled()
    drawing.focus()
    page.keyboard.press("End")
    page.wait_for_function("el => /step [1-9]\\d* \\/ [1-9]/.test(el.textContent)",
                           arg=drawing.locator(".agt-pos").element_handle())
    assert "p.grad = 3" in drawing.locator(".agt-narration").inner_text()
    predict.screenshot(path=str(ARTIFACTS / f"predict-{tag}-lesson3.png"))
    cell.screenshot(path=str(ARTIFACTS / f"predict-{tag}-lesson3-with-drawing.png"))

    # the exercise: wrong at first (the marked edge), right once the learner's fix is typed and run
    exercise = _cell_with(page, "class Square(torch.autograd.Function)")
    exercise.scroll_into_view_if_needed()
    wrong = exercise.locator(".agt-check.is-wrong")
    wrong.wait_for()
    _shows(wrong, "expected [2, -4, 6], got [1, -2, 3]")
    assert wrong.locator(".edge.is-wrong").count() == 1
    wrong.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-lesson3-wrong.png"))
    assert _axe(page, ".agt-predict, .agt-check") == []
    exercise.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(FIXED_SQUARE)
    page.keyboard.press("Shift+Enter")
    right = exercise.locator(".agt-check.is-right")
    right.wait_for(timeout=30_000)
    _shows(right, "Right")
    assert right.locator(".edge.is-right").count() == 1
    right.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-lesson3-right.png"))
    assert _axe(page, ".agt-check") == []


def test_lesson_4_prediction_by_mouse_alone(lab, lab_page):
    page = lab_page
    shutil.copy(LESSONS / LESSON_4, lab.root / LESSON_4)
    _set_theme(lab, "light")
    _run_all(lab, page, LESSON_4, "lab")
    cell = _cell_with(page, 'Predict.from_tensor(n, "gets-grad")')
    predict = cell.locator(".agt-predict")
    predict.scroll_into_view_if_needed()
    predict.get_by_role("button", name="Check my prediction").click()   # nothing ticked: told so, not graded
    assert "Tick at least one first." in predict.locator(".agt-quiz-feedback").inner_text()
    for name in ("m", "k"):
        predict.locator("label.agt-quiz-choice", has_text=name).click()
    predict.get_by_role("button", name="Check my prediction").click()
    verdict = predict.locator(".agt-quiz-feedback.is-correct")
    verdict.wait_for(timeout=20_000)
    assert "n.backward() ran: m.grad = 48, k.grad = 12, n.grad = None." in verdict.inner_text()
    predict.screenshot(path=str(ARTIFACTS / "predict-lab-light-lesson4.png"))
    second = _cell_with(page, 'Predict.from_tensor(doubled, "second-backward")').locator(".agt-predict")
    second.scroll_into_view_if_needed()
    second.locator("label.agt-quiz-choice", has_text="It runs again").click()
    second.get_by_role("button", name="Check my prediction").click()
    wrong = second.locator(".agt-quiz-feedback.is-wrong")
    wrong.wait_for(timeout=20_000)
    assert "Not what the engine did." in wrong.inner_text() and "raised RuntimeError" in wrong.inner_text()
    second.screenshot(path=str(ARTIFACTS / "predict-lab-light-lesson4-wrong.png"))
    print(json.dumps({"lesson 4 verdicts": [verdict.inner_text()[:60], wrong.inner_text()[:60]]}))


#: lesson -> (its predictions, its exercises drawn by a check): every lesson has at least one of each
STEPS = {"01_computation_graph.ipynb": (3, 3), "02_leaf_and_non_leaf.ipynb": (1, 2),
         "03_backward_and_chain_rule.ipynb": (2, 1), "04_retain_grad_and_retain_graph.ipynb": (3, 1),
         "05_hooks_and_events.ipynb": (2, 2), "06_training_a_tiny_network.ipynb": (1, 1),
         "07_a_small_cnn.ipynb": (1, 1), "08_reading_the_engine.ipynb": (1, 1),
         "09_where_did_my_gradient_go.ipynb": (5, 1)}


GROW_SEEN = "grow(0.05) recorded 5 MulBackward0 nodes, then TanhBackward0; tiny.backward() ran through them."
PRINT_SEEN = "print(t.grad_fn) for each: p: None, q: <MulBackward0>, r: None, s: <MulBackward0>, k: None."
VJP_SEEN = ("out.backward() ran: Cube's backward received grad_output = [1.0, 2.0, 3.0] and returned grad_output * 3 "
            "* x ** 2 = [3.0, 6.0, 36.0], now in u.grad.")
RAISES_4 = "It raises a RuntimeError: the first call freed tensors saved for backward"
RUNS_4 = "It runs again and adds the same gradients into .grad once more"
#: lesson -> each prediction in order: (a wrong answer, the right one, what the reveal says the engine did). A
#: typed answer is a string, a picked one the tuple of the choices ticked (their text).
PREDICTIONS = {
    "01_computation_graph.ipynb": [
        (("x", "w", "b", "y"), ("x", "w", "b"),
         "z.backward() ran: x.grad = 3, w.grad = 2, b.grad = 1, y.grad = None, z.grad = None."),
        ("4", "5", GROW_SEEN), (("p", "r"), ("p", "r", "k"), PRINT_SEEN)],
    "02_leaf_and_non_leaf.ipynb": [("12", "6", "out.backward() ran: u.grad = 6, out.grad = None.")],
    "03_backward_and_chain_rule.ipynb": [("4", "3", "r.backward() ran: p.grad = 3, q.grad = 2, r.grad = None."),
                                         (("[3.0, 3.0, 12.0]",), ("[3.0, 6.0, 36.0]",), VJP_SEEN)],
    "04_retain_grad_and_retain_graph.ipynb": [
        (("m",), ("m", "k"), "n.backward() ran: m.grad = 48, k.grad = 12, n.grad = None."),
        ((RUNS_4,), (RAISES_4,), "The first call ran; the second raised RuntimeError: Trying to backward through "
                                 "the graph a second time"),
        ((RAISES_4,), (RUNS_4,), "shifted.backward() ran twice: t.grad = [2, 2], shifted.grad = None.")],
    "05_hooks_and_events.ipynb": [
        ("5", "6", "out.backward() ran: k.grad = 6."),
        ("4", "6", "s.backward() recorded 6 gradient_flowed events; u.grad = -12, v.grad = 5.")],
    "06_training_a_tiny_network.ipynb": [
        (("tiny.0.weight", "tiny.0.bias", "tiny.2.weight", "tiny.2.bias", "batch"),
         ("tiny.0.weight", "tiny.0.bias", "tiny.2.weight", "tiny.2.bias"),
         "first_loss.backward() ran: tiny.0.weight.grad = [")],
    "07_a_small_cnn.ipynb": [("1", "9", "total.backward() ran: kernel.grad = [45, 54, 81, 90], bias.grad = 9")],
    "08_reading_the_engine.ipynb": [(("It runs and adds gradients into .grad",), ("It raises a RuntimeError",),
                                     "It raised RuntimeError: Trying to backward through the graph a second time")],
    "09_where_did_my_gradient_go.ipynb": [
        (("w", "b"), ("b",), "loss.backward() ran: w.grad = None, b.grad = 9, h.grad = None."),
        (("w1", "w2"), ("w2",), "loss.backward() ran: w1.grad = None, w2.grad = [-0.2964, 0.1571]."),
        (("w_frozen", "gain"), ("gain",),
         "loss.backward() ran: w_forgot.grad = None, w_frozen.grad = None, gain.grad = 1."),
        (("w", "b"), ("b",), "loss.backward() ran: w.grad = None, b.grad = 3."),
        (("w", "b"), ("b",), "loss.backward() ran: w.grad = None, b.grad = -2.")],
}


def _predict(page, predict, answer, right: bool, seen: str) -> str:
    """Give ``answer`` (typed by keyboard, or ticked by mouse), and check Python's verdict: right or not, and what
    the engine then did. Returns the verdict's text."""
    if isinstance(answer, str):
        typed = predict.locator("input.agt-quiz-input")
        typed.press_sequentially(answer)
        typed.press("Enter")
    else:
        for text in answer:
            predict.locator("label.agt-quiz-choice").filter(has_text=re.compile(rf"^\s*{re.escape(text)}\s*$")).click()
        predict.get_by_role("button", name="Check my prediction").click()
    verdict = predict.locator(".agt-quiz-feedback.is-correct" if right else ".agt-quiz-feedback.is-wrong")
    verdict.wait_for(timeout=20_000)
    text = verdict.inner_text()
    assert ("You predicted right." if right else "Not what the engine did.") in text, text
    assert f"What the engine did: {seen}" in " ".join(text.split()), text
    return text


@pytest.mark.parametrize("front, right", [("notebook", False), ("lab", True)], ids=["notebook-wrong", "lab-right"])
@pytest.mark.parametrize("lesson", list(STEPS))
def test_every_lessons_predictions_answer_and_its_exercises_start_marked(lab, lab_page, lesson, front, right):
    """Each prediction of the lesson, answered wrong (in Notebook 7) or right (in JupyterLab), by keyboard where
    it is typed and by mouse where it is picked, gets Python's verdict with what the engine did, and its drawing
    then has a pass to replay; each exercise's starting code has one problem, marked on its drawing, as the
    lesson says."""
    page = lab_page
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    _set_theme(lab, "light")
    _run_all(lab, page, lesson, front)
    if front == "lab":
        lab.wait_idle(page, timeout=120_000)
    predictions, exercises = STEPS[lesson]
    assert predictions == len(PREDICTIONS[lesson])
    cells = page.locator(".jp-CodeCell").filter(has=page.locator(".agt-predict"))
    expect(cells).to_have_count(predictions, timeout=20_000)   # the last widgets render a moment after Run All
    for i, (wrong_answer, right_answer, seen) in enumerate(PREDICTIONS[lesson]):
        cell = cells.nth(i)
        predict = cell.locator(".agt-predict")
        _shows(predict, "Predict")
        _predict(page, predict, right_answer if right else wrong_answer, right, seen)
        drawing = cell.locator(".agt-root")
        if drawing.count():
            page.wait_for_function("el => /\\/ [1-9]/.test(el.textContent)",
                                   arg=drawing.locator(".agt-pos").element_handle(), timeout=20_000)
        predict.screenshot(path=str(ARTIFACTS / f"predict-all-{front}-{lesson[:2]}-{i}.png"))
    checks = page.locator(".agt-check")
    expect(checks).to_have_count(exercises)
    for i in range(exercises):  # starts wrong, with what is wrong marked (an edge, a leaf, a node, a cell)
        assert "is-wrong" in checks.nth(i).get_attribute("class")
        assert checks.nth(i).locator("svg .is-wrong").count() >= 1
    assert _axe(page, ".agt-predict, .agt-check") == []


LESSON_5 = "05_hooks_and_events.ipynb"
LESSON_7 = "07_a_small_cnn.ipynb"
LESSON_9 = "09_where_did_my_gradient_go.ipynb"


def _lesson_source(name: str, text: str) -> str:
    cells = json.loads((LESSONS / name).read_text())["cells"]
    (source,) = ["".join(c["source"]) for c in cells if text in "".join(c["source"])]
    return source


def _fix_by_typing(page, cell, fixed: str, wrong_text: str, right_text: str, shot: str) -> None:
    """The exercise's check starts wrong (saying ``wrong_text``); the learner retypes the cell, runs it with
    Shift+Enter, and the check turns right (saying ``right_text``)."""
    cell.scroll_into_view_if_needed()
    wrong = cell.locator(".agt-check.is-wrong")
    wrong.wait_for()
    _shows(wrong, wrong_text)
    assert wrong.locator("svg .is-wrong").count() >= 1
    wrong.screenshot(path=str(ARTIFACTS / f"exercise-{shot}-wrong.png"))
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(fixed)
    page.keyboard.press("Shift+Enter")
    right = cell.locator(".agt-check.is-right")
    right.wait_for(timeout=30_000)
    _shows(right, right_text)
    assert right.locator("svg .is-wrong").count() == 0
    right.screenshot(path=str(ARTIFACTS / f"exercise-{shot}-right.png"))


def test_lesson_5_event_prediction_by_keyboard_and_both_exercises_fixed(lab, lab_page):
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / LESSON_5, lab.root / LESSON_5)
    _set_theme(lab, "light")
    _run_all(lab, page, LESSON_5, "lab")

    cell = _cell_with(page, "flows_question = Question(")
    predict = cell.locator(".agt-predict")
    predict.scroll_into_view_if_needed()
    predict.get_by_label("Your prediction (a number)").focus()
    page.keyboard.type("6")
    page.keyboard.press("Enter")
    verdict = predict.locator(".agt-quiz-feedback.is-correct")
    verdict.wait_for(timeout=20_000)
    assert "s.backward() recorded 6 gradient_flowed events; u.grad = -12, v.grad = 5." in verdict.inner_text()
    drawing = cell.locator(".agt-root")
    drawing.focus()
    page.keyboard.press("End")
    page.wait_for_function("el => /step [1-9]\\d* \\/ [1-9]/.test(el.textContent)",
                           arg=drawing.locator(".agt-pos").element_handle())
    assert "u.grad = -12" in drawing.locator(".agt-narration").inner_text()
    cell.screenshot(path=str(ARTIFACTS / "predict-lab-light-lesson5-events.png"))

    hook = _lesson_source(LESSON_5, "check_hook(clip)")
    _fix_by_typing(page, _cell_with(page, "check_hook(clip)"),
                   hook.replace("    grad.clamp(-1, 1)", "    return grad.clamp(-1, 1)"),
                   "Your hook returned None", "Your hook clips every gradient", "lab-light-lesson5-hook")
    listener = _lesson_source(LESSON_5, "check_listener(count_arrivals, arrivals)")
    _fix_by_typing(page, _cell_with(page, "check_listener(count_arrivals, arrivals)"),
                   listener.replace("source_id", "target_id"), "leaving each node",
                   "Your counts match the engine's record", "lab-light-lesson5-listener")
    assert _axe(page, ".agt-predict, .agt-check") == []


@pytest.mark.parametrize("front", ["lab", "notebook"])
def test_lesson_7_kernel_exercise_fixed_in_the_cell(lab, lab_page, front):
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / LESSON_7, lab.root / LESSON_7)
    theme = "light" if front == "lab" else "dark"
    _set_theme(lab, theme)
    _run_all(lab, page, LESSON_7, front)
    source = _lesson_source(LESSON_7, "check_kernel_grad(kernel_grad)")
    cell = _cell_with(page, "check_kernel_grad(kernel_grad)")
    cell.scroll_into_view_if_needed()
    assert cell.locator(".agt-check .cell.is-wrong").count() == 4     # every entry is off at the start
    _fix_by_typing(page, cell, source.replace("grad += image", "grad += grad_output[i, j] * image"),
                   "You added up the patches", "Every kernel entry matches", f"{front}-{theme}-lesson7-kernel")
    assert cell.locator(".agt-check .cell.is-right").count() == 4
    assert _axe(page, ".agt-check") == []


#: Lesson 9's predictions in order (their answers: PREDICTIONS): (the candidates of its Predict, answered right?,
#: what the end of the replay under it says). Three are answered wrong, two right.
LESSON_9_PREDICTIONS = [('{"w": w, "b": b, "h": h}', False, "b.grad = 9"), ('{"w1": w1, "w2": w2}', True, "w2.grad"),
                        ('{"w_forgot": w_forgot', False, "gain.grad = 1"), ('{"w": w, "b": b}', True, "b.grad = 3"),
                        ('{"w": w, "b": b}', False, "b.grad = -2")]
#: Lesson 9's exercise, fixed a line at a time: (the line replaced, its fix, what the check then says first)
LESSON_9_FIXES = [("scale = torch.tensor(w.item())", "scale = w", "b still gets no gradient."),
                  ("b.detach()", "b", "Every parameter gets a gradient: the step trains them all.")]


@pytest.mark.parametrize("front", ["lab", "notebook"])
def test_lesson_9_every_prediction_by_mouse_and_its_exercise_fixed_line_by_line(lab, lab_page, front):
    """Each section of lesson 9 asks, before backward, who gets a .grad: its drawing marks the cut (no pass yet);
    ticked by mouse, the prediction gets Python's verdict with what the engine did, and the drawing then replays
    the pass to its end. The exercise's check names both parameters that get no gradient, then one once the first
    line is fixed (typed in the cell, both cells run with Shift+Enter), then none."""
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / LESSON_9, lab.root / LESSON_9)
    _set_theme(lab, "light")
    _run_all(lab, page, LESSON_9, front)
    cells = page.locator(".jp-CodeCell").filter(has=page.locator(".agt-predict"))
    assert cells.count() == len(LESSON_9_PREDICTIONS)
    for k, (asked, right, end) in enumerate(LESSON_9_PREDICTIONS):
        wrong_answer, right_answer, seen = PREDICTIONS[LESSON_9][k]
        cell = cells.nth(k)
        _shows(cell.locator(".jp-InputArea"), asked)                  # scrolled to it, the source it runs
        predict, drawing = cell.locator(".agt-predict"), cell.locator(".agt-root")
        _shows(drawing, "graph cut")                                   # the cut is marked before backward ...
        assert drawing.locator(".agt-node.agt-cut").count() >= 1
        assert drawing.locator(".agt-pos").inner_text().endswith("/ 0")  # ... and there is no pass yet
        _predict(page, predict, right_answer if right else wrong_answer, right, seen)
        page.wait_for_function("el => /\\/ [1-9]/.test(el.textContent)",
                               arg=drawing.locator(".agt-pos").element_handle(), timeout=20_000)
        drawing.focus()
        page.keyboard.press("End")
        assert end in drawing.locator(".agt-narration").inner_text()
        cell.screenshot(path=str(ARTIFACTS / f"predict-{front}-light-lesson9-{k + 1}.png"))
    said = [cells.nth(k).locator(".agt-quiz-feedback").text_content() for k in (0, 2, 4)]  # why, a line each
    assert "h.detach() cut it from the graph" in said[0]
    assert "w_frozen gets no gradient: it was switched off with requires_grad_(False)" in said[1]
    assert "score was computed from w, then score.item() cut it from the graph" in said[2]

    step = _cell_with(page, "def train_step(w, b):")
    check = _cell_with(page, "check_gradients(train_step").locator(".jp-OutputArea-output")
    _shows(check, "w, b still get no gradient.")
    items = check.locator(".agt-check-details li")
    assert [t[0] for t in items.all_inner_texts()] == ["✗", "✗"]
    assert check.locator(".agt-check.is-wrong svg").count() == 2      # one drawing per parameter, each marked:
    marked = check.locator("svg text.is-wrong").all_text_contents()    # loss is a copy of w.item(); b is not in it
    assert marked == ["made from w.item(): no path back to w", "not in the graph: b.detach() cut it off"]
    check.screenshot(path=str(ARTIFACTS / f"exercise-{front}-light-lesson9-start.png"))
    source = _lesson_source(LESSON_9, "def train_step(w, b):")
    for line, fixed, said in LESSON_9_FIXES:
        source = source.replace(line, fixed)
        step.locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(source)
        page.keyboard.press("Shift+Enter")                             # runs the step, moves to the check
        page.keyboard.press("Shift+Enter")                             # runs the check
        _shows(check, said, timeout=30_000)
        check.screenshot(path=str(ARTIFACTS / f"exercise-{front}-light-lesson9-{said.split()[0].lower()}.png"))
        if said.startswith("b still"):                                 # w fixed: b's cut edge is marked
            assert check.locator(".edge.is-wrong").count() == 1
            assert check.locator("svg text.is-wrong").all_text_contents() == ["b.detach(): b's gradient stops here"]
            assert {"x", "y"} <= set(check.locator("svg text").all_text_contents())  # the data, by name
    assert [t[0] for t in items.all_inner_texts()] == ["✓", "✓"]
    assert check.locator(".agt-check.is-right .edge.is-right").count() == 6
    assert check.locator(".is-wrong").count() == 0
    assert _axe(page, ".agt-predict, .agt-check") == []


LESSON_1, LESSON_2 = "01_computation_graph.ipynb", "02_leaf_and_non_leaf.ipynb"
SCORE = _lesson_source(LESSON_1, "check_first_none(score")
SCORE_CUT, SCORE_FIX = "torch.tensor(min(mean.item(), 5.0))", "mean.clamp(max=5.0)"
GRAD_READ = _lesson_source(LESSON_2, "check_grad_read(step")
GRAD_READ_EARLY = '    print("gradient norm:", w.grad.norm())     # a progress report\n'
#: lesson -> [(a line of the exercise cell, its fixed source, the starting verdict, the fixed one)]
EXERCISES = {
    "01_computation_graph.ipynb": [
        ("check_graph(mine, target)", "mine = (w * x + b).tanh() * x\ncheck_graph(mine, target)",
         "Missing TanhBackward0 between AddBackward0 and MulBackward0", "Your graph is the target's"),
        ("check_first_none(score", SCORE.replace('first_none = ""', 'first_none = "clipped"')
         .replace(SCORE_CUT, SCORE_FIX), "score(w, x) has grad_fn=None", "the history reaches your inputs again"),
        ("check_branches(f, {", 'def f(x):\n    if x > 0:\n        return x * x\n    return x.exp() - 1\n\n'
         'check_branches(f, {"x > 0": (2.0, lambda x: x * x),\n"x <= 0": (0.0, lambda x: x.exp() - 1)})',
         "For x = 0 (x <= 0), at the root, yours has MulBackward0", "builds its own graph, the one asked for")],
    "02_leaf_and_non_leaf.ipynb": [
        ("check_tracking(fit", "from autograd_tutor.checks import check_tracking\n\n"
         "weight = torch.tensor([1.0, -2.0], requires_grad=True)\nbias = torch.tensor(0.0, requires_grad=True)\n"
         "points = torch.tensor([1.0, 2.0])\nfit = ((weight * points).sum() + bias - 3) ** 2\n"
         'check_tracking(fit, trained={"weight": weight, "bias": bias}, data={"points": points})',
         "weight is not a leaf (its grad_fn is MulBackward0)", "weight.grad = [-12, -24], bias.grad = -12"),
        ("check_grad_read(step", GRAD_READ.replace(GRAD_READ_EARLY, "").replace(
            "    loss.backward()\n", "    loss.backward()\n" + GRAD_READ_EARLY),
         "'NoneType' object has no attribute 'norm'", "your step read it after, and returned w.grad = [-5, -10]")],
    "04_retain_grad_and_retain_graph.ipynb": [
        ("check_retained(step)", "from autograd_tutor.checks import check_retained\n\ndef step(x):\n"
         "    h = x * 3\n    h.retain_grad()\n    out = h * h\n    out.backward(retain_graph=True)\n"
         '    print("h.grad =", h.grad)\n    out.backward()\n    print("x.grad =", x.grad)\n\ncheck_retained(step)',
         "Pass retain_graph=True to the first backward()", "x.grad went from 36 after the first pass to 72")],
}
FIXES = [(lesson, k) for lesson, steps in EXERCISES.items() for k in range(len(steps))]


def _fix_by_keyboard(page, lesson: str, k: int, tag: str) -> None:
    """Exercise ``k`` of ``lesson`` starts marked; the fix typed into its cell and run turns it to Right."""
    marker, fixed, wrong_text, right_text = EXERCISES[lesson][k]
    cell = _cell_with(page, marker)
    cell.scroll_into_view_if_needed()
    wrong = cell.locator(".agt-check.is-wrong")
    wrong.wait_for(timeout=20_000)
    _shows(wrong, wrong_text)
    assert wrong.locator("text.is-wrong").count() == 1
    wrong.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-{lesson[:2]}-{k}-wrong.png"))
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    for line in fixed.split("\n"):        # typed line by line; Home+Shift+End clears the editor's auto-indent
        page.keyboard.press("Shift+Home")
        page.keyboard.insert_text(line)
        page.keyboard.press("Enter")
    page.keyboard.press("Shift+Enter")
    right = cell.locator(".agt-check.is-right")
    right.wait_for(timeout=30_000)
    _shows(right, right_text)
    assert right.locator("text.is-wrong, .edge.is-wrong, .box.is-wrong").count() == 0
    assert right.locator(".edge.is-right").count() >= 1
    right.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-{lesson[:2]}-{k}-right.png"))
    assert _axe(page, ".agt-check") == []


@pytest.mark.parametrize("lesson, k", FIXES)
def test_new_exercises_fixed_by_keyboard_in_jupyterlab(lab, lab_page, lesson, k):
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    _set_theme(lab, "light")
    _run_all(lab, lab_page, lesson, "lab")
    _fix_by_keyboard(lab_page, lesson, k, "lab-light")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_lesson_1_graph_exercise_fixed_in_notebook_7(lab, lab_page, theme):
    lesson = "01_computation_graph.ipynb"
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    _set_theme(lab, theme)
    _run_all(lab, lab_page, lesson, "notebook")
    _fix_by_keyboard(lab_page, lesson, 0, f"notebook-{theme}")


#: lesson -> (a line of its custom-Function exercise, the wrong line, the learner's fix, its inputs' edges,
#: what the check says at first)
FUNCTION_FIXES = {
    "06_training_a_tiny_network.ipynb": ("class MySigmoid(", "return grad_output * s ",
                                         "return grad_output * s * (1 - s) ", 1,
                                         "Not yet: Your backward is wrong for scores: see the marked edge."),
    "08_reading_the_engine.ipynb": ("class MulAdd(", "return grad_output * b, grad_output * b, grad_output",
                                    "return grad_output * b, grad_output * a, grad_output", 3,
                                    "Not yet: Your backward is wrong for right: see the marked edge."),
}


#: The edge labels of a check's drawing that run into a box (a pill or the node), as drawn by the browser.
_LABELS_ON_BOXES = """(check) => {
  const boxes = [...check.querySelectorAll('svg rect.box')].map((r) => r.getBBox());
  return [...check.querySelectorAll('svg text.is-wrong, svg text.is-right')].filter((t) => {
    const a = t.getBBox();
    return boxes.some((b) => a.x < b.x + b.width && b.x < a.x + a.width &&
                             a.y < b.y + b.height && b.y < a.y + a.height);
  }).map((t) => t.textContent);
}"""


@pytest.mark.parametrize("lesson", list(FUNCTION_FIXES))
def test_custom_function_exercises_fixed_in_the_cell(lab, lab_page, lesson):
    """The backward the learner writes for their own Function: marked wrong on its edge, right once fixed."""
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    _set_theme(lab, "light")
    _run_all(lab, page, lesson, "lab")
    marker, wrong, fix, edges, said = FUNCTION_FIXES[lesson]
    source = _lesson_source(lesson, marker)
    assert wrong in source
    cell = _cell_with(page, marker)
    cell.scroll_into_view_if_needed()
    _shows(cell.locator(".agt-check.is-wrong"), said)
    assert cell.locator(".agt-check").evaluate(_LABELS_ON_BOXES) == []     # "expected ..., got ..." clears the node
    _fix_by_typing(page, cell, source.replace(wrong, fix), said, "Right: Your backward is right",
                   f"lab-light-{lesson[:2]}-function")
    assert cell.locator(".agt-check .edge.is-right").count() == edges
    assert cell.locator(".agt-check").evaluate(_LABELS_ON_BOXES) == []
    assert _axe(page, ".agt-check") == []


def _after_run_all(lab, page, lesson: str, front: str, theme: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    _set_theme(lab, theme)
    _run_all(lab, page, lesson, front)
    if front == "lab":
        lab.wait_idle(page, timeout=120_000)


def _run_edited(page, cell, source: str) -> None:
    """Replace the cell's source with ``source`` and run it (Shift+Enter on the editor)."""
    editor = cell.locator(".cm-content")
    editor.click()
    editor.press("Control+a")
    page.keyboard.insert_text(source)
    editor.press("Shift+Enter")


FRONTS = [("lab", "light"), ("notebook", "dark")]


@pytest.mark.parametrize("front, theme", FRONTS)
def test_lesson_1_grow_and_print_predictions_then_the_cut_found_and_fixed(lab, lab_page, front, theme):
    """grow(0.05): the drawing under the question is empty until the number is typed, then holds the five
    multiplications and replays the pass; print(t.grad_fn): picked by mouse, the reveal prints each; the exercise
    says the result has no grad_fn, then "Found it" once first_none names the cut, then Right once it is fixed."""
    page, tag = lab_page, f"{front}-{theme}"
    _after_run_all(lab, page, LESSON_1, front, theme)
    cell = _cell_with(page, 'Predict(Question("grow-muls"')
    predict, drawing = cell.locator(".agt-predict"), cell.locator(".agt-root")
    _shows(predict, "How many MulBackward0 nodes")
    expect(drawing).to_contain_text("0 nodes")                       # nothing drawn before the prediction
    _predict(page, predict, "5", True, GROW_SEEN)
    page.wait_for_function("el => /\\/ [1-9]/.test(el.textContent)",
                           arg=drawing.locator(".agt-pos").element_handle(), timeout=20_000)
    expect(drawing).to_contain_text("18 nodes, 17 edges")   # x, 5 × (abs, MulBackward0 and its 3), abs, tanh
    drawing.press("End")
    expect(drawing.locator(".agt-narration")).to_contain_text("Backward pass 1 is done")
    cell.screenshot(path=str(ARTIFACTS / f"predict-{tag}-lesson1-grow.png"))

    cell = _cell_with(page, "Predict.grad_fn_none(")
    predict = cell.locator(".agt-predict")
    _shows(predict, "print(t.grad_fn) show as None")
    said = _predict(page, predict, ("p", "r", "s", "k"), False, PRINT_SEEN)
    assert "s was made by a recorded operation: grad_fn=<MulBackward0>" in " ".join(said.split())
    predict.screenshot(path=str(ARTIFACTS / f"predict-{tag}-lesson1-print.png"))

    cell = _cell_with(page, "check_first_none(score")
    check = cell.locator(".agt-check")
    _shows(check, "score(w, x) has grad_fn=None")
    expect(cell.locator(".jp-OutputArea")).to_contain_text("None")   # the cell's own print
    expect(check.locator("svg text.is-wrong")).to_have_text(["grad_fn=None"])
    check.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-lesson1-cut-start.png"))
    named = SCORE.replace('first_none = ""', 'first_none = "clipped"')
    _run_edited(page, cell, named)
    _shows(check, "Found it: clipped is the first to print grad_fn=None")
    expect(check.locator("svg text.is-wrong")).to_have_text(["the first grad_fn=None"])
    check.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-lesson1-cut-found.png"))
    _run_edited(page, cell, named.replace(SCORE_CUT, SCORE_FIX))
    right = cell.locator(".agt-check.is-right")
    right.wait_for(timeout=30_000)
    _shows(right, "score(w, x) has grad_fn=MulBackward0, and backward will give w.grad = [0.6667, 0, 2]")
    assert right.locator(".edge.is-right").count() >= 4 and right.locator(".is-wrong").count() == 0
    right.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-lesson1-cut-fixed.png"))
    assert _axe(page, ".agt-predict, .agt-check") == []


@pytest.mark.parametrize("front, theme", FRONTS)
def test_lesson_2_grad_read_early_then_fixed(lab, lab_page, front, theme):
    page, tag = lab_page, f"{front}-{theme}"
    _after_run_all(lab, page, LESSON_2, front, theme)
    cell = _cell_with(page, "check_grad_read(step")
    wrong = cell.locator(".agt-check.is-wrong")
    _shows(wrong, "before any backward() ran: w.grad is None until backward() fills it")
    expect(wrong.locator("svg text.is-wrong")).to_have_text(["w.grad is None here"])
    wrong.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-lesson2-grad-read-wrong.png"))
    _run_edited(page, cell, EXERCISES[LESSON_2][1][1])
    right = cell.locator(".agt-check.is-right")
    right.wait_for(timeout=30_000)
    _shows(right, "your step read it after, and returned w.grad = [-5, -10]")
    expect(cell.locator(".jp-OutputArea")).to_contain_text("gradient norm: tensor(11.1803)")
    right.screenshot(path=str(ARTIFACTS / f"exercise-{tag}-lesson2-grad-read-right.png"))
    assert _axe(page, ".agt-check") == []


@pytest.mark.parametrize("front, theme", FRONTS)
def test_lesson_3_vjp_prediction_and_its_replay(lab, lab_page, front, theme):
    """What Cube's backward receives: picked by mouse; the reveal says grad_output and the product, and the
    drawing under it, stepped to its end by keyboard, holds both."""
    page, tag = lab_page, f"{front}-{theme}"
    _after_run_all(lab, page, LESSON_3, front, theme)
    cell = _cell_with(page, 'Predict(Question("vjp"')
    predict, drawing = cell.locator(".agt-predict"), cell.locator(".agt-root")
    _shows(predict, "what will u.grad be?")
    assert drawing.locator(".agt-pos").text_content().endswith("/ 0")   # no pass before the prediction
    _predict(page, predict, ("[3.0, 6.0, 36.0]",), True, VJP_SEEN)
    page.wait_for_function("el => /\\/ [1-9]/.test(el.textContent)",
                           arg=drawing.locator(".agt-pos").element_handle(), timeout=20_000)
    drawing.press("End")
    expect(drawing.locator(".agt-narration")).to_contain_text("cubed.grad = [1, 2, 3], u.grad = [3, 6, 36]")
    cell.screenshot(path=str(ARTIFACTS / f"predict-{tag}-lesson3-vjp.png"))
    assert _axe(page, ".agt-predict") == []
