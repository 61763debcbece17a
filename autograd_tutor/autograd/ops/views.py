"""In-place operations on views: what ``v = y[0]; v.mul_(3)`` does to the graph of ``y``.

A view shares its base's memory and version counter, so changing the view in place changes the base. Torch
records it on the *base*: the in-place op's node ``fn`` goes inside a ``CopySlices`` node, which becomes the
base's ``grad_fn``. Its backward hands the part of the base's gradient that the view covers to ``fn`` and puts
what ``fn`` returns for the view back in its place:

    d base_before = g with g[view] replaced by fn's gradient for the view,   d (fn's other inputs) = fn's.

Every view of that base (the one changed, and any other) then needs a new ``grad_fn``: its old one leads to the
base's old value. Each gets an ``AsStridedBackward0``, which reads the view's elements out of the base's new
value, ``d base = zeros with g added at the view's places``. A view notices on its next use: its ``grad_fn``
was made when the shared version counter had another value (``Tensor._fresh``).

Under ``create_graph=True`` both backwards are written with recorded tensor operations, as torch writes them, so
that the gradient can be differentiated again: CopySlices copies g into a new tensor laid out like the base
(``CopyBackwards``), takes the view's part of it (``AsStridedBackward0``), hands a clone of that to ``fn``
(``CloneBackward0``) and copies fn's answer back into the part (a ``CopySlices`` of its own);
AsStridedBackward0 copies g into the view's places of a zero tensor and reads that out as the base.

>>> import autograd_tutor as torch
>>> y = torch.ones(2, 3, requires_grad=True) * 2
>>> v = y[0]
>>> v.mul_(3)
tensor([6., 6., 6.], grad_fn=<AsStridedBackward0>)
>>> y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), y._version
('torch::autograd::CopySlices', 'MulBackward0', 1)
"""
from __future__ import annotations

import weakref

import numpy as np

from ... import events
from ..anomaly_mode import _mode as _anomaly, forward_stack
from ..function import Function, SavedTensor
from ..node import AccumulateGrad, _ids, _node_seq
from ..tensor import Tensor
from .copies import CloneBackward0
from .numerics import _is_tensor, _needs_array_only

__all__ = ["CopySlices", "AsStridedBackward0", "SavedViewResult", "rebase", "regrow", "refusal", "save_original"]

_WHY = {"no_grad": " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code "
                   "by moving both the view and the inplace either both inside the no_grad block (if you don't want "
                   "the inplace to be tracked) or both outside (if you want the inplace to be tracked).",
        "multi_output": " This view is the output of a function that returns multiple views. Such functions do not "
                        "allow the output views to be modified inplace. You should replace the inplace operation by an "
                        "out-of-place one."}


def refusal(view, indirect: bool) -> str:
    """Torch's error for an in-place change of a view made under no_grad or by split / unbind / chunk (whose one
    node serves all the pieces): changed itself, or ``indirect``-ly through its base or another view."""
    what = "its base or another view of its base has been" if indirect else "is being"
    fn = view._grad_fn
    if fn is not None:
        head = f"Output {view._output_nr} of {fn.name()[:-len('Backward0')]} is a view and {what} modified inplace."
    else:
        head = f"A view was created in no_grad mode and {what} modified inplace with grad mode enabled."
    return head + _WHY[view._view_origin]


def _geometry(base: np.ndarray, view: np.ndarray) -> tuple:
    """Where ``view`` lies in the memory of ``base``: both shapes and byte strides, the byte offset of its first
    element, the size of an element, and whether the base is laid out row by row (then element i is at byte
    i * itemsize)."""
    offset = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return base.shape, base.strides, view.shape, view.strides, offset, base.itemsize, base.flags.c_contiguous


def _addresses(shape: tuple, strides: tuple, start: int = 0) -> np.ndarray:
    """The byte address of each element of an array of this shape and strides: start + sum of index * stride.

    >>> _addresses((2, 3), (12, 4)).tolist()
    [[0, 4, 8], [12, 16, 20]]
    """
    out = np.full(shape, start, np.int64)
    for axis, (n, step) in enumerate(zip(shape, strides)):
        out += (np.arange(n, dtype=np.int64) * step).reshape((n,) + (1,) * (len(shape) - axis - 1))
    return out


