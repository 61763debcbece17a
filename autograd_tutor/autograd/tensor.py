"""``Tensor``: a NumPy array plus what autograd needs to know about it.

A tensor is a *leaf* when you made it yourself (``torch.tensor``, ``ones``, ...) or when it was computed
without recording; it is a *non-leaf* when a recorded operation produced it, and then ``grad_fn`` is the graph
node that will send its gradient back to the operation's inputs. Only leaves that require grad get ``.grad``
after ``backward()`` (unless a non-leaf asks with ``retain_grad()``).

>>> import autograd_tutor as torch
>>> a = torch.tensor(3., requires_grad=True)
>>> b = torch.tensor(4., requires_grad=True)
>>> d = a * b + a
>>> d, d.is_leaf, a.is_leaf
(tensor(15., grad_fn=<AddBackward0>), False, True)
>>> d.backward(); a.grad, b.grad
(tensor(5.), tensor(3.))
"""
from __future__ import annotations

import collections
import numbers
import warnings

import numpy as np

from .. import events
from ..devices import CPU
from . import grad_mode
from ._printing import format_tensor
from .dtypes import CPP_NAMES, LEGACY_NAMES, TORCH_NAMES, dtype as _dtype, float32, from_numpy_dtype
from .node import _ids, accumulate_node
from .hooks import add_hook
from .tracebacks import ENGINE_FRAME

__all__ = ["Tensor", "Size", "return_types"]

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. "
    "(Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
NON_LEAF_FLAG = ("you can only change requires_grad flags of leaf variables. If you want to use a computed "
                 "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
SCALAR_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                  "Consider using tensor.detach() first. (Triggered internally at "
                  "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``."""
    __module__ = "autograd_tutor"  # its public name, as torch's type(x.shape) is torch.Size

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))

    def __getitem__(self, index):
        """An entry is an int, a slice another Size: ``x.shape[:-1]`` is ``torch.Size([...])``."""
        got = tuple.__getitem__(self, index)
        return Size(got) if isinstance(index, slice) else got

    def __add__(self, other):
        return Size(tuple(self) + tuple(other)) if isinstance(other, tuple) else tuple.__add__(self, other)

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self)) if isinstance(other, tuple) else NotImplemented


class _ReturnType(tuple):
    """A named tuple such as ``torch.return_types.max(values=..., indices=...)``; its fields are in ``_fields``."""
    _name = ""
    _fields = ("values", "indices")

    def __repr__(self) -> str:
        fields = ",\n".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
        return f"torch.return_types.{self._name}(\n{fields})"


def _return_type(name: str, fields: tuple = ("values", "indices")) -> type:
    """The class ``torch.return_types.<name>`` with a property per field, under that public name (pickle finds it
    there too)."""
    getters = {field: property(lambda self, i=i: self[i]) for i, field in enumerate(fields)}
    return type(name, (_ReturnType,), {"_name": name, "_fields": fields, "__module__": "autograd_tutor",
                                       "__qualname__": f"return_types.{name}", **getters})


class return_types:
    """Result types of ``max(dim)``, ``min(dim)``, ``sort``, ``topk``, ``cummax``, ``cummin``, ``kthvalue``, ``svd``,
    ``histogram`` ..., printed as torch prints them."""
    __module__ = "autograd_tutor"
    max, min, sort, topk = (_return_type(n) for n in ("max", "min", "sort", "topk"))
    cummax, cummin, kthvalue, median = (_return_type(n) for n in ("cummax", "cummin", "kthvalue", "median"))
    aminmax = _return_type("aminmax", ("min", "max"))
    svd = _return_type("svd", ("U", "S", "V"))
    linalg_svd = _return_type("linalg_svd", ("U", "S", "Vh"))
    linalg_eigh = _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
    linalg_cholesky_ex = _return_type("linalg_cholesky_ex", ("L", "info"))
    linalg_slogdet = _return_type("linalg_slogdet", ("sign", "logabsdet"))
    slogdet = _return_type("slogdet", ("sign", "logabsdet"))
    histogram = _return_type("histogram", ("hist", "bin_edges"))
    mode, nanmedian, nanmedian_out = (_return_type(n) for n in ("mode", "nanmedian", "nanmedian_out"))
    # what the functions with ``out=(values, indices)`` return (autograd/arguments.py)
    max_out, min_out, sort_out, topk_out, mode_out = (_return_type(n) for n in ("max_out", "min_out", "sort_out",
                                                                                "topk_out", "mode_out"))
    cummax_out, cummin_out, kthvalue_out, median_out = (_return_type(n) for n in ("cummax_out", "cummin_out",
                                                                                  "kthvalue_out", "median_out"))
    aminmax_out = _return_type("aminmax_out", ("min", "max"))


