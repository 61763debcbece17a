"""How fast is the autograd_tutor engine? Side by side with torch, micrograd and hand-written NumPy.

Run:  .venv/bin/python benchmarks/engine.py               (under a minute on a quiet machine)
      .venv/bin/python benchmarks/engine.py --quick       (a smoke run: same work, one timed repeat)
      .venv/bin/python benchmarks/engine.py --cpu-time    (CPU time instead of wall time, on a busy machine)

Four measurements, all in this one process:

1. a chain of 2,000 scalar ops (mul, add, tanh, mul, ...) on 0-dim tensors, forward + backward;
2. one training step of a 2-16-16-1 tanh MLP (MSE loss, batch 64, SGD written with tensor ops under no_grad);
3. 200 layers of ``h = tanh(h @ W_i)`` at 64x64 (batch 64), forward + backward;
4. the same three in autograd_tutor with a subscriber recording every event, against the bare engine.

Before timing, every implementation runs the workload once from the same numbers and the script asserts that
losses and gradients agree (to a stated tolerance: the engines compute in float32, micrograd and Python in
float64). Each time is the best (min) over R repeats of N back-to-back runs after W warm-up runs, measured with
``time.perf_counter``; the implementations take turns repeat by repeat, and, as in ``timeit``, the garbage
collector is off inside a timed repeat (one extra row shows autograd_tutor's scalar chain with it on).
Microseconds per op are the time of a run divided by the graph operations it records.

NumPy's BLAS reads ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` when NumPy is imported, so the effect of those
variables can only be seen across two runs: run the script once as is and once under
``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE``. The header prints the variables, the BLAS kernel NumPy chose,
the thread count given to both NumPy and torch (``--threads``, default 1) and the machine's load.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import glob
import math
import os
import platform
import sys
import time

import numpy as np

import autograd_tutor as at
from autograd_tutor import events

try:
    import torch
except ImportError:
    torch = None
try:
    from micrograd.engine import Value
except ImportError:
    Value = None

HEADER = f"{'implementation':<44}{'us/run':>12}{'us/op':>10}{'x torch':>10}{'x numpy':>10}"
CHAIN_OPS = 2000
CHAIN_X, CHAIN_A, CHAIN_B = 0.5, 1.001, -0.001  # keeps tanh's derivative near 1, so dx stays well above underflow
MLP_SIZES, BATCH, LR = (2, 16, 16, 1), 64, 0.1
DEEP_LAYERS, WIDTH = 200, 64


# ---------------------------------------------------------------------------------------------- environment
def _openblas():
    """NumPy's bundled OpenBLAS as ``(library, name prefix, name suffix)``, or None (then nothing is checked)."""
    for path in glob.glob(os.path.join(os.path.dirname(np.__file__) + ".libs", "*openblas*")):
        lib = ctypes.CDLL(path)
        for prefix, suffix in (("scipy_openblas", "64_"), ("scipy_openblas", ""), ("openblas", "64_"),
                               ("openblas", "")):
            if hasattr(lib, f"{prefix}_get_corename{suffix}"):
                return lib, prefix, suffix
    return None


def set_threads(n: int) -> None:
    """Give NumPy's OpenBLAS and torch the same thread count ``n`` (what threadpoolctl does, without it)."""
    found = _openblas()
    if found is not None:
        lib, prefix, suffix = found
        getattr(lib, f"{prefix}_set_num_threads{suffix}")(n)
    if torch is not None:
        torch.set_num_threads(n)


