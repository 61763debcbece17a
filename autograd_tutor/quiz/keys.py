"""Answer keys that stay in Python: salted hashes for choices and text, hidden intervals for numbers.

A key is built once from the plain answer and keeps no plain copy of it. Checking normalises the learner's
answer the same way and compares ``HMAC-SHA256(salt, normalised)`` with :func:`hmac.compare_digest`. The
salt is 16 random bytes per key, so equal answers in two questions (or two sessions) hash differently and a
table of precomputed hashes is useless. None of this is ever sent to the browser: the widget sends the
learner's answer to Python and gets back only "correct" or "not yet" and a sentence of feedback.

A number cannot be hashed if any value within a tolerance must pass, and a hash of the exact value could be
inverted by trying every plausible number. So a numeric key keeps its accepted intervals in Python memory
only (no trait, no repr, no JSON) and answers only with correct / incorrect.

>>> key = ChoiceKey.single(2, n_choices=4)
>>> key.check(2), key.check(1)
((True, 4), (False, 2))
>>> TextKey(["MulBackward0"]).check(" mul backward 0 ")
(True, None)
>>> NumericKey.near(42.0, 0.05).check("42.01"), NumericKey.near(42.0, 0.05).check("84/2")
((True, None), (True, None))
"""
from __future__ import annotations

import hashlib
import hmac
import math
import os
import re
import unicodedata
from dataclasses import dataclass

__all__ = ["ChoiceKey", "TextKey", "NumericKey", "ClassifyKey", "normalise_text", "parse_number",
           "InvalidAnswer"]


class InvalidAnswer(ValueError):
    """The answer is not of the right form (no choice made, not a number...): it is not counted as a try."""


def _digest(salt: bytes, text: str) -> bytes:
    return hmac.new(salt, text.encode("utf-8"), hashlib.sha256).digest()


class _Salted:
    """A set of salted hashes: ``in`` tells whether a normalised text is one of the hashed ones."""

    __slots__ = ("_salt", "_hashes")

    def __init__(self, texts) -> None:
        self._salt = os.urandom(16)
        self._hashes = tuple(_digest(self._salt, t) for t in texts)

    def __contains__(self, text: str) -> bool:
        probe = _digest(self._salt, text)
        found = False
        for h in self._hashes:  # no early exit: the time taken does not depend on which hash matched
            found |= hmac.compare_digest(probe, h)
        return found

    def __repr__(self) -> str:
        return f"<{len(self._hashes)} salted hashes>"


class ChoiceKey:
    """Which choices are right, kept as one salted hash per choice of ``"index:chosen?"``.

    ``check`` takes one index (single choice) or a list of indices (select all that apply) and returns
    ``(correct, how many choices are set right)``, so feedback can say "3 of 5" without saying which.
    """

    __slots__ = ("n_choices", "multiple", "_marks")

    def __init__(self, correct, n_choices: int, multiple: bool) -> None:
        correct = set(correct)
        self.n_choices = n_choices
        self.multiple = multiple
        self._marks = _Salted(f"{i}:{int(i in correct)}" for i in range(n_choices))

    @classmethod
    def single(cls, index: int, n_choices: int) -> "ChoiceKey":
        return cls([index], n_choices, multiple=False)

    @classmethod
    def many(cls, indices, n_choices: int) -> "ChoiceKey":
        return cls(indices, n_choices, multiple=True)

    def chosen(self, answer) -> set:
        """The set of chosen indices, or :class:`InvalidAnswer` when the answer has the wrong form."""
        items = answer if isinstance(answer, (list, tuple)) else [answer]
        if not self.multiple and len(items) != 1:
            raise InvalidAnswer("Choose one answer.")
        out = set()
        for i in items:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.n_choices:
                raise InvalidAnswer(f"There is no choice {i!r}.")
            out.add(i)
        if not out:
            raise InvalidAnswer("Choose at least one answer.")
        return out

    def check(self, answer) -> tuple:
        chosen = self.chosen(answer)
        right = sum(f"{i}:{int(i in chosen)}" in self._marks for i in range(self.n_choices))
        return right == self.n_choices, right


def normalise_text(text: str) -> str:
    """Fold case, drop all white space and the quotes or ``<>`` around a name: what we compare.

    >>> normalise_text("  <Mul Backward0> "), normalise_text("`AddBackward0`")
    ('mulbackward0', 'addbackward0')
    """
    text = unicodedata.normalize("NFKC", str(text)).casefold()
    text = re.sub(r"\s+", "", text)
    return text.strip("`'\"<>")


