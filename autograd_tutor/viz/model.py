"""The graph model behind every drawing: nodes, edges, their kinds, values, gradients and saved tensors.

A :class:`GraphModel` is filled in one of two ways, and both give the same nodes with the same keys, so they
can be mixed (draw a tensor's graph, then let the events of its ``backward()`` update it):

* **from events** (:meth:`GraphModel.apply_all`, :meth:`GraphModel.from_trace`): the live widget feeds it the
  engine's events in batches; the model grows node by node and records each backward pass for replay;
* **from a tensor** (:meth:`GraphModel.from_tensor`): walk ``grad_fn`` and ``next_functions`` down to the
  leaves, with no recording at all. This also works on a real PyTorch tensor, for side-by-side comparison.

Nodes (:class:`VizNode`) are of four kinds: ``"leaf"`` (a leaf tensor that requires grad, drawn with its
AccumulateGrad), ``"op"`` (a non-leaf result, shown as its grad_fn), ``"constant"`` (a tensor that does not
require grad) and ``"collapsed"`` (repeated structure folded once the node budget is spent). Edges
(:class:`VizEdge`) point forward, from an input to the node that consumed it, one per input position, so
``x * x`` has two edges. A gradient flows backward along an edge when ``edge.tracked``.

Keys are the engine's stable ids: a function node's ``_id`` for an op, the tensor's ``_id`` for a leaf or a
constant. Where they are drawn comes from :mod:`~autograd_tutor.viz.geometry` (a layered layout of the whole
graph).

>>> import autograd_tutor as torch
>>> a = torch.tensor(3., requires_grad=True); b = torch.tensor(4., requires_grad=True)
>>> d = a * b + a
>>> m = GraphModel.from_tensor(d, namespace={"a": a, "b": b, "d": d})
>>> [(n.label, n.kind) for n in m.visible]
[('a', 'leaf'), ('b', 'leaf'), ('MulBackward0', 'op'), ('d', 'op')]
>>> [(m.node(e.src).label, m.node(e.dst).label, e.position) for e in m.edges]
[('a', 'MulBackward0', 0), ('b', 'MulBackward0', 1), ('MulBackward0', 'd', 0), ('a', 'd', 1)]
"""
from __future__ import annotations

import collections
import itertools
import json
import operator
from typing import Iterable, Mapping, Optional

from .cuts import CutLog, cut_marks, freed_input
from .format import Value
from .geometry import Geometry
from .groups import CALLS, Grouping, module_names
from .heat import LABEL_HEAT, heat_of
from .layout import Layout
from .names import is_tensor, tensors_in
from .passes import MAX_PASSES, PassRecording

__all__ = ["GraphModel", "VizNode", "VizEdge", "BACKWARD_KINDS", "STRUCTURE_KINDS", "MAX_PASSES"]

#: The event kinds that change a graph's structure, and those of a backward pass.
STRUCTURE_KINDS = ("tensor_created", "node_created")
BACKWARD_KINDS = ("backward_started", "node_executed", "gradient_flowed", "grad_accumulated", "hook_fired",
                  "saved_tensors_freed", "backward_finished", "backward_failed")
#: Saved-tensor names that hold a node's first and second forward input (torch's convention).
_INPUT_SLOTS = (("self",), ("other", "mat1", "mat2", "vec", "tensor", "exponent", "target"), ("mat2",))
#: Where an untracked input can sit among a node's saved tensors: the slots above, and the names convolutions
#: and the normalisations give their first two inputs (``F.conv2d(image, w)`` saved the image as ``input``).
_UNTRACKED_SLOTS = tuple(slot + extra for slot, extra in zip(_INPUT_SLOTS, (("input",), ("weight",), ())))
_PENDING = 512      # constants remembered before their first use
_UNDRAWN = ("constant", "")  # the signature of an input not drawn yet
_ABSENT = (None, "absent", None, None, False)  # the spec of an optional input left out (conv2d's bias=None)
_NO_NUMBERS = itertools.repeat(None)  # an event without Python numbers among its inputs
#: Nodes or edges whose JSON text is cached together (see GraphModel.snapshot_json).
CHUNK = 64
_REP_LIMIT = 200_000  # folded ids remembered (older ones are forgotten)
#: Collapsed nodes at most (one per layer they start in): past them, what is new folds into the last one.
MAX_COLLAPSED = 24


class VizNode:
    """One node of a drawing. ``label`` is what narration and tables call it (the variable name first)."""
    __slots__ = ("key", "kind", "op", "name", "tensor_id", "value", "grad", "saved", "saved_state",
                 "inputs", "layer", "slot", "index", "hidden", "root", "shape", "several")

    def __init__(self, key: int, kind: str, op: str = "", tensor_id: Optional[int] = None,
                 value: Optional[Value] = None) -> None:
        self.key = key
        self.kind = kind
        self.op = op
        self.name = ""
        self.tensor_id = tensor_id
        self.value = value
        self.grad: Optional[Value] = None
        self.saved: tuple = ()         # names of the saved tensors
        self.saved_state = "none"      # "none" | "saved" | "freed" | "kept"
        self.inputs: tuple = ()        # keys of the forward inputs, in order
        self.layer = self.slot = self.index = -1
        self.hidden = 0                # nodes folded into this one
        self.root = False
        self.shape = value.shape if value is not None else None
        self.several = False           # an op with several outputs (split): no one variable or value names it

    @property
    def label(self) -> str:
        if self.name:
            return self.name
        if self.kind == "leaf":
            return "leaf"
        if self.kind == "constant":
            return self.value.text if self.value is not None and self.value.size == 1 else "constant"
        if self.kind == "collapsed":
            return f"{self.hidden} more"
        return self.op or "earlier result"

    @property
    def subtitle(self) -> str:
        if self.kind == "leaf":
            return "AccumulateGrad"
        if self.kind == "constant":
            return "no grad"
        if self.kind == "collapsed":
            return "collapsed nodes"
        return self.op if self.name else ""

    def __repr__(self) -> str:
        return f"VizNode({self.label!r}, {self.kind})"


