"""Questions and quizzes: what a learner sees, what Python checks, and the score.

A :class:`Question` has a public face (prompt, choices, diagram: :meth:`Question.public`, the only part that
goes to a browser) and a private answer key (:mod:`.keys`). A :class:`Quiz` is an ordered set of questions
plus the learner's record: :meth:`Quiz.check` grades one answer, counts the try, and returns a
:class:`Feedback`; ``score`` counts the questions solved, ``answers`` keeps what was answered, for a grader.

>>> from autograd_tutor.quiz.keys import ChoiceKey
>>> q = Question("q1", "single", "What is 1 + 1?", choices=("1", "2"), key=ChoiceKey.single(1, 2),
...              explanation="One and one make two.")
>>> quiz = Quiz("Sums", [q])
>>> quiz.check("q1", 0).correct, quiz.check("q1", 1).message, quiz.score
(False, 'Correct, on try 2.', 1)
>>> print(quiz)
Quiz: Sums (1 question, score 1/1)
1. What is 1 + 1?
   a) 1
   b) 2
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Optional

from .keys import ChoiceKey, ClassifyKey, InvalidAnswer, NumericKey, TextKey, shorten

__all__ = ["Question", "Feedback", "Quiz", "KINDS", "CATEGORIES", "diagram", "inline_html"]

#: The question kinds and how the widget names them.
KINDS = {"single": "Choose one", "multiple": "Choose all that apply", "numeric": "Type a number",
         "text": "Type a short answer", "classify": "Classify the tensors"}
#: The marks of a "classify" question: a non-leaf always requires grad, so three cases cover every tensor.
CATEGORIES = {"leaf_grad": "leaf, requires grad", "leaf_nograd": "leaf, no grad", "nonleaf": "non-leaf"}
_KEY_TYPES = {"single": ChoiceKey, "multiple": ChoiceKey, "numeric": NumericKey, "text": TextKey,
              "classify": ClassifyKey}


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer. ``valid`` is False when the answer had the wrong form (not a try)."""
    question_id: str
    correct: bool
    message: str
    explanation: str = ""
    valid: bool = True
    attempts: int = 0

    def to_json(self) -> dict:
        return {"type": "feedback", "id": self.question_id, "correct": self.correct, "message": self.message,
                "explanation": self.explanation, "valid": self.valid, "attempts": self.attempts}


@dataclass(frozen=True, repr=False)
class Question:
    """One question. ``key`` checks answers; ``choice_feedback`` is shown when that (wrong) choice is picked.

    ``diagram`` (classify questions) is ``{"nodes": [{"id", "label", "layer", "row", "classify", ...}],
    "edges": [[from, to, count], ...], "at", "paths", "counts", "width", "height"}`` (see :func:`diagram`); the
    layout is the graphs' own, computed in Python; the browser only draws it.
    """
    id: str
    kind: str
    prompt: str
    key: object
    explanation: str
    choices: tuple = ()
    choice_feedback: tuple = ()
    hint: str = ""
    code: str = ""
    diagram: Optional[dict] = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown question kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if not isinstance(self.key, _KEY_TYPES[self.kind]):
            raise TypeError(f"a {self.kind} question needs a {_KEY_TYPES[self.kind].__name__}, "
                            f"got {type(self.key).__name__}")

    def check(self, answer) -> tuple:
        """``(correct, tally, said)``: a tally like "3 of 5 choices are set right." for multi-part answers,
        and the sentence meant for this particular answer (a choice's or a range's feedback), if any.
        Raises :class:`InvalidAnswer` for a malformed answer."""
        if self.kind in ("numeric", "text"):
            correct, said = self.key.check(answer)
            return correct, "", said or ""
        correct, right = self.key.check(answer)
        if correct:
            return True, "", ""
        if self.kind == "single":
            (index,) = self.key.chosen(answer)
            return False, "", self.choice_feedback[index] if self.choice_feedback else ""
        parts = (f"{len(self.choices)} choices are set" if self.kind == "multiple"
                 else f"{len(self.key.items)} tensors are marked")
        return False, f"{right} of {parts} right.", ""

    def public(self) -> dict:
        """What the browser may see: everything but the key, the explanation and the per-choice feedback."""
        out = {"id": self.id, "kind": self.kind, "kind_label": KINDS[self.kind], "prompt": self.prompt,
               "code": self.code, "choices": list(self.choices)}
        if self.kind == "classify":
            out["diagram"] = self.diagram
            out["categories"] = [{"id": k, "label": v} for k, v in CATEGORIES.items()]
        return out

    def text_lines(self, number: int) -> list:
        lines = [f"{number}. {self.prompt}"]
        if self.code:
            lines += ["   " + line for line in self.code.splitlines()]
        lines += [f"   {chr(97 + i)}) {c}" for i, c in enumerate(self.choices)]
        if self.kind == "classify":
            labels = [n["label"] for n in self.diagram["nodes"] if n.get("classify")]
            lines.append(f"   tensors: {', '.join(labels)}; marks: {' / '.join(CATEGORIES.values())}")
        return lines

    def __repr__(self) -> str:
        return f"Question({self.id!r}, {self.kind!r}, {self.prompt!r})"


