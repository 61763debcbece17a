"""What torch's argument parser adds to every built-in function: NumPy's names for arguments, and ``out=``.

**NumPy's names.** ``x.sum(axis=0)`` is ``x.sum(dim=0)`` and ``keepdims=True`` is ``keepdim=True``; at the torch
level ``x`` / ``a`` / ``x1`` name ``input`` and ``x2`` names ``other`` (``torch.add(x1=a, x2=b)``). Functions that
torch writes in Python (``Tensor.norm``, ``split``, ``F.softmax``) do not take them, in torch or here.

**out=.** ``torch.add(a, b, out=c)`` writes the result into ``c`` (and returns ``c``): cast to ``c``'s dtype when
torch allows it (not a float into an integer tensor), ``c`` resized with torch's deprecation warning when its
shape differs and it holds elements. No gradient flows through ``out=``: torch refuses it while an argument
requires grad (outside ``no_grad``). A function with two results (``max(dim)``, ``sort``, ``topk``, ``kthvalue``,
``median(dim)``, ``mode``, ``cummax``, ``aminmax``...) takes a pair, ``out=(values, indices)``, each of exactly the
dtype its result has, and returns them as ``torch.return_types.<name>_out``.

>>> import autograd_tutor as torch
>>> t = torch.arange(6.).reshape(2, 3)
>>> t.sum(axis=0), t.mean(axis=1, keepdims=True).shape
(tensor([3., 5., 7.]), torch.Size([2, 1]))
>>> c = torch.empty(2, 3)
>>> torch.mul(t, 2, out=c) is c, c
(True, tensor([[ 0.,  2.,  4.],
        [ 6.,  8., 10.]]))
>>> values, indices = torch.empty(3), torch.empty(3, dtype=torch.long)
>>> torch.max(t, 0, out=(values, indices)).indices is indices, indices
(True, tensor([1, 1, 1]))
"""
from __future__ import annotations

import functools
import inspect
import pathlib
import sys
import warnings

import numpy as np

from . import grad_mode
from .dtypes import CPP_NAMES, kind_name, LEGACY_NAMES
from .tensor import return_types, Tensor
from .tracebacks import ENGINE_FRAME

__all__ = ["numpy_names", "takes_out", "takes_outs", "factory_out", "TAKES_OUTS"]

#: NumPy's name -> torch's, as torch's argument parser reads them (``numpy_compatibility_arg_names``)
ALIASES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input", "x1": "input", "x2": "other"}

RESIZE_WARNING = ("An output with one or more elements was resized since it had shape {old}, which does not match "
                  "the required output shape {new}. This behavior is deprecated, and in a future PyTorch release "
                  "outputs will not be resized unless they have zero elements. You can explicitly reuse an out "
                  "tensor t by resizing it, inplace, to zero elements with t.resize_(0). (Triggered internally at "
                  "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")
ARANGE_RESIZE_WARNING = ("The number of elements in the out tensor of shape {old} is {had} which does not match the "
                         "computed number of elements {new}. Note that this may occur as a result of rounding error. "
                         "The out tensor will be resized to a tensor of shape ({new},). (Triggered internally at "
                         "/__w/pytorch/pytorch/aten/src/ATen/native/RangeFactories.cpp:199.)")
NO_AUTOGRAD = ("{name}(): functions with out=... arguments don't support automatic differentiation, but one of the "
               "arguments requires grad.")


def numpy_names(fn):
    """``fn`` also called with NumPy's names for its parameters (``axis`` for ``dim``...): each alias of a parameter
    ``fn`` has is renamed; given together with the parameter itself, the alias is refused as torch refuses it."""
    signature = inspect.signature(fn).parameters
    parameters = list(signature)
    aliases = {alias: name for alias, name in ALIASES.items() if name in parameters and alias not in parameters}
    if not aliases:
        return fn
    positional = [name for name, p in signature.items() if p.kind is p.POSITIONAL_OR_KEYWORD]
    # where each renamed parameter would be among the positional arguments (never, if only by keyword)
    position = {name: positional.index(name) if name in positional else float("inf") for name in aliases.values()}

    @functools.wraps(fn)
    def aliased(*args, **kwargs):
        __tracebackhide__ = ENGINE_FRAME
        if kwargs:
            for alias in [k for k in kwargs if k in aliases]:
                name = aliases[alias]
                if name in kwargs or len(args) > position[name]:
                    raise TypeError(f"{fn.__name__}() got an unexpected keyword argument '{alias}'")
                kwargs[name] = kwargs.pop(alias)
        return fn(*args, **kwargs)
    return aliased


def _tensors(args):
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (t for t in a if isinstance(t, Tensor))


