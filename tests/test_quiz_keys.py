"""Answer keys: salted hashes for choices and text, hidden intervals for numbers, and the Quiz record."""
import pytest

from autograd_tutor.quiz import Question, Quiz
from autograd_tutor.quiz.keys import (ChoiceKey, ClassifyKey, InvalidAnswer, NumericKey, TextKey, normalise_text,
                                      parse_number)


def test_single_choice_key_accepts_only_its_index():
    key = ChoiceKey.single(2, 4)
    assert [key.check(i)[0] for i in range(4)] == [False, False, True, False]
    assert key.check([2])[0]
    for bad in (4, -1, "2", True, [0, 2], [], None):
        with pytest.raises(InvalidAnswer):
            key.check(bad)


def test_multiple_choice_key_needs_the_exact_set_and_counts_right_marks():
    key = ChoiceKey.many([0, 3], 5)
    assert key.check([3, 0]) == (True, 5)
    assert key.check([0]) == (False, 4)          # 3 is missing
    assert key.check([0, 3, 4]) == (False, 4)    # 4 is extra
    assert key.check([1, 2]) == (False, 1)
    assert key.check([0, 0, 3])[0]               # repeats do not matter
    with pytest.raises(InvalidAnswer):
        key.check([])


@pytest.mark.parametrize("typed", ["MulBackward0", "mulbackward0", " Mul Backward 0 ", "<MulBackward0>",
                                   "`MulBackward0`", "MULBACKWARD0", "mul\tbackward0"])
def test_text_key_normalises_case_spaces_and_wrapping(typed):
    assert TextKey(["MulBackward0"]).check(typed) == (True, None)


def test_text_key_rejects_other_names_and_gives_expected_feedback():
    key = TextKey(["AddBackward0"], feedback=[("MulBackward0", "that is the product's node")])
    assert key.check("AddBackward1") == (False, None)
    assert key.check("mul backward0") == (False, "that is the product's node")
    with pytest.raises(InvalidAnswer):
        key.check("   ")
    assert TextKey(["Ab"], match_case=True).check("ab") == (False, None)
    assert TextKey(["Ab"], match_case=True).check(" A b") == (True, None)


def test_normalise_text():
    assert normalise_text(" \u00a0Add Backward0\n") == "addbackward0"


@pytest.mark.parametrize("text, value", [("4", 4.0), ("-0.5", -0.5), (" 1e-3 ", 1e-3), ("1/3", 1 / 3),
                                         ("-3/4", -0.75), (".5", 0.5), ("2.", 2.0), ("\u22122", -2.0), (7, 7.0)])
def test_parse_number(text, value):
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "abc", "1/0", "1/2/3", "nan", "inf", "1e", "--1", float("nan"), True, "0x10"])
def test_parse_number_rejects(text):
    with pytest.raises(InvalidAnswer):
        parse_number(text)


def test_numeric_key_tolerance_and_feedback_intervals():
    key = NumericKey.near(5.0, 0.01, feedback=[(NumericKey.interval(4, 4), "only one path")])
    assert key.check("5")[0] and key.check("5.009")[0] and key.check("4.991")[0]
    assert not key.check("5.02")[0]
    assert key.check("4") == (False, "only one path")
    assert NumericKey.near(3, 0).check("3.0")[0] and not NumericKey.near(3, 0).check("3.0001")[0]


def test_numeric_key_half_open_ranges_and_precision():
    key = NumericKey([(NumericKey.interval(1, 2, closed_high=False), "in range")])
    assert key.check("1") == (True, "in range") and not key.check("2")[0]
    pi = NumericKey([(NumericKey.interval(3.14, 3.14), None)], precision=2)  # significant digits
    assert pi.check("3.1")[0] and pi.check("3.14159")[0] and not pi.check("3.2")[0]


