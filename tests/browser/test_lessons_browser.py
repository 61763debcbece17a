"""Lesson 3 as a learner meets it: opened in JupyterLab, run top to bottom, backward pass stepped by keyboard."""
from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

from conftest import ARTIFACTS
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

LESSON = Path(__file__).parents[2] / "notebooks" / "03_backward_and_chain_rule.ipynb"


def _texts(locator) -> list:
    return [t.strip() for t in locator.all_text_contents()]


def test_lesson_3_runs_and_its_backward_pass_can_be_stepped(lab, lab_page):
    page = lab_page
    shutil.copy(LESSON, lab.root / LESSON.name)
    started = time.perf_counter()
    lab.run_all(page, LESSON.name)
    page.get_by_text("tensor(7.7183)").wait_for(timeout=90_000)  # the last printing cell ran
    page.get_by_text("5.0 3.0").wait_for()
    page.get_by_text("tensor(42.) tensor(28.) tensor(14.)").wait_for()
    lab.wait_idle(page, timeout=120_000)

    widget = page.locator(".agt-root").first
    widget.wait_for()
    page.wait_for_function("document.querySelectorAll('.agt-root')[0].querySelectorAll('.agt-node').length === 4")
    assert _texts(widget.locator(".agt-node .agt-label")) == ["a", "b", "c", "d"]

    widget.press("Home")
    labels = widget.locator(".agt-elabel")
    for _ in range(4):
        widget.press("ArrowRight")
    assert sorted(t for t in _texts(labels) if t) == ["1", "1", "3", "4"]
    assert widget.locator(".agt-narration").text_content() == \
        "a receives 1 + 4 = 5 and stores it in a.grad, which becomes 5."
    widget.press("End")
    b = widget.locator(".agt-node").filter(has=page.locator(".agt-label", has_text="b")).first
    assert b.locator(".agt-grad").text_content() == "grad 3"
    ARTIFACTS.mkdir(exist_ok=True)
    widget.screenshot(path=str(ARTIFACTS / "lesson-3-replay.png"))
    page.screenshot(path=str(ARTIFACTS / "lesson-3-page.png"), full_page=False)
    print(f"\nlesson 3 in the browser (open, run all, step by keyboard): {time.perf_counter() - started:.1f} s")


LESSON_7 = Path(__file__).parents[2] / "notebooks" / "07_a_small_cnn.ipynb"


def test_lesson_7_draws_the_cnn_step_and_replays_it(lab, lab_page):
    """The CNN lesson runs top to bottom; its step graph shows the convolution node and the leaves' gradients
    once the replay is stepped to the end by keyboard."""
    page = lab_page
    shutil.copy(LESSON_7, lab.root / LESSON_7.name)
    lab.run_all(page, LESSON_7.name)
    page.get_by_text("right on 16 of 16").wait_for(timeout=120_000)  # the training cell printed
    lab.wait_idle(page, timeout=120_000)
    # the drawing of the training step: the one whose node table names the logits
    step = page.locator(".agt-root").filter(has=page.locator(".agt-table th", has_text="logits")).first
    step.wait_for()
    # the drawing opens at full size and pans: the node table (text alternative) lists every node
    rows = step.locator(".agt-table tbody tr")
    labels = _texts(rows.locator("th"))
    assert {"loss", "features", "pooled", "logits", "model.0.weight", "X"} <= set(labels), labels
    ops = set(_texts(rows.locator("td:nth-child(3)")))
    assert {"ConvolutionBackward0", "MaxPool2DWithIndicesBackward0", "ReluBackward0"} <= ops, ops
    step.press("End")
    total = step.locator("input[type=range]").get_attribute("max")
    page.wait_for_function(f"(r) => r.querySelector('.agt-pos').textContent.startsWith('step {total} /') && "
                           "!r.dataset.gliding", arg=step.element_handle())  # the end reached, its pan over
    step.locator(".agt-endlist:not([hidden])").wait_for()
    assert step.locator(".agt-narration").text_content()
    grads = [t for t in _texts(rows.locator("td:nth-child(5)")) if t and t != "None"]  # in step with the drawing
    assert len(grads) >= 4, grads  # the kernels, their biases, the linear layer's weight and bias
    ARTIFACTS.mkdir(exist_ok=True)
    step.screenshot(path=str(ARTIFACTS / "lesson-7-step.png"))
    # every leaf's .grad is readable at the end: its box in view at full size, or listed below the drawing;
    # each entry of the list (Tab, Enter) brings its leaf into view
    leaves = step.evaluate(_LEAVES_IN_VIEW)
    assert len(leaves) >= 4, leaves
    listed = _texts(step.locator(".agt-endlist:not([hidden]) .agt-endleaf b"))
    assert all(shown or name in listed for name, shown in leaves.items()), (leaves, listed)
    assert not all(leaves.values()) and sorted(listed) == sorted(leaves), (leaves, listed)  # 1280 px: too wide
    entries = step.locator(".agt-endleaf")
    entries.first.focus()
    for k in range(entries.count()):
        if k:
            page.keyboard.press("Tab")  # (a locator's press would focus the widget first)
        name = entries.nth(k).locator("b").text_content()
        assert entries.nth(k).evaluate("(b) => document.activeElement === b"), name
        page.keyboard.press("Enter")
        try:  # the pan to the leaf: wait for it to end with the leaf in view (a busy page may start it late)
            page.wait_for_function(f"(r) => !r.dataset.gliding && ({_LEAVES_IN_VIEW})(r)[{name!r}]",
                                   arg=step.element_handle(), timeout=10_000)
        except PlaywrightTimeout:
            pass  # the assert below says which leaf and where the leaves are
        assert step.evaluate(_LEAVES_IN_VIEW)[name], (name, step.evaluate(_LEAVES_IN_VIEW))
    step.screenshot(path=str(ARTIFACTS / "lesson-7-end-picked.png"))


