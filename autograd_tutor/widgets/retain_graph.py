"""``RetainGraphDemo``: click ``backward()`` twice and watch autograd refuse, then fix it with ``retain_graph``.

Three buttons run ``y.backward()``, ``y.backward(retain_graph=True)`` and ``reset()`` on one graph (by default
the lesson's ``y = x ** 3`` at ``x = 2``). Below them: torch's error text word for word when a call fails,
why it failed in plain words and the fix; the graph, drawn by :func:`autograd_tutor.viz.to_svg`, with each
node's saved tensors (plain while saved, struck out once freed, bold when kept) and the failing node marked;
and the history of ``x.grad`` (12, then 24 after ``retain_graph=True`` and a second call).

The widget is thin: standard ipywidgets controls over :class:`autograd_tutor.demos.SecondBackward`, which
runs the calls and reads the engine's events. ``RetainGraphDemo(build)`` takes a function that builds the
graph and returns the output (reset calls it again); ``RetainGraphDemo(loss)`` takes your tensor and uses its
graph as it is, but then reset is disabled: a tensor cannot rebuild the graph that produced it. The buttons
obey Python only (:class:`._browser.Button`): a click message on a disabled button does nothing, and the
browser cannot enable one.

>>> demo = RetainGraphDemo()
>>> demo.backward().ok, demo.backward().ok
(True, False)
>>> print(repr(demo))
RetainGraphDemo: y = x ** 3 at x = 2
  1. y.backward() -> x.grad = 12; PowBackward0 freed self
  2. y.backward() -> RuntimeError at PowBackward0; x.grad stays 12
>>> demo.reset(); demo.backward(retain_graph=True).ok, demo.backward().ok, demo.demo.history()
(True, True, [('x', ['None', '12', '24'])])
"""
from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Optional

import ipywidgets as w

from ..demos.second_backward import CUBE_CODE, Attempt, SecondBackward, cube
from ..viz.names import caller_namespace, is_tensor
from ._browser import Button

__all__ = ["RetainGraphDemo"]

CSS = (Path(__file__).parent / "static" / "retain_graph.css").read_text()
#: Calls the history table shows (the last ones), so that the demo keeps one height however often it is clicked.
SHOWN_CALLS = 3


