"""Learner-sized tracebacks (autograd/tracebacks.py): a notebook cell that provokes one of the intended errors
shows the learner's line, one engine frame and torch's message; plain Python still prints every frame."""
import re
import subprocess
import sys

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

SETUP = "import autograd_tutor as torch\nx = torch.tensor(2., requires_grad=True)\ny = x * x\ny.backward()"
CASES = {  # cell -> torch's message
    "y.backward()": "Trying to backward through the graph a second time",
    "(torch.ones(3, requires_grad=True) * 2).backward()": "grad can be implicitly created only for scalar outputs",
    "w = torch.ones(3, requires_grad=True)\nw += 1": "a leaf Variable that requires grad is being used in an in-place",
    "torch.ones(3) + torch.ones(4)": "The size of tensor a (3) must match the size of tensor b (4)",
    "torch.ones(2, 3) @ torch.ones(4, 5)": "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
    "(x * x).sum(dim=1)": "Dimension out of range",  # an error outside the marked paths: every frame stays
}


@pytest.fixture(scope="module")
def tracebacks():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in [SETUP, *CASES]])
    nbclient.NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3").execute()
    out = {}
    for cell in nb.cells[1:]:
        error = [o for o in cell.outputs if o.output_type == "error"]
        assert error, f"{cell.source!r} raised nothing"
        out[cell.source] = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error[0].traceback))
    return out


@pytest.mark.parametrize("cell", [c for c in CASES if "dim=1" not in c])
def test_an_intended_error_shows_the_learners_line_one_engine_frame_and_the_message(tracebacks, cell):
    text = tracebacks[cell]
    frames = re.findall(r"^(Cell In\[\d+\]|File \S+:\d+)", text, re.M)
    assert frames[0].startswith("Cell In"), text
    assert len(frames) == 2, frames  # the learner's line and the frame that raised (IPython always shows it)
    assert re.search(r"\[\.\.\. skipping hidden \d+ frame\]", text), text  # and says what it left out
    assert CASES[cell] in text.splitlines()[-1]


def test_other_errors_keep_their_frames(tracebacks):
    """Only the argument plumbing (arguments.py: NumPy's names, out=) is hidden; the op's own frames stay."""
    text = tracebacks["(x * x).sum(dim=1)"]
    assert "Dimension out of range" in text and "reductions.py" in text and "arguments.py" not in text
    assert re.findall(r"skipping hidden (\d+) frame", text) in ([], ["1"]), text


def test_plain_python_prints_every_engine_frame():
    code = SETUP + "\ny.backward()"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    files = re.findall(r'File ".*?autograd_tutor/autograd/([\w/]+\.py)"', run.stderr)
    assert files[:4] == ["tensor.py", "engine.py", "engine.py", "function.py"], run.stderr
    assert len(files) == 6 and "skipping" not in run.stderr


def test_ours_is_no_longer_than_torchs_for_the_second_backward(tracebacks):
    pytest.importorskip("torch")
    source = SETUP.replace("autograd_tutor", "torch")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source), nbformat.v4.new_code_cell("y.backward()")])
    nbclient.NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3").execute()
    theirs = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(nb.cells[1].outputs[0].traceback))
    count = lambda text: len(re.findall(r"^(?:Cell In\[\d+\]|File \S+:\d+)", text, re.M))  # noqa: E731
    assert count(theirs) == 4, theirs  # the cell and torch's 3 frames (_tensor.py, autograd/__init__.py, graph.py)
    assert count(tracebacks["y.backward()"]) <= count(theirs)
    assert theirs.splitlines()[-1] == tracebacks["y.backward()"].splitlines()[-1]  # the same message
