"""Fuzzing what comes from outside: arbitrary JSON as quiz messages and trait updates, arbitrary JSON and
bytes as bank files. The handlers never raise, always answer, and answer briefly; a bank either loads or
raises BankError. (Hypothesis; each test a few seconds.)"""
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("anywidget")

from autograd_tutor.quiz import BankError, Quiz, import_jupyterquiz, load_bank  # noqa: E402
from autograd_tutor.widgets import QuizWidget  # noqa: E402

from test_hostile_messages import REPLY_LIMIT, kinds_quiz, replies, wired  # noqa: E402

#: 200 examples a test by default (a few seconds each); FUZZ_EXAMPLES=5000 for a deeper run.
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 200)), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

#: Any JSON value, as ipywidgets' reader hands it over (its json also takes NaN and Infinity), with text
#: that includes lone surrogates.
SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10 ** 300, max_value=10 ** 400)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
           | st.sampled_from(["s", "m", "n", "t", "c", "check", "ready", "1/3", "2.5", "nan", "inf", "\ud800",
                              "leaf_grad", "nonleaf", "a", "b", "1" * 300, " mul backward0 "]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(st.text(max_size=8) | st.sampled_from(["a", "b", "type", "id"]), inner,
                                      max_size=5), max_leaves=20)
#: Messages shaped like the view's, with any field replaced by anything.
MESSAGES = JSON | st.fixed_dictionaries(
    {"type": st.sampled_from(["check", "ready"]) | JSON},
    optional={"id": st.sampled_from(["s", "m", "n", "t", "c"]) | JSON, "answer": JSON})

WIDGET = QuizWidget(kinds_quiz())
SENT = wired(WIDGET)
ANSWERED = QuizWidget(kinds_quiz())
ANSWERED.answer("s", 1)


@FUZZ
@given(MESSAGES)
def test_any_message_gets_short_feedback_and_never_an_exception(content):
    SENT.clear()
    WIDGET._on_msg(WIDGET, content, [])
    out = replies(SENT)
    is_ready = isinstance(content, dict) and content.get("type") == "ready"
    assert len(out) >= 1 or is_ready  # "ready" replays the feedback so far, which may be none
    for reply in out:
        assert reply["type"] == "feedback" and isinstance(reply["message"], str)
        assert "could not check" not in reply["message"]  # the safety net is never needed
        assert len(json.dumps(reply)) < REPLY_LIMIT
    assert 0 <= WIDGET.score <= WIDGET.total == 5
    assert WIDGET.score == WIDGET.quiz.score


@FUZZ
@given(st.dictionaries(st.sampled_from(["score", "progress", "index", "title", "questions", "total",
                                        "answer_limit", "answers", "layout", "_esm"]) | st.text(max_size=6),
                       JSON, max_size=4))
def test_any_trait_update_leaves_what_python_wrote(state):
    w = ANSWERED
    w.index = 0
    sent = wired(w)
    before = {k: getattr(w, k) for k in ("score", "progress", "title", "questions", "total", "answer_limit",
                                         "answers")}
    w.set_state(state)
    assert {k: getattr(w, k) for k in before} == before
    assert 0 <= w.index < 5
    assert len(sent) <= 2


# ---------------------------------------------------------------- banks

#: One sound question of each kind, which the fuzzer then changes field by field.
BASES = [
    {"id": "q1", "type": "single", "prompt": "Pick", "choices": ["a", "b"], "answer": 0, "explanation": "So."},
    {"id": "q1", "type": "multiple", "prompt": "Pick", "choices": ["a", "b", "c"], "answer": [0, 2],
     "explanation": "So."},
    {"id": "q1", "type": "numeric", "prompt": "A number", "answer": 2.5, "tolerance": 0.1, "explanation": "So.",
     "feedback": [{"range": [0, 1], "text": "Too small."}]},
    {"id": "q1", "type": "text", "prompt": "A name", "answer": ["MulBackward0"], "explanation": "So.",
     "feedback": [{"answer": "AddBackward0", "text": "Not add."}]},
    {"id": "q1", "type": "classify", "prompt": "Mark", "nodes": [{"id": "a", "label": "a"}, {"id": "y", "label": "y"}],
     "edges": [["a", "y"]], "answer": {"a": "leaf_grad", "y": "nonleaf"}, "explanation": "So."},
]
FIELDS = ["id", "type", "prompt", "choices", "answer", "explanation", "hint", "code", "tolerance", "feedback",
          "nodes", "edges"]
#: Values a teacher might plausibly write, as well as anything at all.
PLAUSIBLE = (st.integers(-3, 3) | st.floats(-10, 10) | st.lists(st.integers(0, 3), max_size=3)
             | st.lists(st.text(max_size=6), min_size=1, max_size=3) | st.text(max_size=12)
             | st.lists(st.fixed_dictionaries({"range": st.lists(st.floats(-5, 5), min_size=2, max_size=2),
                                               "text": st.text(max_size=5)}), max_size=2))
PATCHES = st.dictionaries(st.sampled_from(FIELDS), PLAUSIBLE | JSON, max_size=2)


def _load(text) -> object:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
        try:
            return load_bank(path)
        except BankError as err:
            assert err.file == "fuzz.json" and str(err).startswith("fuzz.json: ")
            assert all(len(line) < 400 for line in str(err).splitlines())
            return err


def _answers_never_raise(quiz: Quiz, answers) -> None:
    """Any answer to any question of a bank that loaded is graded or refused as of the wrong form."""
    for q in quiz:
        for answer in answers:
            assert len(quiz.check(q.id, answer).message) < 200


@FUZZ
@given(st.sampled_from(BASES), PATCHES, st.lists(JSON | PLAUSIBLE, max_size=3))
def test_a_bank_with_any_fields_loads_or_is_a_bank_error(base, patch, answers):
    question = {**base, **patch}
    result = _load(json.dumps({"format": "autograd_tutor.quiz/1", "title": "T", "questions": [question]}))
    if isinstance(result, Quiz):
        _answers_never_raise(result, answers)


@FUZZ
@given(JSON)
def test_any_json_as_a_bank_is_a_bank_error(data):
    assert isinstance(_load(json.dumps(data)), BankError)


@FUZZ
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_bytes_as_a_bank_is_a_bank_error(raw):
    assert isinstance(_load(raw), BankError)


@FUZZ
@given(st.lists(JSON | st.fixed_dictionaries({"question": st.text(max_size=5), "type": st.sampled_from(
    ["multiple_choice", "many_choice", "numeric", "string"]), "answers": st.lists(JSON, max_size=3)}),
    max_size=3), st.lists(JSON, max_size=3))
def test_any_jupyterquiz_data_imports_or_is_a_bank_error(data, answers):
    try:
        quiz = import_jupyterquiz(data)
    except BankError as err:
        assert all(len(line) < 400 for line in str(err).splitlines())
    else:
        _answers_never_raise(quiz, answers)
