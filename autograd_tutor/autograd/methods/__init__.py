"""The methods of ``Tensor``, one module per family of operations, attached to the class here.

``tensor.py`` holds what a tensor *is* (its array, ``requires_grad``, ``grad_fn``, ``grad``, printing); each
module here holds what it *does* in one family, as short methods that check their arguments the way torch
does and call the operation's ``apply`` (``ops/<family>.py``). They are attached rather than inherited because
the operations need ``Tensor`` to exist first: ``tensor`` <- ``function`` <- ``ops`` <- ``methods``, no cycle.

>>> import autograd_tutor as torch
>>> torch.Tensor.sum.__qualname__, torch.Tensor.sum.__module__
('Tensor.sum', 'autograd_tutor.autograd.methods.reductions')
"""
import inspect

from ..arguments import numpy_names
from ..tensor import Tensor
from . import (arithmetic, comparison, conversion, elementwise, indexing, inplace, linalg, reductions, sampling,
               shape, sorting)

FAMILIES = (arithmetic, comparison, elementwise, reductions, sorting, linalg, shape, indexing, inplace, sampling,
            conversion)
#: methods with a ``dim`` that torch writes in Python, where its argument parser's ``axis=`` does not reach
WITHOUT_NUMPY_NAMES = {"norm", "split", "unique", "unique_consecutive", "unflatten"}
CLASS_ATTRIBUTES = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__firstlineno__",
                    "__static_attributes__"}


def _attach(name: str, value, family: str) -> None:
    """``setattr(Tensor, name, value)``, the function (or a property's getter) named ``Tensor.<name>`` as it would
    be had it been written in the class; a public method with a ``dim`` also takes NumPy's ``axis=`` for it."""
    for fn in (value.fget, value.fset) if isinstance(value, property) else (getattr(value, "__func__", value),):
        if getattr(fn, "__qualname__", "").startswith(family + "."):
            fn.__qualname__ = "Tensor" + fn.__qualname__[len(family):]
    if inspect.isfunction(value) and not name.startswith("_") and name not in WITHOUT_NUMPY_NAMES:
        value = numpy_names(value)
    setattr(Tensor, name, value)


for _module in FAMILIES:
    _class = next(v for k, v in vars(_module).items() if k.endswith("Methods") and isinstance(v, type))
    for _name, _value in vars(_class).items():
        if _name not in CLASS_ATTRIBUTES and not (_name == "__hash__" and _value is None):
            _attach(_name, _value, _class.__name__)
    for _name in _module.__all__:
        _value = getattr(_module, _name)
        setattr(Tensor, _name, _value if _name in WITHOUT_NUMPY_NAMES else numpy_names(_value))
Tensor.size = numpy_names(Tensor.size)  # ``t.size(axis=0)``, as torch's parser reads it
