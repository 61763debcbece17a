"""``benchmarks/training_loops.py --repeats 1`` runs to the end: every training program's ``main()`` runs under torch
and under autograd_tutor, and the table has a row with a ratio for each. No timing is asserted."""
import pathlib
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")
SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "training_loops.py"


def test_training_loop_benchmark_times_every_program():
    out = subprocess.run([sys.executable, str(SCRIPT), "--repeats", "1"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    rows = re.findall(r"^(\w+\.py) +\d+\.\d+ +\d+\.\d+ +\d+\.\d+x ", out.stdout, re.M)
    assert len(rows) == 6 and all((SCRIPT.parent.parent / "tests" / "programs" / r).exists() for r in rows), out.stdout
    assert re.search(r"^start-up \(import torch, best of 3\): torch \d+\.\d+ s, autograd_tutor \d+\.\d+ s$",
                     out.stdout, re.M), out.stdout
