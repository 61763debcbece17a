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

import numbers
import warnings

import numpy as np

from .. import events
from ..devices import CPU, check_cpu
from . import functions as F
from . import grad_mode, random
from . import more_functions as M
from . import extra_functions as X
from ._printing import format_tensor
from .dtypes import CPP_NAMES, LEGACY_NAMES, TORCH_NAMES, dtype as _dtype, from_numpy_dtype, kind_name
from .function import _ids, accumulate_node, shown
from .hooks import add_hook

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

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))


class _ReturnType(tuple):
    """A named pair such as ``torch.return_types.max(values=..., indices=...)``."""
    _name = ""
    _fields = ("values", "indices")

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self) -> str:
        first, second = self._fields
        return f"torch.return_types.{self._name}(\n{first}={self[0]!r},\n{second}={self[1]!r})"


class return_types:
    """Result types of ``max(dim)``, ``min(dim)``, ``sort``, ``topk``, ``cummax``, ``cummin`` and ``kthvalue``,
    printed as torch prints them."""
    max = type("max", (_ReturnType,), {"_name": "max"})
    min = type("min", (_ReturnType,), {"_name": "min"})
    sort = type("sort", (_ReturnType,), {"_name": "sort"})
    topk = type("topk", (_ReturnType,), {"_name": "topk"})
    cummax = type("cummax", (_ReturnType,), {"_name": "cummax"})
    cummin = type("cummin", (_ReturnType,), {"_name": "cummin"})
    kthvalue = type("kthvalue", (_ReturnType,), {"_name": "kthvalue"})
    aminmax = type("aminmax", (_ReturnType,), {"_name": "aminmax", "min": _ReturnType.values,
                                               "max": _ReturnType.indices, "_fields": ("min", "max")})


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


