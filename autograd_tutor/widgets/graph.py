"""``GraphWidget``: the computation graph of your own code, live, with a backward replay in the browser.

* ``GraphWidget()`` displayed in a cell grows as the following cells run (node by node);
* ``GraphWidget(loss)`` or ``show(loss)`` draws the graph that produced a tensor, ours or PyTorch's, with the
  replay of the last backward pass that ran through it, also when that pass ran before the drawing was made;
* ``with watch() as g:`` records what a block of code builds.

The class is thin: traits plus event subscriptions. The model, layout, narration and SVG live in
:mod:`autograd_tutor.viz`; the drawing and the replay player are ``static/graph.js``. A growing drawing sends
each structure event straight to the model's handler for it (the values events carry are formatted when the
model is read), until its node budget is spent: then it stops listening to operations and counts the passes
that follow. A training loop draws one step: the second step's operations fold onto the first's, op by op (see
:meth:`GraphModel._copy_op <autograd_tutor.viz.model.GraphModel._copy_op>`); once a whole step was such a copy,
the drawing stops listening to operations and takes each pass of the same shape as one more copy of the step
(:meth:`~autograd_tutor.viz.model.GraphModel.take_pass`), until a pass of another shape or the end of the cell.
Backward passes come from :data:`~autograd_tutor.viz.history.HISTORY` (started when this module
is imported), one call per pass; a drawing takes those that ran through its own nodes. The front end is updated
at the end of every notebook cell and, while a cell runs, with the graph alone after an operation or a backward
pass when ``SYNC_INTERVAL`` seconds have passed (the interval grows when sending gets expensive, so syncing
takes at most about 5% of the time), with only the nodes and edges that changed encoded again.

>>> import autograd_tutor as torch
>>> a = torch.tensor(3., requires_grad=True); b = torch.tensor(4., requires_grad=True)
>>> g = GraphWidget()
>>> d = a * b + a
>>> d.backward()
>>> g.refresh()
>>> [n["label"] for n in g.graph["nodes"]], [e["grad"] for e in g.graph["edges"]]
(['a', 'b', 'MulBackward0', 'd'], ['4', '3', '1', '1'])
>>> g.step = 4; g.narration
'a receives 1 + 4 = 5 and stores it in a.grad, which becomes 5.'
>>> g.close()
"""
from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from time import perf_counter
from typing import Mapping, Optional

import anywidget
import traitlets

from .. import events
from ..viz import (STRUCTURE_KINDS, GraphModel, build_steps, html_table, replay_json, state_at, tensors_in,
                   text_table, to_networkx, to_svg)
from ..viz import draw as _draw
from ..viz import save as _save
from ..viz.cuts import CUTS, cut_lines
from ..viz.groups import CALLS, module_names
from ..viz.history import HISTORY
from ..viz.names import caller_namespace, notebook_namespace
from ._browser import is_int, is_number, take_from_browser

__all__ = ["GraphWidget", "show", "watch"]

STATIC = Path(__file__).parent / "static"
#: Shortest time between two updates sent to the browser while events arrive.
SYNC_INTERVAL = 0.05
#: Shortest time between two updates that only change the counts of a drawing past its budget.
COUNT_INTERVAL = 1.0
#: The events after which the clock is checked (and the end of every backward pass).
_CLOCKED = ("node_created",)

HISTORY.start()  # the widgets are in use: keep the recent backward passes, so a drawing made later replays its own
CALLS.start()    # ... the module calls, so that it groups the nodes each one made
CUTS.start()     # ... and the recent graph cuts, so every drawing marks where its graph was cut