class TextKey:
    """Accepted short answers (``grad_fn`` names...), compared after :func:`normalise_text`.

    ``feedback`` maps a wrong answer a teacher expects to the sentence to show for it; those wrong answers
    are salted and hashed too (they are close to right ones).
    """

    __slots__ = ("_accepted", "_feedback", "match_case")

    def __init__(self, accepted, feedback=(), match_case: bool = False) -> None:
        self.match_case = match_case
        self._accepted = _Salted(self._norm(a) for a in accepted)
        self._feedback = tuple((_Salted([self._norm(a)]), text) for a, text in feedback)

    def _norm(self, text) -> str:
        if self.match_case:
            return re.sub(r"\s+", "", unicodedata.normalize("NFKC", str(text)))
        return normalise_text(text)

    def check(self, answer) -> tuple:
        if not isinstance(answer, str) or not self._norm(answer):
            raise InvalidAnswer("Type an answer first.")
        norm = self._norm(answer)
        if norm in self._accepted:
            return True, None
        return False, next((text for salted, text in self._feedback if norm in salted), None)


_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def parse_number(text) -> float:
    """A learner's number: ``4``, ``-0.5``, ``1e-3`` or a fraction ``1/3``.

    >>> parse_number(" -3/4 "), parse_number("2.5e1")
    (-0.75, 25.0)
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        if math.isfinite(text):
            return float(text)
        raise InvalidAnswer("Type a finite number.")
    s = str(text).strip().replace("\u2212", "-")
    parts = s.split("/")
    if len(parts) in (1, 2) and all(_NUMBER.match(p.strip()) for p in parts):
        value = float(parts[0])
        if len(parts) == 2:
            if float(parts[1]) == 0:
                raise InvalidAnswer("Cannot divide by zero.")
            value /= float(parts[1])
        return value
    raise InvalidAnswer("Type a number such as 4, -0.5, 1e-3 or 1/3.")


def _round_sig(x: float, digits: int) -> float:
    return float(f"{x:.{digits}g}")


@dataclass(frozen=True, repr=False)
class _Interval:
    low: float
    high: float
    closed_high: bool = True

    def __contains__(self, x: float) -> bool:
        return self.low <= x and (x <= self.high if self.closed_high else x < self.high)


class NumericKey:
    """Accepted intervals for a number, kept in Python only; ``check`` reveals nothing but the verdict.

    ``accept`` and ``feedback`` are ``(interval, sentence or None)`` pairs: the sentence is shown when the
    answer falls in that interval (a right one, or a wrong one a teacher expected). ``precision``
    (significant digits, as jupyterquiz uses it) rounds the learner's number and the accepted values before
    comparing.
    """

    __slots__ = ("_accept", "_feedback", "_precision")

    def __init__(self, accept, feedback=(), precision=None) -> None:
        self._accept = tuple(accept)
        self._feedback = tuple(feedback)
        self._precision = precision

    @classmethod
    def near(cls, value: float, tolerance: float, feedback=()) -> "NumericKey":
        """Accept ``|answer - value| <= tolerance``."""
        return cls([(_Interval(value - tolerance, value + tolerance), None)], feedback)

    @staticmethod
    def interval(low: float, high: float, closed_high: bool = True) -> _Interval:
        return _Interval(low, high, closed_high)

    def check(self, answer) -> tuple:
        x = parse_number(answer)
        if self._precision is not None:
            x = _round_sig(x, self._precision)
        for interval, text in self._accept:
            if self._precision is not None and interval.low == interval.high:
                if x == _round_sig(interval.low, self._precision):
                    return True, text
            elif x in interval:
                return True, text
        return False, next((text for interval, text in self._feedback if x in interval), None)

    def __repr__(self) -> str:
        return "<numeric key>"


class ClassifyKey:
    """One salted hash per item of ``"item=category"``: ``check`` counts the items marked right."""

    __slots__ = ("items", "categories", "_marks")

    def __init__(self, answer: dict, categories) -> None:
        self.items = tuple(answer)
        self.categories = tuple(categories)
        self._marks = _Salted(f"{item}={category}" for item, category in answer.items())

    def check(self, answer) -> tuple:
        if not isinstance(answer, dict):
            raise InvalidAnswer("Mark every tensor first.")
        missing = [i for i in self.items if answer.get(i) not in self.categories]
        if missing:
            raise InvalidAnswer(f"Mark every tensor first ({len(missing)} not marked yet).")
        right = sum(f"{i}={answer[i]}" in self._marks for i in self.items)
        return right == len(self.items), right
