"""``QuizWidget``: a quiz in the notebook, answered with the mouse or the keyboard alone, graded in Python.

The widget is thin. Synced traits carry only what a learner may see (``questions``: prompts, choices,
diagrams; ``index``; ``progress``; ``score``). The browser sends each answer to Python as a message, Python
grades it against the salted keys of :mod:`autograd_tutor.quiz` and answers with a feedback message (correct
or not, and an explanation). Feedback travels as messages, not traits, so it never lands in the notebook's
saved widget state; a view that is drawn again asks for the feedback so far with a ``ready`` message.
``answers`` (what the learner answered, for a teacher or a grader) is a trait that stays in Python.

>>> import autograd_tutor as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> loss = (x * 3) ** 2
>>> quiz = QuizWidget.from_tensor(loss)
>>> quiz.total, quiz.score
(7, 0)
>>> quiz.answer("grad-value", "36").correct, quiz.score, quiz.answers["grad-value"]["attempts"]
(True, 1, 1)
>>> print(repr(quiz).splitlines()[0])
QuizWidget: Your graph: loss (7 questions, score 1/7)
"""
from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from ..quiz import Feedback, Quiz, load_bank, quiz_from
from ..quiz.generate import caller_namespace

__all__ = ["QuizWidget"]

_STATIC = Path(__file__).parent / "static"


class QuizWidget(anywidget.AnyWidget):
    """Show a :class:`~autograd_tutor.quiz.Quiz`; ``score`` and ``answers`` report the learner's work."""

    _esm = _STATIC / "quiz.js"
    _css = _STATIC / "quiz.css"

    title = traitlets.Unicode().tag(sync=True)
    questions = traitlets.List().tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)
    progress = traitlets.List().tag(sync=True)
    score = traitlets.Int(0).tag(sync=True)
    total = traitlets.Int(0).tag(sync=True)
    answers = traitlets.Dict()  # not synced: answers stay in Python

    def __init__(self, quiz: Quiz, **kwargs) -> None:
        if not isinstance(quiz, Quiz):
            raise TypeError(f"QuizWidget expects a Quiz (from quiz_from, load_bank...), got {type(quiz).__name__}")
        self.quiz = quiz
        super().__init__(title=quiz.title, questions=quiz.public(), total=len(quiz), **kwargs)
        self._sync()
        self.on_msg(self._on_msg)

    @classmethod
    def from_tensor(cls, tensor, names=None, title=None) -> "QuizWidget":
        """A quiz about the graph behind ``tensor``, phrased with the caller's variable names."""
        return cls(quiz_from(tensor, names if names is not None else caller_namespace(), title))

    @classmethod
    def from_bank(cls, name_or_path) -> "QuizWidget":
        """A quiz from a shipped bank (``"lesson1"``) or a bank file."""
        return cls(load_bank(name_or_path))

    def answer(self, question_id: str, answer) -> Feedback:
        """Grade one answer (what the browser does through a message) and update the traits."""
        feedback = self.quiz.check(question_id, answer)
        self._sync()
        return feedback

    def _sync(self) -> None:
        self.progress = [{"attempts": self.quiz.answers.get(q.id, {}).get("attempts", 0),
                          "solved": self.quiz.answers.get(q.id, {}).get("correct", False)}
                         for q in self.quiz.questions]
        self.answers = {k: dict(v) for k, v in self.quiz.answers.items()}
        self.score = self.quiz.score

    def _on_msg(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict):
            return
        if content.get("type") == "check" and content.get("id") in {q.id for q in self.quiz.questions}:
            self.send(self.answer(content["id"], content.get("answer")).to_json())
        elif content.get("type") == "ready":
            for feedback in self.quiz.last_feedback():
                self.send(feedback.to_json())

    def __repr__(self) -> str:
        return "QuizWidget: " + str(self.quiz)[len("Quiz: "):]

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.quiz.to_html()
        return data, metadata