class GraphWidget(anywidget.AnyWidget):
    """A live drawing of the computation graph with a backward player (see the module docstring).

    ``max_nodes`` is the node budget (repeated structure beyond it is collapsed); ``namespace`` is where
    variable names are looked up (default: the creating code's variables, then the notebook's);
    ``live=False`` draws once and never listens to events.
    """
    _esm = STATIC / "graph.js"
    _css = STATIC / "graph.css"

    # The drawing and the replay travel as JSON text: one string for the comm instead of thousands of small
    # objects that ipywidgets would walk looking for binary buffers. Python reads them as ``graph``/``replay``.
    graph_json = traitlets.Unicode("{}").tag(sync=True)
    replay_json = traitlets.Unicode("{}").tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    title = traitlets.Unicode("Computation graph").tag(sync=True)
    render_ms = traitlets.Float(0.0).tag(sync=True)
    #: The module groups drawn open (indices into ``graph["groups"]``); None: the default (open up to 30 nodes).
    #: The browser sets it when a group's box is clicked (or Enter on it); the drawing is laid out again.
    expanded = traitlets.List(traitlets.Int(), default_value=None, allow_none=True).tag(sync=True)

    def __init__(self, tensor=None, *, max_nodes: Optional[int] = 400, namespace: Optional[Mapping] = None,
                 live: bool = True, title: Optional[str] = None, _depth: int = 1) -> None:
        self._namespace = namespace if namespace is not None else caller_namespace(_depth + 1)
        HISTORY.start()
        if tensor is None:
            self._model = GraphModel(max_nodes=max_nodes, grow=True)
        else:  # the graph as it is now, and the passes that already ran through it
            self._model = GraphModel.from_tensor(tensor, max_nodes=max_nodes, grow=False)
            for record in tuple(HISTORY.passes):
                self._model.take_pass(record)
        self._model.grouping.calls = CALLS
        super().__init__(title=title or ("Computation graph" if tensor is None else "Graph of the tensor"))
        self._steps: list = []
        self.graph: dict = {"nodes": [], "edges": [], "hidden": 0, "width": 0, "height": 0}
        self.replay: dict = {"steps": [], "start": {"grads": [], "saved": []}}
        self._synced = self._graph_synced = -1
        self._counts_due = 0.0  # when new counts alone may be sent while a cell runs
        self._counted = [0, 0]
        self._due = 0.0  # when events may trigger the next refresh
        # a growing drawing listens to the operations; every live one takes the passes the history records
        self._grows = live and tensor is None
        self._subscriptions = self._subscribe() if self._grows else []
        self._listening = HISTORY.listen(self._on_pass) if live else None
        self._shell = _register_cell_hook(self._on_cell_end) if live else None
        self.refresh()

    def set_state(self, sync_data) -> None:
        """The browser may move the replay (``step``, within the steps) and report ``render_ms``; nothing else."""
        take_from_browser(self, sync_data, {"step": lambda i: is_int(i) and 0 <= i <= len(self._steps),
                                            "render_ms": lambda ms: is_number(ms) and ms >= 0,
                                            "expanded": _group_indices})

    @traitlets.observe("expanded")
    def _regroup(self, _change) -> None:
        """Groups opened or closed: lay the drawing out again and send it."""
        self.graph = self.model.snapshot(self.expanded)
        self.graph_json = self._model.snapshot_json(self.graph)

    # ---------------------------------------------------------------- events in, state out
    @property
    def model(self) -> GraphModel:
        """The graph model, with every event received so far applied."""
        self._model.settle()
        return self._model

    def _subscribe(self) -> list:
        """One subscription per structure kind, to the model's own handler (no call in between); the end of an
        operation also checks the clock."""
        subscriptions = []
        for kind, handler in self._model.handlers().items():
            if kind in STRUCTURE_KINDS:
                if kind in _CLOCKED:
                    handler = self._clocked(handler)
                subscriptions.append(events.subscribe(handler, (kind,)))
        return subscriptions

    def _on_pass(self, record) -> None:
        """A backward pass ended (told by the history): take it if it is this drawing's, then check the clock."""
        self._model.take_pass(record)
        self._follow()
        if perf_counter() >= self._due:
            self.refresh(replay=False)

    def _follow(self) -> None:
        """Listen to the operations while the drawing grows op by op; not while it counts passes instead (past its
        node budget, or once it learned the repeated step of a training loop: a loop then costs one check per
        pass, not a few calls per operation)."""
        model = self._model
        wanted = self._grows and not model.counting and not model.repeating
        if wanted and not self._subscriptions:
            self._subscriptions = self._subscribe()
        elif not wanted:
            self._unsubscribe()

    def _unsubscribe(self) -> None:
        for subscription in self._subscriptions:
            subscription.remove()
        self._subscriptions = []

    def _clocked(self, handler):
        def apply_then_check_the_clock(event) -> None:
            full = self._model.full  # the first operation past the budget folds; from the next one on, count
            handler(event)
            if full:  # the node budget is spent: count the backward passes instead
                self._model.counting = True
                self._follow()
            if perf_counter() >= self._due:
                self.refresh(replay=False)
        return apply_then_check_the_clock

    def _on_cell_end(self, *_) -> None:
        """Bring the front end up to date; a drawing that repeated a step listens to operations again (the next
        cell may build something new)."""
        self.refresh()
        self._model.stop_repeating()
        self._follow()

    def refresh(self, replay: bool = True) -> None:
        """Look up variable names and send the current graph and replay to the browser (if anything changed).

        While a cell runs, the clock sends the graph alone (``replay=False``): the passes taken are applied and
        the replay is sent at the end of the cell, or by the next ``refresh()``."""
        model = self._model
        start = perf_counter()
        if not replay:
            counts_only = model.version == self._graph_synced or model.repeating
            if counts_only and start < self._counts_due:
                return  # past the budget or repeating a step only counts change: sent at most once a second
            if model.version != self._graph_synced or model.counted != self._counted:
                model.settle(passes=False)
                self.graph = model.snapshot(self.expanded)
                self.graph_json = model.snapshot_json(self.graph)
                self._graph_synced, self._counted = model.version, list(model.counted)
            end = perf_counter()
            self._counts_due = end + COUNT_INTERVAL
            self._due = end + max(SYNC_INTERVAL, 20 * (end - start))
            return
        model.settle()
        model.set_names(tensors_in(self._namespace))
        model.grouping.names = module_names(self._namespace.items())
        if model.version != self._synced:
            old = len(self._steps)
            self._steps = build_steps(model)
            self.graph = model.snapshot(self.expanded)
            self.replay = replay_json(model, self._steps)
            self.replay["note"] = model.note
            with self.hold_sync():
                self.graph_json = model.snapshot_json(self.graph)
                self.replay_json = json.dumps(self.replay, separators=(",", ":"))
                if len(self._steps) != old or self.step > len(self._steps):
                    self.step = len(self._steps)
            self._synced = self._graph_synced = model.version
        elif model.counted != self._counted:  # past the budget only the counts changed: the replay is the same
            self.graph = model.snapshot(self.expanded)
            self.graph_json = model.snapshot_json(self.graph)
        self._counted = list(model.counted)
        end = perf_counter()
        self._due = end + max(SYNC_INTERVAL, 20 * (end - start))  # syncing: at most ~5% of the time

    def stop(self) -> None:
        """Stop listening to events: the drawing keeps what it has (the replay still works)."""
        self._grows = False
        self._unsubscribe()
        if self._listening is not None:
            HISTORY.unlisten(self._listening)
            self._listening = None
        if self._shell is not None:
            _unregister_cell_hook(self._shell, self._on_cell_end)
            self._shell = None

    @contextmanager
    def recording(self):
        """Grow with the operations and take the passes of one block, then stop again: a stopped, empty drawing
        shown under a :class:`~autograd_tutor.widgets.Predict` draws only what its reveal runs.

        >>> import autograd_tutor as torch
        >>> drawing = GraphWidget(); drawing.stop()
        >>> with drawing.recording():
        ...     (torch.tensor(2., requires_grad=True) * 3).backward()
        >>> [n["label"] for n in drawing.graph["nodes"] if n["kind"] == "op"], len(drawing.steps) > 0
        (['MulBackward0'], True)
        """
        if not self._model.grow:
            raise ValueError("recording() grows a drawing made without a tensor: GraphWidget(), not GraphWidget(t)")
        self._grows = True
        self._follow()
        if self._listening is None:
            self._listening = HISTORY.listen(self._on_pass)
        try:
            yield self
        finally:
            self.stop()
            self.refresh()

    def close(self) -> None:
        self.stop()
        super().close()

    # ---------------------------------------------------------------- what a lesson or a test reads
    @property
    def steps(self) -> list:
        """The replay steps (:class:`~autograd_tutor.viz.Step`) of the backward passes recorded so far."""
        self.refresh()
        return self._steps

    def state(self, step: Optional[int] = None):
        """The replay state (edge labels, grads, saved states, active node) at ``step`` (default: the current)."""
        return state_at(self.model, self._steps, self.step if step is None else step)

    @property
    def narration(self) -> str:
        """The sentence shown for the current step ('' before the first one)."""
        return self._steps[self.step - 1].text if 0 < self.step <= len(self._steps) else ""

    def table(self, step: Optional[int] = None) -> str:
        """The accessible HTML table of the nodes, in step with the replay."""
        return html_table(self.model, self.state(step))

    def to_svg(self, step: Optional[int] = None) -> str:
        """The static SVG of the drawing (at the end of the replay, or at ``step``)."""
        self.refresh()
        return to_svg(self.model, self.state(step) if step is not None else None)

    def save(self, path) -> Path:
        """Write ``graph.svg`` (the static SVG) or ``graph.png`` (through matplotlib)."""
        self.refresh()
        return _save(self.model, path)

    def draw(self, ax=None):
        """Draw with matplotlib on ``ax`` (a new figure if None); returns the axes."""
        self.refresh()
        return _draw(self.model, ax=ax, namespace={})

    def to_networkx(self):
        self.refresh()
        return to_networkx(self.model)

    # ---------------------------------------------------------------- notebook display
    def __repr__(self) -> str:
        m = self.model
        head = (f"GraphWidget: {len(m.visible)} nodes, {len(m.edges)} edges, {len(self._steps)} replay steps"
                + (f", {m.hidden} collapsed" if m.hidden else ""))
        return (head + (f"\n{m.note}" if m.note else "")
                + ("\n" + text_table(m, limit=12) if m.visible else "")
                + "".join(f"\n{line}" for line in cut_lines(m)))

    def _repr_mimebundle_(self, **kwargs):
        self.refresh()
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/plain"] = repr(self)
        data["image/svg+xml"] = to_svg(self.model)
        return data, metadata


