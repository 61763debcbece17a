"""The backward engine: walk the graph from the outputs, run each node once, accumulate into the leaves.

1. Count, for every node reachable from the roots, how many edges lead into it (its dependencies).
2. Start with the roots' gradients (1 for a scalar loss). A node is *ready* when all its incoming gradients
   have arrived and been summed; among ready nodes the one created last runs first (torch's order), and an
   AccumulateGrad runs as soon as it is ready.
3. Running a node calls its ``backward`` and sends each result along an edge, adding it to what the next node
   already received. AccumulateGrad adds into the leaf's ``.grad``.
4. Without ``retain_graph`` each node frees its saved tensors once it has run.

The loop is iterative, so a chain of 100,000 operations needs no recursion. Each step is reported through
:mod:`autograd_tutor.events` when someone listens.

>>> import autograd_tutor as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> y = x ** 3
>>> y.backward(retain_graph=True); y.backward(); x.grad
tensor(24.)
"""
from __future__ import annotations

import heapq
import itertools
import sys
import warnings

import numpy as np

from .. import events
from . import anomaly_mode, grad_mode
from .dtypes import LEGACY_NAMES
from .node import AccumulateGrad, accumulate_node
from .ops.copies import CopyBackwards
from .tensor import Tensor
from .hooks import hook_name
from .tracebacks import ENGINE_FRAME

__all__ = ["backward", "grad"]

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient "
    "which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you "
    "have to use this function, make sure to reset the .grad fields of your parameters to None after use to break "
    "the cycle and avoid the leak. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)")


_warned_create_graph: list = []
#: The events of the backward steps (the slow loop builds them), as opposed to the start and the end of a pass.
STEP_EVENTS = (events.NodeExecuted, events.GradientFlowed, events.GradAccumulated, events.HookFired,
               events.SavedTensorsFreed)


def _as_list(x) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _root_grads(roots: list, grads, create_graph: bool) -> list:
    """Check the roots and make their starting gradients (1 for one-element outputs).

    ``grads`` is None, a Tensor, or a sequence of Tensors and Nones, as in torch: extra ones are ignored."""
    grads = [None] * len(roots) if grads is None else [grads] if isinstance(grads, Tensor) else list(grads)
    if len(grads) < len(roots):
        raise RuntimeError(f"got {len(roots)} tensors and {len(grads)} gradients")
    for g in grads:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    out = []
    for i, (t, g) in enumerate(zip(roots, grads)):
        _check_output(i, t)
        if g is None:
            if t._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            shape = t._data.shape
            g = Tensor._make(np.array(1, t._data.dtype) if not shape else np.ones(shape, t._data.dtype))
        if g._data.shape != t._data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape!r} and output[{i}] "
                               f"has a shape of {t.shape!r}.")
        out.append(g if create_graph else g._data.astype(t._data.dtype, copy=False))
    return out


def _check_output(i: int, t) -> None:
    """Torch's errors for an output to differentiate that is not a tensor, or not part of a graph."""
    if not isinstance(t, Tensor):
        raise TypeError(f"backward() expects Tensors, got {type(t).__name__} at position {i}")
    if not t.requires_grad:
        raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")


