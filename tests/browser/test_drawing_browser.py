"""The lessons' drawings as a learner sees them in JupyterLab: readable at the default zoom, text inside boxes.

For lessons 1, 3, 6 and 7 (run top to bottom): every drawing with up to 30 nodes opens at a zoom where its
smallest node text is at least 10 px on screen (a larger drawing pans, it is not shrunk to fit), every node
text that is in the page lies inside its node's box, and edge labels stay clear of the nodes. Screenshots of
each drawing, light and dark theme, go to artifacts/.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import ARTIFACTS

LESSONS = Path(__file__).parents[2] / "notebooks"
CASES = [("01_computation_graph.ipynb", "tensor([10., 10.,  1.,  0.])"), ("03_backward_and_chain_rule.ipynb", "tensor(7.7183)"),
         ("06_training_a_tiny_network.ipynb", "accuracy:"), ("07_a_small_cnn.ipynb", "right on 16 of 16")]

MEASURE = """(root) => {
  const svg = root.querySelector('.agt-svg');
  const scale = svg.getScreenCTM().a;
  const nodes = Number(root.dataset.nodes || 0);
  let smallest = Infinity, outside = [], onNodes = [];
  const boxes = [];
  for (const g of root.querySelectorAll('.agt-node')) {
    const shape = g.querySelector('.agt-shape').getBoundingClientRect();
    boxes.push(shape);
    for (const t of g.querySelectorAll('text')) {
      if (!t.textContent) continue;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * scale);
      const r = t.getBoundingClientRect();
      if (r.left < shape.left - 0.5 || r.right > shape.right + 0.5 || r.top < shape.top - 0.5 ||
          r.bottom > shape.bottom + 0.5) outside.push(t.textContent);
    }
  }
  for (const t of root.querySelectorAll('.agt-elabel')) {
    if (!t.textContent) continue;
    const r = t.getBoundingClientRect();
    for (const b of boxes) {
      if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) onNodes.push(t.textContent);
    }
  }
  return { nodes, smallest, outside, onNodes };
}"""


def _dark(page) -> None:
    page.get_by_role("menuitem", name="Settings", exact=True).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Theme$")).hover()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^JupyterLab Dark$")).click()
    page.wait_for_function("document.body.dataset.jpThemeLight === 'false'")


@pytest.mark.parametrize("lesson, last", CASES)
def test_lesson_drawings_are_readable(lab, lab_page, lesson, last):
    page = lab_page
    shutil.copy(LESSONS / lesson, lab.root / lesson)
    lab.run_all(page, lesson)
    page.get_by_text(last).first.wait_for(timeout=150_000)
    lab.wait_idle(page, timeout=150_000)
    roots = page.locator(".agt-root")
    roots.first.wait_for()
    count = roots.count()
    assert count >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    stem = lesson.split("_")[0]
    for i in range(count):
        root = roots.nth(i)
        root.scroll_into_view_if_needed()
        root.focus()
        page.keyboard.press("End")  # the end of the replay: every gradient written
        page.wait_for_timeout(700)  # nodes the layout moved glide for 0.45 s
        m = root.evaluate(MEASURE)
        if m["nodes"] <= 30:
            assert m["smallest"] >= 9.99, (lesson, i, m)  # 10 px, to a sub-pixel rounding of the stage
        assert m["outside"] == [], (lesson, i, m["outside"])
        assert m["onNodes"] == [], (lesson, i, m["onNodes"])
        root.screenshot(path=str(ARTIFACTS / f"lesson-{stem}-graph-{i}-light.png"))
    _dark(page)
    for i in range(count):
        roots.nth(i).scroll_into_view_if_needed()
        roots.nth(i).screenshot(path=str(ARTIFACTS / f"lesson-{stem}-graph-{i}-dark.png"))
