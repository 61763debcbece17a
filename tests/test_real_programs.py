"""Real teaching programs run unchanged: each file in ``tests/programs/`` prints under autograd_tutor what it prints
under torch.

Each program runs as a subprocess twice: with real torch, and with ``torch`` resolved to autograd_tutor (the shim
``tests/programs/_shim/torch`` first on ``PYTHONPATH``). Its transcript is its stdout (object addresses written
``0x?``; in ours, a printed class ``<class 'autograd_tutor.X'>`` read as torch's ``<class 'torch.X'>``, the one place
where the package's own name stands for torch's), plus, when it stops with an error, ``!! `` and the error's last line. The two are compared by the rule of the
portable conformance suite (``tests/conformance/kernels.py``): equal, or, where torch's own output follows the
processor, equal to what torch prints under another of its CPU kernel settings, or line by line inside the spread of
the numbers those settings print. The torch side is run live (torch is installed wherever this suite runs), the
programs a few at a time.

Torch's BLAS (MKL) also follows the processor's *maker*, which no kernel setting varies: on an AMD EPYC it multiplies
small float32 matrices by plain sequential sums, on an Intel Xeon otherwise, so a tiny MLP prints other last digits.
``torch_elsewhere.json`` keeps what torch printed on the processors this suite has run on (keyed by processor and by
a hash of the program: an edited program's old record is not used); those transcripts count as variants too.
``python tests/test_real_programs.py --record`` adds this processor's (``--record NAME ...``: only those programs').

``python tests/test_real_programs.py`` prints the triage: each program as same / within torch's spread / different /
error, with the first differing line or the error.
"""
from __future__ import annotations

import concurrent.futures
import difflib
import functools
import hashlib
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
PROGRAMS = HERE / "programs"
SHIM = PROGRAMS / "_shim"
ROOT = HERE.parent
ELSEWHERE = PROGRAMS / "torch_elsewhere.json"
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
OUR_CLASS = re.compile(r"<class 'autograd_tutor\.")  # type(x) of ours, <class 'autograd_tutor.Tensor'>
TIMEOUT = 300  # seconds for one run of one program (each runs in about a second under torch on a quiet machine)
WORKERS = 3

#: Programs that do not yet print what torch prints, with the first reason (the list of what to fix).
XFAIL: dict = {}


def _kernels():
    """The conformance suite's ``kernels.py``, loaded under the name its harness gives it (one copy is shared)."""
    if "conformance_kernels" not in sys.modules:
        spec = importlib.util.spec_from_file_location("conformance_kernels", HERE / "conformance" / "kernels.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules.setdefault("conformance_kernels", module)  # only once loaded: the worker threads may ask too
    return sys.modules["conformance_kernels"]


def _environment(ours: bool, setting: str | None = None) -> dict:
    chosen = ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS")
    env = {k: v for k, v in os.environ.items() if k not in chosen}
    if os.environ.get("ATEN_CPU_CAPABILITY") and setting is None:  # a setting chosen from outside is respected
        env.update({k: os.environ[k] for k in chosen if k in os.environ})
    if setting is not None:
        env.update(_kernels().environment(setting))
    path = [str(SHIM), str(ROOT)] if ours else [str(ROOT)]
    env["PYTHONPATH"] = os.pathsep.join(path + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                                                if p and p != str(SHIM)])
    env["PYTHONHASHSEED"] = "0"  # a set printed by a program comes out in one order in every run
    # One thread each: the programs' tensors are far below the sizes where torch splits work between threads (so
    # its numbers are the same), and on a shared machine idle threads spinning would make torch's side ten times slower.
    env.setdefault("OMP_NUM_THREADS", "1")
    env.pop("PYTHONWARNINGS", None)
    return env


def transcript(program: pathlib.Path, ours: bool, setting: str | None = None) -> str:
    """What ``program`` prints, addresses normalised; an error that stops it ends the text with ``!! <error>``."""
    done = subprocess.run([sys.executable, program.name], cwd=PROGRAMS, env=_environment(ours, setting),
                          capture_output=True, text=True, timeout=TIMEOUT)
    text = ADDRESS.sub("0x?", done.stdout)
    if ours:
        text = OUR_CLASS.sub("<class 'torch.", text)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        text += f"!! {ADDRESS.sub('0x?', lines[-1])}\n"
    return text


@functools.cache
def kernel_settings() -> tuple:
    """torch's CPU kernel settings this processor really has (torch falls back from one it lacks)."""
    probe = "import torch; print(torch.backends.cpu.get_cpu_capability().lower())"
    found = []
    for setting in _kernels().SETTINGS:
        done = subprocess.run([sys.executable, "-c", probe], env=_environment(False, setting),
                              capture_output=True, text=True, timeout=TIMEOUT)
        if done.stdout.strip() == setting:
            found.append(setting)
    return tuple(found)


def _program_key(program: pathlib.Path) -> str:
    return hashlib.sha256(program.read_bytes()).hexdigest()[:20]


def elsewhere(program: pathlib.Path) -> list:
    """What torch printed for ``program`` (as it is now) on the other processors of the record, under each of its
    kernel settings there."""
    record = json.loads(ELSEWHERE.read_text()) if ELSEWHERE.exists() else {}
    key, here = _program_key(program), _kernels().processor()
    return [text for name, texts in record.items() if name != here for text in texts.get(key, [])]


