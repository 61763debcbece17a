"""What a live graph says about itself: the answer keys of generated questions, read from the engine.

:func:`graph_facts` walks ``loss.grad_fn`` and ``next_functions`` (the graph autograd will run) and reads:

* which tensors are on it: the leaves (each ``AccumulateGrad.variable``) and the outputs of the function
  nodes (found by name in the learner's namespace, or anonymous);
* which of them ``backward()`` writes a ``.grad`` into: the leaves that require grad, and non-leaves that
  asked with ``retain_grad()``;
* how many paths lead from the loss to each node: ``paths(root) = 1``, ``paths(child) = sum over the edges
  into it of paths(parent)``, so ``a * a`` reaches ``a`` twice;
* the gradients, by running each node's own ``backward`` (the engine's code) over the live graph, summing
  what meets at a node as the engine does. Nothing is written (no ``.grad``, no hooks, no events) and no
  saved tensor is freed; if the real ``backward()`` would raise now (saved tensors already freed, a tensor
  changed in place), the walk raises the same error and it is kept in ``backward_error``;
* whether a second ``backward()`` raises: it does when a node on the path still holds saved tensors,
  because the first call frees them.

>>> import autograd_tutor as torch
>>> x = torch.tensor(2., requires_grad=True); c = torch.tensor(5.)
>>> z = x * x; loss = z * c
>>> f = graph_facts(loss, {"x": x, "c": c, "z": z, "loss": loss})
>>> [t.name for t in f.tensors], f.gets_grad_names(), f.grad_of(x), f.paths_to(x)
(['x', 'z', 'loss', 'c'], ['x'], 20.0, 2)
>>> f.second_backward_raises, f.saved_nodes
(True, [('MulBackward0', ('other',)), ('MulBackward0', ('other', 'self'))])
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..autograd.engine import _dependencies, _post_order
from ..autograd.function import AccumulateGrad
from ..autograd.tensor import Tensor
from ..viz.names import tensors_in

__all__ = ["graph_facts", "GraphFacts", "TensorFact", "namespace_tensors", "MAX_OUTSIDE"]

#: At most this many named tensors that are not on the graph are added as distractors.
MAX_OUTSIDE = 4


def namespace_tensors(names) -> list:
    """``(name, tensor)`` for the tensors of a namespace, first name wins; module parameters as ``m.weight``.

    The names are found by :func:`autograd_tutor.viz.tensors_in` (which skips ``_``-names, IPython's old
    outputs); only this package's tensors are kept.
    """
    out, seen = [], set()
    for name, t in tensors_in(names):
        if isinstance(t, Tensor) and id(t) not in seen:
            seen.add(id(t))
            out.append((name, t))
    return out


@dataclass(frozen=True)
class TensorFact:
    """One tensor of the question: ``key`` is its stable id in the diagram, ``name`` the learner's name."""
    key: str
    name: Optional[str]
    tensor: Optional[Tensor]
    node: object
    on_graph: bool

    @property
    def category(self) -> str:
        """``leaf_grad``, ``leaf_nograd`` or ``nonleaf``: read from the tensor (or its node)."""
        if self.tensor is None or not self.tensor.is_leaf:
            return "nonleaf"
        return "leaf_grad" if self.tensor.requires_grad else "leaf_nograd"


