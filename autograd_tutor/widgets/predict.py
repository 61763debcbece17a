"""``Predict``: the learner says what they expect, then the engine shows what happens.

Thinking before looking is what makes a replay teach: the learner types or picks a prediction (the number
backward will put in ``x.grad``, which tensors get a ``.grad``, whether a second ``backward()`` fails), Python
grades it against a key read from the engine (:mod:`autograd_tutor.quiz`), and only then runs the code that
shows it (``loss.backward()``): the drawing under the question replays that pass, and the widget says whether
the prediction was right and why.

* ``Predict.from_tensor(loss, "grad-value")`` asks one of the questions :func:`~autograd_tutor.quiz.quiz_from`
  generates about the learner's own graph (``"grad-value"``, ``"gets-grad"`` or ``"second-backward"``),
  and shows a live :class:`~autograd_tutor.widgets.GraphWidget` of ``loss`` under it;
* ``Predict.who_gets_grad(loss, {"w": w, "b": b})`` asks which of these tensors will get a ``.grad``, also
  tensors the graph no longer reaches (lesson 9), and shows the drawing of ``loss`` with its cuts marked;
* ``Predict.grad_fn_none({"p": p, "q": q})`` asks which of these tensors ``print(t.grad_fn)`` shows as
  ``None`` (lesson 1: debugging with ``print``); the reveal prints them;
* ``Predict(question, reveal, graph=None)`` asks a teacher's own :class:`~autograd_tutor.quiz.Question`;
  ``reveal()`` runs once, after the first prediction, and returns the sentence that says what happened.

One prediction per widget: it is graded once (a malformed answer is refused and does not count), then the
answer is shown. The browser sends ``{"type": "predict", "answer": ...}`` (checked as the quiz checks its
answers) and may set no trait; the verdict is Python's (``outcome``).

>>> import autograd_tutor as torch
>>> x = torch.tensor(2., requires_grad=True); w = torch.tensor(3., requires_grad=True)
>>> loss = (w * x) ** 2
>>> p = Predict.from_tensor(loss, "grad-value", graph=False)
>>> x.grad is None, p.predict("30").correct, x.grad
(True, False, tensor(36.))
>>> print(p.outcome["seen"])
loss.backward() ran: x.grad = 36, w.grad = 24, loss.grad = None.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping, Optional

import anywidget
import traitlets

from ..autograd.tensor import Tensor
from ..quiz import Feedback, Question, Quiz, quiz_from
from ..quiz.gradients import grad_fn_text, which_grad_fn_none
from ..quiz.gradients import who_gets_grad as _who_gets_grad
from ..quiz.facts import GraphFacts
from ..quiz.generate import caller_namespace, values_text
from ..quiz.keys import MAX_ANSWER_CHARS
from ._browser import take_from_browser
from .quiz import _ANSWER_FORMS, _ANSWER_WORDS, _json_name, _refusal

__all__ = ["Predict", "ASKS"]

_STATIC = Path(__file__).parent / "static"
#: What ``Predict.from_tensor`` can ask, and what it runs to show the answer.
ASKS = {"grad-value": "backward once", "gets-grad": "backward once", "second-backward": "backward twice"}
_REPLAY_HINT = "The drawing below now holds this pass: press Play in it (or Space, once it has focus) to watch it."


def _grad_text(tensor) -> str:
    grad = tensor.grad if tensor.is_leaf or tensor.retains_grad else None
    if grad is None:
        return "None"
    data = grad.detach()._data
    return values_text(data if data.size > 1 else data.reshape(()), most=4)  # a one-number gradient as a number


class Predict(anywidget.AnyWidget):
    """One prediction, graded in Python, then shown by the engine (see the module docstring)."""

    _esm = "".join((_STATIC / f).read_text(encoding="utf-8") for f in ("dom.js", "predict.js"))
    _css = "".join((_STATIC / f).read_text(encoding="utf-8") for f in ("quiz.css", "predict.css"))

    title = traitlets.Unicode("Predict, then see").tag(sync=True)
    question = traitlets.Dict().tag(sync=True)
    #: Python's verdict once the learner predicted: correct, message, explanation, seen (what the engine did).
    outcome = traitlets.Dict().tag(sync=True)
    answer_limit = traitlets.Int(MAX_ANSWER_CHARS).tag(sync=True)

    def __init__(self, question: Question, reveal: Callable[[], str], graph=None, title: Optional[str] = None):
        if not isinstance(question, Question):
            raise TypeError(f"Predict expects a Question, got {type(question).__name__}")
        if question.kind == "classify":
            raise ValueError("Predict asks single, multiple, numeric or text questions, not classify ones")
        if not callable(reveal):
            raise TypeError(f"reveal must be callable (it runs the code that shows the answer), got "
                            f"{type(reveal).__name__}")
        self._quiz = Quiz(title or "Predict, then see", [question])
        self._reveal = reveal
        #: The drawing shown under the question (or None); it is refreshed after the reveal, so it replays it.
        self.graph = graph
        super().__init__(title=self._quiz.title, question=question.public())
        self.on_msg(self._on_msg)

    @classmethod
    def from_tensor(cls, tensor, ask: str = "grad-value", names=None, graph: bool = True,
                    title: Optional[str] = None) -> "Predict":
        """Ask ``ask`` (one of :data:`ASKS`) about the graph behind ``tensor``, in the caller's names; the
        reveal runs ``backward()`` as the question says; ``graph`` shows a live drawing of ``tensor`` under it."""
        if ask not in ASKS:
            raise ValueError(f"Predict.from_tensor can ask {', '.join(map(repr, ASKS))}, not {ask!r}")
        names = names if names is not None else caller_namespace()
        facts = GraphFacts(tensor, names)
        quiz = quiz_from(tensor, names)
        if ask not in {q.id for q in quiz}:
            raise ValueError(f"there is no {ask!r} question about {facts.root_name}: a backward through it "
                             "already failed, or hooks change its gradients")
        drawing = None
        if graph:
            from .graph import GraphWidget
            drawing = GraphWidget(tensor, namespace=names)
        return cls(quiz[ask], _backward_reveal(tensor, facts, twice=ask == "second-backward"), drawing, title)

    @classmethod
    def who_gets_grad(cls, root, candidates: Mapping, root_name: str = "loss", graph: bool = True,
                      title: Optional[str] = None) -> "Predict":
        """Ask which of ``candidates`` (name -> tensor) get a ``.grad`` from ``root.backward()``, candidates
        the graph no longer reaches included (:func:`~autograd_tutor.quiz.who_gets_grad`); the reveal runs
        it and says what each got; ``graph`` shows a drawing of ``root`` under it, marking where it was cut."""
        names = caller_namespace()
        question = _who_gets_grad(root, candidates, root_name, namespace=names)
        drawing = None
        if graph:
            from .graph import GraphWidget
            drawing = GraphWidget(root, namespace={**names, **candidates, root_name: root})

        def run() -> str:
            root.backward()
            grads = ", ".join(f"{name}.grad = {_grad_text(t)}" for name, t in candidates.items())
            return f"{root_name}.backward() ran: {grads}."
        return cls(question, run, drawing, title)

    @classmethod
    def grad_fn_none(cls, candidates: Mapping, graph=None, title: Optional[str] = None) -> "Predict":
        """Ask which of ``candidates`` (name -> tensor) ``print(t.grad_fn)`` shows as ``None``
        (:func:`~autograd_tutor.quiz.which_grad_fn_none`); the reveal prints each one's ``grad_fn``."""
        question = which_grad_fn_none(candidates)

        def run() -> str:
            return "print(t.grad_fn) for each: " + ", ".join(
                f"{name}: {grad_fn_text(t)}" for name, t in candidates.items()) + "."
        return cls(question, run, graph, title)

    @property
    def revealed(self) -> bool:
        return bool(self.outcome)

    def predict(self, answer) -> Feedback:
        """Grade the prediction (once), then run the reveal; a malformed answer is refused, not counted."""
        qid = self._quiz.questions[0].id
        if self.revealed:
            return Feedback(qid, False, "You already predicted: the answer is shown.", valid=False)
        graded = self._quiz.check(qid, answer)
        if not graded.valid:
            return graded
        seen = self._run_reveal()
        verdict = Feedback(qid, graded.correct, "You predicted right." if graded.correct else
                           "Not what the engine did.", self._quiz.questions[0].explanation, attempts=1)
        self.outcome = {"correct": verdict.correct, "message": verdict.message,
                        "explanation": verdict.explanation, "seen": seen,
                        "hint": "" if self.graph is None else _REPLAY_HINT}
        return verdict

    def _run_reveal(self) -> str:
        try:
            seen = str(self._reveal())
        except Exception as exc:  # the teacher's reveal failed: say so in one line, never a traceback
            seen = f"Showing it failed: {type(exc).__name__}: {exc}"
        if self.graph is not None:
            self.graph.refresh()
        return seen

    # ---------------------------------------------------------------- the browser
    def set_state(self, sync_data) -> None:
        """The browser may set no trait: the verdict is Python's."""
        take_from_browser(self, sync_data, {})

    def _on_msg(self, _widget, content, _buffers) -> None:
        self.send(self.reply(content))

    def reply(self, content) -> dict:
        """The message Python sends back for one message from the browser."""
        kind = self._quiz.questions[0].kind
        if not isinstance(content, dict) or content.get("type") != "predict":
            return _refusal('Send {"type": "predict", "answer": ...}.')
        answer = content.get("answer")
        if not _ANSWER_FORMS[kind](answer):
            return _refusal(f"A {kind} question takes {_ANSWER_WORDS[kind]}, not {_json_name(answer)}.")
        try:
            return self.predict(answer).to_json()
        except Exception as exc:  # a bug of ours: the view must still get its reply, the kernel no traceback
            return _refusal(f"Python could not check this prediction ({type(exc).__name__}); please report it.")

    # ---------------------------------------------------------------- notebook display
    def __repr__(self) -> str:
        lines = ["Predict: " + "\n".join(self._quiz.questions[0].text_lines(1))[3:]]
        if self.revealed:
            lines += [f"{self.outcome['message']} {self.outcome['seen']}"]
        return "\n".join(lines)

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)
        data["text/html"] = self._quiz.to_html()
        return data, metadata

    def _ipython_display_(self) -> None:
        from IPython.display import display
        data, metadata = self._repr_mimebundle_()
        display(data, metadata=metadata, raw=True)
        if self.graph is not None:
            display(self.graph)


def _backward_reveal(tensor: Tensor, facts: GraphFacts, twice: bool) -> Callable[[], str]:
    """What ``Predict.from_tensor`` runs: ``backward()`` from ``tensor`` (twice for a second-backward
    question), and the sentence that reports it: the named tensors' ``.grad``, or the error."""
    root = facts.root_name
    call = f"{root}.backward()" if tensor.numel() == 1 else f"{root}.backward(torch.ones_like({root}))"
    shown = [f for f in facts.named if f.on_graph and f.tensor is not None]

    def run() -> str:
        gradient = None if tensor.numel() == 1 else tensor.new_ones(tensor.shape)
        calls = 2 if twice else 1
        for n in range(calls):
            try:
                tensor.backward(gradient)
            except RuntimeError as exc:
                first = str(exc).split(". ")[0].rstrip(".")
                done = "The first call ran; the second" if n else "It"
                return f"{done} raised RuntimeError: {first}."
        grads = ", ".join(f"{f.name}.grad = {_grad_text(f.tensor)}" for f in shown)
        return f"{call} ran{' twice' if twice else ''}: {grads}."
    return run