def describe_environment(cfg) -> list:
    lines = [f"python {platform.python_version()}, numpy {np.__version__}, "
             f"torch {torch.__version__ if torch else '(not installed)'}, "
             f"micrograd {'installed' if Value else '(not installed)'}, CPU count {os.cpu_count()}"]
    env = ", ".join(f"{k}={os.environ.get(k, '<unset>')}" for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
                                                                   "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"))
    lines.append(f"env: {env}")
    if any(k in os.environ for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")):
        lines.append("  (NumPy read these at import: compare with a run under "
                     "`env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE`)")
    found = _openblas()
    if found is None:
        lines.append("numpy BLAS: not a bundled OpenBLAS, kernel and threads not checked")
    else:
        lib, prefix, suffix = found
        corename = getattr(lib, f"{prefix}_get_corename{suffix}")
        corename.restype = ctypes.c_char_p
        lines.append(f"numpy BLAS: OpenBLAS, core {corename().decode()}, "
                     f"{getattr(lib, f'{prefix}_get_num_threads{suffix}')()} thread(s)")
    if torch is not None:
        blas = "MKL" if "BLAS_INFO=mkl" in torch.__config__.show() else "see torch.__config__.show()"
        lines.append(f"torch: {torch.get_num_threads()} thread(s), BLAS {blas}")
    lines.append(f"threads: --threads {cfg.threads} for both NumPy and torch (two thread pools in one process "
                 "spin-wait for cores: with more threads than CPUs, torch's 64x64 matmuls slow down several-fold)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    lines.append(f"timing: time.{cfg.clock.__name__}; best (min) of R repeats of N back-to-back runs after W "
                 "warm-up runs;")
    lines.append("  implementations take turns repeat by repeat; gc collected before and disabled during each repeat "
                 "(as timeit), with the objects of the imports frozen (gc.freeze)"
                 + ("; --quick: one repeat, timings are rough" if cfg.quick else ""))
    lines.append(f"load average at start: {load:.2f} on {os.cpu_count()} CPUs"
                 + (" -- a busy machine: wall-clock times are inflated; --cpu-time measures CPU time instead"
                    if load > (os.cpu_count() or 1) / 2 and cfg.clock is time.perf_counter else ""))
    return lines


# ---------------------------------------------------------------------------------------------- timing and checks
def best_times(runs: dict, repeats: int, number: int, warmup: int, clock, gc_on: tuple = ()) -> dict:
    """Seconds per call of each ``run``: the minimum over ``repeats`` of the mean of ``number`` back-to-back calls.

    The runs take turns (one repeat each per round, starting one further along every round), so a noisy spell
    of the machine hits all of them alike and none always follows the same neighbour. As ``timeit`` does, the
    garbage collector runs before each repeat and is off during it, except for the names in ``gc_on``.
    """
    for run in runs.values():
        for _ in range(warmup):
            run()
    names = list(runs)
    best = dict.fromkeys(names, math.inf)
    for r in range(repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            run = runs[name]
            gc.collect()
            if name not in gc_on:
                gc.disable()
            try:
                start = clock()
                for _ in range(number):
                    run()
                best[name] = min(best[name], (clock() - start) / number)
            finally:
                gc.enable()
    return best


def check_agree(label: str, results: dict, reference: str, rtol: float, atol: float) -> str:
    """Assert every implementation's numbers match the reference's; return a one-line note of what was checked."""
    ref = results[reference]
    for impl, values in results.items():
        assert values.keys() == ref.keys(), (impl, values.keys(), ref.keys())
        for key, want in ref.items():
            np.testing.assert_allclose(np.asarray(values[key], np.float64), np.asarray(want, np.float64),
                                       rtol=rtol, atol=atol, err_msg=f"{label}: {impl} disagrees on {key}")
    return (f"checked: {', '.join(sorted(ref))} agree across {len(results)} implementations "
            f"(vs {reference}, rtol={rtol:g}, atol={atol:g})")


class Table:
    """One workload's rows (name, seconds per run, role "torch"/"numpy"/"", note), printed with us/op and ratios."""

    def __init__(self, title: str, ops: int, op_note: str) -> None:
        self.title, self.ops, self.op_note, self.rows = title, ops, op_note, []

    def add(self, name: str, seconds: float, role: str = "", note: str = "") -> None:
        self.rows.append((name, seconds, role, note))

    def seconds(self, role: str):
        return next((s for _, s, r, _ in self.rows if r == role), None)

    def lines(self) -> list:
        torch_s, numpy_s = self.seconds("torch"), self.seconds("numpy")
        out = [self.title, f"  ({self.ops} ops per run: {self.op_note})", HEADER]
        for name, s, role, note in self.rows:
            vs_torch = f"{s / torch_s:.2f}" if torch_s else "-"
            vs_numpy = f"{s / numpy_s:.2f}" if numpy_s else "-"
            out.append(f"{name:<44}{s * 1e6:>12.1f}{s * 1e6 / self.ops:>10.2f}{vs_torch:>10}{vs_numpy:>10}"
                       + (f"   {note}" if note else ""))
        return out


# ---------------------------------------------------------------------------------------------- 1. scalar chain
def chain_tensors(lib, n: int):
    """autograd_tutor or torch: ``h = h*a``, ``h = h+b``, ``h = tanh(h)``, repeated; backward from the end."""
    x, a, b = (lib.tensor(v, requires_grad=True) for v in (CHAIN_X, CHAIN_A, CHAIN_B))

    def run():
        x.grad = a.grad = b.grad = None
        h = x
        for i in range(n):
            k = i % 3
            h = h * a if k == 0 else h + b if k == 1 else h.tanh()
        h.backward()

    def read():
        return {"dx": x.grad.item(), "da": a.grad.item(), "db": b.grad.item()}
    return run, read


def micrograd_tanh(v):
    """tanh for micrograd's Value, in micrograd's own style (PyPI micrograd 0.1.0 has relu but no tanh)."""
    t = math.tanh(v.data)
    out = Value(t, (v,), "tanh")

    def _backward():
        v.grad += (1 - t * t) * out.grad
    out._backward = _backward
    return out


def chain_micrograd(n: int):
    x, a, b = Value(CHAIN_X), Value(CHAIN_A), Value(CHAIN_B)

    def run():
        x.grad = a.grad = b.grad = 0
        h = x
        for i in range(n):
            k = i % 3
            h = h * a if k == 0 else h + b if k == 1 else micrograd_tanh(h)
        h.backward()

    def read():
        return {"dx": x.grad, "da": a.grad, "db": b.grad}
    return run, read


def chain_by_hand(n: int, tanh, x, a, b):
    """Hand-written forward that keeps each op's input, then the chain rule by hand, backwards."""
    grads = {}

    def run():
        hs = [x]
        h = x
        for i in range(n):
            k = i % 3
            h = h * a if k == 0 else h + b if k == 1 else tanh(h)
            hs.append(h)
        g, da, db = 1.0, 0.0, 0.0
        for i in range(n - 1, -1, -1):
            k = i % 3
            if k == 0:
                da += g * hs[i]
                g = g * a
            elif k == 1:
                db += g
            else:
                t = hs[i + 1]
                g = g * (1 - t * t)
        grads.update(dx=g, da=da, db=db)

    def read():
        return {k: float(v) for k, v in grads.items()}
    return run, read


def bench_chain(cfg) -> tuple:
    n = CHAIN_OPS
    impls = {"autograd_tutor": chain_tensors(at, n), "autograd_tutor, gc on": chain_tensors(at, n)}
    if torch is not None:
        impls["torch"] = chain_tensors(torch, n)
    notes = {"autograd_tutor, gc on": "(the collector left on during the timed runs)"}
    if Value is not None:
        limit = max(sys.getrecursionlimit(), n + 1000)
        notes["micrograd"] = f"(its recursive build_topo: recursion limit {sys.getrecursionlimit()} -> {limit})"
        sys.setrecursionlimit(limit)
        impls["micrograd"] = chain_micrograd(n)
    f32 = np.float32
    impls["numpy float32 scalars, hand backprop"] = chain_by_hand(n, np.tanh, f32(CHAIN_X), f32(CHAIN_A),
                                                                  f32(CHAIN_B))
    impls["python floats, hand backprop"] = chain_by_hand(n, math.tanh, CHAIN_X, CHAIN_A, CHAIN_B)

    results = {}
    for name, (run, read) in impls.items():
        run()
        results[name] = read()
    checked = check_agree("scalar chain", results, "python floats, hand backprop", rtol=2e-3, atol=1e-9)

    r, number = cfg.chain
    table = Table(f"1. scalar chain, forward + backward  [W={cfg.warmup}, R={r}, N={number}]",
                  n, "mul, add, tanh repeated on 0-dim tensors; us/op = us/run / 2000")
    runs = {name: run for name, (run, _) in impls.items()}
    times = best_times(runs, r, number, cfg.warmup, cfg.clock, gc_on=("autograd_tutor, gc on",))
    roles = {"torch": "torch", "numpy float32 scalars, hand backprop": "numpy"}
    for name in impls:
        table.add(name, times[name], roles.get(name, ""), notes.get(name, ""))
    return table, checked


# ---------------------------------------------------------------------------------------------- 2. MLP step
def mlp_data():
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, (BATCH, MLP_SIZES[0])).astype(np.float32)
    y = (np.sin(x[:, :1]) * np.cos(x[:, 1:])).astype(np.float32)
    params = []
    for fan_in, fan_out in zip(MLP_SIZES[:-1], MLP_SIZES[1:]):
        params.append((rng.standard_normal((fan_in, fan_out)) / math.sqrt(fan_in)).astype(np.float32))
        params.append((0.1 * rng.standard_normal(fan_out)).astype(np.float32))
    return x, y, params


def mlp_tensors(lib):
    """``loss = mean((tanh(tanh(x@W1+b1)@W2+b2)@W3+b3 - y)**2)``, backward, then ``p -= lr * p.grad``."""
    x, y, init = mlp_data()
    x, y = lib.tensor(x), lib.tensor(y)
    params = [lib.tensor(p, requires_grad=True) for p in init]
    state = {}

    def run():
        w1, b1, w2, b2, w3, b3 = params
        h = (x @ w1 + b1).tanh()
        h = (h @ w2 + b2).tanh()
        loss = ((h @ w3 + b3 - y) ** 2).mean()
        for p in params:
            p.grad = None
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= LR * p.grad
        state["loss"] = loss

    def read():
        out = {"loss": state["loss"].item()}
        for i, p in enumerate(params):
            out[f"grad{i}"] = p.grad.numpy()
            out[f"param{i}"] = p.detach().numpy()
        return out
    return run, read


def mlp_numpy():
    """The same step with the backward pass derived by hand."""
    x, y, params = mlp_data()
    state = {}

    def run():
        w1, b1, w2, b2, w3, b3 = params
        h1 = np.tanh(x @ w1 + b1)
        h2 = np.tanh(h1 @ w2 + b2)
        d = h2 @ w3 + b3 - y
        loss = (d * d).mean()
        g = d * (2 / d.size)
        gw3, gb3 = h2.T @ g, g.sum(0)
        g = (g @ w3.T) * (1 - h2 * h2)
        gw2, gb2 = h1.T @ g, g.sum(0)
        g = (g @ w2.T) * (1 - h1 * h1)
        gw1, gb1 = x.T @ g, g.sum(0)
        grads = (gw1, gb1, gw2, gb2, gw3, gb3)
        for p, gp in zip(params, grads):
            p -= LR * gp
        state.update(loss=loss, grads=grads)

    def read():
        out = {"loss": float(state["loss"])}
        for i, (p, g) in enumerate(zip(params, state["grads"])):
            out[f"grad{i}"], out[f"param{i}"] = g, p
        return out
    return run, read


def mlp_micrograd():
    """The same step on micrograd scalars: every weight and every activation is one Value."""
    x, y, init = mlp_data()
    x, y = x.astype(float).tolist(), y[:, 0].astype(float).tolist()
    params = [[Value(float(v)) for v in p.ravel()] for p in init]
    shapes = [p.shape for p in init]
    state = {}

    def layer(h, w, b, fan_out, act):
        outs = []
        for j in range(fan_out):
            z = b[j]
            for i, hi in enumerate(h):
                z = z + hi * w[i * fan_out + j]
            outs.append(micrograd_tanh(z) if act else z)
        return outs

    def run():
        w1, b1, w2, b2, w3, b3 = params
        loss = Value(0.0)
        for xs, ys in zip(x, y):
            h = layer(xs, w1, b1, MLP_SIZES[1], True)
            h = layer(h, w2, b2, MLP_SIZES[2], True)
            d = layer(h, w3, b3, MLP_SIZES[3], False)[0] - ys
            loss = loss + d * d
        loss = loss * (1 / len(x))
        for p in params:
            for v in p:
                v.grad = 0
        loss.backward()
        for p in params:
            for v in p:
                v.data -= LR * v.grad
        state["loss"] = loss

    def read():
        out = {"loss": state["loss"].data}
        for i, (p, shape) in enumerate(zip(params, shapes)):
            out[f"grad{i}"] = np.array([v.grad for v in p]).reshape(shape)
            out[f"param{i}"] = np.array([v.data for v in p]).reshape(shape)
        return out
    return run, read


def micrograd_mlp_ops() -> int:
    """The Values micrograd creates in one step (43,267 for 2-16-16-1 and a batch of 64).

    A neuron with n inputs makes n products, n sums and (hidden layers) a tanh; each product of a plain float
    input wraps it in a Value first; per sample the loss adds 4 (y wrapped, out - y, its square, the running
    sum), and the step 3 (the Value(0) to start the sum, 1/64 wrapped, the product).
    """
    layers = list(zip(MLP_SIZES[:-1], MLP_SIZES[1:]))
    per_sample = sum(fan_out * (2 * fan_in + (i < len(layers) - 1)) for i, (fan_in, fan_out) in enumerate(layers))
    return BATCH * (per_sample + MLP_SIZES[0] * MLP_SIZES[1] + 4) + 3


def bench_mlp(cfg) -> tuple:
    impls = {"autograd_tutor": mlp_tensors(at)}
    if torch is not None:
        impls["torch"] = mlp_tensors(torch)
    impls["numpy float32, hand backprop"] = mlp_numpy()
    if Value is not None:
        impls["micrograd"] = mlp_micrograd()
    results = {}
    for name, (run, read) in impls.items():
        run()
        results[name] = read()
    checked = check_agree("MLP step", results, "numpy float32, hand backprop", rtol=1e-4, atol=1e-6)

    r, number = cfg.mlp
    table = Table(f"2. MLP 2-16-16-1 training step (forward, backward, SGD)  [W={cfg.warmup}, R={r}, N={number}; "
                  f"micrograd W={min(cfg.warmup, 1)}, R={cfg.micrograd_repeats}, N=1]", 11,
                  "3 matmul, 3 add, 2 tanh, sub, pow, mean; us/op = us/run / 11 graph ops")
    runs = {name: run for name, (run, _) in impls.items() if name != "micrograd"}
    times = best_times(runs, r, number, cfg.warmup, cfg.clock)
    notes = {}
    if "micrograd" in impls:
        times.update(best_times({"micrograd": impls["micrograd"][0]}, cfg.micrograd_repeats, 1, min(cfg.warmup, 1),
                                cfg.clock))
        notes["micrograd"] = f"({micrograd_mlp_ops()} Value ops per step)"
    roles = {"torch": "torch", "numpy float32, hand backprop": "numpy"}
    for name in impls:
        table.add(name, times[name], roles.get(name, ""), notes.get(name, ""))
    return table, checked


# ---------------------------------------------------------------------------------------------- 3. deep tanh stack
def deep_data():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, WIDTH)).astype(np.float32)
    ws = [(rng.standard_normal((WIDTH, WIDTH)) / math.sqrt(WIDTH)).astype(np.float32) for _ in range(DEEP_LAYERS)]
    return x, ws


