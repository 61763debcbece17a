"""How fast do real training loops run? The corpus's training programs, under torch and under autograd_tutor.

Run:  .venv/bin/python benchmarks/training_loops.py            (about a minute on a quiet machine)
      .venv/bin/python benchmarks/training_loops.py --repeats 1
      .venv/bin/python benchmarks/training_loops.py --cpu-time  (CPU time instead of wall time, on a busy machine)

Each program of ``tests/programs/`` listed below keeps its training loop in a ``main()`` function. One subprocess
per side imports the program as a module (so ``main()`` does not run at import), with ``torch`` resolved either to
torch or to autograd_tutor (the shim ``tests/programs/_shim``), and times ``main()`` alone with its output thrown
away: start-up (importing torch, building the data at module level) is left out. The time is the best (min) of
``--repeats`` calls after one warm-up call; the two sides take turns program by program. Both run one thread
(``OMP_NUM_THREADS=1``, ``OPENBLAS_NUM_THREADS=1``): the tensors are small, and on a shared machine spare threads
only spin. The ratio is autograd_tutor's time over torch's. The start-up itself (``import torch``) is printed too.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"
SHIM = PROGRAMS / "_shim"

#: program -> what its main() trains
TRAINING = {
    "course_mlp_adam_moons.py": "2-32-32-2 ReLU MLP, Adam, 200 minibatch steps",
    "course_char_lm.py": "character-level RNN language model, Adam, 60 steps of 8 x 16 characters",
    "karpathy_makemore_mlp.py": "makemore MLP (embedding, tanh, cross-entropy), 300 SGD steps, then sampling",
    "blitz_classifier_synthetic.py": "small CNN (2 conv, 2 pool, 2 linear), SGD with momentum, 3 epochs",
    "course_logistic_regression.py": "logistic regression, BCELoss, 100 full-batch SGD steps",
    "lpwe_custom_module.py": "cubic polynomial module on 2,000 points, 600 SGD steps",
}

TIMER = r"""
import contextlib, importlib.util, io, sys, time
spec = importlib.util.spec_from_file_location("program", sys.argv[1])
module = importlib.util.module_from_spec(spec)
with contextlib.redirect_stdout(io.StringIO()):
    spec.loader.exec_module(module)
    module.main()  # warm-up
    best = float("inf")
    clock = getattr(time, sys.argv[3])
    for _ in range(int(sys.argv[2])):
        start = clock()
        module.main()
        best = min(best, clock() - start)
print(best)
"""
STARTUP = "import time; start = time.perf_counter(); import torch; print(time.perf_counter() - start)"


def environment(ours: bool) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join([str(SHIM), str(ROOT)] if ours else [str(ROOT)])
    return env


def seconds(args: list, ours: bool) -> float:
    done = subprocess.run([sys.executable, *args], cwd=PROGRAMS, env=environment(ours), capture_output=True,
                          text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed calls of main() per program and side")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with time.process_time (the CPU time of each side's process) instead of "
                             "time.perf_counter, for a machine busy with other work")
    cfg = parser.parse_args()
    clock = "process_time" if cfg.cpu_time else "perf_counter"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"training loops: best of {cfg.repeats} calls of main(), one thread each, {clock}; "
          f"load average {load:.2f} on {os.cpu_count()} CPUs")
    print(f"{'program':32s} {'torch s':>8s} {'ours s':>8s} {'ratio':>6s}  what it trains")
    ratios = []
    for name, what in TRAINING.items():
        args = ["-c", TIMER, str(PROGRAMS / name), str(cfg.repeats), clock]
        theirs = seconds(args, ours=False)
        ours = seconds(args, ours=True)
        ratios.append(ours / theirs)
        print(f"{name:32s} {theirs:8.3f} {ours:8.3f} {ours / theirs:5.2f}x  {what}")
    print(f"ratio range {min(ratios):.2f}x .. {max(ratios):.2f}x (autograd_tutor's compute time over torch's)")
    startup = [min(seconds(["-c", STARTUP], ours=side) for _ in range(3)) for side in (False, True)]
    print(f"start-up (import torch, best of 3): torch {startup[0]:.2f} s, autograd_tutor {startup[1]:.2f} s")


if __name__ == "__main__":
    main()
