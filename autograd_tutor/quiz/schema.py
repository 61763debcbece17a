"""The JSON schema of a question bank, checked by the ``jsonschema`` library with our own error messages.

The schemas are plain JSON Schema (draft 2020-12) dicts, so a teacher can read them as documentation; a
``"message"`` beside a ``pattern`` or an ``anyOf`` is the sentence shown when it fails (JSON Schema ignores
keywords it does not know). :func:`validate` runs ``jsonschema`` and returns every problem as ``(field path,
message)``, so a :class:`BankError` can name the file, the question and the field. Two rules differ from
plain JSON Schema, as Python reads JSON: an integer is an ``int`` (``1.0`` is a float), and a boolean is
never a number.

A bank file looks like this::

    {"format": "autograd_tutor.quiz/1", "lesson": 1, "title": "...",
     "questions": [{"id": "grad-after-backward", "type": "single", "prompt": "...",
                    "choices": ["...", {"text": "...", "feedback": "why not"}], "answer": 3,
                    "explanation": "...", "hint": "..."}]}

>>> validate({"id": "q1", "type": "single"}, QUESTION_SCHEMAS["single"])[:2]
[('prompt', 'is required'), ('choices', 'is required')]
>>> validate(["a", 3], {"type": "array", "items": {"type": "string"}})
[('[1]', 'must be a string, not int')]
"""
from __future__ import annotations

from .keys import shorten

__all__ = ["BankError", "validate", "where", "BANK_SCHEMA", "QUESTION_SCHEMAS", "FORMAT"]

FORMAT = "autograd_tutor.quiz/1"


class BankError(ValueError):
    """A question bank (or jupyterquiz file) that cannot be loaded; nothing from it was loaded.

    ``problems`` lists ``(file, question id or None, field or None, message)``; the first one is also
    available as ``file``, ``question_id`` and ``field``.
    """

    def __init__(self, problems: list) -> None:
        self.problems = list(problems)
        self.file, self.question_id, self.field, _ = self.problems[0]
        super().__init__("\n".join(self._line(*p) for p in self.problems))

    @staticmethod
    def _line(file, question_id, field, message) -> str:
        where = [str(file)]
        if question_id is not None:
            where.append(f"question {question_id!r}")
        if field is not None:
            where.append(f"field {field!r}")
        return f"{': '.join(where)}: {message}"


_JSON_NAMES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "int", float: "float",
               type(None): "null"}


def _plural(n: int) -> str:
    return "s" * (n > 1)


#: What each failed keyword says, from the failed error (``error.validator_value`` is the keyword's value).
_MESSAGES = {
    "type": lambda e: (f"must be {'an' if e.validator_value[0] in 'aeiou' else 'a'} {e.validator_value}, "
                       f"not {_JSON_NAMES.get(type(e.instance), type(e.instance).__name__)}"),
    "const": lambda e: f"must be {e.validator_value!r}",
    "enum": lambda e: f"must be one of {', '.join(map(repr, e.validator_value))}, not {shorten(e.instance)}",
    "pattern": lambda e: e.schema.get("message", f"must match {e.validator_value}"),
    "anyOf": lambda e: e.schema.get("message", "has the wrong form"),
    "minimum": lambda e: f"must be at least {e.validator_value}",
    "maximum": lambda e: f"must be at most {e.validator_value}",
    "minItems": lambda e: f"needs at least {e.validator_value} item{_plural(e.validator_value)}",
    "maxItems": lambda e: f"takes at most {e.validator_value} items",
    "uniqueItems": lambda e: "must not repeat an item",
}


