"""binder/ says what pyproject.toml says: Binder builds from binder/ alone (it ignores pyproject.toml), so its
requirements must be the package's dependencies with the widgets extra, its Python one the package supports, and
its postBuild must install the package itself without pulling anything else. That the lessons run there is
tested by tests/binder_lessons.sh (a step of `make test`: a venv built from binder/, every lesson under nbval)."""
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]
BINDER = ROOT / "binder"


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _requirements(lines) -> dict:
    """``{name: specifier}`` of requirement lines (names normalised as pip compares them)."""
    found = {}
    for line in lines:
        line = line.split("#")[0].strip()
        if line:
            name, spec = re.match(r"([A-Za-z0-9_.\-]+)\s*(.*)", line).groups()
            found[re.sub(r"[-_.]+", "-", name).lower()] = spec.replace(" ", "")
    return found


def test_binder_installs_the_dependencies_and_the_widgets_extra_and_nothing_else():
    project = _project()
    wanted = _requirements(project["dependencies"] + project["optional-dependencies"]["widgets"])
    assert _requirements((BINDER / "requirements.txt").read_text().splitlines()) == wanted


def test_binder_python_is_one_the_package_supports():
    runtime = (BINDER / "runtime.txt").read_text().strip()
    major, minor = map(int, re.fullmatch(r"python-(\d+)\.(\d+)", runtime).groups())
    lowest = tuple(map(int, re.fullmatch(r">=(\d+)\.(\d+)", _project()["requires-python"]).groups()))
    assert (major, minor) >= lowest


def test_post_build_installs_the_package_alone_and_stops_on_an_error():
    script = (BINDER / "postBuild").read_text()
    commands = [line for line in script.splitlines() if line.strip() and not line.startswith("#")]
    assert commands == ["set -euo pipefail", "python -m pip install --no-deps ."]


def test_the_suite_runs_the_lessons_in_the_binder_environment():
    suite = (ROOT / "tests" / "suite.sh").read_text()
    assert 'step "lessons in the Binder environment' in suite and "tests/binder_lessons.sh" in suite
