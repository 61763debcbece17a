"""QuizWidget without a browser: traits, the check/feedback messages, and nothing of the keys in what is sent."""
import json
import re
import subprocess
import sys

import pytest

pytest.importorskip("anywidget")

import autograd_tutor as torch  # noqa: E402
from autograd_tutor.quiz import Question, Quiz, load_bank, quiz_from  # noqa: E402
from autograd_tutor.quiz.keys import ChoiceKey, ClassifyKey, NumericKey, TextKey  # noqa: E402
from autograd_tutor.quiz.model import CATEGORIES, diagram  # noqa: E402
from autograd_tutor.widgets.quiz import QuizWidget  # noqa: E402


class Sent(list):
    """Stands in for the comm: collects what the widget sends to the browser."""


def widget_with_outbox(quiz):
    w = QuizWidget(quiz)
    outbox = Sent()
    w.send = lambda content, buffers=None: outbox.append(content)
    return w, outbox


def browser_payload(w) -> str:
    """Everything the browser gets: the synced state (minus our static JS/CSS files) and the mimebundle."""
    state = {k: v for k, v in w.get_state().items() if k not in ("_esm", "_css", "layout")}
    data, _ = w._repr_mimebundle_()
    return json.dumps(state, sort_keys=True) + json.dumps(data["text/plain"]) + data["text/html"]


def all_kinds(answers):
    """One question of each kind; ``answers`` picks the keys, everything a learner sees stays the same."""
    single, multiple, number, text, marks = answers
    drawing = diagram([{"id": "a", "label": "a"}, {"id": "b", "label": "b"}], [("a", "b", 1)])
    return Quiz("Kinds", [
        Question("s", "single", "Pick `one`", ChoiceKey.single(single, 3), "Because s.", choices=("A", "B", "C")),
        Question("m", "multiple", "Pick some", ChoiceKey.many(multiple, 3), "Because m.", choices=("A", "B", "C")),
        Question("n", "numeric", "A number", NumericKey.near(number, 0.01), "Because n."),
        Question("t", "text", "A name", TextKey([text]), "Because t."),
        Question("c", "classify", "Mark them", ClassifyKey(marks, CATEGORIES), "Because c.", diagram=drawing),
    ])


KEYS_A = (0, [0, 1], 123.456, "PowBackward0", {"a": "leaf_grad", "b": "nonleaf"})
KEYS_B = (2, [2], -98.7, "ExpBackward0", {"a": "leaf_nograd", "b": "leaf_grad"})


def test_what_the_browser_gets_does_not_depend_on_the_keys():
    """Two quizzes that differ only in their answer keys send byte-identical state and mimebundles."""
    a, b = QuizWidget(all_kinds(KEYS_A)), QuizWidget(all_kinds(KEYS_B))
    assert browser_payload(a) == browser_payload(b)
    payload = browser_payload(a)
    for secret in ("123.456", "PowBackward0", "powbackward0", "Because"):
        assert secret not in payload
    assert not re.search(r"[0-9a-f]{32,}", payload)  # no digest of any kind


def test_generated_quiz_sends_no_key():
    x = torch.tensor(1.5, requires_grad=True)
    w = torch.tensor(-4.25, requires_grad=True)
    z = (w * x).tanh()
    loss = z * 37.0
    quiz = QuizWidget.from_tensor(loss)
    payload = browser_payload(quiz)
    facts_grad = quiz.quiz["grad-value"]
    value = float((1 - z.detach() ** 2) * 37.0 * w.detach())
    assert facts_grad.check(repr(value))[0]
    for secret in (f"{value:.4g}", f"{value:.3g}", "TanhBackward0", "tanhbackward0"):
        assert secret not in payload
    assert "explanation" not in payload and "hint" not in payload
    assert "answers" not in quiz.get_state()


def test_check_messages_update_traits_and_reply_with_feedback():
    w, outbox = widget_with_outbox(load_bank("lesson1"))
    assert (w.score, w.total, w.progress[0]) == (0, 6, {"attempts": 0, "solved": False})
    w._on_msg(w, {"type": "check", "id": "grad-after-backward", "answer": 1}, [])
    reply = outbox.pop()
    assert (reply["type"], reply["correct"], reply["attempts"]) == ("feedback", False, 1)
    assert reply["message"] == "Not quite. Try again." and "not a leaf" in reply["explanation"]
    w._on_msg(w, {"type": "check", "id": "grad-after-backward", "answer": 3}, [])
    reply = outbox.pop()
    assert reply["correct"] and "retain_grad" in reply["explanation"]
    assert w.score == 1 and w.progress[0] == {"attempts": 2, "solved": True}
    assert w.answers == {"grad-after-backward": {"answer": 3, "correct": True, "attempts": 2}}
    w._on_msg(w, {"type": "check", "id": "grad-of-a", "answer": "five"}, [])
    reply = outbox.pop()
    assert not reply["valid"] and "Type a number" in reply["message"] and w.progress[2]["attempts"] == 0


def test_ready_replays_feedback_and_junk_messages_get_a_short_refusal():
    w, outbox = widget_with_outbox(load_bank("lesson1"))
    w.answer("grad-fn-name", "AddBackward0")
    w.answer("grad-of-a", "4")
    w._on_msg(w, {"type": "ready"}, [])
    assert [(m["id"], m["correct"]) for m in outbox] == [("grad-fn-name", True), ("grad-of-a", False)]
    assert "direct" in outbox[1]["explanation"]  # the feedback the bank gives for 4
    outbox.clear()
    for junk in ("check", ["check"], {"type": "check", "id": "nope", "answer": 1}, {"type": "other"}):
        w._on_msg(w, junk, [])
    assert [(m["type"], m["valid"], m["correct"], m["id"]) for m in outbox] == [("feedback", False, False, None)] * 4
    assert "no question 'nope'" in outbox[2]["message"] and w.score == 1


def test_repr_is_deterministic_and_mimebundle_has_a_static_fallback():
    a, b = QuizWidget.from_bank("lesson1"), QuizWidget.from_bank("lesson1")
    assert repr(a) == repr(b)
    assert "0x" not in repr(a)
    assert repr(a).splitlines()[:3] == [
        "QuizWidget: Lesson 1: the computation graph (6 questions, score 0/6)",
        "1. By default, which tensors have their `.grad` attribute populated after `loss.backward()`?",
        "   a) Every tensor in the graph, including intermediates"]
    data, _ = a._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/html", "application/vnd.jupyter.widget-view+json"}
    assert data["text/plain"] == repr(a)
    assert "<code>requires_grad=True</code>" in data["text/html"] and "run the notebook to answer" in data["text/html"]


def test_widget_needs_a_quiz_and_the_quiz_package_needs_no_widgets():
    with pytest.raises(TypeError, match="expects a Quiz"):
        QuizWidget("lesson1")
    code = ("import sys, autograd_tutor, autograd_tutor.quiz; "
            "print(sorted(m for m in ('ipywidgets', 'anywidget', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_from_tensor_uses_the_callers_names():
    weight = torch.tensor(2.0, requires_grad=True)
    bias = torch.tensor(1.0, requires_grad=True)
    out = weight * 3 + bias
    w = QuizWidget.from_tensor(out)
    assert w.title == "Your graph: out"
    assert "`weight`" in json.dumps(w.questions) and "`bias`" in json.dumps(w.questions)


def test_quiz_from_and_widget_agree_on_the_public_questions():
    a = torch.tensor(3.0, requires_grad=True)
    d = a * a
    quiz = quiz_from(d, names={"a": a, "d": d})
    assert QuizWidget(quiz).questions == quiz.public()
