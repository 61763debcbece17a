"""How fast is the graph drawing? Python side of the widget, against networkx + matplotlib and graphviz ``dot``.

Run:  .venv/bin/python benchmarks/viz.py            (about a minute)
      .venv/bin/python benchmarks/viz.py --quick    (one timed repeat of each)
      .venv/bin/python benchmarks/viz.py --only 4   (only section 4; repeat --only for more)

Measured in this one process, best (min) of R repeats with the garbage collector off inside a repeat:

1. A 1,001-node graph (50 leaves, 317 rounds of ``y = tanh(y * leaf) + leaf``): the Python side of the widget,
   i.e. walking ``grad_fn`` + stable layout + the JSON snapshot sent to the browser (target: under 50 ms), the
   same built from the recorded events, the static SVG, the replay steps of its backward pass.
2. The same graph drawn by networkx + matplotlib (``topological_generations`` layout, ``draw_networkx`` with its
   default arrow patches, rendered on an Agg canvas) and by our matplotlib ``draw`` (one LineCollection).
3. Graphs of 120, 240 and 1,001 nodes as DOT text rendered by graphviz ``dot -Tsvg``, as torchviz does, against
   our walk + layout + ``to_svg`` (dot is given 60 s; skipped with a note when ``dot`` is missing:
   ``apt-get install -y graphviz``).
4. A training loop of about 10,000 events (a one-neuron model, SGD, 300 steps) bare, with a plain event
   subscriber, and with a live ``GraphWidget()`` attached (target: at most 2x the bare loop).
5. Lesson 6's training loop (a 2-16-16-1 MLP on 200 points, SGD with momentum, 300 steps), side by side in
   alternating runs: without the widgets, with them imported (the backward-pass history on: the loop "without
   it"), with a live ``GraphWidget()`` displayed, and with lesson 6's ``show(loss)`` drawing displayed (target,
   issue 13: the live widget at most 1.2x the loop without it; the history's own cost is printed too), as the
   best run, the median of the per-round ratios, and the sum over the steps of each step's least time in any
   run, which another job on the machine moves least).
6. The geometry of our static SVG on the graphs of tests/viz_suite.py against dot on the same graphs: crossings,
   edges through nodes, overlapping or overflowing text, clipping, and layout times side by side
   (``--write-dot`` stores dot's counts for tests/test_viz_geometry.py).
7. The same on 40 seeded random op mixes (tests/viz_suite.py ``op_mix``, 1 to 60 ops): geometry faults of our
   SVG, and crossings ours against dot, totalled, with the graphs where ours has more.

Ratios are printed as "x ours": how many times slower the peer is than our implementation of the same job.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from statistics import median

import autograd_tutor as at
from autograd_tutor import events
from autograd_tutor.viz import GraphModel, build_steps, draw, replay_json, to_svg

LEAVES, ROUNDS = 50, 317        # 50 leaves + 3 x 317 operations = 1,001 nodes
TRAIN_STEPS = 300               # x 33 events per step = ~10,000 events


def best(fn, repeats: int) -> float:
    """Best wall time of ``fn()`` in milliseconds over ``repeats`` runs (gc off inside a run)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        finally:
            gc.enable()
    return min(times) * 1e3


def build_graph(n_leaves: int = LEAVES, rounds: int = ROUNDS):
    leaves = [at.tensor(0.1 * (i % 7) + 0.1, requires_grad=True) for i in range(n_leaves)]
    y = leaves[0]
    for i in range(rounds):
        y = (y * leaves[i % n_leaves]).tanh() + leaves[(i * 7) % n_leaves]
    return y


def row(name: str, ms: float, ours: float = None, note: str = "") -> None:
    ratio = f"{ms / ours:8.1f}x" if ours else " " * 9
    print(f"  {name:<58}{ms:10.1f} ms {ratio}  {note}")


