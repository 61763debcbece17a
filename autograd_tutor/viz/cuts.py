"""Where the graph was cut, and why a tensor gets no gradient: "Where did my gradient go?"

If a tensor unexpectedly has ``grad_fn=None``, something upstream cut it from the graph: ``.detach()``,
``.data``, an operation under ``torch.no_grad()``, a ``requires_grad`` switched off, or numbers taken out with
``.item()`` / ``.tolist()`` / ``.numpy()`` and rebuilt into a new tensor. The engine says so in ``graph_cut``
events (only while someone listens); a :class:`CutLog` keeps the recent ones, and every drawing marks each
cut it shows as a small box of its own ("detached here", "made under no_grad") on a dotted edge: from the
tensor that required grad (when the drawing has it) to the tensor that no longer does.
:func:`explain_no_grad` says in one sentence why a tensor gets no gradient from a root.

:data:`CUTS` starts listening when :mod:`autograd_tutor.widgets` is imported (or by ``CUTS.start()``); a
tensor rebuilt from numbers is recognised by being built from the very objects a tensor that requires grad
handed out (``torch.tensor(w.item())``, ``torch.tensor([w.item(), 1.0])``; a literal ``torch.tensor(3.0)``
is not, whatever its value), or from an array ``.numpy()`` handed out, holding its numbers. Where a cut's
result went into a recorded node (the ``"used"`` event) is kept by ids, so a drawing made after
``backward()``, which freed the saved tensors, marks the same cuts.

>>> import autograd_tutor as torch
>>> from autograd_tutor.viz import GraphModel
>>> CUTS.start()
>>> w, b = torch.tensor(2., requires_grad=True), torch.tensor(3., requires_grad=True)
>>> loss = w.detach() * b
>>> print(explain_no_grad(w, loss))
w gets no gradient from loss: w.detach() made a copy of w without its history, and loss was computed from that \
copy, so backward stops at the copy. Use w itself where you want its gradient.
>>> model = GraphModel.from_tensor(loss, namespace={"w": w, "b": b, "loss": loss})
>>> [(n["label"], n["sub"]) for n in model.snapshot()["nodes"]]
[('b', 'AccumulateGrad'), ('loss', 'MulBackward0'), ('2', 'no grad'), ('detached here', 'w.detach()')]
>>> CUTS.stop()
"""
from __future__ import annotations

import collections
from typing import Mapping, Optional

from .. import events
from .format import Value
from .names import caller_namespace, is_tensor, tensors_in

__all__ = ["Cut", "CutLog", "CUTS", "LABELS", "explain_no_grad", "cut_marks", "cut_lines", "freed_input"]

#: The label of a cut's box, by cause.
LABELS = {"detach": "detached here", "data": "cut by .data", "no_grad": "made under no_grad",
          "inference_mode": "made under inference_mode", "requires_grad": "requires_grad=False",
          "item": "rebuilt from .item()", "tolist": "rebuilt from .tolist()", "numpy": "rebuilt from .numpy()",
          "float": "rebuilt from float()", "int": "rebuilt from int()", "copy": "copied with torch.tensor()"}
_ESCAPES = ("item", "tolist", "numpy", "float", "int")
#: Cuts that loops repeat on the same tensors (an optimizer's update under no_grad): the latest replaces the last.
_REPEATED = ("no_grad", "inference_mode", "derived")
KEEP, ESCAPES_KEPT = 1024, 64


