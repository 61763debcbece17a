"""``torch.autograd.profiler``: where the time of a block went, operation by operation, timed through the engine's
events.

While a :class:`profile` is open it listens to the event stream: each operation that records a graph node is one
call of ``aten::<name>`` (``AddmmBackward0`` -> ``aten::addmm``), timed from the event before it to its node's
creation; each backward node that runs is one call under its node's name. :class:`record_function` opens a range
of your own, and the composite operations (``F.linear``: ``aten::linear``) open one, around the calls inside:
a range's *CPU total* is its whole time, its *self CPU* the part not spent in the calls inside it.
``key_averages()`` sums the calls by name and ``table()`` prints them in torch's layout. Operations that record
nothing (under ``no_grad``, or on tensors that do not require grad) send no event and are not seen; the times are
this machine's, so they differ from run to run, as torch's do.

>>> import autograd_tutor as torch
>>> w = torch.ones(2, 2, requires_grad=True)
>>> with torch.autograd.profiler.profile() as prof:
...     with torch.autograd.profiler.record_function("step"):
...         loss = (w @ w).relu().sum()
>>> [(e.key, e.count) for e in prof.key_averages()]
[('step', 1), ('aten::mm', 1), ('aten::relu', 1), ('aten::sum', 1)]
>>> prof.key_averages().table().splitlines()[1].split()[:4]
['Name', 'Self', 'CPU', '%']
"""
from __future__ import annotations

import functools
import re
import time

from .. import events

__all__ = ["profile", "record_function", "composite", "FunctionEvent", "FunctionEventAvg", "EventList"]

#: the profiles open now, innermost last: record_function and the composite operations report to them
_active: list = []
SPACING = 2
COLUMN_WIDTH = 12


def _format_time(us: float) -> str:
    """torch's way to print a time given in microseconds: ``3.207ms``, ``67.505us``."""
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


def _share(us: float, total: float) -> str:
    return "NaN" if total == 0 else f"{us * 100.0 / total:.2f}%"


def _aten_name(node: str) -> str:
    """The operator a forward node stands for: ``AddmmBackward0`` -> ``aten::addmm``, ``MaxPool2DWithIndicesBackward0``
    -> ``aten::max_pool2d_with_indices``; a name that already has a namespace stays as it is."""
    if "::" in node:
        return node
    base = re.sub(r"(\d)D", r"\1d", re.sub(r"Backward\d*$", "", node))  # 2D -> 2d, a word's end
    return "aten::" + re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", base).lower()


class FunctionEvent:
    """One call: its ``key`` (name), when it started and ended (ns), the range it ran inside (``cpu_parent``) and the
    calls inside it (``cpu_children``). Times read in microseconds, as torch's."""

    def __init__(self, key: str, start: int, parent: "FunctionEvent | None") -> None:
        self.key = self.name = key
        self.start, self.end = start, start
        self.cpu_parent, self.cpu_children = parent, []
        self.count = 1
        if parent is not None:
            parent.cpu_children.append(self)

    @property
    def cpu_time_total(self) -> float:
        return (self.end - self.start) / 1e3

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(child.cpu_time_total for child in self.cpu_children)

    cpu_time = cpu_time_total

    def __repr__(self) -> str:
        return f"<FunctionEvent name={self.key} cpu_time={_format_time(self.cpu_time_total)}>"


