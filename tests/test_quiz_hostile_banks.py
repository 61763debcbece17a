"""Malformed and extreme bank files: every one raises BankError naming the file, and the question and field
where there is one; nothing is half-loaded; the few unusual but sound files load."""
import codecs
import json

import pytest

from autograd_tutor.quiz import BankError, Quiz, import_jupyterquiz, load_bank
from autograd_tutor.quiz.banks import MAX_BANK_BYTES, MAX_DEPTH

GOOD = {"id": "q1", "type": "single", "prompt": "Pick one", "choices": ["a", "b"], "answer": 0,
        "explanation": "Because."}
NUMERIC = {"id": "q1", "type": "numeric", "prompt": "A number", "answer": 2, "explanation": "Two."}
TEXT = {"id": "q1", "type": "text", "prompt": "A name", "answer": ["MulBackward0"], "explanation": "Mul."}
CLASSIFY = {"id": "q1", "type": "classify", "prompt": "Mark", "nodes": [{"id": "a", "label": "a"},
                                                                        {"id": "y", "label": "y"}],
            "edges": [["a", "y"]], "answer": {"a": "leaf_grad", "y": "nonleaf"}, "explanation": "So."}


def bank_text(*questions, **top) -> str:
    return json.dumps({"format": "autograd_tutor.quiz/1", "title": "T", "questions": list(questions), **top})


def q(base, **patch):
    return json.dumps({**base, **patch})


def raw(*question_texts, top="") -> str:
    """A bank whose questions are given as JSON text (for what json.dumps cannot write: NaN, repeated keys)."""
    return ('{"format": "autograd_tutor.quiz/1", "title": "T", ' + top + '"questions": [' + ", ".join(question_texts)
            + "]}")


GOOD_TEXT = bank_text(GOOD)
DEEP = {"id": "q1", "type": "single", "prompt": "p", "choices": ["a", "b"], "answer": 0, "explanation": "e"}