#: functions whose results carry no gradient: their ``out=`` takes inputs that require grad, as in torch
NOT_DIFFERENTIABLE = frozenset({
    "eq", "ne", "lt", "le", "gt", "ge", "not_equal", "less", "less_equal", "greater", "greater_equal", "argmax",
    "argmin", "any", "all", "nonzero", "count_nonzero", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
    "logical_and", "logical_or", "logical_xor", "logical_not"})


def _check_out(name: str, out, args) -> None:
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if name in NOT_DIFFERENTIABLE:
        return
    if grad_mode._grad_enabled[0] and any(t._requires_grad for t in (out, *_tensors(args))):
        raise RuntimeError(NO_AUTOGRAD.format(name=name))


def _outside() -> int:
    """The ``stacklevel`` of a warning from the caller of this function's caller that points at the first frame
    outside the package (the learner's line, whatever wrappers lie between)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


PACKAGE = str(pathlib.Path(__file__).parent.parent)


def _resize(out: Tensor, shape: tuple, warn: bool, kept: int = None) -> None:
    """Give ``out`` new memory of ``shape`` if it has another, with torch's warning when it held elements
    (``kept``: a dim that torch's message shows as a 1 in both shapes, see :func:`_kept_dim`)."""
    if shape != out._data.shape:
        if warn and out._data.size:
            old, new = list(out._data.shape), list(shape)
            if kept is not None:
                old.insert(kept, 1)
                new.insert(kept, 1)
            warnings.warn(RESIZE_WARNING.format(old=old, new=new), UserWarning, stacklevel=_outside())
        out._data = np.empty(shape, out._data.dtype)


def _write(out: Tensor, result: np.ndarray, warn: bool) -> Tensor:
    """``result`` into ``out``'s memory (new memory when the shape differs); its version counts the write."""
    _resize(out, result.shape, warn)
    out._data[...] = result
    out._vbox[0] += 1
    return out


def takes_out(fn, name: str | None = None, same_dtype: bool = False):
    """``fn`` with torch's ``out=`` keyword (see the module docstring). ``same_dtype``: ``out`` must have the
    result's dtype exactly (the matrix products), not only one it can be cast to."""
    name = name or fn.__name__

    @functools.wraps(fn)
    def with_out(*args, out=None, **kwargs):
        __tracebackhide__ = ENGINE_FRAME
        if out is None:
            return fn(*args, **kwargs)
        _check_out(name, out, args)
        result = fn(*args, **kwargs)._data
        have, want = out._data.dtype, result.dtype
        if same_dtype and have != want:
            raise RuntimeError(f"Expected out tensor to have dtype {CPP_NAMES[want.name]}, but got "
                               f"{CPP_NAMES[have.name]} instead")
        if want.kind == "f" and have.kind in "iu" or want.kind != "b" and have.kind == "b":  # torch's canCast
            if name in ("cat", "stack"):  # stack is cat of unsqueezed tensors in torch
                raise TypeError(f"torch.cat(): input types can't be cast to the desired output type {kind_name(have)}")
            raise RuntimeError(f"result type {kind_name(want)} can't be cast to the desired output type "
                               f"{kind_name(have)}")
        return _write(out, result, warn=True)
    return with_out


def _exact(k: int, want, have) -> str:
    return f"Expected out tensor to have dtype {CPP_NAMES[want.name]}, but got {CPP_NAMES[have.name]} instead"


def _kthvalue(k: int, want, have) -> str:
    return "output indices must be of scalar type Long" if k else "output values must be of same type as input"


def _median(k: int, want, have) -> str:
    if k:
        return (f"Expected tensor for argument #1 'indices' to have scalar type Long; but got "
                f"torch.{LEGACY_NAMES[have.name]} instead (while checking arguments for median)")
    return (f"Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type "
            f"torch.{LEGACY_NAMES[have.name]} does not equal torch.{LEGACY_NAMES[want.name]} (while checking "
            "arguments for median)")


def _mode(k: int, want, have) -> str:
    return f"expected scalar type '{kind_name(want)}' but got '{kind_name(have)}' for {'indices' if k else 'values'} output"


def _running(k: int, want, have) -> str:
    return f"expected scalar_type {kind_name(want)} but found {kind_name(have)}"


#: The functions with two results that take ``out=(a, b)``: where torch's parser counts ``out`` among the
#: arguments (its errors name that position), and how its kernel words an ``out`` of the wrong dtype.
TAKES_OUTS = {"max": (3, _exact), "min": (3, _exact), "sort": (3, _exact), "topk": (5, _exact),
              "aminmax": (3, _exact), "kthvalue": (4, _kthvalue), "median": (3, _median), "nanmedian": (3, _median), "mode": (3, _mode),
              "cummax": (2, _running), "cummin": (2, _running)}


def takes_outs(fn, name: str):
    """``fn``, a function with two results, with torch's ``out=(values, indices)``: checked as torch's parser
    checks it (a tuple of two tensors), refused while an argument requires grad, each result written into its
    ``out`` (which must have its dtype exactly; resized with the warning), the pair returned as
    ``torch.return_types.<name>_out``. ``max`` and ``min`` over all entries, or of two tensors, take one ``out``."""
    position, wrong_dtype = TAKES_OUTS[name]
    single = takes_out(fn, name) if name in ("max", "min") else None
    result_type = getattr(return_types, f"{name}_out")

    @functools.wraps(fn)
    def with_outs(*args, out=None, **kwargs):
        __tracebackhide__ = ENGINE_FRAME
        if out is None:
            return fn(*args, **kwargs)
        dim = args[1] if len(args) > 1 else kwargs.get("dim", kwargs.get("other"))
        if single is not None and (dim is None or isinstance(dim, Tensor)):
            return _extreme_out(fn, name, out, args, kwargs) if dim is None else single(*args, out=out, **kwargs)
        if not isinstance(out, (tuple, list)):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
        if len(out) != 2:
            raise TypeError(f"expected tuple of 2 elements but got {len(out)}")
        for k, t in enumerate(out):
            if not isinstance(t, Tensor):
                raise TypeError(f"expected Tensor as element {k} in argument {position}, but got {type(t).__name__}")
        if grad_mode._grad_enabled[0] and any(t._requires_grad for t in (*out, *_tensors(args))):
            raise RuntimeError(NO_AUTOGRAD.format(name=name))
        results = fn(*args, **kwargs)
        for k, (t, r) in enumerate(zip(out, results)):  # each out checked and resized in turn, as torch does
            if t._data.dtype != r._data.dtype:
                raise RuntimeError(wrong_dtype(k, r._data.dtype, t._data.dtype))
            _resize(t, r._data.shape, True, _kept_dim(name, t, r, args, kwargs))
        for t, r in zip(out, results):
            _write(t, r._data, warn=False)
        return result_type(tuple(out))
    return with_outs


def _kept_dim(name: str, out: Tensor, result: Tensor, args, kwargs):
    """kthvalue and mode resize their outs with the reduced dim put back (size 1, when not ``keepdim``), so
    torch's warning shows both shapes with that 1: the dim, or None (the other functions, or nothing to show)."""
    if name not in ("kthvalue", "mode") or not out._data.ndim or not out._data.size:
        return None
    at = 2 if name == "kthvalue" else 1  # where dim stands: kthvalue(input, k, dim, keepdim), mode(input, dim, keepdim)
    dim = args[at] if len(args) > at else kwargs.get("dim", -1)
    keepdim = args[at + 1] if len(args) > at + 1 else kwargs.get("keepdim", False)
    if keepdim:
        return None
    return dim % (result._data.ndim + 1)


def _extreme_out(fn, name: str, out, args, kwargs):
    """``torch.max(x, out=t)``: the largest entry into ``t``, cast as torch allows it."""
    _check_out(name, out, args)
    result = fn(*args, **kwargs)._data
    have, want = out._data.dtype, result.dtype
    if want.kind == "f" and have.kind in "iu" or want.kind != "b" and have.kind == "b":
        raise RuntimeError("Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype())) "
                           "to be true, but got false.  (Could this error message be improved?  If so, please report "
                           "an enhancement request to PyTorch.)")
    return _write(out, result, warn=True)


def factory_out(fn):
    """A factory (``zeros``, ``rand``, ``arange``...) with ``out=``: it makes its values in ``out``'s dtype
    (a different ``dtype=`` is refused) and resizes ``out`` to its shape without a warning, as torch's do (but
    ``arange``, which keeps ``out``'s shape when it has as many elements and warns when not)."""
    @functools.wraps(fn)
    def with_out(*args, out=None, **kwargs):
        __tracebackhide__ = ENGINE_FRAME
        if out is None:
            return fn(*args, **kwargs)
        _check_out(f"aten::{fn.__name__}", out, ())
        dtype = kwargs.get("dtype")
        if dtype is not None and dtype.np != out._data.dtype:
            raise RuntimeError(f"dtype {kind_name(dtype.np)} does not match dtype of out parameter "
                               f"({kind_name(out._data.dtype)})")
        kwargs["dtype"] = out.dtype
        result = fn(*args, **kwargs)._data
        if fn.__name__ == "arange":  # fills an out of as many elements in its shape, else warns in its own words
            if result.size == out._data.size:
                result = result.reshape(out._data.shape)
            else:
                warnings.warn(ARANGE_RESIZE_WARNING.format(old=list(out._data.shape), had=out._data.size,
                                                           new=result.size), UserWarning, stacklevel=2)
        return _write(out, result, warn=False)
    return with_out
