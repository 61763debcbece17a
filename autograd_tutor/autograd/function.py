"""Graph nodes, and ``Function.apply``: the one place where the graph is built.

Every operation is a subclass of :class:`Function` named as torch names its node (``MulBackward0``), with a
``forward(ctx, *inputs, **params)`` that computes on NumPy arrays and a ``backward(ctx, grad)`` beside it that
returns one gradient per input. When an input requires grad and grad mode is on, ``apply`` makes an
instance of that class the output's ``grad_fn``: the node, which also serves as ``ctx``.

>>> import autograd_tutor as torch
>>> x = torch.tensor(3., requires_grad=True)
>>> y = x * 2
>>> y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), y.grad_fn.next_functions[1]
('MulBackward0', 'torch::autograd::AccumulateGrad', (None, 0))
"""
from __future__ import annotations

import math
import weakref

import numpy as np

from .. import events
from . import grad_mode
from .anomaly_mode import _mode as _anomaly, forward_stack
from .dtypes import LEGACY_NAMES, from_numpy_dtype
from .node import AccumulateGrad, Node, _ids, _node_seq
from .tensor import Tensor, graph_cut
from .summation import torch_sum
from .tracebacks import ENGINE_FRAME

__all__ = ["Node", "Function", "MultiOutputFunction", "AccumulateGrad", "FREED_MESSAGE", "saved_tensors_hooks", "shown"]

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")

INFERENCE_SAVED_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it "
    "in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")

#: How the in-place error ends: with anomaly mode off, and on (its warning has just shown the forward call).
INPLACE_HINT = ("enable anomaly detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).")
ANOMALY_HINT = ("the backtrace further above shows the operation that failed to compute its gradient. The "
                "variable in question was changed in there or anywhere later. Good luck!")

_pack_hooks: list = []  # stack of (pack, unpack) from saved_tensors_hooks


class SavedTensor:
    """One tensor a node saved for backward, checked against in-place changes when it is used.

    An input is kept by reference; the node's own output is kept as its array (a reference to the output
    tensor would make a cycle) and rebuilt with ``grad_fn`` = the node when needed. Inside
    ``saved_tensors_hooks`` the object becomes a :class:`PackedSavedTensor`, which keeps what ``pack`` returned.
    """
    __slots__ = ("tensor", "data", "version", "saved_version", "is_output", "packed", "unpack", "edge")

    def __init__(self, tensor, is_output: bool) -> None:
        if tensor._inference and not grad_mode._inference[0]:
            raise RuntimeError(INFERENCE_SAVED_MESSAGE)
        self.version = vbox = tensor._vbox
        self.saved_version = vbox[0]
        self.is_output = is_output
        self.tensor = None if is_output else tensor
        self.data = tensor._data
        if _pack_hooks and not tensor._wrapped:
            self.__class__ = PackedSavedTensor
            pack, self.unpack = _pack_hooks[-1]
            with grad_mode.no_grad():  # as in torch: what the hook computes is not recorded
                self.packed = pack(tensor)
            self.edge = None if is_output else tensor._edge()[0]
            self.tensor = None

    def get(self, node, as_tensor: bool):
        """The saved value as a Tensor connected to the graph when ``as_tensor``, else as an array (a NumPy
        scalar for 0-dim data: the backward formulas' arithmetic on it is several times faster)."""
        if self.version[0] != self.saved_version:
            # torch names the node that owns an output, else the input's grad_fn *now* (after the in-place op)
            raise RuntimeError(self._version_message(node if self.is_output else self.tensor.grad_fn))
        tensor = self.tensor
        if as_tensor:
            return tensor if tensor is not None else Tensor._make(self.data, True, node, self.version)
        d = self.data if tensor is None else tensor._data
        return d if d.ndim else d[()]

    def _version_message(self, origin) -> str:
        shape = ", ".join(str(s) for s in self.data.shape)
        where = ""
        if origin is not None:
            where = f", which is output 0 of {origin.name().replace('Backward0', '').replace('Backward1', '')},"
        return ("one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: [torch.{LEGACY_NAMES[self.data.dtype.name]} [{shape}]]{where} is at version "
                f"{self.version[0]}; expected version {self.saved_version} instead. Hint: "
                + (ANOMALY_HINT if _anomaly[0] else INPLACE_HINT))