def _node_of(t):
    return t.grad_fn if t.grad_fn is not None else accumulate_node(t)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None) -> None:
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the graph's leaves (or of ``inputs`` only).

    >>> import autograd_tutor as torch
    >>> a = torch.tensor(2., requires_grad=True)
    >>> torch.autograd.backward([a * 2, a * 3]); a.grad
    tensor(5.)
    """
    __tracebackhide__ = ENGINE_FRAME
    roots = _as_list(tensors)
    grads = grad_tensors if grad_tensors is not None else grad_variables
    only = None
    if inputs is not None:
        only = _as_list(inputs)
        if not only:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    with np.errstate(all="ignore"):  # inf and nan (0 / 0 in an untaken torch.where branch) arise without warnings
        _run(roots, grads, retain_graph, create_graph, only, capture=False)
    if create_graph and not _warned_create_graph:  # torch warns once per process, after the pass
        _warned_create_graph.append(True)
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=2)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False) -> tuple:
    """Return the gradients of ``outputs`` with respect to ``inputs`` without touching any ``.grad``.

    >>> import autograd_tutor as torch
    >>> x = torch.tensor(2., requires_grad=True)
    >>> torch.autograd.grad(x ** 3, x)
    (tensor(12.),)
    """
    __tracebackhide__ = ENGINE_FRAME
    for i, t in enumerate(_as_list(outputs)):  # the outputs are checked first, as in torch
        _check_output(i, t)
    ins = _as_list(inputs)
    for t in ins:
        if not isinstance(t, Tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    with np.errstate(all="ignore"):  # as in backward()
        found = _run(_as_list(outputs), grad_outputs, retain_graph, create_graph, ins, capture=True)
    result = []
    for i, t in enumerate(ins):
        g = found.get(i)
        if g is None:
            if materialize_grads:
                g = Tensor._make(np.zeros(t._data.shape, t._data.dtype))
            elif not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
        result.append(g)
    return tuple(result)


def _dependencies(root_nodes: list) -> dict:
    """How many edges lead into each node reachable from the roots (the roots' own count only if reachable)."""
    deps = dict.fromkeys(root_nodes, 0)  # a node is in deps once reached
    stack = list(deps)
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            if child in deps:
                deps[child] += 1
            else:
                deps[child] = 1
                stack.append(child)
    return deps


def _post_order(root_nodes: list) -> list:
    """Every node reachable from the roots, each after all the nodes it leads to (depth-first post-order)."""
    order = []
    seen = set()
    for root in root_nodes:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(root.next_functions))]
        while stack:
            node, children = stack[-1]
            for child, _ in children:
                if child is not None and child not in seen:
                    seen.add(child)
                    stack.append((child, iter(child.next_functions)))
                    break
            else:
                order.append(node)
                stack.pop()
    return order


def _needed(order: list, targets: set) -> set:
    """The nodes from which some target node can be reached (only they must run)."""
    needed = set()
    for node in order:  # post-order: children before parents
        if node in targets or any(c in needed for c, _ in node.next_functions if c is not None):
            needed.add(node)
    return needed


def _run(roots, grads, retain_graph, create_graph, inputs, capture):
    """The engine loop shared by ``backward`` and ``grad``; returns captured grads by input index.

    Each turn pops the ready node created last, takes the sum of the gradients that reached it, runs its
    backward and sends each result along its edge; a child whose last gradient arrived becomes ready. The common
    case (nobody listening, no hooks, no anomaly check) runs inline below: it is the engine's hot path. Anything
    else goes through :class:`_Step`, which does the same with hooks, events and checks."""
    __tracebackhide__ = ENGINE_FRAME
    retain_graph = create_graph if retain_graph is None else retain_graph
    listening = bool(events._subscribers)
    start = _started(roots, grads, create_graph, listening)
    if not capture:  # backward(inputs=[h]) fills a non-leaf's .grad the way torch does: it retains it
        for t in inputs or ():
            t.retain_grad()  # a no-op on a leaf; torch's error for a tensor that does not require grad
    root_nodes = [_node_of(t) for t in roots]
    if listening:
        events.BackwardStarted.emit(root_ids=tuple(t._id for t in roots),
                                    root_node_ids=tuple(n._id for n in root_nodes), retain_graph=bool(retain_graph),
                                    create_graph=bool(create_graph))
    targets = {_node_of(t): (i, t) for i, t in enumerate(inputs or ())}  # for backward(inputs=...) and grad()
    deps, needed = _plan(root_nodes, targets if inputs is not None else None)
    buffers, ready, tie = _seeded(roots, root_nodes, start, deps, needed)
    found = {}
    prev_mode = grad_mode._grad_enabled[0]
    grad_mode._grad_enabled[0] = bool(create_graph)
    current = None
    heappush, heappop = heapq.heappush, heapq.heappop
    # Only the events of the steps themselves need the slow path; gradient copies only for those that show them.
    stepping = listening and any(events.wanted(kind) for kind in STEP_EVENTS)
    showing = stepping and (events.wanted(events.NodeExecuted) or events.wanted(events.GradientFlowed))
    check_nan = anomaly_mode._mode[0] and anomaly_mode._mode[1]  # torch's anomaly mode checks each node's result
    plain = not (stepping or check_nan)  # nothing to build or check: then only hooks leave the fast path
    slow = _Step(create_graph, retain_graph, stepping, showing, check_nan, needed, buffers, deps, ready, tie)
    try:
        while ready:
            current = heappop(ready)[2]
            g = buffers.pop(current)
            if type(current) is AccumulateGrad:
                _accumulate(current, g, targets, found, capture, inputs, create_graph, stepping,
                            slow.arrived.pop(current, None))
                continue
            hooked = current._hooked
            if hooked:
                g = _tensor_hooks(current, g, create_graph, stepping)
            if targets and current in targets and _captured(current, g, targets, found, capture, create_graph,
                                                            needed):
                continue
            if not (plain and not hooked):
                slow(current, g, hooked)
                continue
            grads_in = current._run(g, create_graph)
            if not retain_graph:  # current._release(), written out
                if current._saved:
                    current._freed = tuple(current._saved)
                current._saved = None
            for (child, nr), gi in zip(current.next_functions, grads_in):
                if child is None or (needed is not None and child not in needed):
                    continue
                if gi is None:  # no gradient along this edge, but the child waits for it no more
                    _arrived(child, deps, buffers, ready, tie, needed)
                    continue
                if child._outputs:
                    _collect(buffers, child, nr, gi)
                else:
                    before = buffers.get(child)
                    buffers[child] = gi if before is None else before + gi
                left = deps[child] - 1
                deps[child] = left
                if left == 0:
                    heappush(ready, (-child._seq, next(tie), child))
            grads_in = gi = None  # the buffers hold them now: let AccumulateGrad see who else refers to a grad
    except BaseException as exc:  # KeyboardInterrupt in a hook too: listeners learn the pass ended
        _failed(current, exc, listening)
        raise
    finally:
        grad_mode._grad_enabled[0] = prev_mode
    if listening:
        events.BackwardFinished.emit(root_ids=tuple(t._id for t in roots))
    return found