def diagram(nodes: list, edges: list) -> dict:
    """Lay out a classify question's graph: ``layer`` = 1 + the largest layer among a node's inputs
    (0 for a node without inputs, unless given), ``row`` = its place within the layer, in the given order.

    ``nodes`` are dicts with ``id`` and ``label`` (and optionally ``layer``, ``classify``, ``note``, and
    ``off`` for tensors drawn apart, in their own row, numbered by ``row`` alone);
    ``edges`` are ``(from id, to id, count)``. Raises ValueError on a cycle.

    >>> d = diagram([{"id": "a", "label": "a"}, {"id": "b", "label": "b"}, {"id": "y", "label": "y"}],
    ...             [("a", "y", 1), ("b", "y", 1)])
    >>> [(n["id"], n["layer"], n["row"]) for n in d["nodes"]]
    [('a', 0, 0), ('b', 0, 1), ('y', 1, 0)]
    """
    inputs = {n["id"]: [] for n in nodes}
    for a, b, _ in edges:
        inputs[b].append(a)
    layer = {n["id"]: n["layer"] for n in nodes if n.get("layer") is not None}
    pending = [n["id"] for n in nodes if n["id"] not in layer]
    while pending:
        ready = [i for i in pending if all(j in layer for j in inputs[i])]
        if not ready:
            raise ValueError(f"the edges make a cycle through {', '.join(map(repr, pending))}")
        for i in ready:
            layer[i] = 1 + max((layer[j] for j in inputs[i]), default=-1)
        pending = [i for i in pending if i not in layer]
    rows = {}
    out = []
    for n in nodes:
        slot = "off" if n.get("off") else layer[n["id"]]
        out.append({"classify": True, "note": "", "off": False, **n, "layer": layer[n["id"]],
                    "row": rows.get(slot, 0)})
        rows[slot] = rows.get(slot, 0) + 1
    return {"nodes": out, "edges": [[a, b, c] for a, b, c in edges], **_placed(out, edges)}


#: The size of a tensor's box in a quiz diagram (quiz.js draws it), and room for a "×2" on an edge.
NODE_W, NODE_H, COUNT_LABEL = 104, 46, (22, 16)


def _placed(nodes: list, edges: list) -> dict:
    """Where quiz.js draws the tensors on the graph and the edges between them: the graphs' own layered layout
    (:mod:`autograd_tutor.viz.layered`), so an edge never runs through a tensor it does not touch.

    Returns ``{"at": {id: [x, y]} (top-left corners), "paths": [SVG d per edge], "counts": [[x, y] or None],
    "width", "height"}``; tensors drawn apart (``off``) are placed by quiz.js under the graph.
    """
    from ..viz.layered import Edge, layout, path_d
    on = [n["id"] for n in nodes if not n.get("off")]
    index = {i: k for k, i in enumerate(on)}
    drawn = [(a, b, c) for a, b, c in edges if a in index and b in index]
    d = layout([(NODE_W, NODE_H)] * len(on), [Edge(index[a], index[b], 0, 1, COUNT_LABEL if c > 1 else None)
                                              for a, b, c in drawn])
    paths = iter(path_d(r) for r in d.routes)
    counts = iter(d.labels)
    return {"at": {i: [round(d.centres[k][0] - NODE_W / 2, 1), round(d.centres[k][1] - NODE_H / 2, 1)]
                   for i, k in index.items()},
            "paths": [next(paths) if a in index and b in index else "" for a, b, _ in edges],
            "counts": [(lambda p: [round(p[0], 1), round(p[1], 1)] if p else None)(next(counts))
                       if a in index and b in index else None for a, b, _ in edges],
            "width": round(d.width, 1), "height": round(d.height, 1)}


