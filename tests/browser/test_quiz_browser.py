"""The quiz widget in a real JupyterLab and chromium (fixtures ``lab`` and ``lab_page`` from conftest.py).

A notebook written at run time shows a quiz mixing the lesson-1 bank and questions generated from a small graph.
The test answers by clicks and by keys alone, reads the feedback, and runs a later cell to see that the score and
the answers reached the kernel. Screenshots go to tests/browser/artifacts/ (gitignored).
"""
from __future__ import annotations

import json
import re

from conftest import ARTIFACTS

SETUP = """\
import autograd_tutor as torch
from autograd_tutor.quiz import Quiz, load_bank, quiz_from
from autograd_tutor.widgets import QuizWidget

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
c = torch.tensor(5.0)
z = w * x
loss = z * c + x
mine = quiz_from(loss)
bank = load_bank("lesson1")
quiz = QuizWidget(Quiz("Browser check", [bank["grad-after-backward"], mine["grad-value"], mine["gets-grad"],
                                         mine["classify"]]))
quiz"""
REPORT = 'print("SCORE", quiz.score, "OF", quiz.total, sorted(quiz.answers))'


def write_notebook(path, cells: list) -> None:
    """A minimal nbformat 4 notebook with these code cells and no outputs."""
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"cell{i}", "metadata": {}, "outputs": [],
                     "source": src} for i, src in enumerate(cells)],
          "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                      "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb, indent=1))


def test_quiz_answered_by_clicks_and_keys_reaches_python(lab, lab_page):
    ARTIFACTS.mkdir(exist_ok=True)
    write_notebook(lab.root / "quiz_check.ipynb", [SETUP, REPORT])
    page = lab_page
    lab.run_all(page, "quiz_check.ipynb")
    widget = page.locator(".agt-quiz")
    widget.wait_for(timeout=60000)
    page.get_by_text("SCORE 0 OF 4").wait_for(timeout=30000)
    feedback = widget.locator(".agt-quiz-feedback")
    score = widget.locator(".agt-quiz-score")
    assert score.inner_text() == "Score 0 / 4"
    # The answer key is nowhere in the page: only prompts and choices.
    html = widget.inner_html()
    assert "Backward walks the recorded graph" not in html and ">16<" not in html

    # 1. Single choice with the mouse: a wrong choice, then the right one.
    widget.get_by_text("Only the loss tensor itself").click()
    widget.get_by_role("button", name="Check answer").click()
    feedback.locator("text=Not quite").wait_for()
    assert "it is not a leaf" in feedback.inner_text()
    assert "is-wrong" in feedback.get_attribute("class")
    widget.get_by_text("Leaf tensors that have").click()
    widget.get_by_role("button", name="Check answer").click()
    feedback.locator("text=Correct").wait_for()
    assert "Backward walks the recorded graph" in feedback.inner_text()
    assert feedback.get_attribute("role") == "status" and feedback.get_attribute("aria-live") == "polite"
    page.wait_for_function("document.querySelector('.agt-quiz-score').textContent === 'Score 1 / 4'")
    widget.screenshot(path=str(ARTIFACTS / "quiz-single-choice.png"))

    # 2. A number, keyboard only: focus was moved to "Next"; Enter goes on, Shift+Tab reaches the text box.
    assert page.evaluate("document.activeElement.textContent") == "Next \u2192"
    page.keyboard.press("Enter")
    widget.get_by_text("Question 2 of 4").wait_for()
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id").endswith("grad-value-input")
    page.keyboard.type("15")
    page.keyboard.press("Enter")
    feedback.locator("text=Not quite").wait_for()
    widget.screenshot(path=str(ARTIFACTS / "quiz-number-wrong.png"))
    page.keyboard.press("Control+a")
    page.keyboard.type("16")
    page.keyboard.press("Enter")
    feedback.locator("text=Correct").wait_for()
    assert "16" in feedback.inner_text()

    # 3. Choose all that apply, keyboard only: Tab into the group, Space toggles, Enter checks.
    page.keyboard.press("Enter")
    widget.get_by_text("Question 3 of 4").wait_for()
    for _ in range(3):
        page.keyboard.press("Shift+Tab")  # Previous, Check answer, then the last choice
    for _ in range(4):
        page.keyboard.press("Shift+Tab")  # up to the first choice, `x`
    assert page.evaluate("document.activeElement.type") == "checkbox"
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    feedback.locator("text=Correct").wait_for()

    # 4. Classify the tensors: a click on `x`, then keys for the others (one wrong mark first).
    page.keyboard.press("Enter")
    widget.get_by_text("Question 4 of 4").wait_for()
    nodes = widget.locator("g.is-classify")
    assert nodes.count() == 5
    widget.screenshot(path=str(ARTIFACTS / "quiz-classify-start.png"))
    nodes.nth(0).click()
    assert nodes.nth(0).get_attribute("aria-label") == "x: leaf, requires grad"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")       # w: leaf, requires grad
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")     # z: non-leaf
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")     # loss: non-leaf
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")       # c: leaf, requires grad (wrong)
    labels = [nodes.nth(i).get_attribute("aria-label") for i in range(5)]
    assert labels == ["x: leaf, requires grad", "w: leaf, requires grad", "z: non-leaf", "loss: non-leaf",
                      "c: leaf, requires grad (off the graph)"]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Check answer"
    page.keyboard.press("Enter")
    feedback.locator("text=4 of 5 tensors are marked right").wait_for()
    nodes.nth(4).focus()
    page.keyboard.press("Space")       # c: leaf, no grad
    widget.screenshot(path=str(ARTIFACTS / "quiz-classify-marked.png"))
    widget.get_by_role("button", name="Check answer").click()
    feedback.locator("text=Correct").wait_for()
    page.wait_for_function("document.querySelector('.agt-quiz-score').textContent === 'Score 4 / 4'")
    widget.screenshot(path=str(ARTIFACTS / "quiz-classify-solved.png"))

    # The score and the answers reached Python: run the report cell again.
    page.locator(".jp-Cell").nth(1).locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    out = page.get_by_text(re.compile(r"SCORE 4 OF 4"))
    out.wait_for(timeout=30000)
    assert "['classify', 'gets-grad', 'grad-after-backward', 'grad-value']" in out.inner_text()

