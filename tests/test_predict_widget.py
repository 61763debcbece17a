"""Predict: a prediction is graded once against the engine's key, then the engine shows it (backward runs, the
drawing holds the pass); crafted browser messages get one short refusal and change nothing."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("anywidget")

import autograd_tutor as torch  # noqa: E402
from autograd_tutor.quiz import Question  # noqa: E402
from autograd_tutor.quiz.keys import ChoiceKey, NumericKey  # noqa: E402
from autograd_tutor.widgets import Predict  # noqa: E402


def linear():
    x = torch.tensor(2.0, requires_grad=True)
    w = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    y = w * x + b
    loss = y ** 2
    return {"x": x, "w": w, "b": b, "y": y, "loss": loss}


def wired(widget):
    sent = []
    widget._send = lambda msg, buffers=None: sent.append(msg)
    return sent


def test_a_right_prediction_is_graded_then_backward_runs_and_the_drawing_replays_it():
    ns = linear()
    p = Predict.from_tensor(ns["loss"], "grad-value", names=ns)
    assert ns["x"].grad is None and p.graph.steps == []
    assert "`x.grad`" in p.question["prompt"] and "key" not in json.dumps(p.question)
    verdict = p.predict("42")       # dloss/dx = 2 (w x + b) w = 42
    assert (verdict.correct, verdict.message) == (True, "You predicted right.")
    assert ns["x"].grad.item() == 42.0 and ns["w"].grad.item() == 28.0
    assert p.outcome["seen"] == ("loss.backward() ran: x.grad = 42, w.grad = 28, b.grad = 14, y.grad = None, "
                                 "loss.grad = None.")
    assert "Play" in p.outcome["hint"] and len(p.graph.steps) > 0   # the drawing took the pass
    assert "∂loss/∂x = 42" in p.outcome["explanation"]


def test_a_wrong_prediction_is_shown_too_and_a_second_one_is_refused():
    ns = linear()
    p = Predict.from_tensor(ns["loss"], "grad-value", names=ns, graph=False)
    assert p.predict("14").correct is False and p.outcome["message"] == "Not what the engine did."
    again = p.predict("42")
    assert (again.valid, again.message) == (False, "You already predicted: the answer is shown.")
    assert ns["x"].grad.item() == 42.0      # backward ran once, not twice
    assert p.outcome["correct"] is False


def test_a_malformed_prediction_is_not_counted_and_shows_nothing():
    ns = linear()
    p = Predict.from_tensor(ns["loss"], "grad-value", names=ns, graph=False)
    assert p.predict("forty-two").valid is False
    assert p.outcome == {} and ns["x"].grad is None


@pytest.mark.parametrize("build, raises", [
    (lambda x: x * x, True),      # MulBackward0 saved x: the second call raises
    (lambda x: (x + 1).sum(), False),  # nothing saved: the second call adds again
])
def test_second_backward_prediction_runs_backward_twice(build, raises):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = build(x)
    p = Predict.from_tensor(out, "second-backward", names={"x": x, "out": out}, graph=False)
    assert p.question["kind"] == "single"
    assert p.predict(0 if raises else 1).correct
    if raises:
        assert p.outcome["seen"].startswith("The first call ran; the second raised RuntimeError: Trying to backward "
                                            "through the graph a second time")
    else:
        assert p.outcome["seen"] == "out.backward() ran twice: x.grad = [2, 2], out.grad = None."


def test_which_tensors_get_grad_is_a_multiple_choice_prediction():
    ns = linear()
    ns["y"].retain_grad()
    p = Predict.from_tensor(ns["loss"], "gets-grad", names=ns, graph=False)
    names = [c.strip("`") for c in p.question["choices"]]
    right = [i for i, n in enumerate(names) if n in ("x", "w", "b", "y")]
    assert p.predict(right).correct and ns["y"].grad.item() == 14.0
    assert "y.grad = 14" in p.outcome["seen"]


def test_a_teachers_own_question_and_a_reveal_that_fails_in_one_line():
    q = Question("q", "numeric", "What is 2 + 2?", NumericKey.near(4, 0), "Two and two make four.")
    p = Predict(q, lambda: 1 / 0)
    assert p.predict("4").correct and p.outcome["seen"] == "Showing it failed: ZeroDivisionError: division by zero"
    assert repr(p).startswith("Predict: What is 2 + 2?") and "You predicted right." in repr(p)


def test_bad_arguments_are_refused_clearly():
    ns = linear()
    with pytest.raises(ValueError, match="can ask 'grad-value', 'gets-grad', 'second-backward', not 'leaves'"):
        Predict.from_tensor(ns["loss"], "leaves", names=ns)
    with pytest.raises(TypeError, match="reveal must be callable"):
        Predict(Question("q", "single", "?", ChoiceKey.single(0, 2), "", choices=("a", "b")), "backward")
    with pytest.raises(ValueError, match="no grad_fn"):
        Predict.from_tensor(ns["x"], names=ns)


REFUSED = [
    (None, 'Send {"type": "predict"'), ("predict", "Send"), ([1], "Send"), ({"type": "check", "answer": "1"}, "Send"),
    ({"type": "predict"}, "takes a number or its text, not null"),
    ({"type": "predict", "answer": [42]}, "not an array"),
    ({"type": "predict", "answer": {"a": 1}}, "not an object"),
    ({"type": "predict", "answer": True}, "not a boolean"),
    ({"type": "predict", "answer": float("nan")}, "not a number"),
    ({"type": "predict", "answer": "1" * 1_000_000}, "1,000,000 characters long"),
    ({"type": "predict", "answer": "1e400"}, "Type a finite number"),
    ({"type": "predict", "answer": "\ud800"}, "Type a number such as"),
]


@pytest.mark.parametrize("content, words", REFUSED, ids=[f"m{i}" for i in range(len(REFUSED))])
def test_a_crafted_message_gets_one_short_refusal_and_reveals_nothing(content, words, capsys):
    ns = linear()
    p = Predict.from_tensor(ns["loss"], "grad-value", names=ns, graph=False)
    sent = wired(p)
    p._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    (reply,) = [m["content"] for m in sent if m["method"] == "custom"]
    assert (reply["type"], reply["correct"], reply["valid"]) == ("feedback", False, False)
    assert words in reply["message"] and len(json.dumps(reply)) < 500
    assert p.outcome == {} and ns["x"].grad is None and capsys.readouterr().err == ""


def test_the_browser_cannot_set_the_verdict_or_the_question():
    ns = linear()
    p = Predict.from_tensor(ns["loss"], "grad-value", names=ns, graph=False)
    sent = wired(p)
    question = dict(p.question)
    p.set_state({"outcome": {"correct": True, "message": "You predicted right."}, "question": {"prompt": "x"},
                 "answer_limit": 10 ** 9})
    assert p.outcome == {} and p.question == question and p.answer_limit == 200
    assert any(m["method"] == "update" for m in sent)   # Python's values sent back


def test_through_a_message_the_prediction_is_graded_and_the_outcome_synced():
    ns = linear()
    p = Predict.from_tensor(ns["loss"], "grad-value", names=ns, graph=False)
    sent = wired(p)
    p._handle_msg({"content": {"data": {"method": "custom", "content": {"type": "predict", "answer": " 42 "}}},
                   "buffers": []})
    (reply,) = [m["content"] for m in sent if m["method"] == "custom"]
    assert reply["correct"] and p.outcome["correct"] and ns["x"].grad.item() == 42.0


ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20) | st.sampled_from(["predict", "6", "1/3", "nan", "\ud800"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
MESSAGES = ANY_JSON | st.fixed_dictionaries({"type": st.sampled_from(["predict"]) | ANY_JSON},
                                            optional={"answer": ANY_JSON})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MESSAGES, min_size=1, max_size=4))
def test_any_messages_get_one_short_reply_each_and_the_reveal_runs_at_most_once(contents):
    runs = []
    q = Question("q", "numeric", "What is 2 + 4?", NumericKey.near(6, 0), "Six.")
    p = Predict(q, lambda: runs.append(1) or "ran")
    sent = wired(p)
    for content in contents:
        p._on_msg(p, content, [])
    replies = [m["content"] for m in sent if m["method"] == "custom"]
    assert len(replies) == len(contents)
    for reply in replies:
        assert reply["type"] == "feedback" and len(json.dumps(reply)) < 500
        assert "could not check" not in reply["message"]
    assert len(runs) == (1 if p.outcome else 0)
    assert sum(r["valid"] for r in replies) == len(runs)


def test_which_tensors_print_grad_fn_none_is_read_from_the_tensors():
    p = torch.tensor(2.0, requires_grad=True)
    q = p * 4
    with torch.no_grad():
        r = q + 1
    s = r * p
    k = torch.tensor([1.0, 2.0]) * 3
    widget = Predict.grad_fn_none({"p": p, "q": q, "r": r, "s": s, "k": k})
    assert widget.question["choices"] == ["p", "q", "r", "s", "k"] and widget.graph is None
    assert not widget.predict([0, 2]).correct                      # k is missed: nothing in it requires grad
    assert widget.outcome["seen"] == ("print(t.grad_fn) for each: p: None, q: <MulBackward0>, r: None, "
                                      "s: <MulBackward0>, k: None.")
    explained = widget.outcome["explanation"]
    assert "r has no history: made under no_grad (q: AddBackward0 not recorded)" in explained
    assert "k was computed only from tensors that do not require grad" in explained
    assert Predict.grad_fn_none({"p": p, "k": k}).predict([0, 1]).correct


def test_a_stopped_drawing_under_a_prediction_draws_only_what_the_reveal_ran():
    from autograd_tutor.widgets import GraphWidget
    drawing = GraphWidget()
    drawing.stop()
    torch.tensor(1.0, requires_grad=True).exp()                    # not recorded: the drawing is stopped
    x = torch.tensor(2.0, requires_grad=True)

    def reveal():
        with drawing.recording():
            (x * 3).backward()
        return f"x.grad = {x.grad.item():g}"
    q = Question("q", "numeric", "x.grad?", NumericKey.near(3, 0), "3.")
    widget = Predict(q, reveal, graph=drawing)
    assert drawing.graph["nodes"] == []
    assert widget.predict("3").correct and widget.outcome["seen"] == "x.grad = 3"
    assert [n["label"] for n in drawing.graph["nodes"] if n["kind"] == "op"] == ["MulBackward0"]
    assert len(drawing.steps) > 0
    drawn = len(drawing.model.visible)
    (x * 5).sum()                                                  # after the block: stopped again
    drawing.refresh()
    assert len(drawing.model.visible) == drawn
    with pytest.raises(ValueError, match="grows a drawing made without a tensor"):
        with GraphWidget(x * 2).recording():
            pass