def _should_fold(t1: "Tensor", t2: "Tensor") -> bool:
    """torch's choice for matmul with one operand of 3 or more dims and the other of 1 or 2: fold the big one's
    batch into rows (one mm) when the small one requires grad (its gradient is then one mm, not a sum over an
    expanded batch), or when the big one's batch dims are contiguous and the big one is the left operand."""
    larger = t1.ndim >= t2.ndim
    big = t1._data if larger else np.swapaxes(t2._data, -1, -2)  # t2.mT, without recording it
    if not (big.ndim >= 3 and (t2 if larger else t1).ndim <= 2):
        return False
    if (t2 if larger else t1)._requires_grad:
        return True
    if t1.ndim == 2:
        return False
    if big.size == 0:
        return True
    strides = [s // big.itemsize for s in big.strides]
    return all(strides[i] == strides[i + 1] * big.shape[i + 1] for i in range(big.ndim - 2))


def _batched_matmul(t1: "Tensor", t2: "Tensor") -> "Tensor":
    """matmul with broadcast batch dims, as torch records it: both operands expanded to the common batch shape
    and flattened into one batch, one BmmBackward0, then viewed back (a 1-D right operand as a column)."""
    a, b = t1.ndim, t2.ndim
    n, k = (t1.shape[-2] if a > 1 else 1), t1.shape[-1]
    k2, p = (t2.shape[-2], t2.shape[-1]) if b > 1 else (t2.shape[0], 1)
    batch1, batch2 = tuple(t1.shape[:max(a - 2, 0)]), tuple(t2.shape[:max(b - 2, 0)])
    if a == 3 and b == 3 and batch1[0] != batch2[0]:  # a batch of one that requires grad is squeezed away
        if batch1[0] == 1 and t1._requires_grad:
            return t1.squeeze(0).matmul(t2)
        if batch2[0] == 1 and t2._requires_grad:
            return t1.matmul(t2.squeeze(0))
    batch = _broadcast_shape(batch1, batch2)
    count = int(np.prod(batch))
    lhs = t1.expand(*batch, n, k).reshape(count, n, k)
    if b == 1:
        rhs = t2.expand(*batch, k2).reshape(count, k2).unsqueeze(2)
    else:
        rhs = t2.expand(*batch, k2, p).reshape(count, k2, p)
    out = lhs.bmm(rhs)
    shape = batch + ((n,) if a > 1 else ()) + ((p,) if b > 1 else ())
    return F.UnsafeViewBackward0.apply(out.squeeze(-1) if b == 1 else out, shape=shape)


def _fitted_value(value: "Tensor", target: tuple) -> "Tensor":
    """The value of ``x[key] = value`` checked against the shape it fills, as torch checks it: leading dims of
    size 1 are dropped (``x[0] = tensor([5.])``), then it must broadcast, else torch's expand error."""
    shape = value._data.shape
    ones = 0
    while len(shape) - ones > len(target) and shape[ones] == 1:
        ones += 1
    if ones:
        value = value.reshape(shape[ones:]) if value._requires_grad else Tensor._make(value._data.reshape(shape[ones:]))
        shape = shape[ones:]
    if len(shape) > len(target):
        kind = LEGACY_NAMES[value._data.dtype.name]
        raise RuntimeError(f"expand(torch.{kind}{{{list(shape)}}}, size={list(target)}): the number of sizes provided "
                           f"({len(target)}) must be greater or equal to the number of dimensions in the tensor "
                           f"({len(shape)})")
    for i, (have, want) in enumerate(zip(shape, target[len(target) - len(shape):])):
        if have != want and have != 1:
            raise RuntimeError(f"The expanded size of the tensor ({want}) must match the existing size ({have}) at "
                               f"non-singleton dimension {len(target) - len(shape) + i}.  Target sizes: "
                               f"{list(target)}.  Tensor sizes: {list(shape)}")
    return value


def _not_differentiable(op: str, fn, a: "Tensor", b: "Tensor") -> "Tensor":
    """``fn`` of the two operands (in their common dtype); where it would be recorded, torch records a
    NotImplemented node whose backward raises."""
    _broadcast_shape(a._data.shape, b._data.shape)
    a._integer_zero_division(b)
    with np.errstate(divide="ignore", invalid="ignore"):  # inf and nan, without NumPy's warnings, as in torch
        values = np.asarray(fn(*F._promote(a, b)))
    tracked = [t for t in (a, b) if not t._wrapped]
    if grad_mode._grad_enabled[0] and any(t._requires_grad for t in tracked):
        return M.NotImplementedNode.apply(*tracked, values=values, op=op)
    out = Tensor._make(values)
    if events._subscribers:
        out._announce()
    return out


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


def _operator(fn):
    """The method behind ``a + b`` (``fn`` = AddBackward0) and friends: two tensors of one shape, the common case
    of an expression, go straight to ``fn.apply``; anything else through :func:`_binary`."""
    def method(self, other):
        if type(other) is Tensor and other._data.shape == self._data.shape:
            return fn.apply(self, other)
        return _binary(fn, self, other)
    return method


def _binary(fn, a, b, **params):
    if type(a) is not Tensor:
        a = _wrap(a)
    if type(b) is not Tensor:
        b = _wrap(b)
    sa, sb = a._data.shape, b._data.shape
    # a 0-dim operand broadcasts to anything, so does one whose shape ends the other's (a bias)
    if sa != sb and sa and sb and sa[-len(sb):] != sb and sb[-len(sa):] != sa:
        _broadcast_shape(sa, sb)
    return fn.apply(a, b, **params) if params else fn.apply(a, b)


class Tensor:
    """A multi-dimensional array that can record the operations applied to it (see the module docstring)."""

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

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("create tensors with torch.tensor(data), torch.ones(...), torch.zeros(...) and friends")

    def _announce(self) -> None:
        if not events.wanted(events.TensorCreated):
            return
        fn = self._grad_fn
        d = self._data
        events.TensorCreated.emit(tensor_id=self._id, shape=d.shape, dtype=TORCH_NAMES[d.dtype],
                                  requires_grad=self._requires_grad, is_leaf=fn is None,
                                  grad_fn_id=fn._id if fn is not None else None, value=events.copy_of(d))

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
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, value) -> None:
        raise AttributeError("attribute 'grad_fn' of 'torch._C.TensorBase' objects is not writable")

    @property
    def is_leaf(self) -> bool:
        return self._grad_fn is None

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
        from .engine import backward
        backward([self], gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> "Tensor":
        """A new leaf that shares this tensor's data (and version counter) but is cut from the graph."""
        out = Tensor._make(self._data, False, None, self._vbox)
        if events._subscribers:
            out._announce()
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
        return Tensor._make(self._data)

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

    def contiguous(self) -> "Tensor":
        return self if self._data.flags.c_contiguous else self.clone()

    def data_ptr(self) -> int:
        return self._data.__array_interface__["data"][0]

    def item(self):
        """The single value as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self) -> np.ndarray:
        """The underlying array (shared memory); refused while the tensor requires grad, as in torch."""
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
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

    def split(self, split_size, dim=0):
        """Pieces of ``split_size`` along ``dim`` (the last one shorter), or of the sizes in a list: views
        sharing one SplitBackward0 (SplitWithSizesBackward0) node."""
        if self._data.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        axis = _dim(dim, self._data.ndim)
        if isinstance(split_size, (list, tuple)):
            return shown(F.SplitWithSizesBackward0.apply(self, split_sizes=tuple(int(s) for s in split_size), dim=axis),
                         dim=dim)
        return shown(F.SplitBackward0.apply(self, split_size=int(split_size), dim=axis), dim=dim)

    def chunk(self, chunks, dim=0):
        """``chunks`` pieces of (nearly) equal size along ``dim``: ``split`` with size ceil(size / chunks)."""
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        if self._data.ndim == 0:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        size = self._data.shape[_dim(dim, self._data.ndim)]
        if size == 0:  # torch's special case: ``chunks`` empty pieces
            return self.split([0] * chunks, dim)
        return self.split(-(-size // chunks), dim)

    def unbind(self, dim=0):
        """The slices along ``dim``, that dim removed: views sharing one UnbindBackward0 node."""
        if self._data.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        return shown(F.UnbindBackward0.apply(self, dim=_dim(dim, self._data.ndim)), dim=dim)

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
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.item())

    def __repr__(self) -> str:
        suffixes = []
        if self.grad_fn is not None:
            suffixes.append(f"grad_fn=<{type(self.grad_fn).__name__}>")
        elif self._requires_grad:
            suffixes.append("requires_grad=True")
        return format_tensor(self._data, suffixes)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self._data.item().__format__(spec)
        return object.__format__(self, spec) if spec else repr(self)

    # ------------------------------------------------------------ more math, matrices, sorting, new_* (one block)
    def rsqrt(self):
        return M.RsqrtBackward0.apply(self)

    def log2(self):
        return M.Log2Backward0.apply(self)

    def log10(self):
        return M.Log10Backward0.apply(self)

    def tan(self):
        return M.TanBackward0.apply(self)

    def atan(self):
        return M.AtanBackward0.apply(self)

    def asin(self):
        return M.AsinBackward0.apply(self)

    def acos(self):
        return M.AcosBackward0.apply(self)

    def sinh(self):
        return M.SinhBackward0.apply(self)

    def cosh(self):
        return M.CoshBackward0.apply(self)

    def erf(self):
        return M.ErfBackward0.apply(self)

    def trunc(self):
        return M.TruncBackward0.apply(self)

    def frac(self):
        return M.FracBackward0.apply(self)

    arctan, arcsin, arccos, fix = atan, asin, acos, trunc

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        """beta * self + alpha * (mat1 @ mat2): one AddmmBackward0 node (what ``nn.Linear`` records)."""
        for name, m in (("mat1", mat1), ("mat2", mat2)):
            if m.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
        return M.AddmmBackward0.apply(self, mat1, mat2, beta=beta, alpha=alpha)

    def outer(self, vec2):
        """The outer product v w^T: torch computes it as ``v.reshape(-1, 1) * w`` (ViewBackward0, MulBackward0)."""
        for name, v in (("self", self), ("vec2", vec2)):
            if v.ndim != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.ndim}-D")
        return self.reshape(-1, 1) * vec2

    ger = outer

    def diag(self, diagonal=0):
        """A vector on the diagonal of a new matrix (DiagEmbedBackward0), or a matrix's diagonal as a vector."""
        if self.ndim == 1:
            return M.DiagEmbedBackward0.apply(self, offset=diagonal)
        if self.ndim == 2:
            return M.DiagonalBackward0_copy.apply(self, offset=diagonal)
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")

    def diagonal(self, offset=0, dim1=0, dim2=1):
        """The ``offset`` diagonal over dims dim1 and dim2, as a view whose last dim runs along it:
        ``m.diagonal()`` of a matrix is (m[0, 0], m[1, 1], ...); a (2, 3, 3) batch gives shape (2, 3)."""
        d1, d2 = _dim(dim1, self.ndim), _dim(dim2, self.ndim)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return shown(M.DiagonalBackward0.apply(self, offset=offset, dim1=d1, dim2=d2), dim1=dim1, dim2=dim2)

    def trace(self):
        if self.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.ndim}")
        return M.TraceBackward0.apply(self)

    def tril(self, diagonal=0):
        if self.ndim < 2:
            raise RuntimeError("tril: input tensor must have at least 2 dimensions")
        return M.TrilBackward0.apply(self, diagonal=diagonal)

    def triu(self, diagonal=0):
        if self.ndim < 2:
            raise RuntimeError("triu: input tensor must have at least 2 dimensions")
        return M.TriuBackward0.apply(self, diagonal=diagonal)

    def sort(self, dim=-1, descending=False, **stable):
        """Sorted values and where they came from, as ``torch.return_types.sort(values, indices)``; the node is
        SortBackward1 when ``stable=`` is given (torch's other overload), else SortBackward0. (The sort is
        always stable, as torch's on the CPU.)"""
        if set(stable) - {"stable"}:
            raise TypeError(f"sort() got an unexpected keyword argument '{next(iter(set(stable) - {'stable'}))}'")
        node = M.SortBackward1 if stable else M.SortBackward0
        axis = _dim(dim, self.ndim)
        indices = Tensor._make(M.sort_indices(self._data, axis, descending))
        return return_types.sort((shown(node.apply(self, dim=axis, indices=indices), dim=dim), indices))

    def argsort(self, dim=-1, descending=False, stable=False):
        return Tensor._make(M.sort_indices(self._data, _dim(dim, self.ndim), descending))

    def topk(self, k, dim=-1, largest=True, sorted=True):
        """The k largest (``largest=False``: smallest) entries along ``dim``, in order, with their indices."""
        if not isinstance(k, numbers.Integral) or isinstance(k, bool):
            raise TypeError(f"topk(): argument 'k' (position 1) must be int, not {type(k).__name__}")
        axis = _dim(dim, self.ndim)
        if not 0 <= k <= (self.shape[axis] if self.ndim else 1):
            raise RuntimeError("selected index k out of range")
        order = M.sort_indices(self._data, axis, largest)
        indices = Tensor._make(np.take(order, range(k), axis) if self.ndim else order)
        return return_types.topk((shown(M.TopkBackward0.apply(self, dim=axis, indices=indices), dim=dim), indices))

    def any(self, dim=None, keepdim=False):
        return self._logical(np.any, dim, keepdim)

    def all(self, dim=None, keepdim=False):
        return self._logical(np.all, dim, keepdim)

    def _logical(self, reduce, dim, keepdim: bool):
        """any/all over everything or along ``dim``: bool results (uint8 for a uint8 tensor), never recorded."""
        d = self._data
        out = reduce(d, axis=None if dim is None else self._dims(dim), keepdims=keepdim)
        return Tensor._make(np.asarray(out, np.uint8 if d.dtype == np.uint8 else np.bool_))

    def nonzero(self, *, as_tuple=False):
        """The indices of the non-zero entries: one row per entry (n, ndim), or one index tensor per dim."""
        if as_tuple:
            return tuple(Tensor._make(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(self._data)))
        return Tensor._make(np.argwhere(self._data).astype(np.int64))

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """|self - other| <= atol + rtol * |other|, elementwise (equal infinities too; nan only with equal_nan)."""
        if not isinstance(other, Tensor):
            raise TypeError(f"isclose(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
        a, b = self._data, other._data
        if a.dtype != b.dtype:
            raise RuntimeError(f"{LEGACY_NAMES[a.dtype.name][:-6]} did not match {LEGACY_NAMES[b.dtype.name][:-6]}")
        for name, tol in (("rtol", rtol), ("atol", atol)):
            if tol < 0:
                raise RuntimeError(f"{name} must be greater than or equal to zero, but got {tol:g}")
        _broadcast_shape(a.shape, b.shape)
        if a.dtype == np.bool_:
            a, b = a.astype(np.int8), b.astype(np.int8)
        return Tensor._make(np.isclose(a, b, rtol, atol, equal_nan))

    def _new(self, fill, args: tuple, size, dtype, requires_grad: bool, name: str) -> "Tensor":
        from .factories import _leaf, _size
        if size is None and not args:
            raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
        shape = _size(args if size is None else (size,))
        kind = self._data.dtype if dtype is None else dtype.np
        return _leaf(np.full(shape, fill, kind), requires_grad)

    def new_ones(self, *args, size=None, dtype=None, device=None, requires_grad=False):
        """A tensor of ones with this tensor's dtype (unless ``dtype`` is given)."""
        return self._new(1, args, size, dtype, requires_grad, "new_ones")

    def new_zeros(self, *args, size=None, dtype=None, device=None, requires_grad=False):
        return self._new(0, args, size, dtype, requires_grad, "new_zeros")

    def new_empty(self, *args, size=None, dtype=None, device=None, requires_grad=False):
        """Uninitialised memory in torch; zeros here, as ``torch.empty``."""
        return self._new(0, args, size, dtype, requires_grad, "new_empty")

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"new_full(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{type(size).__name__}")
        return self._new(fill_value, (), tuple(size), dtype, requires_grad, "new_full")

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        """A new leaf holding a copy of ``data``, with this tensor's dtype unless ``dtype`` is given."""
        from .factories import tensor
        if isinstance(data, Tensor):
            warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                          "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                          "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
            data = data._data
        return tensor(data, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)

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
        data = root = self._data
        while isinstance(root.base, np.ndarray):
            root = root.base
        offset = data.__array_interface__["data"][0] - root.__array_interface__["data"][0]
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

    # ------------------------------------------------------------ conversions
    def to(self, *args, **kwargs) -> "Tensor":
        """Convert to a dtype (``x.to(torch.float64)``); devices other than the CPU do not exist here."""
        target = kwargs.get("dtype")
        check_cpu(kwargs.get("device"))
        for a in args:
            if isinstance(a, _dtype):
                target = a
            elif isinstance(a, Tensor):
                target = a.dtype
            else:
                check_cpu(a)
        if target is None or target.np == self._data.dtype:
            return self
        if target.np.kind not in "fc":  # an integer or bool result has no gradient: torch records nothing
            return F.ToCopyBackward0.apply(self.detach(), dtype=target.np)
        return F.ToCopyBackward0.apply(self, dtype=target.np)

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{LEGACY_NAMES[self._data.dtype.name]}"
        return self.to(dtype)

    def float(self):
        from . import dtypes
        return self.to(dtypes.float32)

    def double(self):
        from . import dtypes
        return self.to(dtypes.float64)

    def half(self):
        from . import dtypes
        return self.to(dtypes.float16)

    def long(self):
        from . import dtypes
        return self.to(dtypes.int64)

    def int(self):
        from . import dtypes
        return self.to(dtypes.int32)

    def bool(self):
        from . import dtypes
        return self.to(dtypes.bool)

    def cpu(self):
        return self

    def cuda(self, device=None, non_blocking=False):
        """There is no GPU here: the error a CPU-only torch raises."""
        check_cpu("cuda")

    is_cuda = False
    is_cpu = True

    def get_device(self) -> int:
        """-1: the CPU (a GPU tensor would give its index)."""
        return -1

    def clone(self) -> "Tensor":
        return F.CloneBackward0.apply(self)

    def type_as(self, other: "Tensor") -> "Tensor":
        return self.to(other.dtype)

    # ------------------------------------------------------------ arithmetic
    __add__ = __radd__ = _operator(F.AddBackward0)

    __sub__ = _operator(F.SubBackward0)

    def __rsub__(self, other):
        if isinstance(other, np.ndarray):
            return _binary(F.SubBackward0, other, self)
        _wrap(other)  # type check
        return F.RsubBackward1.apply(self, other=other)

    __mul__ = __rmul__ = _operator(F.MulBackward0)

    __truediv__ = _operator(F.DivBackward0)

    def __rtruediv__(self, other):
        if isinstance(other, np.ndarray):
            return _binary(F.DivBackward0, other, self)
        with np.errstate(invalid="ignore"):  # 0 / 0 is nan, without a warning, as in torch
            return self.reciprocal() * other

    def __pow__(self, exponent):
        if isinstance(exponent, (Tensor, np.ndarray)):
            return _binary(F.PowBackward1, self, exponent)
        _wrap(exponent)
        return F.PowBackward0.apply(self, exponent=exponent)

    def __rpow__(self, base):
        if isinstance(base, np.ndarray):
            return _binary(F.PowBackward1, base, self)
        _wrap(base)
        return F.PowBackward2.apply(self, base=base)

    def __neg__(self):
        return F.NegBackward0.apply(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return self.abs()

    def __matmul__(self, other):
        return self.matmul(other)

    def __rmatmul__(self, other):
        return _wrap(other).matmul(self)

    def add(self, other, alpha=1):
        return _binary(F.AddBackward0, self, other, alpha=alpha)

    def sub(self, other, alpha=1):
        return _binary(F.SubBackward0, self, other, alpha=alpha)

    def mul(self, other):
        return self * other

    def div(self, other):
        return self / other

    def pow(self, exponent):
        return self ** exponent

    def neg(self):
        return -self

    def reciprocal(self):
        return F.ReciprocalBackward0.apply(self)

    def square(self):
        return self ** 2

    multiply, subtract, divide, true_divide, negative = mul, sub, div, div, neg

    # ------------------------------------------------------------ comparisons (no grad)
    def _compare(self, other, op):
        other = _wrap(other)
        _broadcast_shape(self._data.shape, other._data.shape)
        out = Tensor._make(op(self._data, other._data))
        if events._subscribers:
            out._announce()
        return out

    def __eq__(self, other):
        return self._compare(other, np.equal)

    def __ne__(self, other):
        return self._compare(other, np.not_equal)

    def __lt__(self, other):
        return self._compare(other, np.less)

    def __le__(self, other):
        return self._compare(other, np.less_equal)

    def __gt__(self, other):
        return self._compare(other, np.greater)

    def __ge__(self, other):
        return self._compare(other, np.greater_equal)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def __invert__(self):
        if self._data.dtype.kind not in "biu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return Tensor._make(~self._data)

    def __and__(self, other):
        return self._compare(other, np.logical_and if self._data.dtype == bool else np.bitwise_and)

    def __or__(self, other):
        return self._compare(other, np.logical_or if self._data.dtype == bool else np.bitwise_or)

    def equal(self, other: "Tensor") -> bool:
        return self._data.shape == other._data.shape and bool(np.array_equal(self._data, other._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
        return bool(np.allclose(self._data, _wrap(other)._data, rtol, atol, equal_nan))

    def isnan(self):
        return Tensor._make(np.isnan(self._data))

    def argmax(self, dim=None, keepdim=False):
        return self._arg(np.argmax, "argmax", dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return self._arg(np.argmin, "argmin", dim, keepdim)

    def _arg(self, find, name: str, dim, keepdim: bool) -> "Tensor":
        """The index of the largest (smallest) element, or along ``dim``, with torch's errors."""
        d = self._data
        if d.dtype == np.bool_:
            raise RuntimeError(f"{name}(): does not support bool input")
        if dim is None:
            if not d.size:
                raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
            return Tensor._make(np.array(find(d), dtype=np.int64))
        axis = _dim(dim, self.ndim)
        if d.ndim and not d.shape[axis]:
            raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
        return Tensor._make(np.asarray(find(d, axis=axis, keepdims=keepdim) if d.ndim else 0, np.int64))

    def sign(self):
        return F.SignBackward0.apply(self)

    def round(self):
        return F.RoundBackward0.apply(self)

    def floor(self):
        return F.FloorBackward0.apply(self)

    def ceil(self):
        return F.CeilBackward0.apply(self)

    def log1p(self):
        return F.Log1PBackward0.apply(self)

    def expm1(self):
        return F.Expm1Backward0.apply(self)

    def norm(self, p="fro", dim=None, keepdim=False):
        """The vector p-norm of all elements (or along ``dim``): p = 2 (also "fro"), 1, inf, or any p > 0."""
        order = 2 if p in ("fro", None) else p
        if dim is None:
            return F.LinalgVectorNormBackward0.apply(self, ord=order, dim=None, keepdim=keepdim)
        out = F.LinalgVectorNormBackward0.apply(self, ord=order, dim=self._dims(dim), keepdim=keepdim)
        return shown(out, dim=_dim_tuple(dim))

    def prod(self, dim=None, keepdim=False):
        if dim is None:
            return F.ProdBackward0.apply(self)
        (d,) = self._dims(dim) or (None,)
        return shown(F.ProdBackward1.apply(self, dim=d, keepdim=keepdim), dim=dim)

    def cumsum(self, dim):
        d = _dim(dim, self.ndim)
        return shown(F.CumsumBackward0.apply(self, dim=d if self.ndim else None), dim=dim)

    def masked_fill(self, mask, value):
        """``value`` where ``mask`` is True, the tensor's own values elsewhere."""
        if isinstance(value, Tensor):
            value = value.item()
        mask = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
        _broadcast_shape(self._data.shape, mask.shape)
        return F.MaskedFillBackward0.apply(self, mask=mask, value=value)

    def flip(self, *args, dims=None):
        """The entries in reverse order along each of ``dims``: ``x.flip(0)``, ``x.flip(0, 1)``, ``x.flip([0, 1])``."""
        dims = _int_args(args, dims, "flip", "dims")
        return shown(F.FlipBackward0.apply(self, dims=self._dims(dims) if dims else ()), dims=tuple(dims))

    def repeat(self, *args, repeats=None):
        """The tensor tiled ``repeats[i]`` times along dim i; extra leading repeats add new leading dims."""
        repeats = _int_args(args, repeats, "repeat", "repeats")
        if len(repeats) < self.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                               "tensor")
        padded = (1,) * (len(repeats) - self.ndim) + self._data.shape
        shape = [n * r for n, r in zip(padded, repeats)]
        for n in shape:
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {shape}")
        return F.RepeatBackward0.apply(self, repeats=repeats)

    def gather(self, dim, index=None, *, sparse_grad=False):
        """``out[i][j] = self[i][index[i][j]]`` for dim = 1: along ``dim``, the entry that ``index`` names."""
        if index is None:
            raise TypeError('gather() missing 1 required positional arguments: "index"')
        if not isinstance(dim, int):
            raise TypeError(f"gather(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
        if not isinstance(index, Tensor):
            raise TypeError(f"gather(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
        if sparse_grad:
            raise NotImplementedError("autograd_tutor has no sparse tensors: call gather with sparse_grad=False")
        d, i = _dim(dim, self.ndim), index._data
        if i.dtype not in (np.int64, np.int32):
            raise RuntimeError("gather(): Expected dtype int32/int64 for index")
        if max(i.ndim, 1) != max(self.ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
        for k in range(min(i.ndim, self.ndim)):
            if k != d and i.shape[k] > self.shape[k]:
                raise RuntimeError(f"Size does not match at dimension {k} expected index {list(index.shape)} to be "
                                   f"no larger than self {list(self.shape)} apart from dimension {d}")
        n = self.shape[d] if self.ndim else 1
        bad = i[(i < 0) | (i >= n)]
        if bad.size:
            raise RuntimeError(f"index {bad[0]} is out of bounds for dimension {d} with size {n}")
        return shown(F.GatherBackward0.apply(self, dim=d, index=index), dim=dim)

    def amax(self, dim=(), keepdim=False):
        return self._amax(F.AmaxBackward0, "amax", dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return self._amax(F.AminBackward0, "amin", dim, keepdim)

    def _amax(self, fn, name: str, dim, keepdim: bool):
        """amax/amin: over ``dim`` (every dim when it is empty or None), with torch's errors for empty tensors."""
        dims = () if dim is None or (not isinstance(dim, int) and not len(dim)) else self._dims(dim)
        if not dims and not self._data.size:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                               "the reduction dim with the 'dim' argument.")
        for d, given in zip(dims, (dim,) if isinstance(dim, int) else dim or ()):
            if not self._data.shape[d]:
                raise IndexError(f"{name}(): Expected reduction dim {given} to have non-zero size.")
        return shown(fn.apply(self, dim=dims, keepdim=keepdim), dim=() if dim is None else _dim_tuple(dim))

    def logsumexp(self, dim=None, keepdim=False):
        """log(sum(exp(x))) along ``dim``, without overflow: the smooth maximum behind log_softmax."""
        if dim is None:
            raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
        dims = () if not isinstance(dim, int) and not len(dim) else self._dims(dim)
        if not dims and self.ndim and not keepdim:  # torch adds the max, kept as [1, 1], into a 0-dim sum
            raise RuntimeError(f"output with shape [] doesn't match the broadcast shape {[1] * self.ndim}")
        return shown(F.LogsumexpBackward0.apply(self, dim=dims, keepdim=keepdim), dim=_dim_tuple(dim))

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return self._spread_stat(F.VarBackward0, dim, unbiased, keepdim, correction)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return self._spread_stat(F.StdBackward0, dim, unbiased, keepdim, correction)

    def _spread_stat(self, fn, dim, unbiased, keepdim, correction):
        """var/std: ``x.var(1)``, ``x.var(unbiased=False)``, ``x.var(dim=0, correction=0)`` as torch reads them."""
        if isinstance(dim, bool):  # the old x.var(False) means unbiased=False
            dim, unbiased = None, dim
        if correction is None and (dim is not None or unbiased is not None):  # x.var() saves None, as torch
            correction = 0 if unbiased is False else 1
        if dim is None:
            return fn.apply(self, dim=None, correction=correction, keepdim=keepdim)
        return shown(fn.apply(self, dim=self._dims(dim), correction=correction, keepdim=keepdim), dim=_dim_tuple(dim))

    # ------------------------------------------------------------ elementwise math
    def exp(self):
        return F.ExpBackward0.apply(self)

    def log(self):
        return F.LogBackward0.apply(self)

    def tanh(self):
        return F.TanhBackward0.apply(self)

    def sigmoid(self):
        return F.SigmoidBackward0.apply(self)

    def relu(self):
        return F.ReluBackward0.apply(self)

    def sqrt(self):
        return F.SqrtBackward0.apply(self)

    def abs(self):
        return F.AbsBackward0.apply(self)

    def sin(self):
        return F.SinBackward0.apply(self)

    def cos(self):
        return F.CosBackward0.apply(self)

    def clamp(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        if isinstance(min, Tensor) or isinstance(max, Tensor):  # tensor bounds: they get gradients too
            lo, hi = (_wrap(0.0 if b is None else b) for b in (min, max))
            return M.ClampBackward0.apply(self, lo, hi, given=(min is not None, max is not None))
        return F.ClampBackward1.apply(self, min=min, max=max)

    clip = clamp

    def clamp_min(self, min):
        if isinstance(min, Tensor):
            return M.ClampMinBackward1.apply(self, min)
        return M.ClampMinBackward0.apply(self, min=min)

    def clamp_max(self, max):
        if isinstance(max, Tensor):
            return M.ClampMaxBackward1.apply(self, max)
        return M.ClampMaxBackward0.apply(self, max=max)

    # ------------------------------------------------------------ remainders and floor division
    def remainder(self, other):
        """``x % y`` with Python's sign rule (the divisor's sign)."""
        self._integer_zero_division(_wrap(other))
        if isinstance(other, Tensor):
            return _binary(M.RemainderBackward1, self, other)
        return M.RemainderBackward0.apply(self, other=other)

    def fmod(self, other):
        """The remainder with C's sign rule (the dividend's sign)."""
        if isinstance(other, Tensor):
            return _binary(M.FmodBackward1, self, other)
        return M.FmodBackward0.apply(self, other=other)

    def __mod__(self, other):
        return self.remainder(other)

    def __rmod__(self, other):
        return _not_differentiable("remainder", M._remainder, _wrap(other), self)

    def floor_divide(self, other):
        """``x // y``, rounded toward minus infinity; torch has no derivative for it."""
        return _not_differentiable("floor_divide", np.floor_divide, self, _wrap(other))

    def _integer_zero_division(self, other) -> None:
        if self._data.dtype.kind in "biu" and other._data.dtype.kind in "biu" and not np.all(other._data):
            raise RuntimeError("ZeroDivisionError")

    __floordiv__ = floor_divide

    def __rfloordiv__(self, other):
        return _not_differentiable("floor_divide", np.floor_divide, _wrap(other), self)

    def maximum(self, other):
        return _binary(F.MaximumBackward0, self, other)

    def minimum(self, other):
        return _binary(F.MinimumBackward0, self, other)

    def softmax(self, dim, dtype=None):
        return shown(F.SoftmaxBackward0.apply(self._softmax_input(dtype, "softmax"), dim=_dim(dim, self.ndim)), dim=dim)

    def log_softmax(self, dim, dtype=None):
        out = F.LogSoftmaxBackward0.apply(self._softmax_input(dtype, "log_softmax"), dim=_dim(dim, self.ndim))
        return shown(out, dim=dim)

    def _softmax_input(self, dtype, name: str) -> "Tensor":
        """The input converted to ``dtype`` first, as torch does; torch's error for an integer tensor."""
        if dtype is not None:
            return self.to(dtype)._softmax_input(None, name)
        if self._data.dtype.kind != "f":
            raise NotImplementedError(f'"{name}_lastdim_kernel_impl" not implemented for \'{kind_name(self._data)}\'')
        return self

    # ------------------------------------------------------------ reductions
    def sum(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim = axis if dim is None else dim
        keepdim = keepdims if keepdims is not None else keepdim
        if dim is None:
            return F.SumBackward0.apply(self)
        return shown(F.SumBackward1.apply(self, dim=self._dims(dim), keepdim=keepdim), dim=_dim_tuple(dim))

    def mean(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim = axis if dim is None else dim
        keepdim = keepdims if keepdims is not None else keepdim
        if dim is None:
            return F.MeanBackward0.apply(self)
        return shown(F.MeanBackward1.apply(self, dim=self._dims(dim), keepdim=keepdim), dim=_dim_tuple(dim))

    def _dims(self, dim) -> tuple:
        """The dims to reduce, checked: an empty list means every dim, and a 0-dim tensor has none to reduce."""
        dims = tuple(_dim(d, self.ndim) for d in ((dim,) if isinstance(dim, int) else dim))
        for i, d in enumerate(dims):
            if d in dims[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        return dims if dims and self.ndim else tuple(range(self.ndim))

    def _extreme(self, whole, along, numpy_arg, ret, dim, keepdim, other):
        if other is not None:
            return self.maximum(other) if ret is return_types.max else self.minimum(other)
        if dim is None:
            return whole.apply(self)
        d = _dim(dim, self.ndim)
        if self._data.ndim and self._data.shape[d] == 0:
            raise IndexError(f"{ret._name}(): Expected reduction dim {d} to have non-zero size.")
        idx = numpy_arg(self._data, axis=d, keepdims=keepdim).astype(np.int64) if self._data.ndim else \
            np.array(0, np.int64)
        indices = Tensor._make(idx)
        values = shown(along.apply(self, dim=d, keepdim=keepdim, indices=indices), dim=dim)
        return ret((values, indices))

    def max(self, dim=None, keepdim=False, other=None):
        if isinstance(dim, Tensor):
            return self.maximum(dim)
        return self._extreme(F.MaxBackward1, F.MaxBackward0, np.argmax, return_types.max, dim, keepdim, other)

    def min(self, dim=None, keepdim=False, other=None):
        if isinstance(dim, Tensor):
            return self.minimum(dim)
        return self._extreme(F.MinBackward1, F.MinBackward0, np.argmin, return_types.min, dim, keepdim, other)

    # ------------------------------------------------------------ matrix products
    def matmul(self, other):
        """``@``: dot (1-D·1-D), mv (2-D·1-D), mm (2-D·2-D), and for more dims torch's graph: the batch folded
        into the rows of one mm or mv where torch folds it, else the batch dims broadcast, flattened, and one bmm."""
        if type(other) is Tensor and self._data.ndim == 2 and other._data.ndim == 2:  # the common case, first
            return F.MmBackward0.apply(self, other)
        other = _wrap(other)
        a, b = self.ndim, other.ndim
        if a == 0 or b == 0:
            raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
        if a == 1 and b == 1:
            return self.dot(other)
        if a == 2 and b == 1:
            return self.mv(other)
        if a == 1 and b == 2:
            return shown(F.SqueezeBackward4.apply(self.unsqueeze(0).mm(other), dims=(0,)), dim=0)
        if a == 2 and b == 2:
            return self.mm(other)
        if _should_fold(self, other):  # (..., n, k) @ (k, m) or (k,): one mm or mv on the folded batch
            transpose = b > a
            big, small = (other.mT, self.t() if a == 2 else self) if transpose else (self, other)
            shape = big.shape[:-1]
            rows = big.reshape(int(np.prod(shape)), big.shape[-1])
            if small.ndim == 1:
                return F.UnsafeViewBackward0.apply(rows.mv(small), shape=tuple(shape))
            out = F.UnsafeViewBackward0.apply(rows.mm(small), shape=(*shape, small.shape[1]))
            return out.mT.contiguous() if transpose else out
        return _batched_matmul(self, other)

    # ------------------------------------------------------------ layers-wip: more ops (one block)
    # torch.return_types.median (``type`` here would be the Tensor method of that name, hence __class__)
    return_types.median = _ReturnType.__class__("median", (_ReturnType,), {"_name": "median"})

    def atan2(self, other):
        """The angle of the point (other, self) in (-pi, pi]: atan(self / other), in the right quadrant."""
        if not isinstance(other, Tensor):
            raise TypeError(f"atan2(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
        _broadcast_shape(self._data.shape, other._data.shape)
        return X.Atan2Backward0.apply(self, other)

    arctan2 = atan2

    def cumprod(self, dim, *, dtype=None):
        """z_j = x_1 * x_2 * ... * x_j along ``dim`` (integers and bools give int64)."""
        axis = _dim(dim, self.ndim)
        return shown(X.CumprodBackward0.apply(self, dim=axis, dtype=None if dtype is None else dtype.np), dim=dim)

    def index_select(self, dim, index):
        """The slices at ``index`` (a 1-D integer tensor) along ``dim``, in that order, repeats allowed."""
        if not isinstance(index, Tensor):
            raise TypeError(f"index_select(): argument 'index' (position 2) must be Tensor, not "
                            f"{type(index).__name__}")
        axis, i = _dim(dim, self.ndim), index._data
        if i.dtype not in (np.int64, np.int32):
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        if i.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        n = self._data.shape[axis] if self.ndim else 1
        if i.size and (i.min() < 0 or i.max() >= n):
            raise IndexError("index out of range in self")
        return shown(X.IndexSelectBackward0.apply(self, dim=axis, index=index), dim=dim)

    def masked_select(self, mask):
        """The entries where the bool ``mask`` (broadcast with self) is True, as a 1-D tensor."""
        if mask._data.dtype != np.bool_:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        shape = _broadcast_shape(mask._data.shape, self._data.shape)
        return X.MaskedSelectBackward0.apply(self, mask=mask, shape=shape)

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        """Each entry (slice along ``dim``; of the flattened tensor without ``dim``) repeated ``repeats``
        times in place: [a, b] -> [a, a, b, b]. torch records an int count as unsqueeze, expand, clone and
        view, and a tensor of counts as one index_select."""
        x = self.flatten() if dim is None else self
        axis = 0 if dim is None else _dim(dim, self.ndim)
        if isinstance(repeats, Tensor):
            r = repeats._data
            if r.dtype.kind not in "iu":
                raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{kind_name(r)}'")
            if r.ndim > 1:
                raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
            n = x.shape[axis] if x.ndim else 1
            if r.size == 1:
                r = np.full(n, r.reshape(-1)[0])
            elif r.size != n:
                raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                                   f"{r.size} and input.size({axis}) = {n}")
            if (r < 0).any():
                raise RuntimeError("repeats can not be negative")
            return x.index_select(0 if dim is None else dim, Tensor._make(np.repeat(np.arange(n), r).astype(np.int64)))
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        shape = list(x.shape)
        wide = x.unsqueeze(axis + 1)
        wide = wide.expand(*shape[:axis + 1], repeats, *shape[axis + 1:])
        shape[axis] *= repeats
        return wide.clone().view(*shape)

    def roll(self, shifts, dims=None):
        """Entries shifted cyclically by ``shifts`` along ``dims`` (those leaving one end come back at the
        other); without ``dims`` the flattened tensor is rolled."""
        shifts = (shifts,) if isinstance(shifts, numbers.Integral) else tuple(shifts)
        dims = () if dims is None else (dims,) if isinstance(dims, numbers.Integral) else tuple(dims)
        if not shifts:
            raise RuntimeError("`shifts` required")
        if len(shifts) != len(dims) and not (len(shifts) == 1 and not dims):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
        for d in dims:
            _dim(d, self.ndim)
        return X.RollBackward0.apply(self, shifts=tuple(int(s) for s in shifts), dims=tuple(int(d) for d in dims))

    def tile(self, *args, dims=None):
        """The tensor repeated ``dims[i]`` times along dim i; fewer dims than the tensor has are padded with
        leading 1s (unlike ``repeat``): ``repeat`` after that, so RepeatBackward0."""
        reps = _int_args(args, dims, "tile", "dims") if args or dims is not None else ()
        return self.repeat(*((1,) * (self.ndim - len(reps)) + reps))

    def movedim(self, source, destination):
        """Dims moved from ``source`` to ``destination`` positions, the others keeping their order: a permute."""
        src = (source,) if isinstance(source, numbers.Integral) else tuple(source)
        dst = (destination,) if isinstance(destination, numbers.Integral) else tuple(destination)
        if len(src) != len(dst):
            raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
                               f"contain the same number of dims as destination ({list(dst)} dims)")
        n = self.ndim
        src, dst = [_dim(d, n) for d in src], [_dim(d, n) for d in dst]
        for name, ds in (("source", src), ("destination", dst)):
            if len(set(ds)) != len(ds):
                raise RuntimeError(f"movedim: repeated dim in `{name}` ({ds})")
        order = [-1] * n
        for s, d in zip(src, dst):
            order[d] = s
        rest = iter(d for d in range(n) if d not in src)
        order = [next(rest) if o == -1 else o for o in order]
        return F.PermuteBackward0.apply(self, dims=tuple(order))

    moveaxis = movedim

    def median(self, dim=None, keepdim=False):
        """The lower median (the smaller middle value for an even count) of all entries, or along ``dim``
        with the index it was found at, as ``torch.return_types.median(values, indices)``."""
        d = self._data
        if d.dtype == np.bool_:
            raise NotImplementedError(f"\"{'median_cpu' if dim is None else 'median_out'}\" not implemented for 'Bool'")
        if dim is None:
            return X.MedianBackward0.apply(self)
        if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
            raise TypeError(f"median(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
        axis = _dim(dim, self.ndim)
        if d.ndim and d.shape[axis] == 0:
            raise IndexError(f"median(): Expected reduction dim {axis} to have non-zero size.")
        idx = X.median_indices(d, axis) if d.ndim else np.zeros((), np.int64)
        indices = Tensor._make(idx if keepdim or not d.ndim else idx.squeeze(axis))
        values = shown(X.MedianBackward1.apply(self, dim=axis, keepdim=keepdim, indices=indices), dim=dim)
        return return_types.median((values, indices))

    def tensor_split(self, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                     tensor_indices_or_sections=None):
        """Pieces along ``dim``: ``n`` sections of nearly equal size (the first ones one longer), or cut at
        each of ``indices``. Each piece is its own SliceBackward0 view."""
        split = next((v for v in (indices_or_sections, sections, indices, tensor_indices_or_sections)
                      if v is not None), None)
        if isinstance(split, Tensor):
            s = split._data
            if s.ndim > 1:
                raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                                   f"one-dimensional tensor, but got a tensor with {s.ndim} dims")
            if s.dtype != np.int64:
                raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                                   f"{kind_name(s)}")
            split = int(s) if s.ndim == 0 else [int(i) for i in s]
        if self.ndim == 0:
            raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
        axis = _dim(dim, self.ndim)
        n = self.shape[axis]
        if isinstance(split, numbers.Integral):
            if split <= 0:
                raise RuntimeError(f"number of sections must be larger than 0, got {split}")
            size, extra = divmod(n, split)
            cuts = [i * size + min(i, extra) for i in range(1, split)]  # the first ``extra`` pieces one longer
        else:
            if not all(isinstance(i, numbers.Integral) for i in split):
                raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                                f"({type(split).__name__}), but expected one of:\n"
                                " * (tuple of ints indices, int dim = 0)\n"
                                " * (Tensor tensor_indices_or_sections, int dim = 0)\n * (int sections, int dim = 0)\n")
            cuts = [int(i) for i in split]
        bounds = [0, *cuts]
        ends = [*cuts, None]
        return tuple(F.SliceBackward0.apply(self, dim=axis, key=slice(a, b)) for a, b in zip(bounds, ends))

    def bernoulli(self, p=None, *, generator=None):
        """1 with probability self (or ``p``, one number for every entry), else 0, in self's dtype: torch's
        draws after the same ``manual_seed``. Recorded as torch does: BernoulliBackward0 (a zero gradient)
        for probabilities from self, a node without a derivative for a given ``p``."""
        d = self._data
        gen = generator or random.default_generator
        record = grad_mode._grad_enabled[0] and self._requires_grad
        if p is None:
            if d.dtype.kind != "f":
                raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{kind_name(d)}'")
            if d.size and not ((d >= 0) & (d <= 1)).all():
                raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                                   "message be improved?  If so, please report an enhancement request to PyTorch.)")
            values = gen.bernoulli(d).astype(d.dtype)
            return F.BernoulliBackward0.apply(self, values=values) if record else Tensor._make(values)
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        values = gen.bernoulli(np.broadcast_to(float(p), d.shape)).astype(d.dtype)
        return M.NotImplementedNode.apply(self, values=values, op="bernoulli") if record else Tensor._make(values)

    def _inplace_saving_result(self, compute) -> "Tensor":
        """An in-place op whose node saves its result (sigmoid_, tanh_, sqrt_...): as in torch, the saved result
        is this tensor itself at its new version, so changing it again in place makes backward raise."""
        before = self._grad_fn
        self._inplace(compute)
        node = self._grad_fn
        saved = node._saved.get("result") if node is not before and node is not None and node._saved else None
        if type(saved).__name__ == "SavedTensor":
            saved.version, saved.saved_version, saved.data = self._vbox, self._vbox[0], self._data
        return self

    def sigmoid_(self):
        return self._inplace_saving_result(lambda s: s.sigmoid())

    def tanh_(self):
        return self._inplace_saving_result(lambda s: s.tanh())

    def sqrt_(self):
        return self._inplace_saving_result(lambda s: s.sqrt())

    def rsqrt_(self):
        return self._inplace_saving_result(lambda s: s.rsqrt())

    def reciprocal_(self):
        return self._inplace_saving_result(lambda s: s.reciprocal())

    def log_(self):
        return self._inplace(lambda s: s.log())

    def abs_(self):
        return self._inplace(lambda s: s.abs())

    def sin_(self):
        return self._inplace(lambda s: s.sin())

    def cos_(self):
        return self._inplace(lambda s: s.cos())

    def square_(self):
        return self._inplace(lambda s: s.square())

    def atan2_(self, other):
        return self._inplace(lambda s: s.atan2(other), other)

    arctan2_ = atan2_

    def bmm(self, mat2):
        """Batched matrix product, batch by batch: (b, n, k) @ (b, k, m) -> (b, n, m), one BmmBackward0."""
        mat2 = _wrap(mat2)
        if self.ndim != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if mat2.ndim != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        b, _, k = self._data.shape
        if mat2._data.shape[:2] != (b, k):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but got: "
                               f"[{mat2._data.shape[0]}, {mat2._data.shape[1]}].")
        return F.BmmBackward0.apply(self, mat2)

    def mm(self, other):
        if self.ndim != 2:
            raise RuntimeError("self must be a matrix")
        if other.ndim != 2:
            raise RuntimeError("mat2 must be a matrix")
        return F.MmBackward0.apply(self, other)

    def mv(self, vec):
        if self.ndim != 2 or vec.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, {vec.ndim}")
        return F.MvBackward0.apply(self, vec)

    def dot(self, other):
        if self.ndim != 1 or other.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {self.ndim}D and {other.ndim}D tensors")
        return F.DotBackward0.apply(self, other)

    # ------------------------------------------------------------ shapes
    def reshape(self, *shape):
        """A view with the new shape when the data allows one (ViewBackward0, or ReshapeAliasBackward0 for a
        tensor that is not contiguous), else a copy (CloneBackward0, then UnsafeViewBackward0), as in torch."""
        shape = _shape_args(shape)
        if self._data.flags.c_contiguous:
            return self.view(*shape)
        shape = self._resolve(shape)
        if _viewable(self._data, shape):
            return F.ReshapeAliasBackward0.apply(self, shape=shape)
        return F.UnsafeViewBackward0.apply(self.clone(), shape=shape)

    def view(self, *shape):
        shape = self._resolve(_shape_args(shape))
        if not self._data.flags.c_contiguous and not _viewable(self._data, shape):
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return F.ViewBackward0.apply(self, shape=shape)

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def _resolve(self, shape: tuple) -> tuple:
        """Replace one ``-1`` in a new shape and check the element count, with torch's message."""
        n = self._data.size
        if shape.count(-1) > 1:
            raise RuntimeError("only one dimension can be inferred")
        known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
        if -1 in shape:
            if known == 0 or n % known:
                raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {n}")
            shape = tuple(n // known if s == -1 else s for s in shape)
        elif known != n:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {n}")
        return shape

    def flatten(self, start_dim=0, end_dim=-1):
        if self.ndim == 0:
            return self.reshape(1)
        s, e = _dim(start_dim, self.ndim), _dim(end_dim, self.ndim)
        if s == e:
            return self
        shape = self.shape
        return self.reshape(*shape[:s], -1, *shape[e + 1:])

    @property
    def T(self):
        if self.ndim != 2:
            _warn_once(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
                "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
                "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered "
                "internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
        return self.permute(*reversed(range(self.ndim)))

    @property
    def mT(self):
        if self.ndim < 2:
            raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got {self.ndim}-D "
                               "tensor.")
        return self.transpose(-2, -1)

    def t(self):
        if self.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
        if self.ndim < 2:
            return F.TBackward0.apply(self, dim0=0, dim1=0)
        return F.TBackward0.apply(self, dim0=0, dim1=1)

    def transpose(self, dim0, dim1):
        n = self.ndim
        return shown(F.TransposeBackward0.apply(self, dim0=_dim(dim0, n), dim1=_dim(dim1, n)), dim0=dim0, dim1=dim1)

    swapaxes = transpose

    def permute(self, *dims):
        dims = _shape_args(dims)
        if len(dims) != self.ndim:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               "length of the desired ordering of dimensions i.e. input.dim() = "
                               f"{self.ndim} is not equal to len(dims) = {len(dims)}")
        axes = tuple(_dim(d, self.ndim) for d in dims)
        if len(set(axes)) != len(axes):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return shown(F.PermuteBackward0.apply(self, dims=axes), dims=tuple(dims))

    def unsqueeze(self, dim):
        return shown(F.UnsqueezeBackward0.apply(self, dim=_dim(dim, self.ndim + 1)), dim=dim)

    def squeeze(self, dim=None):
        if dim is None:
            return F.SqueezeBackward0.apply(self)
        if isinstance(dim, int):
            return shown(F.SqueezeBackward1.apply(self, dims=(_dim(dim, self.ndim),)), dim=dim)
        return shown(F.SqueezeBackward2.apply(self, dims=tuple(_dim(d, self.ndim) for d in dim)), dim=tuple(dim))

    def expand(self, *sizes):
        sizes = _shape_args(sizes)
        lead = len(sizes) - self.ndim
        if lead < 0:
            kind = LEGACY_NAMES[self._data.dtype.name]
            raise RuntimeError(f"expand(torch.{kind}{{{list(self.shape)}}}, size={list(sizes)}): the number of "
                               "sizes provided (" + str(len(sizes)) + ") must be greater or equal to the number of "
                               f"dimensions in the tensor ({self.ndim})")
        for i, s in enumerate(sizes[:lead]):
            if s == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
        shape = tuple(self.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
        for i, s in enumerate(self.shape):
            if s != 1 and s != shape[i + lead]:
                raise RuntimeError(f"The expanded size of the tensor ({shape[i + lead]}) must match the existing "
                                   f"size ({s}) at non-singleton dimension {i + lead}.  Target sizes: "
                                   f"{list(sizes)}.  Tensor sizes: {list(self.shape)}")
        return F.ExpandBackward0.apply(self, shape=shape)

    def expand_as(self, other):
        return self.expand(other.shape)

    def narrow(self, dim, start, length):
        d = _dim(dim, self.ndim)
        n = self.shape[d]
        if not -n <= start <= n:
            raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but got {start})")
        if start < 0:
            start += n
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        if start + length > n:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
        return shown(F.SliceBackward0.apply(self, dim=d, key=slice(start, start + length)), dim=dim)

    def select(self, dim, index):
        d = _dim(dim, self.ndim)
        n = self.shape[d]
        if not -n <= index < n:
            raise IndexError(f"select(): index {index} out of range for tensor of size {list(self.shape)} at "
                             f"dimension {d}")
        return shown(F.SelectBackward0.apply(self, dim=d, key=index % n), dim=dim, index=index)

    # ------------------------------------------------------------ indexing
    def __getitem__(self, key):
        single_slice = isinstance(key, slice)  # x[a:b] always records a slice, even of everything
        return _index(self, key if isinstance(key, tuple) else (key,), single_slice)

    def __setitem__(self, key, value) -> None:
        if grad_mode._grad_enabled[0] and self._requires_grad and self.grad_fn is None:
            raise RuntimeError(VIEW_OF_LEAF_INPLACE)
        key = tuple(int(k._data) if isinstance(k, Tensor) and not k._data.ndim and k._data.dtype.kind in "iu"
                    else _index_array(k) if _is_advanced(k) else k  # a 0-dim integer tensor indexes as an int
                    for k in (key if isinstance(key, tuple) else (key,)))
        for k in key:
            if isinstance(k, float):
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                                 "valid indices (got float)")
        value = _wrap(value)
        if key and all(k is Ellipsis or (isinstance(k, slice) and k == slice(None)) for k in key):
            # the whole tensor: torch writes it with fill_ (a number, a 0-dim tensor) or copy_
            value = _fitted_value(value, self._data.shape)
            self.fill_(value) if not value._data.ndim else self.copy_(value)
            return
        try:
            target = self._data[key].shape
        except IndexError as exc:  # NumPy's words for the same error
            raise IndexError(str(exc).replace("for axis", "for dimension")) from None
        value = _fitted_value(value, target)
        if grad_mode._grad_enabled[0] and (self._requires_grad or value._requires_grad):
            self._check_inplace()
            if key and all(isinstance(k, np.ndarray) or k == slice(None) for k in key) and \
                    any(isinstance(k, np.ndarray) for k in key):  # only index tensors and full slices: index_put_
                while isinstance(key[-1], slice):
                    key = key[:-1]
                saved = tuple(None if isinstance(k, slice) else _wrap(k) for k in key)
                self._become(F.IndexPutBackward0.apply(self, value, key=key, index_tensors=saved))
            else:
                self._become(F.CopySlices.apply(self, value, key=key))
        else:
            self._check_inplace()
            try:
                self._data[key] = value._data
            except IndexError as exc:  # NumPy's words for the same error
                raise IndexError(str(exc).replace("for axis", "for dimension")) from None
            self._vbox[0] += 1

    # ------------------------------------------------------------ in-place operations
    def _check_inplace(self) -> None:
        if self._inference and not grad_mode._inference[0]:
            raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
                               "a clone to get a normal tensor before doing inplace update.See "
                               "https://github.com/pytorch/rfcs/pull/17 for more details.")
        if not grad_mode._grad_enabled[0]:
            return
        if self._requires_grad and self.grad_fn is None:
            raise RuntimeError(LEAF_INPLACE)
        fn = self._grad_fn
        if fn is not None and fn._outputs:
            raise RuntimeError(f"Output {self._output_nr} of {fn.name()[:-len('Backward0')]} is a view and is "
                               "being modified inplace. This view is the output of a function that returns "
                               "multiple views. Such functions do not allow the output views to be modified "
                               "inplace. You should replace the inplace operation by an out-of-place one.")
        base = self._base
        if base is not None and base._requires_grad:
            if base.grad_fn is None:
                raise RuntimeError(VIEW_OF_LEAF_INPLACE)
            raise NotImplementedError(
                "autograd_tutor does not record in-place operations on a view of a tensor that requires grad "
                "(torch rewrites the base's graph for that). Write it out of place instead, e.g. y = y * mask.")

    def _become(self, result: "Tensor") -> "Tensor":
        """Finish an in-place op: write ``result`` into this tensor's storage and take over its graph node."""
        if result._data.shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(result.shape)}")
        if result._data.dtype != self._data.dtype and not np.can_cast(result._data.dtype, self._data.dtype,
                                                                       "same_kind"):
            raise RuntimeError(f"result type {LEGACY_NAMES[result._data.dtype.name][:-6]} can't be cast to the "
                               f"desired output type {LEGACY_NAMES[self._data.dtype.name][:-6]}")
        if not self._data.flags.writeable:  # an expanded tensor: several entries share one memory location
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                               "single memory location. Please clone() the tensor before performing the operation.")
        self._data[...] = result._data
        self._vbox[0] += 1
        if result.grad_fn is not None:
            retained = self._retains_grad
            self._grad_fn = result.grad_fn
            self._requires_grad = True
            if retained:
                self.grad_fn._retain_grad_of(self)
        return self

    def _inplace(self, compute, *others) -> "Tensor":
        """Write ``compute(before)`` into this tensor, ``before`` standing for its current value.

        When the op is recorded, ``before`` is a copy that keeps this tensor's place in the graph: the op may
        save it for backward (torch saves the original value too), and writing the result here must not count
        as modifying that saved value."""
        self._check_inplace()
        before = self
        if grad_mode._grad_enabled[0] and (self._requires_grad or any(
                isinstance(o, Tensor) and o._requires_grad for o in others)):
            before = Tensor._make(self._data.copy(), self._requires_grad, self.grad_fn)
            before._id = self._id
        return self._become(compute(before))

    def _update(self, ufunc, other):
        """``self op= other`` written straight into this tensor's storage, as an optimizer step under no_grad
        does: only when nothing is recorded or listened to and the result keeps this tensor's dtype and shape.
        None when the general path (:meth:`_inplace`) must run."""
        if events._subscribers or (grad_mode._grad_enabled[0] and (
                self._requires_grad or (type(other) is Tensor and other._requires_grad))):
            return None
        d = self._data
        b = F._promote(self, _wrap(other))[1]
        if b.dtype != d.dtype or (np.ndim(b) and np.shape(b) != d.shape) or not d.flags.writeable:
            return None
        self._check_inplace()
        if ufunc is np.divide:  # x / 0: inf or nan, silently as in torch, even where warnings are made errors
            with np.errstate(all="ignore"):
                ufunc(d, b, out=d)
        else:  # only an overflow can warn here: the filter in autograd/__init__.py silences it, without the
            ufunc(d, b, out=d)  # 1.4 us that np.errstate costs on every step of an optimizer
        self._vbox[0] += 1
        return self

    def add_(self, other, alpha=1):
        done = self._update(np.add, other) if alpha == 1 else None
        return done if done is not None else self._inplace(lambda s: s.add(other, alpha), other)

    def sub_(self, other, alpha=1):
        done = self._update(np.subtract, other) if alpha == 1 else None
        return done if done is not None else self._inplace(lambda s: s.sub(other, alpha), other)

    def mul_(self, other):
        done = self._update(np.multiply, other)
        return done if done is not None else self._inplace(lambda s: s * other, other)

    def div_(self, other):
        done = self._update(np.divide, other) if self._data.dtype.kind == "f" else None
        return done if done is not None else self._inplace(lambda s: s / other, other)

    def clamp_(self, min=None, max=None):
        return self._inplace(lambda s: s.clamp(min, max))

    def neg_(self):
        return self._inplace(lambda s: -s)

    def exp_(self):
        return self._inplace(lambda s: s.exp())

    def relu_(self):
        return self._inplace(lambda s: s.relu())

    def zero_(self):
        return self._inplace(F.ZeroBackward0.apply)

    def uniform_(self, from_=0.0, to=1.0, *, generator=None):
        """Fill with samples of U(from_, to), in place: torch's numbers after the same ``manual_seed``."""
        return self._random_(lambda gen, n, dtype: gen.uniform(n, dtype, from_, to), F.UniformBackward0,
                             "check_uniform_bounds", generator)

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        """Fill with samples of N(mean, std**2), in place: torch's numbers after the same ``manual_seed``."""
        return self._random_(lambda gen, n, dtype: gen.normal(n, dtype, mean, std), F.NormalBackward0,
                             "normal_kernel_cpu", generator)

    def random_(self, from_=None, to=None, *, generator=None):
        """Fill with random integers, in place: ``random_(from_, to)`` in ``[from_, to)``, ``random_(to)`` in
        ``[0, to)``, ``random_()`` from 0 to the largest integer the dtype holds exactly: torch's numbers."""
        self._check_inplace()
        gen, d = generator or random.default_generator, self._data
        if from_ is None and to is None:
            values, fn = gen.random(d.size, d.dtype), F.RandomBackward2
        else:
            (low, high), fn = ((0, from_ if to is None else to), F.RandomBackward1) if from_ is None or to is None \
                else ((from_, to), F.RandomBackward0)
            values = gen.integers(d.size, low, high).astype(d.dtype)
        return self._inplace(lambda s: fn.apply(s, values=values.reshape(d.shape)))

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill with 1 (probability ``p``, a number or a tensor of them) or 0, in place: torch's draws."""
        self._check_inplace()
        probs, fn = (p._data, F.BernoulliBackward1) if isinstance(p, Tensor) else (float(p), F.BernoulliBackward2)
        probs = np.broadcast_to(probs, self._data.shape)
        values = (generator or random.default_generator).bernoulli(probs).astype(self._data.dtype)
        return self._inplace(lambda s: fn.apply(s, values=values))

    def _random_(self, draw, fn, kernel: str, generator):
        d = self._data
        if d.dtype.kind != "f":
            raise NotImplementedError(f'"{kernel}" not implemented for \'{kind_name(d)}\'')
        self._check_inplace()
        values = draw(generator or random.default_generator, d.size, d.dtype).reshape(d.shape)
        return self._inplace(lambda s: fn.apply(s, values=values))

    def fill_(self, value):
        if isinstance(value, Tensor):
            if value.ndim:
                raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} "
                                   "dimensions.")
            return self._inplace(lambda s: F.FillBackward3.apply(s, value), value)
        return self._inplace(lambda s: F.FillBackward2.apply(s, value=value))

    def copy_(self, src):
        src = _wrap(src)
        if _broadcast_shape(self._data.shape, src._data.shape) != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(_broadcast_shape(self._data.shape, src._data.shape))}")
        return self._inplace(lambda s: F.CopyBackwards.apply(s, src), src)

    __iadd__, __isub__, __imul__, __itruediv__ = add_, sub_, mul_, div_