class Cut:
    """One cut: ``tensor_id`` no longer carries the history of ``source_ids`` (their grad_fn ids:
    ``source_node_ids``), because of ``cause`` (a key of :data:`LABELS`); ``op`` is the node no_grad did not
    record."""
    __slots__ = ("cause", "tensor_id", "source_ids", "source_node_ids", "op", "value")

    def __init__(self, cause, tensor_id, source_ids, source_node_ids, op="", value=None) -> None:
        self.cause, self.tensor_id, self.op, self.value = cause, tensor_id, op, value
        self.source_ids, self.source_node_ids = tuple(source_ids), tuple(source_node_ids)

    @property
    def label(self) -> str:
        return LABELS[self.cause]

    def how(self, source: str) -> str:
        """What made the cut, in code: ``x.detach()``, ``MulBackward0 not recorded``, ``x.item()``."""
        if self.cause in ("no_grad", "inference_mode"):
            return f"{source}: {self.op} not recorded" if source else f"{self.op} not recorded"
        if self.cause == "requires_grad":
            return f"{source}.requires_grad_(False)"
        if self.cause in _ESCAPES and self.op:  # the numbers of an earlier cut's copy: w.detach().numpy()
            source = Cut(self.op, None, (), ()).how(source)
        if self.cause in ("copy", "float", "int"):
            return f"torch.tensor({source or '…'})" if self.cause == "copy" else f"{self.cause}({source or '…'})"
        return f"{source}.data" if self.cause == "data" else f"{source}.{self.cause}()"

    def keys(self) -> list:
        """The drawing keys of the sources: a grad_fn's id, or a leaf's tensor id."""
        return [n if n is not None else t for t, n in zip(self.source_ids, self.source_node_ids)]

    def __repr__(self) -> str:
        return f"Cut({self.cause!r}, tensor_id={self.tensor_id}, source_ids={self.source_ids})"


class CutLog:
    """The last :data:`KEEP` cuts by the id of the tensor they made, the last :data:`ESCAPES_KEPT` numbers
    handed out by tensors that require grad (see the module docstring), and where the last :data:`KEEP` cut
    tensors were used: ``(node id, input position) -> (tensor id, Value)``, so that a drawing made after
    ``backward()`` (which freed the saved tensors that told them) still knows its constants. An unrecorded
    operation that repeats an earlier one (same op, same sources: the next step of a loop, an optimizer's update
    under no_grad) replaces it, so a training loop keeps one per kind. Only ids and small Values are kept."""

    def __init__(self) -> None:
        self.cuts: collections.OrderedDict = collections.OrderedDict()
        self.escapes: collections.deque = collections.deque(maxlen=ESCAPES_KEPT)
        self.inputs: collections.OrderedDict = collections.OrderedDict()
        self._latest: dict = {}  # (cause, op, source ids) -> the tensor id of the latest such cut
        self._subscription = None
        self.version = 0         # bumps on every event taken (a drawing looks again only then)

    def start(self) -> None:
        """Listen to ``graph_cut`` events (idempotent)."""
        if self._subscription is None:
            self._subscription = events.subscribe(self.apply, ("graph_cut",))

    def stop(self) -> None:
        if self._subscription is not None:
            self._subscription.remove()
            self._subscription = None

    @property
    def listening(self) -> bool:
        return self._subscription is not None

    def apply(self, e) -> None:
        """Take one ``graph_cut`` event."""
        if e.cause == "used":
            self._used(e)
            return
        self.version += 1
        if e.cause in _ESCAPES:  # numbers handed out; or, with a tensor_id, a tensor built from those very ones
            value = None if e.value is None else Value.of(e.value)
            earlier = self.cuts.get(e.source_ids[0])  # the numbers of a detached copy: its origin is the cut's
            if earlier is not None:
                cut = Cut(e.cause, e.tensor_id, earlier.source_ids, earlier.source_node_ids,
                          earlier.cause if earlier.cause in ("detach", "data") else "", value)
            elif e.cause != "numpy":
                cut = Cut(e.cause, e.tensor_id, e.source_ids, e.source_node_ids, value=value)
            else:
                return
            if e.tensor_id is None:
                self.escapes.append(cut)
            else:
                self._keep(cut)
            return
        if e.cause in _REPEATED:  # the same op again (a loop's next step, an optimizer's update) replaces the last
            older = self._latest.pop((e.cause, e.op, e.source_ids), None)
            if older is not None:
                self.cuts.pop(older, None)
            self._latest[e.cause, e.op, e.source_ids] = e.tensor_id
        cause, op, sources, nodes = e.cause, e.op, e.source_ids, e.source_node_ids
        if cause == "derived":  # computed from a cut's result: the same cut, one step further
            earlier = self.cuts.get(sources[0])
            if earlier is None:
                return
            cause, op, sources, nodes = earlier.cause, earlier.op, earlier.source_ids, earlier.source_node_ids
        self._keep(Cut(cause, e.tensor_id, sources, nodes, op))

    def _keep(self, cut: Cut) -> None:
        """Remember ``cut`` by the id of the tensor it made, dropping the oldest past :data:`KEEP`."""
        if len(self.cuts) >= KEEP:
            self.cuts.popitem(last=False)
        self.cuts[cut.tensor_id] = cut

    def _used(self, e) -> None:
        """A tensor that may come from a cut became an input of a recorded node: if it does, remember where."""
        cut = self.cuts.get(e.tensor_id)
        if cut is None and any(escape.value.size == e.value.size for escape in self.escapes):
            cut = self.find(e.tensor_id, Value.of(e.value))  # numbers a tensor handed out, built into this one
            if cut is not None:
                self._keep(cut)
        if cut is None:
            return
        if len(self.inputs) >= KEEP:
            self.inputs.popitem(last=False)
        self.inputs[e.source_node_ids[0], e.position] = (e.tensor_id, Value.of(e.value))
        self.version += 1

    def input_of(self, node_id, position: int) -> Optional[tuple]:
        """``(tensor id, Value)`` of the cut tensor that was input ``position`` of node ``node_id``, if one was."""
        return self.inputs.get((node_id, position))

    def find(self, tensor_id: int, value: Optional[Value] = None) -> Optional[Cut]:
        """The cut that made tensor ``tensor_id``; else, given its ``value``, the numbers it was rebuilt from."""
        cut = self.cuts.get(tensor_id)
        if cut is not None or value is None:
            return cut
        for escape in reversed(self.escapes):
            if (escape.source_ids[0] < tensor_id and escape.value.size == value.size
                    and escape.value.head == value.head):
                return Cut(escape.cause, tensor_id, escape.source_ids, escape.source_node_ids, escape.op)
        return None

    def from_source(self, tensor_id: int) -> Optional[Cut]:
        """The latest cut (or numbers handed out) whose source is tensor ``tensor_id``."""
        for cut in reversed((*self.cuts.values(), *self.escapes)):
            if tensor_id in cut.source_ids and cut.cause != "requires_grad":
                return cut
        return None