def _validator_class():
    """jsonschema's Draft 2020-12 validator with our two rules, made on the first validation: importing
    jsonschema (its format checkers with it) takes 22 MB and 2 s, which a lesson that loads no bank never pays."""
    global _Validator
    if _Validator is not None:
        return _Validator
    try:
        import jsonschema
    except ImportError as exc:  # pragma: no cover - installed with the widgets and quiz extras
        raise ImportError("autograd_tutor.quiz checks banks with jsonschema: pip install 'autograd_tutor[quiz]'") \
            from exc
    draft = jsonschema.Draft202012Validator
    additional = draft.VALIDATORS["additionalProperties"]

    def required_(validator, required, instance, schema):
        """``required``, one error per missing field, at that field's path."""
        if validator.is_type(instance, "object"):
            for name in required:
                if name not in instance:
                    yield jsonschema.ValidationError("is required", path=[name])

    def additional_(validator, allowed, instance, schema):
        """``additionalProperties: false``, one error per unknown field, at that field's path, in file order."""
        if allowed is not False or not validator.is_type(instance, "object"):
            yield from additional(validator, allowed, instance, schema)
            return
        known = schema.get("properties", {})
        for name in instance:
            if name not in known:
                yield jsonschema.ValidationError(f"is not a known field (known: {', '.join(known)})", path=[name])

    types = draft.TYPE_CHECKER.redefine("integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool))
    _Validator = jsonschema.validators.extend(draft, type_checker=types,
                                              validators={"required": required_, "additionalProperties": additional_})
    return _Validator


_Validator = None   # made by _validator_class
_validators: dict = {}  # id(schema) -> its validator, made once


def where(path) -> str:
    """A field's path as messages write it: ``("feedback", 0, "range")`` is ``"feedback[0].range"``."""
    out = ""
    for key in path:
        out = f"{out}[{key}]" if isinstance(key, int) else f"{out}.{key}" if out else str(key)
    return out


def validate(value, schema: dict) -> list:
    """Every way ``value`` breaks ``schema``, as ``(path, message)`` pairs (empty when it is valid)."""
    validator = _validators.get(id(schema))
    if validator is None or validator.schema is not schema:
        validator = _validators[id(schema)] = _validator_class()(schema)
    problems = []
    for error in validator.iter_errors(value):
        say = _MESSAGES.get(error.validator)
        problems.append((where(error.absolute_path), say(error) if say else error.message))
    return problems


_TEXT = {"type": "string", "pattern": r"\S", "message": "must not be empty"}
_ID = {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$(?!\n)",
       "message": "must be letters, digits, '_', '.' or '-', starting with a letter or digit"}
_CHOICE = {"anyOf": [_TEXT, {"type": "object", "required": ["text"], "additionalProperties": False,
                             "properties": {"text": _TEXT, "feedback": {"type": "string"}}}],
           "message": "must be a non-empty string or {\"text\": ..., \"feedback\": ...}"}
_INDEX = {"type": "integer", "minimum": 0}
#: Choices are lettered a) to z) in the text view.
_CHOICES = {"type": "array", "minItems": 2, "maxItems": 26, "items": _CHOICE}
_LAYER = {"type": "integer", "minimum": 0, "maximum": 100}  # a column of the drawing
_NUMBER = {"type": "number"}
_COMMON = {"id": _ID, "type": {"type": "string"}, "prompt": _TEXT, "code": {"type": "string"},
           "explanation": _TEXT, "hint": {"type": "string"}}
_CATEGORIES = ["leaf_grad", "leaf_nograd", "nonleaf"]


def _question(required: list, **props) -> dict:
    return {"type": "object", "required": ["id", "type", "prompt", *required, "explanation"],
            "properties": {**_COMMON, **props}, "additionalProperties": False}


#: One schema per question ``type``; the loader picks it by the question's ``"type"``.
QUESTION_SCHEMAS = {
    "single": _question(["choices", "answer"], choices=_CHOICES, answer=_INDEX),
    "multiple": _question(["choices", "answer"], choices=_CHOICES,
                          answer={"type": "array", "minItems": 1, "maxItems": 26, "uniqueItems": True,
                                  "items": _INDEX}),
    "numeric": _question(["answer"], answer=_NUMBER, tolerance={"type": "number", "minimum": 0},
                         feedback={"type": "array", "items": {
                             "type": "object", "required": ["range", "text"], "additionalProperties": False,
                             "properties": {"range": {"type": "array", "minItems": 2, "maxItems": 2,
                                                      "items": _NUMBER}, "text": _TEXT}}}),
    "text": _question(["answer"], answer={"type": "array", "minItems": 1, "items": _TEXT},
                      feedback={"type": "array", "items": {
                          "type": "object", "required": ["answer", "text"], "additionalProperties": False,
                          "properties": {"answer": _TEXT, "text": _TEXT}}}),
    "classify": _question(["nodes", "answer"],
                          nodes={"type": "array", "minItems": 1, "maxItems": 100, "items": {
                              "type": "object", "required": ["id", "label"], "additionalProperties": False,
                              "properties": {"id": _ID, "label": _TEXT, "layer": _LAYER}}},
                          edges={"type": "array", "maxItems": 1000, "items": {
                              "type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"}}},
                          answer={"type": "object", "additionalProperties": {"enum": _CATEGORIES}}),
}

#: The whole file. Each question is then checked against ``QUESTION_SCHEMAS[question["type"]]``.
BANK_SCHEMA = {
    "type": "object", "required": ["format", "title", "questions"], "additionalProperties": False,
    "properties": {"format": {"const": FORMAT}, "lesson": _INDEX, "title": _TEXT,
                   "questions": {"type": "array", "minItems": 1, "items": {"type": "object"}}},
}
