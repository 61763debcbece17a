"""Crafted messages from the front end: the quiz answers each one with a short feedback message and never
raises; score, progress and the other traits only Python writes cannot be set from the browser; a disabled
button does nothing when a message clicks it; a 1 MB answer is refused before it is parsed."""
import json

import pytest

pytest.importorskip("anywidget")

import autograd_tutor as torch  # noqa: E402
from autograd_tutor.quiz import Question, Quiz  # noqa: E402
from autograd_tutor.quiz.keys import MAX_ANSWER_CHARS, ChoiceKey, ClassifyKey, NumericKey, TextKey  # noqa: E402
from autograd_tutor.quiz.model import CATEGORIES, diagram  # noqa: E402
from autograd_tutor.widgets import GraphWidget, QuizWidget, RetainGraphDemo  # noqa: E402

#: A reply quotes at most this much: nothing a message carries is echoed back at length.
REPLY_LIMIT = 500


def kinds_quiz() -> Quiz:
    drawing = diagram([{"id": "a", "label": "a"}, {"id": "b", "label": "b"}], [("a", "b", 1)])
    return Quiz("Kinds", [
        Question("s", "single", "Pick", ChoiceKey.single(1, 3), "S.", choices=("A", "B", "C")),
        Question("m", "multiple", "Pick some", ChoiceKey.many([0, 2], 3), "M.", choices=("A", "B", "C")),
        Question("n", "numeric", "A number", NumericKey.near(2.5, 0.01), "N."),
        Question("t", "text", "A name", TextKey(["MulBackward0"]), "T."),
        Question("c", "classify", "Mark", ClassifyKey({"a": "leaf_grad", "b": "nonleaf"}, CATEGORIES), "C.",
                 diagram=drawing),
    ])


def wired(widget):
    """Collect every message the widget sends (custom replies and state updates) instead of a comm."""
    sent = []
    widget._send = lambda msg, buffers=None: sent.append(msg)
    return sent


def replies(sent) -> list:
    return [m["content"] for m in sent if m["method"] == "custom"]