#: Per leaf that received .grad (by the node table), whether its box is drawn inside the visible drawing at full
#: size or more (text 10 px and up). A box drawn without its text (culled, far out of view) has no label: not shown.
_LEAVES_IN_VIEW = """(root) => {
  const svg = root.querySelector('.agt-svg'), view = svg.getBoundingClientRect();
  const stage = root.querySelector('.agt-stage').getBoundingClientRect();
  const left = Math.max(view.left, stage.left), right = Math.min(view.right, stage.right);
  const full = view.width / svg.viewBox.baseVal.width >= 1 - 1e-6;
  const drawn = new Map([...root.querySelectorAll('.agt-node.agt-leaf')].map((g) => {
    const r = g.querySelector('.agt-shape').getBoundingClientRect();
    return [g.querySelector('.agt-label')?.textContent, full && r.left >= left - 0.5 && r.right <= right + 0.5 &&
      r.top >= view.top - 0.5 && r.bottom <= view.bottom + 0.5];
  }));
  return Object.fromEntries([...root.querySelectorAll('.agt-table tbody tr')]
    .filter((tr) => tr.cells[1].textContent === 'leaf' && !['', 'None'].includes(tr.cells[4].textContent.trim()))
    .map((tr) => [tr.cells[0].textContent, drawn.get(tr.cells[0].textContent) === true]));
}"""


LESSON_8 = Path(__file__).parents[2] / "notebooks" / "08_reading_the_engine.ipynb"


def test_lesson_8_shows_the_source_beside_the_drawing_of_the_same_step(lab, lab_page):
    """Reading the engine: each step's source sits beside the one live drawing of ``c = a * b``, which ends with
    the replay stepped to the leaves' gradients."""
    page = lab_page
    shutil.copy(LESSON_8, lab.root / LESSON_8.name)
    lab.run_all(page, LESSON_8.name)
    page.get_by_text("tensor(4.) tensor(3.) torch::autograd::AccumulateGrad").wait_for(timeout=90_000)
    lab.wait_idle(page, timeout=120_000)
    for where in ("autograd_tutor/autograd/tensor.py", "autograd_tutor/autograd/function.py",
                  "autograd_tutor/autograd/ops/arithmetic.py", "autograd_tutor/autograd/engine.py",
                  "autograd_tutor/autograd/node.py"):
        page.get_by_text(where, exact=True).first.wait_for()
    page.get_by_text("class MulBackward0(Function):").first.wait_for()
    widget = page.locator(".agt-root").last
    widget.wait_for()
    assert sorted(_texts(widget.locator(".agt-node .agt-label"))) == ["a", "b", "c"]
    widget.press("End")
    assert widget.locator(".agt-narration").text_content() == "Backward pass 1 is done: a.grad = 4, b.grad = 3."
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lesson-8-page.png"), full_page=False)


LESSON_9 = Path(__file__).parents[2] / "notebooks" / "09_where_did_my_gradient_go.ipynb"


