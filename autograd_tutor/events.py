"""The event stream: what the engine tells the outside world while it works.

The engine calls :func:`emit` at each step of its life: a tensor or graph node is created, backward starts,
a node runs, a gradient flows along an edge, a leaf accumulates, saved tensors are freed, backward ends or
fails. Widgets, quizzes and your own code listen with :func:`subscribe` or :func:`record`; the engine never
knows who listens. With no subscriber, each would-be event costs the engine one truth test of a list.

Events are frozen dataclasses. Each carries a sequence number ``seq``, stable integer ids for the tensors and
nodes it mentions (``Tensor._id``, ``Node._id``), and *copies* of the arrays it mentions (0-dim values as NumPy
scalars), so a recorded trace never keeps a graph alive and never changes when the learner's tensors do.

>>> import autograd_tutor as torch
>>> from autograd_tutor import events
>>> a = torch.tensor(3., requires_grad=True)
>>> with events.record(kinds=["grad_accumulated"]) as trace:
...     (a * a).backward()
>>> [(e.kind, float(e.before or 0), float(e.after)) for e in trace]
[('grad_accumulated', 0.0, 6.0)]
"""
from __future__ import annotations

import dataclasses
import itertools
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

import numpy as np

__all__ = [
    "Event", "TensorCreated", "NodeCreated", "BackwardStarted", "NodeExecuted", "GradientFlowed",
    "GradAccumulated", "HookFired", "SavedTensorsFreed", "BackwardFinished", "BackwardFailed",
    "KINDS", "subscribe", "record", "Trace", "Subscription", "emit", "wanted", "copy_of",
]

_seq = itertools.count(1)
#: The live subscribers as ``(callback, kinds or None)``. The engine tests this list before building an event.
_subscribers: list = []


@dataclass(frozen=True)
class Event:
    """Base of all events: ``seq`` orders them; ``kind`` names them (``"node_created"``, ...)."""
    seq: int
    kind = "event"


@dataclass(frozen=True)
class TensorCreated(Event):
    """A tensor was made by a factory (``torch.tensor``) or an operation."""
    tensor_id: int
    shape: tuple
    dtype: str
    requires_grad: bool
    is_leaf: bool
    grad_fn_id: Optional[int]
    value: np.ndarray = field(repr=False)
    kind = "tensor_created"


@dataclass(frozen=True)
class NodeCreated(Event):
    """An operation recorded a backward node (``MulBackward0``) that will send gradients to its inputs.

    ``next_functions`` mirrors the node's ``next_functions`` as ``(node_id or None, input_nr)``;
    ``input_ids`` gives the tensor id of each forward input (None for a Python number);
    ``saved`` names what the node saved for backward as ``(name, shape)`` pairs.
    ``leaf_nodes`` maps the id of each AccumulateGrad node among the next functions to its leaf's tensor id;
    ``constants`` gives, input by input, the value of a Python number (the ``2`` of ``x * 2``), else None.
    """
    node_id: int
    name: str
    next_functions: tuple
    input_ids: tuple
    output_id: int
    saved: tuple
    leaf_nodes: tuple = ()
    constants: tuple = ()
    kind = "node_created"


@dataclass(frozen=True)
class BackwardStarted(Event):
    """``backward()`` or ``autograd.grad()`` began from ``root_ids`` (tensor ids) and their grad_fn nodes."""
    root_ids: tuple
    root_node_ids: tuple
    retain_graph: bool
    create_graph: bool
    kind = "backward_started"


@dataclass(frozen=True)
class NodeExecuted(Event):
    """A node ran: it received ``grad_outputs`` and produced ``grad_inputs`` (None where an input needs none)."""
    node_id: int
    name: str
    grad_outputs: tuple = field(repr=False)
    grad_inputs: tuple = field(repr=False)
    kind = "node_executed"


@dataclass(frozen=True)
class GradientFlowed(Event):
    """A gradient ``value`` travelled along the edge ``source_id -> target_id`` into input ``input_nr``.

    ``source_id`` is the node that produced it; ``target_id`` is the next node (an AccumulateGrad for a leaf).
    ``position`` is the edge's index among the source node's next_functions.
    """
    source_id: int
    target_id: int
    input_nr: int
    position: int
    value: np.ndarray = field(repr=False)
    kind = "gradient_flowed"


@dataclass(frozen=True)
class GradAccumulated(Event):
    """A tensor's ``.grad`` changed: a leaf accumulated, or a non-leaf kept its grad (``retain_grad``)."""
    tensor_id: int
    node_id: int
    before: Optional[np.ndarray] = field(repr=False)
    after: np.ndarray = field(repr=False)
    kind = "grad_accumulated"


@dataclass(frozen=True)
class HookFired(Event):
    """A user hook ran: ``hook_kind`` is "tensor", "prehook", "posthook" or "post_accumulate"."""
    hook_kind: str
    node_id: int
    tensor_id: Optional[int]
    hook_name: str
    kind = "hook_fired"


@dataclass(frozen=True)
class SavedTensorsFreed(Event):
    """Backward without ``retain_graph`` released what a node had saved (``names``)."""
    node_id: int
    name: str
    names: tuple
    kind = "saved_tensors_freed"


@dataclass(frozen=True)
class BackwardFinished(Event):
    """The backward pass that started last ended normally."""
    root_ids: tuple
    kind = "backward_finished"