# (name, file content as str or bytes, question id, field, words in the message)
BAD_BANKS = [
    # --- the file itself: size, encoding, JSON
    ("utf-16 with BOM", GOOD_TEXT.encode("utf-16"), None, None, "UTF-16"),
    ("utf-16-le no BOM", GOOD_TEXT.encode("utf-16-le"), None, None, "UTF-16"),
    ("utf-16-be no BOM", GOOD_TEXT.encode("utf-16-be"), None, None, "UTF-16"),
    ("utf-32", GOOD_TEXT.encode("utf-32"), None, None, "UTF-32"),
    ("latin-1", GOOD_TEXT.replace("Pick one", "Pick caf\xe9").encode("latin-1"), None, None,
     "is not UTF-8: byte 0xe9 at line 1"),
    ("byte 0xff", GOOD_TEXT.encode()[:40] + b"\xff" + GOOD_TEXT.encode()[40:], None, None, "byte 0xff"),
    ("over the size limit", GOOD_TEXT + " " * MAX_BANK_BYTES, None, None, f"larger than {MAX_BANK_BYTES:,} bytes"),
    ("empty", "", None, None, "is not valid JSON"),
    ("white space", "  \n ", None, None, "is not valid JSON"),
    ("truncated", GOOD_TEXT[:-5], None, None, "is not valid JSON"),
    ("trailing text", GOOD_TEXT + " extra", None, None, "is not valid JSON: Extra data"),
    ("single quotes", GOOD_TEXT.replace('"', "'"), None, None, "is not valid JSON"),
    ("a comment", "// bank\n" + GOOD_TEXT, None, None, "is not valid JSON"),
    ("100,000 brackets", "[" * 100_000 + "]" * 100_000, None, None, "nests lists and objects too deeply"),
    ("1,001 deep in a field", raw(q(GOOD)[:-1] + ', "hint": ' + "[" * 1001 + "]" * 1001 + "}"), None, None,
     "nests lists and objects too deeply to be read"),
    ("200 deep in a field", raw(q(GOOD)[:-1] + ', "hint": ' + "[" * 200 + "]" * 200 + "}"), "q1", "hint"
     + "[0]" * (MAX_DEPTH - 2), f"nests deeper than {MAX_DEPTH}"),
    ("17 deep at the top", raw(q(GOOD), top='"lesson": ' + "[" * 17 + "]" * 17 + ", "), None, "lesson"
     + "[0]" * MAX_DEPTH, f"nests deeper than {MAX_DEPTH}"),
    ("a repeated top key", raw(q(GOOD), top='"title": "Again", '), None, "title", "appears twice"),
    ("a repeated question key", raw(q(GOOD)[:-1] + ', "answer": 1}'), "q1", "answer", "appears twice"),
    ("a repeated key deep down", raw(q(TEXT)[:-1] + ', "feedback": [{"answer": "x", "text": "a", "text": "b"}]}'),
     "q1", "feedback[0].text", "appears twice"),
    ("a lone surrogate", raw(q(GOOD, prompt="x\ud800y").replace("\ud800", "\\ud800")), "q1", "prompt",
     "lone surrogate"),
    ("a lone surrogate in a key", raw(q(GOOD)[:-1] + ', "\\udc00": 1}'), "q1", "\udc00", "lone surrogate"),
    # --- the top level
    ("a list", json.dumps([GOOD]), None, None, "must be an object, not array"),
    ("a string", '"bank"', None, None, "must be an object, not string"),
    ("null", "null", None, None, "must be an object, not null"),
    ("a number", "3", None, None, "must be an object, not int"),
    ("no format", json.dumps({"title": "T", "questions": [GOOD]}), None, "format", "is required"),
    ("another format", bank_text(GOOD, format="quiz/2"), None, "format", "must be 'autograd_tutor.quiz/1'"),
    ("empty title", bank_text(GOOD, title=" "), None, "title", "must not be empty"),
    ("title a number", bank_text(GOOD, title=5), None, "title", "must be a string, not int"),
    ("no questions", bank_text(), None, "questions", "needs at least 1 item"),
    ("questions an object", bank_text(questions={"q1": GOOD}), None, "questions", "must be an array"),
    ("a question that is a string", bank_text("q1"), None, "questions[0]", "must be an object, not string"),
    ("an unknown top field", bank_text(GOOD, author="me"), None, "author", "is not a known field"),
    ("lesson below 0", bank_text(GOOD, lesson=-1), None, "lesson", "must be at least 0"),
    ("lesson a float", bank_text(GOOD, lesson=1.5), None, "lesson", "must be an integer, not float"),
    ("lesson NaN", raw(q(GOOD), top='"lesson": NaN, '), None, "lesson", "must be a finite number, not nan"),
    # --- a question's type and id
    ("type a list", bank_text(dict(GOOD, type=["single"])), "q1", "type", "not ['single']"),
    ("type an object", bank_text(dict(GOOD, type={"single": 1})), "q1", "type", "must be one of"),
    ("type null", bank_text(dict(GOOD, type=None)), "q1", "type", "not None"),
    ("type a number", bank_text(dict(GOOD, type=5)), "q1", "type", "not 5"),
    ("type unknown", bank_text(dict(GOOD, type="essay")), "q1", "type", "not 'essay'"),
    ("no type", bank_text({k: v for k, v in GOOD.items() if k != "type"}), "q1", "type", "not None"),
    ("id a list", bank_text(dict(GOOD, id=["q1"])), "#1", "id", "must be a string, not array"),
    ("id with a newline", bank_text(dict(GOOD, id="q1\n")), "q1\n", "id", "letters, digits"),
    ("id empty", bank_text(dict(GOOD, id="")), "#1", "id", "letters, digits"),
    ("id 10,000 characters", bank_text(dict(GOOD, id="a b" * 3333)), ("a b" * 20)[:60], "id", "letters, digits"),
    ("ids repeated", bank_text(GOOD, GOOD), "q1", "id", "repeats the id"),
    # --- single and multiple choice
    ("answer out of range", bank_text(dict(GOOD, answer=2)), "q1", "answer", "choice 2 does not exist"),
    ("answer of 4,000 digits", raw(q(GOOD)[:-1].replace('"answer": 0', '"answer": ' + "9" * 4000) + "}"), "q1",
     "answer", "choice 99999"),
    ("answer of 5,000 digits", raw(q(GOOD).replace('"answer": 0', '"answer": ' + "9" * 5000)), "q1", "answer",
     "an integer of 5,000 digits"),
    ("answer 1.0", bank_text(dict(GOOD, answer=1.0)), "q1", "answer", "must be an integer, not float"),
    ("answer true", bank_text(dict(GOOD, answer=True)), "q1", "answer", "must be an integer, not boolean"),
    ("answer NaN", raw(q(GOOD).replace('"answer": 0', '"answer": NaN')), "q1", "answer", "not nan"),
    ("27 choices", bank_text(dict(GOOD, choices=list("abcdefghijklmnopqrstuvwxyz0"))), "q1", "choices",
     "at most 26 items"),
    ("a choice null", bank_text(dict(GOOD, choices=["a", None])), "q1", "choices[1]", "non-empty string or"),
    ("multiple repeats", bank_text(dict(GOOD, type="multiple", answer=[0, 0])), "q1", "answer", "must not repeat"),
    ("multiple empty", bank_text(dict(GOOD, type="multiple", answer=[])), "q1", "answer", "at least 1 item"),
    ("multiple a text index", bank_text(dict(GOOD, type="multiple", answer=[0, "1"])), "q1", "answer[1]",
     "must be an integer, not string"),
    ("multiple one number", bank_text(dict(GOOD, type="multiple", answer=1)), "q1", "answer", "must be an array"),
    # --- numeric
    ("tolerance Infinity", raw(q(NUMERIC)[:-1] + ', "tolerance": Infinity}'), "q1", "tolerance", "not inf"),
    ("tolerance -Infinity", raw(q(NUMERIC)[:-1] + ', "tolerance": -Infinity}'), "q1", "tolerance", "not -inf"),
    ("answer NaN", raw(q(NUMERIC).replace('"answer": 2', '"answer": NaN')), "q1", "answer", "not nan"),
    ("answer 1e999", raw(q(NUMERIC).replace('"answer": 2', '"answer": 1e999')), "q1", "answer", "not inf"),
    ("answer 10**400", raw(q(NUMERIC).replace('"answer": 2', '"answer": 1' + "0" * 400)), "q1", "answer",
     "beyond the largest float"),
    ("tolerance 10**400", raw(q(NUMERIC)[:-1] + ', "tolerance": 1' + "0" * 400 + "}"), "q1", "tolerance",
     "beyond the largest float"),
    ("tolerance below 0", bank_text(dict(NUMERIC, tolerance=-1)), "q1", "tolerance", "at least 0"),
    ("answer a text", bank_text(dict(NUMERIC, answer="2")), "q1", "answer", "must be a number, not string"),
    ("range backwards", bank_text(dict(NUMERIC, feedback=[{"range": [3, 1], "text": "x"}])), "q1",
     "feedback[0].range", "starts above its end"),
    ("range with NaN", raw(q(NUMERIC)[:-1] + ', "feedback": [{"range": [NaN, 1], "text": "x"}]}'), "q1",
     "feedback[0].range[0]", "not nan"),
    ("range of three", bank_text(dict(NUMERIC, feedback=[{"range": [1, 2, 3], "text": "x"}])), "q1",
     "feedback[0].range", "at most 2 items"),
    # --- text
    ("text answer a string", bank_text(dict(TEXT, answer="MulBackward0")), "q1", "answer", "must be an array"),
    ("text answer backticks", bank_text(dict(TEXT, answer=["``"])), "q1", "answer[0]", "empty once case"),
    ("text answer <>", bank_text(dict(TEXT, answer=["x", "< >"])), "q1", "answer[1]", "no answer could match"),
    ("text answer spaces", bank_text(dict(TEXT, answer=["   "])), "q1", "answer[0]", "must not be empty"),
    ("text answer empty", bank_text(dict(TEXT, answer=[""])), "q1", "answer[0]", "must not be empty"),
    ("text feedback quotes", bank_text(dict(TEXT, feedback=[{"answer": "''", "text": "no"}])), "q1",
     "feedback[0].answer", "no answer could match"),
    ("text answers none", bank_text(dict(TEXT, answer=[])), "q1", "answer", "at least 1 item"),
    # --- classify
    ("edge to no node", bank_text(dict(CLASSIFY, edges=[["a", "b"]])), "q1", "edges[0][1]", "there is no node 'b'"),
    ("unknown mark", bank_text(dict(CLASSIFY, answer={"a": "tree", "y": "nonleaf"})), "q1", "answer.a",
     "must be one of"),
    ("a node unmarked", bank_text(dict(CLASSIFY, answer={"a": "leaf_grad"})), "q1", "answer", "node 'y' has no mark"),
    ("a mark for no node", bank_text(dict(CLASSIFY, answer={"a": "leaf_grad", "y": "nonleaf", "z": "nonleaf"})),
     "q1", "answer.z", "there is no node 'z'"),
    ("a cycle", bank_text(dict(CLASSIFY, edges=[["a", "y"], ["y", "a"]])), "q1", "edges", "cycle"),
    ("node ids repeated", bank_text(dict(CLASSIFY, nodes=[{"id": "a", "label": "a"}] * 2, edges=[],
                                         answer={"a": "leaf_grad"})), "q1", "nodes[1].id", "repeats the node id"),
    ("layer 10**9", bank_text(dict(CLASSIFY, nodes=[{"id": "a", "label": "a", "layer": 10 ** 9},
                                                    {"id": "y", "label": "y"}])), "q1", "nodes[0].layer",
     "at most 100"),
    ("101 nodes", bank_text(dict(CLASSIFY, nodes=[{"id": f"n{i}", "label": "n"} for i in range(101)], edges=[],
                                 answer={f"n{i}": "nonleaf" for i in range(101)})), "q1", "nodes",
     "at most 100 items"),
    ("a node id with a space", bank_text(dict(CLASSIFY, nodes=[{"id": "a b", "label": "a"}], edges=[],
                                              answer={"a b": "leaf_grad"})), "q1", "nodes[0].id", "letters, digits"),
]