def deep_tensors(lib):
    """``h = tanh(h @ W_i)`` for 200 layers, ``h.sum().backward()``; x needs no grad, every W_i does."""
    x, init = deep_data()
    x = lib.tensor(x)
    ws = [lib.tensor(w, requires_grad=True) for w in init]
    state = {}

    def run():
        for w in ws:
            w.grad = None
        h = x
        for w in ws:
            h = (h @ w).tanh()
        loss = h.sum()
        loss.backward()
        state["loss"] = loss

    def read():
        out = {"loss": state["loss"].item()}
        out.update((f"grad{i}", w.grad.numpy()) for i, w in enumerate(ws) if i % 50 == 0 or i == DEEP_LAYERS - 1)
        return out
    return run, read


def deep_numpy():
    """The same stack with the backward pass by hand: through tanh, then through the matmul."""
    x, ws = deep_data()
    state = {}

    def run():
        hs = [x]
        h = x
        for w in ws:
            h = np.tanh(h @ w)
            hs.append(h)
        loss = h.sum()
        g = np.ones_like(h)
        grads = [None] * len(ws)
        for i in range(len(ws) - 1, -1, -1):
            t = hs[i + 1]
            g = g * (1 - t * t)
            grads[i] = hs[i].T @ g
            if i:
                g = g @ ws[i].T
        state.update(loss=loss, grads=grads)

    def read():
        out = {"loss": float(state["loss"])}
        out.update((f"grad{i}", g) for i, g in enumerate(state["grads"]) if i % 50 == 0 or i == DEEP_LAYERS - 1)
        return out
    return run, read


