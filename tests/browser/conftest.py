"""Real-browser fixtures: JupyterLab on 127.0.0.1 and Debian's chromium driven by Python playwright.

* ``lab`` (session): a token-less JupyterLab from this virtualenv on a free local port (it serves Notebook 7 as
  well, at ``/notebooks/NAME.ipynb``, when ``notebook`` is installed), serving a temporary copy of
  ``tests/browser/notebooks/``, with isolated settings, workspaces and runtime folders and no news or
  update checks (nothing reaches for the internet). Stopped at the end of the session.
* ``chromium`` (session): ``/usr/bin/chromium`` launched by playwright (``playwright install`` is never used).
* ``lab_page``: a fresh browser page; ``lab.run_all(page, "name.ipynb")`` opens a notebook, waits for an idle
  kernel and runs all cells.

Every test here skips with a reason when playwright or chromium is missing (install them with
``pip install playwright`` and ``apt-get install -y chromium``). Screenshots go to ``artifacts/`` (gitignored).
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).parent
NOTEBOOKS = HERE / "notebooks"
ARTIFACTS = HERE / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _chromium() -> str:
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if path is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Lab:
    """A running JupyterLab: ``url``, ``root`` (its folder), and helpers to drive notebooks."""

    def __init__(self, url: str, root: Path, settings: Path) -> None:
        self.url, self.root, self.settings = url, root, settings

    def run_all(self, page, name: str, timeout: float = 90_000) -> None:
        """Open ``name``, wait until the kernel is idle (else a kernel dialog blocks), then Run All Cells."""
        page.goto(f"{self.url}/lab/tree/{name}?reset")
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=timeout)
        page.locator(".jp-Notebook").first.click()
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()

    def wait_idle(self, page, timeout: float = 90_000) -> None:
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=timeout)


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    _chromium()
    base = tmp_path_factory.mktemp("lab")
    root, settings = base / "root", base / "settings"
    shutil.copytree(NOTEBOOKS, root)
    notification = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True)
    notification.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(base / "ws"),
               JUPYTER_RUNTIME_DIR=str(base / "runtime"))
    env.pop("MPLBACKEND", None)
    port = _free_port()
    log_path = base / "lab.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ServerApp.ip=127.0.0.1",
             f"--ServerApp.port={port}", "--ServerApp.token=", "--ServerApp.password=",
             "--ServerApp.disable_check_xsrf=True",  # the tests end kernels through the REST API
             f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/api/status", timeout=2):
                        break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"JupyterLab did not start:\n{log_path.read_text()}")
                    time.sleep(0.3)
            yield Lab(url, root, settings)
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()


@pytest.fixture(scope="session")
def chromium():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def lab_page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """For tests that use pytest-playwright's own ``page``: launch Debian's chromium, never a downloaded one."""
    return {**browser_type_launch_args, "executable_path": _chromium(), "args": CHROMIUM_ARGS}
