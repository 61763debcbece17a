"""``benchmarks/engine.py --quick`` runs to the end: every workload computes, every implementation agrees.

No timing is asserted (the machine decides those); the script itself asserts that autograd_tutor, torch,
micrograd and hand-written NumPy reach the same losses and gradients before it times anything.
"""
import pathlib
import re
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "engine.py"


def test_quick_benchmark_runs_and_prints_its_tables():
    out = subprocess.run([sys.executable, str(SCRIPT), "--quick"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert len(re.findall(r"^implementation +us/run +us/op +x torch +x numpy$", out.stdout, re.M)) == 3, out.stdout
    for title in ("1. scalar chain", "2. MLP 2-16-16-1", "3. 200 layers", "4. event overhead", "targets"):
        assert title in out.stdout, out.stdout
    assert out.stdout.count("checked: ") == 3, out.stdout
