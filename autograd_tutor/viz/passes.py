"""The backward passes of one drawing: which passes are its own, and what they leave on it.

:class:`PassRecording` is the half of :class:`~autograd_tutor.viz.model.GraphModel` that takes backward passes
(the other half builds the graph): the events of a pass arrive one by one while it runs (a live drawing, or
:meth:`GraphModel.apply_all <autograd_tutor.viz.model.GraphModel.apply_all>` on a trace) or all at once from the
recent-pass history (:meth:`PassRecording.take_pass`, a drawing made after ``backward()``). A pass is the
drawing's own when it started at, ran or failed at one of its graph nodes; it is kept (the last ``MAX_PASSES``; of
a training loop's passes, the last ``MAX_COPIES``), made light (its big arrays cut to
:class:`~autograd_tutor.viz.format.Value` heads) when first read, and it marks the saved tensors kept or freed and
writes its gradients on the edges. :mod:`~autograd_tutor.viz.replay` turns the kept passes into steps.
"""
from __future__ import annotations

from typing import Optional

import operator

import numpy as np

from ..events import KINDS
from .format import Value

__all__ = ["PassRecording", "MAX_PASSES", "MAX_COPIES"]

#: Backward passes kept for replay (the most recent ones).
MAX_PASSES = 8
#: Of a training loop's passes (copies of the step the drawing learned, see :meth:`PassRecording.take_pass`),
#: the last ones kept: the loop's last step, and the one before it to show how its numbers changed. The passes
#: of one step are the same walk through the same nodes, so more would be the same replay again (and would cost
#: a loop drawn live about a millisecond each at the end of its cell).
MAX_COPIES = 2


