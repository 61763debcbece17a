"""Torch's answer on other processors: its kernel settings, run side by side, and the rule that judges us by them.

Torch picks its CPU kernels by processor (``ATEN_CPU_CAPABILITY``: default, avx2, avx512; oneDNN by
``ONEDNN_MAX_CPU_ISA``; its BLAS, MKL, by ``MKL_ENABLE_INSTRUCTIONS``), and their last bits differ: softmax of
1,000 numbers under avx2 and avx512, gelu's oneDNN erf, ``torch.sin(x).sum()`` under default and avx2, a small
matmul's sums under MKL's AVX2 and AVX-512 code. So torch's transcript of a program is not one text
but a set of them, one per kind of processor, and the harness accepts ours when it is one torch itself prints.

The set is measured, never guessed:

* **live**: the program's torch side runs again in one worker process per kernel setting that this processor
  has (the worker is started with the setting in its environment and says which kernels torch really picked);
* **recorded**: ``kernel_variants.json`` keeps, for each case whose transcript differs between torch's kernels,
  what each setting printed on an x86 machine that has all three (``python tests/conformance/kernels.py --record``
  writes it), so a machine without them (an ARM laptop) still knows what x86 torch prints;
* **elsewhere**: MKL also follows the processor's *maker*, which no setting varies (on an AMD EPYC it sums small
  float32 products in plain sequence, on an Intel Xeon otherwise). ``torch_elsewhere.json`` keeps, per processor
  model, what torch printed there under each setting for every case that calls MKL (its BLAS: ``mm``, ``addmm``,
  ``bmm``, ...; its vector math: ``tanh``, ``sin``, ...; found by watching torch's dispatcher while recording);
  those transcripts count on every other processor. ``--record`` adds this processor's and keeps the others'.

A line of ours passes when it equals the same line of one variant; where the variants' numbers differ, a number
of ours passes inside their spread taken once more on either side (a processor nobody measured may land as far
again), and every digit the variants agree on must agree exactly: where torch's answer does not depend on the
processor, we match it exactly.

>>> spread_accepts("x 1.5 y", ["x 1.5 y"])
True
>>> measured = ["0.1234 nan", "0.1236 nan"]
>>> spread_accepts("0.1235 nan", measured), spread_accepts("0.1239 nan", measured)
(True, False)
>>> spread_accepts("1.0 2.0", ["1.0 2.5", "1.0 2.6"])  # 2.0 is outside 2.5 .. 2.6 widened by 0.1
False
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import pathlib
import pickle
import re
import subprocess
import sys

import numpy as np

#: torch's kernel settings, each with the oneDNN instruction set that goes with it.
SETTINGS = {"default": "SSE41", "avx2": "AVX2", "avx512": "AVX512_CORE"}
#: ... and MKL's: a processor with only AVX2 runs all three libraries at that level.
MKL = {"default": "SSE4_2", "avx2": "AVX2", "avx512": "AVX512"}


def environment(setting: str) -> dict:
    """The environment variables that make torch run as on a processor of ``setting``.

    >>> environment("avx2")
    {'ATEN_CPU_CAPABILITY': 'avx2', 'ONEDNN_MAX_CPU_ISA': 'AVX2', 'MKL_ENABLE_INSTRUCTIONS': 'AVX2'}
    """
    return {"ATEN_CPU_CAPABILITY": setting, "ONEDNN_MAX_CPU_ISA": SETTINGS[setting],
            "MKL_ENABLE_INSTRUCTIONS": MKL[setting]}
RECORD = pathlib.Path(__file__).with_name("kernel_variants.json")
ELSEWHERE = pathlib.Path(__file__).with_name("torch_elsewhere.json")
#: torch's operators that call MKL, whose answers follow the processor's maker: the BLAS (sums of products), and
#: the elementwise functions ATen hands to MKL's vector math (VML) on contiguous float tensors.
MKL_OPS = frozenset({"mm", "addmm", "bmm", "baddbmm", "addbmm", "mv", "addmv", "dot", "vdot", "addr", "matmul",
                     "tanh", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "erf", "erfc", "erfinv",
                     "expm1", "log1p", "log2", "log10", "lgamma"})
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?|nan|inf)")


def case_key(program: str) -> str:
    """The record's key for a program: a hash of its text, so an edited case is measured again."""
    return hashlib.sha256(program.encode()).hexdigest()[:20]


