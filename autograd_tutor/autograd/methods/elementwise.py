"""Tensor methods of elementwise math: ``exp``, ``log``, ``tanh``, ``sqrt``, trigonometry, rounding, ``clamp``,
``maximum``, ``softmax``.
"""
from __future__ import annotations

from ..dtypes import kind_name
from ..function import shown
from ..ops.activations import HardshrinkBackward0, LogSoftmaxBackward0, SoftmaxBackward0
from ..ops.elementwise import (AbsBackward0, AcosBackward0, AsinBackward0, Atan2Backward0, AtanBackward0,
                               HypotBackward0, Logaddexp2Backward0, LogaddexpBackward0,
                               CeilBackward0, ClampBackward0, ClampBackward1, ClampMaxBackward0, ClampMaxBackward1,
                               ClampMinBackward0, ClampMinBackward1, CosBackward0, CoshBackward0, ErfBackward0,
                               ExpBackward0, Expm1Backward0, FloorBackward0, FracBackward0, Log10Backward0,
                               Log1PBackward0, Log2Backward0, LogBackward0, MaximumBackward0, MinimumBackward0,
                               NanToNumBackward0,
                               ReluBackward0, RoundBackward0, RoundBackward1, RsqrtBackward0, SigmoidBackward0, SignBackward0,
                               SinBackward0, SinhBackward0, SqrtBackward0, TanBackward0, TanhBackward0, TruncBackward0)
from ..tensor import _broadcast_shape, _dim, _wrap, Tensor
from .arithmetic import _binary

__all__: list = []  # every method is in the class below


class ElementwiseMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def rsqrt(self):
        return RsqrtBackward0.apply(self)

    def log2(self):
        return Log2Backward0.apply(self)

    def log10(self):
        return Log10Backward0.apply(self)

    def tan(self):
        return TanBackward0.apply(self)

    def atan(self):
        return AtanBackward0.apply(self)

    def asin(self):
        return AsinBackward0.apply(self)

    def acos(self):
        return AcosBackward0.apply(self)

    def sinh(self):
        return SinhBackward0.apply(self)

    def cosh(self):
        return CoshBackward0.apply(self)

    def erf(self):
        return ErfBackward0.apply(self)

    def trunc(self):
        return TruncBackward0.apply(self)

    def frac(self):
        return FracBackward0.apply(self)

    arctan, arcsin, arccos, fix = atan, asin, acos, trunc

    def sign(self):
        return SignBackward0.apply(self)

    def round(self, *args, decimals=None):
        """To the nearest integer, halves to even (``RoundBackward0``); with ``decimals`` (by keyword), to that
        many places (``RoundBackward1``, for float tensors only, as in torch)."""
        if args:  # torch's parser words it so
            raise TypeError(f"round() takes from 1 to 0 positional arguments but {len(args)} were given")
        if decimals is None:
            return RoundBackward0.apply(self)
        if self._data.dtype.kind != "f":
            raise NotImplementedError(f'"round_cpu" not implemented for \'{kind_name(self._data)}\'')
        return RoundBackward1.apply(self, decimals=decimals)

    def floor(self):
        return FloorBackward0.apply(self)

    def ceil(self):
        return CeilBackward0.apply(self)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        """nan -> ``nan``, +inf -> ``posinf``, -inf -> ``neginf`` (by default the dtype's largest and smallest
        finite numbers): ``torch.tensor([float('nan'), float('inf')]).nan_to_num()`` is
        ``tensor([0.0000e+00, 3.4028e+38])``. Integer and bool tensors are copied unchanged."""
        for name, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
            if value is not None and not isinstance(value, (int, float)):
                raise TypeError(f"nan_to_num(): argument '{name}' must be float, not {type(value).__name__}")
        return NanToNumBackward0.apply(self, nan=nan, posinf=posinf, neginf=neginf)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return self._inplace(lambda s: s.nan_to_num(nan, posinf, neginf))

    def log1p(self):
        return Log1PBackward0.apply(self)

    def expm1(self):
        return Expm1Backward0.apply(self)

    def exp(self):
        return ExpBackward0.apply(self)

    def log(self):
        return LogBackward0.apply(self)

    def tanh(self):
        return TanhBackward0.apply(self)

    def sigmoid(self):
        return SigmoidBackward0.apply(self)

    def relu(self):
        return ReluBackward0.apply(self)

    def sqrt(self):
        return SqrtBackward0.apply(self)

    def absolute(self):
        """NumPy's name for :meth:`abs` (AbsBackward0)."""
        return self.abs()

    def abs(self):
        return AbsBackward0.apply(self)

    def sin(self):
        return SinBackward0.apply(self)

    def cos(self):
        return CosBackward0.apply(self)

    def clamp(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        if isinstance(min, Tensor) or isinstance(max, Tensor):  # tensor bounds: they get gradients too
            lo, hi = (_wrap(0.0 if b is None else b) for b in (min, max))
            return ClampBackward0.apply(self, lo, hi, given=(min is not None, max is not None))
        return ClampBackward1.apply(self, min=min, max=max)

    clip = clamp

    def clamp_min(self, min):
        if isinstance(min, Tensor):
            return ClampMinBackward1.apply(self, min)
        return ClampMinBackward0.apply(self, min=min)

    def clamp_max(self, max):
        if isinstance(max, Tensor):
            return ClampMaxBackward1.apply(self, max)
        return ClampMaxBackward0.apply(self, max=max)

    def maximum(self, other):
        return _binary(MaximumBackward0, self, other)

    def minimum(self, other):
        return _binary(MinimumBackward0, self, other)

    def softmax(self, dim, dtype=None):
        return shown(SoftmaxBackward0.apply(self._softmax_input(dtype, "softmax"), dim=_dim(dim, self.ndim)), dim=dim)

    def log_softmax(self, dim, dtype=None):
        out = LogSoftmaxBackward0.apply(self._softmax_input(dtype, "log_softmax"), dim=_dim(dim, self.ndim))
        return shown(out, dim=dim)

    def _softmax_input(self, dtype, name: str) -> "Tensor":
        """The input converted to ``dtype`` first, as torch does; torch's error for an integer tensor."""
        if dtype is not None:
            return self.to(dtype)._softmax_input(None, name)
        if self._data.dtype.kind != "f":
            raise NotImplementedError(f'"{name}_lastdim_kernel_impl" not implemented for \'{kind_name(self._data)}\'')
        return self

    def atan2(self, other):
        """The angle of the point (other, self) in (-pi, pi]: atan(self / other), in the right quadrant."""
        if not isinstance(other, Tensor):
            raise TypeError(f"atan2(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
        _broadcast_shape(self._data.shape, other._data.shape)
        return Atan2Backward0.apply(self, other)

    arctan2 = atan2

    def _pairwise(self, other, name: str, function) -> "Tensor":
        if not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
        _broadcast_shape(self._data.shape, other._data.shape)
        return function.apply(self, other)

    def hardshrink(self, lambd=0.5):
        """self where |self| > lambd, else 0 (``F.hardshrink``)."""
        return HardshrinkBackward0.apply(self, lambd=float(lambd) if isinstance(lambd, Tensor) else lambd)

    def hypot(self, other):
        """sqrt(self**2 + other**2), elementwise: the length of the vector (self, other)."""
        return self._pairwise(other, "hypot", HypotBackward0)

    def logaddexp(self, other):
        """log(exp(self) + exp(other)), elementwise, without overflow (log-space addition of probabilities)."""
        return self._pairwise(other, "logaddexp", LogaddexpBackward0)

    def logaddexp2(self, other):
        """log2(2**self + 2**other), elementwise, without overflow."""
        return self._pairwise(other, "logaddexp2", Logaddexp2Backward0)

