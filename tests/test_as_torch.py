"""``import autograd_tutor.as_torch``: ``import torch`` and its submodules resolve to autograd_tutor.

Each check runs in a fresh interpreter (the test process may have imported real torch), and the sample notebooks
in ``tests/torch_notebooks/`` (written like the PyTorch tutorials, one line added at the top) run under nbval.
"""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
NOTEBOOKS = ROOT / "tests" / "torch_notebooks"


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT)


def test_import_torch_gives_autograd_tutor_and_says_so_once():
    result = run("""
        import autograd_tutor.as_torch
        import autograd_tutor.as_torch
        import torch, autograd_tutor
        assert torch is autograd_tutor
        print(torch.tensor(2.0, requires_grad=True) * 3)
    """)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("import torch now gives autograd_tutor 0.1.0") and len(lines) == 2
    assert lines[1] == "tensor(6., grad_fn=<MulBackward0>)"


def test_submodules_alias_the_matching_autograd_tutor_modules():
    result = run("""
        import autograd_tutor.as_torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch import optim
        from torch.utils.data import DataLoader
        import torch.autograd, torch.cuda
        import autograd_tutor, autograd_tutor.utils.data
        assert nn is autograd_tutor.nn and F is autograd_tutor.nn.functional and optim is autograd_tutor.optim
        assert DataLoader is autograd_tutor.utils.data.DataLoader
        assert torch.autograd is autograd_tutor.autograd and torch.autograd.__spec__.name == "autograd_tutor.autograd"
        assert torch.cuda.is_available() is False
        assert not hasattr(F, "__path__")          # aliasing leaves the modules as they were
        print("ok")
    """)
    assert result.returncode == 0 and result.stdout.endswith("ok\n"), result.stderr


def test_a_submodule_autograd_tutor_lacks_is_missing_as_in_torch():
    result = run("""
        import autograd_tutor.as_torch
        try:
            import torch.distributed
        except ModuleNotFoundError as error:
            print(type(error).__name__, error, error.name)
    """)
    assert result.stdout.splitlines()[-1] == "ModuleNotFoundError No module named 'torch.distributed' torch.distributed"


def test_refuses_when_real_torch_is_already_imported():
    pytest.importorskip("torch")
    result = run("""
        import torch
        import autograd_tutor.as_torch
    """)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: autograd_tutor.as_torch: PyTorch is already imported in this kernel")
    assert "Restart the kernel and run `import autograd_tutor.as_torch` first" in last


def test_tutorial_style_notebooks_run_under_nbval():
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "--nbval-lax",
                             "--nbval-current-env", str(NOTEBOOKS)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-3000:]
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == [
        "autograd_tutorial.ipynb", "optimization_loop.ipynb", "polynomial_fit.ipynb"]


def test_the_notebook_line_shows_its_note_and_the_kernel_never_imports_torch():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOKS / "autograd_tutorial.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "import sys\nprint(sys.modules['torch'].__name__, [name for name, module in sys.modules.items() "
        "if 'site-packages/torch' in (getattr(module, '__file__', None) or '')])"))
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(ROOT)}})
    client.execute()
    first = next(c for c in nb.cells if c.cell_type == "code")
    assert "".join(o.get("text", "") for o in first.outputs) == (
        "import torch now gives autograd_tutor 0.1.0 (a NumPy engine that records its graph) in this kernel; "
        "restart the kernel to use PyTorch again.\n")
    # one print may reach the notebook as several stream chunks (seen under load): join them
    assert "".join(o.get("text", "") for o in nb.cells[-1].outputs) == "autograd_tutor []\n"