def _rebuild(cls, root: np.ndarray, offset: int, shape: tuple, strides: tuple, dtype, requires_grad: bool):
    """A pickled tensor (or Parameter) again: its data viewed at ``offset`` bytes into the unpickled ``root``."""
    return cls._make(np.ndarray(shape, dtype, root, offset, strides), requires_grad)


def _is_advanced(k) -> bool:
    return isinstance(k, (list, np.ndarray)) or (isinstance(k, Tensor) and k._data.ndim > 0) or \
        (isinstance(k, Tensor) and k._data.dtype == bool)


def _is_bool_scalar(k) -> bool:
    """A Python bool or a 0-dim bool tensor, which adds a dim when used as an index."""
    return isinstance(k, (bool, np.bool_)) or (isinstance(k, Tensor) and k._data.dtype == bool and not k._data.ndim)


def _index_array(k) -> np.ndarray:
    if isinstance(k, Tensor):
        if k._data.dtype.kind == "f":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return k._data
    arr = np.asarray(k)
    return arr.astype(np.int64) if arr.dtype.kind == "f" else arr  # x[[1.7]] is x[[1]], as in torch


def _refuse_0_dim_index(key: tuple) -> None:
    """torch's IndexError for indexing a 0-dim tensor with something that needs a dimension."""
    only = key[0] if len(key) == 1 else None
    if isinstance(only, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(only, numbers.Integral) and only != 0:
        raise IndexError(f"index {only} is out of bounds for dimension 0 with size 0")
    if isinstance(only, numbers.Integral):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                         "C++ to convert a 0-dim tensor to a number")
    raise IndexError("too many indices for tensor of dimension 0")


