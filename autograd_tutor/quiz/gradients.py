"""Questions and checks about *which tensors get a gradient*, answered by the engine (lesson 9).

* :func:`who_gets_grad` - the *predict, then see* question: "which of these will have ``.grad`` after
  ``loss.backward()``?", its key computed from the graph behind ``loss`` (a leaf that requires grad and that
  ``loss`` was computed from), each choice explained by :func:`~autograd_tutor.viz.cuts.explain_no_grad`.
  It is a plain :class:`~autograd_tutor.quiz.Question`: show it with ``QuizWidget(Quiz(...))`` or any widget
  that asks a multiple-choice question.
* :func:`which_grad_fn_none` - the same kind of question one step earlier (lesson 1): "which of these will
  ``print(t.grad_fn)`` show as ``None``?", each answer explained from the tensor itself and the cuts log.
* :func:`check_gradients` - the exercise check: run the learner's training step on fresh parameters and say,
  parameter by parameter, whether it got a gradient, and why not.

>>> import autograd_tutor as torch
>>> w, b = torch.tensor(2., requires_grad=True), torch.tensor(1., requires_grad=True)
>>> loss = w.detach() * 3 + b
>>> q = who_gets_grad(loss, {"w": w, "b": b})
>>> q.prompt, q.choices, q.check([1])[0]
('Which of these tensors will have a .grad after loss.backward()?', ('w', 'b'), True)
>>> which_grad_fn_none({"w": w, "loss": loss}).check([0])[0]
True
>>> def step(w, b):
...     return (w * 3 + b.detach()) ** 2
>>> report = check_gradients(step, {"w": torch.tensor(1.), "b": torch.tensor(2.)})
>>> report.ok, report.missing
(False, ['b'])
"""
from __future__ import annotations

from typing import Callable, Mapping, Optional

from ..viz.cuts import CUTS, CutLog, explain_no_grad
from .generate import caller_namespace
from .keys import ChoiceKey
from .model import Question

__all__ = ["who_gets_grad", "which_grad_fn_none", "grad_fn_text", "check_gradients", "GradientReport"]


def grad_fn_text(tensor) -> str:
    """What ``print(tensor.grad_fn)`` shows, without the memory address: ``<MulBackward0>`` or ``None``."""
    return "None" if tensor.grad_fn is None else f"<{tensor.grad_fn.name()}>"


def _why_no_grad_fn(name: str, tensor, candidates: Mapping) -> str:
    """Why ``tensor.grad_fn`` is (or is not) None, in one sentence (the cut named by its source in
    ``candidates``, when it is one of them)."""
    if tensor.grad_fn is not None:
        return f"{name} was made by a recorded operation: grad_fn={grad_fn_text(tensor)}."
    if tensor.requires_grad:
        return f"{name} is a leaf you made: no operation produced it, so grad_fn=None."
    cut = CUTS.find(getattr(tensor, "_id", -1))
    if cut is not None:
        source = next((k for k, t in candidates.items() if getattr(t, "_id", None) in cut.source_ids), "")
        how = f" ({cut.how(source)})" if source or cut.cause in ("no_grad", "inference_mode") else ""
        return f"{name} has no history: {cut.label}{how}, so grad_fn=None."
    return f"{name} was computed only from tensors that do not require grad: nothing was recorded, grad_fn=None."


def which_grad_fn_none(candidates: Mapping) -> Question:
    """A multiple-choice question: which of ``candidates`` (name -> tensor) have ``grad_fn`` None, that is
    which would ``print(t.grad_fn)`` show as ``None``; the key is read from the tensors."""
    if not candidates:
        raise ValueError("which_grad_fn_none() needs at least one candidate tensor")
    names = list(candidates)
    correct = [i for i, n in enumerate(names) if candidates[n].grad_fn is None]
    return Question(id="grad-fn-none", kind="multiple",
                    prompt="Which of these will print(t.grad_fn) show as None?",
                    key=ChoiceKey.many(correct, len(names)), choices=tuple(names),
                    explanation=" ".join(_why_no_grad_fn(n, candidates[n], candidates) for n in names),
                    hint="A tensor gets a grad_fn when a recorded operation made it: one of its inputs required "
                         "grad, and recording was on.")