class PackedSavedTensor(SavedTensor):
    """A saved tensor stored as ``pack(tensor)`` returned it, given back through ``unpack`` (no version check)."""
    __slots__ = ()

    def get(self, node, as_tensor: bool):
        value = self.unpack(self.packed)
        return self._reattach(value, node) if as_tensor else value._data

    def _reattach(self, value, node):
        """An unpacked value put in the saved tensor's place in the graph, as torch rebuilds it."""
        if self.is_output:
            return Tensor._make(value._data, True, node)
        if self.edge is None:
            return value
        if isinstance(self.edge, AccumulateGrad):  # a leaf: the same AccumulateGrad receives its gradient
            t = Tensor._make(value._data, True)
            t._acc = weakref.ref(self.edge)
            return t
        return Tensor._make(value._data, True, self.edge)


class _NullContext:
    """The ctx of an operation that records nothing: saving is a no-op."""
    needs_input_grad = ()

    def save(self, /, **_):
        pass

    def show(self, /, **_):
        pass

    def __setattr__(self, name, value):
        pass


_NULL_CTX = _NullContext()


class Function(Node):
    """Base of every operation. Subclasses define ``forward`` and ``backward`` as static methods.

    In ``forward(ctx, *inputs, **params)`` the inputs are Tensors (read ``t._data``) and the result is a
    NumPy array. ``ctx.save(self=a, other=b)`` keeps tensors for backward under torch's names
    (``grad_fn._saved_self``); keyword values that are not tensors are kept as plain attributes
    (``_saved_exponent``) and survive the release after backward. Set ``saves_result = True`` to save
    the output as ``result``. ``backward(ctx, grad)`` receives NumPy arrays (or Tensors under
    ``create_graph=True``) and returns one gradient per input, in the broadcast shape if it likes:
    :meth:`_run` sums it back to each input's shape (the one ``unbroadcast`` of the engine).

    An input that only some gradient needs is better declared than saved by hand: ``saves_for = (("other", 1,
    0), ("self", 0, 1))`` (``MulBackward0``) keeps input 1 as ``other`` when input 0 needs a gradient, and input 0
    as ``self`` when input 1 does, as torch saves them; ``apply`` does it, fast, after ``forward``.
    """
    saves_result = False
    result_name = "result"  # torch's name for the saved output (``L`` for a Cholesky factor)
    is_view = False
    saves_for: tuple = ()  # (name, the input to save, the input whose gradient needs it), in torch's order

    @classmethod
    def apply(cls, *inputs, **params):
        # The hot path of the whole engine, written for speed: one and two inputs (nearly every operation)
        # without list comprehensions, which cost a function call each.
        __tracebackhide__ = ENGINE_FRAME
        n = len(inputs)
        if n == 2:
            a, b = inputs
            if a._base is not None or b._base is not None:
                _fresh(inputs)
            needs = (a._requires_grad, b._requires_grad)
        elif n == 1:
            a = inputs[0]
            if a._base is not None:
                _fresh(inputs)
            needs = (a._requires_grad,)
        else:
            a = inputs[0]
            _fresh(inputs)
            needs = tuple([t._requires_grad for t in inputs])
        if not (grad_mode._grad_enabled[0] and True in needs) or grad_mode._inference[0]:
            data = cls.forward(_NULL_CTX, a, b) if n == 2 and not params else cls.forward(_NULL_CTX, *inputs, **params)
            out = Tensor._make(data, False, None, a._vbox if cls.is_view else None)
            if cls.is_view:
                _viewing(out, a, None if grad_mode._grad_enabled[0] else "no_grad")
            if events._subscribers:
                out._announce()
                if not events.wanted(events.GraphCut):
                    pass
                elif True in needs:  # inputs that require grad, not recorded: the graph stops at ``out``
                    graph_cut("inference_mode" if grad_mode._inference[0] else "no_grad",
                              tuple([t for t in inputs if t._requires_grad]), out, cls.__name__)
                elif a._cut is True or n > 1 and True in [t._cut is True for t in inputs]:  # from a cut's result
                    graph_cut("derived", tuple([t for t in inputs if t._cut is True]), out, cls.__name__)
            return out
        ctx = cls()
        ctx.needs_input_grad = needs
        ctx._saved = {}
        if params:
            data = cls.forward(ctx, *inputs, **params)
        elif n == 2:  # a plain call: faster than unpacking *inputs and an empty **params
            data = cls.forward(ctx, a, b)
        else:
            data = cls.forward(ctx, *inputs)
        for name, i, needer in cls.saves_for:  # what each gradient formula will read, kept only if it will run
            if needs[needer]:
                ctx._saved[name] = SavedTensor(inputs[i], False)
        view = cls.is_view
        out = Tensor._make(data, True, ctx, a._vbox if view else None)
        if view:
            _viewing(out, a, None)
        # wire the node into the graph: edges, the inputs' shapes and dtypes (for _run), the saved result
        if n == 2:
            ctx.next_functions = (a._edge(), b._edge())
            ctx._meta = ((a._data.shape, a._data.dtype), (b._data.shape, b._data.dtype))
        elif n == 1:
            ctx.next_functions = (a._edge(),)
            ctx._meta = ((a._data.shape, a._data.dtype),)
        else:
            ctx.next_functions = tuple([t._edge() for t in inputs])
            ctx._meta = tuple([(t._data.shape, t._data.dtype) for t in inputs])
        ctx._seq = next(_node_seq)
        ctx._id = next(_ids)
        if _anomaly[0]:
            ctx._anomaly_stack = forward_stack()
        if cls.saves_result:
            ctx._saved[cls.result_name] = SavedTensor(out, is_output=True)
        if events._subscribers:
            ctx._announce(inputs, out)
            out._announce()
        return out

    def save(node, /, **named) -> None:
        """Keep tensors (and non-tensor values) for backward under torch's names (``self=``, ``other=``...)."""
        for key, value in named.items():
            if isinstance(value, Tensor):
                node._saved[key] = SavedTensor(value, is_output=False)
            elif value is not None:
                node.__dict__[key] = value

    def show(node, /, **given) -> None:
        """Keep values to show as ``_saved_<name>`` the way torch shows them: as the user gave them (``dim=-1``),
        where the node computes with others (the dim counted from 0) or keeps none; ints read as int64 fields
        (:func:`_as_int64`). Read time does the conversion, so that recording a node costs nothing more."""
        node.__dict__.setdefault("_shown", {}).update(given)

    @property
    def saved_tensors(self) -> tuple:
        """The saved tensors as arrays, in the order they were saved (checked for in-place changes)."""
        return tuple(self._unpack(k, False) for k in self._saved)

    def _unpack(self, key: str, as_tensor: bool):
        __tracebackhide__ = ENGINE_FRAME
        saved = self._saved
        if saved is None:
            raise RuntimeError(FREED_MESSAGE)
        return saved[key].get(self, as_tensor)

    def __getattr__(self, name: str):
        # grad_fn._saved_self, _saved_result, _saved_exponent ...: torch's way to peek at what a node saved.
        __tracebackhide__ = ENGINE_FRAME
        if name.startswith("_saved_") and name != "_saved":
            key = name[7:]
            shown = self.__dict__.get("_shown")
            if shown and key in shown:
                return _as_int64(shown[key])
            if key in self.__dict__:
                return self.__dict__[key]
            saved = self.__dict__.get("_saved")
            if saved is None and key in self.__dict__.get("_freed", ()):
                raise RuntimeError(FREED_MESSAGE)
            if saved is not None and key in saved:
                return self._unpack(key, True)
            if key in self._saved_names():
                return None
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @classmethod
    def _saved_names(cls) -> tuple:
        return getattr(cls, "saved_names", ())

    def __dir__(self):
        """The attributes, with ``_saved_<name>`` for what the node saved (tensors and values), as torch lists
        them: ``[a for a in dir(y.grad_fn) if a.startswith("_saved_")]`` shows what backward will use."""
        state = self.__dict__
        names = set(state.get("_saved") or ()) | set(state.get("_freed", ())) | set(self._saved_names())
        names |= set(state.get("_shown", ()))
        names |= {k for k in state if not k.startswith("_") and k not in ("needs_input_grad", "next_functions")}
        return sorted((set(super().__dir__()) - {"_saved", "_saved_names"}) | {f"_saved_{n}" for n in names})

    def saved_summary(self) -> tuple:
        """What this node saved, as ``(name, shape)`` pairs; empty after the buffers were freed."""
        return tuple([(k, s.data.shape) for k, s in (self._saved or {}).items()])

    def _release(self) -> tuple:
        """Free the saved tensors (backward without retain_graph); return the names that were freed."""
        saved = self._saved
        self._saved = None
        if not saved:
            return ()
        self._freed = names = tuple(saved)  # so that reading them raises, while never-saved slots read as None
        return names

    def _run(self, grad, create_graph: bool):
        """Call ``backward`` and bring each gradient to its input's shape and dtype (a list, None where unneeded)."""
        __tracebackhide__ = ENGINE_FRAME
        grads = type(self).backward(self, grad)
        if type(grads) is not tuple:
            grads = (grads,)
        if create_graph:
            return self._as_input_tensors(grads)
        # one comprehension (the hot path): most gradients already have their input's (shape, dtype) ``m``
        return [None if g is None or not needed else g if g.shape == m[0] and g.dtype == m[1] else _fit(g, *m)
                for g, m, needed in zip(grads, self._meta, self.needs_input_grad)]

    def __call__(self, *grad_outputs):
        """Run this node's backward by hand: ``y.grad_fn(torch.tensor(1.))`` gives the gradients of its inputs
        (one tensor for a one-input node), recorded when grad mode is on and they depend on tensors needing grad.

        >>> import autograd_tutor as torch
        >>> x, w = torch.tensor(2., requires_grad=True), torch.tensor(3., requires_grad=True)
        >>> (x * w).grad_fn(torch.tensor(1.))
        (tensor(3., grad_fn=<MulBackward0>), tensor(2., grad_fn=<MulBackward0>))
        """
        if len(grad_outputs) != 1:
            raise TypeError(f"expected 1 arguments, got {len(grad_outputs)} instead")
        grads = self._run(grad_outputs[0], True)
        return grads[0] if len(grads) == 1 else tuple(grads)

    def _as_input_tensors(self, grads: tuple) -> list:
        """:meth:`_run` under create_graph: the gradients as Tensors, reshaped by recorded operations."""
        out = []
        for g, (shape, dtype), needed in zip(grads, self._meta, self.needs_input_grad):
            if g is None or not needed:
                out.append(None)
                continue
            if not isinstance(g, Tensor):
                g = Tensor._make(np.asarray(g))
            if g.shape != shape:
                g = _sum_to_tensor(g, shape)
            if g._data.dtype != dtype:
                g = g.to(from_numpy_dtype(dtype))
            out.append(g)
        return out

    def _announce(self, inputs, out) -> None:
        untracked = None
        for position, t in enumerate(inputs):
            if t._requires_grad:
                continue
            if untracked is None:
                untracked = [None] * len(inputs)
            # who an untracked input was (a tensor's id, a Python number's 0-dim array): torch's nodes keep no
            # trace of it, but a drawing made from the result (GraphModel.from_tensor) names and shows it
            untracked[position] = t._data if t._wrapped else t._id
            if t._cut and events.wanted(events.GraphCut):  # a cut's result used here: say where (GraphCut "used")
                events.GraphCut.emit(cause="used", tensor_id=t._id, source_ids=(), source_node_ids=(self._id,),
                                     op=self.name(), value=events.copy_of(t._data), position=position)
        if untracked is not None:
            self._untracked = tuple(untracked)
        if not events.wanted(events.NodeCreated):
            return
        # tuples grown in place: for the one or two inputs of nearly every node, cheaper than lists and tuple()
        next_ids = leaf_nodes = input_ids = constants = saved = ()
        for node, nr in self.next_functions:
            if node is None:
                next_ids += ((None, nr),)
            else:
                next_ids += ((node._id, nr),)
                if type(node) is AccumulateGrad:
                    leaf_nodes += ((node._id, node.variable._id),)
        for t, (node, _) in zip(inputs, self.next_functions):
            if t._wrapped:
                input_ids += (None,)
                constants += (t._data.item(),)
            elif node is None and not t._data.size:  # nothing, and no edge: conv2d(x, w)'s missing bias
                input_ids += (None,)
                constants += (None,)
            else:
                input_ids += (t._id,)
                constants += (None,)
        for name, s in (self._saved or {}).items():
            saved += ((name, s.data.shape),)
        events.NodeCreated.emit(node_id=self._id, name=self.name(), next_functions=next_ids, input_ids=input_ids,
                                output_id=out._id, constants=constants, saved=saved, leaf_nodes=leaf_nodes)