def _places(geometry: tuple) -> np.ndarray:
    """For each element of the view, the index of the base element at the same address, counted in the base's
    own order (``base.reshape(-1)``): the view ``y[:, 1]`` of a (2, 3) ``y`` is at places [1, 4]."""
    base_shape, base_strides, shape, strides, offset, item, row_major = geometry
    view = _addresses(shape, strides, offset)
    if row_major:
        return view // item
    base = _addresses(base_shape, base_strides).reshape(-1)
    order = np.argsort(base, kind="stable")
    return order[np.searchsorted(base, view, sorter=order)]


def _dense(geometry: tuple) -> bool:
    """Whether the base fills its memory without gaps, every stride positive (so its first element is at its
    lowest address): then an array with its strides can be made anew (:func:`_empty_like_base`)."""
    base_shape, base_strides, *_, item, _ = geometry
    dims = sorted((s, n) for s, n in zip(base_strides, base_shape) if n != 1)
    expected = item
    for stride, n in dims:
        if stride != expected:
            return False
        expected *= n
    return True


def _empty_like_base(geometry: tuple, dtype) -> np.ndarray:
    """A new array with the base's shape and strides (torch's ``new_empty_strided``), for a dense base."""
    base_shape, base_strides, *_ = geometry
    memory = np.empty(int(np.prod(base_shape)), dtype)
    return np.lib.stride_tricks.as_strided(memory, base_shape, base_strides)


