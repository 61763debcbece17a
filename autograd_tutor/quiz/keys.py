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
import reprlib
import unicodedata
from dataclasses import dataclass

__all__ = ["ChoiceKey", "TextKey", "NumericKey", "ClassifyKey", "normalise_text", "parse_number",
           "InvalidAnswer", "MAX_ANSWER_CHARS", "shorten"]

#: The longest typed answer (number or text) that is read at all; a longer one is refused before parsing.
MAX_ANSWER_CHARS = 200


class InvalidAnswer(ValueError):
    """The answer is not of the right form (no choice made, not a number...): it is not counted as a try."""


def _digest(salt: bytes, text: str) -> bytes:
    # "surrogatepass": a lone surrogate (which JSON can carry) is hashed like any other character
    return hmac.new(salt, text.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()


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
        if len(items) > self.n_choices:
            raise InvalidAnswer(f"Choose at most {self.n_choices} answers.")
        out = set()
        for i in items:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.n_choices:
                raise InvalidAnswer(f"There is no choice {shorten(i)}.")
            out.add(i)
        if not out:
            raise InvalidAnswer("Choose at least one answer.")
        return out

    def check(self, answer) -> tuple:
        chosen = self.chosen(answer)
        right = sum(f"{i}:{int(i in chosen)}" in self._marks for i in range(self.n_choices))
        return right == self.n_choices, right


_SHORT = reprlib.Repr()  # how a message quotes what it was given: cut before it is formatted
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxlevel = (
    60, 60, 40, 6, 4, 2)


def shorten(value) -> str:
    """``repr(value)`` cut to at most 100 characters (a 10 MB string is never copied whole).

    >>> shorten("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx'"
    """
    text = _SHORT.repr(value)
    return text if len(text) <= 100 else text[:97] + "..."


def _typed(answer) -> str:
    """A typed answer, refused before any parsing when it is not a string or longer than MAX_ANSWER_CHARS."""
    if not isinstance(answer, str):
        raise InvalidAnswer("Type an answer first.")
    if len(answer) > MAX_ANSWER_CHARS:
        raise InvalidAnswer(f"That answer is {len(answer):,} characters long; answers take at most "
                            f"{MAX_ANSWER_CHARS}.")
    return answer


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

    @staticmethod
    def normalised(text, match_case: bool = False) -> str:
        """What is compared: :func:`normalise_text`, or with ``match_case`` only NFKC without white space."""
        if match_case:
            return re.sub(r"\s+", "", unicodedata.normalize("NFKC", str(text)))
        return normalise_text(text)

    def _norm(self, text) -> str:
        return self.normalised(text, self.match_case)

    def check(self, answer) -> tuple:
        norm = self._norm(_typed(answer))
        if not norm:
            raise InvalidAnswer("Type an answer first.")
        if norm in self._accepted:
            return True, None
        return False, next((text for salted, text in self._feedback if norm in salted), None)


#: The words a learner may type for a number that is not finite (accepted only where the answer is one).
NON_FINITE = {"nan": math.nan, "inf": math.inf, "+inf": math.inf, "-inf": -math.inf, "infinity": math.inf,
              "+infinity": math.inf, "-infinity": -math.inf}


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _is_decimal(text: str) -> bool:
    """``[+-]digits[.digits][e[+-]digits]``, checked by splitting, in one pass over the text (a regular
    expression with overlapping repeats, such as ``\\d+\\.?\\d*``, takes quadratic time on a long digit run)."""
    body, e, exponent = text.lower().partition("e")
    if e and not _digits(exponent[1:] if exponent[:1] in "+-" else exponent):
        return False
    whole, _, fraction = (body[1:] if body[:1] in "+-" else body).partition(".")
    return bool(whole or fraction) and all(not part or _digits(part) for part in (whole, fraction))


def _as_float(value) -> float:
    try:
        return float(value)
    except OverflowError:  # an int beyond the floats, such as 10**400
        return math.inf if value > 0 else -math.inf


def parse_number(text, non_finite: bool = False) -> float:
    """A learner's number: ``4``, ``-0.5``, ``1e-3`` or a fraction ``1/3``; with ``non_finite``, also ``nan``,
    ``inf`` and ``-inf``. Strings longer than :data:`MAX_ANSWER_CHARS` are refused unread.

    >>> parse_number(" -3/4 "), parse_number("2.5e1"), parse_number("-inf", non_finite=True)
    (-0.75, 25.0, -inf)
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = _as_float(text)
    else:
        s = _typed(text).strip().replace("\u2212", "-")
        parts = [p.strip() for p in s.split("/")]
        if non_finite and s.lower() in NON_FINITE:
            return NON_FINITE[s.lower()]
        if len(parts) not in (1, 2) or not all(_is_decimal(p) for p in parts):
            raise InvalidAnswer("Type a number such as 4, -0.5, 1e-3 or 1/3"
                                + (", or nan, inf or -inf." if non_finite else "."))
        value = float(parts[0])
        if len(parts) == 2:
            if float(parts[1]) == 0:
                raise InvalidAnswer("Cannot divide by zero.")
            value /= float(parts[1])
    if not (non_finite or math.isfinite(value)):
        raise InvalidAnswer("Type a finite number.")
    return value


def _round_sig(x: float, digits: int) -> float:
    return float(f"{x:.{digits}g}")


@dataclass(frozen=True, repr=False)
class _Interval:
    low: float
    high: float
    closed_high: bool = True

    def __contains__(self, x: float) -> bool:
        if math.isnan(self.low):  # the answer "nan": only nan matches it
            return math.isnan(x)
        return self.low <= x and (x <= self.high if self.closed_high else x < self.high)


class NumericKey:
    """Accepted intervals for a number, kept in Python only; ``check`` reveals nothing but the verdict.

    ``accept`` and ``feedback`` are ``(interval, sentence or None)`` pairs: the sentence is shown when the
    answer falls in that interval (a right one, or a wrong one a teacher expected). ``precision``
    (significant digits, as jupyterquiz uses it) rounds the learner's number and the accepted values before
    comparing.
    """

    __slots__ = ("_accept", "_feedback", "_precision", "non_finite")

    def __init__(self, accept, feedback=(), precision=None) -> None:
        self._accept = tuple(accept)
        self._feedback = tuple(feedback)
        self._precision = precision
        #: True when an accepted answer is nan or infinite: then "nan", "inf" and "-inf" can be typed.
        self.non_finite = any(not (math.isfinite(i.low) and math.isfinite(i.high)) for i, _ in self._accept)

    @classmethod
    def near(cls, value: float, tolerance: float, feedback=()) -> "NumericKey":
        """Accept ``|answer - value| <= tolerance``; a nan or infinite ``value`` only as itself."""
        if not math.isfinite(value):
            return cls([(_Interval(value, value), None)], feedback)
        return cls([(_Interval(value - tolerance, value + tolerance), None)], feedback)

    @staticmethod
    def interval(low: float, high: float, closed_high: bool = True) -> _Interval:
        return _Interval(low, high, closed_high)

    def check(self, answer) -> tuple:
        x = parse_number(answer, self.non_finite)
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
        if len(answer) > len(self.items):
            raise InvalidAnswer(f"Mark each of the {len(self.items)} tensors once.")
        missing = [i for i in self.items if answer.get(i) not in self.categories]
        if missing:
            raise InvalidAnswer(f"Mark every tensor first ({len(missing)} not marked yet).")
        right = sum(f"{i}={answer[i]}" in self._marks for i in self.items)
        return right == len(self.items), right
