"""Making tensors: ``tensor``, ``ones``, ``zeros``, ``arange``, ``randn`` and friends.

Every tensor made here is a leaf. Floats default to float32 and integers to int64, as in torch.

>>> import autograd_tutor as torch
>>> torch.tensor([1, 2.]), torch.arange(3), torch.ones(2, 2).shape
(tensor([1., 2.]), tensor([0, 1, 2]), torch.Size([2, 2]))
"""
from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from .. import events
from ..devices import check_cpu
from . import random
from .arguments import factory_out
from .dtypes import dtype as _dtype, float32, from_numpy_dtype, kind_name
from .tensor import Tensor, graph_cut, handed_out, rebuilt_from

__all__ = ["tril_indices", "triu_indices", "tensor", "as_tensor", "from_numpy", "ones", "zeros", "empty", "full", "ones_like", "zeros_like",
           "full_like", "empty_like", "arange", "linspace", "eye", "rand", "randn", "randint", "randperm", "normal",
           "rand_like", "randn_like", "randint_like"]


def _leaf(data: np.ndarray, requires_grad: bool) -> Tensor:
    t = Tensor._make(data)
    if requires_grad:
        if data.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    if events._subscribers:
        t._announce()
    return t


def _np_dtype(dtype, default=None):
    if dtype is None:
        return default
    if not isinstance(dtype, _dtype):
        raise TypeError(f"dtype must be a torch dtype such as torch.float32, not {dtype!r}")
    return dtype.np


def _ragged(data, dim: int = 0, shape=None) -> str:
    """torch's message for the first sequence whose length differs from the first one's at its depth."""
    if shape is None:
        shape, d = [], data
        while isinstance(d, (list, tuple)) and d:
            shape.append(len(d))
            d = d[0]
    for item in data:
        if dim + 1 < len(shape) and isinstance(item, (list, tuple)):
            if len(item) != shape[dim + 1]:
                return f"expected sequence of length {shape[dim + 1]} at dim {dim + 1} (got {len(item)})"
            found = _ragged(item, dim + 1, shape)
            if found:
                return found
    return ""


def _numbers(data) -> np.ndarray:
    """An array of nested lists and numbers as NumPy reads them (Python floats as float64), or torch's error."""
    try:
        arr = np.array(data)
    except ValueError:
        arr = None
    if arr is None or arr.dtype == object:
        raise ValueError(_ragged(data) or "expected a sequence of numbers of equal length at each level (a "
                         "rectangular array)")
    return arr


def _infer(data) -> np.ndarray:
    """An array from nested lists and numbers with torch's default dtypes (float32, int64, bool)."""
    arr = _numbers(data)
    if arr.dtype.kind == "f":
        return arr.astype(np.float32)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64)
    if arr.dtype.kind == "b":
        return arr
    raise TypeError(f"Could not infer dtype of {type(data).__name__}")


def _size(size, negative: str = "") -> tuple:
    """A shape from ``(2, 3)`` or ``((2, 3),)``; ``negative`` replaces the message for a negative size."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    for s in size:
        if not isinstance(s, numbers.Integral):
            raise TypeError(f"size must be a sequence of ints, but got an element of type {type(s).__name__}")
        if s < 0:
            raise RuntimeError(negative or f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return tuple(int(s) for s in size)


def tensor(data, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (numbers, nested lists, a NumPy array)."""
    check_cpu(device)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
        arr = data._data.copy()
        if dtype is not None:
            arr = arr.astype(_np_dtype(dtype))
        out = _leaf(arr, requires_grad)
        if events._subscribers and (data._requires_grad or data._cut is True):
            graph_cut("copy" if data._requires_grad else "derived", (data,), out)
        return out
    elif isinstance(data, (np.ndarray, np.generic)):
        from_numpy_dtype(data.dtype)
        arr = np.array(data)
    else:  # an explicit dtype converts the numbers as given (0.1 as float64 stays 0.1, not float32's 0.1)
        arr = _infer(data) if dtype is None else _numbers(data)
        if dtype is not None:
            arr = arr.astype(_np_dtype(dtype))
        out = _leaf(arr, requires_grad)
        found = events._subscribers and not requires_grad and handed_out(data)
        if found:
            rebuilt_from(out, found)
        return out
    if dtype is not None:
        arr = arr.astype(_np_dtype(dtype))
    return _numbers_leaf(arr, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like :func:`tensor`, but a tensor of the right dtype or a NumPy array is used without copying."""
    check_cpu(device)
    if isinstance(data, Tensor):  # another dtype: a converted copy, in the graph (ToCopyBackward0), no warning
        return data if dtype is None or dtype.np == data._data.dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor that shares memory with a NumPy array (its dtype kept: float64 stays float64)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    from_numpy_dtype(array.dtype)
    return _numbers_leaf(array, False)


def _numbers_leaf(data: np.ndarray, requires_grad: bool) -> Tensor:
    """A leaf built from an array: while someone listens to graph cuts, it may hold the numbers of an array
    ``.numpy()`` handed out, so its uses are announced (``Tensor._cut``) for the cut log to check by value.
    (Python numbers are checked by identity instead: see :func:`~autograd_tutor.autograd.tensor.handed_out`.)"""
    t = _leaf(data, requires_grad)
    if events._subscribers and not requires_grad and events.wanted(events.GraphCut):
        t._cut = "numbers"
    return t


def _shape(name: str, sizes: tuple, size, device) -> tuple:
    """The shape given as ``ones(2, 3)``, ``ones((2, 3))`` or ``ones(size=(2, 3))``, on the CPU."""
    check_cpu(device)
    if size is not None:
        if sizes:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        sizes = (size,)
    return _size(sizes)


def _size_tuple(name: str, size, position: int) -> tuple:
    """A ``size`` argument that torch only takes as a sequence of ints: ``full((2, 3), ...)``."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"{name}(): argument 'size' (position {position}) must be tuple of ints, not "
                        f"{type(size).__name__}")
    return _size((size,))