#: The log every drawing reads (started with the widgets).
CUTS = CutLog()


# ------------------------------------------------------------------------------------------ drawing
def cut_marks(model, nodes: list, edges: list) -> tuple:
    """The snapshot's ``nodes`` and ``edges`` with a box per cut that a tensor of the drawing comes from, and
    its dotted edges (``"cut": True``): from each source the drawing shows, and to the tensor. The boxes come
    after the model's nodes; their dicts are cached on the model (``_cut_json``), so unchanged ones stay the
    same objects (see :meth:`GraphModel.snapshot_json`)."""
    logs = [log for log in (getattr(model, "cuts", None), CUTS) if log is not None and (log.cuts or log.escapes)]
    if not logs:
        return nodes, edges
    cache = model.__dict__.setdefault("_cut_json", {})
    uncut = model.__dict__.setdefault("_uncut", {})  # node key -> the log versions that found no cut for it
    versions = tuple([(id(log), log.version) for log in logs])
    nodes, edges = list(nodes), list(edges)
    for n in model.visible:
        if n.kind not in ("constant", "leaf") or n.tensor_id is None or uncut.get(n.key) == versions:
            continue
        # by id only: a tensor rebuilt from handed-out numbers was matched when it was used (``_used``)
        cut = next((c for c in (log.find(n.tensor_id) for log in logs) if c is not None), None)
        if cut is None or n.kind == "leaf" and cut.cause not in ("requires_grad", "copy"):
            uncut[n.key] = versions
            continue
        sources = [model.node(k) for k in cut.keys()]
        sources = [s for s in sources if s is not None and s is not n]
        name = (n.label if cut.cause == "requires_grad" else sources[0].name if sources and sources[0].name
                else getattr(model, "names", {}).get(cut.source_ids[0], ""))
        box = {"key": len(nodes), "kind": "cut", "label": cut.label, "sub": cut.how(name), "op": "",
               "value": "", "grad": "", "saved": [], "state": "none", "hidden": 0, "root": False,
               "cause": cut.cause}
        links = [(s.index, box["key"]) for s in sources] + [(box["key"], n.index)]
        signature = (tuple(sorted(box.items())), tuple(links))
        done = cache.get(n.key)
        if done is None or done[0] != signature:
            done = cache[n.key] = (signature, box, [{"src": a, "dst": b, "pos": 0, "tracked": False, "grad": "",
                                                     "cut": True} for a, b in links])
        nodes.append(done[1])
        edges.extend(done[2])
    return nodes, edges