@pytest.mark.parametrize("name, content, qid, field, words", BAD_BANKS, ids=[b[0] for b in BAD_BANKS])
def test_every_broken_bank_is_a_bank_error_naming_file_question_and_field(tmp_path, name, content, qid, field,
                                                                         words):
    path = tmp_path / "broken.json"
    if isinstance(content, str):
        content = content.encode("utf-8", "surrogatepass")
    path.write_bytes(content)
    result = None
    with pytest.raises(BankError) as info:
        result = load_bank(path)
    assert result is None
    err = info.value
    assert (err.file, err.question_id, err.field) == ("broken.json", qid, field), str(err)[:300]
    assert words in str(err), str(err)[:300]
    assert str(err).startswith("broken.json: ")
    assert max(len(line) for line in str(err).splitlines()) < 400  # nothing of the file is echoed at length


def test_a_directory_is_a_bank_error(tmp_path):
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(BankError, match=r"^dir\.json: cannot be read"):
        load_bank(tmp_path / "dir.json")


def test_a_file_over_the_limit_is_refused_before_it_is_decoded_or_parsed(tmp_path, monkeypatch):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (3 * MAX_BANK_BYTES))

    def never(*_):
        raise AssertionError("an oversized bank was decoded")
    monkeypatch.setattr("autograd_tutor.quiz.banks._decode", never)
    with pytest.raises(BankError, match="larger than 1,000,000 bytes"):
        load_bank(path)


