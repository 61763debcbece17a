"""The event stream: what the engine tells the outside world while it works.

The engine calls :func:`emit` at each step of its life: a tensor or graph node is created, backward starts,
a node runs, a gradient flows along an edge, a leaf accumulates, saved tensors are freed, backward ends or
fails. Widgets, quizzes and your own code listen with :func:`subscribe` or :func:`record`; the engine never
knows who listens. With no subscriber, each would-be event costs the engine one truth test of a list.

Events are immutable named tuples. Each carries a sequence number ``seq``, stable integer ids for the tensors and
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

import itertools
import sys
import warnings
from collections import namedtuple
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Optional

import numpy as np

__all__ = [
    "Event", "TensorCreated", "NodeCreated", "BackwardStarted", "NodeExecuted", "GradientFlowed",
    "GradAccumulated", "HookFired", "SavedTensorsFreed", "BackwardFinished", "BackwardFailed",
    "ModuleEntered", "ModuleLeft", "GraphCut", "KINDS", "subscribe", "record", "Trace", "Subscription", "emit",
    "wanted", "copy_of",
]

_seq = itertools.count(1)
#: The live subscribers as ``(callback, kinds or None)``. The engine tests this list before building an event.
_subscribers: list = []


class Event:
    """Base of all events: ``seq`` orders them; ``kind`` names them (``"node_created"``, ...).

    An event is an immutable named tuple: read its fields by name (``e.node_id``) or unpack it.
    Its repr leaves out the arrays it carries (``_hidden``)."""
    __slots__ = ()
    kind = "event"
    _hidden: tuple = ()

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in zip(self._fields, self) if k not in self._hidden)
        return f"{type(self).__name__}({shown})"


def _fields(names: str, defaults: tuple = ()) -> type:
    """The named-tuple base of one event class: ``seq`` and then ``names``."""
    return namedtuple("Fields", "seq " + names, defaults=defaults)


class TensorCreated(Event, _fields("tensor_id shape dtype requires_grad is_leaf grad_fn_id value")):
    """A tensor was made by a factory (``torch.tensor``) or an operation."""
    __slots__ = ()
    kind = "tensor_created"
    _hidden = ("value",)


class NodeCreated(Event, _fields("node_id name next_functions input_ids output_id saved leaf_nodes constants",
                                 defaults=((), ()))):
    """An operation recorded a backward node (``MulBackward0``) that will send gradients to its inputs.

    ``next_functions`` mirrors the node's ``next_functions`` as ``(node_id or None, input_nr)``;
    ``input_ids`` gives the tensor id of each forward input (None for a Python number, and for an optional
    input left out, such as ``conv2d(x, w)``'s bias: an empty tensor without an edge, whose constant is None);
    ``saved`` names what the node saved for backward as ``(name, shape)`` pairs.
    ``leaf_nodes`` maps the id of each AccumulateGrad node among the next functions to its leaf's tensor id;
    ``constants`` gives, input by input, the value of a Python number (the ``2`` of ``x * 2``), else None.
    """
    __slots__ = ()
    kind = "node_created"


class BackwardStarted(Event, _fields("root_ids root_node_ids retain_graph create_graph")):
    """``backward()`` or ``autograd.grad()`` began from ``root_ids`` (tensor ids) and their grad_fn nodes."""
    __slots__ = ()
    kind = "backward_started"


class NodeExecuted(Event, _fields("node_id name grad_outputs grad_inputs")):
    """A node ran: it received ``grad_outputs`` and produced ``grad_inputs`` (None where an input needs none)."""
    __slots__ = ()
    kind = "node_executed"
    _hidden = ("grad_outputs", "grad_inputs")


class GradientFlowed(Event, _fields("source_id target_id input_nr position value")):
    """A gradient ``value`` travelled along the edge ``source_id -> target_id`` into input ``input_nr``.

    ``source_id`` is the node that produced it; ``target_id`` is the next node (an AccumulateGrad for a leaf).
    ``position`` is the edge's index among the source node's next_functions.
    """
    __slots__ = ()
    kind = "gradient_flowed"
    _hidden = ("value",)


class GradAccumulated(Event, _fields("tensor_id node_id before after")):
    """A tensor's ``.grad`` changed: a leaf accumulated, or a non-leaf kept its grad (``retain_grad``)."""
    __slots__ = ()
    kind = "grad_accumulated"
    _hidden = ("before", "after")


class HookFired(Event, _fields("hook_kind node_id tensor_id hook_name")):
    """A user hook ran: ``hook_kind`` is "tensor", "prehook", "posthook" or "post_accumulate"."""
    __slots__ = ()
    kind = "hook_fired"


class SavedTensorsFreed(Event, _fields("node_id name names")):
    """Backward without ``retain_graph`` released what a node had saved (``names``)."""
    __slots__ = ()
    kind = "saved_tensors_freed"


class BackwardFinished(Event, _fields("root_ids")):
    """The backward pass that started last ended normally."""
    __slots__ = ()
    kind = "backward_finished"


class BackwardFailed(Event, _fields("node_id name error_type message")):
    """The backward pass stopped with an error raised at node ``node_id`` (None when raised before any node ran)."""
    __slots__ = ()
    kind = "backward_failed"


class ModuleEntered(Event, _fields("module_id type_name mark")):
    """An ``nn.Module`` call began: ``module_id`` is ``id(module)``, ``type_name`` its class name. Every tensor and node the call makes
    has an id above ``mark`` (and below the ``mark`` of its :class:`ModuleLeft`): drawings group them by module."""
    __slots__ = ()
    kind = "module_entered"


class ModuleLeft(Event, _fields("module_id mark")):
    """The ``nn.Module`` call that began last returned (or raised); ``mark`` is above every id it made."""
    __slots__ = ()
    kind = "module_left"


class GraphCut(Event, _fields("cause tensor_id source_ids source_node_ids op value position", (None,))):
    """Values left the graph: no gradient will flow back from ``tensor_id`` to the tensors ``source_ids``.

    ``cause`` says how: ``"detach"`` (``x.detach()``), ``"data"`` (``x.data``), ``"no_grad"`` (an operation on
    tensors that require grad, run under ``torch.no_grad()`` or ``inference_mode``: ``op`` names the node it did
    not record), ``"requires_grad"`` (a leaf's ``requires_grad`` switched off: ``tensor_id`` is the leaf itself),
    ``"derived"`` (computed, unrecorded, from the result of an earlier cut: ``source_ids`` are those results),
    ``"copy"`` (``torch.tensor(x)``: a copy without the history), or ``"item"`` / ``"tolist"`` / ``"float"`` /
    ``"int"`` / ``"numpy"``: the tensor ``source_ids[0]`` (one that requires grad; for ``numpy()``, which such a
    tensor refuses, any tensor) handed out its numbers (``value``), and a tensor built from them later starts a
    new graph (``tensor_id`` is None); when a tensor is built from those very Python objects (``torch.tensor(v)``
    or ``torch.tensor([v, 1.0])`` with ``v = w.item()``), the same cause follows with that tensor's
    ``tensor_id`` (``value`` None; every handed-out source among ``source_ids``). ``source_node_ids`` gives each
    source's grad_fn id (None for a leaf).

    ``"used"`` follows a cut: a tensor that may come from one (``tensor_id``: a cut's result, or a tensor built
    from numbers) became input ``position`` of the recorded node ``source_node_ids[0]`` (named ``op``), holding
    ``value``. So a drawing made after ``backward()``, which frees what that node saved, still finds the cut
    there. The engine emits this kind only while someone listens to it.
    """
    __slots__ = ()
    kind = "graph_cut"
    _hidden = ("value",)


#: Every event kind, by its ``kind`` string.
KINDS = {cls.kind: cls for cls in (TensorCreated, NodeCreated, BackwardStarted, NodeExecuted, GradientFlowed,
                                   GradAccumulated, HookFired, SavedTensorsFreed, BackwardFinished, BackwardFailed,
                                   ModuleEntered, ModuleLeft, GraphCut)}


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

    The engine calls this only after checking ``_subscribers``. A subscriber that raises is skipped and its
    first error reported as a RuntimeWarning: listening must never break the learner's code.
    """
    event_type.emit(**fields)


def _failed(sub: "Subscription", event: Event, exc: Exception) -> None:
    """Count a subscriber's error and warn about its first one, at the engine code that emitted the event
    (later ones only count in ``sub.errors``: a listener broken for every event would otherwise warn once
    per event, its message changing with each); where warnings are turned into errors, print instead."""
    sub.errors += 1
    if sub.errors > 1:
        return
    error = repr(exc)
    error = error if len(error) <= 200 else error[:197] + "..."
    message = (f"autograd_tutor: event subscriber {sub.callback!r} raised {error} on a {event.kind} event; the "
               "engine went on without it (later errors of this subscriber are only counted, in its .errors).")
    try:
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    except Warning:
        print(message, file=sys.stderr)


def _emitter(cls: type) -> Callable:
    """Generate ``cls.emit(field=..., ...)``: build the event and deliver it, if anyone wants it.

    Generated (as namedtuple generates ``__new__``) so that each field is a plain parameter and the event is
    made by one ``tuple.__new__``: no keyword dict, no per-field work. Events are built on the engine's hot
    path, several per operation."""
    names = cls._fields[1:]
    defaults = cls._field_defaults
    params = ", ".join(f"{n}={defaults[n]!r}" if n in defaults else n for n in names)
    source = "\n".join([
        f"def emit({params}):",
        "    subs = _routes[cls]",
        "    if not subs:",
        "        return",
        f"    event = _new(cls, (next(_seq), {', '.join(names)},))",
        "    for sub in subs:",
        "        try:",
        "            sub.callback(event)",
        "        except Exception as exc:  # a broken listener must not break the learner's code",
        "            _failed(sub, event, exc)",
    ])
    scope = {"cls": cls, "_routes": _routes, "_new": tuple.__new__, "_seq": _seq, "_failed": _failed}
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
        #: How many events the callback raised on (only the first is reported, as a RuntimeWarning).
        self.errors = 0

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
