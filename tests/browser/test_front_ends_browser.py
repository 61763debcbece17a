"""Every lesson in JupyterLab 4 and in Notebook 7, light and dark. Lessons 1, 3, 5 and 6: every drawing made after
``backward()`` replays its pass, stepped by keyboard; the widget keeps the arrow keys while it has focus (Notebook 7
moves to the next cell on ArrowRight otherwise) and Escape gives them back; axe-core (vendored, a test asset) finds
no serious or critical violation, text contrast included, in the widgets. Screenshots: ``tests/browser/artifacts/``.
"""
from __future__ import annotations

import json
import re
import shutil
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ARTIFACTS

LESSONS = Path(__file__).parents[2] / "notebooks"
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
WIDGETS = ".agt-root, .agt-quiz, .agt-rg"
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}

#: lesson -> texts the end of its replays must say (the passes its text describes)
EXPECTED = {
    "01_computation_graph.ipynb": ["v.grad"],
    "03_backward_and_chain_rule.ipynb": ["a.grad = 5, b.grad = 3", "b.grad = 14, w.grad = 28, x.grad = 42",
                                         "x.grad = 60"],
    "05_hooks_and_events.ipynb": ["w.grad", "p.grad"],
    "06_training_a_tiny_network.ipynb": ["is done"],
    # lesson 9's drawings replay once their predictions are made: test_predict_exercise_browser.py drives them
}


def _set_theme(lab, theme: str) -> None:
    """Both front ends read JupyterLab's settings folder: write the theme there before the page loads."""
    settings = Path(lab.settings) / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"theme": THEMES[theme]}))


def _idle(lab, name: str, timeout: float = 90.0) -> None:
    """Wait until the notebook's kernel is idle (asked of the server: both front ends share it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{lab.url}/api/sessions", timeout=5) as r:
            sessions = json.load(r)
        if any(s["path"].endswith(name) and s["kernel"]["execution_state"] == "idle" for s in sessions):
            return
        time.sleep(0.5)
    raise AssertionError(f"the kernel of {name} never became idle")


def _fresh_kernel(lab, name: str) -> None:
    """Shut down the notebook's kernel left by an earlier test, so that each front end runs the lesson afresh."""
    with urllib.request.urlopen(f"{lab.url}/api/sessions", timeout=5) as r:
        sessions = json.load(r)
    for s in sessions:
        if s["path"].endswith(name):
            request = urllib.request.Request(f"{lab.url}/api/sessions/{s['id']}", method="DELETE")
            urllib.request.urlopen(request, timeout=10).close()


def _run_all(lab, page, name: str, front: str) -> None:
    _fresh_kernel(lab, name)
    url = f"{lab.url}/lab/tree/{name}?reset" if front == "lab" else f"{lab.url}/notebooks/{name}"
    page.goto(url)
    page.locator(".jp-Notebook").first.wait_for(timeout=60_000)
    _idle(lab, name)
    time.sleep(1.0)  # the front end learns the kernel is idle a moment after the server does
    page.locator(".jp-Notebook").first.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    code_cells = sum(c["cell_type"] == "code" for c in json.loads((lab.root / name).read_text())["cells"])
    page.wait_for_function(
        """n => { const p = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(e => e.textContent);
                  return p.length === n && p.every(t => /\\[\\d+\\]/.test(t)); }""", arg=code_cells,
        timeout=180_000)


def _position(root, timeout: float = 20.0) -> str:
    """The player's "step k / n", once drawn (a view scrolled back into a windowed notebook is drawn again)."""
    deadline = time.monotonic() + timeout
    while True:
        text = root.locator(".agt-pos").inner_text()
        if "/" in text or time.monotonic() > deadline:
            return text
        time.sleep(0.2)


def _replays(page) -> list:
    """The drawings with a replay: (root locator, number of steps)."""
    out = []
    roots = page.locator(".agt-root")
    for i in range(roots.count()):
        roots.nth(i).scroll_into_view_if_needed()
        total = int(_position(roots.nth(i)).split("/")[1])
        if total:
            out.append((roots.nth(i), total))
    return out