def _started(roots, grads, create_graph, listening) -> list:
    """The roots' starting gradients; a failure here (no node ran) is reported as backward_failed."""
    __tracebackhide__ = ENGINE_FRAME
    try:
        return _root_grads(roots, grads, create_graph)
    except Exception as exc:  # e.g. backward() on a tensor that does not require grad
        if listening:
            events.BackwardFailed.emit(node_id=None, name=None, error_type=type(exc).__name__, message=str(exc))
        raise


def _failed(current, exc, listening) -> None:
    """A node's backward raised: anomaly mode's report, and the backward_failed event naming the node."""
    if current is not None and anomaly_mode._mode[0]:
        anomaly_mode.report(current)
    if listening:
        events.BackwardFailed.emit(node_id=current._id if current is not None else None,
                                   name=current.name() if current is not None else None,
                                   error_type=type(exc).__name__, message=str(exc))


def _plan(root_nodes: list, targets) -> tuple:
    """``(deps, needed)``: how many edges lead into each node that will run; with ``targets`` (``grad()`` or
    ``backward(inputs=...)``) only the nodes that lead to a target run (``needed``), and only their edges count."""
    if targets is None:
        return _dependencies(root_nodes), None
    order = _post_order(root_nodes)
    needed = _needed(order, set(targets))
    deps = {}
    for node in order:
        if node in needed:
            for child, _ in node.next_functions:
                if child in needed:
                    deps[child] = deps.get(child, 0) + 1
    return deps, needed


def _seeded(roots, root_nodes, start, deps, needed) -> tuple:
    """The gradient buffers holding the roots' gradients, and the heap of the roots that are ready to run."""
    buffers = {}
    for t, node, g in zip(roots, root_nodes, start):
        if node._outputs:
            _collect(buffers, node, t._output_nr, g)
        else:
            buffers[node] = buffers[node] + g if node in buffers else g
    ready, tie = [], itertools.count()
    for node in dict.fromkeys(root_nodes):
        if not deps.get(node) and (needed is None or node in needed):
            heapq.heappush(ready, (-node._seq, next(tie), node))
    return buffers, ready, tie