def _rich(text: str) -> str:
    """Escape ``text`` for HTML and show its `backticked` bits as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(text))


class RetainGraphDemo(w.VBox):
    """The retain_graph demonstration (see the module docstring).

    ``source``: None for ``y = x ** 3`` at ``x = 2``; a function that builds a graph and returns its output;
    or a tensor (reset then disabled). ``names`` maps variable names to tensors for a tensor passed directly
    (default: the notebook's, or the caller's, variables).
    """

    def __init__(self, source=None, *, names: Optional[dict] = None) -> None:
        if is_tensor(source) and names is None:
            names = caller_namespace(2)
        self.demo = SecondBackward(source, names=names)
        root = self.demo.root_name
        self.backward_button = Button(
            description=f"{root}.backward()", button_style="primary", layout=w.Layout(width="auto"),
            tooltip=f"Run {root}.backward(): compute the gradients, then free what the nodes saved")
        self.retain_button = Button(
            description=f"{root}.backward(retain_graph=True)", button_style="info", layout=w.Layout(width="auto"),
            tooltip=f"Run {root}.backward(retain_graph=True): compute the gradients and keep what the nodes saved")
        self.reset_button = Button(
            description="reset()", layout=w.Layout(width="auto"), disabled=not self.demo.can_reset,
            tooltip=("Build the graph again: saved tensors back, .grad None" if self.demo.can_reset else
                     "Reset needs a function that builds the graph, RetainGraphDemo(build): a tensor passed "
                     "directly cannot rebuild its graph"))
        self.backward_button.add_class("agt-rg-backward")
        self.retain_button.add_class("agt-rg-retain")
        self.reset_button.add_class("agt-rg-reset")
        self.backward_button.on_click(lambda _: self.backward())
        self.retain_button.on_click(lambda _: self.backward(retain_graph=True))
        self.reset_button.on_click(lambda _: self.reset())
        buttons = w.HBox([self.backward_button, self.retain_button, self.reset_button])
        buttons.add_class("agt-rg-buttons")
        self.header = w.HTML(self._header_html())
        self.status = w.HTML()
        self.graph = w.HTML()
        self.history = w.HTML()
        for part, cls in ((self.header, "agt-rg-head"), (self.status, "agt-rg-status-box"),
                          (self.graph, "agt-rg-graph-box"), (self.history, "agt-rg-history-box")):
            part.add_class(cls)
        super().__init__([self.header, buttons, self.status, self.graph, self.history])
        self.add_class("agt-rg")
        self._render()

    # ------------------------------------------------------------------ actions (the buttons call these)
    def backward(self, retain_graph: bool = False) -> Attempt:
        """Run one backward call on the graph and redraw; the error, if any, is shown and returned, not raised."""
        attempt = self.demo.backward(retain_graph=retain_graph)
        self._render()
        return attempt

    def reset(self) -> None:
        """Build the graph again (only when it came from a function)."""
        self.demo.reset()
        self._render()

    # ------------------------------------------------------------------ drawing
    def _render(self) -> None:
        self.status.value = self._status_html()
        self.graph.value = self._graph_html()
        self.history.value = self._history_html()

    def _title(self) -> str:
        if self.demo.build is cube:
            return "y = x ** 3 at x = 2"
        return f"{self.demo.root_name} ({'built by ' + self.demo.build.__name__ if self.demo.build else 'your tensor'})"

    def _header_html(self) -> str:
        d = self.demo
        code = CUBE_CODE if d.build is cube else d.code
        parts = [f"<style>{CSS}</style>", "<h3>Backward twice: what <code>retain_graph</code> keeps</h3>",
                 f"<p>Each button runs a backward pass through the graph of <code>{escape(d.root_name)}</code>. "
                 "Watch what the nodes saved: struck out once freed, bold when kept.</p>"]
        if code:
            parts.append(f'<pre class="agt-rg-code">{escape(code)}</pre>')
        if not d.can_reset:
            parts.append("<p>Your tensor's graph is used as it is. <code>reset()</code> is off: a tensor cannot "
                         "rebuild its graph. Pass a function that builds it instead, "
                         "<code>RetainGraphDemo(build)</code>.</p>")
        return "".join(parts)

    def _status_html(self) -> str:
        why, then = self.demo.explain()
        last = self.demo.last
        parts = ['<div class="agt-rg-status" role="status" aria-live="polite">']
        if last is None:
            parts.append(f'<p class="agt-rg-info">{_rich(why)} Run <code>{escape(self.demo.root_name)}.backward()'
                         "</code> twice, or with <code>retain_graph=True</code> first.</p>")
        elif last.ok:
            parts.append(f'<p class="agt-rg-ok"><span class="agt-rg-label">✓ {last.number}.</span> {_rich(why)}'
                         f'</p><p class="agt-rg-next">{_rich(then)}</p>')
        else:
            parts.append(f'<pre class="agt-rg-error"><span class="agt-rg-error-type">'
                         f"{escape(last.error_type)}</span>: {escape(last.error)}</pre>")
            parts.append(f'<p class="agt-rg-why"><span class="agt-rg-label">Why:</span> {_rich(why)}</p>')
            if then:
                parts.append(f'<p class="agt-rg-fix"><span class="agt-rg-label">Fix:</span> {_rich(then)}</p>')
        parts.append("</div>")
        return "".join(parts)

    def _graph_html(self) -> str:
        legend = ('<p class="agt-rg-legend">What a node saved for backward: <span class="agt-rg-saved">saved</span>'
                  ' · <span class="agt-rg-freed">freed</span> by backward · <span class="agt-rg-kept">kept</span> by '
                  '<code>retain_graph=True</code> · <span class="agt-rg-badge">✗</span> where a call failed</p>')
        return (f'<div class="agt-rg-graph">{self.demo.svg(title="Graph of " + self.demo.root_name)}{legend}'
                "</div>")

    def _history_html(self) -> str:
        d = self.demo
        names = [name for name, _ in d.history()]
        grads = " and ".join(f"<code>{escape(n)}.grad</code>" for n in names)
        head = "".join(f'<th scope="col"><code>{escape(n)}.grad</code></th>' for n in names)
        rows = ['<tr><td class="agt-rg-num">0</td><td>start</td>'
                + "".join(f'<td class="agt-rg-num">{escape(d.grads_at_start[t._id])}</td>' for t in d.leaves)
                + "<td></td></tr>"]
        shown = d.attempts[-SHOWN_CALLS:]
        if len(d.attempts) > len(shown):  # a steady height: the start, then the last calls
            earlier = len(d.attempts) - len(shown)
            rows.append(f'<tr><td></td><td colspan="{len(names) + 2}">… {earlier} earlier '
                        f'call{"s" if earlier > 1 else ""}</td></tr>')
        for a in shown:
            if a.ok:
                what = "; ".join([f"{node} freed {', '.join(s)}" for node, s in a.freed]
                                 + [f"{node} kept {', '.join(s)}" for node, s in a.kept]) or "ok"
            else:
                what = f"{a.error_type} at {a.failed_at}" if a.failed_at else a.error_type
            cls = "" if a.ok else ' class="agt-rg-failed"'
            rows.append(f'<tr{cls}><td class="agt-rg-num">{a.number}</td><td><code>{escape(a.call)}</code></td>'
                        + "".join(f'<td class="agt-rg-num">{escape(g[2])}</td>' for g in a.grads)
                        + f"<td>{escape(what)}</td></tr>")
        return (f'<table class="agt-rg-history"><caption>History of {grads}</caption><thead><tr>'
                f'<th scope="col">#</th><th scope="col">call</th>{head}<th scope="col">what happened</th></tr>'
                f'</thead><tbody>{"".join(rows)}</tbody></table>')

    # ------------------------------------------------------------------ reprs
    def __repr__(self) -> str:
        lines = [f"RetainGraphDemo: {self._title()}"]
        lines += [f"  {a.number}. {a.summary}" for a in self.demo.attempts]
        return "\n".join(lines)

    def to_html(self) -> str:
        """The static page: what the widget shows, without the buttons (for GitHub, nbviewer, nbval)."""
        return (f'<div class="agt-rg">{self._header_html()}{self._status_html()}{self._graph_html()}'
                f"{self._history_html()}</div>")

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)
        data["text/html"] = self.to_html()
        return data