def freed_input(model, fn, position: int) -> Optional[tuple]:
    """``(tensor id, Value)`` of the cut tensor that was input ``position`` of node ``fn``, from the model's own
    log or :data:`CUTS`: what ``fn`` saved of it was freed by backward (or never saved)."""
    node_id = getattr(fn, "_id", None)
    for log in (getattr(model, "cuts", None), CUTS):
        found = log.input_of(node_id, position) if log is not None and node_id is not None else None
        if found is not None:
            return found
    return None


def cut_lines(model) -> list:
    """One line per cut box of a drawing, for its text form: ``graph cut: detached here (h.detach()) -> kept``."""
    nodes, edges = cut_marks(model, model.visible, ())
    labels = {n.index: n.label for n in model.visible}
    made = {e["src"]: labels[e["dst"]] for e in edges if e["dst"] in labels}  # box -> the tensor it marks
    return [f"graph cut: {box['label']} ({box['sub']}) -> {made[box['key']]}" for box in nodes[len(model.visible):]]


# ------------------------------------------------------------------------------------------ explaining
def explain_no_grad(tensor, root, log: Optional[CutLog] = None, namespace: Optional[Mapping] = None) -> str:
    """One sentence on whether, and why not, ``root.backward()`` fills ``tensor.grad``.

    It reads the tensors themselves (leaf or not, ``requires_grad``, the graph behind ``root``) and the cuts
    the log saw (default :data:`CUTS`, listening once the widgets are imported). Names come from ``namespace``
    (default: the caller's variables).
    """
    if not is_tensor(tensor) or not is_tensor(root):
        raise TypeError(f"explain_no_grad() expects two tensors, got {type(tensor).__name__} and "
                        f"{type(root).__name__}")
    log = CUTS if log is None else log
    namespace = caller_namespace(2) if namespace is None else namespace
    tensors = {k: v for k, v in reversed(list(tensors_in(namespace)))  # the first name of each tensor wins
               if k.split(".")[0].isidentifier()}
    names = {id(v): k for k, v in tensors.items()}
    w, r = names.get(id(tensor), "this tensor"), names.get(id(root), "the root")
    leaves, fns = _behind(root)
    if tensor.grad_fn is not None:
        if id(tensor.grad_fn) in fns:
            return (f"{w} is not a leaf (its grad_fn is {tensor.grad_fn.name()}): backward passes its gradient on "
                    f"to the leaves it was computed from and keeps none in {w}.grad. Call {w}.retain_grad() "
                    f"before backward to keep it; if {w} is a parameter, update it in place under torch.no_grad() "
                    f"({w} -= lr * {w}.grad) rather than rebinding it ({w} = {w} - lr * {w}.grad).")
        return (f"{w} gets no gradient from {r}: {w} is not a leaf, and {r} was not computed from it through "
                "the graph.")
    if tensor.requires_grad:
        if id(tensor) in leaves or tensor is root:
            return (f"{w} gets a gradient: it is a leaf that requires grad and {r} was computed from it, so "
                    f"{r}.backward() fills {w}.grad.")
        cut, via = log.from_source(getattr(tensor, "_id", None)), w
        if cut is None:  # a tensor computed from w (a variable of the caller's) was cut
            cut, via = _cut_downstream(tensor, tensors, log)
        if cut is not None and via != w:
            return (f"{w} gets no gradient from {r}: {via} was computed from {w}, then {cut.how(via)} cut it from "
                    f"the graph ({cut.label}), and {r} was computed from what came out, so backward stops there.")
        if cut is not None and cut.cause in ("no_grad", "inference_mode"):
            return (f"{w} gets no gradient from {r}: {w} was used inside torch.{cut.cause}() ({cut.how(w)}), so "
                    "that result has no history and backward stops there. Compute it outside the block.")
        if cut is not None:
            made = (f"{cut.how(w)} handed out {w}'s numbers and a new tensor was built from them" if cut.cause in
                    _ESCAPES else f"{cut.how(w)} made a copy of {w} without its history")
            return (f"{w} gets no gradient from {r}: {made}, and {r} was computed from that copy, so backward "
                    f"stops at the copy. Use {w} itself where you want its gradient.")
        return (f"{w} gets no gradient from {r}: {r} was not computed from {w} through the graph. Somewhere "
                "between them it was cut (.detach(), .data, torch.no_grad(), or numbers rebuilt into a new "
                "tensor); draw the code with watch() to see where.")
    cut = log.find(getattr(tensor, "_id", -1), Value.of(_numbers(tensor)))
    if cut is not None:
        source = next((k for k, t in tensors.items() if getattr(t, "_id", None) == cut.source_ids[0]), "x")
        what = {"detach": "made by .detach(): a copy that shares the numbers but not the history",
                "data": "made by .data: the same numbers without the history",
                "no_grad": "computed inside torch.no_grad(), which recorded nothing",
                "inference_mode": "computed inside torch.inference_mode(), which recorded nothing",
                "requires_grad": "switched off with requires_grad_(False): it is frozen",
                "copy": f"copied with {cut.how(source)}: the same numbers without the history"}.get(
                    cut.cause, f"rebuilt from plain numbers ({cut.how(source)}): a new tensor with no history")
        return (f"{w} gets no gradient: it was {what}, so it does not require grad and backward stops at it.")
    if type(tensor).__name__ == "Parameter":
        return (f"{w} gets no gradient: it is a parameter with requires_grad=False (frozen), so backward skips "
                f"it. Call {w}.requires_grad_() to train it.")
    return (f"{w} gets no gradient: it was created without requires_grad=True, so autograd treats it as data. "
            f"Create it with requires_grad=True, or call {w}.requires_grad_() before computing with it.")


def _cut_downstream(tensor, tensors: dict, log: CutLog) -> tuple:
    """(the latest cut whose source is one of ``tensors`` computed from ``tensor``, that source's name)."""
    by_id = {getattr(t, "_id", None): name for name, t in tensors.items()}
    for cut in reversed((*log.cuts.values(), *log.escapes)):
        for source in cut.source_ids:
            name = by_id.get(source)
            if name is not None and id(tensor) in _behind(tensors[name])[0]:
                return cut, name
    return None, None


def _behind(root) -> tuple:
    """The ``id()`` of the leaves (by their AccumulateGrad) and of the function nodes behind ``root``."""
    leaves, fns, stack = set(), set(), [root.grad_fn] if root.grad_fn is not None else []
    while stack:
        fn = stack.pop()
        if id(fn) in fns:
            continue
        fns.add(id(fn))
        if hasattr(fn, "variable"):
            leaves.add(id(fn.variable))
        stack.extend(child for child, _ in fn.next_functions if child is not None)
    return leaves, fns


def _numbers(tensor):
    """A tensor's values as a NumPy array (ours or PyTorch's)."""
    return tensor._data if hasattr(tensor, "_data") else tensor.detach().cpu().numpy()