def test_classify_key_counts_right_marks_and_wants_every_item():
    key = ClassifyKey({"x": "leaf_grad", "y": "nonleaf"}, ["leaf_grad", "leaf_nograd", "nonleaf"])
    assert key.check({"x": "leaf_grad", "y": "nonleaf"}) == (True, 2)
    assert key.check({"x": "leaf_nograd", "y": "nonleaf"}) == (False, 1)
    for bad in ({"x": "leaf_grad"}, {"x": "leaf_grad", "y": "tree"}, ["leaf_grad"]):
        with pytest.raises(InvalidAnswer):
            key.check(bad)


def test_keys_keep_no_plain_answer():
    """Nothing reachable from a key spells the answer: only salted digests, different for every key."""
    def reachable_strings(obj, seen=None):
        seen = set() if seen is None else seen
        if id(obj) in seen:
            return []
        seen.add(id(obj))
        if isinstance(obj, (str, bytes)):
            return [obj]
        out = []
        items = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, (list, tuple, set)) else None
        if items is not None:
            for v in items:
                out += reachable_strings(v, seen)
        for name in getattr(type(obj), "__slots__", ()):
            out += reachable_strings(getattr(obj, name, None), seen)
        return out

    text = TextKey(["SecretBackward0"])
    strings = reachable_strings(text)
    assert strings and all(b"secret" not in s and b"Secret" not in s for s in strings if isinstance(s, bytes))
    assert not [s for s in strings if isinstance(s, str) and "ecret" in s]
    assert "ecret" not in repr(text._accepted)
    a, b = TextKey(["same"]), TextKey(["same"])
    assert a._accepted._hashes != b._accepted._hashes  # per-key salt
    assert repr(NumericKey.near(123.5, 0)) == "<numeric key>"


def _choice_question(**kw):
    return Question("q", "single", "Pick", ChoiceKey.single(1, 3), "B it is.", choices=("A", "B", "C"),
                    choice_feedback=("not A", "", "not C"), hint="Think.", **kw)


def test_quiz_records_tries_score_and_keeps_a_solved_question_solved():
    quiz = Quiz("T", [_choice_question()])
    first = quiz.check("q", 0)
    assert (first.correct, first.valid, first.attempts) == (False, True, 1)
    assert first.explanation == "not A"      # the chosen choice's own feedback
    assert quiz.check("q", 2).explanation == "not C"
    invalid = quiz.check("q", 7)
    assert (invalid.valid, invalid.attempts) == (False, 2)
    second = quiz.check("q", 1)
    assert (second.correct, second.message, second.explanation) == (True, "Correct, on try 3.", "B it is.")
    assert quiz.score == 1
    assert quiz.check("q", 0).correct and quiz.answers["q"] == {"answer": 1, "correct": True, "attempts": 3}
    with pytest.raises(KeyError):
        quiz.check("nope", 1)


def test_quiz_rejects_duplicate_ids_and_question_checks_its_key_type():
    with pytest.raises(ValueError, match="unique"):
        Quiz("T", [_choice_question(), _choice_question()])
    with pytest.raises(TypeError, match="ChoiceKey"):
        Question("q", "single", "Pick", TextKey(["a"]), "")
    with pytest.raises(ValueError, match="unknown question kind"):
        Question("q", "essay", "Pick", TextKey(["a"]), "")


def test_text_and_html_renderings_show_questions_and_choices_but_no_answer():
    quiz = Quiz("T <1>", [_choice_question(code="a = `b`")])
    assert str(quiz) == "Quiz: T <1> (1 question, score 0/1)\n1. Pick\n   a = `b`\n   a) A\n   b) B\n   c) C"
    html = quiz._repr_html_()
    assert "T &lt;1&gt;" in html and "<li>&#9675; B</li>" in html
    assert "B it is" not in html and "not A" not in html


def test_wrong_answers_get_a_tally_and_the_specific_feedback_or_the_hint():
    q = Question("m", "multiple", "Pick two", ChoiceKey.many([0, 1], 3), "A and B.", choices=("A", "B", "C"),
                 hint="Two of them.")
    quiz = Quiz("T", [q])
    fb = quiz.check("m", [0])
    assert (fb.message, fb.explanation) == ("Not quite. 2 of 3 choices are set right. Try again.", "Two of them.")
