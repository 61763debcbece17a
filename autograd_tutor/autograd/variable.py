"""``torch.autograd.Variable``: the wrapper of PyTorch before 0.4, kept as torch 2.13 keeps it, a no-op.

Tensors have carried ``requires_grad``, ``grad`` and ``grad_fn`` themselves since 0.4, so ``Variable(t)`` just
returns ``t.detach()`` (a new leaf sharing ``t``'s data and version counter) with ``requires_grad`` as asked,
and every tensor counts as a Variable for ``isinstance``. Old lessons that wrap their data still run.

>>> import autograd_tutor as torch
>>> from autograd_tutor.autograd import Variable
>>> x = Variable(torch.ones(2), requires_grad=True)
>>> x, isinstance(torch.zeros(1), Variable)
(tensor([1., 1.], requires_grad=True), True)
"""
import warnings

from .factories import empty
from .tensor import Tensor

__all__ = ["Variable"]

_ARGUMENTS = ("data", "requires_grad", "volatile", "_grad_fn", "name")


class _VariableMeta(type):
    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data=None, requires_grad=False, volatile=False)``: ``data.detach()`` with ``requires_grad``
    set (``volatile`` has no effect and warns, as in torch); ``Variable()`` is an empty tensor."""

    def __new__(cls, *args, **kwargs):
        if len(args) > len(_ARGUMENTS):
            raise TypeError(f"function takes at most {len(_ARGUMENTS)} arguments ({len(args)} given)")
        for key in kwargs:
            if key not in _ARGUMENTS:
                raise TypeError(f"'{key}' is an invalid keyword argument for this function")
        given = dict(zip(_ARGUMENTS, args), **kwargs)
        data, requires_grad = given.get("data"), bool(given.get("requires_grad", False))
        if given.get("volatile"):
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                          UserWarning, stacklevel=2)
        if data is None:
            data = empty(0)
        elif not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad and not data.is_floating_point():
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        return data.detach().requires_grad_(requires_grad)
