"""Load question banks (JSON files under ``quiz/banks/``) and import jupyterquiz files.

Loading is all or nothing: the whole file is parsed and checked (schema of :mod:`.schema`, then the facts
a schema cannot express: an answer index names an existing choice, edges join existing nodes, ids are
unique...) before any :class:`~.model.Question` is built. Any problem raises one :class:`~.schema.BankError`
that lists them all, each naming the file, the question id and the field.

>>> quiz = load_bank("lesson1")
>>> quiz.questions[0].prompt
'By default, which tensors have their `.grad` attribute populated after `loss.backward()`?'
>>> quiz.check("grad-after-backward", 3).correct
True
"""
from __future__ import annotations

import json
from pathlib import Path

from .keys import ChoiceKey, ClassifyKey, NumericKey, TextKey
from .model import CATEGORIES, Question, Quiz, diagram
from .schema import BANK_SCHEMA, QUESTION_SCHEMAS, BankError, validate

__all__ = ["load_bank", "bank_names", "questions_from_data", "import_jupyterquiz", "BANKS"]

#: The folder of the banks that ship with the package.
BANKS = Path(__file__).parent / "banks"


def bank_names() -> list:
    """The shipped banks, by name (``"lesson1"`` is ``banks/lesson1.json``)."""
    return sorted(p.stem for p in BANKS.glob("*.json"))