class MultiOutputFunction(Function):
    """An operation with several outputs (``split``, ``unbind``, ``svd``): one node for all of them, told apart by
    each output's ``output_nr``, the number beside the node in a consumer's ``next_functions``. The outputs are
    views of the input unless the class sets ``is_view = False``; ``saves_result = True`` saves the first output as
    ``result0``. ``forward`` returns a list of arrays; ``backward`` receives a list with one gradient
    per output (None where none arrived) and returns the input's gradient.

    >>> import autograd_tutor as torch
    >>> a, b = torch.tensor([1., 2., 3.], requires_grad=True).split(2)
    >>> a.grad_fn is b.grad_fn, b.output_nr, (b * 2).grad_fn.next_functions[0][1]
    (True, 1, 1)
    """
    is_view = True

    @classmethod
    def apply(cls, x, **params):
        _fresh((x,))
        record = grad_mode._grad_enabled[0] and x._requires_grad and not grad_mode._inference[0]
        ctx = cls() if record else _NULL_CTX
        if record:
            ctx.needs_input_grad = (True,)
            ctx._saved = {}
        pieces = cls.forward(ctx, x, **params)
        view = cls.is_view  # views of x (split's pieces) share its memory and version counter; others (svd) not
        outs = tuple([Tensor._make(piece, record, ctx if record else None, x._vbox if view else None)
                      for piece in pieces])
        for nr, out in enumerate(outs):
            if view:  # a piece may not be changed in place
                _viewing(out, x, "multi_output" if grad_mode._grad_enabled[0] else "no_grad")
            if record:
                out._output_nr = nr
        if record:
            ctx.next_functions = (x._edge(),)
            ctx._meta = ((x._data.shape, x._data.dtype),)
            ctx._seq = next(_node_seq)
            ctx._id = next(_ids)
            ctx._outputs = len(outs)
            if cls.saves_result:  # the first output, as torch's ``result0``
                ctx._saved["result0"] = SavedTensor(outs[0], is_output=True)
            if _anomaly[0]:
                ctx._anomaly_stack = forward_stack()
        if events._subscribers:
            if record and outs:
                ctx._announce((x,), outs[0])
            for out in outs:
                out._announce()
        return outs