@dataclass(frozen=True)
class BackwardFailed(Event):
    """The backward pass stopped with an error raised at node ``node_id`` (None when raised before any node ran)."""
    node_id: Optional[int]
    name: Optional[str]
    error_type: str
    message: str
    kind = "backward_failed"


#: Every event kind, by its ``kind`` string.
KINDS = {cls.kind: cls for cls in (TensorCreated, NodeCreated, BackwardStarted, NodeExecuted, GradientFlowed,
                                   GradAccumulated, HookFired, SavedTensorsFreed, BackwardFinished, BackwardFailed)}


def copy_of(array) -> np.ndarray:
    """What an event carries for an array: a copy, or for 0-dim data the NumPy scalar (immutable, and several
    times cheaper to make), so that the event never changes when the tensor does."""
    return array[()] if array.ndim == 0 else array.copy()


#: For each event class, the subscriptions that want it (rebuilt when one subscribes or leaves).
_routes: dict = dict.fromkeys(KINDS.values(), ())


def _reroute() -> None:
    for cls in KINDS.values():
        _routes[cls] = tuple([s for s in _subscribers if s.kinds is None or cls.kind in s.kinds])


def wanted(event_type: type) -> bool:
    """True when some subscriber listens to this kind: the engine skips preparing events nobody wants."""
    return bool(_routes[event_type])


def emit(event_type: type, **fields: Any) -> None:
    """Build one event and hand it to every subscriber that wants its kind (``emit(GradientFlowed, ...)`` is
    ``GradientFlowed.emit(...)``, which the engine calls directly).

    The engine calls this only after checking ``_subscribers``. A subscriber that raises is reported as a
    RuntimeWarning and skipped: listening must never break the learner's code.
    """
    event_type.emit(**fields)


def _failed(sub: "Subscription", event: Event, exc: Exception) -> None:
    """Warn about a subscriber that raised, at the engine code that emitted the event; where warnings are
    turned into errors, print the message instead."""
    message = (f"autograd_tutor: event subscriber {sub.callback!r} raised {exc!r} on a {event.kind} event; the "
               "engine went on without it.")
    try:
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    except Warning:
        print(message, file=sys.stderr)


def _emitter(cls: type) -> Callable:
    """Generate ``cls.emit(field=..., ...)``: build the event and deliver it, if anyone wants it.

    Generated (as dataclasses generate ``__init__``) so that each field is a plain parameter: no keyword
    dict, and the frozen event's fields written straight into its ``__dict__`` (its ``__setattr__`` refuses),
    about twice as fast as a generic builder. Events are built on the engine's hot path."""
    fields = [f for f in dataclasses.fields(cls) if f.name != "seq"]
    params = ", ".join(f.name if f.default is dataclasses.MISSING else f"{f.name}={f.default!r}" for f in fields)
    source = "\n".join([
        f"def emit({params}):",
        "    subs = _routes[cls]",
        "    if not subs:",
        "        return",
        "    event = _new(cls)",
        "    state = event.__dict__",
        "    state['seq'] = next(_seq)",
        *[f"    state[{f.name!r}] = {f.name}" for f in fields],
        "    for sub in subs:",
        "        try:",
        "            sub.callback(event)",
        "        except Exception as exc:  # a broken listener must not break the learner's code",
        "            _failed(sub, event, exc)",
    ])
    scope = {"cls": cls, "_routes": _routes, "_new": object.__new__, "_seq": _seq, "_failed": _failed}
    exec(source, scope)
    scope["emit"].__doc__ = f"Build a {cls.__name__} event and deliver it to its subscribers."
    return staticmethod(scope["emit"])


for _cls in KINDS.values():
    _cls.emit = _emitter(_cls)
del _cls


class Subscription:
    """Handle returned by :func:`subscribe`; ``remove()`` (or ``with``) stops the deliveries."""

    def __init__(self, callback: Callable[[Event], Any], kinds: Optional[Iterable[str]]):
        self.callback = callback
        self.kinds = None if kinds is None else frozenset(_check_kinds(kinds))

    def remove(self) -> None:
        if self in _subscribers:
            _subscribers.remove(self)
            _reroute()

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


def _check_kinds(kinds: Iterable[str]) -> list:
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown event kind(s) {unknown}; choose from {sorted(KINDS)}")
    return kinds


def subscribe(callback: Callable[[Event], Any], kinds: Optional[Iterable[str]] = None) -> Subscription:
    """Call ``callback(event)`` for every event (or only those whose ``kind`` is in ``kinds``).

    >>> seen = []
    >>> handle = subscribe(seen.append, kinds=["node_created"])
    >>> handle.remove()
    """
    if not callable(callback):
        raise TypeError(f"subscribe() expects a callable, got {type(callback).__name__}")
    sub = Subscription(callback, kinds)
    _subscribers.append(sub)
    _reroute()
    return sub


class Trace(list):
    """The events collected by :func:`record`, in order, with a filter by kind."""

    def of(self, kind: str) -> list:
        """The events of one kind, e.g. ``trace.of("gradient_flowed")``."""
        _check_kinds([kind])
        return [e for e in self if e.kind == kind]


@contextmanager
def record(kinds: Optional[Iterable[str]] = None):
    """Collect the events emitted inside the ``with`` block into a :class:`Trace`."""
    trace = Trace()
    sub = subscribe(trace.append, kinds)
    try:
        yield trace
    finally:
        sub.remove()
