"""What torch's argument parser adds to every built-in function: NumPy's names for arguments, and ``out=``.

**NumPy's names.** ``x.sum(axis=0)`` is ``x.sum(dim=0)`` and ``keepdims=True`` is ``keepdim=True``; at the torch
level ``x`` / ``a`` / ``x1`` name ``input`` and ``x2`` names ``other`` (``torch.add(x1=a, x2=b)``). Functions that
torch writes in Python (``Tensor.norm``, ``split``, ``F.softmax``) do not take them, in torch or here.

**out=.** ``torch.add(a, b, out=c)`` writes the result into ``c`` (and returns ``c``): cast to ``c``'s dtype when
torch allows it (not a float into an integer tensor), ``c`` resized with torch's deprecation warning when its
shape differs and it holds elements. No gradient flows through ``out=``: torch refuses it while an argument
requires grad (outside ``no_grad``).

>>> import autograd_tutor as torch
>>> t = torch.arange(6.).reshape(2, 3)
>>> t.sum(axis=0), t.mean(axis=1, keepdims=True).shape
(tensor([3., 5., 7.]), torch.Size([2, 1]))
>>> c = torch.empty(2, 3)
>>> torch.mul(t, 2, out=c) is c, c
(True, tensor([[ 0.,  2.,  4.],
        [ 6.,  8., 10.]]))
"""
from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from . import grad_mode
from .dtypes import CPP_NAMES, kind_name
from .tensor import Tensor

__all__ = ["numpy_names", "takes_out", "factory_out"]

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


def _check_out(name: str, out, args) -> None:
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if grad_mode._grad_enabled[0] and any(t._requires_grad for t in (out, *_tensors(args))):
        raise RuntimeError(NO_AUTOGRAD.format(name=name))


def _write(out: Tensor, result: np.ndarray, warn: bool) -> Tensor:
    """``result`` into ``out``'s memory (new memory when the shape differs); its version counts the write."""
    if result.shape != out._data.shape:
        if warn and out._data.size:
            warnings.warn(RESIZE_WARNING.format(old=list(out._data.shape), new=list(result.shape)), UserWarning,
                          stacklevel=3)
        out._data = np.empty(result.shape, out._data.dtype)
    out._data[...] = result
    out._vbox[0] += 1
    return out


def takes_out(fn, name: str | None = None, same_dtype: bool = False):
    """``fn`` with torch's ``out=`` keyword (see the module docstring). ``same_dtype``: ``out`` must have the
    result's dtype exactly (the matrix products), not only one it can be cast to."""
    name = name or fn.__name__

    @functools.wraps(fn)
    def with_out(*args, out=None, **kwargs):
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


def factory_out(fn):
    """A factory (``zeros``, ``rand``, ``arange``...) with ``out=``: it makes its values in ``out``'s dtype
    (a different ``dtype=`` is refused) and resizes ``out`` to its shape without a warning, as torch's do (but
    ``arange``, which keeps ``out``'s shape when it has as many elements and warns when not)."""
    @functools.wraps(fn)
    def with_out(*args, out=None, **kwargs):
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
