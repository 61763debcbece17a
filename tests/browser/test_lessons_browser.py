"""Lesson 3 as a learner meets it: opened in JupyterLab, run top to bottom, backward pass stepped by keyboard."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

from conftest import ARTIFACTS

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

    widget = page.locator(".agt-root").first
    widget.wait_for()
    page.wait_for_function("document.querySelectorAll('.agt-root')[0].querySelectorAll('.agt-node').length === 4")
    assert _texts(widget.locator(".agt-node .agt-label")) == ["a", "b", "c", "d"]

    widget.focus()
    page.keyboard.press("Home")
    labels = widget.locator(".agt-elabel")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert sorted(t for t in _texts(labels) if t) == ["1", "1", "3", "4"]
    assert widget.locator(".agt-narration").inner_text() == \
        "a receives 1 + 4 = 5 and stores it in a.grad, which becomes 5."
    page.keyboard.press("End")
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
    # the drawing of the training step: the one whose node table names the logits
    step = page.locator(".agt-root").filter(has=page.locator(".agt-table th", has_text="logits")).first
    step.wait_for()
    # the drawing opens at full size and pans: the node table (text alternative) lists every node
    rows = step.locator(".agt-table tbody tr")
    labels = _texts(rows.locator("th"))
    assert {"loss", "features", "pooled", "logits", "model.0.weight", "X"} <= set(labels), labels
    ops = set(_texts(rows.locator("td:nth-child(3)")))
    assert {"ConvolutionBackward0", "MaxPool2DWithIndicesBackward0", "ReluBackward0"} <= ops, ops
    step.focus()
    page.keyboard.press("End")
    assert step.locator(".agt-narration").inner_text()
    grads = [t for t in _texts(rows.locator("td:nth-child(5)")) if t and t != "None"]  # in step with the drawing
    assert len(grads) >= 4, grads  # the kernels, their biases, the linear layer's weight and bias
    ARTIFACTS.mkdir(exist_ok=True)
    step.screenshot(path=str(ARTIFACTS / "lesson-7-step.png"))


LESSON_8 = Path(__file__).parents[2] / "notebooks" / "08_reading_the_engine.ipynb"


def test_lesson_8_shows_the_source_beside_the_drawing_of_the_same_step(lab, lab_page):
    """Reading the engine: each step's source sits beside the one live drawing of ``c = a * b``, which ends with
    the replay stepped to the leaves' gradients."""
    page = lab_page
    shutil.copy(LESSON_8, lab.root / LESSON_8.name)
    lab.run_all(page, LESSON_8.name)
    page.get_by_text("tensor(4.) tensor(3.) torch::autograd::AccumulateGrad").wait_for(timeout=90_000)
    for where in ("autograd_tutor/autograd/tensor.py", "autograd_tutor/autograd/function.py",
                  "autograd_tutor/autograd/ops/arithmetic.py", "autograd_tutor/autograd/engine.py",
                  "autograd_tutor/autograd/node.py"):
        page.get_by_text(where, exact=True).first.wait_for()
    page.get_by_text("class MulBackward0(Function):").first.wait_for()
    widget = page.locator(".agt-root").last
    widget.wait_for()
    assert sorted(_texts(widget.locator(".agt-node .agt-label"))) == ["a", "b", "c"]
    widget.focus()
    page.keyboard.press("End")
    assert widget.locator(".agt-narration").inner_text() == "Backward pass 1 is done: a.grad = 4, b.grad = 3."
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lesson-8-page.png"), full_page=False)