def inline_html(text: str) -> str:
    """Escape ``text`` and turn ``code`` spans into ``<code>``: the only markup prompts use.

    >>> inline_html("Is `a < b` true?")
    'Is <code>a &lt; b</code> true?'
    """
    parts = html.escape(text, quote=False).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


@dataclass(repr=False)
class Quiz:
    """An ordered set of questions with unique ids, and the learner's record (``answers``, ``score``)."""
    title: str
    questions: list
    answers: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.questions = list(self.questions)
        seen = set()
        for q in self.questions:
            if q.id in seen:
                raise ValueError(f"two questions have the id {q.id!r}; question ids must be unique in a quiz")
            seen.add(q.id)
        self._by_id = {q.id: q for q in self.questions}
        self._last = {}

    def __len__(self) -> int:
        return len(self.questions)

    def __iter__(self):
        return iter(self.questions)

    def __getitem__(self, question_id: str) -> Question:
        return self._by_id[question_id]

    @property
    def score(self) -> int:
        """How many questions were answered correctly (retries allowed)."""
        return sum(1 for a in self.answers.values() if a["correct"])

    def check(self, question_id: str, answer) -> Feedback:
        """Grade ``answer``, count the try, remember it. A solved question stays solved."""
        if not isinstance(question_id, str) or question_id not in self._by_id:
            raise KeyError(f"no question {shorten(question_id)} in quiz {shorten(self.title)}")
        q = self._by_id[question_id]
        record = self.answers.get(question_id)
        if record is not None and record["correct"]:
            return self._last[question_id]
        try:
            correct, tally, said = q.check(answer)
        except InvalidAnswer as exc:
            return Feedback(question_id, False, str(exc), valid=False,
                            attempts=record["attempts"] if record else 0)
        attempts = (record["attempts"] if record else 0) + 1
        self.answers[question_id] = {"answer": answer, "correct": correct, "attempts": attempts}
        if correct:
            message = "Correct!" if attempts == 1 else f"Correct, on try {attempts}."
            explanation = " ".join(s for s in (said, q.explanation) if s)
            fb = Feedback(question_id, True, message, explanation, attempts=attempts)
        else:
            message = " ".join(s for s in ("Not quite.", tally, "Try again.") if s)
            fb = Feedback(question_id, False, message, said or q.hint, attempts=attempts)
        self._last[question_id] = fb
        return fb

    def last_feedback(self) -> list:
        """The feedback last given for each question that was tried, in question order."""
        return [self._last[q.id] for q in self.questions if q.id in self._last]

    def public(self) -> list:
        return [q.public() for q in self.questions]

    def __str__(self) -> str:
        n = len(self.questions)
        lines = [f"Quiz: {self.title} ({n} question{'s' if n != 1 else ''}, score {self.score}/{n})"]
        for i, q in enumerate(self.questions, 1):
            lines += q.text_lines(i)
        return "\n".join(lines)

    __repr__ = __str__

    def to_html(self) -> str:
        """A static rendering (question, choices, no answers) for GitHub, nbviewer and plain HTML exports."""
        n = len(self.questions)
        out = [f'<div class="agt-quiz-static"><p><strong>Quiz: {html.escape(self.title)}</strong> '
               f"<em>({n} question{'s' if n != 1 else ''}; run the notebook to answer)</em></p><ol>"]
        for q in self.questions:
            out.append(f"<li><p>{inline_html(q.prompt)}</p>")
            if q.code:
                out.append(f"<pre><code>{html.escape(q.code)}</code></pre>")
            box = "&#9744;" if q.kind == "multiple" else "&#9675;"
            if q.choices:
                out.append("<ul>" + "".join(f"<li>{box} {inline_html(c)}</li>" for c in q.choices) + "</ul>")
            if q.kind == "classify":
                labels = [n["label"] for n in q.diagram["nodes"] if n.get("classify")]
                out.append(f"<p>Tensors: {', '.join(f'<code>{html.escape(x)}</code>' for x in labels)}. "
                           f"Mark each: {html.escape(' / '.join(CATEGORIES.values()))}.</p>")
            if q.kind in ("numeric", "text"):
                out.append(f"<p><em>{KINDS[q.kind]}.</em></p>")
            out.append("</li>")
        out.append("</ol></div>")
        return "".join(out)

    def _repr_html_(self) -> str:
        return self.to_html()