def test_lesson_9_marks_the_cut_and_checks_the_prediction(lab, lab_page):
    """Where did my gradient go: the first drawing marks "detached here" between h and kept; the learner predicts
    that only b gets a gradient (Predict says so and runs backward), and the replay then ends with b.grad = 9."""
    page = lab_page
    shutil.copy(LESSON_9, lab.root / LESSON_9.name)
    lab.run_all(page, LESSON_9.name)
    page.get_by_text("still get no gradient.").first.wait_for(timeout=120_000)  # the exercise's check ran
    lab.wait_idle(page, timeout=120_000)
    drawing = page.locator(".agt-root").first
    drawing.scroll_into_view_if_needed()
    cut = drawing.locator(".agt-node.agt-cut")
    assert _texts(cut.locator(".agt-label")) == ["detached here"]
    assert _texts(cut.locator(".agt-sub")) == ["h.detach()"]
    assert drawing.locator(".agt-edge.agt-cutedge").count() == 1  # from kept's box to kept: h is not in this graph
    legend = drawing.locator(".agt-legend")  # its key for cuts shows when the drawing has one (CSS on the class)
    expect(legend).to_have_class(re.compile(r"\bagt-has-cuts\b"))  # a class and textContent: neither needs the
    expect(legend.locator(".agt-cutkey")).to_contain_text("graph cut")  # cell in view (JupyterLab skips cells out of it)

    predict = page.locator(".agt-predict").first  # predict, then see: the reveal runs backward
    predict.scroll_into_view_if_needed()
    predict.locator("label.agt-quiz-choice", has_text="b").click()
    predict.get_by_role("button", name="Check my prediction").click()
    predict.locator(".agt-quiz-feedback.is-correct").wait_for()
    assert "b.grad = 9" in predict.locator(".agt-quiz-feedback").inner_text()

    after = page.locator(".agt-predict").first.locator("xpath=ancestor::div[contains(@class, 'jp-Cell')]")
    after = after.locator(".agt-root").first  # the drawing under the prediction now holds the pass
    after.locator(".agt-pos").page.wait_for_function(
        "el => /\\/ [1-9]/.test(el.textContent)", arg=after.locator(".agt-pos").element_handle())
    after.press("End")
    assert after.locator(".agt-narration").text_content().startswith("Backward pass 1 is done: b.grad = 9.")
    ARTIFACTS.mkdir(exist_ok=True)
    drawing.screenshot(path=str(ARTIFACTS / "lesson-9-cut.png"))
    predict.screenshot(path=str(ARTIFACTS / "lesson-9-predict.png"))
    after.screenshot(path=str(ARTIFACTS / "lesson-9-replay.png"))


LESSON_5 = Path(__file__).parents[2] / "notebooks" / "05_hooks_and_events.ipynb"

#: The boxes of the replay's current step (its node, the ends of the edges it lit) or, at the end, of the leaves
#: that received .grad, as the widget draws them, and whether each lies inside the visible drawing.
_STEP_IN_VIEW = """(root) => {
  const svg = root.querySelector('.agt-svg'), view = svg.getBoundingClientRect();
  const stage = root.querySelector('.agt-stage').getBoundingClientRect();
  const left = Math.max(view.left, stage.left), right = Math.min(view.right, stage.right);
  const boxes = [...root.querySelectorAll('.agt-node.agt-active .agt-shape')];
  const end = root.querySelector('.agt-pos').textContent.match(/step (\\d+) \\/ (\\d+)/);
  if (end && end[1] === end[2])
    for (const g of root.querySelectorAll('.agt-node.agt-leaf'))
      if (!g.querySelector('.agt-grad').textContent.endsWith('None')) boxes.push(g.querySelector('.agt-shape'));
  return boxes.map((b) => { const r = b.getBoundingClientRect();
    return r.left >= left - 0.5 && r.right <= right + 0.5 && r.top >= view.top - 0.5 && r.bottom <= view.bottom + 0.5; });
}"""


