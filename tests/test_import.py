"""``import autograd_tutor`` is light: numpy and nothing from the widget stack.

The check runs in a fresh interpreter, because this test session may already have imported anything.
"""
import json
import subprocess
import sys

HEAVY = ["ipywidgets", "anywidget", "matplotlib", "IPython", "networkx", "traitlets", "torch"]


def test_import_loads_numpy_and_nothing_heavy():
    code = ("import json, sys; import autograd_tutor; "
            "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert "numpy" in loaded and "autograd_tutor" in loaded
    assert loaded.isdisjoint(HEAVY), f"import autograd_tutor loaded {sorted(loaded & set(HEAVY))}"
