"""A failing backward can change some gradients before it fails: ``y = a*a + b``, backward twice.

The first ``y.backward()`` gives ``a.grad = 4`` and ``b.grad = 1``, and frees what ``MulBackward0`` saved.
In the second, ``AddBackward0`` (which saved nothing) runs first and sends 1 to ``b``, whose AccumulateGrad
is ready at once: ``b.grad`` becomes 2. Only then does ``MulBackward0`` need its freed ``a`` and raise. So
after the error ``b.grad`` has changed and ``a.grad`` has not: the gradients are out of step.
:func:`partial_accumulation` runs this and tells it from the recorded events, step by step.

>>> demo = partial_accumulation()
>>> for line in demo.steps: print(line)
Backward pass 2 starts at y with the gradient 1 (∂y/∂y = 1).
AddBackward0 passes the gradient 1 unchanged to MulBackward0 and to b.
b receives 1 and adds it to b.grad: 1 + 1 = 2.
Backward pass 2 stops at MulBackward0 with RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed).
>>> demo.changed, demo.unchanged
(['b'], ['a'])
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..viz import build_steps
from .second_backward import SecondBackward

__all__ = ["PartialAccumulation", "partial_accumulation", "CODE"]

#: The forward pass of the demo, as the lesson writes it.
CODE = "a = torch.tensor(2., requires_grad=True)\nb = torch.tensor(5., requires_grad=True)\ny = a * a + b"


def _build():
    import autograd_tutor as torch
    a = torch.tensor(2., requires_grad=True)
    b = torch.tensor(5., requires_grad=True)
    y = a * a + b
    return y


@dataclass(frozen=True)
class PartialAccumulation:
    """What the second, failing backward did: one sentence per step (``steps``), the ``.grad`` of each leaf
    after the first and the second call (``grads``: ``(name, after 1, after 2)``), and the error."""
    code: str
    steps: tuple
    grads: tuple
    failed_at: str
    error_line: str

    @property
    def changed(self) -> list:
        """The leaves whose ``.grad`` the failing backward changed anyway."""
        return [name for name, first, second in self.grads if first != second]

    @property
    def unchanged(self) -> list:
        return [name for name, first, second in self.grads if first == second]

    @property
    def explanation(self) -> str:
        changed = ", ".join(f"{n}.grad went {f} -> {s}" for n, f, s in self.grads if f != s)
        kept = ", ".join(f"{n}.grad stayed {f}" for n, f, s in self.grads if f == s)
        return (f"The second backward raised at {self.failed_at}, but not before {changed}: the gradient "
                f"reached {', '.join(self.changed)} through nodes that saved nothing, while {kept}. After a "
                "failed backward the gradients are out of step: zero them (or rebuild the graph) before "
                "using them.")

    def __str__(self) -> str:
        first = ", ".join(f"{n}.grad = {f}" for n, f, _ in self.grads)
        return "\n".join([self.code, f"y.backward()  ->  {first}", "y.backward() again, step by step:"]
                         + [f"  {i}. {s}" for i, s in enumerate(self.steps, 1)] + [self.error_line, self.explanation])

    def _repr_html_(self) -> str:
        steps = "".join(f"<li>{escape(s)}</li>" for s in self.steps)
        first = ", ".join(f"{n}.grad = {f}" for n, f, _ in self.grads)
        return (f'<div class="agt-demo"><pre class="agt-demo-code">{escape(self.code)}</pre>'
                f"<p>First <code>y.backward()</code>: {escape(first)}.</p>"
                f"<p>Second <code>y.backward()</code>, step by step:</p><ol>{steps}</ol>"
                f'<pre class="agt-demo-error">{escape(self.error_line)}</pre><p>{escape(self.explanation)}</p></div>')


def partial_accumulation() -> PartialAccumulation:
    """Run ``y = a*a + b`` and ``y.backward()`` twice; describe the second call from its events."""
    demo = SecondBackward(_build)
    first = demo.backward()
    second = demo.backward()
    if first.error is not None or second.error is None:  # the engine must behave as torch does
        raise AssertionError(f"expected the second backward to fail, got: {first.summary} / {second.summary}")
    steps = [s.text for s in build_steps(demo.model) if s.number == 2]
    grads = tuple((name, after_first, after_second)
                  for (name, _, after_first), (_, _, after_second) in zip(first.grads, second.grads))
    return PartialAccumulation(CODE, tuple(steps), grads, second.failed_at, second.error_line)
