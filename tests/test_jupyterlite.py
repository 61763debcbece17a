"""The JupyterLite site of the lessons builds (its Pyodide kernel loads from a CDN, so it cannot run here).

The build runs in its own environment, ``.venv-lite/`` (``make lite``, or built here from PyPI on first use from
``tests/jupyterlite-requirements.txt``): installed next to JupyterLab, the JupyterLite kernel extension logs
``Shared module @jupyterlite/services doesn't exist`` on every JupyterLab page. The site must carry the seven
lessons, our wheel for piplite (with the widgets' ES modules and the quiz banks inside), and the front ends of
ipywidgets and anywidget.
"""
import json
import subprocess
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
LITE = ROOT / ".venv-lite"
REQUIREMENTS = ROOT / "tests" / "jupyterlite-requirements.txt"


@pytest.fixture(scope="module")
def lite_python() -> Path:
    """The Python of ``.venv-lite/``, built from PyPI if it is not there yet (skip with the reason if offline)."""
    python, stamp = LITE / "bin" / "python", LITE / ".installed"
    if not stamp.exists() or stamp.stat().st_mtime < REQUIREMENTS.stat().st_mtime:
        if not python.exists():
            venv.create(LITE, with_pip=True)
        done = subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"could not build {LITE} from PyPI (run `make lite` online): {done.stderr[-500:]}")
        stamp.touch()
    return python


def test_lessons_build_into_a_jupyterlite_site_with_our_wheel(tmp_path, lite_python):
    subprocess.run([str(lite_python), "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path / "wheels"), str(ROOT)], check=True)
    wheel = next((tmp_path / "wheels").glob("autograd_tutor-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        assert {"autograd_tutor/widgets/static/graph.js", "autograd_tutor/quiz/banks/lesson1.json"} <= set(z.namelist())
    site = tmp_path / "site"
    subprocess.run([str(lite_python), "-m", "jupyter", "lite", "build", "--contents", str(ROOT / "notebooks"),
                    "--piplite-wheels", str(wheel), "--output-dir", str(site)], check=True, cwd=tmp_path,
                   capture_output=True)
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert len(lessons) == 9 and sorted(p.name for p in (site / "files").glob("*.ipynb")) == lessons
    assert (site / "pypi" / wheel.name).exists()
    assert "autograd-tutor" in json.loads((site / "pypi" / "all.json").read_text())  # the index normalises names
    assert (site / "extensions" / "anywidget").is_dir() and (site / "extensions" / "@jupyter-widgets").is_dir()