@factory_out
def full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of shape ``size`` filled with ``fill_value`` (float32 for floats, int64 for ints)."""
    check_cpu(device)
    default = _infer(fill_value).dtype
    return _leaf(np.full(_size_tuple("full", size, 1), fill_value, _np_dtype(dtype, default)), requires_grad)


@factory_out
def ones(*sizes, size=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _leaf(np.ones(_shape("ones", sizes, size, device), _np_dtype(dtype, float32.np)), requires_grad)


@factory_out
def zeros(*sizes, size=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    try:
        shape = _shape("zeros", sizes, size, device)
    except RuntimeError as exc:
        if "negative dimension" not in str(exc):
            raise
        raise RuntimeError("zeros: Dimension size must be non-negative.") from None
    return _leaf(np.zeros(shape, _np_dtype(dtype, float32.np)), requires_grad)


@factory_out
def empty(*sizes, size=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Uninitialised memory in torch; zeros here, so that results are reproducible."""
    return _leaf(np.zeros(_shape("empty", sizes, size, device), _np_dtype(dtype, float32.np)), requires_grad)


def _like(t: Tensor, fill, dtype, device, requires_grad) -> Tensor:
    check_cpu(device)
    return _leaf(np.full(t._data.shape, fill, _np_dtype(dtype, t._data.dtype)), requires_grad)


def ones_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _like(input, 1, dtype, device, requires_grad)


def zeros_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _like(input, 0, dtype, device, requires_grad)


empty_like = zeros_like


