"""RetainGraphDemo without a browser: build it, click its buttons from Python, check what it shows."""
from __future__ import annotations

import re

import pytest

import autograd_tutor as at
from autograd_tutor.autograd.function import FREED_MESSAGE
from autograd_tutor.viz import names
from autograd_tutor.widgets import RetainGraphDemo

ERROR_PRE = ('<pre class="agt-rg-error"><span class="agt-rg-error-type">RuntimeError'
             "</span>: " + FREED_MESSAGE + "</pre>")


@pytest.fixture(autouse=True)
def _outside_ipython(monkeypatch):
    """Names come from the caller's variables, as in a script, even if another test left an IPython shell."""
    monkeypatch.setattr(names, "notebook_namespace", lambda: None)


def _history_grads(demo) -> list:
    """The x.grad column of the history table, read back from the HTML."""
    rows = re.findall(r"<tr[^>]*><td class=\"agt-rg-num\">\d+</td>(.*?)</tr>", demo.history.value)
    return [re.findall(r'<td class="agt-rg-num">([^<]*)</td>', row)[0] for row in rows]


def test_buttons_are_labelled_focusable_controls():
    demo = RetainGraphDemo()
    buttons = [demo.backward_button, demo.retain_button, demo.reset_button]
    assert [b.description for b in buttons] == ["y.backward()", "y.backward(retain_graph=True)", "reset()"]
    assert all(b.tooltip and not b.disabled and b.tabbable is not False for b in buttons)
    assert "then free what the nodes saved" in demo.backward_button.tooltip
    assert "keep what the nodes saved" in demo.retain_button.tooltip
    assert [b._dom_classes[-1] for b in buttons] == ["agt-rg-backward", "agt-rg-retain", "agt-rg-reset"]
    assert demo.children[1].children == tuple(buttons) and "agt-rg" in demo._dom_classes


def test_click_backward_twice_shows_torchs_error_and_the_fix():
    demo = RetainGraphDemo()
    assert 'role="status" aria-live="polite"' in demo.status.value
    assert "<code>PowBackward0</code> saved <code>self</code> (x = 2)" in demo.status.value
    assert "agt-rg-error" not in demo.status.value and _history_grads(demo) == ["None"]
    demo.backward_button.click()
    assert "agt-rg-ok" in demo.status.value and "<code>PowBackward0</code> freed <code>self</code>" in demo.status.value
    assert 'text-decoration="line-through">self</tspan>' in demo.graph.value
    demo.backward_button.click()
    assert ERROR_PRE in demo.status.value
    assert "stopped at <code>PowBackward0</code>" in demo.status.value
    assert '<p class="agt-rg-fix"><span class="agt-rg-label">Fix:</span>' in demo.status.value
    assert "✗ RuntimeError here" in demo.graph.value and _history_grads(demo) == ["None", "12", "12"]
    assert "RuntimeError at PowBackward0" in demo.history.value and 'class="agt-rg-failed"' in demo.history.value


def test_reset_then_retain_graph_accumulates_12_then_24():
    demo = RetainGraphDemo()
    demo.backward_button.click()
    demo.backward_button.click()
    demo.reset_button.click()
    assert demo.demo.attempts == [] and "agt-rg-error" not in demo.status.value and _history_grads(demo) == ["None"]
    demo.retain_button.click()
    assert "kept <code>self</code>" in demo.status.value and 'font-weight="700">self</tspan>' in demo.graph.value
    demo.backward_button.click()
    assert _history_grads(demo) == ["None", "12", "24"]
    assert "accumulated: 12 + 12 = 24" in demo.status.value and "agt-rg-error" not in demo.status.value
    assert "<caption>History of <code>x.grad</code></caption>" in demo.history.value


def test_your_tensor_is_used_as_it_is_and_reset_is_off():
    w = at.tensor(3., requires_grad=True)
    loss = (w * 2) ** 2
    demo = RetainGraphDemo(loss)
    assert demo.reset_button.disabled and "cannot rebuild its graph" in demo.reset_button.tooltip
    assert demo.backward_button.description == "loss.backward()"
    assert "<code>reset()</code> is off" in demo.header.value
    assert demo.backward().ok and not demo.backward().ok and w.grad.item() == 24.0
    assert "(<code>reset()</code> does that)" not in demo.status.value
    with pytest.raises(RuntimeError, match="needs a function"):
        demo.reset()


def test_a_function_builds_the_graph_again():
    def build():
        a = at.tensor(2., requires_grad=True)
        b = at.tensor(5., requires_grad=True)
        y = a * a + b
        return y
    demo = RetainGraphDemo(build)
    assert "def build():" in demo.header.value and not demo.reset_button.disabled
    demo.backward(), demo.backward()
    assert "<code>b.grad</code> went 1 -&gt; 2" in demo.status.value
    assert _history_grads(demo) == ["None", "4", "4"]
    first = demo.demo.root
    demo.reset()
    assert demo.demo.root is not first and demo.backward().ok


def test_repr_and_mimebundle_are_deterministic():
    demo, other = RetainGraphDemo(), RetainGraphDemo()
    assert repr(demo) == repr(other) == "RetainGraphDemo: y = x ** 3 at x = 2"
    demo.backward(), demo.backward()
    assert repr(demo) == ("RetainGraphDemo: y = x ** 3 at x = 2\n"
                          "  1. y.backward() -> x.grad = 12; PowBackward0 freed self\n"
                          "  2. y.backward() -> RuntimeError at PowBackward0; x.grad stays 12")
    other.backward(), other.backward()
    data = demo._repr_mimebundle_()
    assert data["text/plain"] == repr(demo) and "0x" not in data["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in data
    html = data["text/html"]
    assert html.startswith('<div class="agt-rg"><style>') and "<svg" in html and ERROR_PRE in html
    assert "<button" not in html and html == other.to_html()


def test_text_is_escaped():
    def build():
        t = at.tensor(1., requires_grad=True)
        return t * 2  # a comment with <b>tags</b>
    html = RetainGraphDemo(build).header.value
    assert "&lt;b&gt;tags&lt;/b&gt;" in html and "<b>tags</b>" not in html