def _line_accepts(ours: str, lines: list) -> bool:
    if ours in lines:
        return True
    skeleton = NUMBER.sub("#", ours)
    alike = [NUMBER.findall(line) for line in lines if NUMBER.sub("#", line) == skeleton]
    if len(alike) < 2:
        return False  # no other processor printed this line differently: no spread to allow
    for mine, theirs in zip(NUMBER.findall(ours), zip(*alike)):
        if mine in theirs:
            continue
        values = [float(t) for t in theirs]
        if not all(abs(v) < float("inf") for v in values + [float(mine)]):
            return False  # nan and inf are matched as printed
        low, high = min(values), max(values)
        if not low - (high - low) <= float(mine) <= high + (high - low) or low == high:
            return False
    return True


def spread_accepts(ours: str, variants: list) -> bool:
    """Is transcript ``ours`` what torch prints on some processor, line by line, within the measured spread?"""
    if ours in variants:
        return True
    mine = ours.splitlines()
    split = [v.splitlines() for v in variants if len(v.splitlines()) == len(mine)]
    return bool(split) and all(_line_accepts(line, [v[i] for v in split]) for i, line in enumerate(mine))


def recorded(program: str) -> dict:
    """``{setting: (transcript, values)}`` as measured for ``program`` where the settings differ, else ``{}``."""
    if not RECORD.exists():
        return {}
    entry = json.loads(RECORD.read_text()).get(case_key(program), {"torch": {}})
    return {setting: (text, [np.array(v["data"], dtype=v["dtype"]).reshape(v["shape"]) for v in values])
            for setting, (text, values) in entry["torch"].items()}


def processor() -> str:
    """This processor's model as the kernel names it (``AMD EPYC``, ``Intel(R) Xeon(R) ...``), or ``unknown``."""
    try:
        found = re.search(r"^model name\s*:\s*(.+)$", pathlib.Path("/proc/cpuinfo").read_text(), re.M)
    except OSError:
        return "unknown"
    return found.group(1).strip() if found else "unknown"


def elsewhere(program: str) -> list:
    """The transcripts torch printed for ``program`` on the other processors of ``torch_elsewhere.json``."""
    if not ELSEWHERE.exists():
        return []
    key, here = case_key(program), processor()
    return [text for name, cases in json.loads(ELSEWHERE.read_text()).items() if name != here
            for text in cases.get(key, [])]


