"""A JupyterLab page of the lessons logs no errors: in particular none from a JupyterLite kernel extension.

JupyterLite's Pyodide kernel extension, installed next to JupyterLab, logs
``Shared module @jupyterlite/services doesn't exist`` on every page; its build runs in ``.venv-lite/`` instead.
"""
from __future__ import annotations

import shutil
from pathlib import Path

LESSON = Path(__file__).parents[2] / "notebooks" / "01_computation_graph.ipynb"


def test_a_lesson_page_logs_no_console_errors(lab, lab_page):
    page = lab_page
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    shutil.copy(LESSON, lab.root / LESSON.name)
    page.goto(f"{lab.url}/lab/tree/{LESSON.name}?reset")
    lab.wait_idle(page)
    page.wait_for_timeout(1500)          # late plugin activations log after the kernel is up
    assert not [e for e in errors if "Shared module" in e], errors
    assert errors == []
