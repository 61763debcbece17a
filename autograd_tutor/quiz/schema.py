"""The JSON schema of a question bank, and a small validator for it in plain Python.

The schemas are JSON-Schema-like dicts (``type``, ``properties``, ``required``, ``additionalProperties``,
``items``, ``enum``, ``const``, ``minimum``, ``minLength``, ``minItems``, ``maxItems``, ``uniqueItems``,
``pattern``, ``anyOf``), so a teacher can read them as documentation. :func:`validate` implements just that
subset (about 50 lines) rather than adding the ``jsonschema`` package as a runtime dependency; it returns
every problem as ``(field path, message)`` so a :class:`BankError` can name the file, the question and the
field.

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

import re

__all__ = ["BankError", "validate", "BANK_SCHEMA", "QUESTION_SCHEMAS", "FORMAT"]

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


_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "integer": int, "number": (int, float)}
_JSON_NAMES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "int", float: "float",
               type(None): "null"}


def _is(value, name: str) -> bool:
    if name in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[name])


def _join(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def validate(value, schema: dict, path: str = "") -> list:
    """Every way ``value`` breaks ``schema``, as ``(path, message)`` pairs (empty when it is valid)."""
    if "anyOf" in schema:
        if all(validate(value, s, path) for s in schema["anyOf"]):
            return [(path, schema.get("message", "has the wrong form"))]
        return []
    kind = schema.get("type")
    if kind is not None and not _is(value, kind):
        article = "an" if kind[0] in "aeiou" else "a"
        return [(path, f"must be {article} {kind}, not {_JSON_NAMES.get(type(value), type(value).__name__)}")]
    if "const" in schema and value != schema["const"]:
        return [(path, f"must be {schema['const']!r}")]
    if "enum" in schema and value not in schema["enum"]:
        return [(path, f"must be one of {', '.join(map(repr, schema['enum']))}, not {value!r}")]
    problems = []
    if isinstance(value, str):
        if len(value.strip()) < schema.get("minLength", 0):
            problems.append((path, "must not be empty"))
        if "pattern" in schema and not re.fullmatch(schema["pattern"], value):
            problems.append((path, schema.get("message", f"must match {schema['pattern']}")))
    if _is(value, "number") and "minimum" in schema and value < schema["minimum"]:
        problems.append((path, f"must be at least {schema['minimum']}"))
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            problems.append((path, f"needs at least {schema['minItems']} item{'s' * (schema['minItems'] > 1)}"))
        if len(value) > schema.get("maxItems", len(value)):
            problems.append((path, f"takes at most {schema['maxItems']} items"))
        if schema.get("uniqueItems") and len({repr(v) for v in value}) != len(value):
            problems.append((path, "must not repeat an item"))
        for i, item in enumerate(value):
            if "items" in schema:
                problems += validate(item, schema["items"], _join(path, i))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                problems.append((_join(path, name), "is required"))
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in props:
                problems += validate(item, props[name], _join(path, name))
            elif extra is False:
                problems.append((_join(path, name), f"is not a known field (known: {', '.join(props)})"))
            elif isinstance(extra, dict):
                problems += validate(item, extra, _join(path, name))
    return problems


_TEXT = {"type": "string", "minLength": 1}
_ID = {"type": "string", "pattern": r"[A-Za-z0-9][A-Za-z0-9_.\-]*",
       "message": "must be letters, digits, '_', '.' or '-', starting with a letter or digit"}
_CHOICE = {"anyOf": [_TEXT, {"type": "object", "required": ["text"], "additionalProperties": False,
                             "properties": {"text": _TEXT, "feedback": {"type": "string"}}}],
           "message": "must be a non-empty string or {\"text\": ..., \"feedback\": ...}"}
_INDEX = {"type": "integer", "minimum": 0}
_NUMBER = {"type": "number"}
_COMMON = {"id": _ID, "type": {"type": "string"}, "prompt": _TEXT, "code": {"type": "string"},
           "explanation": _TEXT, "hint": {"type": "string"}}
_CATEGORIES = ["leaf_grad", "leaf_nograd", "nonleaf"]


def _question(required: list, **props) -> dict:
    return {"type": "object", "required": ["id", "type", "prompt", *required, "explanation"],
            "properties": {**_COMMON, **props}, "additionalProperties": False}


#: One schema per question ``type``; the loader picks it by the question's ``"type"``.
QUESTION_SCHEMAS = {
    "single": _question(["choices", "answer"], choices={"type": "array", "minItems": 2, "items": _CHOICE},
                        answer=_INDEX),
    "multiple": _question(["choices", "answer"], choices={"type": "array", "minItems": 2, "items": _CHOICE},
                          answer={"type": "array", "minItems": 1, "uniqueItems": True, "items": _INDEX}),
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
                          nodes={"type": "array", "minItems": 1, "items": {
                              "type": "object", "required": ["id", "label"], "additionalProperties": False,
                              "properties": {"id": _ID, "label": _TEXT, "layer": _INDEX}}},
                          edges={"type": "array", "items": {"type": "array", "minItems": 2, "maxItems": 2,
                                                            "items": {"type": "string"}}},
                          answer={"type": "object", "additionalProperties": {"enum": _CATEGORIES}}),
}

#: The whole file. Each question is then checked against ``QUESTION_SCHEMAS[question["type"]]``.
BANK_SCHEMA = {
    "type": "object", "required": ["format", "title", "questions"], "additionalProperties": False,
    "properties": {"format": {"const": FORMAT}, "lesson": _INDEX, "title": _TEXT,
                   "questions": {"type": "array", "minItems": 1, "items": {"type": "object"}}},
}
