"""Load question banks (JSON files under ``quiz/banks/``) and import jupyterquiz files.

Loading is all or nothing: the whole file is read and checked before any :class:`~.model.Question` is
built. First the file itself: at most :data:`MAX_BANK_BYTES` bytes, UTF-8, JSON without repeated keys,
``NaN``/``Infinity`` or integers too long to read, nested at most :data:`MAX_DEPTH` levels. Then the schema
of :mod:`.schema`, then the facts a schema cannot express: an answer index names an existing choice, edges
join existing nodes, ids are unique, a text answer keeps something after normalising, a number fits in a
float... Any problem raises one :class:`~.schema.BankError` that lists them all, each naming the file, the
question id and the field.

>>> quiz = load_bank("lesson1")
>>> quiz.questions[0].prompt
'By default, which tensors have their `.grad` attribute populated after `loss.backward()`?'
>>> quiz.check("grad-after-backward", 3).correct
True
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from .keys import ChoiceKey, ClassifyKey, NumericKey, TextKey, shorten
from .model import CATEGORIES, Question, Quiz, diagram
from .schema import BANK_SCHEMA, QUESTION_SCHEMAS, BankError, validate, where

__all__ = ["load_bank", "bank_names", "questions_from_data", "import_jupyterquiz", "BANKS", "MAX_BANK_BYTES",
           "MAX_DEPTH"]

#: The folder of the banks that ship with the package.
BANKS = Path(__file__).parent / "banks"
#: The largest bank file read (the lesson-1 bank is 6 kB); a larger one is refused before it is read, since
#: everything a bank holds but its keys goes to the browser and into the saved notebook.
MAX_BANK_BYTES = 1_000_000
#: The deepest nesting of lists and objects in a bank (its deepest field, ``questions[0].feedback[0].range[0]``,
#: is inside 6).
MAX_DEPTH = 16
#: The most digits an integer may have (Python's own limit for reading one, ``sys.get_int_max_str_digits``).
MAX_DIGITS = 4300


def bank_names() -> list:
    """The shipped banks, by name (``"lesson1"`` is ``banks/lesson1.json``)."""
    return sorted(p.stem for p in BANKS.glob("*.json"))


class _Object(dict):
    """A JSON object that remembers the keys it repeats (``json`` itself keeps the last value silently)."""

    def __init__(self, pairs) -> None:
        super().__init__(pairs)
        self.repeated = []
        if len(self) < len(pairs):
            seen = set()
            for key, _ in pairs:
                if key in seen and key not in self.repeated:
                    self.repeated.append(key)
                seen.add(key)


class _LongInt:
    """Stands for an integer literal with more than MAX_DIGITS digits, so the check can say where it is."""

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))


def _integer(text: str):
    return _LongInt(text) if len(text) > MAX_DIGITS else int(text)


def _decode(raw: bytes, file: str) -> str:
    encoding = json.detect_encoding(raw)  # UTF-8, -16 or -32, from the BOM or the pattern of zero bytes
    if encoding not in ("utf-8", "utf-8-sig"):
        raise BankError([(file, None, None, f"is {encoding.upper().replace('-SIG', '')}-encoded; save it as "
                                            "UTF-8")])
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise BankError([(file, None, None, f"is not UTF-8: byte 0x{raw[exc.start]:02x} at line {line} (byte "
                                            f"{exc.start}) cannot be decoded; save the file as UTF-8")]) from None


def _parse(text: str, file: str):
    try:
        return json.loads(text, object_pairs_hook=_Object, parse_int=_integer, parse_constant=float)
    except json.JSONDecodeError as exc:
        raise BankError([(file, None, None,
                          f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")]) from None
    except RecursionError:
        raise BankError([(file, None, None, f"nests lists and objects too deeply to be read (a bank nests at "
                                            f"most {MAX_DEPTH} levels)")]) from None


def _read_json(path: Path):
    """The JSON of a bank file, read only when it is at most MAX_BANK_BYTES bytes of UTF-8."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BANK_BYTES + 1)
    except OSError as exc:
        raise BankError([(path.name, None, None, f"cannot be read: {exc.strerror or exc}")]) from None
    if len(raw) > MAX_BANK_BYTES:
        raise BankError([(path.name, None, None, f"is larger than {MAX_BANK_BYTES:,} bytes, the most a bank may "
                                                 "hold; split it into several banks")])
    return _parse(_decode(raw, path.name), path.name)