HUGE = "1" * 1_000_000
# (message content, what the reply's message says); every one is answered by one feedback that is not a try.
REFUSED = [
    (None, 'Send {"type": "check"'), ("check", 'Send {"type"'), (5, "Send"), (["check"], "Send"), (True, "Send"),
    ({}, "Send"), ({"type": ["check"]}, "Send"), ({"type": {"a": 1}}, "Send"), ({"type": "other"}, "Send"),
    ({"type": "check"}, "no question None"), ({"type": "check", "id": None}, "no question None"),
    ({"type": "check", "id": ["s"]}, "no question ['s']"), ({"type": "check", "id": {"s": 1}}, "no question {'s': 1}"),
    ({"type": "check", "id": 0}, "no question 0"), ({"type": "check", "id": "nope"}, "no question 'nope'"),
    ({"type": "check", "id": "x" * 10_000_000}, "no question 'xxx"),
    ({"type": "check", "id": "s"}, "takes the number of one choice, not null"),
    ({"type": "check", "id": "s", "answer": "1"}, "not a text"),
    ({"type": "check", "id": "s", "answer": "x" * 10_000_000}, "not a text"),
    ({"type": "check", "id": "s", "answer": True}, "not a boolean"),
    ({"type": "check", "id": "s", "answer": 1.0}, "not a number"),
    ({"type": "check", "id": "s", "answer": [1]}, "not an array"),
    ({"type": "check", "id": "s", "answer": 10 ** 400}, "There is no choice 1000"),
    ({"type": "check", "id": "s", "answer": -1}, "There is no choice -1"),
    ({"type": "check", "id": "s", "answer": 3}, "There is no choice 3"),
    ({"type": "check", "id": "m", "answer": [0, "1"]}, "takes a list of choice numbers"),
    ({"type": "check", "id": "m", "answer": [0] * 100_000}, "Choose at most 3 answers"),
    ({"type": "check", "id": "m", "answer": [True]}, "takes a list"),
    ({"type": "check", "id": "m", "answer": []}, "Choose at least one"),
    ({"type": "check", "id": "m", "answer": [10 ** 400]}, "There is no choice 1000"),
    ({"type": "check", "id": "m", "answer": 0}, "takes a list"),
    ({"type": "check", "id": "n", "answer": "1" * 20_001}, f"answers take at most {MAX_ANSWER_CHARS}"),
    ({"type": "check", "id": "n", "answer": "1" * 65_537}, "65,537 characters long"),
    ({"type": "check", "id": "n", "answer": HUGE}, "1,000,000 characters long"),
    ({"type": "check", "id": "n", "answer": "1" * 150 + "x"}, "Type a number such as"),
    ({"type": "check", "id": "n", "answer": "1e400"}, "Type a finite number"),
    ({"type": "check", "id": "n", "answer": 10 ** 400}, "Type a finite number"),
    ({"type": "check", "id": "n", "answer": float("nan")}, "takes a number or its text, not a number"),
    ({"type": "check", "id": "n", "answer": float("inf")}, "not a number"),
    ({"type": "check", "id": "n", "answer": "nan"}, "Type a number such as"),
    ({"type": "check", "id": "n", "answer": "inf"}, "Type a number such as"),
    ({"type": "check", "id": "n", "answer": "\ud800"}, "Type a number such as"),
    ({"type": "check", "id": "n", "answer": "--1"}, "Type a number"),
    ({"type": "check", "id": "n", "answer": "1/0"}, "Cannot divide by zero"),
    ({"type": "check", "id": "n", "answer": "\u0661\u0662"}, "Type a number"),
    ({"type": "check", "id": "n", "answer": "1_0"}, "Type a number"),
    ({"type": "check", "id": "n", "answer": "0x10"}, "Type a number"),
    ({"type": "check", "id": "n", "answer": None}, "not null"),
    ({"type": "check", "id": "n", "answer": {"x": 1}}, "not an object"),
    ({"type": "check", "id": "t", "answer": ""}, "Type an answer first"),
    ({"type": "check", "id": "t", "answer": " `` "}, "Type an answer first"),
    ({"type": "check", "id": "t", "answer": "x" * 10_000_000}, "10,000,000 characters long"),
    ({"type": "check", "id": "t", "answer": 5}, "takes a text, not a number"),
    ({"type": "check", "id": "t", "answer": ["MulBackward0"]}, "not an array"),
    ({"type": "check", "id": "c", "answer": ["a"]}, "takes an object of marks"),
    ({"type": "check", "id": "c", "answer": {"a": 5}}, "takes an object of marks"),
    ({"type": "check", "id": "c", "answer": {"a": "leaf_grad"}}, "1 not marked yet"),
    ({"type": "check", "id": "c", "answer": {str(i): "nonleaf" for i in range(100_000)}}, "Mark each of the 2"),
    ({"type": "check", "id": "c", "answer": {"a": "tree", "b": "nonleaf"}}, "1 not marked yet"),
]


@pytest.mark.parametrize("content, words", REFUSED, ids=[f"m{i}" for i in range(len(REFUSED))])
def test_a_malformed_message_gets_one_short_refusal_and_counts_no_try(content, words):
    w = QuizWidget(kinds_quiz())
    sent = wired(w)
    w._on_msg(w, content, [])
    assert len(sent) == 1 and sent[0]["method"] == "custom"
    reply = sent[0]["content"]
    assert (reply["type"], reply["correct"], reply["valid"]) == ("feedback", False, False)
    assert words in reply["message"], reply["message"]
    assert len(json.dumps(reply)) < REPLY_LIMIT
    assert reply["id"] in (None, "s", "m", "n", "t", "c")
    assert w.score == 0 and w.answers == {} and all(p["attempts"] == 0 for p in w.progress)