def _captured(node, g, targets, found, capture, create_graph, needed) -> bool:
    """At a node of ``grad()``'s inputs: keep its gradient; True when nothing below it needs to run."""
    if capture:
        i, t = targets[node]
        value = g[t._output_nr] if node._outputs else g  # one output of a split, say
        if value is not None:
            found[i] = value if create_graph else Tensor._make(value)
    return not any(c in needed for c, _ in node.next_functions if c is not None)


class _Step:
    """One node's turn on the slow path: hooks, the events of the step, anomaly mode's nan check. It does what
    the fast path in :func:`_run` does, and reports it."""

    def __init__(self, create_graph, retain_graph, stepping, showing, check_nan, needed, buffers, deps, ready, tie):
        self.create_graph, self.retain_graph, self.stepping, self.showing = (create_graph, retain_graph, stepping,
                                                                             showing)
        self.check_nan, self.needed, self.buffers, self.deps, self.ready, self.tie = (check_nan, needed, buffers,
                                                                                     deps, ready, tie)
        self.arrived = {}  # node -> the event copy of the one gradient it received, reused by the events that show it

    def __call__(self, current, g, hooked) -> None:
        create_graph, showing, buffers, arrived = self.create_graph, self.showing, self.buffers, self.arrived
        g_copy = arrived.pop(current, None)
        if hooked:
            grads_in, shown = _execute(current, g, create_graph, self.stepping, showing)
        else:  # _execute without hooks, written out: the loop that records every event runs this
            grads_in = current._run(g, create_graph)
            shown = None
            if showing:
                shown = _shown(grads_in, create_graph)
                events.NodeExecuted.emit(node_id=current._id, name=current.name(),
                                         grad_outputs=_shown_outputs(current, g, g_copy), grad_inputs=shown)
        if not self.retain_graph:
            freed = current._release()
            if freed:
                events.SavedTensorsFreed.emit(node_id=current._id, name=current.name(), names=freed)
        if self.check_nan:
            anomaly_mode.check_nan(current, grads_in)
        for position, ((child, nr), gi) in enumerate(zip(current.next_functions, grads_in)):
            if child is None or (self.needed is not None and child not in self.needed):
                continue
            if gi is None:
                _arrived(child, self.deps, buffers, self.ready, self.tie, self.needed)
                continue
            if showing:
                events.GradientFlowed.emit(source_id=current._id, target_id=child._id, input_nr=nr,
                                           position=position, value=shown[position])
            if child._outputs:
                _collect(buffers, child, nr, gi)
            elif child in buffers:
                buffers[child] = buffers[child] + gi
                arrived.pop(child, None)  # a sum now: no single event copy stands for it
            else:
                buffers[child] = gi
                if showing:
                    arrived[child] = shown[position]
            self.deps[child] -= 1
            if self.deps[child] == 0:
                heapq.heappush(self.ready, (-child._seq, next(self.tie), child))


def _arrived(node, deps: dict, buffers: dict, ready: list, tie, needed) -> None:
    """An edge into ``node`` brought no gradient (a backward returned None for it). The node waits for one edge
    less; if that was the last and no gradient reached it at all, it does not run (as in torch), and the nodes
    below it wait for it no more either."""
    pending = [node]
    while pending:
        node = pending.pop()
        deps[node] -= 1
        if deps[node]:
            continue
        if node in buffers:
            heapq.heappush(ready, (-node._seq, next(tie), node))
            continue
        pending.extend(child for child, _ in node.next_functions
                       if child is not None and (needed is None or child in needed))


def _collect(buffers: dict, node, nr: int, g) -> None:
    """Add ``g`` to the gradient of output ``nr`` of a node with several outputs (one list slot per output)."""
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node._outputs
    slots[nr] = g if slots[nr] is None else slots[nr] + g


def _copy(g) -> np.ndarray:
    return events.copy_of(g._data if hasattr(g, "_data") else g)


def _as_tensor(g, create_graph):
    return g if create_graph else Tensor._make(g)