_NOT_TEXT = "holds a lone surrogate (a \\ud800-\\udfff escape not part of a pair), which is not text"


def _is_text(s: str) -> bool:
    """False for a string with a lone surrogate: UTF-8 cannot encode it, so no browser could be sent it."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _oddities(data) -> list:
    """What JSON can say but a bank must not, as ``(path, message)`` in file order: a repeated key, a
    number that is not finite (``NaN``, ``Infinity``, ``1e999``), an integer too long to read, nesting
    deeper than MAX_DEPTH, a string that is not text. Iterative: no nesting can overflow the stack."""
    found = []
    stack = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            found.append((path, f"nests deeper than {MAX_DEPTH} levels of lists and objects"))
            continue
        if isinstance(value, dict):
            found += [(path + (k,), "appears twice in one object; JSON would keep only the last value: keep one")
                      for k in getattr(value, "repeated", ())]
            found += [(path + (k[:60],), _NOT_TEXT) for k in value if isinstance(k, str) and not _is_text(k)]
            stack += [(v, path + (k,)) for k, v in reversed(value.items())]
        elif isinstance(value, str) and not _is_text(value):
            found.append((path, _NOT_TEXT))
        elif isinstance(value, (list, tuple)):
            stack += [(v, path + (i,)) for i, v in reversed(list(enumerate(value)))]
        elif isinstance(value, float) and not math.isfinite(value):
            found.append((path, f"must be a finite number, not {value} (NaN and Infinity are not numbers a "
                                "learner can type, and 1e999 is beyond the floats)"))
        elif isinstance(value, _LongInt):
            found.append((path, f"is an integer of {value.digits:,} digits; numbers have at most "
                                f"{MAX_DIGITS:,}"))
    return found


def _located(file: str, data, found: list, in_bank: bool) -> list:
    """``(file, question id, field, message)`` for ``(path, message)`` pairs found in a bank (``in_bank``:
    questions under ``"questions"``) or in a jupyterquiz list (questions numbered ``#1``, ``#2``...)."""
    out = []
    for path, message in found:
        if in_bank and len(path) > 1 and path[0] == "questions" and isinstance(path[1], int):
            qid, field = _qid(data["questions"][path[1]], path[1]), path[2:]
        elif not in_bank and path:
            qid, field = f"#{path[0] + 1}", path[1:]
        else:
            qid, field = None, path
        out.append((file, qid, where(field) or None, message))
    return out


def load_bank(name_or_path) -> Quiz:
    """A :class:`Quiz` from a shipped bank name (``"lesson1"``) or from the path of a bank file."""
    path = Path(name_or_path)
    if path.suffix != ".json" and not path.exists():
        path = BANKS / f"{name_or_path}.json"
        if not path.exists():
            raise FileNotFoundError(f"no question bank {name_or_path!r}; shipped banks: {', '.join(bank_names())}")
    data = _read_json(path)
    problems = _located(path.name, data, _oddities(data), in_bank=True)
    if not problems:
        problems = [(path.name, None, field or None, msg) for field, msg in validate(data, BANK_SCHEMA)]
    if problems:
        raise BankError(problems)
    return Quiz(data["title"], questions_from_data(data["questions"], path.name))


def _qid(item, index: int) -> str:
    qid = item.get("id") if isinstance(item, dict) else None
    return qid[:60] if isinstance(qid, str) and qid else f"#{index + 1}"


def _semantic(item: dict) -> list:
    """The checks a schema cannot express, as ``(field, message)``."""
    kind = item["type"]
    problems = []
    if kind in ("single", "multiple"):
        n = len(item["choices"])
        for j, i in enumerate(item["answer"] if kind == "multiple" else [item["answer"]]):
            if i >= n:
                field = f"answer[{j}]" if kind == "multiple" else "answer"
                problems.append((field, f"choice {shorten(i)} does not exist (there are {n} choices, numbered 0 "
                                        f"to {n - 1})"))
    if kind == "numeric":
        numbers = [("answer", item["answer"]), ("tolerance", item.get("tolerance", 0))]
        for j, rule in enumerate(item.get("feedback", ())):
            low, high = rule["range"]
            numbers += [(f"feedback[{j}].range[0]", low), (f"feedback[{j}].range[1]", high)]
            if low > high:
                problems.append((f"feedback[{j}].range", f"starts above its end ({shorten(low)} > {shorten(high)})"))
        problems += _too_large(numbers)
    if kind == "text":
        problems += _matches_nothing([(f"answer[{j}]", a) for j, a in enumerate(item["answer"])]
                                     + [(f"feedback[{j}].answer", r["answer"])
                                        for j, r in enumerate(item.get("feedback", ()))])
    if kind == "classify":
        ids = [n["id"] for n in item["nodes"]]
        known = set()
        for j, i in enumerate(ids):
            if i in known:
                problems.append((f"nodes[{j}].id", f"repeats the node id {shorten(i)}"))
            known.add(i)
        for j, edge in enumerate(item.get("edges", ())):
            for k, end in enumerate(edge):
                if end not in known:
                    problems.append((f"edges[{j}][{k}]", f"there is no node {shorten(end)}"))
        for node in ids:
            if node not in item["answer"]:
                problems.append(("answer", f"node {shorten(node)} has no mark (one of {', '.join(CATEGORIES)})"))
        for node in item["answer"]:
            if node not in known:
                problems.append((f"answer.{node[:60]}", f"there is no node {shorten(node)}"))
        if not problems:
            try:
                diagram(item["nodes"], [(a, b, 1) for a, b in item.get("edges", ())])
            except ValueError as exc:
                problems.append(("edges", str(exc)))
    return problems


def _too_large(numbers: list) -> list:
    """The ``(field, number)`` pairs whose number lies beyond the floats, which is all a learner can type."""
    return [(field, f"is {shorten(x)}, beyond the largest float ({sys.float_info.max:.4g}): no answer can reach "
                    "it") for field, x in numbers if abs(x) > sys.float_info.max]


def _matches_nothing(texts: list, match_case: bool = False) -> list:
    """The ``(field, text)`` pairs whose text normalises to nothing: no answer could ever match them."""
    return [(field, f"is {shorten(t)}, which is empty once case, spaces, quotes and <> are set aside, so no "
                    "answer could match it") for field, t in texts if not TextKey.normalised(t, match_case)]


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
        rules = [(NumericKey.interval(*map(float, r["range"])), r["text"]) for r in item.get("feedback", ())]
        return Question(key=NumericKey.near(float(item["answer"]), float(item.get("tolerance", 0)), rules),
                        **common)
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
        if not isinstance(kind, str) or kind not in QUESTION_SCHEMAS:
            problems.append((file, qid, "type", f"must be one of {', '.join(map(repr, QUESTION_SCHEMAS))}, "
                                                f"not {shorten(kind)}"))
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
    "code": {"type": "string"}, "precision": {"type": "integer", "minimum": 1, "maximum": 17},
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
            problems += _too_large([(f"answers[{j}].value", a["value"])])
            interval = NumericKey.interval(a["value"], a["value"])
        elif "range" in a:
            low, high = a["range"]
            problems += _too_large([(f"answers[{j}].range[0]", low), (f"answers[{j}].range[1]", high)])
            if low > high:
                problems.append((f"answers[{j}].range", f"starts above its end ({shorten(low)} > {shorten(high)})"))
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
    match_case = all(a.get("match_case") for a in accepted)
    problems += _matches_nothing([(f"answers[{j}].answer", a["answer"]) for j, a in enumerate(item["answers"])
                                  if "answer" in a and a.get("type") != "default"], match_case)
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
    oddities = _located(file, data, _oddities(data), in_bank=False)
    if oddities:
        raise BankError(oddities)
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
