"""How long does hostile input hold the kernel? Quiz answers, widget messages and bank files, timed.

Run:  .venv/bin/python benchmarks/hostile_input.py

Best (min) of 5 repeats, in this one process:

1. A QuizWidget gets a check message whose numeric answer is 20,001 characters, 65,537, 1 MB and 10 MB of
   digits (the old pattern ``[+-]?(\\d+\\.?\\d*|\\.\\d+)...`` took 7 s and 78 s on the first two; it is timed
   here on 2,001 and 4,001 digits only, to show its quadratic growth without waiting minutes).
2. The longest answer read (``MAX_ANSWER_CHARS`` digits) parsed, and a 200-character text answer checked.
3. Bank files: a 50 MB file (refused by its size), a bank just under the 1,000,000-byte limit (read and
   checked in full), and the shipped lesson-1 bank.
"""
from __future__ import annotations

import json
import re
import tempfile
import time
from pathlib import Path

from autograd_tutor.quiz import BankError, Question, Quiz, load_bank
from autograd_tutor.quiz.banks import MAX_BANK_BYTES
from autograd_tutor.quiz.keys import MAX_ANSWER_CHARS, NumericKey, TextKey, parse_number
from autograd_tutor.widgets import QuizWidget

REPEATS = 5
OLD_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")  # the pattern the quiz used before


def best(fn) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:10.3f} ms"


def quiz_widget() -> QuizWidget:
    quiz = Quiz("Bench", [Question("n", "numeric", "A number", NumericKey.near(2.5, 0.01), "N."),
                          Question("t", "text", "A name", TextKey(["MulBackward0"]), "T.")])
    w = QuizWidget(quiz)
    w.send = lambda content, buffers=None: None
    return w


def section_messages() -> None:
    print("1. a check message with a long numeric answer, handled by QuizWidget")
    w = quiz_widget()
    for n in (20_001, 65_537, 1_000_000, 10_000_000):
        answer = "1" * n + "x"
        message = {"type": "check", "id": "n", "answer": answer}
        reply = w.reply(message)[0]
        assert not reply["valid"] and "characters long" in reply["message"]
        print(f"   {n:>10,} digits  refused in {ms(best(lambda: w.reply(message)))}")
    for n in (2_001, 4_001):
        answer = "1" * n + "x"
        print(f"   {n:>10,} digits  old pattern  {ms(best(lambda: OLD_NUMBER.match(answer)))}  (quadratic: 2x the "
              "digits, ~4x the time)")


def section_parsing() -> None:
    print(f"2. answers at the limit ({MAX_ANSWER_CHARS} characters)")
    digits = "1" * MAX_ANSWER_CHARS
    print(f"   parse_number of {MAX_ANSWER_CHARS} digits      {ms(best(lambda: parse_number(digits)))}")
    key = TextKey(["MulBackward0"])
    text = "m" * MAX_ANSWER_CHARS
    print(f"   text answer of {MAX_ANSWER_CHARS} characters  {ms(best(lambda: key.check(text)))}")


def section_banks() -> None:
    print("3. bank files")
    question = {"id": "q", "type": "single", "prompt": "Pick", "choices": ["a", "b"], "answer": 0,
                "explanation": "So."}
    with tempfile.TemporaryDirectory() as folder:
        huge = Path(folder) / "huge.json"
        huge.write_bytes(b" " * 50_000_000)

        def refuse() -> None:
            try:
                load_bank(huge)
            except BankError:
                return
            raise AssertionError("a 50 MB bank loaded")
        print(f"   50 MB file, refused by its size     {ms(best(refuse))}")
        questions = []
        while len(json.dumps(questions)) < MAX_BANK_BYTES - 2_000:
            questions.append(dict(question, id=f"q{len(questions)}"))
        full = Path(folder) / "full.json"
        full.write_text(json.dumps({"format": "autograd_tutor.quiz/1", "title": "T", "questions": questions}))
        size = full.stat().st_size
        assert size <= MAX_BANK_BYTES and len(load_bank(full)) == len(questions)
        print(f"   {size:,} bytes, {len(questions):,} questions, loaded  {ms(best(lambda: load_bank(full)))}")
    print(f"   lesson1 (shipped)                   {ms(best(lambda: load_bank('lesson1')))}")


if __name__ == "__main__":
    section_messages()
    section_parsing()
    section_banks()