@pytest.mark.parametrize("content", [codecs.BOM_UTF8 + GOOD_TEXT.encode(),
                                     json.dumps(json.loads(GOOD_TEXT), indent=8).encode(),
                                     bank_text(dict(GOOD, prompt="Quelle café ∂y/∂x ?")).encode()])
def test_sound_unusual_banks_load(tmp_path, content):
    path = tmp_path / "fine.json"
    path.write_bytes(content)
    assert isinstance(load_bank(path), Quiz)


def test_a_bank_right_at_the_size_limit_loads(tmp_path):
    text = GOOD_TEXT[:-1] + " " * (MAX_BANK_BYTES - len(GOOD_TEXT)) + "}"
    assert len(text.encode()) == MAX_BANK_BYTES
    path = tmp_path / "full.json"
    path.write_text(text)
    assert len(load_bank(path)) == 1


def test_every_problem_of_every_question_is_listed_and_nothing_loads(tmp_path):
    text = raw(q(GOOD), q(dict(NUMERIC, id="q2"))[:-1] + ', "tolerance": Infinity}', q(dict(TEXT, id="q3"),
               answer=["``"]), q(dict(GOOD, id="q4"), type=["single"]))
    path = tmp_path / "four.json"
    path.write_text(text)
    with pytest.raises(BankError) as info:
        load_bank(path)
    found = [(p[1], p[2]) for p in info.value.problems]
    assert ("q2", "tolerance") in found and found[0] == ("q2", "tolerance")  # file-level oddities come first
    path.write_text(raw(q(GOOD), q(dict(TEXT, id="q3"), answer=["``"]), q(dict(GOOD, id="q4"), type=["single"])))
    with pytest.raises(BankError) as info:
        load_bank(path)
    assert [(p[1], p[2]) for p in info.value.problems] == [("q3", "answer[0]"), ("q4", "type")]


