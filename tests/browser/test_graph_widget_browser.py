"""The graph widget in a real JupyterLab and chromium.

``graph_widget.ipynb`` displays a live ``GraphWidget()``, then runs ``d = a*b + a`` and ``d.backward()`` in
later cells: the drawing must show the right nodes, and stepping through the replay *with the keyboard* must
write the edge gradients 1, 4, 3 and end with ``a.grad`` 5; the position reaches Python. ``graph_widget_big``
draws 1,001 nodes and reports how long the browser took. Screenshots: ``tests/browser/artifacts/``.
"""
from __future__ import annotations

import time

from conftest import ARTIFACTS


def _texts(locator) -> list:
    return [t.strip() for t in locator.all_text_contents()]


def _node(widget, label: str):
    return widget.locator(".agt-node").filter(has=widget.page.locator(".agt-label", has_text=label)).first


def test_live_graph_and_keyboard_replay(lab, lab_page):
    page = lab_page
    ARTIFACTS.mkdir(exist_ok=True)
    started = time.perf_counter()
    lab.run_all(page, "graph_widget.ipynb")
    page.get_by_text("tensor(5.) tensor(3.)").wait_for(timeout=60_000)
    widget = page.locator(".agt-root").first
    widget.wait_for()
    page.wait_for_function("document.querySelectorAll('.agt-root .agt-node').length === 4")

    # The drawing: two leaves (pill shapes with AccumulateGrad), the product, and d with its grad_fn.
    assert _texts(widget.locator(".agt-node .agt-label")) == ["a", "b", "MulBackward0", "d"]
    assert _texts(widget.locator(".agt-node .agt-sub")) == ["AccumulateGrad", "AccumulateGrad", "AddBackward0"]
    assert widget.locator(".agt-node.agt-leaf").count() == 2 and widget.locator(".agt-node.agt-op").count() == 2
    assert widget.locator(".agt-edge").count() == 4
    assert "4 nodes" in widget.locator("svg title").first.text_content()
    assert widget.locator(".agt-pos").inner_text() == "step 6 / 6"

    # Replay with the keyboard only: focus the widget, Home, then ArrowRight step by step.
    widget.focus()
    page.keyboard.press("Home")
    labels = widget.locator(".agt-elabel")
    assert [t for t in _texts(labels) if t] == []
    assert _node(widget, "a").locator(".agt-grad").text_content() == "grad None"
    page.keyboard.press("ArrowRight")  # backward starts at d
    assert "starts at d" in widget.locator(".agt-narration").inner_text()
    page.keyboard.press("ArrowRight")  # AddBackward0 passes 1 to both inputs
    assert sorted(t for t in _texts(labels) if t) == ["1", "1"]
    assert widget.locator(".agt-narration").inner_text() == \
        "AddBackward0 passes the gradient 1 unchanged to MulBackward0 and to a."
    assert widget.locator(".agt-node.agt-active .agt-label").text_content() == "d"
    page.keyboard.press("ArrowRight")  # MulBackward0 sends 1 x b = 4 to a and 1 x a = 3 to b
    assert sorted(t for t in _texts(labels) if t) == ["1", "1", "3", "4"]
    assert "1 × b = 4 to a and 1 × a = 3 to b" in widget.locator(".agt-narration").inner_text()
    assert "freed:" in _node(widget, "MulBackward0").locator(".agt-saved").text_content()
    page.keyboard.press("ArrowRight")  # a accumulates the fan-in 1 + 4 = 5
    assert _node(widget, "a").locator(".agt-grad").text_content() == "grad 5"
    assert widget.locator(".agt-total").text_content() == "1 + 4 = 5"
    assert widget.locator(".agt-narration").inner_text() == \
        "a receives 1 + 4 = 5 and stores it in a.grad, which becomes 5."
    table = widget.locator(".agt-table tbody tr").first.locator("td")
    assert table.nth(3).text_content() == "5"  # the text table follows the replay
    widget.screenshot(path=str(ARTIFACTS / "graph-widget-replay.png"))
    page.keyboard.press("ArrowLeft")
    assert _node(widget, "a").locator(".agt-grad").text_content() == "grad None"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert _node(widget, "b").locator(".agt-grad").text_content() == "grad 3"

    # The position reached the kernel: re-run the last cell.
    page.locator(".jp-Cell").last.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    page.get_by_text("STEP 5 | b receives 3 and stores it in b.grad, which becomes 3.").wait_for(timeout=30_000)
    print(f"\nbrowser test (open, run all, replay by keyboard): {time.perf_counter() - started:.1f} s")


def test_thousand_nodes_render_time(lab, lab_page):
    page = lab_page
    lab.run_all(page, "graph_widget_big.ipynb")
    page.get_by_text("replay steps 1003").wait_for(timeout=120_000)
    widget = page.locator(".agt-root").first
    page.wait_for_function("document.querySelector('.agt-root')?.dataset.nodes === '1001'", timeout=60_000)
    assert widget.locator(".agt-info").inner_text() == "1001 nodes, 1585 edges"
    render_ms = float(widget.get_attribute("data-render-ms"))
    in_dom = int(widget.get_attribute("data-in-dom"))
    # One replay step on the big graph, then the whole graph at once (Fit: every node in the DOM, no text).
    widget.focus()
    page.keyboard.press("Home")
    timing = """key => new Promise(resolve => {
        const root = document.querySelector('.agt-root');
        const t0 = performance.now();
        root.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
    })"""
    step_ms = page.evaluate(timing, "ArrowRight")
    assert "starts at y" in widget.locator(".agt-narration").inner_text()
    widget.screenshot(path=str(ARTIFACTS / "graph-widget-1000-nodes.png"))
    fit_ms = page.evaluate(timing, "0")
    assert int(widget.get_attribute("data-in-dom")) == 1001
    widget.screenshot(path=str(ARTIFACTS / "graph-widget-1000-nodes-fit.png"))
    print(f"\nbrowser, 1,001 nodes: first render {render_ms:.0f} ms ({in_dom} nodes in view), "
          f"one replay step {step_ms:.0f} ms, fit all 1,001 nodes {fit_ms:.0f} ms")
    assert render_ms < 5_000 and step_ms < 1_000 and fit_ms < 5_000