class GraphFacts:
    """The facts :func:`graph_facts` gathered; see the module docstring."""

    def __init__(self, root: Tensor, names) -> None:
        if not isinstance(root, Tensor):
            raise TypeError(f"quiz_from() expects a Tensor, got {type(root).__name__}")
        named = namespace_tensors(names)
        name_of = {id(t): n for n, t in named}
        self.root = root
        self.root_name = name_of.get(id(root), "loss")
        if root.grad_fn is None:
            why = ("it does not require grad (was it computed under torch.no_grad(), or from tensors that "
                   "do not require grad?)" if not root.requires_grad else "it is a leaf you created")
            raise ValueError(f"quiz_from({self.root_name}): {self.root_name} has no grad_fn, so there is no "
                             f"graph behind it to ask about: {why}. Pass a tensor computed from tensors that "
                             "require grad, such as the loss.")
        deps = _dependencies([root.grad_fn])
        self.order = _post_order([root.grad_fn])[::-1]  # the root first, every node before the nodes it sends gradients to
        functions = [n for n in self.order if not isinstance(n, AccumulateGrad)]
        outputs = {}  # function node -> its output tensor, when we can name it
        for node in functions:
            ref = node.__dict__.get("_retain")
            t = ref() if ref is not None else None
            if t is not None and t.grad_fn is node:
                outputs[node] = t
        node_set = set(functions)
        for _, t in named:
            if t.grad_fn in node_set:
                outputs.setdefault(t.grad_fn, t)
        outputs[root.grad_fn] = root

        self.by_node = {}
        for node in self.order:
            if isinstance(node, AccumulateGrad):
                t = node.variable
                fact = TensorFact(f"t{t._id}", name_of.get(id(t)), t, node, True)
            else:
                t = outputs.get(node)
                fact = TensorFact(f"n{node._id}", name_of.get(id(t)) if t is not None else None, t, node, True)
            self.by_node[node] = fact
        on_graph = sorted(self.by_node.values(), key=lambda f: f.tensor._id if f.tensor is not None else f.node._id)
        self.tensors = on_graph + self._outside(named, on_graph)

        self.edges = {}
        for node in functions:
            for child, _ in node.next_functions:
                if child is not None:
                    edge = (self.by_node[child].key, self.by_node[node].key)
                    self.edges[edge] = self.edges.get(edge, 0) + 1
        self.paths = {self.order[0]: 1}
        for node in self.order:
            for child, _ in node.next_functions:
                if child is not None:
                    self.paths[child] = self.paths.get(child, 0) + self.paths[node]

        self.hooked = any(node.__dict__.get(h) for node in functions
                          for h in ("_tensor_hooks", "_pre_hooks", "_post_hooks"))
        self.hooked |= any(n.variable._hooks for n in self.order if isinstance(n, AccumulateGrad))
        self.saved_nodes = [(n.name(), tuple(sorted(name for name, _ in n.saved_summary()))) for n in functions
                            if n.saved_summary()]
        self.received, self.backward_error = None, None
        try:
            self.received = self._walk(root, deps)
        except RuntimeError as exc:
            self.backward_error = str(exc)

    def _outside(self, named: list, on_graph: list) -> list:
        """Named tensors off the graph that belong with it: untracked inputs a node saved, ``detach()``-ed
        copies (they share a version counter with a graph tensor), then the most recent ones made while the
        graph was built (no_grad results, unused inputs), at most :data:`MAX_OUTSIDE`."""
        inside = {id(f.tensor) for f in on_graph}
        first = min(f.tensor._id for f in on_graph if f.tensor is not None)
        vboxes = {id(f.tensor._vbox) for f in on_graph if f.tensor is not None}
        saved = {id(s.tensor) for f in on_graph if not isinstance(f.node, AccumulateGrad)
                 for s in (f.node.__dict__.get("_saved") or {}).values() if s.tensor is not None}

        def related(t) -> bool:
            return id(t._vbox) in vboxes or id(t) in saved
        candidates = [(n, t) for n, t in named
                      if id(t) not in inside and (related(t) or first <= t._id <= self.root._id)]
        candidates.sort(key=lambda nt: (not related(nt[1]), -nt[1]._id))
        chosen = sorted(candidates[:MAX_OUTSIDE], key=lambda nt: nt[1]._id)
        return [TensorFact(f"t{t._id}", n, t, t.grad_fn, False) for n, t in chosen]

    @staticmethod
    def _walk(root: Tensor, deps: dict) -> dict:
        """The gradient arriving at every node, computed by the nodes' own backward functions."""
        deps = dict(deps)
        start = root.grad_fn
        buffers = {start: np.ones(root._data.shape, root._data.dtype)}
        received = {}
        ready = [start]
        while ready:
            node = ready.pop()
            g = buffers.pop(node)
            received[node] = np.array(g, copy=True)
            if isinstance(node, AccumulateGrad):
                continue
            for (child, _), gi in zip(node.next_functions, node._run(g, False)):
                if child is None or gi is None:
                    continue
                buffers[child] = buffers[child] + gi if child in buffers else gi
                deps[child] -= 1
                if deps[child] == 0:
                    ready.append(child)
        return received

    # ------------------------------------------------------------------ answers, by tensor
    def fact(self, tensor: Tensor) -> Optional[TensorFact]:
        return next((f for f in self.tensors if f.tensor is tensor), None)

    @property
    def named(self) -> list:
        return [f for f in self.tensors if f.name is not None]

    def gets_grad(self, f: TensorFact) -> bool:
        """Does ``backward()`` from the root write into ``f.tensor.grad``?"""
        if not f.on_graph or f.tensor is None:
            return False
        if isinstance(f.node, AccumulateGrad):
            return True
        return f.tensor.retains_grad and f.tensor.grad_fn is f.node

    def gets_grad_names(self) -> list:
        return [f.name for f in self.named if self.gets_grad(f)]

    def gradient(self, f: Optional[TensorFact]) -> Optional[np.ndarray]:
        """d(root)/d(tensor) as backward computes it (None when unknown or when no gradient reaches it)."""
        if self.received is None or f is None or not f.on_graph:
            return None
        return self.received.get(f.node)

    def grad_of(self, tensor: Tensor) -> Optional[float]:
        """The first element of d(root)/d(tensor), as a float (handy in examples and tests)."""
        g = self.gradient(self.fact(tensor))
        return None if g is None else float(g.flat[0])

    def paths_to(self, tensor: Tensor) -> int:
        f = self.fact(tensor)
        return self.paths.get(f.node, 0) if f is not None and f.on_graph else 0

    @property
    def second_backward_raises(self) -> bool:
        """Would the second of two ``backward()`` calls from now raise? (The first raises if ``backward_error``.)"""
        return self.backward_error is not None or bool(self.saved_nodes)


def graph_facts(root: Tensor, names) -> GraphFacts:
    """Read the graph behind ``root``; ``names`` maps the learner's variable names to values."""
    return GraphFacts(root, names)