JQ_GOOD = {"question": "2 + 2?", "type": "numeric", "answers": [{"type": "value", "value": 4, "correct": True}]}
BAD_JUPYTERQUIZ = [
    ("precision 10**6", dict(JQ_GOOD, precision=10 ** 6), "#2", "precision", "at most 17"),
    ("value NaN", dict(JQ_GOOD, answers=[{"type": "value", "value": float("nan"), "correct": True}]), "#2",
     "answers[0].value", "not nan"),
    ("range to inf", dict(JQ_GOOD, answers=[{"type": "range", "range": [0, float("inf")], "correct": True}]), "#2",
     "answers[0].range[1]", "not inf"),
    ("value 10**400", dict(JQ_GOOD, answers=[{"type": "value", "value": 10 ** 400, "correct": True}]), "#2",
     "answers[0].value", "beyond the largest float"),
    ("string of backticks", {"question": "q", "type": "string", "answers": [{"answer": "``", "correct": True}]},
     "#2", "answers[0].answer", "no answer could match"),
    ("type a list", dict(JQ_GOOD, type=["numeric"]), "#2", "type", "must be one of"),
    ("question a dict", dict(JQ_GOOD, question={"text": "q"}), "#2", "question", "must be a string"),
]


@pytest.mark.parametrize("name, item, qid, field, words", BAD_JUPYTERQUIZ, ids=[b[0] for b in BAD_JUPYTERQUIZ])
def test_broken_jupyterquiz_data_is_a_bank_error(name, item, qid, field, words):
    with pytest.raises(BankError) as info:
        import_jupyterquiz([JQ_GOOD, item])
    err = info.value
    assert (err.file, err.question_id, err.field) == ("<jupyterquiz data>", qid, field), str(err)
    assert words in str(err)


def test_a_utf16_jupyterquiz_file_is_a_bank_error(tmp_path):
    path = tmp_path / "jq.json"
    path.write_bytes(json.dumps([JQ_GOOD]).encode("utf-16"))
    with pytest.raises(BankError, match=r"^jq\.json: is UTF-16-encoded; save it as UTF-8"):
        import_jupyterquiz(path)