def _index(t: Tensor, key: tuple, single_slice: bool = False) -> Tensor:
    """``t[key]`` recorded as torch records it, in two steps.

    1. Ints, slices, None and ``...``: one view node each (Select, Slice, Unsqueeze); ``True`` and ``False`` an
       Unsqueeze too, then index it in step 2 with [0] or []. Inside a tuple a slice of
       everything (``x[:, 1]``) records nothing; a key that records nothing at all (``x[...]``, ``x[:, :]``) is
       an alias, while a lone slice (``x[:]``) is always a SliceBackward0.
    2. Lists, index tensors and masks, all together: one IndexBackward0 on the result of step 1, which saves
       them as ``_saved_indices`` (None for each dimension they leave alone).
    """
    flags = [_is_bool_scalar(k) for k in key]
    if t.ndim == 0 and any(k is not None and k is not Ellipsis and not f for k, f in zip(key, flags)):
        _refuse_0_dim_index(key)
    arrays = {i: _index_array(k) for i, k in enumerate(key) if _is_advanced(k) and not flags[i]}
    used = sum(a.ndim if a.dtype == bool else 1 for a in arrays.values()) + \
        sum(1 for i, k in enumerate(key) if i not in arrays and k is not None and k is not Ellipsis and not flags[i])
    if used > t.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t.ndim}")
    out, dim, advanced, covered = t, 0, [], 0  # covered: the dims of ``out`` that ``advanced`` accounts for
    for i, k in enumerate(key):
        if flags[i]:  # x[True]: a new dim of size 1 there, indexed by [0] (by [] for False: size 0), as torch does
            out = out.unsqueeze(dim)
            advanced += [slice(None)] * (dim - covered) + [np.array([0] if k else [], np.int64)]
            dim = covered = dim + 1
        elif i in arrays:
            arr = arrays[i]
            advanced += [slice(None)] * (dim - covered) + [arr]
            if arr.dtype == bool:
                for j, n in enumerate(arr.shape):
                    if n != out.shape[dim + j]:
                        raise IndexError(f"The shape of the mask {list(arr.shape)} at index {j} does not match the "
                                         f"shape of the indexed tensor {list(out.shape)} at index {dim + j}")
            dim = covered = dim + (arr.ndim if arr.dtype == bool else 1)
        elif k is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif k is Ellipsis:
            dim += t.ndim - used
        elif isinstance(k, slice):
            size = out.shape[dim]
            start, stop, step = k.indices(size)
            if step <= 0:
                raise ValueError("step must be greater than zero")
            # torch skips a slice that keeps the whole dim, judged by its written start (x[-3:] is a slice)
            if single_slice or not (k.start in (None, 0) and step == 1 and stop == size):
                out = shown(F.SliceBackward0.apply(out, dim=dim, key=slice(start, max(start, stop), step)),
                            start=k.start or 0, end=2 ** 63 - 1 if k.stop is None else k.stop, step=step)
            dim += 1
        elif isinstance(k, (numbers.Integral, Tensor)):
            index = int(k)
            size = out.shape[dim]
            if not -size <= index < size:  # torch names the index's position in the key as its dimension
                raise IndexError(f"index {index} is out of bounds for dimension {i} with size {size}")
            out = shown(F.SelectBackward0.apply(out, dim=dim, key=index % size), index=index)
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             f"valid indices (got {type(k).__name__})")
    if advanced:
        return _advanced_index(out, advanced)
    if out is t:  # x[...] is a view too
        out = F.AliasBackward0.apply(t)
    return out