def _strided(data: np.ndarray, geometry: tuple) -> np.ndarray:
    """The view's elements in the memory of ``data``, an array laid out like the base (dense): shared, not copied."""
    _, _, shape, strides, offset, item, _ = geometry
    memory = np.lib.stride_tricks.as_strided(data, (data.size,), (item,))
    return np.lib.stride_tricks.as_strided(memory[offset // item:], shape, strides)


class AsStridedBackward0(Function):
    """z = the elements of x at the places a size, strides and offset give (the ``grad_fn`` a view gets once its
    base was changed in place);  dx = zeros with g added at those places (twice where a place repeats)."""
    is_view = True

    @staticmethod
    def forward(ctx, x, geometry):
        """The view of ``x`` (laid out like the base whose ``geometry`` this is); used under create_graph."""
        if ctx.needs_input_grad:
            ctx._geometry = geometry
            _show_geometry(ctx, geometry)
        return _strided(x._data, geometry)

    @staticmethod
    def backward(ctx, g):
        places = _places(ctx._geometry)
        if not _is_tensor(g):
            out = np.zeros(ctx._geometry[0], g.dtype)
            np.add.at(out.reshape(-1), places, g)
            return out
        if not _dense(ctx._geometry) or np.unique(places).size != places.size:
            _needs_array_only(ctx, g, "a view whose elements share memory, or of a base with gaps,")
        # as torch: zeros laid out like the base, g copied into the view's places, read back as the base
        storage = Tensor._make(_empty_like_base(ctx._geometry, g._data.dtype))
        storage._data[...] = 0
        AsStridedBackward0.apply(storage, geometry=ctx._geometry).copy_(g)
        return AsStridedBackward0.apply(storage, geometry=_whole(ctx._geometry))


def _whole(geometry: tuple) -> tuple:
    """The geometry of the base itself, as a view of its own memory."""
    base_shape, base_strides, _, _, _, item, row_major = geometry
    return base_shape, base_strides, base_shape, base_strides, 0, item, row_major


def _show_geometry(node, geometry: tuple) -> None:
    _, _, size, strides, offset, item, _ = geometry
    node.show(size=size, stride=tuple(s // item for s in strides), storage_offset=offset // item)


class CopySlices(Function):
    """An in-place op ``fn`` on a view, recorded on the view's base;  d base = g with the view's part replaced by
    fn's gradient for the view,  the gradients of fn's other inputs as fn gives them."""

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    @staticmethod
    def backward(ctx, g):
        fn = ctx._fn
        if ctx._saved is None:  # an earlier backward freed this node, and so what fn saved
            fn._release()
        if _is_tensor(g):
            return _copy_slices_recorded(ctx, g)
        flat = g.flatten()
        places = _places(ctx._geometry)
        grads = fn._run(flat[places], False)
        if grads[0] is None:  # as torch: no gradient for the view, none for the base
            return (None, *grads[1:])
        flat[places] = grads[0]
        return (flat.reshape(g.shape), *grads[1:])


def _copy_slices_recorded(ctx, g) -> tuple:
    """CopySlices' backward under create_graph, as torch's ``CopySlices::apply`` writes it:

        result = empty like the base;  result.copy_(g);  part = result.as_strided(view)
        grads = fn(part.clone());  part.copy_(grads[0]);  return result, grads[1:]"""
    if not _dense(ctx._geometry):
        _needs_array_only(ctx, g, "an in-place change of a view of a base with gaps,")
    result = Tensor._make(_empty_like_base(ctx._geometry, g._data.dtype))
    result.copy_(g)
    part = AsStridedBackward0.apply(result, geometry=ctx._geometry)
    grads = ctx._fn._run(part.clone(), True)
    if grads[0] is None:  # as torch: no gradient for the view, none for the base
        return (None, *grads[1:])
    part.copy_(grads[0])
    return (result, *grads[1:])


class SavedViewResult(SavedTensor):
    """What the node of an in-place op on a view saves as its result (``v.exp_()``): the view itself, at its new
    version. Torch's error, should it change again, names the view's grad_fn of that moment while the view still
    holds it, else the node that saved it."""
    __slots__ = ("named",)

    def __init__(self, view) -> None:
        super().__init__(view, is_output=True)
        self.named = weakref.ref(view._grad_fn)

    def get(self, node, as_tensor: bool):
        """As a tensor (create_graph), the view with the ``grad_fn`` it had when saved (its AsStridedBackward0)."""
        value = super().get(node, as_tensor)
        named = self.named() if as_tensor else None
        if named is not None:
            value._grad_fn = named
        return value

    def _version_message(self, origin) -> str:
        named = self.named()
        return super()._version_message(named if named is not None else origin)


def save_original(node, before) -> None:
    """Where ``node`` (an in-place op's) saved ``before``, the tensor's value before the op, save a clone of it
    instead, as torch's in-place ops do (``original_self = self.clone()``): under create_graph the saved value
    then reads as the output of a CloneBackward0 (built here without an event: no op the learner wrote)."""
    for name, saved in node._saved.items():
        if type(saved) is SavedTensor and saved.tensor is before:
            clone = _node(CloneBackward0, (before._edge(),), ((before._data.shape, before._data.dtype),), (True,))
            node._saved[name] = SavedTensor(Tensor._make(before._data, True, clone), False)


def _node(cls, edges: tuple, meta: tuple, needs: tuple) -> Function:
    """A node wired as ``Function.apply`` wires one, for a tensor that exists already."""
    node = cls()
    node.needs_input_grad, node._saved, node.next_functions, node._meta = needs, {}, edges, meta
    node._seq, node._id = next(_node_seq), next(_ids)
    if _anomaly[0]:
        node._anomaly_stack = forward_stack()
    return node


def _take(t, node, first) -> None:
    """Make ``node`` the ``grad_fn`` of ``t``, keeping ``retain_grad()``, and tell listeners; ``first`` is the
    node's first input (the tensors behind its other edges are known by their node only)."""
    t._grad_fn, t._requires_grad = node, True
    if t._retains_grad:
        node._retain_grad_of(t)
    if events._subscribers:
        unknown = Tensor._make(np.empty(0))
        unknown._id = None
        node._announce((first,) + tuple(n.variable if type(n) is AccumulateGrad else unknown
                                        for n, _ in node.next_functions[1:]), t)


def _as_strided(base, view, geometry: tuple) -> None:
    """Give ``view`` its new ``grad_fn``: an AsStridedBackward0 from the base as it is now."""
    node = _node(AsStridedBackward0, (base._edge(),), ((base._data.shape, base._data.dtype),), (True,))
    node._geometry = geometry
    _show_geometry(node, geometry)
    view._view_version = view._vbox[0]
    _take(view, node, base)


def rebase(view, fn) -> None:
    """Record on the base the in-place op (node ``fn``) that has just changed ``view``: CopySlices becomes the
    base's ``grad_fn``, AsStridedBackward0 the view's."""
    base = view._base
    geometry = _geometry(base._data, view._data)
    node = _node(CopySlices, (base._edge(),) + fn.next_functions[1:],
                 ((base._data.shape, base._data.dtype),) + fn._meta[1:], (base._requires_grad,) + fn.needs_input_grad[1:])
    node._fn, node._geometry = fn, geometry
    _take(base, node, base)
    _as_strided(base, view, geometry)


def regrow(view) -> None:
    """A view whose base, or another view of it, was changed in place since its ``grad_fn`` was made: make that
    again, as torch does on the view's next use (refused for a view made under no_grad and for one output of
    split or unbind)."""
    base = view._base
    if view._grad_fn is None and not base._requires_grad:
        view._view_version = view._vbox[0]
        return
    if view._view_origin is not None:
        raise RuntimeError(refusal(view, indirect=True))
    _as_strided(base, view, _geometry(base._data, view._data))