class FunctionEventAvg:
    """The calls of one name added up: ``count``, ``cpu_time_total``, ``self_cpu_time_total`` and the average
    ``cpu_time`` (microseconds)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.count = 0
        self.cpu_time_total = self.self_cpu_time_total = 0.0

    def add(self, event) -> "FunctionEventAvg":
        self.count += event.count
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        return self

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={_format_time(self.self_cpu_time_total)} "
                f"cpu_time={_format_time(self.cpu_time)} count={self.count}>")


class EventList(list):
    """Calls (or their averages by name), with torch's ``table()``."""

    def key_averages(self) -> "EventList":
        """One :class:`FunctionEventAvg` per name, in the order the names first started."""
        averages: dict = {}
        for event in sorted(self, key=lambda e: e.start):
            averages.setdefault(event.key, FunctionEventAvg(event.key)).add(event)
        return EventList(averages.values())

    def table(self, sort_by: str | None = None, row_limit: int = 100, max_name_column_width: int = 55,
              header: str | None = None, top_level_events_only: bool = False) -> str:
        """torch's table: Name, Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg, # of Calls; sorted by
        the attribute ``sort_by`` (largest first), at most ``row_limit`` rows, then the self CPU time total."""
        if not self:
            return ""
        rows = sorted(self, key=lambda e: getattr(e, sort_by), reverse=True) if sort_by else list(self)
        name_width = min(max(len(e.key) for e in rows) + 4, max_name_column_width)
        widths = [name_width] + [COLUMN_WIDTH] * 6
        line = "".join(f"{{:>{w}}}" + " " * SPACING for w in widths)
        separator = "".join("-" * w + " " * SPACING for w in widths)
        total = sum(e.self_cpu_time_total for e in self)
        out = []
        if header is not None:
            out += ["=" * (sum(widths) + SPACING * (len(widths) - 1)), header]
        out += [separator, line.format("Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
                                       "# of Calls"), separator]
        if top_level_events_only:
            rows = [e for e in rows if getattr(e, "cpu_parent", None) is None]
        for e in rows[:row_limit]:
            name = e.key if len(e.key) < max_name_column_width - 3 else e.key[:max_name_column_width - 3] + "..."
            out.append(line.format(name, _share(e.self_cpu_time_total, total), _format_time(e.self_cpu_time_total),
                                   _share(e.cpu_time_total, total), _format_time(e.cpu_time_total),
                                   _format_time(e.cpu_time), e.count))
        out += [separator, f"Self CPU time total: {_format_time(total)}"]
        return "\n".join(out) + "\n"


class profile:
    """``with profile() as prof:`` times the block (see the module docstring); ``enabled=False`` does nothing.
    ``use_cuda``, ``record_shapes``, ``profile_memory`` and ``with_stack`` are accepted and have no effect (a CPU
    only engine, without shapes, memory or stacks in the table)."""

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device=None, record_shapes: bool = False,
                 with_flops: bool = False, profile_memory: bool = False, with_stack: bool = False,
                 with_modules: bool = False, use_kineto: bool = False, use_cpu: bool = True, **ignored) -> None:
        self.enabled = enabled
        self.function_events = EventList()
        self._open: list = []  # the ranges open now, innermost last
        self._subscription = None
        self._last = 0

    def __enter__(self) -> "profile":
        if self.enabled:
            if self._subscription is not None:
                raise RuntimeError("Profiler context manager is not reentrant")
            self._last = time.perf_counter_ns()
            self._subscription = events.subscribe(self._heard, kinds=["node_created", "node_executed"])
            _active.append(self)
        return self

    def __exit__(self, *exc) -> None:
        if self._subscription is not None:
            self._subscription.remove()
            _active.remove(self)

    def _heard(self, event) -> None:
        now = time.perf_counter_ns()
        key = _aten_name(event.name) if event.kind == "node_created" else event.name
        call = FunctionEvent(key, self._last, self._open[-1] if self._open else None)
        call.end = self._last = now
        self.function_events.append(call)

    def _open_range(self, name: str) -> FunctionEvent:
        self._last = now = time.perf_counter_ns()
        event = FunctionEvent(name, now, self._open[-1] if self._open else None)
        self._open.append(event)
        self.function_events.append(event)
        return event

    def _close_range(self, event: FunctionEvent) -> None:
        event.end = self._last = time.perf_counter_ns()
        self._open.remove(event)

    def key_averages(self) -> EventList:
        return self.function_events.key_averages()

    def table(self, *args, **kwargs) -> str:
        return self.function_events.table(*args, **kwargs)

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg("Total")
        for event in self.function_events:
            total.add(event)
        return total

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self.function_events)

    def __str__(self) -> str:
        return self.table()


class record_function:
    """``with record_function("name"):`` a range of your own in the open profiles' tables (no effect outside
    one)."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self._ranges: list = []

    def __enter__(self) -> "record_function":
        self._ranges = [(p, p._open_range(self.name)) for p in _active]
        return self

    def __exit__(self, *exc) -> None:
        for p, event in self._ranges:
            p._close_range(event)
        self._ranges = []


def composite(name: str):
    """Decorator: calls of the function are a range ``name`` in the open profiles (``aten::linear`` around its
    ``aten::t`` and ``aten::addmm``); without a profile the function runs as it is, after one truth test."""
    def decorate(fn):
        @functools.wraps(fn)
        def ranged(*args, **kwargs):
            if not _active:
                return fn(*args, **kwargs)
            with record_function(name):
                return fn(*args, **kwargs)
        return ranged
    return decorate