def _read_json(path: Path):
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BankError([(path.name, None, None, f"cannot be read: {exc.strerror or exc}")]) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BankError([(path.name, None, None,
                          f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")]) from None


def load_bank(name_or_path) -> Quiz:
    """A :class:`Quiz` from a shipped bank name (``"lesson1"``) or from the path of a bank file."""
    path = Path(name_or_path)
    if path.suffix != ".json" and not path.exists():
        path = BANKS / f"{name_or_path}.json"
        if not path.exists():
            raise FileNotFoundError(f"no question bank {name_or_path!r}; shipped banks: {', '.join(bank_names())}")
    data = _read_json(path)
    problems = [(path.name, None, field or None, msg) for field, msg in validate(data, BANK_SCHEMA)]
    if problems:
        raise BankError(problems)
    return Quiz(data["title"], questions_from_data(data["questions"], path.name))


def _qid(item, index: int) -> str:
    qid = item.get("id") if isinstance(item, dict) else None
    return qid if isinstance(qid, str) and qid else f"#{index + 1}"


def _semantic(item: dict) -> list:
    """The checks a schema cannot express, as ``(field, message)``."""
    kind = item["type"]
    problems = []
    if kind in ("single", "multiple"):
        n = len(item["choices"])
        for j, i in enumerate(item["answer"] if kind == "multiple" else [item["answer"]]):
            if i >= n:
                field = f"answer[{j}]" if kind == "multiple" else "answer"
                problems.append((field, f"choice {i} does not exist (there are {n} choices, numbered 0 to {n - 1})"))
    if kind == "numeric":
        for j, rule in enumerate(item.get("feedback", ())):
            low, high = rule["range"]
            if low > high:
                problems.append((f"feedback[{j}].range", f"starts above its end ({low} > {high})"))
    if kind == "classify":
        ids = [n["id"] for n in item["nodes"]]
        for j, i in enumerate(ids):
            if i in ids[:j]:
                problems.append((f"nodes[{j}].id", f"repeats the node id {i!r}"))
        for j, edge in enumerate(item.get("edges", ())):
            for k, end in enumerate(edge):
                if end not in ids:
                    problems.append((f"edges[{j}][{k}]", f"there is no node {end!r}"))
        for node in ids:
            if node not in item["answer"]:
                problems.append(("answer", f"node {node!r} has no mark (one of {', '.join(CATEGORIES)})"))
        for node in item["answer"]:
            if node not in ids:
                problems.append((f"answer.{node}", f"there is no node {node!r}"))
        if not problems:
            try:
                diagram(item["nodes"], [(a, b, 1) for a, b in item.get("edges", ())])
            except ValueError as exc:
                problems.append(("edges", str(exc)))
    return problems


def _choices(item: dict) -> tuple:
    texts = tuple(c if isinstance(c, str) else c["text"] for c in item["choices"])
    feedback = tuple("" if isinstance(c, str) else c.get("feedback", "") for c in item["choices"])
    return texts, feedback


def _build(item: dict) -> Question:
    kind = item["type"]
    common = dict(id=item["id"], kind=kind, prompt=item["prompt"], explanation=item["explanation"],
                  hint=item.get("hint", ""), code=item.get("code", ""))
    if kind in ("single", "multiple"):
        texts, feedback = _choices(item)
        key = (ChoiceKey.single(item["answer"], len(texts)) if kind == "single"
               else ChoiceKey.many(item["answer"], len(texts)))
        return Question(key=key, choices=texts, choice_feedback=feedback, **common)
    if kind == "numeric":
        rules = [(NumericKey.interval(*r["range"]), r["text"]) for r in item.get("feedback", ())]
        return Question(key=NumericKey.near(item["answer"], item.get("tolerance", 0), rules), **common)
    if kind == "text":
        rules = [(r["answer"], r["text"]) for r in item.get("feedback", ())]
        return Question(key=TextKey(item["answer"], rules), **common)
    nodes = [{"id": n["id"], "label": n["label"], "layer": n.get("layer")} for n in item["nodes"]]
    drawing = diagram(nodes, [(a, b, 1) for a, b in item.get("edges", ())])
    return Question(key=ClassifyKey(item["answer"], CATEGORIES), diagram=drawing, **common)


def questions_from_data(items: list, file: str) -> list:
    """Check every question of a bank (all of them, before building any) and build them."""
    problems = []
    seen = set()
    for index, item in enumerate(items):
        qid = _qid(item, index)
        kind = item.get("type")
        if kind not in QUESTION_SCHEMAS:
            problems.append((file, qid, "type", f"must be one of {', '.join(map(repr, QUESTION_SCHEMAS))}, "
                                                f"not {kind!r}"))
            continue
        found = validate(item, QUESTION_SCHEMAS[kind])
        if not found:
            found = _semantic(item)
            if item["id"] in seen:
                found.append(("id", "repeats the id of an earlier question"))
            seen.add(item["id"])
        problems += [(file, qid, field, msg) for field, msg in found]
    if problems:
        raise BankError(problems)
    return [_build(item) for item in items]


# --------------------------------------------------------------------------------------------- jupyterquiz
_JQ_ANSWER = {"type": "object", "properties": {
    "answer": {"type": "string"}, "code": {"type": "string"}, "correct": {"type": "boolean"},
    "feedback": {"type": "string"}, "type": {"type": "string"}, "value": {"type": "number"},
    "range": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number"}},
    "match_case": {"type": "boolean"}}}
#: jupyterquiz's own question format (its published mc/num/string schemas), as far as we import it.
JUPYTERQUIZ_SCHEMA = {"type": "object", "required": ["question", "type", "answers"], "properties": {
    "question": {"type": "string"}, "type": {"enum": ["multiple_choice", "many_choice", "numeric", "string"]},
    "code": {"type": "string"}, "precision": {"type": "integer", "minimum": 1},
    "answers": {"type": "array", "minItems": 1, "items": _JQ_ANSWER}}}


def _jq_choices(item: dict) -> tuple:
    problems = []
    texts, feedback, correct = [], [], []
    for j, a in enumerate(item["answers"]):
        if "correct" not in a:
            problems.append((f"answers[{j}].correct", "is required"))
        if "answer" not in a and "code" not in a:
            problems.append((f"answers[{j}]", "needs an 'answer' or a 'code'"))
        if "hide" in a:
            problems.append((f"answers[{j}].hide", "ungraded choices are not supported"))
        text = " ".join(p for p in (a.get("answer", ""), f"`{a['code']}`" if a.get("code") else "") if p)
        texts.append(text)
        feedback.append(a.get("feedback", ""))
        if a.get("correct"):
            correct.append(j)
    if not correct and not problems:
        problems.append(("answers", "no answer is marked correct"))
    return texts, feedback, correct, problems


def _jq_numeric(item: dict) -> tuple:
    problems, accept, rules, default = [], [], [], ""
    for j, a in enumerate(item["answers"]):
        if a.get("type") == "default":
            default = a.get("feedback", "")
            continue
        if "value" in a:
            interval = NumericKey.interval(a["value"], a["value"])
        elif "range" in a:
            low, high = a["range"]
            if low > high:
                problems.append((f"answers[{j}].range", f"starts above its end ({low} > {high})"))
            interval = NumericKey.interval(low, high, closed_high=False)  # jupyterquiz ranges are [A, B)
        else:
            problems.append((f"answers[{j}]", "needs a 'value', a 'range' or \"type\": \"default\""))
            continue
        if "correct" not in a:
            problems.append((f"answers[{j}].correct", "is required"))
        (accept if a.get("correct") else rules).append((interval, a.get("feedback") or None))
    if not accept and not problems:
        problems.append(("answers", "no value or range is marked correct"))
    return accept, rules, default, problems


def _jq_string(item: dict) -> tuple:
    problems, accepted, rules, default = [], [], [], ""
    for j, a in enumerate(item["answers"]):
        if a.get("type") == "default":
            default = a.get("feedback", "")
        elif "fuzzy_threshold" in a:
            problems.append((f"answers[{j}].fuzzy_threshold", "fuzzy matching is not supported"))
        elif "answer" not in a or "correct" not in a:
            problems.append((f"answers[{j}]", "needs 'answer' and 'correct'"))
        elif a["correct"]:
            accepted.append(a)
        elif a.get("feedback"):
            rules.append((a["answer"], a["feedback"]))
    if not accepted and not problems:
        problems.append(("answers", "no answer is marked correct"))
    return accepted, rules, default, problems


def _jq_question(item: dict, qid: str) -> tuple:
    """One jupyterquiz question as ``(Question or None, problems)``."""
    common = dict(id=qid, prompt=item["question"], code=item.get("code", ""))
    if item["type"] in ("multiple_choice", "many_choice"):
        texts, feedback, correct, problems = _jq_choices(item)
        if problems:
            return None, problems
        kind = "single" if len(correct) == 1 else "multiple"
        explanation = " ".join(dict.fromkeys(feedback[i] for i in correct if feedback[i]))
        return Question(kind=kind, key=ChoiceKey(correct, len(texts), multiple=kind == "multiple"),
                        choices=tuple(texts), choice_feedback=tuple(feedback), explanation=explanation,
                        **common), []
    if item["type"] == "numeric":
        accept, rules, default, problems = _jq_numeric(item)
        if problems:
            return None, problems
        return Question(kind="numeric", key=NumericKey(accept, rules, item.get("precision")), explanation="",
                        hint=default, **common), []
    accepted, rules, default, problems = _jq_string(item)
    if problems:
        return None, problems
    match_case = all(a.get("match_case") for a in accepted)
    explanation = " ".join(a["feedback"] for a in accepted[:1] if a.get("feedback"))
    return Question(kind="text", key=TextKey([a["answer"] for a in accepted], rules, match_case=match_case),
                    explanation=explanation, hint=default, **common), []


def import_jupyterquiz(source, title=None) -> Quiz:
    """A :class:`Quiz` from jupyterquiz's JSON (a path, or the list of question dicts itself).

    ``multiple_choice`` and ``many_choice`` become "single" when one answer is correct and "multiple" when
    several are (jupyterquiz decides the same way); ``numeric`` keeps its values, ``[A, B)`` ranges,
    per-answer feedback, default feedback and ``precision`` (significant digits); ``string`` becomes
    "text". Questions get the ids ``q1``, ``q2``...; errors name them ``#1``, ``#2``...

    >>> quiz = import_jupyterquiz([{"question": "2 + 2?", "type": "numeric",
    ...                             "answers": [{"type": "value", "value": 4, "correct": True}]}])
    >>> quiz.check("q1", "4").correct
    True
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        file, data = path.name, _read_json(path)
        title = title or path.stem
    else:
        file, data = "<jupyterquiz data>", source
    if not isinstance(data, list):
        raise BankError([(file, None, None, "must be a JSON list of jupyterquiz questions")])
    problems, built = [], []
    for index, item in enumerate(data):
        qid = f"#{index + 1}"
        found = validate(item, JUPYTERQUIZ_SCHEMA)
        if not found:
            question, found = _jq_question(item, f"q{index + 1}")
            built.append(question)
        problems += [(file, qid, field or None, msg) for field, msg in found]
    if problems:
        raise BankError(problems)
    return Quiz(title or "Imported quiz", built)
