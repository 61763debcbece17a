"""docs/teaching.md is real: its examples run and print what it shows; its CI workflow passes and fails as it says.

* Every ``python`` and ``ipython`` block of the guide runs, in order, in one IPython session in an empty folder
  (a fresh process, so no torch is imported before ``%load_ext autograd_tutor.as_torch``); a ``text`` block
  right after one is the output it must print.
* The ``run:`` commands of ``docs/teacher-ci.yml`` run, as GitHub Actions runs them (``bash -e``), on a sample
  teacher's layout in a temp folder: they pass, and a broken bank or a failing notebook fails them. The install
  step runs with ``PIP_NO_INDEX`` and ``PIP_DRY_RUN``, so it checks the requirements against this environment and
  installs nothing.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).parents[1]
GUIDE = ROOT / "docs" / "teaching.md"
WORKFLOW = ROOT / "docs" / "teacher-ci.yml"
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
ENV.pop("MPLBACKEND", None)

SESSION = r"""
import json, sys
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
shell = InteractiveShell.instance()
results = []
for source in json.load(sys.stdin):
    with capture_output() as out:
        result = shell.run_cell(source)
    error = result.error_in_exec or result.error_before_exec
    results.append({"stdout": out.stdout, "error": None if error is None else f"{type(error).__name__}: {error}"})
print(json.dumps(results))
"""


def blocks(markdown: str) -> list:
    """``(language, body)`` of each fenced block, in order."""
    return [(m[1], m[2]) for m in re.finditer(r"^```(\w*)[^\n]*\n(.*?)^```", markdown, re.M | re.S)]


def test_the_guide_examples_run_and_print_what_it_shows(tmp_path):
    found = blocks(GUIDE.read_text())
    code = [i for i, (language, _) in enumerate(found) if language in ("python", "ipython")]
    assert len(code) >= 10
    done = subprocess.run([sys.executable, "-c", SESSION], input=json.dumps([found[i][1] for i in code]),
                          capture_output=True, text=True, cwd=tmp_path, env=ENV)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout.splitlines()[-1])
    checked = 0
    for i, result in zip(code, results):
        assert result["error"] is None, (found[i][1], result["error"])
        if i + 1 < len(found) and found[i + 1][0] == "text":
            assert result["stdout"] == found[i + 1][1], found[i][1]
            checked += 1
    assert checked >= 7


def _layout(root: Path) -> None:
    (root / "banks").mkdir(parents=True)
    shutil.copy(ROOT / "autograd_tutor" / "quiz" / "banks" / "lesson1.json", root / "banks" / "lesson1.json")
    (root / "requirements.txt").write_text("nbval\njsonschema\n")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(s) for s in (
        "import autograd_tutor as torch\nfrom autograd_tutor.widgets import QuizWidget",
        "a = torch.tensor(3.0, requires_grad=True)\nb = a * a\nb.backward()\nprint(a.grad)",
        "QuizWidget.from_bank('../banks/lesson1.json')",
        "b.backward()  # the second backward fails, on purpose")]
    nb.cells[-1].metadata["tags"] = ["raises-exception"]
    (root / "notebooks").mkdir()
    nbformat.write(nb, root / "notebooks" / "lesson.ipynb")


def _run_workflow(root: Path) -> subprocess.CompletedProcess:
    steps = yaml.safe_load(WORKFLOW.read_text())["jobs"]["nbval"]["steps"]
    commands = [step["run"] for step in steps if "run" in step]
    assert len(commands) == 3
    env = dict(ENV, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
               PIP_NO_INDEX="1", PIP_DRY_RUN="1")
    output = ""
    for command in commands:
        done = subprocess.run(["bash", "-e", "-c", command], capture_output=True, text=True, cwd=root, env=env)
        output += done.stdout + done.stderr
        if done.returncode != 0:
            return subprocess.CompletedProcess(command, done.returncode, output)
    return subprocess.CompletedProcess("all", 0, output)


def test_the_ci_workflow_passes_on_a_teachers_layout_and_fails_on_mistakes(tmp_path):
    _layout(tmp_path / "good")
    good = _run_workflow(tmp_path / "good")
    assert good.returncode == 0, good.stdout[-3000:]
    assert "banks/lesson1.json 6 questions" in good.stdout and "4 passed" in good.stdout

    _layout(tmp_path / "bank")
    bank = tmp_path / "bank" / "banks" / "lesson1.json"
    bank.write_text(bank.read_text().replace('"answer": 3,', '"answer": 9,', 1))
    broken = _run_workflow(tmp_path / "bank")
    assert broken.returncode != 0 and "load_bank" in broken.args
    assert "lesson1.json: question 'grad-after-backward': field 'answer': choice 9 does not exist" in broken.stdout

    _layout(tmp_path / "cell")
    lesson = tmp_path / "cell" / "notebooks" / "lesson.ipynb"
    nb = nbformat.read(lesson, as_version=4)
    nb.cells[-1].metadata["tags"] = []
    nbformat.write(nb, lesson)
    failing = _run_workflow(tmp_path / "cell")
    assert failing.returncode != 0 and "nbval" in failing.args and "1 failed, 3 passed" in failing.stdout
