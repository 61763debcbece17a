"""Question banks: the lesson-1 bank, schema errors that name file, question and field, all-or-nothing loading,
and jupyterquiz import."""
import copy
import json
import warnings

import pytest

import autograd_tutor
from autograd_tutor.quiz import BankError, Quiz, bank_names, import_jupyterquiz, load_bank
from autograd_tutor.quiz.banks import BANKS
from autograd_tutor.quiz.schema import QUESTION_SCHEMAS, validate

SEED_PROMPT = "By default, which tensors have their `.grad` attribute populated after `loss.backward()`?"
SEED_CHOICES = ("Every tensor in the graph, including intermediates", "Only the loss tensor itself",
                "Only tensors created inside `torch.no_grad()`", "Leaf tensors that have `requires_grad=True`")

GOOD = {"id": "q1", "type": "single", "prompt": "Pick one", "choices": ["a", {"text": "b", "feedback": "no"}],
        "answer": 0, "explanation": "Because."}


def bank(*questions, **top):
    return {"format": "autograd_tutor.quiz/1", "title": "T", "questions": list(questions), **top}


def write(tmp_path, data, name="bank.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_lesson1_bank_ships_the_seed_quiz():
    assert "lesson1" in bank_names()
    quiz = load_bank("lesson1")
    q = quiz["grad-after-backward"]
    assert (q.kind, q.prompt, q.choices) == ("single", SEED_PROMPT, SEED_CHOICES)
    assert [quiz.check(q.id, i).correct for i in range(4)] == [False, False, False, True]
    assert "retain_grad" in quiz.check(q.id, 3).explanation


def _run(code: str, torch) -> dict:
    ns = {"torch": torch}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(code, ns)
    return ns


def test_lesson1_hand_written_keys_agree_with_the_engine():
    """The bank's answers are typed by a teacher: check each against what the code in the question does."""
    quiz = load_bank("lesson1")
    ns = _run(quiz["grad-fn-name"].code, autograd_tutor)
    assert quiz.check("grad-fn-name", ns["d"].grad_fn.name()).correct
    ns = _run(quiz["grad-of-a"].code, autograd_tutor)
    assert quiz.check("grad-of-a", str(ns["a"].grad.item())).correct
    ns = _run(quiz["which-are-leaves"].code, autograd_tutor)
    names = [c.strip("`") for c in quiz["which-are-leaves"].choices]
    assert quiz.check("which-are-leaves", [i for i, n in enumerate(names) if ns[n].is_leaf]).correct
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        _run(quiz["second-backward"].code, autograd_tutor)
    assert quiz.check("second-backward", 0).correct
    ns = _run(quiz["classify-d"].code, autograd_tutor)

    def category(t):
        return "nonleaf" if not t.is_leaf else "leaf_grad" if t.requires_grad else "leaf_nograd"
    nodes = quiz["classify-d"].diagram["nodes"]
    assert quiz.check("classify-d", {n["id"]: category(ns[n["label"]]) for n in nodes}).correct


def test_every_shipped_bank_loads():
    for name in bank_names():
        assert isinstance(load_bank(name), Quiz)


def test_load_bank_by_path_and_unknown_name(tmp_path):
    assert load_bank(write(tmp_path, bank(GOOD))).title == "T"
    with pytest.raises(FileNotFoundError, match="lesson1"):
        load_bank("no-such-lesson")


def _bad(question_patch=None, drop=(), top=None):
    q = copy.deepcopy(GOOD)
    q.update(question_patch or {})
    for k in drop:
        q.pop(k)
    data = bank(q)
    data.update(top or {})
    return data


@pytest.mark.parametrize("data, qid, field, words", [
    (_bad({"answer": 2}), "q1", "answer", "choice 2 does not exist"),
    (_bad({"answer": "0"}), "q1", "answer", "must be an integer, not string"),
    (_bad({"answer": True}), "q1", "answer", "must be an integer, not boolean"),
    (_bad(drop=["explanation"]), "q1", "explanation", "is required"),
    (_bad({"prompt": "  "}), "q1", "prompt", "must not be empty"),
    (_bad({"choices": ["only one"]}), "q1", "choices", "at least 2 items"),
    (_bad({"choices": ["a", 3]}), "q1", "choices[1]", "non-empty string or"),
    (_bad({"choices": ["a", {"text": "b", "feedbak": "x"}]}), "q1", "choices[1]", "non-empty string or"),
    (_bad({"colour": "red"}), "q1", "colour", "not a known field"),
    (_bad({"type": "essay"}), "q1", "type", "must be one of"),
    (_bad({"id": "has space"}), "has space", "id", "letters, digits"),
    (_bad({"type": "multiple", "answer": [0, 0]}), "q1", "answer", "must not repeat"),
    (_bad({"type": "multiple", "answer": [0, 5]}), "q1", "answer[1]", "choice 5 does not exist"),
    (_bad({"type": "numeric", "answer": 1, "tolerance": -1}, drop=["choices"]), "q1", "tolerance",
     "at least 0"),
    (_bad({"type": "numeric", "answer": 1, "feedback": [{"range": [3, 1], "text": "x"}]}, drop=["choices"]), "q1",
     "feedback[0].range", "starts above its end"),
    (_bad({"type": "text", "answer": "AddBackward0"}, drop=["choices"]), "q1", "answer", "must be an array"),
    (_bad({"type": "classify", "nodes": [{"id": "a", "label": "a"}], "edges": [["a", "b"]],
           "answer": {"a": "leaf_grad"}}, drop=["choices"]), "q1", "edges[0][1]", "there is no node 'b'"),
    (_bad({"type": "classify", "nodes": [{"id": "a", "label": "a"}], "answer": {"a": "tree"}}, drop=["choices"]),
     "q1", "answer.a", "must be one of"),
    (_bad({"type": "classify", "nodes": [{"id": "a", "label": "a"}, {"id": "b", "label": "b"}],
           "answer": {"a": "leaf_grad"}}, drop=["choices"]), "q1", "answer", "node 'b' has no mark"),
    (_bad({"type": "classify", "nodes": [{"id": "a", "label": "a"}, {"id": "b", "label": "b"}],
           "edges": [["a", "b"], ["b", "a"]], "answer": {"a": "nonleaf", "b": "nonleaf"}}, drop=["choices"]),
     "q1", "edges", "cycle"),
    (_bad(top={"format": "other/2"}), None, "format", "must be 'autograd_tutor.quiz/1'"),
    (_bad(top={"questions": []}), None, "questions", "at least 1 item"),
    (_bad(top={"title": 5}), None, "title", "must be a string"),
    ([GOOD], None, None, "must be an object"),
])
def test_schema_errors_name_file_question_and_field(tmp_path, data, qid, field, words):
    path = write(tmp_path, data, "lesson9.json")
    with pytest.raises(BankError) as info:
        load_bank(path)
    err = info.value
    assert (err.file, err.question_id, err.field) == ("lesson9.json", qid, field)
    assert words in str(err)
    assert str(err).startswith("lesson9.json: ")
    if qid is not None:
        assert f"question {qid!r}: field {field!r}: " in str(err)


def test_invalid_json_names_the_line(tmp_path):
    with pytest.raises(BankError, match=r"bad\.json: is not valid JSON: .* line 2"):
        load_bank(write(tmp_path, '{"title":\n  oops}', "bad.json"))


def test_nothing_is_half_loaded_and_every_problem_is_listed(tmp_path):
    """Two good questions and two bad ones: no quiz at all, and both bad questions are reported."""
    good2 = dict(GOOD, id="q2")
    bad3 = dict(GOOD, id="q3", answer=9)
    bad4 = dict(GOOD, id="q4", prompt=3)
    path = write(tmp_path, bank(GOOD, good2, bad3, bad4))
    result = None
    with pytest.raises(BankError) as info:
        result = load_bank(path)
    assert result is None
    assert [(p[1], p[2]) for p in info.value.problems] == [("q3", "answer"), ("q4", "prompt")]
    assert len(str(info.value).splitlines()) == 2


def test_duplicate_question_ids_are_an_error(tmp_path):
    with pytest.raises(BankError) as info:
        load_bank(write(tmp_path, bank(GOOD, GOOD)))
    assert (info.value.question_id, info.value.field) == ("q1", "id")


def test_validator_subset():
    assert validate({"id": "a", "type": "text", "prompt": "p", "answer": ["x"], "explanation": "e"},
                    QUESTION_SCHEMAS["text"]) == []
    assert validate(1.5, {"type": "integer"}) == [("", "must be an integer, not float")]
    assert validate([1, 2, 3], {"type": "array", "maxItems": 2}) == [("", "takes at most 2 items")]


# ------------------------------------------------------------------------------------------ jupyterquiz
JQ = [
    {"question": "Which are Python keywords?", "type": "many_choice",
     "answers": [{"answer": "def", "correct": True, "feedback": "Yes, def."},
                 {"answer": "func", "correct": False, "feedback": "Not a keyword."},
                 {"code": "lambda", "correct": True}]},
    {"question": "Pick the even number", "type": "multiple_choice", "code": "numbers = [3, 4, 5]",
     "answers": [{"answer": "3", "correct": False, "feedback": "Odd."},
                 {"answer": "4", "correct": True, "feedback": "Right: 4 = 2 * 2."}]},
    {"question": "What is 1/3 to two significant digits?", "type": "numeric", "precision": 2,
     "answers": [{"type": "value", "value": 0.33, "correct": True, "feedback": "Yes."},
                 {"type": "range", "range": [0.3, 0.33], "correct": False, "feedback": "Close, round again."},
                 {"type": "default", "feedback": "Divide 1 by 3."}]},
    {"question": "A number in [10, 20)", "type": "numeric",
     "answers": [{"type": "range", "range": [10, 20], "correct": True}]},
    {"question": "Name the node of a product", "type": "string",
     "answers": [{"answer": "MulBackward0", "correct": True, "feedback": "Yes."},
                 {"answer": "AddBackward0", "correct": False, "feedback": "That one adds."},
                 {"type": "default", "feedback": "Think of *."}]},
]


def test_import_jupyterquiz_converts_every_type(tmp_path):
    quiz = import_jupyterquiz(write(tmp_path, JQ, "chapter3.json"))
    assert quiz.title == "chapter3"
    assert [q.kind for q in quiz.questions] == ["multiple", "single", "numeric", "numeric", "text"]
    assert quiz.questions[0].choices == ("def", "func", "`lambda`")
    assert quiz.check("q1", [0, 2]).correct and not quiz.check("q2", 0).correct
    assert quiz.check("q2", 0).explanation == "Odd."
    assert quiz.check("q2", 1).explanation == "Right: 4 = 2 * 2."
    assert quiz.questions[1].code == "numbers = [3, 4, 5]"
    assert quiz.check("q3", "0.31").explanation == "Close, round again."
    assert quiz.check("q3", "7").explanation == "Divide 1 by 3."
    assert quiz.check("q3", "1/3").correct and quiz.check("q3", "1/3").explanation == "Yes."
    assert not quiz.check("q4", "20").correct and quiz.check("q4", "10").correct
    assert quiz.check("q5", "add backward0").explanation == "That one adds."
    assert quiz.check("q5", "DivBackward0").explanation == "Think of *."
    assert quiz.check("q5", "mulbackward0").correct


@pytest.mark.parametrize("data, qid, field, words", [
    ({"question": "q", "type": "essay", "answers": []}, "#1", "type", "must be one of"),
    ({"type": "numeric", "answers": []}, "#1", "question", "is required"),
    ({"question": "q", "type": "many_choice", "answers": [{"answer": "a", "correct": False}]}, "#1", "answers",
     "no answer is marked correct"),
    ({"question": "q", "type": "many_choice", "answers": [{"answer": "a"}]}, "#1", "answers[0].correct",
     "is required"),
    ({"question": "q", "type": "numeric", "answers": [{"type": "value", "value": "3", "correct": True}]}, "#1",
     "answers[0].value", "must be a number"),
    ({"question": "q", "type": "numeric", "answers": [{"type": "range", "range": [5, 1], "correct": True}]}, "#1",
     "answers[0].range", "starts above its end"),
    ({"question": "q", "type": "string", "answers": [{"answer": "a", "correct": True, "fuzzy_threshold": 0.8}]},
     "#1", "answers[0].fuzzy_threshold", "not supported"),
])
def test_import_jupyterquiz_errors_name_question_and_field(data, qid, field, words):
    with pytest.raises(BankError) as info:
        import_jupyterquiz([JQ[0], data])
    err = info.value
    assert (err.file, err.question_id, err.field) == ("<jupyterquiz data>", qid.replace("1", "2"), field)
    assert words in str(err)


def test_import_jupyterquiz_needs_a_list():
    with pytest.raises(BankError, match="must be a JSON list"):
        import_jupyterquiz({"question": "q"})


def test_banks_folder_holds_only_valid_json():
    for path in BANKS.glob("*.json"):
        json.loads(path.read_text())
