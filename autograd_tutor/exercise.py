"""``check_backward``: is the ``backward`` you wrote for your own ``autograd.Function`` right?

The engine checks it the way ``torch.autograd.gradcheck`` does, on float64 copies of your inputs. For every
input x that requires grad, the *expected* gradient comes from the forward alone, by central differences:
column k of the Jacobian is (f(x + eps e_k) - f(x - eps e_k)) / (2 eps). The gradient you *got* comes from
your ``backward``, run by the engine with one-hot ``grad_output``\\ s. They must agree within
``atol + rtol * |expected|``. Last, with ``grad_output`` = 0 your backward must return 0: a backward that
ignores ``grad_output`` breaks the chain rule even when it looks right on its own.

The result draws the call (your inputs, your node, its output) with the gradient on each input's edge:
right ones ticked, a wrong one marked, with what was expected and what your backward returned. An error in
your code is shown in one line: its type, its message and your line, without the engine's frames.

>>> import autograd_tutor as torch
>>> class Square(torch.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         ctx.save_for_backward(x)
...         return x * x
...     @staticmethod
...     def backward(ctx, grad_output):
...         x, = ctx.saved_tensors
...         return grad_output * x          # forgot the 2 of 2x
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> print(check_backward(Square, x))
check_backward(Square): wrong for x
  x: expected [2, 4], got [1, 2]  (wrong)
"""
from __future__ import annotations

import html
import linecache
import traceback
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .autograd.custom import Function
from .autograd.engine import grad as _grad
from .autograd.gradcheck import _analytical, _as_tuple, _numerical
from .autograd.tensor import Tensor
from .quiz.generate import caller_namespace, values_text

__all__ = ["check_backward", "BackwardCheck", "InputCheck"]


@dataclass(frozen=True)
class InputCheck:
    """One input's verdict: the gradient for ``grad_output`` = ones, expected (numerical) and got (yours)."""
    name: str
    expected: np.ndarray
    got: Optional[np.ndarray]
    ok: bool


@dataclass(frozen=True)
class BackwardCheck:
    """What :func:`check_backward` found: ``ok``, one :class:`InputCheck` per input that requires grad, and
    ``error`` (one line) when your code raised or your backward ignores ``grad_output``."""
    function: str
    inputs: tuple
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and all(i.ok for i in self.inputs)

    @property
    def verdict(self) -> str:
        if self.ok:
            return (f"Your backward is right: for every input it matches the gradient computed from {self.function}'s "
                    "forward by central differences.")
        wrong = [i.name for i in self.inputs if not i.ok]
        return self.error or f"Your backward is wrong for {', '.join(wrong)}: see the marked edge."

    def __str__(self) -> str:
        wrong = [i.name for i in self.inputs if not i.ok]
        head = (f"check_backward({self.function}): " + ("right" if self.ok else
                f"wrong for {', '.join(wrong)}" if wrong and not self.error else self.error))
        lines = [head]
        for i in self.inputs:
            got = "(not computed)" if i.got is None else _short(i.got)
            lines.append(f"  {i.name}: expected {_short(i.expected)}, got {got}  ({'right' if i.ok else 'wrong'})")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        tone = "is-right" if self.ok else "is-wrong"
        return (f'<div class="agt-check {tone}" role="group" aria-label="Check of {html.escape(self.function)}">'
                f"{_STYLE}<p class=\"agt-check-verdict\"><strong>{'&#10003; Right' if self.ok else '&#10007; Not yet'}"
                f"</strong>: {html.escape(self.verdict)}</p>{_svg(self)}<p class=\"agt-check-key\">On each edge, the "
                "gradient of the sum of the outputs with respect to that input: <em>expected</em> from the forward "
                "by central differences, <em>got</em> from your backward.</p></div>")


def check_backward(function, inputs, *, names=None, eps: float = 1e-6, atol: float = 1e-5,
                   rtol: float = 1e-3) -> BackwardCheck:
    """Check ``function.backward`` (a :class:`torch.autograd.Function` subclass) at ``inputs`` (a tensor or a
    tuple of arguments for ``function.apply``); ``names`` maps names to your tensors (default: your
    variables), to label the drawing."""
    if not (isinstance(function, type) and issubclass(function, Function)):
        raise TypeError("check_backward expects a torch.autograd.Function subclass (the class itself, not an "
                        f"instance or its result), got {type(function).__name__}")
    given = _as_tuple(inputs)
    names = names if names is not None else caller_namespace()
    label = {id(v): k for k, v in reversed(list(names.items())) if isinstance(v, Tensor) and not k.startswith("_")}
    copies = tuple(_float64(a) for a in given)
    wanted = [(i, c) for i, c in enumerate(copies) if isinstance(c, Tensor) and c.requires_grad]
    if not wanted:
        raise ValueError("check_backward needs at least one input tensor with requires_grad=True: the gradients "
                         "of those are what your backward computes.")
    tags = [label.get(id(given[i]), f"input {i}") for i, _ in wanted]
    call = function.__name__
    try:
        out = function.apply(*copies)
        if not isinstance(out, Tensor):
            return BackwardCheck(call, (), f"Your forward returned {type(out).__name__}, not a tensor.")
        numerical = [_numerical(function.apply, copies, c, eps)[0] for _, c in wanted]
    except Exception as exc:
        return BackwardCheck(call, (), _your_error(exc, function, "forward"))
    expected = [n.sum(axis=1).reshape(c.shape) for n, (_, c) in zip(numerical, wanted)]
    try:
        analytical = _analytical(out, [c for _, c in wanted])
        zeros = _grad(out, [c for _, c in wanted], Tensor._make(np.zeros_like(out._data)), allow_unused=True)
    except Exception as exc:
        checks = tuple(InputCheck(t, e, None, False) for t, e in zip(tags, expected))
        return BackwardCheck(call, checks, _your_error(exc, function, "backward"))
    checks = tuple(InputCheck(t, e, a.sum(axis=1).reshape(e.shape), bool(np.allclose(a, n, rtol, atol)))
                   for t, e, a, n in zip(tags, expected, analytical, numerical))
    ignored = [t for t, z in zip(tags, zeros) if z is not None and np.any(z._data != 0)]
    if ignored and all(c.ok for c in checks):
        return BackwardCheck(call, checks, f"Your backward ignores grad_output: given grad_output = 0 it still "
                             f"returned a gradient for {', '.join(ignored)}. Multiply by grad_output (the chain rule).")
    return BackwardCheck(call, checks)


