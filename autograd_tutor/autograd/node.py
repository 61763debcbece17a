"""Graph nodes: :class:`Node`, the ``grad_fn`` of a tensor, and :class:`AccumulateGrad`, the node at a leaf.

Every recorded operation's node is a :class:`~autograd_tutor.autograd.function.Function` (a subclass of
``Node``); a leaf that requires grad gets one ``AccumulateGrad``, which adds the gradients arriving at it into
the leaf's ``.grad``. Both carry a stable id for events and drawings, and torch's ``name()``.

>>> import autograd_tutor as torch
>>> x = torch.tensor(3., requires_grad=True)
>>> (x * 2).grad_fn.next_functions[0][0].name()
'torch::autograd::AccumulateGrad'
"""
from __future__ import annotations

import itertools
import weakref

from .anomaly_mode import _mode as _anomaly, forward_stack
from .hooks import add_hook

__all__ = ["Node", "AccumulateGrad", "accumulate_node"]

_node_seq = itertools.count()
_ids = itertools.count(1)  # stable ids shared by tensors and nodes, for events and drawings
ACCUMULATE_PRIORITY = 2 ** 64 - 1


class Node:
    """A node of the backward graph: torch's ``grad_fn``.

    ``next_functions`` holds one ``(node, input_nr)`` pair per forward input, ``(None, 0)`` where the input
    needs no gradient. Hooks: ``register_prehook(fn(grad_outputs))`` runs before the node,
    ``register_hook(fn(grad_inputs, grad_outputs))`` after; either may return replacements.
    """

    next_functions: tuple = ()
    _outputs = 0  # for a node with several outputs (split), how many: the engine keeps a gradient for each
    _hooked = False  # set once the node has hooks or a retained grad: the engine's fast path checks only this
    #: where ``type(node)`` says the class lives: torch's node classes print as ``<class 'MulBackward0'>``
    printed_module = "builtins"

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.__module__ = cls.printed_module

    def name(self) -> str:
        return type(self).__name__

    @property
    def metadata(self) -> dict:
        if "_metadata" not in self.__dict__:
            self._metadata = {}
        return self._metadata

    def _sequence_nr(self) -> int:
        return self._seq

    def register_prehook(self, fn):
        return add_hook(self._hook_table("_pre_hooks"), fn)

    def register_hook(self, fn):
        return add_hook(self._hook_table("_post_hooks"), fn)

    def _hook_table(self, name: str) -> dict:
        """The hooks of one kind (``_pre_hooks``, ``_post_hooks``, ``_tensor_hooks``), created on first use."""
        self._hooked = True
        return self.__dict__.setdefault(name, {})

    def _retain_grad_of(self, tensor) -> None:
        """Fill ``tensor.grad`` (this node's output) when the engine reaches this node."""
        self._hooked = True
        self.__dict__["_retain" + self._output_key(tensor)] = weakref.ref(tensor)

    def _output_key(self, tensor) -> str:
        """What tells apart the hook tables of the outputs of a node with several: "" or "_<output_nr>"."""
        return f"_{tensor._output_nr}" if self._outputs else ""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: it adds the incoming gradient into ``variable.grad``."""

    def __init__(self, variable) -> None:
        self.variable = variable
        self._seq = ACCUMULATE_PRIORITY
        self._id = next(_ids)
        if _anomaly[0]:
            self._anomaly_stack = forward_stack()

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __call__(self, grad) -> tuple:
        """Add ``grad`` into the leaf's ``.grad``, as the engine does (torch's AccumulateGrad is callable too)."""
        from .engine import _add_to_grad  # the engine builds on nodes: reached at call time
        _add_to_grad(self.variable, grad._data, False, self, False)
        return ()


def accumulate_node(tensor) -> AccumulateGrad:
    """The AccumulateGrad node of a leaf: one per leaf while the graph keeps it alive (held weakly)."""
    ref = tensor._acc
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._acc = weakref.ref(node)
    return node
