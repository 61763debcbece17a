"""Module groups in a real JupyterLab: a 32-node MLP step opens with each Linear as one closed box (the drawing
fits in a few boxes, text at full size); a click opens a group into its nodes, and a click on its frame's name
closes it; the same with the keyboard only (Tab to the box, Enter; Enter again on the open group's name).
Screenshots: ``tests/browser/artifacts/groups-*.png``."""
from __future__ import annotations

import re

from conftest import ARTIFACTS


def _closed(widget) -> int:
    return int(widget.get_attribute("data-closed-groups") or -1)


def _wait_closed(page, n: int) -> None:
    page.wait_for_function(f"document.querySelector('.agt-root').dataset.closedGroups === '{n}'", timeout=30_000)


def test_groups_open_and_close_by_mouse_and_keyboard(lab, lab_page):
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    lab.run_all(page, "module_groups.ipynb")
    page.locator("pre", has_text="groups drawn").first.wait_for(timeout=90_000)
    widget = page.locator(".agt-root").first
    widget.wait_for()
    _wait_closed(page, 6)
    boxes = widget.locator(".agt-group")
    assert boxes.count() == 6 and widget.locator(".agt-legend-group").is_visible()
    first = boxes.first
    assert first.get_attribute("aria-expanded") == "false"
    assert first.locator(".agt-label").text_content() == "model.0 · Linear(2 -> 8)"
    assert "Enter opens it" in first.get_attribute("aria-label")
    scale = widget.locator(".agt-svg").evaluate("s => s.getScreenCTM().a")
    assert scale >= 0.99  # a few boxes: full size, no overview needed
    widget.screenshot(path=str(ARTIFACTS / "groups-closed.png"))

    # the mouse: open model.0, see its nodes framed, close it from the frame's name
    fit = widget.get_by_role("button", name="Fit the whole graph")
    fit.click()  # every box in the DOM
    page.wait_for_timeout(300)
    closed_nodes = widget.locator(".agt-node").count()
    first.click()
    _wait_closed(page, 5)
    tab = widget.locator(".agt-gtab").first
    assert tab.get_attribute("aria-expanded") == "true" and "model.0" in tab.text_content()
    fit.click()
    page.wait_for_timeout(300)
    titles = " | ".join(widget.locator(".agt-node > title").all_text_contents())
    assert widget.locator(".agt-node").count() == closed_nodes + 4  # its weight, bias, TBackward0, Addmm
    assert "model.0.weight: leaf tensor" in titles and "result of AddmmBackward0" in titles
    widget.screenshot(path=str(ARTIFACTS / "groups-open.png"))
    tab.click()
    _wait_closed(page, 6)

    # the keyboard only: Tab from the widget to the first group box, Enter opens it, Enter on its name closes it
    widget.focus()
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('agt-group')"):
            break
    assert page.evaluate("document.activeElement.dataset.g") == "0"
    page.keyboard.press("Enter")
    _wait_closed(page, 5)
    page.wait_for_function("document.activeElement.classList.contains('agt-gtab')")  # the focus stays on it
    page.keyboard.press("Space")
    _wait_closed(page, 6)
    assert page.evaluate("document.activeElement.dataset.g") == "0"

    # the replay lights a closed group when one of its nodes runs
    widget.focus()
    page.keyboard.press("Home")
    for _ in range(40):
        page.keyboard.press("ArrowRight")
        if widget.locator(".agt-group.agt-active").count():
            break
    assert widget.locator(".agt-group.agt-active").count() == 1
    widget.screenshot(path=str(ARTIFACTS / "groups-replay.png"))


def test_a_small_graph_wider_than_the_cell_opens_at_its_left_edge_at_full_size(lab, lab_page):
    page = lab_page
    lab.run_all(page, "module_groups.ipynb")
    page.locator("pre", has_text="groups drawn").first.wait_for(timeout=90_000)
    wide = page.locator(".agt-root").nth(1)
    wide.wait_for()
    page.wait_for_function("document.querySelectorAll('.agt-root')[1].dataset.nodes === '7'")
    svg = wide.locator(".agt-svg")
    x = float(svg.get_attribute("viewBox").split()[0])
    assert x == 0 and svg.evaluate("s => s.getScreenCTM().a") >= 0.99  # its left edge, text at full size
    assert wide.locator(".agt-node .agt-label", has_text=re.compile("^x$")).count() == 1  # the leaf it starts from is in sight
    wide.screenshot(path=str(ARTIFACTS / "groups-wide-small-graph.png"))
    assert wide.locator(".agt-legend-group").is_hidden()  # no module here: no module in the legend