# ------------------------------------------------------------------------------------------ 1. our Python side
def python_side(repeats: int):
    print("1. Python side of the widget, 1,001-node graph")
    y = build_graph()
    walk = best(lambda: GraphModel.from_tensor(y, max_nodes=None).snapshot(), repeats)
    model = GraphModel.from_tensor(y, max_nodes=None)
    snap = model.snapshot()
    assert len(snap["nodes"]) == LEAVES + 3 * ROUNDS == 1001, len(snap["nodes"])
    size = len(json.dumps(snap))
    row("walk grad_fn + layout + snapshot", walk, note="target < 50 ms")
    row("  of which snapshot again, nothing changed (cached)", best(model.snapshot, repeats))
    row("  JSON of the snapshot (what the comm sends)", best(lambda: json.dumps(snap), repeats),
        note=f"{size / 1e3:.0f} kB")
    with events.record() as trace:
        y2 = build_graph()
        y2.backward()
    row(f"from {len(trace):,} recorded events + snapshot (live path)",
        best(lambda: GraphModel.from_trace(trace, max_nodes=None).snapshot(), repeats))
    live = GraphModel.from_trace(trace, max_nodes=None)
    steps = build_steps(live)
    row(f"replay: {len(steps):,} steps + narration + JSON", best(lambda: replay_json(live, build_steps(live)), repeats))
    row("static SVG (to_svg)", best(lambda: to_svg(model), repeats))
    return model


# ------------------------------------------------------------------------------------------ 2. networkx + mpl
def matplotlib_side(model, repeats: int) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import networkx as nx
    print("\n2. Drawing the same graph with matplotlib (Agg canvas)")

    def ours():
        fig, ax = plt.subplots(figsize=(16, 8))
        draw(model, ax=ax)
        fig.canvas.draw()
        plt.close(fig)

    g = nx.DiGraph()
    for n in model.visible:
        g.add_node(n.index)
    for e in model.edges:
        g.add_edge(model.node(e.src).index, model.node(e.dst).index)

    def nx_layout():
        pos = {}
        for layer, nodes in enumerate(nx.topological_generations(g)):
            for slot, n in enumerate(nodes):
                pos[n] = (layer, slot)
        return pos

    pos = nx_layout()

    def nx_draw(arrows):
        fig, ax = plt.subplots(figsize=(16, 8))
        nx.draw_networkx(g, pos, ax=ax, node_size=30, with_labels=False, arrows=arrows)
        fig.canvas.draw()
        plt.close(fig)

    mine = best(ours, repeats)
    row("ours: draw() (LineCollection, no arrow patches) + render", mine)
    row("networkx: topological_generations layout only", best(nx_layout, repeats))
    row("networkx: draw_networkx, arrows=False + render", best(lambda: nx_draw(False), repeats), mine)
    row("networkx: draw_networkx, default arrow patches + render", best(lambda: nx_draw(True), 1), mine)


# ------------------------------------------------------------------------------------------ 3. graphviz dot
DOT_TIMEOUT = 60.0


def _dot_text(model) -> str:
    lines = ["digraph G {", '  node [shape=box, style=filled, fontsize=10, fontname="monospace"];']
    for n in model.visible:
        fill = "lightblue" if n.kind == "leaf" else "lightgrey"
        lines.append(f'  n{n.index} [label="{n.label}", fillcolor={fill}];')
    for e in model.edges:
        lines.append(f"  n{model.node(e.src).index} -> n{model.node(e.dst).index};")
    lines.append("}")
    return "\n".join(lines)


def graphviz_side(repeats: int) -> None:
    print("\n3. Layout + SVG of the same graph: graphviz dot (as torchviz does) against ours")
    dot = shutil.which("dot")
    if dot is None:
        print("  skipped: graphviz `dot` is not installed (apt-get install -y graphviz)")
        return
    for leaves, rounds in ((10, 30), (20, 60), (LEAVES, ROUNDS)):
        y = build_graph(leaves, rounds)
        nodes = leaves + 3 * rounds
        ours = best(lambda: to_svg(GraphModel.from_tensor(y, max_nodes=None)), repeats)
        with tempfile.NamedTemporaryFile("w", suffix=".dot", delete=False) as f:
            f.write(_dot_text(GraphModel.from_tensor(y, max_nodes=None)))
        try:
            t = time.perf_counter()
            subprocess.run([dot, "-Tsvg", "-o", os.devnull, f.name], check=True, timeout=DOT_TIMEOUT)
            took = (time.perf_counter() - t) * 1e3
            row(f"{nodes:>5} nodes  ours: walk + layout + to_svg", ours)
            row(f"{nodes:>5} nodes  graphviz: dot -Tsvg", took, ours)
        except subprocess.TimeoutExpired:
            row(f"{nodes:>5} nodes  ours: walk + layout + to_svg", ours)
            print(f"  {nodes:>5} nodes  graphviz: dot -Tsvg gave up after {DOT_TIMEOUT:.0f} s"
                  f"{'':<14}>{DOT_TIMEOUT * 1e3 / ours:7.0f}x")
        finally:
            os.unlink(f.name)


