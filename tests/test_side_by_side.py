"""``side_by_side`` / ``%%side_by_side``: one cell under real torch (another process) and autograd_tutor (here)."""
import subprocess
import sys
import textwrap
import venv

import numpy as np
import pytest

from autograd_tutor import tensor
from autograd_tutor.side_by_side import SideBySide, side_by_side

CELL = """import torch
x = torch.tensor(data, requires_grad=True)
(x * x).sum().backward()
print(x.grad)
print(type(x).__module__.split(".")[0])
data[0] = 100.0
"""


def test_the_cell_runs_here_under_autograd_tutor_and_there_under_torch():
    pytest.importorskip("torch")
    data = np.array([1.0, 2.0], dtype=np.float32)
    result = side_by_side(CELL, {"data": data})
    assert result.ours == "tensor([2., 4.])\nautograd_tutor\n"
    assert result.theirs == "tensor([2., 4.])\ntorch\n" and result.torch_version.startswith("2.")
    assert data[0] == 1.0                      # the shared values are copies
    assert [same for same, _, _ in result.rows()] == [True, False] and result.differing == 1
    text = repr(result).splitlines()
    assert text[0].split() == ["autograd_tutor", "(this", "kernel)", "|", "torch", result.torch_version,
                               "(separate", "process)"]
    assert text[1].startswith("  tensor([2., 4.])") and text[2].startswith("≠ autograd_tutor")
    assert text[-1] == "1 of 2 lines differ (marked ≠)"
    html = result._repr_html_()
    assert html.count("class=differs") == 1 and "<td>≠</td>" in html


def test_the_calling_process_never_imports_torch():
    pytest.importorskip("torch")
    code = textwrap.dedent("""
        import sys
        from autograd_tutor.side_by_side import side_by_side
        result = side_by_side("import torch\\nprint(torch.ones(2))")
        print(result.differing, result.theirs.strip(), "torch" in sys.modules)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "0 tensor([1., 1.]) False", done.stderr


def test_an_error_shows_as_its_last_line_on_both_sides():
    pytest.importorskip("torch")
    result = side_by_side("import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * x\ny.backward()\n"
                          "y.backward()\n")
    assert result.ours == result.theirs and result.ours.startswith("RuntimeError: Trying to backward through the "
                                                                   "graph a second time")


def test_where_torch_is_absent_one_line_says_so(tmp_path):
    venv.create(tmp_path / "plain", with_pip=False)
    result = side_by_side("print(6 * 7)", python=str(tmp_path / "plain" / "bin" / "python"))
    assert result.ours == "42\n" and result.theirs is None
    assert repr(result) == ("autograd_tutor (this kernel):\n42\nPyTorch is not installed here, so only "
                            "autograd_tutor's output is shown (pip install torch to compare side by side).")


def test_where_no_process_can_start_one_line_says_so(tmp_path):
    result = side_by_side("print(1)", python=str(tmp_path))      # a folder: the OS refuses to run it
    assert result.ours == "1\n" and result.theirs is None
    assert result.note == ("No separate process can be started here (Permission denied): only autograd_tutor's "
                           "output is shown.")


def test_an_autograd_tutor_tensor_cannot_be_shared():
    with pytest.raises(TypeError, match=r"'w' is an autograd_tutor Tensor.*w.detach\(\).numpy\(\)"):
        side_by_side("print(w)", {"w": tensor([1.0])})


def test_rows_pad_the_shorter_output():
    result = SideBySide("a\nb\n", "a\n", torch_version="2.13.0")
    assert result.rows() == [(True, "a", "a"), (False, "b", "")]
    assert result.summary() == "1 of 2 lines differ (marked ≠)"


def test_no_lesson_imports_torch_into_its_kernel():
    import json
    import re
    from pathlib import Path
    for path in sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            source = "".join(cell["source"])
            if cell["cell_type"] == "code" and not source.startswith("%%side_by_side"):
                assert not re.search(r"^\s*(import torch\b|from torch\b)", source, re.M), (path.name, source)