def bench_deep(cfg) -> tuple:
    impls = {"autograd_tutor": deep_tensors(at)}
    if torch is not None:
        impls["torch"] = deep_tensors(torch)
    impls["numpy float32, hand backprop"] = deep_numpy()
    results = {}
    for name, (run, read) in impls.items():
        run()
        results[name] = read()
    checked = check_agree("deep stack", results, "numpy float32, hand backprop", rtol=1e-3, atol=1e-4)
    r, number = cfg.deep
    table = Table(f"3. {DEEP_LAYERS} layers of tanh(h @ W), {BATCH}x{WIDTH} @ {WIDTH}x{WIDTH}, forward + backward  "
                  f"[W={cfg.warmup}, R={r}, N={number}]", 2 * DEEP_LAYERS + 1, "200 mm, 200 tanh, 1 sum")
    times = best_times({name: run for name, (run, _) in impls.items()}, r, number, cfg.warmup, cfg.clock)
    roles = {"torch": "torch", "numpy float32, hand backprop": "numpy"}
    for name in impls:
        table.add(name, times[name], roles.get(name, ""))
    return table, checked


# ---------------------------------------------------------------------------------------------- 4. event overhead
def bench_events(cfg) -> list:
    """Each autograd_tutor workload bare, then inside ``events.record()`` (every event kind, a fresh trace a run)."""
    workloads = [("scalar chain", chain_tensors(at, CHAIN_OPS)[0], cfg.chain),
                 ("MLP step", mlp_tensors(at)[0], cfg.mlp),
                 ("deep tanh stack", deep_tensors(at)[0], cfg.deep)]
    out = [f"4. event overhead: autograd_tutor inside events.record() (all kinds, a fresh trace per run) vs bare  "
           f"[W={cfg.warmup}; R, N as above]",
           f"{'workload':<20}{'bare us':>12}{'recording us':>14}{'events/run':>12}{'ratio':>8}   target <= 2.00"]
    ratios = {}
    for name, run, (r, number) in workloads:
        trace_len = []

        def recorded(run=run, trace_len=trace_len):
            with events.record() as trace:
                run()
            trace_len.append(len(trace))
        times = best_times({"bare": run, "recording": recorded}, r, number, cfg.warmup, cfg.clock)
        bare, rec = times["bare"], times["recording"]
        ratios[name] = rec / bare
        out.append(f"{name:<20}{bare * 1e6:>12.1f}{rec * 1e6:>14.1f}{trace_len[-1]:>12}{rec / bare:>8.2f}"
                   f"   {'met' if rec / bare <= 2 else 'MISSED'}")
    return out, ratios