class PassRecording:
    """The backward-pass methods of :class:`~autograd_tutor.viz.model.GraphModel` (they use its nodes, edges and
    state; see the module docstring)."""

    @property
    def passes(self) -> list:
        """The recorded backward passes (the last ``MAX_PASSES``), each a list of events whose arrays are
        replaced by :class:`Value` heads (made so once, when first read)."""
        passes = self._passes
        for i, records in enumerate(passes):
            if type(records) is list:
                made: dict = {}
                passes[i] = _LightPass([_light(e, made) for e in records])
        return passes

    def key_of_node(self, node_id: Optional[int]) -> Optional[int]:
        """The visible key for a graph node id (an AccumulateGrad id maps to its leaf)."""
        key = self._acc.get(node_id, node_id)
        node = self.node(key)
        return node.key if node is not None else None

    def edge_at(self, key: int, position: int) -> Optional[VizEdge]:
        """The edge into input ``position`` of the visible node ``key`` (where a gradient leaves it)."""
        return self._edge_at.get((key, position))

    def key_of_grad(self, e) -> Optional[int]:
        """The node whose ``.grad`` a GradAccumulated event changed: a leaf, or a non-leaf's op node."""
        node = self._nodes.get(e.tensor_id)
        if node is None:
            node = self.node(self._acc.get(e.node_id, e.node_id))
        return node.key if node is not None else None

    def _backward_started(self, e) -> None:
        if self._queue:
            self._drain()
        roots = [self.key_of_node(n) for n in e.root_node_ids]
        # a pass that starts outside the drawing (y.sum().backward() under GraphWidget(y)) is kept if it reaches it
        self._current = [e]
        if not any(r is not None for r in roots):
            return  # perhaps another graph's: the gradients on the edges stay until it writes its own
        self._flows = []
        for edge in self._flowing:  # a new pass: the gradients written on edges are the old pass's
            edge.grad = None
            self._edge_cache.pop(edge.index, None)
            self.version += 1
        self._flowing = []
        for r in roots:
            if r is not None and not self._nodes[r].root:
                self._nodes[r].root = True
                self._touch(r)

    def _drain(self) -> None:
        """Apply the queued events of the current pass, in order (outside a pass they mean nothing): record
        each (made light if it carries a big array), mark saved tensors kept or freed, note the gradients
        that flowed along edges and into ``.grad`` for :meth:`settle`."""
        queue, current = self._queue, self._current
        if current is None:
            queue.clear()
            return
        retain = current[0].retain_graph
        append, flows, ndarray, nodes, ran = current.append, self._flows, np.ndarray, self._nodes, self._ran
        made: dict = {}  # one Value per array: a gradient shows in node_executed, gradient_flowed and the next node
        for e in queue:
            kind = e.kind
            if kind == "gradient_flowed":
                v = e.value
                append(e if type(v) is not ndarray or v.size <= 64 else _light(e, made))
                flows.append(e)  # written on its edge by settle(), unless a new pass starts before
            elif kind == "node_executed":
                append(e if _all_small(e.grad_outputs + e.grad_inputs) else _light(e, made))
                if e.node_id in nodes:
                    ran.add(e.node_id)
                if retain:
                    node = self.node(e.node_id)
                    if node is not None and node.saved_state == "saved":
                        node.saved_state = "kept"
                        self._touch(node.key)
            elif kind == "saved_tensors_freed":
                append(e)
                node = self.node(e.node_id)
                if node is not None and node.saved_state != "freed":
                    node.saved_state = "freed"
                    self._touch(node.key)
            elif kind == "grad_accumulated":
                append(e if _all_small((e.before, e.after)) else _light(e, made))
                key = self.key_of_grad(e)
                if key is not None:
                    self._grads[key] = e.after
            else:  # hook_fired
                append(e)
        queue.clear()

    def _backward_ended(self, e) -> None:
        if self._queue:
            self._drain()
        current, self._current = self._current, None
        self._copied = ([], [])  # (what one copy of a step counted matters at the end of its pass only)
        if current is not None:
            current.append(e)
            if self._reached(current):  # else a pass of another graph
                self._passes.append(current)
                self.pass_count += 1
                del self._passes[:-(MAX_COPIES if self._a_copy(current) else MAX_PASSES)]
                self.version += 1

    def _a_copy(self, records: list) -> bool:
        """Whether a pass of this drawing ran only through nodes folded onto drawn ones: a later step of a
        training loop (one of which the replay keeps only the last ``MAX_COPIES``)."""
        ran = [r.node_id for r in records if r.kind == "node_executed"]
        return bool(ran) and not any(map(self._nodes.__contains__, ran)) and any(map(self._rep.__contains__, ran))

    def _reached(self, records: list) -> bool:
        """Whether a backward pass is this drawing's: it started in the drawing, or ran or failed at one of its
        graph nodes. Filling a leaf's ``.grad`` is not enough (the next step of a training loop builds a new graph
        that shares only the parameters), unless the drawing is leaves only."""
        ops = any(n.kind != "leaf" and n.kind != "constant" for n in self.visible)
        for r in records:
            kind = r.kind
            if kind == "backward_started":
                if any(self.key_of_node(n) is not None for n in r.root_node_ids):
                    return True
            elif kind in ("node_executed", "backward_failed"):
                if r.node_id in self._nodes or r.node_id in self._rep:
                    return True
            elif kind == "grad_accumulated" and not ops and self.key_of_grad(r) is not None:
                return True
        return False

    def take_pass(self, record) -> bool:
        """Take a recorded pass (:class:`~autograd_tutor.viz.history.PassRecord`) if it is this drawing's (see
        :meth:`_reached`), as if its events had just arrived; returns whether it was taken. A pass of another graph
        that changed the ``.grad`` of this drawing's leaves after its own pass sets :attr:`note`, once.

        A drawing that learned a repeated step (:attr:`repeating`) takes a pass of the same shape over new nodes as
        one more copy of the step; any other pass of a new graph makes it forget the step."""
        nodes, rep = self._nodes, self._rep
        if self._step is not None and self._repeat_step(record):
            self._defer(record, MAX_COPIES)
            return True
        if record.ran_through(nodes, rep) or record.filled(nodes) and self._reached(record.events):
            self._defer(record)
            self._ran.update(record.nodes & self._nodes.keys())  # what a repeat of them folds onto (_copy_op)
            self._learn_step(record)
            return True
        if self.counting:  # (not a change of version: only the counts in the snapshot change)
            self.counted[0] += 1
            self.counted[1] += record.ran
            return False
        if (self._passes or self._deferred) and not self.note and record.filled(nodes):
            self.note = ("The leaves' .grad changed since: a later backward pass of another graph that shares only "
                         "the leaves (a training step, say) accumulated into them. The replay shows this drawing's "
                         "own pass.")
            self.version += 1
        return False

    def _defer(self, record, keep: int = MAX_PASSES) -> None:
        """Keep a pass taken, to apply when the model is next read (settle): a training loop costs one check per
        pass, and only the passes still kept then are ever applied (the state they leave is the same). At most
        ``keep`` passes wait."""
        while len(self._deferred) >= keep:
            self._deferred.popleft()
            self.pass_count += 1
        self._deferred.append(record)
        self.note = ""
        self.version += 1

    @property
    def repeating(self) -> bool:
        """Whether the drawing learned a repeated step (a training loop, see :meth:`_learn_step`): it then counts
        the passes that repeat the step (:meth:`take_pass`) without seeing the operations that build each copy."""
        return self._step is not None

    def stop_repeating(self) -> None:
        """Forget the learned step (its copies are then folded as they are built, op by op)."""
        self._step = None

    def _learn_step(self, record) -> None:
        """At the end of a pass of this drawing: if everything built since its previous pass was a copy of drawn
        nodes (:meth:`_copy_op`) and the pass ran only through those copies, learn the step: the pass's shape,
        the drawn keys its nodes stand for, and what building one copy counted."""
        (keys, edges), self._copied = self._copied, ([], [])
        grown, self._grown = self._grown != len(self.visible), len(self.visible)
        if not keys or grown or not record.nodes.isdisjoint(self._nodes):
            return
        shape, ids = _shape_of(record.events)
        if shape is None:
            return
        folded = [(at, self.key_of_node(i)) for at, i in enumerate(ids) if i is not None]
        folded = [(at, key) for at, key in folded if key is not None]
        ran = record.nodes
        self._step = (shape, _picker([at for at, _ in folded]), tuple([key for _, key in folded]),
                      _picker([at for at, i in enumerate(ids) if i in ran]), keys, edges)

    def _repeat_step(self, record) -> bool:
        """A pass while the drawing repeats a step. Of the step's shape and over nodes not in the drawing, its
        nodes fold onto the step's keys and one more copy is counted (True). Of another shape, the step is
        forgotten, unless the pass ran through the drawing (False: it is taken as the drawing's own).

        The step knows where, among the node ids of a pass of its shape, sit the ones that fold (``fold_at``) and
        the ones the pass started at or ran (``ran_at``): a copy costs its shape and a few lookups."""
        shape, fold_at, fold_keys, ran_at, counts, edges = self._step
        nodes, rep = self._nodes, self._rep
        found, ids = _shape_of(record.events)
        if found != shape:
            if not record.ran_through(nodes, rep):
                self._step = None
            return False
        ran = ran_at(ids) + record.events[0].root_ids
        if any(map(nodes.__contains__, ran)) or any(map(rep.__contains__, ran)):
            return False  # a pass of this drawing's own nodes (record.ran_through, for a pass of this shape)
        self._count_copy(fold_at(ids), fold_keys, counts, edges)
        return True