def _advanced_index(t: Tensor, key: list) -> Tensor:
    """One IndexBackward0 for the index arrays in ``key`` (full slices elsewhere), with torch's errors."""
    key = tuple(key)
    while key and isinstance(key[-1], slice):
        key = key[:-1]
    try:
        np.broadcast_shapes(*(a.shape for a in key if isinstance(a, np.ndarray) and a.dtype != bool))
        t._data[key]
    except ValueError:
        shapes = ", ".join(str(list(a.shape)) for a in key if isinstance(a, np.ndarray))
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}") \
            from None
    except IndexError as exc:
        raise IndexError(str(exc).replace(" axis ", " dimension ")) from None
    saved = tuple(None if isinstance(a, slice) else _wrap(a) for a in key)
    return F.IndexBackward0.apply(t, key=key, index_tensors=saved)


# scatter, index_add, index_fill, masked_scatter, cummax, kthvalue, nansum, unflatten ... (index_methods.py) and
# addcmul, addcdiv, lerp (blend_functions.py), unique (set_functions.py), multinomial (sample_functions.py):
# written beside their nodes (they need Tensor), attached here
from . import blend_functions, index_methods, sample_functions, set_functions  # noqa: E402

for _module in (index_methods, blend_functions, set_functions, sample_functions):
    for _name in _module.__all__:
        setattr(Tensor, _name, getattr(_module, _name))
