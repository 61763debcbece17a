"""The IPython extension, driven through a real IPython shell (no browser)."""
import pytest

pytest.importorskip("IPython")
from IPython.testing.globalipapp import get_ipython  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

from autograd_tutor.widgets import QuizWidget  # noqa: E402


@pytest.fixture(scope="module")
def shell():
    ip = get_ipython()
    ip.run_line_magic("load_ext", "autograd_tutor")
    return ip


def _run(shell, cell):
    with capture_output() as captured:
        result = shell.run_cell(cell)
    return result, captured


def test_cell_magic_shows_the_graph_the_cell_built_and_its_backward(shell):
    result, captured = _run(shell, "%%autograd\n"
                                   "import autograd_tutor as torch\n"
                                   "a = torch.tensor(3., requires_grad=True)\n"
                                   "b = torch.tensor(4., requires_grad=True)\n"
                                   "d = a * b + a\n"
                                   "d.backward()\n"
                                   "print('grads', a.grad.item(), b.grad.item())\n")
    assert result.success
    assert "grads 5.0 3.0" in captured.stdout  # the cell itself ran, in the user's namespace
    shown = captured.outputs[-1].data
    assert "application/vnd.jupyter.widget-view+json" in shown
    text = shown["text/plain"]
    assert text.startswith("GraphWidget: 4 nodes, 4 edges")
    assert "replay steps" in text and " 0 replay steps" not in text  # the backward was recorded for replay
    rows = {line.split()[0]: line.split() for line in text.splitlines()[2:]}
    assert rows["a"][:5] == ["a", "leaf", "AccumulateGrad", "3", "5"]
    assert rows["b"][:5] == ["b", "leaf", "AccumulateGrad", "4", "3"]
    assert rows["d"][:3] == ["d", "result", "AddBackward0"]


def test_cell_magic_options_and_bad_options(shell):
    result, captured = _run(shell, "%%autograd --max-nodes 50 --title 'Tiny'\nimport autograd_tutor as torch\n"
                                   "y = torch.tensor(2., requires_grad=True) ** 3\n")
    assert result.success
    assert "PowBackward0" in captured.outputs[-1].data["text/plain"]
    bad, _ = _run(shell, "%%autograd --nodes 5\npass\n")
    assert isinstance(bad.error_in_exec, ValueError)
    assert "--max-nodes" in str(bad.error_in_exec)


def test_quiz_magic_shows_a_bank_and_lists_banks(shell, capsys):
    result = shell.run_cell("%autograd_quiz lesson1")
    assert isinstance(result.result, QuizWidget)
    shell.run_cell("%autograd_quiz")
    assert "lesson1" in capsys.readouterr().out
    missing = shell.run_cell("%autograd_quiz no_such_bank")
    assert isinstance(missing.error_in_exec, FileNotFoundError)
    assert "lesson1" in str(missing.error_in_exec)


def test_side_by_side_magic_reads_the_named_variables(shell):
    from autograd_tutor.side_by_side import SideBySide
    shell.user_ns["k"] = 3
    result = shell.run_cell("%%side_by_side k --python /nonexistent/python\nprint(k * 2)")
    assert isinstance(result.result, SideBySide) and result.result.ours == "6\n"
    assert result.result.note == "No Python at /nonexistent/python: only autograd_tutor's output is shown."
    failed = shell.run_cell("%%side_by_side nothing_here\nprint(1)")
    assert isinstance(failed.error_in_exec, NameError) and "'nothing_here' is not defined" in str(failed.error_in_exec)