class VizEdge:
    """Input ``src`` feeds position ``position`` of ``dst``; ``grad`` is the last gradient that flowed back."""
    __slots__ = ("src", "dst", "position", "tracked", "grad", "count", "index")

    def __init__(self, src: int, dst: int, position: int, tracked: bool, index: int) -> None:
        self.src, self.dst, self.position, self.tracked, self.index = src, dst, position, tracked, index
        self.grad: Optional[Value] = None
        self.count = 1

    def __repr__(self) -> str:
        return f"VizEdge({self.src} -> {self.dst} [{self.position}])"


class GraphModel(PassRecording):
    """Nodes, edges and backward passes of one drawing (see the module docstring).

    ``max_nodes`` is the node budget: past it, a new node that repeats the shape of a visible one (same
    kind, same op, same kinds of inputs) is folded into it (``hidden`` counts them), and any other new node
    into one ``collapsed`` node per layer. Before that, an op that repeats a drawn op a backward pass ran (the
    next step of a training loop) is counted on it (:meth:`_copy_op`), so a loop draws one step. ``grow=False``
    keeps the structure fixed: events then only update gradients, saved state and the replay of the nodes
    already drawn.
    """

    def __init__(self, max_nodes: Optional[int] = 400, grow: bool = True) -> None:
        self.max_nodes = max_nodes
        self.grow = grow
        self.layout = Layout()
        self.visible: list = []      # VizNode in display order (index)
        self.edges: list = []        # VizEdge in display order
        self._passes: list = []      # one list of backward events per recorded pass (the last MAX_PASSES)
        self.pass_count = 0          # passes recorded so far, including those no longer kept
        self.version = 0             # bumps on every change
        self._nodes: dict = {}       # key -> VizNode (visible ones)
        self._rep: dict = {}         # folded key -> visible key
        self._recent_copies = collections.deque()  # the ids of the last copies of a learned step (_count_copy)
        self._copies_due = [(), (), 0]  # (keys, edges, copies) of a learned step not counted on them yet
        self._edge_keys: dict = {}   # (src, dst, position) -> VizEdge
        self._edge_at: dict = {}     # (dst, position) -> VizEdge
        self._acc: dict = {}         # AccumulateGrad node id -> leaf key
        self._pending: dict = {}     # tensor id -> value (see _head) of constants not drawn yet
        self._by_sig: dict = {}      # shape signature -> first visible key
        self._more: dict = {}        # layer -> key of its collapsed node
        self._folds: dict = {}       # (kind, op, layer, visible inputs) -> where such a node folds (see _fold)
        self._repeats: dict = {}     # shape of an op past the budget -> how it folds (see _repeat_op)
        self._copies: dict = {}      # shape of a drawn op, whichever constants it takes -> its key (see _copy_op)
        self._ran: set = set()       # keys of the drawn nodes a backward pass of this drawing ran
        self._copied = ([], [])      # what _copy_op counted since the last pass: (keys, edges)
        self._grown = 0              # how many nodes were drawn at the end of this drawing's last pass
        self._step = None            # a repeated step, learned (see PassRecording._learn_step)
        self._objects: dict = {}     # id(obj) -> (obj, key) for objects walked without engine ids (torch)
        self._enriched: set = set()
        self._current: Optional[list] = None
        self._queue: list = []       # events of the current pass not applied yet (see handlers)
        self._deferred = collections.deque()  # passes taken, not applied yet (see take_pass)
        self._json: dict = {}        # key -> cached node JSON (what it shows; geometry adds where)
        self._edge_cache: dict = {}  # edge index -> cached edge JSON, until its gradient changes
        self._geometry = Geometry()  # sizes, positions and routes of the snapshot
        self._texts: dict = {}       # ("nodes" | "edges", start) -> (the dicts of a run, their JSON text)
        self._flowing: list = []     # edges that show a gradient of the current pass
        self._flows: list = []       # gradient_flowed events of the current pass not yet written on edges
        self._grads: dict = {}       # key -> new .grad array not yet turned into a Value
        self._synthetic = itertools.count(-1, -1)
        self.hidden = 0
        self.note = ""               # said once: the leaves' .grad changed since this drawing's last pass
        self.counting = False        # past the budget, a live drawing counts passes instead of growing
        self.counted = [0, 0]        # backward passes, and the nodes they ran, counted that way
        self.grouping = Grouping()   # the module calls that made its nodes (see groups.py)
        self.names: dict = {}        # tensor id -> the variable naming it, at the last set_names

    # ------------------------------------------------------------------ building
    @classmethod
    def from_tensor(cls, tensor, namespace: Optional[Mapping] = None, max_nodes: Optional[int] = 400,
                    grow: bool = False) -> "GraphModel":
        """The graph that produced ``tensor`` (ours or PyTorch's), with names from ``namespace``."""
        model = cls(max_nodes=max_nodes, grow=grow)
        model.grouping.calls = CALLS  # the module calls of the session, if recorded (see groups.CALLS)
        model.add_tensor(tensor)
        if namespace is not None:
            model.set_names(tensors_in(namespace))
            model.grouping.names = module_names(namespace.items())
        return model

    @classmethod
    def from_trace(cls, trace: Iterable, namespace: Optional[Mapping] = None,
                   max_nodes: Optional[int] = 400) -> "GraphModel":
        """The graph built by a recorded event trace (``events.record()``), with its backward passes."""
        model = cls(max_nodes=max_nodes)
        model.apply_all(trace)
        if namespace is not None:
            model.set_names(tensors_in(namespace))
            model.grouping.names = module_names(namespace.items())
        return model

    def node(self, key: int) -> Optional[VizNode]:
        """The visible node for ``key`` (following folds), or None when it is not in the drawing."""
        node = self._nodes.get(key)
        if node is None and key in self._rep:
            node = self._nodes.get(self._rep[key])
        return node

    def find(self, label: str) -> VizNode:
        """The first visible node whose label is ``label`` (handy in tests and lessons)."""
        for n in self.visible:
            if n.label == label:
                return n
        raise KeyError(f"no node labelled {label!r}; labels: {[n.label for n in self.visible]}")

    def edges_into(self, key: int) -> list:
        return [e for e in self.edges if e.dst == key]

    def edges_from(self, key: int) -> list:
        return [e for e in self.edges if e.src == key]

    @property
    def full(self) -> bool:
        """Whether the node budget is spent."""
        return self.max_nodes is not None and len(self.visible) >= self.max_nodes

    @property
    def leaves(self) -> list:
        return [n for n in self.visible if n.kind == "leaf"]

    def _touch(self, key: int) -> None:
        self._json.pop(key, None)  # its cached drawing is stale
        self.version += 1

    def _retyped(self, key: int) -> None:
        """A node's kind or op changed: its drawing, and the folds remembered from its signature, are stale."""
        self._folds.clear()
        self._repeats.clear()
        self._copies.clear()
        self._touch(key)

    def _new(self, key: int, kind: str, op: str = "", tensor_id=None, value=None, inputs=(),
             layer: Optional[int] = None, near: Optional[float] = None) -> VizNode:
        """Add a node (or fold it) and return the visible node that stands for it."""
        nodes, rep = self._nodes, self._rep
        reps = tuple([k if k in nodes else rep.get(k) for k in inputs]) if inputs else ()  # None: not drawn yet
        if self.max_nodes is not None and len(self.visible) >= self.max_nodes:
            return self._fold(key, kind, op, reps, layer)
        node = VizNode(key, kind, op, tensor_id, value if value is None or type(value) is Value else Value.of(value))
        node.inputs = tuple(inputs)
        node.layer, node.slot = self.layout.place(key, reps, layer, near)
        node.index = len(self.visible)
        self.visible.append(node)
        self._nodes[key] = node
        self._touch(key)
        return node

    def _signature(self, kind: str, op: str, reps: tuple) -> tuple:
        """What makes two nodes "the same structure": kind, op and the kinds of their inputs.

        An input not drawn yet is a constant (they are placed just after their consumer).
        """
        nodes = self._nodes
        return kind, op, tuple([(nodes[r].kind, nodes[r].op) if r in nodes else _UNDRAWN for r in reps])

    def _fold(self, key: int, kind: str, op: str, reps: tuple, layer: Optional[int]) -> VizNode:
        """Fold a node past the budget into the visible node that stands for it, and count it there.

        Which node that is depends only on the kind, the op, the layer asked for and the visible nodes the
        inputs stand for (``reps``, None: not drawn yet), so it is remembered in ``_folds``: the next step of
        a training loop, which repeats the structure of the one before, costs one dict lookup per node.
        """
        target = self._folds.get((kind, op, layer, reps))
        if target is None:
            target = self._folds[kind, op, layer, reps] = self._fold_target(kind, op, reps, layer)
        return self._count(key, target)

    def _count(self, key: int, target: int) -> VizNode:
        """Count the folded node ``key`` on the visible node ``target`` that stands for it."""
        rep = self._rep
        if len(rep) >= _REP_LIMIT:
            self._forget()
        rep[key] = target
        node = self._nodes[target]
        node.hidden += 1
        self.hidden += 1
        self._json.pop(target, None)  # what _touch does
        self.version += 1
        return node

    def _forget(self) -> None:
        """Forget the older half of the folded ids (a graph that old is gone)."""
        rep = self._rep
        for old in list(itertools.islice(rep, _REP_LIMIT // 2)):
            del rep[old]

    def _fold_target(self, kind: str, op: str, reps: tuple, layer: Optional[int]) -> int:
        """The first visible node of the same signature, else the layer's collapsed node (made on demand)."""
        if not self._by_sig:  # the budget is spent: index the shapes of what is drawn, once
            for n in self.visible:
                self._by_sig.setdefault(self._signature(n.kind, n.op, tuple(self._visible_key(k) for k in n.inputs)),
                                        n.key)
        target = self._by_sig.get(self._signature(kind, op, reps))
        if target is None:  # a chain of a new kind (300 `* c`, then 10,000 `tanh()`) folds into one node
            target = next((r for r in reps if r in self._nodes and self._nodes[r].kind == "collapsed"), None)
        if target is None and len(self._more) >= MAX_COLLAPSED:
            target = self._more[max(self._more)]
        if target is None:
            if layer is None:
                layer = 1 + max((self._nodes[r].layer for r in reps if r in self._nodes), default=-1)
            target = self._more.get(layer)
            if target is None:
                target = next(self._synthetic)
                more = VizNode(target, "collapsed")
                more.layer, more.slot = self.layout.place(target, (), layer)
                more.index = len(self.visible)
                self.visible.append(more)
                self._nodes[target] = more
                self._more[layer] = target
        return target

    def _visible_key(self, key: int) -> int:
        return key if key in self._nodes else self._rep.get(key, key)

    def _edge(self, src: int, dst: int, position: int, tracked: bool) -> None:
        """An edge between the visible nodes ``src`` and ``dst``, or one more count on the one already there."""
        if src == dst:
            return
        found = self._edge_keys.get((src, dst, position))
        if found is not None:
            found.count += 1
            return
        edge = VizEdge(src, dst, position, tracked, len(self.edges))
        self.edges.append(edge)
        self._edge_keys[(src, dst, position)] = edge
        self._edge_at.setdefault((dst, position), edge)
        self.version += 1

    def _ensure_input(self, spec: tuple) -> int:
        """Make sure an input exists (leaves at layer 0); constants are placed later, beside their consumer."""
        key, kind, tensor_id, value, _ = spec
        if key in self._nodes or key in self._rep:
            node = self.node(key)
            if node is not None and node.kind == "constant" and kind == "leaf":
                node.kind = "leaf"  # requires_grad_() after creation
                self._retyped(node.key)
            return key
        if kind != "constant":
            self._new(key, kind, "" if kind == "leaf" else "?", tensor_id, value, layer=0 if kind == "leaf" else None)
        return key

    def _add_op(self, key: int, op: str, specs: list, saved: tuple, tensor_id: Optional[int],
                saved_state: str) -> VizNode:
        """Add a function node after its inputs; ``specs`` describe the inputs (see :meth:`_input_specs`)."""
        nodes, rep, edges = self._nodes, self._rep, self._edge_keys
        for spec in specs:  # an input drawn or folded as what it is needs no check
            kind = spec[1]
            if kind == "op" and (spec[0] in nodes or spec[0] in rep) or kind == "constant" or kind == "absent":
                continue
            if kind == "leaf" and spec[0] in nodes and nodes[spec[0]].kind == "leaf":
                continue
            self._ensure_input(spec)
        node = self._new(key, "op", op, tensor_id, None, inputs=[s[0] for s in specs if s is not _ABSENT])
        dst = node.key
        if dst == key:
            node.saved = _in_input_order(saved)
            node.saved_state = saved_state if saved else "none"
        for position, (ckey, kind, ctid, cvalue, tracked) in enumerate(specs):
            if kind == "absent":
                continue
            src = ckey if ckey in nodes else rep.get(ckey)
            if src is None:
                src = self._new(ckey, kind, "", ctid, cvalue, layer=max(node.layer - 1, 0), near=node.slot).key
            edge = edges.get((src, dst, position))
            if edge is not None:
                edge.count += 1  # a folded edge: one more behind the drawn one
            else:
                self._edge(src, dst, position, tracked)
        return node

    # ------------------------------------------------------------------ events
    def apply(self, event) -> None:
        """Update the model with one engine event (any kind; unknown kinds are ignored)."""
        self.apply_all((event,))

    def apply_all(self, events: Iterable) -> None:
        """Update the model with engine events, in order; the values they show are formatted once, at the end."""
        handlers = self.handlers()
        for event in events:
            handler = handlers.get(event.kind)
            if handler is not None:
                handler(event)
        self.settle()

    def handlers(self) -> dict:
        """``kind -> handler``: ``handlers()[event.kind](event)`` takes one event as it arrives (call
        :meth:`settle` before reading the model). The events inside a backward pass (``_QUEUED``) are only
        appended to a list, one C call each, and applied together in one loop when the pass ends or the model
        is read: the live widget subscribes these handlers directly, kind by kind."""
        handlers = {kind: handler.__get__(self) for kind, handler in _HANDLERS.items()}
        handlers.update(dict.fromkeys(_QUEUED, self._queue.append))
        handlers.update(self.grouping.calls.handlers())
        return handlers

    def settle(self, passes: bool = True) -> None:
        """Apply the queued events and (unless ``passes=False``) the passes taken (:meth:`take_pass`); turn what
        the events left as arrays into :class:`Value`: the gradients on edges and nodes."""
        self._put_copies()
        if self._queue:
            self._drain()
        while passes and self._deferred:
            events = self._deferred.popleft().events
            self._backward_started(events[0])
            self._queue.extend(events[1:-1])
            self._backward_ended(events[-1])
        last = {}
        for e in self._flows:
            src = self.key_of_node(e.source_id)
            edge = self._edge_at.get((src, e.position)) if src is not None else None
            if edge is not None:
                last[edge] = e.value
        self._flows = []
        for edge, value in last.items():
            if edge.grad is None:
                self._flowing.append(edge)
            edge.grad = Value.of(value)
            self._edge_cache.pop(edge.index, None)
            self.version += 1
        for key, value in self._grads.items():
            self._nodes[key].grad = Value.of(value)
            self._touch(key)
        self._grads = {}

    def _tensor_created(self, e) -> None:
        if self._queue:  # (create_graph=True) what came before applies first
            self._drain()
        if not e.is_leaf:
            node = self._nodes.get(e.grad_fn_id)
            if node is None or node.several:
                return
            if node.tensor_id not in (None, e.tensor_id):  # a second output (split): no one value stands for it
                node.several = True
                node.value = node.shape = node.tensor_id = None
            elif node.value is None:
                node.value = Value.of(e.value)
                node.shape = node.value.shape
                node.tensor_id = e.tensor_id
            self._touch(node.key)
            return
        if not self.grow:
            return
        if e.requires_grad:
            if e.tensor_id not in self._nodes and e.tensor_id not in self._rep:
                self._new(e.tensor_id, "leaf", "", e.tensor_id, e.value, layer=0)
            return
        if len(self._pending) >= _PENDING:
            del self._pending[next(iter(self._pending))]
        self._pending[e.tensor_id] = _head(e.value)

    def _graph_cut(self, e) -> None:
        """A cut seen in this model's own events (a recorded trace): kept for :func:`cuts.cut_marks`."""
        if not hasattr(self, "cuts"):
            self.cuts = CutLog()
        self.cuts.apply(e)
        self.version += 1

    def _node_created(self, e) -> None:
        if self._queue:
            self._drain()
        if not self.grow:
            return
        if e.leaf_nodes:
            self._acc.update(e.leaf_nodes)  # AccumulateGrad node id -> leaf tensor id
        if self.max_nodes is not None and len(self.visible) >= self.max_nodes:
            self._repeat_op(e)
            return
        copies = self._copies
        if self._ran:
            target = copies.get(self._shape(e, constants=False))
            if target in self._ran:
                self._copy_op(e, target)
                return
        node = self._add_op(e.node_id, e.name, self._specs(e), tuple([n for n, _ in e.saved]), e.output_id,
                            "saved" if e.saved else "none")
        if node.key == e.node_id:
            copies.setdefault(self._shape(e, constants=False), node.key)

    def _specs(self, e) -> list:
        """The inputs of a NodeCreated event as :meth:`_add_op` takes them (see :meth:`_input_specs`)."""
        acc, pending = self._acc, self._pending
        specs = []
        for (nid, _), tid, number in zip(e.next_functions, e.input_ids, e.constants or _NO_NUMBERS):
            if nid is None:  # a tensor without grad, or a Python number (no tensor id: a key of its own)
                if tid is None and number is None and e.constants:
                    specs.append(_ABSENT)  # an optional input left out (no bias): nothing to draw
                elif tid is None:
                    specs.append((next(self._synthetic), "constant", None, number, False))
                else:
                    specs.append((tid, "constant", tid, pending.pop(tid, None), False))
            elif nid in acc:
                specs.append((tid, "leaf", tid, pending.pop(tid, None), True))
            else:
                specs.append((nid, "op", tid, None, True))
        return specs

    def _shape(self, e, constants: bool = True) -> tuple:
        """A NodeCreated event's op name and, input by input, its kind and the visible node it stands for (None:
        not drawn yet; with ``constants=False``, None for every constant, whichever tensor or number it is)."""
        nodes, rep, acc = self._nodes, self._rep, self._acc
        shape = [e.name]
        for (nid, _), tid in zip(e.next_functions, e.input_ids):
            if nid is None:
                shape.append(("constant", (tid if tid in nodes else rep.get(tid)) if constants else None))
            else:
                key = tid if nid in acc else nid
                shape.append(("leaf" if nid in acc else "op", key if key in nodes else rep.get(key)))
        return tuple(shape)

    def _copy_op(self, e, target: int) -> None:
        """Count an op on the drawn op ``target`` it repeats, after a pass ran ``target``: the same op on the same
        drawn inputs (constants aside). So the next step of a training loop, a new graph over the same
        parameters, folds onto the first step's nodes (``× 300``) instead of drawing a copy of the step: the
        drawing stays one step, whose passes are all its own. Its new constants are counted on the target's
        constants and its edges on the target's edges."""
        nodes, rep, edge_at, pending = self._nodes, self._rep, self._edge_at, self._pending
        keys, edges = self._copied
        self._count(e.node_id, target)
        keys.append(target)
        for position, ((nid, _), tid) in enumerate(zip(e.next_functions, e.input_ids)):
            edge = edge_at.get((target, position))
            if edge is None:  # an optional input left out (no bias)
                continue
            edge.count += 1
            edges.append(edge)
            if nid is None and tid not in nodes and tid not in rep and nodes[edge.src].kind == "constant":
                pending.pop(tid, None)  # its value is not needed: it will not be drawn
                self._count(next(self._synthetic) if tid is None else tid, edge.src)
                keys.append(edge.src)

    def _count_copy(self, ids: tuple, onto: tuple, keys: list, edges: list) -> None:
        """One more copy of a learned step (see :meth:`PassRecording._repeat_step`): its graph nodes ``ids`` fold
        onto the step's keys ``onto`` (None, an id a pass did not name, folds nowhere), and what one copy counted
        (``keys``, ``edges``) is counted again, when the model is next read (:meth:`_put_copies`): a training
        loop then adds one to a count per pass, not one to each node and edge of its step."""
        rep = self._rep
        if len(rep) + len(ids) >= _REP_LIMIT:
            self._forget()
        rep.update(zip(ids, onto))
        rep.pop(None, None)
        recent = self._recent_copies
        recent.append(ids)
        if len(recent) > MAX_PASSES:  # that copy's pass is no longer kept (PassRecording._defer): nor its ids
            for i in recent.popleft():
                rep.pop(i, None)
        copies = self._copies_due
        if copies[0] is not keys:  # (another step's copies: put those first)
            self._put_copies()
            copies = self._copies_due = [keys, edges, 0]
        copies[2] += 1
        self.version += 1

    def _put_copies(self) -> None:
        """Count the copies :meth:`_count_copy` took on the nodes and edges of their step."""
        keys, edges, n = self._copies_due
        if not n:
            return
        self._copies_due = [(), (), 0]
        nodes, json = self._nodes, self._json
        for key in keys:
            nodes[key].hidden += n
            json.pop(key, None)  # its drawing is stale
        for edge in edges:
            edge.count += n
        self.hidden += n * len(keys)
        self.version += 1

    def _repeat_op(self, e) -> None:
        """:meth:`_add_op` past the budget, where everything folds. An op whose shape (its name, and the kind
        and visible node of each input) folded before folds the same way: it and its new inputs are counted
        where the first one went, and its edges on the edges drawn for it, with no signature worked out and
        no input described."""
        nodes, rep, acc = self._nodes, self._rep, self._acc
        shape = self._shape(e)
        plan = self._repeats.get(shape)
        if plan is None:  # the first of its shape: fold it step by step, and remember how
            specs = self._specs(e)
            dst = self._add_op(e.node_id, e.name, specs, (), None, "none").key
            folds = [rep.get(spec[0]) if seen[1] is None else None for spec, seen in zip(specs, shape[1:])]
            order = ([(i, f) for i, (f, spec) in enumerate(zip(folds, specs)) if f is not None and spec[1] != "constant"]
                     + [(-1, dst)]  # in _add_op's order: inputs, the op, then its constants
                     + [(i, f) for i, (f, spec) in enumerate(zip(folds, specs)) if f is not None and spec[1] == "constant"])
            edges = [self._edge_keys.get((spec[0] if spec[0] in nodes else rep.get(spec[0]), dst, position))
                     for position, spec in enumerate(specs)]
            self._repeats[shape] = (order, [edge for edge in edges if edge is not None])
            return
        order, edges = plan
        keys, pending = [], self._pending
        for (nid, _), tid in zip(e.next_functions, e.input_ids):
            if nid is None and tid is None:
                keys.append(next(self._synthetic))  # a Python number: a key of its own
            else:
                if nid is None or nid in acc:
                    pending.pop(tid, None)  # its value is not needed: it will not be drawn
                keys.append(tid if nid is None or nid in acc else nid)
        json = self._json
        for position, target in order:
            if len(rep) >= _REP_LIMIT:
                self._forget()
            rep[keys[position] if position >= 0 else e.node_id] = target
            nodes[target].hidden += 1
            json.pop(target, None)  # its drawing is stale
        self.hidden += len(order)
        self.version += len(order)
        for edge in edges:
            edge.count += 1

    # ------------------------------------------------------------------ walking grad_fn
    def _key(self, obj, create: bool = True) -> Optional[int]:
        """The key of a tensor or graph node: its engine id, or a synthetic one for PyTorch objects."""
        own = getattr(obj, "_id", None)
        if isinstance(own, int):
            return own
        entry = self._objects.get(id(obj))
        if entry is None:
            if not create:
                return None
            entry = self._objects[id(obj)] = (obj, next(self._synthetic))
        return entry[1]

    def add_tensor(self, tensor) -> Optional[VizNode]:
        """Add the graph that produced ``tensor`` by walking ``grad_fn``; mark it as a root; return its node."""
        fn = tensor.grad_fn
        if fn is None:
            kind = "leaf" if tensor.requires_grad else "constant"
            key = self._key(tensor)
            node = self.node(key) or self._new(key, kind, "", key, Value.of(_array(tensor)), layer=0)
            self._refresh(node, tensor)
        else:
            for f in _post_order(fn):
                if self.node(self._key(f)) is None:
                    specs = self._input_specs(f)
                    saved, state = _saved_of(f)
                    self._add_op(self._key(f), f.name(), specs, saved, None, state)
                self._enriched.add(self._key(f))
            node = self.node(self._key(fn))
            if node is not None and node.value is None:
                node.value = Value.of(_array(tensor))
                node.shape = node.value.shape
        if node is not None:
            node.root = True
            self._touch(node.key)
        return node

    def _input_specs(self, fn) -> list:
        """``(key, kind, tensor id, value, tracked)`` for each input of a function node."""
        specs = []
        for position, (child, _) in enumerate(fn.next_functions):
            if child is None:
                t = _saved_input(fn, position)
                if t is None and _left_out(fn, position):
                    specs.append(_ABSENT)
                    continue
                if t is not None:
                    key, value = self._key(t), Value.of(_array(t))
                else:  # freed by backward, or never saved: known by its id (named, its value, by set_names)
                    key, value = (freed_input(self, fn, position) or self._untracked_input(fn, position)
                                  or (next(self._synthetic), None))
                specs.append((key, "constant", key, value, False))
            elif hasattr(child, "variable"):
                leaf = child.variable
                key = self._key(leaf)
                self._acc[self._key(child)] = key
                specs.append((key, "leaf", key, Value.of(_array(leaf)), True))
                if self.node(key) is None:
                    self._ensure_input(specs[-1])
                    if key in self._nodes:
                        self._refresh(self._nodes[key], leaf)
            else:
                specs.append((self._key(child), "op", None, None, True))
        return specs

    def _untracked_input(self, fn, position: int) -> Optional[tuple]:
        """``(key, Value)`` of untracked input ``position`` of one of our nodes, as the engine noted it while
        someone listened (``fn._untracked``): a tensor's id (no value: the live tensor's comes with its name,
        :meth:`set_names`), or a Python number, under a key of its own. None for torch's nodes."""
        given = getattr(fn, "__dict__", {}).get("_untracked")
        entry = given[position] if given is not None and position < len(given) else None
        if entry is None:
            return None
        if isinstance(entry, int):
            return entry, None
        return next(self._synthetic), Value.of(entry)

    # ------------------------------------------------------------------ names and live values
    def set_names(self, pairs: Iterable) -> bool:
        """Name nodes after the ``(name, tensor)`` pairs (see :func:`names.tensors_in`); refresh their values.

        A node keeps its name while the variable is gone or points outside the drawing; when the name now
        points to another node of the drawing (``loss`` of the next step), it moves there. Returns True when
        something changed.
        """
        found, self.names = {}, {}
        for name, t in pairs:
            self.names.setdefault(getattr(t, "_id", None), name)  # also of tensors not drawn (a cut's source)
            fn = getattr(t, "grad_fn", None)
            key = self._key(fn if fn is not None else t, create=False)
            node = self._nodes.get(key)
            if (node is None or key in found or node.several or getattr(t, "output_nr", 0)
                    or getattr(fn, "_outputs", 0)):
                continue  # a piece of a split does not name the split node
            found[key] = name
            self._refresh(node, t)
            if fn is not None and node.key not in self._enriched:
                self._enrich(fn)
        before = self.version
        taken = set(found.values())
        for node in self.visible:
            name = found.get(node.key, "" if node.name in taken else node.name)
            if node.name != name:
                node.name = name
                self._touch(node.key)
        return self.version != before

    def _refresh(self, node: VizNode, t) -> None:
        """Take the current value (and ``.grad`` of a leaf) from a live tensor."""
        value = Value.of(_array(t))
        if node.value != value:
            node.value, node.shape = value, value.shape
            self._touch(node.key)
        if node.kind == "leaf" or getattr(t, "retains_grad", False):
            g = t._grad if hasattr(t, "_grad") else t.grad
            grad = Value.of(_array(g)) if g is not None else None
            if node.grad != grad:
                node.grad = grad
                self._touch(node.key)
        if node.kind == "op" and node.op == "?":
            node.op = t.grad_fn.name()
            self._retyped(node.key)

    def _enrich(self, fn) -> None:
        """Fill what events cannot tell (values of Python numbers, names of earlier ops) from live nodes."""
        stack = [fn]
        while stack:
            f = stack.pop()
            key = self._key(f, create=False)
            node = self._nodes.get(key)
            if key in self._enriched or node is None:
                continue
            self._enriched.add(key)
            if node.op == "?":
                node.op = f.name()
                self._retyped(key)
            for position, (child, _) in enumerate(f.next_functions):
                if child is None and position < len(node.inputs):
                    const = self._nodes.get(node.inputs[position])
                    t = _saved_input(f, position) if const is not None and const.value is None else None
                    if t is not None:
                        const.value = Value.of(_array(t))
                        const.shape = const.value.shape
                        self._touch(const.key)
                elif child is not None and not hasattr(child, "variable"):
                    stack.append(child)

    # ------------------------------------------------------------------ snapshot
    def snapshot(self, expanded: Optional[Iterable[int]] = None) -> dict:
        """The JSON-ready drawing: nodes and edges with pixel geometry, in display order (indices never change).

        When nodes were made by module calls, ``groups`` lists them (see :mod:`.groups`) and ``expanded`` says
        which are drawn open (default: all up to 30 nodes, none beyond); a node inside a closed group is placed
        on its group's box and marked ``inside``, an edge inside one has no ``path``.

        >>> import autograd_tutor as torch
        >>> x = torch.tensor(2., requires_grad=True)
        >>> s = GraphModel.from_tensor(x * x).snapshot()
        >>> [(n["label"], n["kind"]) for n in s["nodes"]], [(e["src"], e["dst"], e["pos"]) for e in s["edges"]]
        ([('leaf', 'leaf'), ('MulBackward0', 'op')], [(0, 1, 0), (0, 1, 1)])
        """
        cache, edge_cache = self._json, self._edge_cache
        nodes = [cache.get(n.key) or cache.setdefault(n.key, _node_json(n)) for n in self.visible]
        edges = [edge_cache.get(e.index) or edge_cache.setdefault(e.index, self._edge_json(e)) for e in self.edges]
        nodes, edges = cut_marks(self, nodes, edges)
        placed = self.grouping.view(self, nodes, edges, expanded)
        if placed is None:
            placed = self._geometry.place(nodes, edges, self.hidden)
        return dict(placed, counted=list(self.counted))

    def snapshot_json(self, snapshot: dict) -> str:
        """``json.dumps(snapshot)`` (compact) of what :meth:`snapshot` returned, encoding again only the runs of
        ``CHUNK`` nodes or edges in which one changed since the last call (the cached ones are the same dicts):
        syncing a big drawing costs about what changed in it.

        >>> import autograd_tutor as torch
        >>> m = GraphModel.from_tensor(torch.tensor(2., requires_grad=True) * 3)
        >>> m.snapshot_json(m.snapshot()) == json.dumps(m.snapshot(), separators=(",", ":"))
        True
        """
        parts = []
        for name, value in snapshot.items():
            if type(value) is list:
                runs = []
                for start in range(0, len(value), CHUNK):
                    items = value[start:start + CHUNK]
                    done = self._texts.get((name, start))
                    if done is None or len(done[0]) != len(items) or not all(map(operator.is_, done[0], items)):
                        done = self._texts[name, start] = (items, _dumps(items)[1:-1])
                    runs.append(done[1])
                parts.append(f'"{name}":[{",".join(runs)}]')
            else:
                parts.append(f'"{name}":{_dumps(value)}')
        return "{" + ",".join(parts) + "}"

    def _edge_json(self, e: VizEdge) -> dict:
        """What an edge shows (its place comes from :class:`Geometry`). (How many folded edges it stands for,
        ``count``, stays in Python: nothing draws it.)"""
        out = {"src": self._nodes[e.src].index, "dst": self._nodes[e.dst].index, "pos": e.position,
               "tracked": e.tracked, "grad": e.grad.text if e.grad is not None else ""}
        if e.grad is not None and e.grad.grid is not None:  # its label: the shape and a small heatmap
            out["heat"], out["numbers"] = heat_of(e.grad.grid, LABEL_HEAT), e.grad.numbers
        return out


def _node_json(n: VizNode) -> dict:
    out = {"key": n.index, "kind": n.kind, "label": n.label, "sub": n.subtitle, "op": n.op,
           "value": n.value.text if n.value is not None else "",
           "grad": n.grad.text if n.grad is not None else "",
           "saved": list(n.saved), "state": n.saved_state, "hidden": n.hidden, "root": n.root}
    if n.value is not None and n.value.grid is not None:  # drawn as a heatmap; its numbers in the tooltip
        out["heat"], out["numbers"] = heat_of(n.value.grid), n.value.numbers
    if n.grad is not None and n.grad.grid is not None:  # the gradient too, under its row
        out["gheat"], out["gnumbers"] = heat_of(n.grad.grid), n.grad.numbers
    return out


_dumps = json.JSONEncoder(separators=(",", ":")).encode


_HANDLERS = {
    "tensor_created": GraphModel._tensor_created,
    "node_created": GraphModel._node_created,
    "backward_started": GraphModel._backward_started,
    "backward_finished": GraphModel._backward_ended,
    "backward_failed": GraphModel._backward_ended,
    "graph_cut": GraphModel._graph_cut,
}
#: The event kinds only seen inside a backward pass: queued, applied by GraphModel._drain.
_QUEUED = ("node_executed", "gradient_flowed", "grad_accumulated", "hook_fired", "saved_tensors_freed")


_RANK = {n: i for i, n in enumerate(s for slot in _INPUT_SLOTS for s in slot)}
_RANK["result"] = len(_RANK) + 1


def _in_input_order(names) -> tuple:
    """Saved names in the order of the inputs they belong to (self, other, ...), then the rest, then result."""
    if len(names) < 2:
        return tuple(names)
    return tuple(sorted(names, key=lambda n: _RANK.get(n, len(_RANK) - 1)))


def _head(array):
    """A constant's value to keep until it is drawn: small arrays as they are (formatted only if drawn)."""
    return array if array.size <= 64 else Value.of(array)


def _array(t):
    """A tensor's values as a NumPy array (ours: ``_data``; PyTorch: ``detach().cpu().numpy()``)."""
    if hasattr(t, "_data"):
        return t._data
    return t.detach().cpu().numpy()


def _post_order(root) -> list:
    """Function nodes reachable from ``root`` (AccumulateGrad excluded), inputs before consumers."""
    order, seen = [], {id(root)}
    stack = [(root, iter(root.next_functions))]
    while stack:
        fn, children = stack[-1]
        for child, _ in children:
            if child is None or hasattr(child, "variable") or id(child) in seen:
                continue
            seen.add(id(child))
            stack.append((child, iter(child.next_functions)))
            break
        else:
            order.append(fn)
            stack.pop()
    return order


def _left_out(fn, position: int) -> bool:
    """Whether input ``position`` of one of our nodes is an optional input left out: empty, and without an edge
    (``conv2d(x, w)``'s bias). torch's nodes do not tell."""
    meta = getattr(fn, "_meta", None)
    return meta is not None and position < len(meta) and 0 in meta[position][0]


def _saved_input(fn, position: int):
    """The tensor an untracked input left in the node's saved slots (``x * 2`` saved the 2), if any."""
    if position >= len(_UNTRACKED_SLOTS):
        return None
    for name in _UNTRACKED_SLOTS[position]:
        try:
            t = getattr(fn, f"_saved_{name}")
        except (AttributeError, RuntimeError):
            continue
        if is_tensor(t) and not t.requires_grad:
            return t
    return None


def _saved_of(fn) -> tuple:
    """(names of the tensors a node saved, "saved" | "freed" | "none"), for our nodes and PyTorch's."""
    if hasattr(fn, "saved_summary"):
        if fn.__dict__.get("_saved", {}) is None:
            names = _in_input_order(fn.__dict__.get("_freed", ()))
            return names, "freed" if names else "none"
        names = _in_input_order(tuple(fn._saved or ()))
        return names, "saved" if names else "none"
    names, freed = [], False
    for attr in dir(fn):
        if not attr.startswith("_saved_"):
            continue
        try:
            value = getattr(fn, attr)
        except RuntimeError:
            names.append(attr[7:])
            freed = True
            continue
        if is_tensor(value):
            names.append(attr[7:])
    return tuple(names), ("freed" if freed else "saved") if names else "none"