def _float64(value):
    """A float64 leaf copy of a floating tensor (differences in float32 lose half the digits); others as given."""
    if isinstance(value, Tensor) and value.is_floating_point():
        return Tensor._make(value.detach()._data.astype(np.float64)).requires_grad_(value.requires_grad)
    return value


def _your_error(exc: BaseException, function, stage: str) -> str:
    """One line: the error, and the line of the learner's forward/backward it came from (if it did)."""
    ours = {getattr(function, m).__code__ for m in ("forward", "backward") if hasattr(getattr(function, m), "__code__")}
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        code = next((c for c in ours if c.co_filename == frame.filename and c.co_name == frame.name), None)
        if code is not None:
            text = (frame.line or linecache.getline(frame.filename, frame.lineno)).strip()
            where = f" (your {frame.name}, line {frame.lineno - code.co_firstlineno + 1}: {text})"
            break
    message = str(exc).splitlines()[0] if str(exc) else ""
    return f"Your {stage} raised {type(exc).__name__}: {message}{where}"


def _short(a: np.ndarray) -> str:
    return values_text(a, most=4)


_STYLE = """<style>
.agt-check { --c-fg: var(--jp-ui-font-color1, #1f2328); --c-bg: var(--jp-layout-color1, #fff);
  --c-line: var(--jp-border-color1, #8c959f); --c-good: #00785a; --c-bad: #b34700;
  color: var(--c-fg); background: var(--c-bg); font-family: var(--jp-ui-font-family, system-ui, sans-serif);
  font-size: 14px; border: 1px solid var(--c-line); border-left: 5px solid var(--c-good); border-radius: 8px;
  padding: 8px 12px; max-width: 860px; }
.agt-check.is-wrong { border-left: 5px dashed var(--c-bad); }
[data-jp-theme-light="false"] .agt-check { --c-good: #3dbe95; --c-bad: #ff9e5e; }
.agt-check svg text { fill: var(--c-fg); font-size: 13px; font-family: var(--jp-code-font-family, monospace); }
.agt-check .edge { stroke: var(--c-line); stroke-width: 2; fill: none; }
.agt-check .edge.is-wrong { stroke: var(--c-bad); stroke-width: 3; stroke-dasharray: 7 4; }
.agt-check .edge.is-right { stroke: var(--c-good); stroke-width: 2.5; }
.agt-check text.is-wrong { fill: var(--c-bad); font-weight: 700; }
.agt-check text.is-right { fill: var(--c-good); font-weight: 700; }
.agt-check .box { fill: var(--c-bg); stroke: var(--c-fg); stroke-width: 1.5; }
.agt-check p { margin: 4px 0; }
.agt-check svg { max-width: 100%; height: auto; }
.agt-check .agt-check-key { font-size: 12px; }
</style>"""


def _svg(result: BackwardCheck) -> str:
    """Your inputs (pills) on the left, your node on the right; each input's edge carries its gradient, and the
    node sits right of the longest label (13px monospace: at most 8px a character)."""
    rows = max(len(result.inputs), 1)
    node = f"{result.function}Backward"
    said = [f"✓ {_short(i.got)}" if i.ok else
            f"✗ expected {_short(i.expected)}, got {'?' if i.got is None else _short(i.got)}" for i in result.inputs]
    node_x = max([470] + [124 + 8 * len(s) + 12 for s in said])
    height, node_w = 28 + rows * 64, max(140, 9 * len(node) + 20)
    w, node_y = node_x + node_w + 10, height / 2
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" viewBox="0 0 {w} {height}" '
             f'role="img" aria-label="{html.escape(result.verdict, quote=True)}">']
    for k, (i, label) in enumerate(zip(result.inputs, said)):
        y = 46 + k * 64
        tone = "is-right" if i.ok else "is-wrong"
        parts.append(f'<path class="edge {tone}" d="M 110 {y} C 280 {y}, 300 {node_y}, {node_x} {node_y}"/>')
        parts.append(f'<rect class="box" x="10" y="{y - 16}" width="100" height="32" rx="16"/>'
                     f'<text x="60" y="{y + 5}" text-anchor="middle">{html.escape(i.name)}</text>')
        parts.append(f'<text class="{tone}" x="124" y="{y - 10}">{html.escape(label)}</text>')
    parts.append(f'<rect class="box" x="{node_x}" y="{node_y - 18}" width="{node_w}" height="36" rx="4"/>'
                 f'<text x="{node_x + node_w / 2}" y="{node_y + 5}" text-anchor="middle">{html.escape(node)}</text>'
                 "</svg>")
    return "".join(parts)