def _run_hooks(hooks: dict, g, create_graph, node, tensor_id, listening, kind="tensor"):
    """Tensor hooks in registration order; each sees the previous one's result, a returned tensor replaces g."""
    for fn in tuple(hooks.values()):
        result = fn(_as_tensor(g, create_graph))
        if listening:
            events.HookFired.emit(hook_kind=kind, node_id=node._id, tensor_id=tensor_id,
                                  hook_name=hook_name(fn))
        if result is not None:
            if not isinstance(result, Tensor):
                raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
            if result.shape != g.shape:
                raise RuntimeError(f"hook '{hook_name(fn)}' has changed the size of value")
            was = g._data.dtype if create_graph else g.dtype
            if result._data.dtype != was:
                raise RuntimeError(f"hook '{hook_name(fn)}' has changed the type of value (was torch."
                                   f"{LEGACY_NAMES[was.name]} got torch.{LEGACY_NAMES[result._data.dtype.name]})")
            g = result if create_graph else result._data
    return g


def _tensor_hooks(node, g, create_graph, listening, key=""):
    """Before a node runs: hooks registered on its output tensor, then retain_grad (which sees their result).
    For a node with several outputs, each output's own hooks on its own gradient (tables named by ``key``)."""
    if node._outputs and not key:
        return [None if gk is None else _tensor_hooks(node, gk, create_graph, listening, f"_{k}")
                for k, gk in enumerate(g)]
    hooks = node.__dict__.get("_tensor_hooks" + key)
    if hooks:
        g = _run_hooks(hooks, g, create_graph, node, None, listening)
    ref = node.__dict__.get("_retain" + key)
    tensor = ref() if ref is not None else None
    if tensor is not None and tensor.grad_fn is node:
        _add_to_grad(tensor, g, create_graph, node, listening)
    return g


def _hook_result(fn, result, expected: int) -> tuple:
    """A node hook's replacement gradients, checked as torch checks them: a tuple of Tensors (or None)."""
    if type(result) is not tuple:
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != expected:
        raise RuntimeError(f"hook '{hook_name(fn)}' has returned an incorrect number of values "
                           f"(got {len(result)}, but expected {expected})")
    for x in result:
        if x is not None and not isinstance(x, Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(x).__name__}'")
    return result


def _prehooks(pre: dict, node, g, create_graph, listening):
    """A node's prehooks in registration order: each gets ``(grad_output,)`` and may return a replacement."""
    for fn in tuple(pre.values()):
        result = fn((_as_tensor(g, create_graph),))
        if listening:
            events.HookFired.emit(hook_kind="prehook", node_id=node._id, tensor_id=None,
                                  hook_name=hook_name(fn))
        if result is not None:
            g = _hook_result(fn, result, 1)[0]
            g = g if create_graph else g._data
    return g


def _posthooks(post: dict, node, grads_in: tuple, g, create_graph, listening) -> tuple:
    """A node's hooks in registration order: each gets ``(grad_inputs, grad_outputs)``, may replace grad_inputs."""
    for fn in tuple(post.values()):
        as_t = tuple(None if x is None else _as_tensor(x, create_graph) for x in grads_in)
        result = fn(as_t, (_as_tensor(g, create_graph),))
        if listening:
            events.HookFired.emit(hook_kind="posthook", node_id=node._id, tensor_id=None,
                                  hook_name=hook_name(fn))
        if result is not None:
            result = _hook_result(fn, result, len(grads_in))
            grads_in = tuple(None if x is None else (x if create_graph else x._data) for x in result)
    return grads_in


def _execute(node, g, create_graph, listening, showing):
    """Run one function node with its pre- and post-hooks; return the gradients for its inputs (and, when
    events ``showing`` them are wanted, the copies of them that those events carry)."""
    pre = node.__dict__.get("_pre_hooks")
    if pre:
        g = _prehooks(pre, node, g, create_graph, listening)
    grads_in = node._run(g, create_graph)
    post = node.__dict__.get("_post_hooks")
    if post:
        grads_in = _posthooks(post, node, grads_in, g, create_graph, listening)
    shown = None
    if showing:
        shown = _shown(grads_in, create_graph)
        events.NodeExecuted.emit(node_id=node._id, name=node.name(), grad_outputs=_shown_outputs(node, g, None),
                                 grad_inputs=shown)
    return grads_in, shown


