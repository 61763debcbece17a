"""The IPython extension, driven through a real IPython shell (no browser)."""
import pytest

pytest.importorskip("IPython")
from IPython.testing.globalipapp import get_ipython  # noqa: E402

from autograd_tutor.widgets import GraphWidget, QuizWidget  # noqa: E402


@pytest.fixture(scope="module")
def shell():
    ip = get_ipython()
    ip.run_line_magic("load_ext", "autograd_tutor")
    return ip


def test_cell_magic_shows_the_graph_the_cell_built_and_its_backward(shell):
    result = shell.run_cell("%%autograd\n"
                            "import autograd_tutor as torch\n"
                            "a = torch.tensor(3., requires_grad=True)\n"
                            "b = torch.tensor(4., requires_grad=True)\n"
                            "d = a * b + a\n"
                            "d.backward()\n")
    assert result.success
    graph = shell.user_ns["_"]  # what the cell displayed (the inner run of the cell owns result.result)
    assert isinstance(graph, GraphWidget)
    labels = [n["label"] for n in graph.graph["nodes"]]
    assert {"a", "b", "MulBackward0", "d"} <= set(labels)
    assert sorted(e["grad"] for e in graph.graph["edges"]) == ["1", "1", "3", "4"]
    assert shell.user_ns["a"].grad.item() == 5.0  # the cell really ran in the user's namespace
    graph.close()


def test_cell_magic_options_and_bad_options(shell):
    result = shell.run_cell("%%autograd --max-nodes 50 --title 'Tiny'\nimport autograd_tutor as torch\n"
                            "y = torch.tensor(2., requires_grad=True) ** 3\n")
    assert result.success and shell.user_ns["_"].title == "Tiny"
    shell.user_ns["_"].close()
    bad = shell.run_cell("%%autograd --nodes 5\npass\n")
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