def _shape_of(events) -> tuple:
    """A pass's structure, with each graph node id replaced by the order it first appears in, and those ids in
    that order: two passes over copies of one graph (the steps of a training loop) have the same shape.
    ``(None, ())`` for a pass that failed or was cut (:class:`~autograd_tutor.viz.history.EventsDropped`)."""
    order: dict = {}
    at = order.setdefault  # at(id, len(order)): the id's place in the order
    shape = []
    for e in events:
        kind = e.kind
        if kind == "gradient_flowed":
            shape.append((kind, at(e.source_id, len(order)), at(e.target_id, len(order)), e.input_nr, e.position))
        elif kind == "node_executed":
            shape.append((kind, at(e.node_id, len(order)), e.name))
        elif kind == "grad_accumulated":
            shape.append((kind, e.tensor_id, at(e.node_id, len(order))))
        elif kind == "saved_tensors_freed":
            shape.append((kind, at(e.node_id, len(order)), e.names))
        elif kind == "hook_fired":
            shape.append((kind, e.hook_kind, at(e.node_id, len(order)), e.tensor_id, e.hook_name))
        elif kind == "backward_started":
            shape.append((kind, tuple([at(i, len(order)) for i in e.root_node_ids]), e.retain_graph,
                          e.create_graph))
        elif kind != "backward_finished":
            return None, ()
    return tuple(shape), tuple(order)


def _picker(positions: list):
    """``itemgetter(*positions)``, always returning a tuple (also for none or one position)."""
    if len(positions) > 1:
        return operator.itemgetter(*positions)
    return lambda items: tuple([items[i] for i in positions])


_ARRAYS = {"gradient_flowed": ("value",), "grad_accumulated": ("before", "after")}
_ARRAY_TUPLES = {"node_executed": ("grad_outputs", "grad_inputs")}
#: Where the arrays are among an event's fields, by kind (what :func:`_light` cuts).
_ARRAYS_AT = {kind: tuple(cls._fields.index(f) for f in _ARRAYS.get(kind) or _ARRAY_TUPLES.get(kind, ()))
              for kind, cls in KINDS.items()}


class _LightPass(list):
    """The records of a pass once made light (see :attr:`GraphModel.passes`)."""


def _all_small(arrays: tuple) -> bool:
    """True when none of an event's ``arrays`` is big enough to cut before its pass is kept (a NumPy scalar, what
    an event carries for 0-dim data, never is)."""
    for x in arrays:
        if type(x) is np.ndarray and x.size > 64:
            return False
    return True


def _light(e, made: dict):
    """The event (same type and fields) with its arrays replaced by :class:`Value` heads; ``made`` maps the id of
    each array already turned into a Value (within one pass, whose events keep the arrays alive) to that Value."""
    at = _ARRAYS_AT.get(e.kind)
    if not at:
        return e
    fields = list(e)
    for i in at:
        v = fields[i]
        fields[i] = tuple([_value(x, made) for x in v]) if type(v) is tuple else _value(v, made)
    return tuple.__new__(type(e), fields)


def _value(x, made: dict) -> Optional[Value]:
    if x is None or type(x) is Value:
        return x
    value = made.get(id(x))
    if value is None:
        value = made[id(x)] = Value.of(x)
    return value
