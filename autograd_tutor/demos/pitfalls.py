"""The mistakes next to the retain_graph error, each run live: the code, what it did, the fix, and why.

* :func:`accumulate_without_zero_grad` - ``.grad`` keeps adding up across ``backward()`` calls;
* :func:`nonleaf_grad` - the ``.grad`` of an intermediate tensor is None (with a UserWarning) until
  ``retain_grad()``;
* :func:`nonscalar_backward` - ``backward()`` on a vector needs ``gradient=``;
* :func:`inplace_saved` - changing a tensor that a node saved breaks backward (the version counter).

Each returns a :class:`Pitfall` whose ``problem`` and ``fix`` are :class:`~autograd_tutor.demos.Run` records of
code that really ran; the explanation quotes what they printed, warned and raised.

>>> p = nonscalar_backward()
>>> print(p.problem.error_line)
RuntimeError: grad can be implicitly created only for scalar outputs
>>> p.fix.output
'tensor([2., 2., 2.])\\n'
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ._run import Run, run_snippet

__all__ = ["Pitfall", "PITFALLS", "CODE", "accumulate_without_zero_grad", "nonleaf_grad", "nonscalar_backward",
           "inplace_saved", "all_pitfalls"]

#: The code of each demo: (problem, fix). Run as written, with ``torch`` bound to autograd_tutor.
CODE = {
    "accumulate": ("""\
x = torch.tensor(2., requires_grad=True)
for step in range(3):
    loss = x ** 2
    loss.backward()
    print(x.grad)""", """\
x = torch.tensor(2., requires_grad=True)
for step in range(3):
    x.grad = None  # what optimizer.zero_grad() does
    loss = x ** 2
    loss.backward()
    print(x.grad)"""),
    "nonleaf": ("""\
x = torch.tensor(2., requires_grad=True)
h = x * 3
loss = h ** 2
loss.backward()
print(x.grad)
print(h.grad)""", """\
x = torch.tensor(2., requires_grad=True)
h = x * 3
h.retain_grad()
loss = h ** 2
loss.backward()
print(x.grad)
print(h.grad)"""),
    "nonscalar": ("""\
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.backward()""", """\
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.backward(gradient=torch.ones_like(y))  # or y.sum().backward()
print(x.grad)"""),
    "inplace": ("""\
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.add_(1)
y.sum().backward()""", """\
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y = y + 1  # a new tensor; the one exp saved is untouched
y.sum().backward()
print(x.grad)"""),
}


@dataclass(frozen=True)
class Pitfall:
    """A mistake and its fix, both run live, with a plain-words ``explanation`` built from what they did."""
    key: str
    title: str
    problem: Run
    fix: Run
    explanation: str

    def __str__(self) -> str:
        return "\n".join([self.title, "", str(self.problem), "", "Why: " + self.explanation, "", "Fix:",
                          str(self.fix)])

    def _repr_html_(self) -> str:
        return (f'<div class="agt-demo"><h4>{escape(self.title)}</h4>{self.problem.to_html()}'
                f"<p><strong>Why:</strong> {escape(self.explanation)}</p><p><strong>Fix:</strong></p>"
                f"{self.fix.to_html()}</div>")


def _lines(run: Run) -> list:
    return run.output.splitlines()


def accumulate_without_zero_grad() -> Pitfall:
    """``backward()`` adds into ``.grad``: without zeroing, a loop sees the sum of all its gradients."""
    problem, fix = (run_snippet(c) for c in CODE["accumulate"])
    seen, right = _lines(problem), _lines(fix)
    why = (f"backward() adds its gradient to what x.grad already holds, so the three passes printed "
           f"{', '.join(seen)}, while the gradient of this loss is {right[0]} every time (as the fix prints: "
           f"{', '.join(right)}). Set .grad to None (optimizer.zero_grad()) before each backward().")
    return Pitfall("accumulate", "Gradients accumulate without zero_grad()", problem, fix, why)


def nonleaf_grad() -> Pitfall:
    """The ``.grad`` of a non-leaf is not kept: None and a UserWarning, unless ``retain_grad()`` was called."""
    problem, fix = (run_snippet(c) for c in CODE["nonleaf"])
    h = problem.namespace["h"]
    warned = problem.warnings[0].split(": ")[0] if problem.warnings else "no warning"
    why = (f"h is not a leaf (h.is_leaf is {h.is_leaf}: {h.grad_fn.name()} computed it), and backward() only "
           f"stores gradients in leaves, so h.grad printed {_lines(problem)[1]} with a {warned}, while x.grad is "
           f"{_lines(problem)[0]}. h.retain_grad() before backward() keeps it: h.grad is then {_lines(fix)[1]}.")
    return Pitfall("nonleaf", "The .grad of a non-leaf tensor is None", problem, fix, why)


def nonscalar_backward() -> Pitfall:
    """``backward()`` on a tensor of several numbers: torch's error, and ``gradient=`` to fix it."""
    problem, fix = (run_snippet(c) for c in CODE["nonscalar"])
    y = problem.namespace["y"]
    why = (f"y has shape {tuple(y.shape)}. backward() starts from the gradient of the output with respect to "
           f"itself, which it can only assume (1) for a one-number output; for {y.numel()} numbers it raised "
           f"{problem.error_type}. Pass gradient=, a tensor shaped like y saying how much each element counts "
           f"(ones: the same as y.sum().backward()); x.grad is then {_lines(fix)[0]}.")
    return Pitfall("nonscalar", "backward() on a non-scalar output", problem, fix, why)


def inplace_saved() -> Pitfall:
    """A tensor saved for backward, changed in place: backward notices through the version counter."""
    problem, fix = (run_snippet(c) for c in CODE["inplace"])
    y = problem.namespace["y"]
    exp_node = y.grad_fn.next_functions[0][0]
    saved = ", ".join(name for name, _ in exp_node.saved_summary())
    why = (f"{exp_node.name()} saved {saved} (its own output y: the derivative of exp is exp) to use in "
           f"backward. y.add_(1) changed y in place, and every in-place change bumps a tensor's version counter: "
           f"y._version is now {y._version}. backward() checks the version of what was saved, finds it changed "
           f"and raises {problem.error_type} rather than compute with a wrong value. Write y = y + 1 instead: a "
           f"new tensor, and x.grad is {_lines(fix)[0]}.")
    return Pitfall("inplace", "A saved tensor modified in place", problem, fix, why)


#: The pitfall demos, in lesson order.
PITFALLS = (accumulate_without_zero_grad, nonleaf_grad, nonscalar_backward, inplace_saved)


def all_pitfalls() -> list:
    """Run every pitfall demo (in lesson order)."""
    return [make() for make in PITFALLS]
