"""``torch.autograd.Function``: an operation whose forward and backward the learner writes.

Subclass it with two static methods: ``forward(ctx, *args)`` computes the result from tensors (nothing inside
is recorded) and may keep tensors with ``ctx.save_for_backward``; ``backward(ctx, grad_output)`` returns one
gradient per forward argument (None for the arguments that are not tensors or need none). Call it with
``apply``: the result's ``grad_fn`` is a node named after the class, ``MyExpBackward``. ``backward`` may return
more values than ``forward`` took arguments if the extra ones are None (a ``bias=None`` left out, say).

>>> import autograd_tutor as torch
>>> class MyExp(torch.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         y = x.exp()
...         ctx.save_for_backward(y)
...         return y
...     @staticmethod
...     def backward(ctx, grad_output):
...         y, = ctx.saved_tensors
...         return grad_output * y          # d/dx exp(x) = exp(x)
>>> x = torch.tensor(0., requires_grad=True)
>>> z = MyExp.apply(x)
>>> z.backward(); z.grad_fn.name(), x.grad
('MyExpBackward', tensor(1.))
"""
from __future__ import annotations

from .function import FREED_MESSAGE, Function as _Node, SavedTensor, _fit
from .grad_mode import no_grad
from .tensor import Tensor

__all__ = ["Function", "FunctionCtx"]


class FunctionCtx:
    """What ``forward`` and ``backward`` receive as ``ctx`` (the backward node itself once recorded)."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors (or None) for backward; read them back with ``ctx.saved_tensors``."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")
        self._to_save = tensors

    def mark_non_differentiable(self, *outputs) -> None:
        """Declare outputs that get no gradient (an index, a mask): they will not require grad."""
        self._non_differentiable = outputs

    def set_materialize_grads(self, value: bool) -> None:
        """Accepted for compatibility: backward always receives a tensor here."""

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward``, checked for in-place changes; freed after backward."""
        state = self.__dict__
        if "_saved" not in state:  # not recorded: what was saved, as it is
            return tuple(state.get("_to_save", ()))
        saved = state["_saved"]
        if saved is None:
            raise RuntimeError(FREED_MESSAGE)
        return tuple(saved[f"tensor {i}"].get(self, True) if f"tensor {i}" in saved else None
                     for i in range(self._slots))


class _CustomNode(FunctionCtx, _Node):
    """The engine node of a user Function: forward and backward call the user's static methods."""
    user: type = None  # the user's Function subclass
    printed_module = "torch.autograd.function"

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    def __dir__(self):
        return object.__dir__(self)  # no _saved_<name> attributes: torch has none for these nodes

    @staticmethod
    def forward(ctx, *tensors, args, node_class):
        """Run the user's forward without recording; return the result's array (``apply`` wraps it)."""
        if isinstance(ctx, _CustomNode):  # recorded: the engine's flags, one per tensor argument
            ctx._tensor_needs = ctx.needs_input_grad
        else:  # not recorded: forward gets a ctx all the same
            ctx = node_class()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        with no_grad():
            out = node_class.user.forward(ctx, *args)
        if not isinstance(out, Tensor):
            raise NotImplementedError(f"{node_class.user.__name__}.forward returned {type(out).__name__}: "
                                      "autograd_tutor's custom Functions return exactly one tensor")
        saved = ctx.__dict__.pop("_to_save", ())
        if "_saved" in ctx.__dict__:  # an output kept for backward is rebuilt with this node as its grad_fn
            ctx._slots = len(saved)
            ctx._saved = {f"tensor {i}": SavedTensor(t, is_output=t is out)  # "tensor 0": how drawings name it
                          for i, t in enumerate(saved) if t is not None}
        ctx._arg_is_tensor = tuple(isinstance(a, Tensor) for a in args)
        ctx._non_differentiable = any(o is out for o in ctx.__dict__.get("_non_differentiable", ()))
        return out._data

    def _run(self, grad, create_graph: bool):
        """Call the user's backward with the gradient as a tensor; keep the gradients of the tensor arguments."""
        user = type(self).user
        grads = user.backward(self, grad if create_graph else Tensor._make(grad))
        grads = grads if isinstance(grads, tuple) else (grads,)
        expected = len(self._arg_is_tensor)
        if len(grads) > expected and all(g is None for g in grads[expected:]):
            grads = grads[:expected]  # as torch: extra gradients are allowed when all of them are None
        if len(grads) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients (expected "
                               f"{expected}, got {len(grads)})")
        tensor_grads = [g for g, is_tensor in zip(grads, self._arg_is_tensor) if is_tensor]
        out = []
        for g, meta, needed in zip(tensor_grads, self._meta, self._tensor_needs):
            if g is None or not needed:
                out.append(None)
            elif create_graph:
                out.append(g)
            else:
                out.append(_fit(g._data if isinstance(g, Tensor) else g, *meta))
        return out


class Function:
    """Base class of operations written by the learner (see the module docstring)."""
    __module__ = "autograd_tutor.autograd"  # its public name: torch.autograd.Function

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args):
        """Run ``forward`` on ``args`` and, when an argument requires grad, record a ``<Class>Backward`` node."""
        node_class = cls.__dict__.get("_node_class")
        if node_class is None:
            node_class = type(f"{cls.__name__}Backward", (_CustomNode,), {"user": cls})
            cls._node_class = node_class
        tensors = [a for a in args if isinstance(a, Tensor)]
        if not tensors:  # nothing to differentiate: forward runs as a plain function
            ctx = node_class()
            ctx.needs_input_grad = (False,) * len(args)
            with no_grad():
                return cls.forward(ctx, *args)
        out = node_class.apply(*tensors, args=args, node_class=node_class)
        if out.grad_fn is not None and out.grad_fn._non_differentiable:
            out = out.detach()
        return out
