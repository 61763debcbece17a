"""The JupyterLite site of the lessons builds (its Pyodide kernel loads from a CDN, so it cannot run here).

The site must carry the seven lessons, our wheel for piplite (with the widgets' ES modules inside), and the
front ends of ipywidgets and anywidget.
"""
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("jupyterlite_core", reason="jupyterlite-core is not installed (pip install jupyterlite-core)")
pytest.importorskip("jupyterlite_pyodide_kernel", reason="jupyterlite-pyodide-kernel is not installed")

ROOT = Path(__file__).parents[1]


def test_lessons_build_into_a_jupyterlite_site_with_our_wheel(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path / "wheels"), str(ROOT)], check=True)
    wheel = next((tmp_path / "wheels").glob("autograd_tutor-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        assert {"autograd_tutor/widgets/static/graph.js", "autograd_tutor/quiz/banks/lesson1.json"} <= set(z.namelist())
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "jupyter", "lite", "build", "--contents", str(ROOT / "notebooks"),
                    "--piplite-wheels", str(wheel), "--output-dir", str(site)], check=True, cwd=tmp_path,
                   capture_output=True)
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert len(lessons) == 8 and sorted(p.name for p in (site / "files").glob("*.ipynb")) == lessons
    assert (site / "pypi" / wheel.name).exists()
    assert "autograd-tutor" in json.loads((site / "pypi" / "all.json").read_text())  # the index normalises names
    assert (site / "extensions" / "anywidget").is_dir() and (site / "extensions" / "@jupyter-widgets").is_dir()