def _axe(page) -> list:
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async (selector) => {
             const include = [...document.querySelectorAll(selector)];
             const result = await axe.run({ include }, { runOnly: ['wcag2a', 'wcag2aa'] });
             return result.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary) }));
           }""", WIDGETS)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("front", ["lab", "notebook"])
@pytest.mark.parametrize("lesson", list(EXPECTED))
def test_lesson_replays_by_keyboard_in_every_front_end(lab, lab_page, lesson, front, theme):
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    _set_theme(lab, theme)
    _run_all(lab, page, lesson, front)
    page.wait_for_function("document.querySelectorAll('.agt-root .agt-node').length > 0")
    dark = page.evaluate("document.body.dataset.jpThemeLight") == "false"
    assert dark == (theme == "dark")
    replays = _replays(page)
    assert replays, "no drawing of this lesson has a backward pass to replay"
    endings = []
    for k, (root, total) in enumerate(replays):
        root.scroll_into_view_if_needed()
        root.focus()
        page.keyboard.press("Home")
        assert _position(root) == f"step 0 / {total}"
        page.keyboard.press("ArrowRight")
        assert root.locator(".agt-narration").inner_text().startswith("Backward pass")
        page.keyboard.press("ArrowRight")
        assert root.locator(".agt-pos").inner_text() == f"step {min(2, total)} / {total}"
        assert page.evaluate("el => el.contains(document.activeElement)", root.element_handle())  # kept the keys
        page.keyboard.press("End")
        endings.append(root.locator(".agt-narration").inner_text())
        if k == 0:
            root.screenshot(path=str(ARTIFACTS / f"front-{front}-{theme}-{lesson[:2]}-replay.png"))
            page.keyboard.press("Escape")  # gives the keys back: the focus leaves the widget
            assert not page.evaluate("el => el.contains(document.activeElement)", root.element_handle())
            page.keyboard.press("ArrowLeft")
            assert root.locator(".agt-pos").inner_text() == f"step {total} / {total}"
    for text in EXPECTED[lesson]:
        assert any(text in e for e in endings), (text, endings)
    page.screenshot(path=str(ARTIFACTS / f"front-{front}-{theme}-{lesson[:2]}-page.png"))
    quiz = page.locator(".agt-quiz")
    if quiz.count():  # its score badge, in this theme
        quiz.first.scroll_into_view_if_needed()
        quiz.first.screenshot(path=str(ARTIFACTS / f"front-{front}-{theme}-{lesson[:2]}-quiz.png"))
    violations = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
    assert violations == [], json.dumps(violations, indent=1)


def test_retain_graph_demo_keeps_its_height(lab, lab_page):
    """RetainGraphDemo keeps one height from its first state to an error and a fix (it grew 460 -> 690 px)."""
    page = lab_page
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {}, "outputs": [],
                     "source": "from autograd_tutor.widgets import RetainGraphDemo\nRetainGraphDemo()"}],
          "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                      "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    (lab.root / "steady.ipynb").write_text(json.dumps(nb))
    _set_theme(lab, "light")
    _run_all(lab, page, "steady.ipynb", "lab")
    widget = page.locator(".agt-rg").first
    widget.wait_for()
    heights = [widget.bounding_box()["height"]]
    backward = widget.get_by_role("button", name="y.backward()", exact=True)
    for _ in range(5):  # ok, error, error, ... : the history grows, the status changes
        backward.click()
        page.wait_for_timeout(400)
        heights.append(widget.bounding_box()["height"])
    widget.get_by_role("button", name="reset()", exact=True).click()
    page.wait_for_timeout(400)
    heights.append(widget.bounding_box()["height"])
    print("\nRetainGraphDemo heights:", heights)
    assert max(heights) - min(heights) <= 4, heights


#: The lessons whose replays the test above steps through; the others are rendered and checked below.
OTHERS = sorted(p.name for p in LESSONS.glob("*.ipynb") if p.name not in EXPECTED)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("front", ["lab", "notebook"])
@pytest.mark.parametrize("lesson", OTHERS)
def test_every_other_lesson_renders_in_every_front_end(lab, lab_page, lesson, front, theme):
    """Every lesson runs in both front ends and both themes: its widgets render, axe-core finds no serious or
    critical violation in them, and a screenshot of each widget is kept (``front-...-widget-N.png``)."""
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    _set_theme(lab, theme)
    _run_all(lab, page, lesson, front)
    widgets = page.locator(WIDGETS + ", .agt-predict, .agt-check")
    widgets.first.wait_for(timeout=30_000)
    assert (page.evaluate("document.body.dataset.jpThemeLight") == "false") == (theme == "dark")
    for i in range(widgets.count()):
        widgets.nth(i).scroll_into_view_if_needed()
        widgets.nth(i).screenshot(path=str(ARTIFACTS / f"front-{front}-{theme}-{lesson[:2]}-widget-{i}.png"))
    violations = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
    assert violations == [], json.dumps(violations, indent=1)


#: At the end of a replay: per leaf that received .grad (the node table's), its name and whether its box is inside the visible
#: drawing; per open module frame that shows across the view, whether its name is inside the view too.
_END_VIEW = """(root) => {
  const view = root.querySelector('.agt-svg').getBoundingClientRect();
  const stage = root.querySelector('.agt-stage').getBoundingClientRect();
  const left = Math.max(view.left, stage.left), right = Math.min(view.right, stage.right);
  const inside = (r) => r.left >= left - 0.5 && r.right <= right + 0.5 && r.top >= view.top - 0.5 &&
    r.bottom <= view.bottom + 0.5;
  const drawn = new Map([...root.querySelectorAll('.agt-node.agt-leaf')].map((g) =>  // (boxes far out are culled)
    [g.querySelector('.agt-label')?.textContent, inside(g.querySelector('.agt-shape').getBoundingClientRect())]));
  const leaves = [...root.querySelectorAll('.agt-table tbody tr')]  // the node table lists every node
    .filter((tr) => tr.cells[1].textContent === 'leaf' && !['', 'None'].includes(tr.cells[4].textContent.trim()))
    .map((tr) => [tr.cells[0].textContent, drawn.get(tr.cells[0].textContent) === true]);
  const titles = [...root.querySelectorAll('.agt-frame')].map((f) => {
    const frame = f.querySelector('.agt-fshape').getBoundingClientRect(), t = f.querySelector('.agt-gtab text');
    const r = t.getBoundingClientRect(), across = Math.min(frame.right, right) - Math.max(frame.left, left);
    const shows = across > r.width + 16 && r.top >= view.top && r.bottom <= view.bottom;
    return [t.textContent, !shows || (r.left >= left - 0.5 && r.right <= right + 0.5)];
  });
  return { leaves, titles };
}"""


#: The end list's entries: (leaf name, the text of its .grad, whether it draws a heatmap).
_END_LIST = """(root) => [...root.querySelectorAll('.agt-endlist:not([hidden]) .agt-endleaf')].map((b) =>
  [b.querySelector('b').textContent, b.querySelector('.agt-endgrad').textContent, !!b.querySelector('svg path')])"""


def _check_end_list(page, root, leaves: dict) -> None:
    """Every leaf that received .grad and is not in view is in the end list, and so is every other one; each
    entry, reached by Tab and pressed with Enter (the first by a click), brings its leaf into view, marked;
    stepping back hides the list and the keys stay with the widget."""
    entries = root.evaluate(_END_LIST)
    assert sorted(name for name, _, _ in entries) == sorted(leaves), (entries, leaves)
    grads = {name: (text, heat) for name, text, heat in entries}
    assert grads["model.0.weight"] == ("grad (16, 2)", True), grads  # its shape, over this pass's heatmap
    assert all(text.startswith("grad ") and "…" not in text for text, _ in grads.values()), grads
    buttons = root.locator(".agt-endleaf")
    for k in range(buttons.count()):
        name = buttons.nth(k).locator("b").text_content()
        if k == 0:
            buttons.nth(k).click()
        else:
            page.keyboard.press("Tab")  # from the entry before: Tab reaches the next one
            assert buttons.nth(k).evaluate("(b) => document.activeElement === b"), name
            page.keyboard.press("Enter")
        page.wait_for_function("(r) => !r.dataset.gliding", arg=root.element_handle())
        assert dict(root.evaluate(_END_VIEW)["leaves"])[name], (name, root.evaluate(_END_VIEW))
        assert buttons.nth(k).get_attribute("aria-pressed") == "true"
        picked = root.locator(".agt-node.agt-picked .agt-label")
        assert picked.count() == 1 and picked.text_content() == name
    page.keyboard.press("ArrowLeft")  # the focused entry goes with the list: the widget keeps the focus
    assert root.locator(".agt-endlist").is_hidden()
    assert root.evaluate("(r) => document.activeElement === r")
    assert root.locator(".agt-node.agt-picked").count() == 0
    page.keyboard.press("End")
    page.wait_for_function("(r) => !r.dataset.gliding", arg=root.element_handle())
    assert root.locator(".agt-endlist").is_visible()


@pytest.mark.parametrize("front, theme", [("lab", "dark"), ("lab", "light"), ("notebook", "light"),
                                          ("notebook", "dark")])
def test_lesson_6_replay_ends_on_its_leaves_and_spells_out_numbers_on_request(lab, lab_page, front, theme):
    """Issue 13, lesson 6's MLP step (17 nodes, groups open): at the end of the replay the view shows the leaves
    that received .grad, the most recent (model.0.weight) first, and the narration counts the ones out of view
    ("N more leaves to the left: the list below has every leaf's .grad"); that list gives each leaf's .grad
    (shape and heatmap), each entry a button that brings its leaf into view; axe finds no serious violation in
    it; an open frame's name is never cut at the view's edge; the sentence names big gradients by shape, and
    the "Show every number" button (Enter) shows them in full."""
    page = lab_page
    page.set_viewport_size({"width": 960, "height": 900})
    lesson = "06_training_a_tiny_network.ipynb"
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    _set_theme(lab, theme)
    _run_all(lab, page, lesson, front)
    assert (page.evaluate("document.body.dataset.jpThemeLight") == "false") == (theme == "dark")
    root = page.locator(".agt-root").filter(has=page.locator(".agt-table th", has_text="model.0.weight")).first
    root.scroll_into_view_if_needed()
    assert "/" in _position(root)
    root.focus()
    page.keyboard.press("Home")
    total = int(root.locator("input[type=range]").get_attribute("max"))
    for step in range(1, total):  # the replay pans across the frames: their names stay readable
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"(r) => r.querySelector('.agt-pos').textContent.startsWith('step {step} /') && "
                               "!r.dataset.gliding", arg=root.element_handle())
        titles = root.evaluate(_END_VIEW)["titles"]
        assert all(ok for _, ok in titles), (step, titles)
    page.keyboard.press("Home")
    page.keyboard.press("End")
    page.wait_for_function("(r) => !r.dataset.gliding", arg=root.element_handle())
    seen = root.evaluate(_END_VIEW)
    ARTIFACTS.mkdir(exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / f"lesson-6-end-{front}-{theme}.png"))
    leaves = dict(seen["leaves"])
    assert len(leaves) == 6 and leaves["model.0.weight"], seen  # every weight and bias; the newest in view
    narration = root.locator(".agt-narration").inner_text()
    out = sum(int(n) for n in re.findall(r"(\d+) (?:more lea(?:f|ves) )?(?:to the left|to the right|above|below)",
                                          narration))
    assert out == sum(not v for v in leaves.values()), (narration, seen)
    assert out > 0 and narration.endswith(": the list below has every leaf's .grad."), narration  # 528 px cell
    assert all(ok for _, ok in seen["titles"]), seen["titles"]
    assert "…" not in narration and "model.0.weight.grad" not in narration  # 4 named, and 2 more in the table
    assert root.locator(".agt-endlist").is_visible()
    violations = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
    assert violations == [], json.dumps(violations, indent=1)
    _check_end_list(page, root, leaves)
    root.screenshot(path=str(ARTIFACTS / f"lesson-6-end-picked-{front}-{theme}.png"))

    button, full = root.locator(".agt-fullbtn"), root.locator(".agt-full")
    assert button.inner_text() == "Show every number" and button.get_attribute("aria-expanded") == "false"
    assert full.is_hidden() and button.get_attribute("aria-controls") == full.get_attribute("id")
    button.focus()
    page.keyboard.press("Enter")  # a button: Enter (or Space, or a click) opens it
    assert button.get_attribute("aria-expanded") == "true" and full.is_visible()
    spelled = full.inner_text()  # every leaf, its numbers (the first 32 the drawing keeps of a larger one)
    assert "model.0.weight.grad = (16, 2) [" in spelled and "(the first 32 of 256)" in spelled, spelled
    root.screenshot(path=str(ARTIFACTS / f"lesson-6-end-full-{front}-{theme}.png"))
    page.keyboard.press("Enter")
    assert full.is_hidden() and button.inner_text() == "Show every number"