def judge(program: pathlib.Path) -> tuple:
    """``(verdict, ours, torch's, detail)``: verdict is 'same', 'spread', 'different' or 'error'."""
    theirs = transcript(program, ours=False)
    ours = transcript(program, ours=True)
    if ours == theirs:
        return "same", ours, theirs, ""
    variants = [theirs] + [transcript(program, ours=False, setting=s) for s in kernel_settings()] + elsewhere(program)
    if ours in variants or _kernels().spread_accepts(ours, variants):
        return "spread", ours, theirs, ""
    mine, their_lines = ours.splitlines(), theirs.splitlines()
    if mine and mine[-1].startswith("!! ") and not (their_lines and their_lines[-1] == mine[-1]):
        return "error", ours, theirs, mine[-1][3:]
    first = next((i for i, (a, b) in enumerate(zip(mine, their_lines)) if a != b), min(len(mine), len(their_lines)))
    ours_line = mine[first] if first < len(mine) else "(nothing)"
    torch_line = their_lines[first] if first < len(their_lines) else "(nothing)"
    return "different", ours, theirs, f"line {first + 1}: ours {ours_line!r}, torch {torch_line!r}"


def programs() -> list:
    return sorted((p for p in PROGRAMS.glob("*.py") if p.name not in ("conftest.py", "__init__.py")),
                  key=lambda p: p.name)


_pool = concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS)
_judged: dict = {}


@pytest.fixture(scope="session")
def judged(request):
    """Judge every selected program, a few at a time, as soon as the first test asks."""
    selected = [item.callspec.params["name"] for item in request.session.items
                if getattr(item, "originalname", None) == "test_program_prints_what_torch_prints"]
    for name in selected:
        if name not in _judged:
            _judged[name] = _pool.submit(judge, PROGRAMS / name)
    return _judged


def _params():
    return [pytest.param(p.name, id=p.stem,
                         marks=[pytest.mark.xfail(strict=True, reason=XFAIL[p.stem])] if p.stem in XFAIL else [])
            for p in programs()]


@pytest.mark.parametrize("name", _params())
def test_program_prints_what_torch_prints(name, judged):
    verdict, ours, theirs, detail = judged[name].result()
    if verdict in ("same", "spread"):
        return
    diff = "".join(difflib.unified_diff(theirs.splitlines(True), ours.splitlines(True), "torch", "autograd_tutor",
                                        n=1))
    pytest.fail(f"{name}: {verdict}: {detail}\n{diff[:3000]}", pytrace=False)


def test_transcripts_of_other_processors_count_for_the_program_as_it_is(tmp_path, monkeypatch):
    """A recorded transcript is a variant on every other processor, and only for the program text it was taken of."""
    program = tmp_path / "p.py"
    program.write_text("print(1)\n")
    record = tmp_path / "torch_elsewhere.json"
    record.write_text(json.dumps({"AMD EPYC": {_program_key(program): ["1.0\n"]}, "Intel(R) Xeon(R)": {}}))
    monkeypatch.setattr(sys.modules[__name__], "ELSEWHERE", record)
    monkeypatch.setattr(_kernels(), "processor", lambda: "AMD EPYC")
    assert elsewhere(program) == []  # this processor's own torch runs live
    monkeypatch.setattr(_kernels(), "processor", lambda: "Intel(R) Xeon(R)")
    assert elsewhere(program) == ["1.0\n"]
    program.write_text("print(2)\n")  # edited: the old record no longer speaks for it
    assert elsewhere(program) == []


def test_every_program_names_its_source_and_imports_torch():
    """A program of the corpus says first which public material it follows, and imports torch."""
    for program in programs():
        text = program.read_text()
        assert text.startswith("# Source: after "), f"{program.name}: the first line must name its source"
        assert re.search(r"^import torch$", text, re.M), f"{program.name}: must `import torch`"


def test_shim_resolves_torch_to_autograd_tutor():
    probe = ("import torch, torch.nn as nn, torch.nn.functional as F\n"
             "from torch import optim\nfrom torch.utils.data import DataLoader\nimport autograd_tutor\n"
             "print(torch is autograd_tutor, nn is autograd_tutor.nn, F is autograd_tutor.nn.functional,"
             " optim is autograd_tutor.optim, DataLoader is autograd_tutor.utils.data.DataLoader)\n"
             "try:\n    import torch.no_such_module\nexcept ModuleNotFoundError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", probe], env=_environment(True), capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.stdout == "True True True True True\nNo module named 'torch.no_such_module'\n", done.stderr


def record(names: list | None = None) -> None:
    """Write what torch prints here for every program (or only the ``names`` given: the others' record here is
    kept), under each kernel setting, to ``torch_elsewhere.json``."""
    def variants(program):
        texts = [transcript(program, ours=False)] + [transcript(program, ours=False, setting=s)
                                                     for s in kernel_settings()]
        return sorted(set(texts))
    chosen = [p for p in programs() if not names or p.name in names or p.stem in names]
    found = dict(zip((_program_key(p) for p in chosen), _pool.map(variants, chosen)))
    saved = json.loads(ELSEWHERE.read_text()) if ELSEWHERE.exists() else {}
    kept = saved.get(_kernels().processor(), {}) if names else {}
    found = saved[_kernels().processor()] = {**kept, **found}
    ELSEWHERE.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")
    print(f"torch on {_kernels().processor()}: {len(found)} programs, {sum(map(len, found.values()))} transcripts, "
          f"written to {ELSEWHERE.name}")


def main() -> None:
    """Print the triage of the whole corpus."""
    if sys.argv[1:2] == ["--record"]:
        return record(sys.argv[2:])
    counts: dict = {}
    futures = {p.name: _pool.submit(judge, p) for p in programs()}
    for name, future in futures.items():
        verdict, _, _, detail = future.result()
        counts[verdict] = counts.get(verdict, 0) + 1
        print(f"{verdict:9s} {name:40s} {detail}")
    print(", ".join(f"{counts.get(v, 0)} {v}" for v in ("same", "spread", "different", "error")),
          f"of {len(futures)} programs")


if __name__ == "__main__":
    main()