# ------------------------------------------------------------------------------------------ 4. training loop
def train(steps: int) -> None:
    w = at.tensor(0.3, requires_grad=True)
    b = at.tensor(-0.1, requires_grad=True)
    for i in range(steps):
        x = at.tensor(0.01 * (i % 100))
        loss = ((w * x + b).tanh() - x) ** 2
        loss.backward()
        with at.no_grad():
            w -= 0.1 * w.grad
            b -= 0.1 * b.grad
        w.grad = None
        b.grad = None


def training_overhead(repeats: int) -> None:
    from autograd_tutor.widgets import GraphWidget
    print("\n4. A training loop with the live widget attached")
    with events.record() as trace:
        train(TRAIN_STEPS)
    bare = best(lambda: train(TRAIN_STEPS), repeats)
    row(f"bare loop: {TRAIN_STEPS} SGD steps, {len(trace):,} events when listened to", bare)

    def with_subscriber():
        with events.subscribe(lambda e: None):
            train(TRAIN_STEPS)
    row("with a subscriber that does nothing (the engine's event cost)", best(with_subscriber, repeats), bare)

    times = []
    for _ in range(repeats):  # the widget is displayed before the loop runs: its creation is not timed
        g = GraphWidget(namespace={})
        gc.collect()
        gc.disable()
        try:
            t = time.perf_counter()
            train(TRAIN_STEPS)
            g.refresh()  # what the end of the notebook cell does
            times.append(time.perf_counter() - t)
        finally:
            gc.enable()
            g.close()
    row("with a live GraphWidget() (model + batched sync + final refresh)", min(times) * 1e3, bare,
        "target <= 2x")