def who_gets_grad(root, candidates: Mapping, root_name: str = "loss",
                  namespace: Optional[Mapping] = None) -> Question:
    """A multiple-choice question: which of ``candidates`` (name -> tensor) get a ``.grad`` from
    ``root.backward()``; ask it *before* running backward. ``namespace`` names the other tensors (say ``score``
    in ``torch.tensor(score.item())``), so that an explanation can say where the path was cut."""
    if not candidates:
        raise ValueError("who_gets_grad() needs at least one candidate tensor")
    names = list(candidates)
    others = {k: v for k, v in (namespace or {}).items() if k not in candidates and k != root_name}
    namespace = {**candidates, root_name: root, **others}   # first: a candidate is called by its own name
    reasons = [explain_no_grad(candidates[n], root, namespace=namespace) for n in names]
    correct = [i for i, n in enumerate(names) if reasons[i].startswith(f"{n} gets a gradient")]
    return Question(id="who-gets-grad", kind="multiple",
                    prompt=f"Which of these tensors will have a .grad after {root_name}.backward()?",
                    key=ChoiceKey.many(correct, len(names)), choices=tuple(names),
                    explanation=" ".join(reasons),
                    hint="Only leaves that require grad, and that the result was computed from through the graph, "
                         "get a .grad.")


_KEY = ("The graph behind the loss your step returned. A marked edge is where a copy without history (the "
        "cut) enters the graph: backward stops there, so the parameter named beside it gets no gradient. A "
        "parameter drawn apart is not in the graph at all.")


class GradientReport:
    """What :func:`check_gradients` found: ``lines`` (one per parameter), ``missing`` (their names), ``ok``;
    displayed, the verdict over the graph of the step's loss, drawn once per missing parameter with where its
    gradient stops marked (``drawings``: ``(heading, model, marks)``; see :mod:`autograd_tutor.checks.drawing`)."""

    def __init__(self, lines: list, missing: list, drawings: tuple = ()) -> None:
        self.lines, self.missing, self.drawings = lines, missing, drawings

    @property
    def ok(self) -> bool:
        return not self.missing

    @property
    def verdict(self) -> str:
        return ("Every parameter gets a gradient: the step trains them all." if self.ok else
                f"{', '.join(self.missing)} still {'gets' if len(self.missing) == 1 else 'get'} no gradient.")

    def __repr__(self) -> str:
        return "\n".join([self.verdict, *self.lines])

    def _repr_html_(self) -> str:
        from ..checks.drawing import check_html, graph_svg
        return check_html(self.ok, "Check of your training step", self.verdict,
                          [(head, graph_svg(model, marks)) for head, model, marks in self.drawings], _KEY,
                          tuple(line.strip() for line in self.lines))


def check_gradients(step: Callable, parameters: Mapping) -> GradientReport:
    """Call ``step(**fresh parameters)`` (copies of ``parameters`` that require grad), then ``backward()`` on what
    it returns unless it already ran backward itself, and report which parameters got no gradient, and why."""
    from ..checks.drawing import Marks
    from ..viz.model import GraphModel
    fresh = {name: p.detach().clone().requires_grad_() for name, p in parameters.items()}
    log = CutLog()
    log.start()
    try:
        loss = step(**fresh)
        if loss is None or not hasattr(loss, "grad_fn"):
            raise TypeError(f"the step must return its loss (a tensor), got {type(loss).__name__}")
        if all(p.grad is None for p in fresh.values()) and loss.requires_grad:
            loss.backward()
    finally:
        log.stop()
    namespace = dict(fresh, loss=loss)
    model = GraphModel.from_tensor(loss, namespace={**caller_namespace(), **namespace})
    lines, missing, drawings = [], [], []
    for name, p in fresh.items():
        if p.grad is not None:
            lines.append(f"  ✓ {name} gets a gradient ({name}.grad = {p.grad!r}).")
        else:
            missing.append(name)
            lines.append(f"  ✗ {explain_no_grad(p, loss, log=log, namespace=namespace)}")
            drawings.append((f"Where {name}'s gradient stops", model, _stop(model, name, p, log)))
    return GradientReport(lines, missing, tuple(drawings) or (("", model, Marks(ok=True)),))


def _stop(model, name: str, p, log: CutLog):
    """The mark for a parameter without gradient: the edge by which a cut copy of it enters the graph (the
    graph's root itself when the loss is that copy), or the parameter drawn apart."""
    from ..checks.drawing import Marks
    for n in model.visible:
        cut = log.find(n.tensor_id) if n.kind == "constant" and n.tensor_id is not None else None
        if cut is None or getattr(p, "_id", None) not in cut.source_ids:
            continue
        note = f"{cut.how(name)}: {name}'s gradient stops here"
        out = model.edges_from(n.key)
        if not out:
            return Marks(node=n.key, note=f"made from {cut.how(name)}: no path back to {name}")
        return Marks(edge=(out[0].src, out[0].dst, out[0].position), note=note)
    cut = log.from_source(getattr(p, "_id", None))
    return Marks(apart=name, note="not in the graph" + (f": {cut.how(name)} cut it off" if cut else ""))
