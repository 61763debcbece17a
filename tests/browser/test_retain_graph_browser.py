"""The retain_graph demo in a real JupyterLab and chromium.

Click ``y.backward()`` twice: torch's RuntimeError text appears word for word and the failing node is marked.
Reset with the keyboard, then ``y.backward(retain_graph=True)`` and ``y.backward()``: the history of ``x.grad``
reads None, 12, 24, in the page and in the kernel. Screenshots: ``tests/browser/artifacts/``.
"""
from __future__ import annotations

import json

from conftest import ARTIFACTS

from autograd_tutor.autograd.function import FREED_MESSAGE

CELLS = ["from autograd_tutor.widgets import RetainGraphDemo\ndemo = RetainGraphDemo()\ndemo",
         'print("HISTORY", demo.demo.history())']


def _write_notebook(path, cells) -> None:
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"cell{i}", "metadata": {}, "outputs": [],
                     "source": src} for i, src in enumerate(cells)],
          "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                      "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb, indent=1))


def _column(widget, index: int) -> list:
    """The texts of one column of the history table (0: #, 1: call, 2: x.grad, 3: what happened)."""
    cells = widget.locator(f".agt-rg-history tbody tr td:nth-child({index + 1})")
    return [t.strip() for t in cells.all_inner_texts()]


def _wait_rows(page, n: int) -> None:
    """Wait until the history table has ``n`` rows (the start row plus one per call)."""
    page.wait_for_function(f"document.querySelectorAll('.agt-rg-history tbody tr').length === {n}")


def test_backward_twice_error_then_retain_graph_fix(lab, lab_page):
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    _write_notebook(lab.root / "retain_graph_demo.ipynb", CELLS)
    lab.run_all(page, "retain_graph_demo.ipynb")
    page.get_by_text("HISTORY [('x', ['None'])]").wait_for(timeout=60_000)
    widget = page.locator(".agt-rg").first
    widget.wait_for()
    status = widget.locator(".agt-rg-status")
    assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
    assert "PowBackward0 saved self (x = 2)" in status.inner_text()

    # Two plain backward calls: the second fails with torch's message, word for word, at PowBackward0.
    backward = widget.get_by_role("button", name="y.backward()", exact=True)
    assert backward.get_attribute("title").startswith("Run y.backward()")
    backward.click()
    _wait_rows(page, 2)
    widget.locator(".agt-rg-ok").wait_for()
    assert "freed self" in widget.locator(".agt-rg-history").inner_text()
    assert widget.locator(".agt-rg-graph tspan[text-decoration='line-through']").text_content() == "self"
    backward.click()
    _wait_rows(page, 3)
    error = widget.locator(".agt-rg-error")
    error.wait_for()
    assert error.inner_text() == "RuntimeError: " + FREED_MESSAGE
    assert widget.locator(".agt-failed text").text_content() == "✗ RuntimeError here"
    assert "stopped at PowBackward0" in widget.locator(".agt-rg-why").inner_text()
    assert "y.backward(retain_graph=True)" in widget.locator(".agt-rg-fix").inner_text()
    assert _column(widget, 2) == ["None", "12", "12"]
    widget.screenshot(path=str(ARTIFACTS / "retain-graph-error.png"))

    # Reset with the keyboard alone: Tab from the retain_graph button to reset(), Enter.
    widget.get_by_role("button", name="y.backward(retain_graph=True)", exact=True).focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "reset()"
    page.keyboard.press("Enter")
    error.wait_for(state="detached")
    _wait_rows(page, 1)

    # retain_graph=True first, then a plain backward: the gradient accumulates, 12 then 24.
    widget.get_by_role("button", name="y.backward(retain_graph=True)", exact=True).click()
    _wait_rows(page, 2)
    assert widget.locator(".agt-rg-graph tspan[font-weight='700']").text_content() == "self"  # kept
    backward.click()
    _wait_rows(page, 3)
    assert _column(widget, 2) == ["None", "12", "24"]
    assert "12 + 12 = 24" in widget.locator(".agt-rg-ok").inner_text()
    assert widget.locator(".agt-rg-error").count() == 0
    widget.screenshot(path=str(ARTIFACTS / "retain-graph-fixed.png"))

    # The clicks reached the kernel: run the report cell again.
    page.locator(".jp-Cell").nth(1).locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    page.get_by_text("HISTORY [('x', ['None', '12', '24'])]").wait_for(timeout=30_000)