def _group_indices(value) -> bool:
    """What the browser may set ``expanded`` to: None, or a list of group indices."""
    return value is None or (isinstance(value, list) and len(value) <= 10_000
                             and all(is_int(i) and i >= 0 for i in value))


def _register_cell_hook(callback):
    """Call ``callback`` after every cell when running in IPython; return the shell (or None)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    if shell is None or not hasattr(shell, "events"):
        return None
    shell.events.register("post_run_cell", callback)
    return shell


def _unregister_cell_hook(shell, callback) -> None:
    try:
        shell.events.unregister("post_run_cell", callback)
    except ValueError:  # already gone
        pass


def show(tensor, **options) -> None:
    """Display the graph that produced ``tensor`` (a :class:`GraphWidget`), or print it outside IPython."""
    widget = GraphWidget(tensor, _depth=2, **options)
    if notebook_namespace() is not None:
        from IPython.display import display
        display(widget)
    else:  # printed once: nothing will look at it again, so it must stop listening (and slowing the engine)
        print(repr(widget))
        widget.close()


class watch:
    """Record the graph a block of code builds: ``with watch() as g: ...``, then display ``g``.

    The widget stops listening when the block ends; put ``backward()`` inside the block to replay it.
    """

    def __init__(self, **options) -> None:
        self.options = options
        self.widget: Optional[GraphWidget] = None

    def __enter__(self) -> GraphWidget:
        self.widget = GraphWidget(_depth=2, **self.options)
        return self.widget

    def __exit__(self, *exc) -> None:
        self.widget._namespace = caller_namespace(2)  # the block's variables as they are now
        self.widget.stop()
        self.widget.refresh()
