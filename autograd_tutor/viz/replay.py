"""Backward replay: the recorded events of each backward pass, turned into steps a learner can walk through.

One step per thing worth a sentence: the pass starts; a node runs (the gradient it received, summed at a
fan-in, and the gradient it sends along each edge: received × local derivative); a leaf accumulates into
``.grad``; a hook runs; the pass ends or fails. Each :class:`Step` lists what changes, so the state at any
position is the start state plus the steps before it: the browser replays them without the kernel.

>>> import autograd_tutor as torch
>>> from autograd_tutor import events
>>> from autograd_tutor.viz.model import GraphModel
>>> with events.record() as trace:
...     a = torch.tensor(3., requires_grad=True); b = torch.tensor(4., requires_grad=True)
...     d = a * b + a
...     d.backward()
>>> model = GraphModel.from_trace(trace, namespace={"a": a, "b": b, "d": d})
>>> for step in build_steps(model): print(step.text)
Backward pass 1 starts at d with the gradient 1 (∂d/∂d = 1).
AddBackward0 passes the gradient 1 unchanged to MulBackward0 and to a.
MulBackward0 sends 1 × b = 4 to a and 1 × a = 3 to b, then frees its saved self and other.
a receives 1 + 4 = 5 and stores it in a.grad, which becomes 5.
b receives 3 and stores it in b.grad, which becomes 3.
Backward pass 1 is done: a.grad = 5, b.grad = 3.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import narrate
from .format import Value, number
from .heat import HEAT_H, HEAT_W, LABEL_HEAT, heats_of

__all__ = ["Step", "State", "build_steps", "state_at", "replay_json", "MAX_STEPS"]

_HEAT = (HEAT_W, HEAT_H)  # a node's heatmap at most (px)

#: Steps a drawing replays at most, unless its node budget is larger (the budget bounds the replay too): the
#: newest passes that fit; a pass longer than this keeps its first and last steps, and one step in between does
#: what the others did (see :func:`_summarised`).
MAX_STEPS = 400


@dataclass
class Step:
    """What one replay step shows and changes.

    ``edges``: ``(edge, text, grid)`` gradients written on edges; ``locals``: ``(edge, text)`` local
    derivatives; ``grads``: ``(key, before, after, grid)`` texts of ``.grad``, a ``grid`` being the sampled
    numbers a heatmap draws of a tensor of more than a few (:func:`format.sample_grid`; None for fewer);
    ``saved``: ``(key, before, after)`` saved states;
    ``total``: the sum at a fan-in (``"1 + 4 = 5"``); ``reset``: clear the edge labels (a new pass).
    ``text`` names a tensor of more than 6 numbers by its shape; ``full`` (empty when it says the same) is the
    sentence with every number kept, one click away in the widget.
    """
    kind: str
    text: str
    active: Optional[int] = None
    edges: list = field(default_factory=list)
    locals: list = field(default_factory=list)
    grads: list = field(default_factory=list)
    saved: list = field(default_factory=list)
    total: str = ""
    reset: bool = False
    number: int = 0
    full: str = ""

    def say(self, sentence) -> "Step":
        """Sets ``text`` and ``full`` from ``sentence(words)``, ``words`` naming a value (narrate.named, spelled)."""
        self.text = sentence(narrate.named)
        full = sentence(narrate.spelled)
        self.full = full if full != self.text else ""
        return self


@dataclass
class State:
    """The drawing at one replay position: edge labels by edge index, ``.grad`` and saved state by key."""
    edges: dict
    grads: dict
    saved: dict
    active: Optional[int]
    text: str
    total: str = ""
    full: str = ""


def build_steps(model, limit: Optional[int] = None) -> list:
    """The replay steps of the backward passes the model recorded (see the module docstring): the newest passes
    whose steps fit in ``limit`` (default: the model's node budget, at least ``MAX_STEPS``; no limit for a model
    without a budget), and at least the last one, summarised to ``limit`` steps when it is longer."""
    if limit is None:
        limit = max(model.max_nodes, MAX_STEPS) if model.max_nodes is not None else None
    passes = model.passes
    first = model.pass_count - len(passes) + 1
    kept: list = []
    saved_now: dict = {}
    for number, records in enumerate(passes, first):
        steps: list = []
        _Pass(model, records, number, saved_now, steps).build()
        kept.append(_summarised(steps, limit))
    out: list = []
    for steps in reversed(kept):
        if out and limit is not None and len(out) + len(steps) > limit:
            break
        out[:0] = steps
    return out


def _summarised(steps: list, limit: int) -> list:
    """``steps`` if there are at most ``limit``, else the first and last ``limit // 2 - 1`` with one step between
    them that makes all the changes of the steps it stands for (so every state a learner sees is still true)."""
    if limit is None or len(steps) <= limit:
        return steps
    keep = limit // 2 - 1
    middle = steps[keep:-keep]
    edges, grads, saved = {}, {}, {}
    for step in middle:
        if step.reset:
            edges = {}
        edges.update((edge[0].index, edge) for edge in step.edges)
        for key, before, after, grid in step.grads:
            grads[key] = (grads[key][0] if key in grads else before, after, grid)
        for key, before, after in step.saved:
            saved[key] = (saved[key][0] if key in saved else before, after)
    ran = sum(s.kind == "node" for s in middle)
    text = (f"… {len(middle):,} steps are not shown one by one ({ran:,} nodes ran): this step makes their changes "
            "at once, and the gradients they sent are written on the edges.")
    summary = Step("summary", text, None, list(edges.values()), [],
                   [(k, *change) for k, change in grads.items()], [(k, b, a) for k, (b, a) in saved.items()],
                   reset=any(s.reset for s in middle), number=middle[0].number)
    return steps[:keep] + [summary] + steps[-keep:]


class _Pass:
    """Builds the steps of one pass; ``incoming[key]`` collects the gradients a node received so far."""

    def __init__(self, model, records: list, number: int, saved_now: dict, steps: list) -> None:
        self.model, self.records, self.number, self.saved_now, self.steps = model, records, number, saved_now, steps
        self.incoming: dict = {}
        self.accumulated: list = []
        self.retain = records[0].retain_graph

    def label(self, key: Optional[int]) -> str:
        node = self.model.node(key) if key is not None else None
        return node.label if node is not None else "an earlier node"

    def build(self) -> None:
        records = self.records
        i = 1
        self.start(records[0])
        while i < len(records):
            r = records[i]
            if r.kind == "node_executed":
                j = i + 1
                while j < len(records) and records[j].kind in ("saved_tensors_freed", "gradient_flowed") and \
                        getattr(records[j], "node_id", getattr(records[j], "source_id", None)) == r.node_id:
                    j += 1
                self.node(r, records[i + 1:j])
                i = j
                continue
            getattr(self, r.kind)(r)
            i += 1

    def start(self, r) -> None:
        roots = [self.model.key_of_node(n) for n in r.root_node_ids]
        root = next((k for k in roots if k is not None), None)
        grad = next((x.grad_outputs[0] for x in self.records
                     if x.kind == "node_executed" and self.model.key_of_node(x.node_id) == root), None)
        if grad is None:  # backward from a leaf: what it accumulated
            grad = next((_minus(x.after, x.before) for x in self.records if x.kind == "grad_accumulated"), None)
        for k in roots:
            if k is not None and grad is not None:
                self.incoming[k] = [grad]
        if root is None:  # the pass began at a node outside the drawing: say where
            first = next((x.name for x in self.records if x.kind == "node_executed"), "a node")
            say = lambda words: narrate.outside_start_sentence(self.number, first, self.retain)
        else:
            say = lambda words: narrate.start_sentence(self.number, self.label(root),
                                                       words(grad) if grad is not None else "1", self.retain)
        self.steps.append(Step("start", "", root, reset=True, number=self.number).say(say))

    def node(self, r, following: list) -> None:
        model = self.model
        key = model.key_of_node(r.node_id)
        node = model.node(key) if key is not None else None
        several = len(r.grad_outputs) > 1  # split, unbind: one gradient per output, joined rather than added
        incoming = self.incoming.pop(key, None)
        received_values = r.grad_outputs if several else incoming or [r.grad_outputs[0]]
        received = [narrate.gradient_text(v) for v in received_values]
        total = "" if several else r.grad_outputs[0].text
        labels = [self.input_label(k) for k in node.inputs] if node is not None else []
        step = Step("node", "", key, total="" if several else _fan_in(received, total), number=self.number)
        flows, saved = [], None
        for f in following:
            if f.kind == "saved_tensors_freed":
                saved = ("freed", list(node.saved) if node is not None and node.saved else list(f.names))
                continue
            target = model.key_of_node(f.target_id)
            local = narrate.local_formula(r.name, f.position, labels)
            if local is None and not several and f.value.scalar is not None and r.grad_outputs[0].scalar:
                local = _num(f.value.scalar / r.grad_outputs[0].scalar)
            if f.value.size != 1 and local not in ("1", None):
                local = None  # an array times a formula does not read well: name the result only
            flows.append((self.label(target), local, f.value))
            self.incoming.setdefault(target, []).append(f.value)
            edge = model.edge_at(key, f.position) if key is not None else None
            if edge is not None:
                step.edges.append((edge, f.value.text, f.value.grid))
                if local is not None:
                    step.locals.append((edge, f"∂{self.label(key)}/∂{self.label(target)} = {local}"))
        if saved is None and self.retain and node is not None and node.saved:
            saved = ("kept", list(node.saved))
        if saved is not None and key is not None:
            before = self.saved_now.get(key, "saved")
            self.saved_now[key] = saved[0]
            step.saved.append((key, before, saved[0]))
        total_value = None if several else r.grad_outputs[0]
        self.steps.append(step.say(lambda words: narrate.node_sentence(
            r.name, [words(v) for v in received_values], "" if several else words(total_value),
            [(t, local, words(v)) for t, local, v in flows], saved, several)))

    def input_label(self, key: int) -> Optional[str]:
        """How a formula names an input: the variable name, else its value when it is one number."""
        node = self.model.node(key)
        if node is None:
            return None
        if node.name:
            return node.name
        if node.value is not None and node.value.size == 1:
            return node.value.text
        return None

    def grad_accumulated(self, r) -> None:
        key = self.model.key_of_grad(r)
        node = self.model.node(key) if key is not None else None
        after = r.after.text
        before = r.before.text if r.before is not None else None
        values = self.incoming.pop(key, None) or [_minus(r.after, r.before)]
        received, got = [v.text for v in values], _plus(values).text
        leaf = node is not None and node.kind == "leaf"
        name = node.name if node is not None else ""
        step = Step("accumulate", "", key, total=_fan_in(received, got), number=self.number)
        step.say(lambda words: narrate.accumulate_sentence(
            name, [words(v) for v in values], words(_plus(values)),
            words(r.before) if r.before is not None else None, words(r.after), leaf))
        if key is not None:
            step.grads.append((key, before or "None", after, r.after.grid))
            if name:
                self.accumulated.append((name, r.after))
        self.steps.append(step)

    def hook_fired(self, r) -> None:
        key = self.model.key_of_node(r.node_id)
        if r.tensor_id is not None and self.model.node(r.tensor_id) is not None:
            key = self.model.node(r.tensor_id).key
        self.steps.append(Step("hook", narrate.hook_sentence(r.hook_name, r.hook_kind, self.label(key)), key,
                               number=self.number))

    def backward_finished(self, r) -> None:
        self.steps.append(Step("finish", "", None, number=self.number).say(
            lambda words: narrate.finish_sentence(self.number, [(n, words(v)) for n, v in self.accumulated],
                                                  4 if words is narrate.named else None)))

    def backward_failed(self, r) -> None:
        key = self.model.key_of_node(r.node_id)
        where = r.name if key is None else self.model.node(key).op or r.name
        self.steps.append(Step("fail", narrate.fail_sentence(self.number, where, r.error_type, r.message), key,
                               number=self.number))

    def saved_tensors_freed(self, r) -> None:  # only reached when not right after its node: record the state
        key = self.model.key_of_node(r.node_id)
        if key is not None and self.steps:
            self.steps[-1].saved.append((key, self.saved_now.get(key, "saved"), "freed"))
            self.saved_now[key] = "freed"

    def events_dropped(self, r) -> None:
        """The middle of a long pass was not kept (see :mod:`~autograd_tutor.viz.history`)."""
        self.incoming.clear()  # what arrived before the gap is not what the nodes after it received
        self.steps.append(Step("gap", f"… {r.count:,} events of this pass were not kept: the pass was too long to "
                               "record in full. The steps after this one are the end of the pass.", None,
                               number=self.number))

    def gradient_flowed(self, r) -> None:  # a flow not right after its node (not emitted by the engine)
        self.incoming.setdefault(self.model.key_of_node(r.target_id), []).append(r.value)


def _num(x: float) -> str:
    return number(x)


def _fan_in(received: list, total: str) -> str:
    """``"1 + 4 = 5"`` when several gradients met at a node, else empty."""
    return f"{' + '.join(received)} = {total}" if len(received) > 1 else ""


def _plus(values: list) -> Value:
    """The sum of gradient heads (enough to print the sum of the gradients themselves)."""
    if len(values) == 1:
        return values[0]
    return Value(values[0].shape, tuple(sum(h) for h in zip(*(v.head for v in values))))


def _minus(after: Value, before: Optional[Value]) -> Value:
    if before is None:
        return after
    return Value(after.shape, tuple(a - b for a, b in zip(after.head, before.head)))


def _start(model, steps: list) -> tuple:
    """The ``.grad`` texts and saved states before the first step (what the first change replaces)."""
    grads = {n.key: (n.grad.text if n.grad is not None else "None") for n in model.visible}
    saved = {n.key: n.saved_state for n in model.visible}
    seen_g, seen_s = set(), set()
    for step in steps:
        for key, before, *_ in step.grads:
            if key not in seen_g:
                seen_g.add(key)
                grads[key] = before
        for key, before, _ in step.saved:
            if key not in seen_s:
                seen_s.add(key)
                saved[key] = before
    return grads, saved


def state_at(model, steps: list, position: int) -> State:
    """The drawing after the first ``position`` steps (0: before any, ``len(steps)``: after all)."""
    grads, saved = _start(model, steps)
    edges: dict = {}
    active, text, total, full = None, "", "", ""
    for step in steps[:position]:
        if step.reset:
            edges = {}
        for edge, value, _ in step.edges:
            edges[edge.index] = value
        for key, _, after, _ in step.grads:
            grads[key] = after
        for key, _, after in step.saved:
            saved[key] = after
        active, text, total, full = step.active, step.text, step.total, step.full
    return State(edges, grads, saved, active, text, total, full)


def replay_json(model, steps: list) -> dict:
    """Steps and start state with node and edge *indices*, for the browser (which folds them the same way).

    A gradient of more than a few numbers comes with its heatmap: ``[index, text, h]``, ``h`` indexing
    ``heats`` (each :func:`heat.heat_of` dict once: a gradient passed on unchanged, or the same every step, is
    sent once), an edge's at the size of an edge label's, a ``.grad``'s at a node's. The steps are bounded
    (:data:`MAX_STEPS`, or the node budget) and so are the heatmaps (at most 96 cells each)."""
    def idx(key):
        node = model.node(key) if key is not None else None
        return node.index if node is not None else -1
    seen: dict = {}  # (grid, most) -> its index in heats

    def entry(i, text, grid, most):
        if grid is None:
            return [i, text]
        return [i, text, seen.setdefault((grid, most), len(seen))]
    grads, saved = _start(model, steps)
    out = []
    for s in steps:
        out.append({"kind": s.kind, "text": s.text, "full": s.full, "active": idx(s.active), "total": s.total, "reset": s.reset,
                    "pass": s.number,
                    "edges": [entry(e.index, v, g, LABEL_HEAT) for e, v, g in s.edges],
                    "locals": [[e.index, v] for e, v in s.locals],
                    "grads": [entry(idx(k), a, g, _HEAT) for k, _, a, g in s.grads],
                    "saved": [[idx(k), a] for k, _, a in s.saved]})
    start = {"grads": [[idx(k), v] for k, v in grads.items()], "saved": [[idx(k), v] for k, v in saved.items()]}
    return {"steps": out, "start": start, "heats": heats_of(list(seen))}