# ------------------------------------------------------------------------------------------ 5. lesson 6's loop
def lesson6_overhead(repeats: int) -> None:
    import numpy as np

    from autograd_tutor import nn, optim
    from autograd_tutor.viz.history import HISTORY
    from autograd_tutor.widgets import GraphWidget
    print("\n5. Lesson 6's training loop (MLP 2-16-16-1, 200 points, 300 SGD steps), runs alternating")
    rng = np.random.default_rng(0)
    angle = rng.uniform(0, 2 * np.pi, 200)
    radius = np.where(np.arange(200) < 100, 1.0, 2.2) + rng.normal(0, 0.15, 200)
    X = at.tensor(np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1).astype(np.float32))
    Y = at.tensor((np.arange(200) >= 100).astype(np.float32).reshape(-1, 1))

    def setup():
        at.manual_seed(0)
        model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
        return model, nn.MSELoss(), optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    def loop(model, loss_fn, optimizer, clock):  # records the CPU time at the end of each step
        for _ in range(TRAIN_STEPS):
            optimizer.zero_grad()
            loss = loss_fn(model(X), Y)
            loss.backward()
            optimizer.step()
            clock.append(time.process_time())

    def bare():
        return None

    def live():
        return GraphWidget(namespace={})

    def drawn(parts):  # lesson 6, cell 7: the loss of 4 samples, backward, show(loss); then the loop
        model, loss_fn, _ = parts
        loss = loss_fn(model(X[:4]), Y[:4])
        loss.backward()
        return GraphWidget(loss, namespace={"loss": loss})

    cases = [("without the widgets (no history)", bare, False), ("widgets imported: the loop without it", bare, True),
             ("with a live GraphWidget() displayed", live, True), ("with lesson 6's show(loss) displayed", drawn, True)]
    times = {name: [] for name, _, _ in cases}
    pieces = {name: [] for name, _, _ in cases}  # per run: the CPU time of each step, and of the final refresh
    for _ in range(repeats):
        for name, make, history in cases:
            (HISTORY.start if history else HISTORY.stop)()
            parts = setup()
            widget = make(parts) if make is drawn else make()
            gc.collect()
            gc.disable()
            try:
                clock = [time.process_time()]  # CPU time of this process: other jobs on a shared machine count less
                loop(*parts, clock)
                if widget is not None:
                    widget.refresh()  # what the end of the notebook cell does
                clock.append(time.process_time())
                times[name].append(clock[-1] - clock[0])
                pieces[name].append([b - a for a, b in zip(clock, clock[1:])])
            finally:
                gc.enable()
                if widget is not None:
                    widget.close()
    HISTORY.start()
    names = [name for name, _, _ in cases]
    # Another job taking the CPU slows a few steps of one run: the sum over the steps (and the final refresh) of
    # the least each took in any run keeps what every run paid, the first steps' drawing included
    steady = {name: sum(map(min, zip(*pieces[name]))) for name in names}
    base = times[names[1]]
    print(f"  {'':<58}{'best':>10}    {'median':>9}   {'ratio: best, median of the rounds':>20}")
    for name in names:
        rounds = [t / b for t, b in zip(times[name], base)]  # each run against the loop without it, same round
        target = "  target <= 1.2x" if "live" in name else ""
        print(f"  {name:<58}{min(times[name]) * 1e3:10.1f} ms {median(times[name]) * 1e3:9.1f} ms"
              f"   {min(times[name]) / min(base):5.2f}x {median(rounds):5.2f}x{target}")
    live = [t / b for t, b in zip(times[names[2]], base)]
    history = [b / t for b, t in zip(base, times[names[0]])]
    print(f"  live GraphWidget() / the loop without it: best {min(times[names[2]]) / min(base):.2f}x, median of the "
          f"rounds {median(live):.2f}x (target <= 1.2x)")
    print(f"  the history itself / the loop without the widgets: best {min(base) / min(times[names[0]]):.2f}x, "
          f"median of the rounds {median(history):.2f}x")
    print(f"  step by step (each step's least CPU time over the runs, summed): live {steady[names[2]] * 1e3:.1f} ms / "
          f"{steady[names[1]] * 1e3:.1f} ms = {steady[names[2]] / steady[names[1]]:.2f}x, show(loss) "
          f"{steady[names[3]] / steady[names[1]]:.2f}x; the history {steady[names[1]] / steady[names[0]]:.2f}x")
    print("  (CPU time of this process; a round runs the four cases one after the other, and its ratios compare runs"
          " of the same round: the loop without it is the widgets imported, no drawing)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one timed repeat of each measurement")
    parser.add_argument("--only", type=int, action="append", choices=(1, 2, 3, 4, 5, 6, 7),
                        help="run only this section (2 runs 1 too: it draws 1's graph)")
    parser.add_argument("--write-dot", action="store_true",
                        help="section 6: write dot's counts to tests/data/dot_geometry.json (the geometry test's bound)")
    args = parser.parse_args()
    run = set(args.only or (1, 2, 3, 4, 5, 6, 7))
    repeats = 1 if args.quick else 7
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {load:.2f}; best of {repeats}\n")
    model = python_side(repeats) if run & {1, 2} else None
    if 2 in run:
        matplotlib_side(model, max(1, repeats // 2))
    if 3 in run:
        graphviz_side(repeats)
    if 4 in run:
        training_overhead(repeats)
    if 5 in run:
        lesson6_overhead(repeats)
    if 6 in run:
        geometry(args.write_dot)
    if 7 in run:
        random_geometry()


# ------------------------------------------------------------------------------------------ 6. geometry vs dot
DOT_NUMBERS = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "dot_geometry.json")


def geometry(write_dot: bool) -> None:
    """Ours against dot on the graphs of tests/viz_suite.py: crossings, edges through nodes, and the layout time.

    dot gets the same nodes (our box sizes) and edges, left to right; "dot" makes each edge enter its input's
    port (a record field per input, the order we keep), "dot free" lets dot reorder them (torchviz's way); an
    open module group is a cluster for dot, framed as ours is."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
    import viz_suite as vs
    from autograd_tutor.viz import layered
    print("\n6. Geometry of the static SVG, ours against graphviz dot on the same graphs")
    have_dot = shutil.which("dot") is not None
    print(f"  {'graph':<16}{'nodes':>6}{'edges':>6} | {'crossings: ours':>15}{'dot':>6}{'dot free':>9} | "
          f"{'through nodes':>13} | overlaps overflows clipped | {'layout ms':>9}{'dot ms':>8}")
    print("  (dot ms: the dot process, spawn included; layout ms: our layered.layout in this process)")
    numbers = {}
    for name in list(vs.SUITE) + list(vs.GROUPED):
        model, _ = vs.build(name)
        full = model.snapshot()
        snap = vs.drawn(full)  # a closed module group is one box, laid out by the grouping's own geometry
        geometry = model.grouping._geometry if snap is not full else model._geometry
        boxes, specs, clusters = geometry._key
        ms = best(lambda: layered.layout(list(boxes), list(specs), clusters=list(clusters) or None), 3)
        ours = vs.measure_svg(to_svg(model))
        if have_dot:
            dot_ms = best(lambda: vs.dot_drawing(snap), 3)  # dot's run (a process), not our measuring
            dot = vs.measure_dot(snap)
            free = vs.measure_dot(snap, ports=False)
        else:
            dot, free, dot_ms = {"crossings": "-", "through_nodes": "-"}, {"crossings": "-"}, float("nan")
        numbers[name] = {"nodes": ours["nodes"], "edges": ours["edges"], "crossings": dot["crossings"],
                         "free_crossings": free["crossings"], "through_nodes": dot["through_nodes"]}
        print(f"  {name:<16}{ours['nodes']:>6}{ours['edges']:>6} | {ours['crossings']:>15}{dot['crossings']:>6}"
              f"{free['crossings']:>9} | {ours['through_nodes']:>6} {dot['through_nodes']!s:>6} | "
              f"{ours['overlaps']:>8}{ours['overflows']:>10}{ours['outside']:>8} | {ms:>9.1f}{dot_ms:>8.1f}")
    if write_dot and have_dot:
        with open(DOT_NUMBERS, "w") as f:
            json.dump(numbers, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"  wrote {os.path.normpath(DOT_NUMBERS)}")


def random_geometry(seeds: int = 40) -> None:
    """Section 7: our static SVG's faults and crossings against dot's on seeded random op mixes."""
    import random
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
    import viz_suite as vs
    print(f"\n7. {seeds} seeded random op mixes (viz_suite.op_mix): geometry faults, crossings ours vs dot")
    faults, ours, dots, worse = 0, 0, 0, []
    for seed in range(seeds):
        rng = random.Random(seed)
        choices = [(rng.randrange(vs.OP_KINDS), rng.randrange(1000), rng.randrange(1000))
                   for _ in range(rng.choice([1, 3, 8, 20, 40, 60]))]
        model = vs.op_mix_model(choices)
        counts = vs.measure_svg(to_svg(model))
        faults += sum(counts[k] for k in ("through_nodes", "overflows", "overlaps", "outside"))
        dot = vs.measure_dot(vs.drawn(model.snapshot()))["crossings"] if shutil.which("dot") else 0
        ours, dots = ours + counts["crossings"], dots + dot
        if counts["crossings"] > dot:
            worse.append(f"seed {seed} ({counts['nodes']} nodes): {counts['crossings']} vs {dot}")
    print(f"  geometry faults (edges through nodes, overflows, overlaps, clipped): {faults}")
    print(f"  crossings: ours {ours}, dot {dots}; ours more on {len(worse)}: " + "; ".join(worse))


if __name__ == "__main__":
    main()