def test_lesson_5_replay_keeps_its_step_in_view_and_ends_on_the_leaves(lab, lab_page):
    """Lesson 5's drawing of ``loss`` is wider than the cell: stepping its replay by keyboard, the node of each
    step stays inside the widget's view (it pans to it), and at the last step, the leaves' AccumulateGrad, the
    leaf that received .grad (``w``) is in view, also when jumping there with End."""
    page = lab_page
    page.set_viewport_size({"width": 960, "height": 900})  # a laptop's window: the cell is narrower than the graph
    shutil.copy(LESSON_5, lab.root / LESSON_5.name)
    lab.run_all(page, LESSON_5.name)
    page.get_by_text("p.grad", exact=False).first.wait_for(timeout=90_000)
    lab.wait_idle(page)
    widget = page.locator(".agt-root").filter(has=page.locator(".agt-table th", has_text="loss")).filter(
        has=page.locator(".agt-table th", has_text="w")).first
    widget.scroll_into_view_if_needed()
    wider = "(r) => r.querySelector('.agt-viewport').getBBox().width > r.querySelector('.agt-svg').viewBox.baseVal.width"
    assert widget.evaluate(wider)  # the drawing is wider than its view: the replay must pan
    widget.press("Home")
    count = int(widget.locator("input[type=range]").get_attribute("max"))
    assert count >= 5
    for step in range(1, count + 1):
        widget.press("ArrowRight")
        page.wait_for_function(f"(r) => r.querySelector('.agt-pos').textContent.startsWith('step {step} /') && "
                               "!r.dataset.gliding", arg=widget.element_handle())
        seen = widget.evaluate(_STEP_IN_VIEW)
        assert seen and all(seen), (step, seen)
    w = widget.locator(".agt-node.agt-leaf").filter(has=page.locator(".agt-label", has_text="w")).first
    assert w.locator(".agt-grad").text_content().startswith("grad [")  # the leaf checked above received .grad
    widget.press("Home")
    widget.press("End")
    page.wait_for_function("(r) => !r.dataset.gliding", arg=widget.element_handle())
    seen = widget.evaluate(_STEP_IN_VIEW)
    assert seen and all(seen), seen
    ARTIFACTS.mkdir(exist_ok=True)
    widget.screenshot(path=str(ARTIFACTS / "lesson-5-replay-end.png"))


LESSON_6 = Path(__file__).parents[2] / "notebooks" / "06_training_a_tiny_network.ipynb"


def test_lesson_6_draws_large_gradients_as_heatmaps_with_their_shape(lab, lab_page):
    """Lesson 6's MLP step replayed to where model.0.weight gets its gradient: its gradient row says
    ``grad (16, 2)`` over the heatmap of this pass's gradient (hidden the step before, when .grad is None),
    the edge's label is ``(16, 2)`` beside a small heatmap of the gradient that flowed (its numbers in the
    tooltip), and no label is a cut list (``[…, …``)."""
    page = lab_page
    shutil.copy(LESSON_6, lab.root / LESSON_6.name)
    lab.run_all(page, LESSON_6.name)
    page.get_by_text("accuracy:", exact=False).first.wait_for(timeout=180_000)
    lab.wait_idle(page, timeout=180_000)  # every cell ran: none takes the focus from the widget any more
    widget = page.locator(".agt-root").filter(has=page.locator(".agt-table th", has_text="model.0.weight")).first
    widget.scroll_into_view_if_needed()
    widget.press("Home")  # a locator's press focuses the widget first, each time
    active = widget.locator(".agt-node.agt-active .agt-label")
    for _ in range(40):  # to the step that stores model.0.weight.grad: the replay pans there
        widget.press("ArrowRight")
        page.wait_for_function("(r) => !r.dataset.gliding", arg=widget.element_handle())
        if active.count() and active.first.text_content() == "model.0.weight":
            break
    assert active.count() and active.first.text_content() == "model.0.weight", widget.locator(".agt-pos").text_content()
    weight = widget.locator(".agt-node.agt-leaf").filter(has=page.locator(".agt-label", has_text="model.0.weight"))
    assert weight.locator(".agt-grad").text_content() == "grad (16, 2)"
    # the heatmap under the row is this pass's gradient, sent with the step (the drawing's own is the weight's
    # .grad now, after 300 training steps: the note says the leaves' .grad changed since)
    gheat = weight.locator(".agt-gheat")
    assert gheat.get_attribute("visibility") == "visible"
    cells = "(g) => [...g.querySelectorAll('path')].map((p) => p.getAttribute('fill') + p.getAttribute('d')).join('|')"
    drawn = gheat.evaluate(cells)
    expect(widget.locator(".agt-note")).to_contain_text("changed since")  # textContent: needs no rendering
    widget.press("ArrowLeft")  # before that step: model.0.weight.grad is None, no heatmap
    page.wait_for_function("(r) => !r.dataset.gliding", arg=widget.element_handle())
    assert gheat.get_attribute("visibility") == "hidden"
    widget.press("ArrowRight")
    assert gheat.get_attribute("visibility") == "visible" and gheat.evaluate(cells) == drawn and "|" in drawn
    labels = [t.strip() for t in widget.locator(".agt-elabel").all_text_contents() if t.strip()]
    assert "(16, 2)" in labels and not [t for t in labels if "…" in t], labels
    shown = widget.locator(".agt-lheat[visibility=visible]")
    assert shown.count() >= 1 and "gradient (16, 2): " in " ".join(shown.locator("title").all_text_contents())
    ARTIFACTS.mkdir(exist_ok=True)
    widget.screenshot(path=str(ARTIFACTS / "lesson-6-heatmaps.png"))