def _fresh(inputs) -> None:
    """In grad mode, give each input that is a view changed in place (through its base or another view) its
    new ``grad_fn`` before it is recorded (``Tensor._fresh``)."""
    if grad_mode._grad_enabled[0]:
        for t in inputs:
            if t._base is not None:  # (only a view can be stale)
                t._fresh()


def _viewing(out, a, origin) -> None:
    """Make ``out`` a view of ``a``'s base: it shares its memory and version counter (``origin``: see
    ``Tensor._view_origin``)."""
    out._base = a._base if a._base is not None else a
    out._view_version = a._vbox[0]
    if origin is not None:
        out._view_origin = origin


def shown(out, **given):
    """``out`` (a tensor, or the tuple of outputs of one node), its node told to show ``given`` (see
    :meth:`Function.show`): for the operations that count dims from 0 before recording the node.

    >>> import autograd_tutor as torch
    >>> torch.ones(2, 3, requires_grad=True).sum(-1).grad_fn._saved_dim
    (18446744073709551615,)
    """
    first = out[0] if type(out) is tuple and out else out
    node = getattr(first, "grad_fn", None)
    if node is not None:
        node.show(**given)
    return out


def _as_int64(value):
    """A value shown as torch shows its saved int64 fields: a negative int as unsigned 64-bit (-1 is 2**64 - 1),
    also inside a tuple; None and others as they are.

    >>> _as_int64(-1), _as_int64((0, -2)), _as_int64(None)
    (18446744073709551615, (0, 18446744073709551614), None)
    """
    if type(value) is tuple:
        return tuple(_as_int64(v) for v in value)
    return value % 2 ** 64 if type(value) is int else value