_warned_once: set = set()


def _warn_once(message: str, stacklevel: int = 3) -> None:
    """A UserWarning at the caller's caller (or further up), the first time in the process only (torch's
    TORCH_WARN_ONCE)."""
    if message not in _warned_once:
        _warned_once.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel)


def _wrap(value) -> "Tensor":
    """A Tensor for an operand: tensors pass through, Python numbers become 0-dim *wrapped numbers*."""
    kind = type(value)
    if kind is Tensor or isinstance(value, Tensor):
        return value
    if kind is float:  # the common cases first, without the slower abstract-class checks below
        t = Tensor._make(np.array(value, dtype=np.float64))
    elif kind is int:
        t = Tensor._make(np.array(value, dtype=np.int64))
    elif isinstance(value, (bool, np.bool_)):
        t = Tensor._make(np.array(value, dtype=np.bool_))
    elif isinstance(value, numbers.Integral):
        t = Tensor._make(np.array(value, dtype=np.int64))
    elif isinstance(value, numbers.Real):
        t = Tensor._make(np.array(value, dtype=np.float64))
    elif isinstance(value, np.ndarray):
        return Tensor._make(value)
    else:
        raise TypeError(f"unsupported operand type: '{type(value).__name__}' (expected a Tensor or a number)")
    t._wrapped = True
    return t


def _dim(d: int, ndim: int) -> int:
    """A dim in ``range(ndim)``, from a possibly negative one, with torch's IndexError when out of range."""
    if not isinstance(d, (int, np.integer)):
        raise TypeError(f"argument 'dim' must be int, not {type(d).__name__}")
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


def _dim_tuple(dim) -> tuple:
    """A reduction's dims as torch saves them: a tuple, in the order given."""
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _viewable(d: np.ndarray, shape: tuple) -> bool:
    """Whether new strides alone give ``d`` the ``shape`` (no copy), the test torch's ``view`` makes."""
    try:
        np.reshape(d, shape, copy=False)
    except ValueError:
        return False
    return True


def _broadcast_shape(a: tuple, b: tuple) -> tuple:
    """The shape two shapes broadcast to, dim by dim from the right (a missing dim or a 1 takes the other's
    size), or torch's RuntimeError naming the first dim, from the right, that cannot match.

    >>> _broadcast_shape((2, 1, 3), (4, 1))
    (2, 4, 3)
    """
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    bad = [i for i in range(n) if a[i] != b[i] and 1 not in (a[i], b[i])]
    if bad:
        i = bad[-1]
        raise RuntimeError(f"The size of tensor a ({a[i]}) must match the size of tensor b ({b[i]}) "
                           f"at non-singleton dimension {i}")
    return tuple([y if x == 1 else x for x, y in zip(a, b)])