# ---------------------------------------------------------------------------------------------- main
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one timed repeat of each: a smoke run, rough numbers")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS threads for NumPy and torch alike (default 1: see the header's note)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with time.process_time (this process's CPU time) instead of time.perf_counter, "
                             "for a machine busy with other work")
    cfg = parser.parse_args(argv)
    cfg.clock = time.process_time if cfg.cpu_time else time.perf_counter
    set_threads(cfg.threads)
    gc.freeze()  # the imports' objects (torch brings 150,000) would make every collection slow
    # (repeats, number) per workload: many short repeats, so that the minimum finds the machine's quiet moments.
    if cfg.quick:
        cfg.warmup, cfg.micrograd_repeats, cfg.chain, cfg.mlp, cfg.deep = 0, 1, (1, 1), (1, 1), (1, 1)
    else:
        cfg.warmup, cfg.micrograd_repeats, cfg.chain, cfg.mlp, cfg.deep = 2, 3, (25, 1), (40, 20), (40, 1)

    print("autograd_tutor engine benchmark")
    for line in describe_environment(cfg):
        print(line)
    targets = []
    for bench in (bench_chain, bench_mlp, bench_deep):
        table, checked = bench(cfg)
        print()
        print("\n".join(table.lines()))
        print(f"  {checked}")
        targets.append(table)
    print()
    lines, event_ratios = bench_events(cfg)
    print("\n".join(lines))

    chain, mlp, deep = targets
    print()
    print("targets")
    rows = []
    if torch is not None:
        rows.append(("scalar chain: us/op <= torch's", _ratio(chain, "autograd_tutor", "torch"), 1.0))
        rows.append(("MLP step: time <= torch's", _ratio(mlp, "autograd_tutor", "torch"), 1.0))
        rows.append(("deep 64x64: time vs torch (no target)", _ratio(deep, "autograd_tutor", "torch"), None))
    rows.append(("deep 64x64: time <= 1.3x hand numpy", _ratio(deep, "autograd_tutor", "numpy float32, hand backprop"),
                 1.3))
    rows += [(f"events, {name}: recording <= 2x bare", r, 2.0) for name, r in event_ratios.items()]
    for label, ratio, limit in rows:
        verdict = "" if limit is None else ("met" if ratio <= limit else "MISSED")
        print(f"  {label:<48}{ratio:>6.2f}x   {verdict}")
    return 0


def _ratio(table: Table, name: str, other: str) -> float:
    seconds = {n: s for n, s, _, _ in table.rows}
    return seconds[name] / seconds[other]


if __name__ == "__main__":
    sys.exit(main())