GRADED = [
    ({"type": "check", "id": "s", "answer": 0}, False), ({"type": "check", "id": "s", "answer": 1}, True),
    ({"type": "check", "id": "m", "answer": [2, 0]}, True), ({"type": "check", "id": "n", "answer": 2.5}, True),
    ({"type": "check", "id": "n", "answer": " 5/2 "}, True), ({"type": "check", "id": "n", "answer": "-2.5"}, False),
    ({"type": "check", "id": "t", "answer": "\ud800"}, False),  # a lone surrogate is a wrong answer, not a crash
    ({"type": "check", "id": "t", "answer": "mul backward0"}, True),
    ({"type": "check", "id": "c", "answer": {"a": "leaf_grad", "b": "nonleaf"}}, True),
]


@pytest.mark.parametrize("content, correct", GRADED, ids=[f"g{i}" for i in range(len(GRADED))])
def test_well_formed_answers_are_graded(content, correct):
    w = QuizWidget(kinds_quiz())
    sent = wired(w)
    w._on_msg(w, content, [])
    (reply,) = replies(sent)
    assert (reply["valid"], reply["correct"], reply["attempts"], w.score) == (True, correct, 1, int(correct))


def test_through_the_comm_a_malformed_message_prints_no_traceback(capsys):
    w = QuizWidget(kinds_quiz())
    sent = wired(w)
    for content in (["x"], {"type": "check", "id": ["s"]}, {"type": "check", "id": "n", "answer": 10 ** 400}):
        w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    assert len(sent) == 3 and capsys.readouterr().err == ""


def test_a_bug_while_grading_still_gets_a_reply_and_no_traceback(monkeypatch):
    w = QuizWidget(kinds_quiz())
    sent = wired(w)
    monkeypatch.setattr(w.quiz, "check", lambda *_: [][1])
    w._on_msg(w, {"type": "check", "id": "s", "answer": 1}, [])
    (reply,) = replies(sent)
    assert reply["message"] == "Python could not check this answer (IndexError); please report it."
    assert (reply["id"], reply["valid"], w.score) == ("s", False, 0)


def test_a_1mb_answer_is_refused_before_it_is_parsed(monkeypatch):
    from autograd_tutor.quiz import keys
    parsed = []
    decimal, normalise = keys._is_decimal, keys.normalise_text
    monkeypatch.setattr(keys, "_is_decimal", lambda text: parsed.append(len(text)) or decimal(text))
    w = QuizWidget(kinds_quiz())
    sent = wired(w)
    monkeypatch.setattr(keys, "normalise_text", lambda text: parsed.append(len(text)) or normalise(text))
    for qid in ("n", "t"):
        w._on_msg(w, {"type": "check", "id": qid, "answer": HUGE}, [])
    assert [m["message"] for m in replies(sent)] == [
        f"That answer is 1,000,000 characters long; answers take at most {MAX_ANSWER_CHARS}."] * 2
    assert parsed == []  # neither the number reader nor the text normaliser saw it
    w._on_msg(w, {"type": "check", "id": "n", "answer": "1" * MAX_ANSWER_CHARS}, [])
    w._on_msg(w, {"type": "check", "id": "t", "answer": "x" * MAX_ANSWER_CHARS}, [])
    assert parsed == [MAX_ANSWER_CHARS] * 2 and [m["valid"] for m in replies(sent)[2:]] == [True, True]


def test_number_parsing_reads_a_long_digit_run_once():
    """The old pattern took 7 s on 20,001 digits; now a number at the limit parses, whatever its digits."""
    from autograd_tutor.quiz.keys import parse_number
    assert parse_number("1" * MAX_ANSWER_CHARS) == float("1" * MAX_ANSWER_CHARS)
    assert parse_number("9" * 100 + "." + "9" * 98) == pytest.approx(1e100)


