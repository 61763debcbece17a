"""Tensor methods of arithmetic: the operators ``+ - * / ** % //``, ``add`` / ``sub`` / ``mul`` ..., ``addcmul``,
``lerp``, ``xlogy``, ``diff``.

>>> import autograd_tutor as torch
>>> x = torch.tensor([1., 2.])
>>> x.addcmul(torch.tensor([3., 4.]), torch.tensor([2., 2.]), value=0.5), x.lerp(torch.tensor([3., 0.]), 0.5)
(tensor([4., 6.]), tensor([2., 1.]))
"""
from __future__ import annotations

import numpy as np

from ... import events
from .. import grad_mode
from ..dtypes import CPP_NAMES, kind_name
from ..ops.arithmetic import (_check_tensors, _remainder, AddBackward0, AddcdivBackward0, AddcmulBackward0,
                              DivBackward0, DivBackward2, FmodBackward0, FmodBackward1, LerpBackward0, LerpBackward1, MulBackward0,
                              NegBackward0, NotImplementedNode, PowBackward0, PowBackward1, PowBackward2,
                              ReciprocalBackward0, RemainderBackward0, RemainderBackward1, RsubBackward1, SubBackward0,
                              XlogyBackward0)
from ..function import shown
from ..ops.numerics import _promote
from ..ops.shape import CatBackward0
from ..tensor import _broadcast_shape, _dim, _wrap, Tensor
from ..tracebacks import ENGINE_FRAME

# Tensor methods written as functions (they call one another); the class below holds the others
__all__ = ["diff", "addcmul", "addcmul_", "addcdiv", "addcdiv_", "lerp", "lerp_", "xlogy"]


def diff(self, n=1, dim=-1, prepend=None, append=None):
    """The n-th forward difference along ``dim``: z_i = x_(i+1) - x_i, n times (``prepend`` and ``append`` joined
    to the ends first), as torch builds it: ``x.narrow(dim, 1, m) - x.narrow(dim, 0, m)``; bools by xor.

    >>> import autograd_tutor as torch
    >>> torch.tensor([1, 4, 9, 16]).diff(), torch.tensor([1, 4, 9, 16]).diff(n=2)
    (tensor([3, 5, 7]), tensor([2, 2]))
    """
    if self.ndim < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for name, other in (("prepend", prepend), ("append", append)):
        if other is not None and not isinstance(other, Tensor):
            raise TypeError(f"diff(): argument '{name}' must be Tensor, not {type(other).__name__}")
        if other is not None:
            _diff_compatible(self, other, dim)
    if prepend is not None or append is not None:
        joined = [t for t in (prepend, self, append) if t is not None]
        self = shown(CatBackward0.apply(*joined, dim=_dim(dim, self.ndim)), dim=dim)
    if n == 0:  # torch: a copy into zeros_like, recorded as CopyBackwards
        return self.new_zeros(self.shape).copy_(self)
    length = self.shape[_dim(dim, self.ndim)] - 1
    out = self
    for _ in range(min(n, length + 1)):
        later, earlier = out.narrow(dim, 1, length), out.narrow(dim, 0, length)
        out = later ^ earlier if self._data.dtype == np.bool_ else later - earlier
        length -= 1
    return out


def _diff_compatible(self, other, dim) -> None:
    d = _dim(dim, self.ndim)
    if other.ndim != self.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i in range(self.ndim):
        if i != d and other.shape[i] != self.shape[i]:
            raise RuntimeError(f"diff expects the shape of tensor to prepend or append to match that of input except "
                               f"along the differencing dimension; input.size({i}) = {self.shape[i]}, but got "
                               f"tensor.size({i}) = {other.shape[i]}")


def _not_differentiable(op: str, fn, a: "Tensor", b: "Tensor") -> "Tensor":
    """``fn`` of the two operands (in their common dtype); where it would be recorded, torch records a
    NotImplemented node whose backward raises."""
    _broadcast_shape(a._data.shape, b._data.shape)
    a._integer_zero_division(b)
    with np.errstate(divide="ignore", invalid="ignore"):  # inf and nan, without NumPy's warnings, as in torch
        values = np.asarray(fn(*_promote(a, b)))
    tracked = [t for t in (a, b) if not t._wrapped]
    if grad_mode._grad_enabled[0] and any(t._requires_grad for t in tracked):
        return NotImplementedNode.apply(*tracked, values=values, op=op)
    out = Tensor._make(values)
    if events._subscribers:
        out._announce()
    return out


