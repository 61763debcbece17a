"""Run a few lines of lesson code and keep what they did: printed output, warnings, and the error if any.

A demo shows code *and* what that code did, so the code is run for real, here, by the engine (or by PyTorch:
pass ``module=torch`` to check that both behave the same). Nothing shown is typed in by hand.

>>> run = run_snippet("x = torch.tensor(2., requires_grad=True)\\n(x * x).backward()\\nprint(x.grad)")
>>> run.output, run.raised
('tensor(4.)\\n', False)
>>> print(run_snippet("torch.tensor([1., 2.], requires_grad=True).backward()").error_line)
RuntimeError: grad can be implicitly created only for scalar outputs
"""
from __future__ import annotations

import contextlib
import io
import warnings
from dataclasses import dataclass, field
from html import escape
from typing import Optional

__all__ = ["Run", "run_snippet"]


@dataclass(frozen=True)
class Run:
    """What a snippet did: ``output`` (printed text), ``warnings`` (``"UserWarning: ..."``), and the exception's
    type name and message when it raised. ``namespace`` holds its variables afterwards."""
    code: str
    output: str
    warnings: tuple
    error_type: Optional[str]
    error: Optional[str]
    namespace: dict = field(repr=False, compare=False)

    @property
    def raised(self) -> bool:
        return self.error_type is not None

    @property
    def error_line(self) -> str:
        """``"RuntimeError: message"``, as Python prints the last line of a traceback ("" if nothing raised)."""
        return f"{self.error_type}: {self.error}" if self.raised else ""

    def __str__(self) -> str:
        """The code, then what it did as comments (so the whole text still runs)."""
        did = self.output.splitlines() + list(self.warnings) + ([self.error_line] if self.raised else [])
        return "\n".join([self.code] + (["# output:"] + ["# " + line for line in did] if did else []))

    def to_html(self) -> str:
        """The code, then what it printed, warned and raised, as HTML blocks with the ``agt-demo-*`` classes."""
        parts = [f'<pre class="agt-demo-code">{escape(self.code)}</pre>']
        if self.output:
            parts.append(f'<pre class="agt-demo-output">{escape(self.output.rstrip())}</pre>')
        for w in self.warnings:
            parts.append(f'<pre class="agt-demo-warning">{escape(w)}</pre>')
        if self.raised:
            parts.append(f'<pre class="agt-demo-error">{escape(self.error_line)}</pre>')
        return "".join(parts)


def run_snippet(code: str, module=None) -> Run:
    """Execute ``code`` with ``torch`` bound to ``module`` (default: autograd_tutor) and record what it did."""
    if module is None:
        import autograd_tutor as module
    namespace = {"torch": module}
    out = io.StringIO()
    error_type = error = None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        try:
            exec(compile(code, "<demo>", "exec"), namespace)
        except Exception as exc:  # the demo is about this very exception: keep it, show it
            error_type, error = type(exc).__name__, str(exc)
    shown = tuple(f"{w.category.__name__}: {w.message}" for w in caught)
    return Run(code, out.getvalue(), shown, error_type, error, namespace)