def _shape_args(size) -> tuple:
    """``view(2, 3)``, ``view((2, 3))`` and ``view([2, 3])`` all mean (2, 3)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    return tuple(int(s) for s in size)


def _int_args(args: tuple, value, fn: str, name: str) -> tuple:
    """``x.flip(0, 1)``, ``x.flip((0, 1))`` and ``x.flip(dims=[0, 1])`` all mean (0, 1), as torch reads them."""
    if value is not None:
        args = (value,)
    if not args:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "{name}"')
    if len(args) > 1 and not all(isinstance(a, numbers.Integral) for a in args):
        raise TypeError(f"{fn}() takes 1 positional argument but {len(args)} were given")
    return _shape_args(args)


_NO_EDGE = (None, 0)  # a consumer's next_functions entry for an input that needs no gradient


#: The last Python numbers and lists that tensors requiring grad handed out (``item()``, ``tolist()``,
#: ``float()``, ``int()``) while someone listened to graph cuts, each as ``(object, cause, source id, its
#: grad_fn id)``: a tensor later built from these very objects (``torch.tensor(w.item())``, or a list holding
#: one: ``torch.tensor([w.item(), 1.0])``) is a rebuilt copy; one built from a literal ``3.0`` is not, whatever
#: its value.
HANDED_OUT: collections.deque = collections.deque(maxlen=8)


def _shared(obj) -> bool:
    """Is ``obj`` one Python shares between all its uses (a small int such as ``3``: ``int("3") is 3``), so
    that being the same object says nothing about where it came from?"""
    return type(obj) is int and int(str(obj)) is obj


def handed_out(data) -> list:
    """The entries of :data:`HANDED_OUT` whose object is ``data`` itself or, walking nested lists and tuples,
    one of its items: ``[w.item(), 1.0]`` holds what ``w.item()`` handed out, ``[3.0, 1.0]`` nothing. Within a
    list a shared object (``1``: see :func:`_shared`) is never taken for a handed-out one. Each level is
    looked through at C speed (a tensor's nested lists are all lists, or none, at one level)."""
    if not HANDED_OUT:
        return []
    by_id = {id(entry[0]): entry for entry in HANDED_OUT}
    if id(data) in by_id:
        return [by_id[id(data)]]
    found, todo = [], [data] if type(data) in (list, tuple) else []
    for items in todo:  # grows as it goes: the nested lists, level by level
        if not by_id.keys().isdisjoint(map(id, items)):
            found += [by_id[id(x)] for x in items if id(x) in by_id and not _shared(x)]
        if items and type(items[0]) in (list, tuple):
            todo.extend(items)
    return found


def rebuilt_from(out, found: list) -> None:
    """Tell the ``graph_cut`` listeners that ``out`` was built from the numbers ``found`` (entries of
    :data:`HANDED_OUT`): the cause of the first, from every source (``torch.tensor([w.item(), b.item()])``
    comes from w and b)."""
    if not events.wanted(events.GraphCut):
        return
    sources = dict.fromkeys((source, node) for _, _, source, node in found)
    out._cut = True
    events.GraphCut.emit(cause=found[0][1], tensor_id=out._id, source_ids=tuple([s for s, _ in sources]),
                         source_node_ids=tuple([n for _, n in sources]), op="", value=None)


def graph_cut(cause: str, sources: tuple, out=None, op: str = "", handed=None) -> None:
    """Tell whoever listens to ``graph_cut`` events that no gradient will flow from ``out`` back to ``sources``
    (see :class:`~autograd_tutor.events.GraphCut`); for ``item``/``tolist``/``numpy`` (no ``out``) the event
    carries the numbers handed out, and ``handed``, the Python object itself, joins :data:`HANDED_OUT`. The
    caller has checked ``events._subscribers``."""
    if not events.wanted(events.GraphCut):
        return
    fns = [t._grad_fn for t in sources]
    if handed is not None:
        HANDED_OUT.append((handed, cause, sources[0]._id, None if fns[0] is None else fns[0]._id))
    if out is not None:
        out._cut = True  # what is computed from it without recording is "derived" from the cut
    events.GraphCut.emit(cause=cause, tensor_id=None if out is None else out._id,
                         source_ids=tuple([t._id for t in sources]),
                         source_node_ids=tuple([None if f is None else f._id for f in fns]), op=op,
                         value=events.copy_of(sources[0]._data) if out is None else None)


class Tensor:
    """A multi-dimensional array that can record the operations applied to it (see the module docstring)."""
    __module__ = "autograd_tutor"  # type(x) prints <class 'autograd_tutor.Tensor'>, as torch's <class 'torch.Tensor'>

    __array_ufunc__ = None  # make NumPy hand `array * tensor` over to Tensor.__rmul__

    # Defaults shared by all tensors; an instance stores a value only when it differs.
    _requires_grad = False
    _grad_fn = None
    _grad = None
    _retains_grad = False
    _base = None
    _hooks = None
    _post_acc_hooks = None
    _acc = None
    _wrapped = False
    _inference = False
    _output_nr = 0  # which output of its grad_fn this tensor is (split's pieces: 0, 1, ...)
    _view_version = 0  # a view (``_base`` set): the shared version counter's value when its grad_fn was made
    _view_origin = None  # a view made under no_grad ("no_grad") or by split / unbind ("multi_output")
    _cut = False    # True: made by a graph cut while someone listened to graph_cut events (see graph_cut);
    #                 "numbers": built from numbers meanwhile, which may be ones a tensor handed out

    @classmethod
    def _make(cls, data, requires_grad: bool = False, grad_fn=None, vbox=None) -> "Tensor":
        """Wrap an array without copying (the engine's fast constructor; no event)."""
        t = object.__new__(cls)
        t._data = data if type(data) is np.ndarray else np.asarray(data)
        t._vbox = vbox if vbox is not None else [0]
        t._id = next(_ids)
        if requires_grad:
            t._requires_grad = True
        if grad_fn is not None:
            t._grad_fn = grad_fn
        if grad_mode._inference[0]:
            t._inference = True
        return t

    def __new__(cls, *args, **kwargs) -> "Tensor":
        """``torch.Tensor(data)``, ``torch.Tensor(2, 3)``, ``torch.Tensor()``: the legacy constructor, a float32
        tensor (``torch.tensor(data)`` is the modern spelling); see ``legacy.py``."""
        from ..legacy import new  # legacy builds on the factories, which build on Tensor: reached at call time
        return new(float32, args, kwargs, any_tensor=True)

    def _announce(self) -> None:
        if not events.wanted(events.TensorCreated):
            return
        fn = self._grad_fn
        d = self._data
        events.TensorCreated.emit(tensor_id=self._id, shape=d.shape, dtype=TORCH_NAMES[d.dtype],
                                  requires_grad=self._requires_grad, is_leaf=fn is None,
                                  grad_fn_id=fn._id if fn is not None else None, value=events.copy_of(d))

    def _fresh(self) -> None:
        """Make this view's ``grad_fn`` again if its base, or another view of it, was changed in place since
        (``ops/views.py``); nothing for a tensor that is not a view."""
        if self._base is not None and self._vbox[0] != self._view_version:
            from .ops.views import regrow  # the operations build on Tensor: reached at call time
            regrow(self)

    def _edge(self) -> tuple:
        """This tensor's entry in a consumer's ``next_functions``."""
        fn = self._grad_fn
        if fn is not None:
            return (fn, self._output_nr)
        if self._requires_grad:
            ref = self._acc  # the leaf's AccumulateGrad while a graph holds it (accumulate_node, written out)
            node = ref() if ref is not None else None
            return (node if node is not None else accumulate_node(self), 0)
        return _NO_EDGE

    # ------------------------------------------------------------ autograd attributes
    @property
    def requires_grad(self) -> bool:
        """Whether operations on this tensor are recorded; a view requires grad when its base does (torch's
        rule, also for a view made under no_grad)."""
        if self._base is not None:
            self._fresh()
            return self._requires_grad or self._base._requires_grad
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self.grad_fn is not None:
            if not flag:
                raise RuntimeError(NON_LEAF_FLAG)
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        if flag and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._set_requires_grad(flag)

    def _set_requires_grad(self, flag: bool) -> None:
        if flag and self._inference and not grad_mode._inference[0]:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        if flag and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if events._subscribers and self._requires_grad and not flag:
            graph_cut("requires_grad", (self,), self)
        self._requires_grad = bool(flag)

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        """Switch gradient tracking of a leaf on (or off) in place; returns the tensor itself."""
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(NON_LEAF_FLAG)
            return self
        self._set_requires_grad(requires_grad)
        return self

    @property
    def grad_fn(self):
        """The node that made this tensor (None for a leaf); read-only, as in torch."""
        if self._base is not None:
            self._fresh()
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, value) -> None:
        raise AttributeError("attribute 'grad_fn' of 'torch._C.TensorBase' objects is not writable")

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @is_leaf.setter
    def is_leaf(self, value) -> None:
        raise AttributeError("attribute 'is_leaf' of 'torch._C.TensorBase' objects is not writable")

    @property
    def grad(self):
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError("assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{CPP_NAMES[value._data.dtype.name]}' to a tensor "
                    f"with grad_dtype '{LEGACY_NAMES[self._data.dtype.name][:-6]}'. The gradient must match the "
                    "tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
                    "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. "
                    "Diverging the dtypes of a tensor and its gradient may break downstream systems that assume "
                    "they match.")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of size "
                    f"'{list(self.shape)}'. Please ensure that the gradient and the tensor are the same size")
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Ask a non-leaf to keep its gradient in ``.grad`` after backward (a no-op on a leaf)."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        self.grad_fn._retain_grad_of(self)

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            if self._hooks is None:
                self._hooks = {}
            return add_hook(self._hooks, hook)
        return add_hook(self.grad_fn._hook_table("_tensor_hooks" + self.grad_fn._output_key(self)), hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` after a leaf's ``.grad`` was updated."""
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_acc_hooks is None:
            self._post_acc_hooks = {}
        return add_hook(self._post_acc_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        """Compute the gradient of this tensor with respect to the graph's leaves (see ``autograd.backward``)."""
        __tracebackhide__ = ENGINE_FRAME
        from .engine import backward  # the engine builds on Tensor, so Tensor reaches it at call time
        backward([self], gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> "Tensor":
        """A new leaf that shares this tensor's data (and version counter) but is cut from the graph."""
        out = Tensor._make(self._data, False, None, self._vbox)
        if events._subscribers:
            out._announce()
            if self._requires_grad:
                graph_cut("detach", (self,), out)
        return out

    def detach_(self) -> "Tensor":
        """Cut this tensor from the graph in place: it becomes a leaf that does not require grad."""
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self._grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> "Tensor":
        """The same storage as a tensor that does not require grad, invisible to the version counter."""
        out = Tensor._make(self._data)
        if events._subscribers and self._requires_grad:
            graph_cut("data", (self,), out)
        return out

    @data.setter
    def data(self, value: "Tensor") -> None:
        self._data = value._data

    @property
    def _version(self) -> int:
        return self._vbox[0]

    def is_inference(self) -> bool:
        return self._inference

    # ------------------------------------------------------------ basics
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        if not self._data.ndim:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._data.shape[_dim(dim, self._data.ndim)]

    @property
    def dtype(self) -> _dtype:
        return from_numpy_dtype(self._data.dtype)

    @property
    def device(self):
        """Always the CPU: ``device(type='cpu')``."""
        return CPU

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_contiguous(self) -> bool:
        return bool(self._data.flags.c_contiguous)

    def stride(self, dim=None):
        """How many elements to step over to move by one along each dim: (3, 1) for a new (2, 3) tensor, (1, 3)
        for its transpose (a view of the same memory), 0 along an expanded dim."""
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        if dim is not None and not self.ndim:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return strides if dim is None else strides[_dim(dim, self.ndim)]

    def storage_offset(self) -> int:
        """Where the first element sits in the memory this tensor shares with its base, counted in elements:
        ``x[1:, 2]`` of a (3, 4) ``x`` starts at 6."""
        return _in_memory(self._data)[1] // self._data.itemsize

    def contiguous(self) -> "Tensor":
        return self if self._data.flags.c_contiguous else self.clone()

    def data_ptr(self) -> int:
        return self._data.__array_interface__["data"][0]

    def item(self):
        """The single value as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        number = self._data.item()
        if events._subscribers and self._requires_grad:
            graph_cut("item", (self,), handed=number)
        return number

    def tolist(self):
        numbers_ = self._data.tolist()
        if events._subscribers and self._requires_grad:
            graph_cut("tolist", (self,), handed=numbers_)
        return numbers_

    def numpy(self) -> np.ndarray:
        """The underlying array (shared memory); refused while the tensor requires grad, as in torch."""
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if events._subscribers:
            graph_cut("numpy", (self,))
        return self._data

    def __array__(self, dtype=None, copy=None):
        arr = self.numpy()
        return arr if dtype is None else arr.astype(dtype)

    def __len__(self) -> int:
        if not self._data.ndim:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        """Rows, as torch gives them: ``unbind(0)``, so one UnbindBackward0 node for all of them."""
        if not self._data.ndim:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is: 0, except for the pieces of ``split`` and friends."""
        return self._output_nr

    def __bool__(self) -> bool:
        if self._data.size != 1:
            values = "more than one value" if self._data.size else "no values"
            raise RuntimeError(f"Boolean value of Tensor with {values} is ambiguous")
        return bool(self._data)

    def _scalar(self, kind):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return kind(self._data.item())

    def __float__(self) -> float:
        if self._requires_grad:
            _warn_once(SCALAR_WARNING)
        number = self._scalar(float)
        if events._subscribers and self._requires_grad:
            graph_cut("float", (self,), handed=number)
        return number

    def __int__(self) -> int:
        number = self._scalar(int)
        if events._subscribers and self._requires_grad:
            graph_cut("int", (self,), handed=number)
        return number

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.item())

    def __repr__(self) -> str:
        suffixes = []
        try:
            fn = self.grad_fn
        except RuntimeError:  # a view whose grad_fn torch refuses to make again (ops/views.py)
            suffixes.append("grad_fn=<Invalid>")
        else:
            if fn is not None:
                suffixes.append(f"grad_fn=<{type(fn).__name__}>")
            elif self.requires_grad:
                suffixes.append("requires_grad=True")
        return format_tensor(self._data, suffixes)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self._data.item().__format__(spec)
        return object.__format__(self, spec) if spec else repr(self)

    # ------------------------------------------------------------ pickling and copying
    __hash__ = object.__hash__

    def __reduce_ex__(self, protocol):
        """Pickle the values, dtype and requires_grad (as torch: not grad_fn, ``.grad`` or hooks). What is
        stored is the whole array this tensor's data lives in, plus where in it: tensors saved together that
        share memory (a view and its base) share it again after loading, each pickled array stored once."""
        hooks = self._hooks if self.grad_fn is None else \
            self.grad_fn.__dict__.get("_tensor_hooks" + self.grad_fn._output_key(self))
        for hook in (hooks or {}).values():
            warnings.warn(f"backward hook {hook!r} on tensor will not be serialized.  If this is expected, you can "
                          "decorate the function with @torch.utils.hooks.unserializable_hook to suppress this "
                          "warning", UserWarning, stacklevel=2)
        data = self._data
        root, offset = _in_memory(data)
        return (_rebuild, (type(self), root, offset, data.shape, data.strides, data.dtype, self._requires_grad))

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                               "because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        out = type(self)._make(self._data.copy(), self._requires_grad)
        memo[id(self)] = out
        return out

    def _dims(self, dim) -> tuple:
        """The dims to reduce, checked: an empty list means every dim, and a 0-dim tensor has none to reduce."""
        dims = tuple(_dim(d, self.ndim) for d in ((dim,) if isinstance(dim, int) else dim))
        for i, d in enumerate(dims):
            if d in dims[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        return dims if dims and self.ndim else tuple(range(self.ndim))


def _in_memory(data: np.ndarray) -> tuple:
    """The whole array ``data`` lives in (its NumPy base, all the way down) and the byte offset of its first element
    there."""
    root = data
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root, data.__array_interface__["data"][0] - root.__array_interface__["data"][0]


def _rebuild(cls, root: np.ndarray, offset: int, shape: tuple, strides: tuple, dtype, requires_grad: bool):
    """A pickled tensor (or Parameter) again: its data viewed at ``offset`` bytes into the unpickled ``root``."""
    return cls._make(np.ndarray(shape, dtype, root, offset, strides), requires_grad)