def calls_mkl(torch, run) -> bool:
    """Does ``run()`` make torch call MKL (forward or backward)? Watched at torch's dispatcher."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Watch(TorchDispatchMode):
        seen = False

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            Watch.seen |= func.overloadpacket.__name__ in MKL_OPS
            return func(*args, **(kwargs or {}))

    with Watch():
        run()
    return Watch.seen


def relative_spread(texts: list) -> float:
    """The largest relative difference between the numbers that the same line prints in ``texts``."""
    widest = 0.0
    for lines in zip(*(t.splitlines() for t in texts)):
        for numbers in zip(*(NUMBER.findall(line) for line in lines)):
            values = [float(n) for n in numbers if n.lstrip("+-") not in ("nan", "inf")]
            if len(values) == len(numbers) and max(values) != min(values):
                widest = max(widest, (max(values) - min(values)) / max(abs(v) for v in values))
    return widest


class Worker:
    """One process running torch under one kernel setting; ``transcript(program)`` as the harness makes it."""

    def __init__(self, setting: str) -> None:
        # The same string hashes in every worker, so a set printed in a message is in one order in all of them.
        env = dict(os.environ, **environment(setting), PYTHONHASHSEED=os.environ.get("PYTHONHASHSEED", "0"))
        self.process = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env)
        self.capability = pickle.load(self.process.stdout)  # what torch really picked on this processor

    def transcript(self, program: str) -> tuple:
        pickle.dump(program, self.process.stdin)
        self.process.stdin.flush()
        return pickle.load(self.process.stdout)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


_workers: dict = {}


def live_variants(program: str) -> dict:
    """``{setting: (transcript, values)}`` for every kernel setting this processor really has."""
    if not _workers:
        for setting in SETTINGS:
            worker = Worker(setting)
            if worker.capability.lower() == setting:
                _workers[setting] = worker
            else:
                worker.close()  # asked for kernels this processor lacks: torch fell back to another setting
    return {setting: worker.transcript(program) for setting, worker in _workers.items()}


def close_workers() -> None:
    for worker in _workers.values():
        worker.close()
    _workers.clear()


atexit.register(close_workers)


def _harness():
    import importlib.util
    spec = importlib.util.spec_from_file_location("conformance_harness",
                                                  pathlib.Path(__file__).with_name("conftest.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _serve() -> None:
    """The worker's loop: programs in on stdin, ``(transcript, values)`` out; the program's own output to stderr."""
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    import torch
    harness = _harness()
    harness._prime(torch)
    pickle.dump(torch.backends.cpu.get_cpu_capability(), channel)
    channel.flush()
    while True:
        try:
            program = pickle.load(sys.stdin.buffer)
        except EOFError:
            return
        pickle.dump(harness._transcript(torch, program), channel)
        channel.flush()


#: Set by ``python tests/conformance/kernels.py --record``: every case is measured under every setting.
RECORDING = os.environ.get("CONFORMANCE_RECORD_KERNELS") == "1"
_measured: dict = {}
_here: dict = {}  # while recording: case key -> this processor's transcripts, for the cases that call MKL


def note(program: str, variants: dict, differ, ours: str, mkl: bool = False) -> None:
    """While recording, keep what each setting gave for a case whose torch side differs between them, and every
    transcript of a case that calls MKL (``mkl``)."""
    measured = {setting: variant for setting, variant in variants.items() if setting in SETTINGS}
    if RECORDING and mkl:
        _here[case_key(program)] = sorted({text for text, _ in variants.values()})
    first = next(iter(measured.values()))
    if RECORDING and any(t != first[0] or differ(v, first[1]) for t, v in measured.values()):
        _measured[case_key(program)] = {
            "case": os.environ.get("PYTEST_CURRENT_TEST", "? (call)").rsplit(" ", 1)[0],
            "program": program,
            "ours equals": [setting for setting, (text, _) in measured.items() if text == ours],
            "torch": {setting: (text, [{"dtype": str(a.dtype), "shape": list(a.shape), "data": a.ravel().tolist()}
                                       for a in values])
                      for setting, (text, values) in measured.items()}}


def _record() -> int:
    """Run the conformance suites with every case measured under every kernel setting; write the record and
    print, for each case where torch's kernels differ, by how much (relative) and which of them ours equals."""
    if os.environ.get("PYTHONHASHSEED") != "0":  # as in the workers: a set in a message prints in one order
        os.execve(sys.executable, [sys.executable, *sys.argv], dict(os.environ, PYTHONHASHSEED="0"))
    import pytest
    here = pathlib.Path(__file__).parent
    os.environ["CONFORMANCE_RECORD_KERNELS"] = "1"
    status = 0
    for suite in (here, here.parent / "conformance_nn"):  # one at a time: both have a conftest.py
        sys.modules.pop("conftest", None)
        status |= pytest.main(["-q", "-p", "no:cacheprovider", str(suite)])
    shared = sys.modules["conformance_kernels"]  # the copy the harness loaded, not this __main__
    RECORD.write_text(json.dumps(shared._measured, indent=1, sort_keys=True) + "\n")
    others = json.loads(ELSEWHERE.read_text()) if ELSEWHERE.exists() else {}
    others[processor()] = shared._here
    ELSEWHERE.write_text(json.dumps(others, indent=1, sort_keys=True) + "\n")
    print(f"{len(shared._here)} cases call MKL: their transcripts on {processor()} written to {ELSEWHERE}")
    print(f"{len(shared._measured)} cases differ between torch's kernel settings ({', '.join(shared._workers)}); "
          f"written to {RECORD}")
    for entry in shared._measured.values():
        texts = [text for text, _ in entry["torch"].values()]
        print(f"  {entry['case'].partition('::')[2][:80]:80}  torch's spread {relative_spread(texts):.1e}  "
              f"ours = {', '.join(entry['ours equals']) or 'none (within the spread)'}")
    shared.close_workers()
    return int(status)


def _list() -> None:
    """Print the kernel settings this processor has, with the oneDNN and MKL setting of each (for tests/suite.sh)."""
    live_variants("pass")
    print(" ".join(f"{setting}:{SETTINGS[setting]}:{MKL[setting]}" for setting in _workers))


if __name__ == "__main__":
    commands = {"--serve": _serve, "--list": _list, "--record": _record}
    sys.exit(commands[sys.argv[1]]() if sys.argv[1:] and sys.argv[1] in commands else
             "usage: kernels.py --record | --list | --serve")
