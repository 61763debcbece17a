"""``QuizWidget``: a quiz in the notebook, answered with the mouse or the keyboard alone, graded in Python.

The widget is thin. Synced traits carry only what a learner may see (``questions``: prompts, choices,
diagrams; ``index``; ``progress``; ``score``). The browser sends each answer to Python as a message, Python
grades it against the salted keys of :mod:`autograd_tutor.quiz` and answers with a feedback message (correct
or not, and an explanation). Feedback travels as messages, not traits, so it never lands in the notebook's
saved widget state; a view that is drawn again asks for the feedback so far with a ``ready`` message.
``answers`` (what the learner answered, for a teacher or a grader) is a trait that stays in Python.

Everything from the browser is input from outside. The browser may change one trait, ``index`` (which
question is shown); an update of ``score``, ``progress`` or any other trait is refused and Python's value
sent back (:mod:`._browser`). A message is checked for its shape first: ``{"type": "check", "id": <a
question id>, "answer": <a JSON value of that question's kind>}`` or ``{"type": "ready"}``; anything else,
and any answer longer than :data:`~autograd_tutor.quiz.keys.MAX_ANSWER_CHARS` characters (refused before it
is parsed), gets a short feedback message that says what was wrong, never an exception.

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
from ..quiz.keys import MAX_ANSWER_CHARS, shorten
from ._browser import is_int, is_number, take_from_browser

__all__ = ["QuizWidget"]

_STATIC = Path(__file__).parent / "static"


def _is_text(value) -> bool:
    return isinstance(value, str)


#: The JSON form of an answer, by question kind (what the view sends); the keys then check the content.
_ANSWER_FORMS = {
    "single": is_int,
    "multiple": lambda a: isinstance(a, list) and all(is_int(i) for i in a),
    "numeric": lambda a: _is_text(a) or is_number(a),
    "text": _is_text,
    "classify": lambda a: isinstance(a, dict) and all(isinstance(v, str) for v in a.values()),
}
_ANSWER_WORDS = {"single": "the number of one choice", "multiple": "a list of choice numbers",
                 "numeric": "a number or its text", "text": "a text", "classify": "an object of marks"}


def _json_name(value) -> str:
    names = {dict: "an object", list: "an array", str: "a text", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), "another value")


def _refusal(message: str, qid=None) -> dict:
    """The feedback for a message of the wrong form: not a try, and short."""
    return Feedback(qid, False, message, valid=False).to_json()


class QuizWidget(anywidget.AnyWidget):
    """Show a :class:`~autograd_tutor.quiz.Quiz`; ``score`` and ``answers`` report the learner's work."""

    _esm = (_STATIC / "dom.js").read_text(encoding="utf-8") + (_STATIC / "quiz.js").read_text(encoding="utf-8")
    _css = _STATIC / "quiz.css"

    title = traitlets.Unicode().tag(sync=True)
    questions = traitlets.List().tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)
    progress = traitlets.List().tag(sync=True)
    score = traitlets.Int(0).tag(sync=True)
    total = traitlets.Int(0).tag(sync=True)
    answers = traitlets.Dict()  # not synced: answers stay in Python
    #: The longest typed answer Python reads (the answer box takes no more).
    answer_limit = traitlets.Int(MAX_ANSWER_CHARS).tag(sync=True)

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

    def set_state(self, sync_data) -> None:
        """The browser's trait updates: ``index`` when it names a question; anything else is sent back."""
        take_from_browser(self, sync_data, {"index": lambda i: is_int(i) and 0 <= i < max(len(self.quiz), 1)})

    def _on_msg(self, _widget, content, _buffers) -> None:
        for reply in self.reply(content):
            self.send(reply)

    def reply(self, content) -> list:
        """The messages Python sends back for one message from the browser (see the module docstring)."""
        if not isinstance(content, dict) or content.get("type") not in ("check", "ready"):
            return [_refusal('Send {"type": "check", "id": ..., "answer": ...} or {"type": "ready"}.')]
        if content["type"] == "ready":
            return [feedback.to_json() for feedback in self.quiz.last_feedback()]
        qid = content.get("id")
        if not isinstance(qid, str) or qid not in self._ids:
            return [_refusal(f"There is no question {shorten(qid)} in this quiz.")]
        answer = content.get("answer")
        kind = self.quiz[qid].kind
        if not _ANSWER_FORMS[kind](answer):
            return [_refusal(f"A {kind} question takes {_ANSWER_WORDS[kind]}, not {_json_name(answer)}.", qid)]
        try:
            return [self.answer(qid, answer).to_json()]
        except Exception as exc:  # a bug of ours: the view must still get its reply, the kernel no traceback
            return [_refusal(f"Python could not check this answer ({type(exc).__name__}); please report it.", qid)]

    @property
    def _ids(self) -> set:
        return {q.id for q in self.quiz.questions}

    def __repr__(self) -> str:
        return "QuizWidget: " + str(self.quiz)[len("Quiz: "):]

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.quiz.to_html()
        return data, metadata