def full_like(input: Tensor, fill_value, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _like(input, fill_value, dtype, device, requires_grad)


@factory_out
def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``arange(5)`` is 0..4 (int64); any float argument gives float32."""
    check_cpu(device)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    ints = all(isinstance(v, numbers.Integral) for v in (start, end, step))
    data = np.arange(start, end, step, dtype=np.float64)
    return _leaf(data.astype(_np_dtype(dtype, np.dtype(np.int64) if ints else float32.np)), requires_grad)


@factory_out
def linspace(start, end, steps, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``steps`` evenly spaced numbers from ``start`` to ``end``, as torch computes them: with
    ``step = (end - start) / (steps - 1)``, the first half is ``start + step * i`` and the second half
    ``end - step * (steps - 1 - i)``, each rounded once (torch's fused multiply-add), so both ends are exact.

    >>> linspace(0, 1, 5)
    tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    check_cpu(device)
    if not isinstance(steps, numbers.Integral):
        raise TypeError(f"linspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dt = _np_dtype(dtype, float32.np)
    if dt.kind == "f":
        kind, first, last = dt.type, dt.type(start), dt.type(end)
    else:  # integers: the ends converted first, the steps computed in float64 and truncated, as torch does
        kind, first, last = np.float64, np.float64(dt.type(start)), np.float64(dt.type(end))
    step = (last - first) / kind(max(steps - 1, 1))
    # a product step * i is exact in the wider type, so one rounding remains: the fused multiply-add's
    wide = np.longdouble if kind is np.float64 else np.float64
    i = np.arange(steps)
    up = wide(step) * i.astype(wide) + wide(first)
    down = wide(last) - wide(step) * (steps - 1 - i).astype(wide)
    values = np.where((i < steps // 2) | (steps == 1), up, down).astype(kind)
    return _leaf(values.astype(dt), requires_grad)


@factory_out
def eye(n, m=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    check_cpu(device)
    return _leaf(np.eye(n, m, dtype=_np_dtype(dtype, float32.np)), requires_grad)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The (row, column) indices of the lower triangle of a row x col matrix (with the diagonal ``offset``
    places up), in row order, as a (2, n) tensor: ``m[tuple(torch.tril_indices(3, 3))]`` are m's 6 entries
    on and below the diagonal.

    >>> tril_indices(3, 3)
    tensor([[0, 1, 1, 2, 2, 2],
            [0, 0, 1, 0, 1, 2]])
    """
    return _triangle_indices(np.tril_indices, "tril_indices", row, col, offset, dtype, device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The (row, column) indices of the upper triangle (with the diagonal ``offset`` places up), in row order."""
    return _triangle_indices(np.triu_indices, "triu_indices", row, col, offset, dtype, device)


def _triangle_indices(find, name: str, row: int, col: int, offset: int, dtype, device) -> Tensor:
    check_cpu(device)
    kind = np.dtype(_np_dtype(dtype, np.int64))
    if kind.kind not in "iu":
        raise NotImplementedError(f'"{name}" not implemented for \'{kind_name(kind)}\'')
    for what, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{what} must be non-negative, got{n}")
    return Tensor._make(np.array(find(row, offset, col), dtype=kind).reshape(2, -1))


def _floating(dtype, kernel: str):
    """The NumPy dtype for a random float tensor (float32 by default); torch's error for an integer one."""
    np_dtype = _np_dtype(dtype, float32.np)
    if np_dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{kind_name(np_dtype)}\'')
    return np_dtype


def _drawn(draw, size: tuple, requires_grad: bool) -> Tensor:
    """A leaf of shape ``size`` holding ``draw(n)``, the generator's next ``n`` numbers in row-major order."""
    return _leaf(draw(math.prod(size)).reshape(size), requires_grad)


@factory_out
def rand(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Uniform samples in [0, 1): the numbers torch draws after the same ``manual_seed``."""
    shape = _shape("rand", sizes, size, device)
    np_dtype = _floating(dtype, "check_uniform_bounds")
    gen = generator or random.default_generator
    return _drawn(lambda n: gen.uniform(n, np_dtype), shape, requires_grad)


@factory_out
def randn(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Standard normal samples: the numbers torch draws after the same ``manual_seed``."""
    shape = _shape("randn", sizes, size, device)
    np_dtype = _floating(dtype, "normal_kernel_cpu")
    gen = generator or random.default_generator
    return _drawn(lambda n: gen.normal(n, np_dtype), shape, requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Samples of N(mean, std**2): ``torch.normal(0., 1., (3,))``, or one per element of a mean tensor."""
    gen = generator or random.default_generator
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        m = mean._data if isinstance(mean, Tensor) else np.asarray(mean, np.float32)
        s = std._data if isinstance(std, Tensor) else np.asarray(std, np.float32)
        shape = np.broadcast_shapes(m.shape, s.shape)
        np_dtype = np.result_type(m, s)
        unit = gen.normal(math.prod(shape), np_dtype).reshape(shape)
        return _leaf((unit * s + m).astype(np_dtype), False)
    if size is None:
        raise TypeError("normal() missing required argument 'size' when mean and std are numbers")
    check_cpu(device)
    shape = _size_tuple("normal", size, 3)
    np_dtype = _floating(dtype, "normal_kernel_cpu")
    return _drawn(lambda n: gen.normal(n, np_dtype, mean, std), shape, requires_grad)


@factory_out
def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False) -> Tensor:
    """Integers in [low, high) (int64), as torch draws them: ``randint(10, (3,))``, ``randint(10, size=(3,))``
    or ``randint(-5, 5, (3,))``."""
    if size is None:
        if high is None:
            raise TypeError("randint() missing required argument 'size' (call it as randint(high, size) or "
                            "randint(low, high, size))")
        low, high, size, position = 0, low, high, 2
    else:
        position = 3
        if high is None:  # randint(10, size=(3,)): the one number is the upper end
            low, high = 0, low
    check_cpu(device)
    shape = _size_tuple("randint", size, position)
    gen = generator or random.default_generator
    np_dtype = _np_dtype(dtype, np.int64)
    return _drawn(lambda n: gen.integers(n, int(low), int(high)).astype(np_dtype), shape, requires_grad)


@factory_out
def randperm(n: int, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A random permutation of ``0 .. n-1`` (int64), torch's for the same seed."""
    check_cpu(device)
    gen = generator or random.default_generator
    return _leaf(gen.permutation(int(n)).astype(_np_dtype(dtype, np.int64)), requires_grad)


def rand_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return rand(*input.shape, dtype=dtype or input.dtype, device=device, requires_grad=requires_grad)


def randn_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return randn(*input.shape, dtype=dtype or input.dtype, device=device, requires_grad=requires_grad)


def randint_like(input: Tensor, low=0, high=None, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``randint`` with ``input``'s shape and dtype: ``randint_like(x, 10)`` draws from [0, 10)."""
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype, device=device,
                   requires_grad=requires_grad)