def _shown(grads: list, create_graph: bool) -> tuple:
    """One event copy of each gradient, shared by node_executed and the gradient_flowed events after it."""
    copy = _copy if create_graph else events.copy_of  # arrays unless the gradients are Tensors
    return tuple([None if x is None else copy(x) for x in grads])


def _shown_outputs(node, g, g_copy) -> tuple:
    """What node_executed shows as the gradients a node received: ``g_copy`` (an event copy of ``g`` already
    made) or a copy of ``g``; for a node with several outputs, one per output (None where none arrived)."""
    if node._outputs:
        return tuple([None if x is None else _copy(x) for x in g])
    return (g_copy if g_copy is not None else _copy(g),)


def _accumulate(node, g, targets, found, capture, inputs, create_graph, listening, g_copy=None) -> None:
    """The AccumulateGrad step: leaf hooks, then add into ``.grad`` (or hand the value to ``grad()``)."""
    leaf = node.variable
    if leaf._hooks:
        g = _run_hooks(leaf._hooks, g, create_graph, node, leaf._id, listening)
    if node in targets and capture:
        found[targets[node][0]] = g if create_graph else Tensor._make(g)
        return
    if inputs is not None and node not in targets:
        return
    if not leaf._requires_grad:  # requires_grad_(False) after the graph was built: torch leaves .grad alone
        return
    pre = node.__dict__.get("_pre_hooks")
    if pre:
        g = _prehooks(pre, node, g, create_graph, listening)
    # Like torch, take over a gradient that nothing else holds instead of copying it into .grad: no hook saw it,
    # and the only references are the engine loop's variable, this frame's and getrefcount's own argument.
    owned = (not (leaf._hooks or pre or leaf._post_acc_hooks or node.__dict__.get("_post_hooks"))
             and type(g) is np.ndarray and g.base is None and g.flags.writeable and sys.getrefcount(g) == 3)
    _add_to_grad(leaf, g, create_graph, node, listening, owned, None if leaf._hooks or pre else g_copy)
    if leaf._post_acc_hooks:
        for fn in tuple(leaf._post_acc_hooks.values()):
            if fn(leaf) is not None:
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")
            if listening:
                events.HookFired.emit(hook_kind="post_accumulate", node_id=node._id, tensor_id=leaf._id,
                                      hook_name=hook_name(fn))
    post = node.__dict__.get("_post_hooks")
    if post:
        _posthooks(post, node, (), g, create_graph, listening)


def _add_to_grad(tensor, g, create_graph, node, listening, owned=False, g_copy=None) -> None:
    """``tensor.grad += g``, in place when a grad exists (the same tensor object keeps accumulating).

    A first gradient is copied into ``.grad``, unless ``owned``: then nothing else refers to the array, and it
    becomes ``.grad`` as it is. ``g_copy``, an event copy of ``g`` already made, also shows a first ``.grad``."""
    listening = listening and events.wanted(events.GradAccumulated)
    before = tensor._grad
    before_copy = _copy(before) if listening and before is not None else None
    if create_graph:  # a leaf's first grad is a CopyBackwards node in torch, a retained non-leaf's a clone
        first = CopyBackwards.apply(Tensor._make(np.zeros_like(g._data)), g) if tensor.grad_fn is None else g.clone()
        tensor._grad = first if before is None else before + g
    elif before is None:
        d = tensor._data
        if owned and g.dtype == d.dtype and (g.strides == d.strides or tensor._grad_fn is not None):
            first = g
        elif tensor._grad_fn is None:  # torch's layout contract: a leaf's grad has the leaf's strides (a gradient
            first = np.empty_like(d)   # that came through a transpose is copied, so x.grad.view(-1) works)
            first[...] = g
        else:
            first = np.array(g, dtype=d.dtype)
        tensor._grad = Tensor._make(first)
    else:  # in place, even into a grad built with create_graph (it keeps its grad_fn, as in torch)
        before._data += g
        before._vbox[0] += 1
    if listening:
        events.GradAccumulated.emit(tensor_id=tensor._id, node_id=node._id, before=before_copy,
                                    after=g_copy if before is None and g_copy is not None and not create_graph
                                    else _copy(tensor._grad))