def _operator(fn):
    """The method behind ``a + b`` (``fn`` = AddBackward0) and friends: two tensors of one shape, the common case
    of an expression, go straight to ``fn.apply``; anything else through :func:`_binary`."""
    def method(self, other):
        __tracebackhide__ = ENGINE_FRAME
        if type(other) is Tensor and other._data.shape == self._data.shape:
            return fn.apply(self, other)
        return _binary(fn, self, other)
    return method


def _binary(fn, a, b, **params):
    __tracebackhide__ = ENGINE_FRAME
    if type(a) is not Tensor:
        a = _wrap(a)
    if type(b) is not Tensor:
        b = _wrap(b)
    sa, sb = a._data.shape, b._data.shape
    # a 0-dim operand broadcasts to anything, so does one whose shape ends the other's (a bias)
    if sa != sb and sa and sb and sa[-len(sb):] != sb and sb[-len(sa):] != sa:
        _broadcast_shape(sa, sb)
    return fn.apply(a, b, **params) if params else fn.apply(a, b)


def addcmul(self, tensor1, tensor2, *, value=1):
    """self + value * tensor1 * tensor2, all three broadcast together (Adam's moment updates use it)."""
    _check_tensors("addcmul", tensor1, tensor2)
    return AddcmulBackward0.apply(self, tensor1, tensor2, value=value)


def addcmul_(self, tensor1, tensor2, *, value=1):
    """:func:`addcmul` written into self."""
    _check_tensors("addcmul_", tensor1, tensor2)
    return self._inplace(lambda s: AddcmulBackward0.apply(s, tensor1, tensor2, value=value), tensor1, tensor2)


def addcdiv(self, tensor1, tensor2, *, value=1):
    """self + value * tensor1 / tensor2 (Adam's step: param.addcdiv_(m, v.sqrt() + eps, value=-lr))."""
    _check_tensors("addcdiv", tensor1, tensor2)
    return AddcdivBackward0.apply(self, tensor1, tensor2, value=value)


def addcdiv_(self, tensor1, tensor2, *, value=1):
    """:func:`addcdiv` written into self."""
    _check_tensors("addcdiv_", tensor1, tensor2)
    return self._inplace(lambda s: AddcdivBackward0.apply(s, tensor1, tensor2, value=value), tensor1, tensor2)


def lerp(self, end, weight):
    """The point ``weight`` of the way from self to end: self + weight * (end - self) (an exponential moving
    average is avg.lerp_(x, 1 - decay)). ``weight`` is a number (LerpBackward0) or a tensor (LerpBackward1)."""
    is_tensor = isinstance(weight, Tensor)
    others = (("end", end), ("weight", weight)) if is_tensor else (("end", end),)
    for name, t in others:
        if t._data.dtype != self._data.dtype:
            raise RuntimeError(f"expected dtype {CPP_NAMES[self._data.dtype.name]} for `{name}` but got dtype "
                               f"{CPP_NAMES[t._data.dtype.name]}")
    if self._data.dtype.kind != "f":
        kernel = "lerp_kernel_tensor" if is_tensor else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{kind_name(self._data)}'")
    if is_tensor:
        _broadcast_shape(_broadcast_shape(self._data.shape, end._data.shape), weight._data.shape)
        return LerpBackward1.apply(self, end, weight)
    _broadcast_shape(self._data.shape, end._data.shape)
    return LerpBackward0.apply(self, end, weight=weight)


def lerp_(self, end, weight):
    """:func:`lerp` written into self."""
    others = (end, weight) if isinstance(weight, Tensor) else (end,)
    return self._inplace(lambda s: lerp(s, end, weight), *others)


def xlogy(self, other):
    """``torch.xlogy(x, y)`` for two tensors: x log y, 0 where x = 0 (XlogyBackward0). torch records
    XlogyBackward1 / XlogyBackward2 for a number on either side, which autograd_tutor does not have."""
    if not isinstance(self, Tensor) or not isinstance(other, Tensor):
        raise NotImplementedError("autograd_tutor's xlogy takes two tensors; wrap the number in torch.tensor")
    _broadcast_shape(self._data.shape, other._data.shape)
    return XlogyBackward0.apply(self, other)


class ArithmeticMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    __add__ = __radd__ = _operator(AddBackward0)

    __sub__ = _operator(SubBackward0)

    def __rsub__(self, other):
        if isinstance(other, np.ndarray):
            return _binary(SubBackward0, other, self)
        _wrap(other)  # type check
        return RsubBackward1.apply(self, other=other)

    __mul__ = __rmul__ = _operator(MulBackward0)

    __truediv__ = _operator(DivBackward0)

    def __rtruediv__(self, other):
        if isinstance(other, np.ndarray):
            return _binary(DivBackward0, other, self)
        with np.errstate(invalid="ignore"):  # 0 / 0 is nan, without a warning, as in torch
            return self.reciprocal() * other

    def __pow__(self, exponent):
        if isinstance(exponent, (Tensor, np.ndarray)):
            return _binary(PowBackward1, self, exponent)
        _wrap(exponent)
        return PowBackward0.apply(self, exponent=exponent)

    def __rpow__(self, base):
        if isinstance(base, np.ndarray):
            return _binary(PowBackward1, base, self)
        _wrap(base)
        return PowBackward2.apply(self, base=base)

    def __neg__(self):
        return NegBackward0.apply(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return self.abs()

    def __matmul__(self, other):
        __tracebackhide__ = ENGINE_FRAME
        return self.matmul(other)

    def __rmatmul__(self, other):
        return _wrap(other).matmul(self)

    def add(self, other, alpha=1):
        return _binary(AddBackward0, self, other, alpha=alpha)

    def sub(self, other, alpha=1):
        return _binary(SubBackward0, self, other, alpha=alpha)

    def mul(self, other):
        return self * other

    def div(self, other, *, rounding_mode=None):
        """``self / other``; with ``rounding_mode`` "trunc" or "floor" the quotient rounded toward zero or toward
        minus infinity (one DivBackward2 node, as torch records any explicit ``rounding_mode``)."""
        if rounding_mode is None:
            return self / other
        if rounding_mode not in ("trunc", "floor"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                             f"'{rounding_mode}'")
        other = _wrap(other)
        self._integer_zero_division(other)
        _broadcast_shape(self._data.shape, other._data.shape)
        return DivBackward2.apply(self, other, rounding_mode=rounding_mode)

    def pow(self, exponent):
        return self ** exponent

    def neg(self):
        return -self

    # NumPy's names, which torch has too: the same nodes (MulBackward0, DivBackward0...)
    multiply, divide, true_divide, subtract, negative = mul, div, div, sub, neg

    def reciprocal(self):
        return ReciprocalBackward0.apply(self)

    def square(self):
        return self ** 2

    multiply, subtract, divide, true_divide, negative = mul, sub, div, div, neg

    def remainder(self, other):
        """``x % y`` with Python's sign rule (the divisor's sign)."""
        self._integer_zero_division(_wrap(other))
        if isinstance(other, Tensor):
            return _binary(RemainderBackward1, self, other)
        return RemainderBackward0.apply(self, other=other)

    def fmod(self, other):
        """The remainder with C's sign rule (the dividend's sign)."""
        if isinstance(other, Tensor):
            return _binary(FmodBackward1, self, other)
        return FmodBackward0.apply(self, other=other)

    def __mod__(self, other):
        return self.remainder(other)

    def __rmod__(self, other):
        return _not_differentiable("remainder", _remainder, _wrap(other), self)

    def floor_divide(self, other):
        """``x // y``, rounded toward minus infinity; torch has no derivative for it."""
        return _not_differentiable("floor_divide", np.floor_divide, self, _wrap(other))

    def _integer_zero_division(self, other) -> None:
        if self._data.dtype.kind in "biu" and other._data.dtype.kind in "biu" and not np.all(other._data):
            raise RuntimeError("ZeroDivisionError")

    __floordiv__ = floor_divide

    def __rfloordiv__(self, other):
        return _not_differentiable("floor_divide", np.floor_divide, _wrap(other), self)