def _fit(g: np.ndarray, shape: tuple, dtype) -> np.ndarray:
    """A gradient brought to its input's shape (summing what broadcasting spread) and dtype."""
    if g.shape != shape:
        g = unbroadcast(g, shape)
    return g if g.dtype == dtype else g.astype(dtype)


def unbroadcast(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum a gradient back to the shape of an input that was broadcast.

    If ``a`` of shape (3,) was broadcast to (2, 3), each ``a[j]`` fed two outputs, so its gradient is the
    sum over the new leading axis; a size-1 axis that was stretched is summed with keepdims.

    >>> unbroadcast(np.ones((2, 3)), (3,)), unbroadcast(np.ones((2, 3)), (2, 1)).tolist()
    (array([2., 2., 2.]), [[3.0], [3.0]])
    """
    extra = grad.ndim - len(shape)
    if extra == 1 and grad.shape[1:] == shape and math.prod(shape) != 1:  # a batch summed (a bias's gradient)
        return torch_sum(grad, (0,), False)
    stretched = [extra + i for i, n in enumerate(shape) if n == 1 and grad.shape[extra + i] != 1]
    axes = tuple(range(extra)) + tuple(stretched)
    if axes:  # torch's sum_to: one sum over those axes (keepdim), in torch's order where it is known
        grad = torch_sum(grad, None, False) if grad.size and math.prod(shape) == 1 else torch_sum(grad, axes, True)
    return grad.reshape(shape)


def _sum_to_tensor(grad, shape: tuple):
    """:func:`unbroadcast` with tensor operations, so that it is itself differentiable (create_graph); the
    operations are torch's ``sum_to``: one sum (keepdim) over every broadcast dim, then a view."""
    if not shape:
        return grad.sum()
    lead = grad.dim() - len(shape)
    dims = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1 and grad.shape[lead + i] != 1)
    if dims:
        grad = grad.sum(dim=dims, keepdim=True)
    return grad.view(shape) if lead else grad


class saved_tensors_hooks:
    """Intercept what nodes save: ``pack(tensor)`` when saved, ``unpack(packed)`` when backward needs it.

    >>> import autograd_tutor as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach() * 1, lambda t: t):
    ...     y = (x * x).sum()
    >>> y.backward(); x.grad
    tensor([2., 4.])
    """

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.hooks = (pack_hook, unpack_hook)

    def __enter__(self) -> None:
        _pack_hooks.append(self.hooks)

    def __exit__(self, *exc) -> None:
        _pack_hooks.pop()
