"""The recent backward passes, kept so that a drawing made *after* ``backward()`` can still replay its pass.

Compute, call ``backward()``, then ``show(loss)``: that is the order people write, and by then the pass is over.
So once the widgets are in use (``autograd_tutor.widgets`` imported), :data:`HISTORY` listens to the events of
every backward pass and keeps the last :data:`KEEP` of them, each bounded: a pass of more than
``HEAD + TAIL`` events keeps its first ``HEAD`` and last ``TAIL`` events and counts the ones between (the
learner can watch the start and the end; the middle is summarised). The engine itself knows nothing of this.

A drawing takes the passes that ran through its own graph nodes (:meth:`PassRecord.ran_through`); a pass of
another graph that only shares the leaves (the next step of a training loop) is not its pass, but it did change
the leaves' ``.grad`` (:meth:`PassRecord.filled`).

>>> import autograd_tutor as torch
>>> history = History(); history.start()
>>> x = torch.tensor(2., requires_grad=True)
>>> y = x * 3
>>> y.backward()
>>> record = history.passes[-1]
>>> record.number, [e.kind for e in record.events]
(1, ['backward_started', 'node_executed', 'saved_tensors_freed', 'gradient_flowed', 'grad_accumulated', \
'backward_finished'])
>>> record.ran_through({y.grad_fn._id}), record.filled({x._id})
(True, True)
>>> history.stop()
"""
from __future__ import annotations

import collections
from typing import Callable, Optional

from .. import events

__all__ = ["History", "PassRecord", "EventsDropped", "HISTORY", "KEEP", "HEAD", "TAIL"]

#: Backward passes kept (the most recent ones).
KEEP = 8
#: Events kept from the start and from the end of one pass; the ones between are counted.
HEAD, TAIL = 3000, 1000
#: The kinds queued as they arrive (one C call each: a list's ``append``).
_INSIDE = ("node_executed", "gradient_flowed", "grad_accumulated", "hook_fired", "saved_tensors_freed")


class EventsDropped(tuple):
    """Stands in a kept pass for the ``count`` events between its head and its tail that were not kept."""
    __slots__ = ()
    kind = "events_dropped"

    def __new__(cls, count: int):
        return tuple.__new__(cls, (count,))

    @property
    def count(self) -> int:
        return self[0]


class PassRecord:
    """One backward pass: ``events`` from ``backward_started`` to ``backward_finished`` (or ``_failed``), with
    an :class:`EventsDropped` where the middle of a long pass was cut; ``number`` counts passes from 1."""
    __slots__ = ("events", "number", "dropped", "_nodes", "_filled", "_ran")

    def __init__(self, started, body: list, ended, number: int) -> None:
        self.dropped = len(body) - HEAD - TAIL if len(body) > HEAD + TAIL else 0
        if self.dropped:
            body = body[:HEAD] + [EventsDropped(self.dropped)] + body[-TAIL:]
        self.events = [started, *body, ended]
        self.number = number
        self._nodes: Optional[frozenset] = None
        self._filled: Optional[frozenset] = None
        self._ran: Optional[int] = None

    @property
    def ran(self) -> int:
        """How many graph nodes ran (AccumulateGrad included; the events dropped from the middle counted as
        nodes in the proportion of the kept ones)."""
        if self._ran is None:
            kept = [e.kind == "node_executed" for e in self.events]
            ran = sum(kept)
            self._ran = ran + (round(self.dropped * ran / max(len(kept) - 3, 1)) if self.dropped else 0)
        return self._ran

    @property
    def nodes(self) -> frozenset:
        """The ids of the graph nodes the pass started at, ran or failed at (and of a leaf it started at)."""
        if self._nodes is None:
            ids = set(self.events[0].root_node_ids) | set(self.events[0].root_ids)
            ids.update([e.node_id for e in self.events if e.kind == "node_executed" or e.kind == "backward_failed"])
            ids.discard(None)
            self._nodes = frozenset(ids)
        return self._nodes

    def ran_through(self, *keys) -> bool:
        """Whether the pass started at, ran or failed at a node whose id is in one of ``keys`` (sets or dicts of
        graph node ids; a leaf's tensor id counts for a pass that starts at the leaf)."""
        return any(any(map(m.__contains__, self.nodes)) for m in keys)

    def filled(self, *tensor_ids) -> bool:
        """Whether the pass changed the ``.grad`` of a tensor whose id is in one of ``tensor_ids``."""
        if self._filled is None:
            self._filled = frozenset([e.tensor_id for e in self.events if e.kind == "grad_accumulated"])
        return any(any(map(m.__contains__, self._filled)) for m in tensor_ids)

    def __repr__(self) -> str:
        return f"PassRecord(number={self.number}, events={len(self.events)}, dropped={self.dropped})"


class History:
    """Listens to backward passes and keeps the last ``keep`` (see the module docstring).

    ``listen(callback)`` calls ``callback(record)`` at the end of every pass (the live drawings use it instead of
    listening to each event themselves).
    """

    def __init__(self, keep: int = KEEP) -> None:
        self.passes: collections.deque = collections.deque(maxlen=keep)
        self.count = 0
        self._queue: list = []
        self._open: list = []          # (started event, where its events begin in _queue): nested passes stack
        self._listeners: list = []
        self._subscriptions: list = []

    def start(self) -> None:
        """Begin listening (idempotent)."""
        if not self._subscriptions:
            self._subscriptions = [events.subscribe(self._started, ("backward_started",)),
                                   events.subscribe(self._queue.append, _INSIDE),
                                   events.subscribe(self._ended, ("backward_finished", "backward_failed"))]

    def stop(self) -> None:
        for subscription in self._subscriptions:
            subscription.remove()
        self._subscriptions = []
        self._queue.clear()
        self._open.clear()

    @property
    def listening(self) -> bool:
        return bool(self._subscriptions)

    def listen(self, callback: Callable) -> Callable:
        self._listeners.append(callback)
        return callback

    def unlisten(self, callback: Callable) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def _started(self, e) -> None:
        self._open.append((e, len(self._queue)))

    def _ended(self, e) -> None:
        if not self._open:  # failed before it started (backward() of a tensor without grad): not a pass
            return
        started, begin = self._open.pop()
        body = self._queue[begin:]
        del self._queue[begin:]
        self.count += 1
        record = PassRecord(started, body, e, self.count)
        self.passes.append(record)
        for callback in tuple(self._listeners):
            try:
                callback(record)
            except Exception as exc:  # a broken drawing must not break the learner's backward()
                events._failed(events.Subscription(callback, None), e, exc)


#: The one history the widgets share (started when :mod:`autograd_tutor.widgets` is imported).
HISTORY = History()