def test_ready_answers_with_the_feedback_so_far_and_a_solved_question_stays_solved():
    w = QuizWidget(kinds_quiz())
    sent = wired(w)
    w._on_msg(w, {"type": "check", "id": "s", "answer": 1}, [])
    w._on_msg(w, {"type": "check", "id": "s", "answer": 0}, [])
    assert [m["correct"] for m in replies(sent)] == [True, True] and w.score == 1
    sent.clear()
    w._on_msg(w, {"type": "ready", "junk": "x" * 1000}, [])
    assert [m["id"] for m in replies(sent)] == ["s"]


# ---------------------------------------------------------------- traits only Python writes

def update(widget, state) -> None:
    """An ``update`` message from the front end, as the comm delivers it."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def test_the_browser_cannot_set_score_progress_or_the_questions():
    w = QuizWidget(kinds_quiz())
    w.answer("s", 1)
    sent = wired(w)
    before = {k: getattr(w, k) for k in ("score", "progress", "total", "title", "questions", "answer_limit")}
    update(w, {"score": 6, "progress": [{"attempts": 0, "solved": True}] * 5, "total": 1, "title": "Hacked",
               "questions": [], "answer_limit": 10 ** 9, "answers": {"s": {"correct": True}}})
    assert {k: getattr(w, k) for k in before} == before
    assert w.quiz.score == w.score == 1 and set(w.answers) == {"s"}
    # Python's values go back, so the browser's copy does not keep the change either.
    assert [m["method"] for m in sent] == ["update"]
    assert sent[0]["state"]["score"] == 1 and sent[0]["state"]["title"] == "Kinds"
    assert "answers" not in sent[0]["state"]


@pytest.mark.parametrize("index, taken", [(2, True), (4, True), (0, True), (5, False), (-1, False), ("1", False),
                                          (True, False), (1.0, False), (None, False), ([1], False),
                                          (10 ** 400, False)])
def test_the_browser_may_change_index_to_a_question_only(index, taken):
    w = QuizWidget(kinds_quiz())
    sent = wired(w)
    update(w, {"index": index})
    assert w.index == (index if taken else 0)
    # a value taken is echoed as ipywidgets does; a value refused is answered with Python's own
    assert [m["method"] for m in sent] == (["echo_update"] if taken else ["update"])
    assert sent[0]["state"] == {"index": w.index}


def test_graph_widget_takes_a_step_within_the_replay_only(capsys):
    a = torch.tensor(2.0, requires_grad=True)
    y = a * a
    g = GraphWidget(y)
    y.backward()
    g.refresh()
    n = len(g._steps)
    assert n > 1
    wired(g)
    for bad in ({"step": "x"}, {"step": -1}, {"step": n + 1}, {"render_ms": float("nan")}, {"render_ms": "fast"},
                {"graph_json": "{}"}, {"title": 5}):
        update(g, bad)
    assert (g.step, g.render_ms, g.title) == (n, 0.0, "Graph of the tensor")
    update(g, {"step": 1, "render_ms": 3.5})
    assert (g.step, g.render_ms) == (1, 3.5)
    assert capsys.readouterr().err == ""
    g.close()


def test_a_disabled_button_does_nothing_when_a_message_clicks_it(capsys):
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    demo = RetainGraphDemo(y, names={"x": x, "y": y})
    assert demo.reset_button.disabled
    for button in (demo.reset_button, demo.backward_button):
        wired(button)
    click = {"content": {"data": {"method": "custom", "content": {"event": "click"}}}, "buffers": []}
    update(demo.reset_button, {"disabled": False})  # the browser cannot enable it...
    demo.reset_button._handle_msg(click)            # ...so the click does nothing
    assert demo.reset_button.disabled and demo.demo.attempts == []
    for junk in (["click"], "click", None, {"event": ["click"]}):
        demo.backward_button._handle_msg({"content": {"data": {"method": "custom", "content": junk}}, "buffers": []})
    assert demo.demo.attempts == []
    demo.backward_button._handle_msg(click)  # an enabled button still works from the browser
    assert [a.ok for a in demo.demo.attempts] == [True]
    assert capsys.readouterr().err == ""

