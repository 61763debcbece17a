"""Activations: ``softmax`` / ``log_softmax``, ``leaky_relu``, ``gelu``, ``silu``, ``softplus``, ``elu`` / ``selu``,
``hardtanh``, ``logsigmoid``, ``mish``.

Each forward and gradient is computed in the input's dtype, step by step as torch's CPU kernels compute it
(exp, tanh, erf... rounded once from float64), so that float32 results agree with torch's to the last bit
or nearly. Under create_graph=True their gradients are recorded as torch records them: as one operation
with a node of its own (LeakyReluBackwardBackward0...), differentiable in turn; silu's as several.

>>> import autograd_tutor as torch
>>> x = torch.tensor([-1., 3., 9.], requires_grad=True)
>>> y = torch.nn.functional.relu6(x)
>>> y, y.grad_fn._saved_min_val, y.grad_fn._saved_max_val
(tensor([0., 3., 6.], grad_fn=<HardtanhBackward0>), 0, 6)
"""
from __future__ import annotations

import math

import numpy as np

from ..dtypes import kind_name
from ..function import _NULL_CTX, Function
from ..tensor import Tensor
from ..vector_math import log_softmax_rows, softmax_rows
from .arithmetic import SubBackward0
from .backward_formulas import (AddBackward1, LogSoftmaxBackwardDataBackward0, SigmoidBackwardBackward0,
                                SoftmaxBackwardDataBackward0)
from .elementwise import erf
from .losses import _log_sigmoid, _reduce, by_kernel_path
from .numerics import (_float, _FLOAT32, _is_tensor, _needs_array_only, _one_at_a_time, _promote, _rounded,
                       _rounded_once, _sum_keep, _zeros)

__all__ = ["SoftmaxBackward0", "LogSoftmaxBackward0", "LeakyReluBackward0", "LeakyReluBackward1",
           "LeakyReluBackwardBackward0", "GeluBackward0", "GeluBackwardBackward0", "SiluBackward0", "SoftplusBackward0",
           "SoftplusBackwardBackward0", "EluBackward0", "EluBackward1", "EluBackwardBackward0", "HardtanhBackward0",
           "LogSigmoidBackward0", "MishBackward0", "HuberLossBackward0", "ThresholdBackward0", "ThresholdBackward1",
           "GluBackward0", "HardsigmoidBackward0", "HardswishBackward0", "PreluKernelBackward0",
           "SoftshrinkBackward0", "HardshrinkBackward0", "SoftshrinkBackwardBackward0", "HardshrinkBackwardBackward0"]


def _last_dim_rows(d: np.ndarray, dim: int) -> bool:
    """Whether (log_)softmax runs torch's float32 kernel over the last dim (see :mod:`.vector_math`)."""
    return d.dtype == _FLOAT32 and d.ndim >= 1 and dim == d.ndim - 1 and d.size > 0


class SoftmaxBackward0(Function):
    """z = exp(x) / sum(exp(x)) along dim;  dx = z * (g - sum(g * z)) along dim."""
    saves_result = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim)
        d = _float(x)
        if _last_dim_rows(d, dim):  # torch's vectorized kernel, to the last bit
            return softmax_rows(np.ascontiguousarray(d).reshape(-1, d.shape[-1])).reshape(d.shape)
        e = _rounded(np.exp, d - d.max(axis=dim, keepdims=True, initial=-np.inf))
        return e / e.sum(axis=dim, keepdims=True)

    @staticmethod
    def backward(ctx, g):
        z = ctx._unpack("result", _is_tensor(g))
        if _is_tensor(g):
            return SoftmaxBackwardDataBackward0.apply(g, z, dim=ctx.dim)
        return z * (g - _sum_keep(g * z, ctx.dim))


class LogSoftmaxBackward0(Function):
    """z = x - log(sum(exp(x))) along dim;  dx = g - exp(z) * sum(g) along dim."""
    saves_result = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim)
        d = _float(x)
        if _last_dim_rows(d, dim):  # torch's vectorized kernel, to the last bit
            return log_softmax_rows(np.ascontiguousarray(d).reshape(-1, d.shape[-1])).reshape(d.shape)
        shifted = d - d.max(axis=dim, keepdims=True, initial=-np.inf)  # (initial: an empty dim has no max)
        with np.errstate(divide="ignore"):  # an empty dim sums to 0, whose log is -inf: nothing is subtracted
            return shifted - _rounded(np.log, _rounded(np.exp, shifted).sum(axis=dim, keepdims=True))

    @staticmethod
    def backward(ctx, g):
        z = ctx._unpack("result", _is_tensor(g))
        if _is_tensor(g):
            return LogSoftmaxBackwardDataBackward0.apply(g, z, dim=ctx.dim)
        # z = log softmax is at most 0 (or nan): its exp cannot overflow, so no np.errstate is needed
        return g - _rounded_once(np.exp, z) * _sum_keep(g, ctx.dim)


def _floating(x, kernel: str) -> np.ndarray:
    """The data of a floating-point tensor; torch's NotImplementedError for any other dtype."""
    d = x._data
    if d.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{kind_name(d)}\'')
    return d


def _mask(t: bool, condition: np.ndarray):
    """A 0/1 factor: the boolean array itself, or as a constant tensor under create_graph."""
    return Tensor._make(np.asarray(condition)) if t else condition


def _data(a) -> np.ndarray:
    return a._data if _is_tensor(a) else a


def _leaky_relu_grad(g, x, slope):
    return np.where(x > 0, g, g * x.dtype.type(slope))


class LeakyReluBackward0(Function):
    """z = x where x > 0, else slope * x;  dz/dx = 1 where x > 0, else slope."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, negative_slope):
        d = _floating(x, "leaky_relu_cpu")
        ctx.save(self=x, negative_slope=negative_slope)
        return np.where(d > 0, d, d * d.dtype.type(negative_slope))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        if _is_tensor(g):
            return LeakyReluBackwardBackward0.apply(g, x, negative_slope=ctx.negative_slope)
        return _leaky_relu_grad(g, x, ctx.negative_slope)


INPLACE_SLOPE = ("In-place {} backward calculation is triggered with a negative slope which is not supported. This is "
                 "caused by calling in-place forward function with a negative slope, please call out-of-place version "
                 "instead.")


class LeakyReluBackward1(Function):
    """z = leaky_relu(x) written over x (``inplace=True``): the gradient reads the sign from z itself, which
    only works for a slope >= 0;  dz/dx = 1 where z > 0, else slope."""
    saves_result = True

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.save(negative_slope=negative_slope)
        return LeakyReluBackward0.forward(_NULL_CTX, x, negative_slope)

    @staticmethod
    def backward(ctx, g):
        if ctx.negative_slope < 0:
            raise RuntimeError(INPLACE_SLOPE.format("leakyReLu") + " File an issue at https://github.com/pytorch/"
                               "pytorch if you do require supporting in-place leakRelu backward calculation with "
                               "negative slope")
        z = ctx._unpack("result", _is_tensor(g))
        if _is_tensor(g):
            return LeakyReluBackwardBackward0.apply(g, z, negative_slope=ctx.negative_slope)
        return _leaky_relu_grad(g, z, ctx.negative_slope)


class LeakyReluBackwardBackward0(Function):
    """z = g where x > 0, else slope * g: the backward of leaky_relu;  dz/dg = the same map,  dz/dx = 0."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, g, x, negative_slope):
        ctx.save(self=x, negative_slope=negative_slope)
        return _leaky_relu_grad(g._data, x._data, negative_slope)

    @staticmethod
    def backward(ctx, gg):
        x = ctx._unpack("self", _is_tensor(gg))
        if _is_tensor(gg):
            return LeakyReluBackwardBackward0.apply(gg, x, negative_slope=ctx.negative_slope), _zeros(gg)
        return _leaky_relu_grad(gg, x, ctx.negative_slope), _zeros(gg)


_SQRT1_2 = math.sqrt(0.5)


_PDF = 2 / math.sqrt(math.pi) * math.sqrt(0.5) * 0.5  # 1 / sqrt(2 pi), the normal density at 0 (torch's kBeta)


_TANH_BETA = math.sqrt(2) * 2 / math.sqrt(math.pi) * 0.5  # sqrt(2 / pi)


_KAPPA = 0.044715


def _gelu(x, approximate: str):
    t = x.dtype.type
    with np.errstate(invalid="ignore"):  # -inf * 0: nan, as torch
        if approximate == "tanh":
            inner = t(_TANH_BETA) * (x + t(_KAPPA) * (x * x * x))
            return t(0.5) * x * (1 + _rounded(np.tanh, inner))
        return x * t(0.5) * (1 + erf(x * t(_SQRT1_2)))


def _gelu_grad(g, x, approximate: str):
    t = x.dtype.type
    with np.errstate(invalid="ignore"):  # inf * 0 at x = -inf: nan, as torch
        if approximate == "tanh":
            x_sq = x * x
            tanh_inner = _rounded(np.tanh, t(_TANH_BETA) * (x + t(_KAPPA) * (x_sq * x)))
            left_derivative = t(0.5) * (1 + tanh_inner)
            inner_derivative = t(_TANH_BETA) * (1 + t(3) * t(_KAPPA) * x_sq)
            right_derivative = t(0.5) * x * (1 - tanh_inner * tanh_inner) * inner_derivative
            return g * (left_derivative + right_derivative)
        cdf = t(0.5) * (1 + erf(x * t(_SQRT1_2)))
        pdf = t(_PDF) * _rounded(np.exp, x * x * t(-0.5))
        return g * (cdf + x * pdf)


def _gelu_curvature(x, approximate: str):
    """gelu''(x), with operations that arrays and tensors share (recorded under create_graph).

    Exact: phi(x) (2 - x^2), phi the normal density.  Tanh form, u = b (x + k x^3), T = tanh(u):
    (1 - T^2) (u' - x T u'^2 + x u''/2), u' = b (1 + 3 k x^2), u'' = 6 b k x."""
    if approximate == "tanh":
        tanh = (x + x * x * x * _KAPPA) * _TANH_BETA
        tanh = tanh.tanh() if _is_tensor(x) else _rounded(np.tanh, tanh)
        du = (x * x * (3 * _KAPPA) + 1) * _TANH_BETA
        return (1 - tanh * tanh) * (du - x * tanh * du * du + x * x * (3 * _KAPPA * _TANH_BETA))
    density = x * x * -0.5
    density = (density.exp() if _is_tensor(x) else _rounded(np.exp, density)) * _PDF
    return density * (2 - x * x)


class GeluBackward0(Function):
    """z = x Phi(x), Phi the standard normal CDF: Phi(x) = (1 + erf(x / sqrt 2)) / 2 ('none'), or its
    approximation (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2 ('tanh');  dz/dx = Phi(x) + x phi(x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, approximate):
        d = _floating(x, "GeluKernelImpl")
        ctx.save(self=x, approximate=approximate)
        return _gelu(d, approximate)

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        if _is_tensor(g):
            return GeluBackwardBackward0.apply(g, x, approximate=ctx.approximate)
        return _gelu_grad(g, x, ctx.approximate)


class GeluBackwardBackward0(Function):
    """z = g gelu'(x), the backward of gelu;  dz/dg = gelu'(x),  dz/dx = g gelu''(x)."""
    saved_names = ("grad_output", "self")

    @staticmethod
    def forward(ctx, g, x, approximate):
        ctx.save(grad_output=g, self=x, approximate=approximate)
        return _gelu_grad(g._data, x._data, approximate)

    @staticmethod
    def backward(ctx, gg):
        t, approximate = _is_tensor(gg), ctx.approximate
        g, x = ctx._unpack("grad_output", t), ctx._unpack("self", t)
        dg = GeluBackwardBackward0.apply(gg, x, approximate=approximate) if t else _gelu_grad(gg, x, approximate)
        return dg, gg * g * _gelu_curvature(x, approximate)


def _silu_grad(g, x):
    with np.errstate(over="ignore", invalid="ignore"):  # inf * 0 at x = inf: nan, as torch
        sigmoid = 1 / (1 + _rounded(np.exp, -x))
        return g * sigmoid * (1 + x * (1 - sigmoid))


class SiluBackward0(Function):
    """z = x sigmoid(x) = x / (1 + exp(-x));  dz/dx = s (1 + x (1 - s)) with s = sigmoid(x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, saved=None):
        """``saved``: what to keep as ``self`` instead of x (the in-place silu keeps a recorded clone, as torch)."""
        d = _floating(x, "silu_cpu")
        ctx.save(self=x if saved is None else saved)
        with np.errstate(invalid="ignore"):  # -inf / inf: nan, as torch
            return d / (1 + _rounded(np.exp, -d))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        if not _is_tensor(g):
            return _silu_grad(g, x)
        # torch records this formula op by op: g * s * (1.0 + x * (1.0 - s)), 1.0 - s as a SubBackward0
        s = x.sigmoid()
        one_minus_s = SubBackward0.apply(Tensor._make(np.ones_like(s._data)), s)
        return g * s * AddBackward1.apply(x * one_minus_s, other=1.0)


def _softplus(x, beta, threshold):
    t = x.dtype.type
    xb = x * t(beta)
    with np.errstate(divide="ignore", invalid="ignore"):  # beta = 0: inf, as torch
        soft = _rounded(np.log1p, _rounded(np.exp, np.minimum(xb, t(threshold)))) / t(beta)
    return np.where(xb > t(threshold), x, soft)


def _softplus_grad(g, x, beta, threshold):
    t = x.dtype.type
    xb = x * t(beta)
    z = _rounded(np.exp, np.minimum(xb, t(threshold)))
    return np.where(xb > t(threshold), g, g * z / (z + 1))


class SoftplusBackward0(Function):
    """z = log(1 + exp(beta x)) / beta, or x itself where beta x > threshold (where the two agree to float
    precision);  dz/dx = sigmoid(beta x) (1 past the threshold)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, beta, threshold):
        d = _floating(x, "softplus_cpu")
        ctx.save(beta=beta, self=x, threshold=threshold)
        return _softplus(d, beta, threshold)

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        if _is_tensor(g):
            return SoftplusBackwardBackward0.apply(g, x, beta=ctx.beta, threshold=ctx.threshold)
        return _softplus_grad(g, x, ctx.beta, ctx.threshold)


class SoftplusBackwardBackward0(Function):
    """z = g sigmoid(beta x), the backward of softplus;  dz/dg = sigmoid(beta x),
    dz/dx = g beta s (1 - s) with s = sigmoid(beta x) (0 past the threshold)."""
    saved_names = ("grad_output", "self")

    @staticmethod
    def forward(ctx, g, x, beta, threshold):
        ctx.save(beta=beta, grad_output=g, self=x, threshold=threshold)
        return _softplus_grad(g._data, x._data, beta, threshold)

    @staticmethod
    def backward(ctx, gg):
        t, beta, threshold = _is_tensor(gg), ctx.beta, ctx.threshold
        g, x = ctx._unpack("grad_output", t), ctx._unpack("self", t)
        xb = x * beta
        if t:
            dg = SoftplusBackwardBackward0.apply(gg, x, beta=beta, threshold=threshold)
            dx = SigmoidBackwardBackward0.apply(gg * g, xb.sigmoid())
        else:
            dg = _softplus_grad(gg, x, beta, threshold)
            with np.errstate(over="ignore"):
                s = 1 / (1 + _rounded(np.exp, -xb))
            dx = gg * g * (1 - s) * s
        return dg, dx * _mask(t, _data(xb) < threshold) * beta


def _elu_grad(g, x, alpha, is_result: bool, scale=1):
    """The gradient of scale * elu from its input x, or from its result (``is_result``, after an in-place elu)."""
    a = x.dtype.type(alpha * scale)
    slope = g if scale == 1 else g * x.dtype.type(scale)
    if is_result:
        return np.where(x > 0, slope, g * (x + a))
    out = np.where(x > 0, slope, g * a * _rounded(np.exp, np.minimum(x, 0)))
    return _scalar_at_nan(out, x, slope)


def _scalar_at_nan(out: np.ndarray, x: np.ndarray, value) -> np.ndarray:
    """``out``, with ``value`` where x is nan among the elements torch's kernel computes one at a time: its
    vector formula gives ``out`` there, its scalar one (``x <= 0 ? ... : value``) the other branch."""
    tail = _one_at_a_time(x)
    if tail is None or not np.isnan(x.reshape(-1)[tail]).any():
        return out
    out = np.array(out)
    flat, where = out.reshape(-1), np.isnan(x.reshape(-1)[tail])
    flat[tail][where] = np.broadcast_to(value, x.shape).reshape(-1)[tail][where]
    return out


class EluBackward0(Function):
    """z = x where x > 0, else alpha (exp(x) - 1);  dz/dx = 1 where x > 0, else alpha exp(x). ``scale`` multiplies
    both (selu: alpha = 1.6733, scale = 1.0507, which keep activations near mean 0 and variance 1)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, alpha, scale=1):
        d = _floating(x, "elu_cpu")
        ctx.save(alpha=alpha, input_scale=1, scale=scale, self=x)
        z = np.where(d >= 0, d, _rounded(np.expm1, np.minimum(d, 0)) * d.dtype.type(alpha))  # -0 stays -0
        return z if scale == 1 else z * d.dtype.type(scale)

    @staticmethod
    def backward(ctx, g):
        return _elu_backward(ctx, g, "self", False)


def _elu_backward(ctx, g, saved: str, is_result: bool):
    x = ctx._unpack(saved, _is_tensor(g))
    if _is_tensor(g):
        return EluBackwardBackward0.apply(g, x, alpha=ctx.alpha, is_result=is_result, scale=ctx.scale)
    return _elu_grad(g, x, ctx.alpha, is_result, ctx.scale)


class EluBackward1(Function):
    """z = elu(x) written over x (``inplace=True``): the gradient is read from z, alpha exp(x) = z + alpha
    where z <= 0, which only works for alpha >= 0."""
    saves_result = True

    @staticmethod
    def forward(ctx, x, alpha, scale=1):
        ctx.save(alpha=alpha, input_scale=1, scale=scale)
        return EluBackward0.forward(_NULL_CTX, x, alpha, scale)

    @staticmethod
    def backward(ctx, g):
        if ctx.alpha < 0:
            raise RuntimeError(INPLACE_SLOPE.format("elu"))
        return _elu_backward(ctx, g, "result", True)


class EluBackwardBackward0(Function):
    """z = g elu'(x), the backward of elu;  dz/dg = elu'(x),  dz/dx = g alpha exp(x) where x < 0, else 0
    (from the result y: z = g (y + alpha) where y <= 0, so dz/dy = g where y < 0)."""
    saved_names = ("grad_output", "self_or_result")

    @staticmethod
    def forward(ctx, g, x, alpha, is_result, scale=1):
        ctx.save(alpha=alpha, grad_output=g, input_scale=1, is_result=is_result, scale=scale, self_or_result=x)
        return _elu_grad(g._data, x._data, alpha, is_result, scale)

    @staticmethod
    def backward(ctx, gg):
        t, alpha, is_result, scale = _is_tensor(gg), ctx.alpha, ctx.is_result, ctx.scale
        g, x = ctx._unpack("grad_output", t), ctx._unpack("self_or_result", t)
        if t:
            dg = EluBackwardBackward0.apply(gg, x, alpha=alpha, is_result=is_result, scale=scale)
            dx = gg * g if is_result else EluBackwardBackward0.apply(gg * g, x, alpha=alpha, is_result=False,
                                                                      scale=scale)
        else:
            dg = _elu_grad(gg, x, alpha, is_result, scale)
            dx = gg * g if is_result else _elu_grad(gg * g, x, alpha, False, scale)
        return dg, dx * _mask(t, _data(x) < 0)


class HardtanhBackward0(Function):
    """z = x clipped to [min_val, max_val];  dz/dx = 1 strictly inside, 0 at and beyond the bounds."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, min_val, max_val):
        ctx.save(max_val=max_val, min_val=min_val, self=x)
        d = x._data
        if d.dtype == np.bool_:
            raise RuntimeError("Bool inputs not supported for hardtanh")
        t = d.dtype.type
        return np.minimum(t(max_val), np.maximum(t(min_val), d))  # -0. stays -0. (NumPy gives the second of equals)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "hardtanh")
        x = ctx._unpack("self", False)
        return _scalar_at_nan(np.where((x > ctx.min_val) & (x < ctx.max_val), g, 0).astype(g.dtype), x, g)


def _shrink_mask(x: np.ndarray, lambd) -> np.ndarray:
    """Where a shrink's gradient is 0: -lambd <= x <= lambd (nan is outside: its gradient passes)."""
    t = x.dtype.type(lambd)
    return (x >= -t) & (x <= t)


class SoftshrinkBackward0(Function):
    """z = x - lambd above lambd, x + lambd below -lambd, 0 between (a soft threshold: small values vanish, the
    others move towards 0 by lambd);  dz/dx = 1 where |x| > lambd, else 0.

    >>> import autograd_tutor as torch
    >>> torch.nn.functional.softshrink(torch.tensor([-2., 0.25, 1.]), 0.5)
    tensor([-1.5000,  0.0000,  0.5000])
    """
    saved_names = ("lambd", "self")
    kernel = "softshrink_check"

    @classmethod
    def forward(cls, ctx, x, lambd):
        d = _floating(x, cls.kernel)
        ctx.save(lambd=lambd, self=x)
        return cls.shrunk(d, d.dtype.type(lambd))

    @staticmethod
    def shrunk(d, t):
        with np.errstate(invalid="ignore"):  # (inf * 0, computed for the entries the other branches take)
            return np.where(d > t, d - t, np.where(d < -t, d + t, d * d.dtype.type(0)))  # -0.2 * 0 is -0., as torch's

    @classmethod
    def backward(cls, ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        if _is_tensor(g):
            return cls.twice.apply(g, x, lambd=ctx.lambd)
        return np.where(_shrink_mask(x, ctx.lambd), g.dtype.type(0), g)


class HardshrinkBackward0(SoftshrinkBackward0):
    """z = x where |x| > lambd, else 0 (a hard threshold);  dz/dx = 1 where |x| > lambd, else 0."""
    kernel = "hardshrink_cpu"

    @staticmethod
    def shrunk(d, t):
        return np.where((d >= -t) & (d <= t), d.dtype.type(0), d)


class SoftshrinkBackwardBackward0(Function):
    """gx = g where |x| > lambd, else 0: a shrink's gradient, recorded to differentiate it again;
    d gx / d g = the same mask, d gx / d x = 0 (torch returns zeros)."""
    saved_names = ("lambd", "self")

    @staticmethod
    def forward(ctx, g, x, lambd):
        ctx.save(lambd=lambd, self=x)
        return np.where(_shrink_mask(x._data, lambd), g._data.dtype.type(0), g._data)

    @classmethod
    def backward(cls, ctx, gg):
        x = ctx._unpack("self", _is_tensor(gg))
        if _is_tensor(gg):
            return cls.apply(gg, x, lambd=ctx.lambd), type(gg)._make(np.zeros_like(gg._data))
        return np.where(_shrink_mask(x, ctx.lambd), gg.dtype.type(0), gg), np.zeros_like(gg)


class HardshrinkBackwardBackward0(SoftshrinkBackwardBackward0):
    """The same for hardshrink, whose gradient has the same mask."""


SoftshrinkBackward0.twice = SoftshrinkBackwardBackward0
HardshrinkBackward0.twice = HardshrinkBackwardBackward0


class PreluKernelBackward0(Function):
    """z = x where x > 0, else w * x, with a learned slope w broadcast over the channels (dim 1);
    dz/dx = 1 where x > 0, else w;  dz/dw = 0 where x > 0, else x (summed over what w was broadcast to)."""
    saved_names = ("self", "weight")

    @staticmethod
    def forward(ctx, x, weight):
        d, w = _floating(x, "prelu_cpu"), weight._data
        ctx.save(self=x, weight=weight)
        return np.where(d > 0, d, w * d)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "prelu")
        x, w = ctx._unpack("self", False), ctx._unpack("weight", False)
        positive = x > 0
        return np.where(positive, g, w * g), np.where(positive, 0, x * g).astype(g.dtype)


class LogSigmoidBackward0(Function):
    """z = log sigmoid(x) = min(x, 0) - log(1 + exp(-|x|));  dz/dx = sigmoid(-x). torch keeps exp(-|x|) as
    ``buffer``: dz/dx = 1 / (1 + buffer) for x < 0, buffer / (1 + buffer) otherwise."""
    saved_names = ("self", "buffer")

    @staticmethod
    def forward(ctx, x):
        d = _floating(x, "log_sigmoid_cpu")
        buffer = np.exp(-np.abs(d))
        if ctx.needs_input_grad:
            ctx.save(buffer=Tensor._make(buffer), self=x)
        return _log_sigmoid(d).astype(d.dtype)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "log_sigmoid")
        x, z = ctx._unpack("self", False), ctx._unpack("buffer", False)
        return g * np.where(x < 0, 1 / (1 + z), z / (1 + z))


class ThresholdBackward0(Function):
    """z = value where x <= threshold, else x;  dz/dx = 0 where x <= threshold, else 1."""
    saved_names = ("self", "threshold")

    @staticmethod
    def forward(ctx, x, threshold, value):
        ctx.save(self=x, threshold=threshold)
        d = x._data
        return np.where(d <= threshold, d.dtype.type(value), d)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "threshold")
        return np.where(ctx._unpack("self", False) <= ctx.threshold, g.dtype.type(0), g)


class ThresholdBackward1(ThresholdBackward0):
    """``F.threshold(x, t, v, inplace=True)``: the node of threshold_."""


class GluBackward0(Function):
    """z = a * sigmoid(b), a and b the two halves of x along ``dim``;  dz/da = sigmoid(b),
    dz/db = (1 - sigmoid(b)) sigmoid(b) a (torch's kernel order)."""
    saved_names = ("dim", "self")

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim, self=x)
        a, b = np.split(x._data, 2, axis=dim)
        return a * _glu_sigmoid(b)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "glu")
        a, b = np.split(ctx._unpack("self", False), 2, axis=ctx.dim)
        sig = _glu_sigmoid(b)
        return np.concatenate([sig * g, (1 - sig) * sig * a * g], axis=ctx.dim)


def _glu_sigmoid(b: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-b)) in b's dtype, as glu's kernel writes it."""
    return b.dtype.type(1) / (b.dtype.type(1) + _rounded(np.exp, -b))


class HardsigmoidBackward0(Function):
    """z = min(max(x + 3, 0), 6) / 6;  dz/dx = 1/6 for -3 < x < 3, else 0."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        d = _floating(x, "hardsigmoid_cpu")
        ctx.save(self=x)
        t = d.dtype.type
        return np.minimum(np.maximum(d + t(3), t(0)), t(6)) / t(6)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "hardsigmoid")
        x = ctx._unpack("self", False)
        return np.where((x > -3) & (x < 3), g * (g.dtype.type(1) / g.dtype.type(6)), g.dtype.type(0))


class HardswishBackward0(Function):
    """z = x min(max(x + 3, 0), 6) / 6;  dz/dx = 0 up to -3, x/3 + 1/2 strictly between, 1 from 3 on."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        d = _floating(x, "hardswish_cpu")
        ctx.save(self=x)
        t = d.dtype.type
        return d * np.minimum(np.maximum(d + t(3), t(0)), t(6)) / t(6)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "hardswish")
        x = ctx._unpack("self", False)
        t = g.dtype.type
        return np.where(x <= -3, t(0), np.where(x < 3, g * (x / t(3) + t(0.5)), g))


class MishBackward0(Function):
    """z = x tanh(softplus(x)), softplus(x) = log(1 + exp(x));  with t = tanh(softplus(x)):
    dz/dx = t + x sigmoid(x) (1 - t**2)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        d = _floating(x, "mish_cpu")
        ctx.save(self=x)
        return d * _tanh_softplus(d)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "mish")
        x = ctx._unpack("self", False)
        t = _tanh_softplus(x)
        return g * (t + x / (1 + _rounded(np.exp, -x)) * (1 - t * t))


def _tanh_softplus(d: np.ndarray) -> np.ndarray:
    """tanh(log(1 + exp(x))) in d's dtype, each step rounded as torch's kernel rounds it (exp overflows to inf
    for large x, and tanh(inf) = 1)."""
    return _rounded(np.tanh, _rounded(np.log1p, _rounded(np.exp, d)))


class HuberLossBackward0(Function):
    """L = d**2 / 2 where |d| <= delta, else delta (|d| - delta / 2), for d = x - y: the squared error near 0,
    growing only linearly beyond delta;  dL/dx = d clipped to [-delta, delta],  dL/dy = -dL/dx."""
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, target, reduction, delta):
        ctx.save(delta=delta, reduction=reduction, self=x, target=target)
        a, b = _promote(x, target)
        if a.dtype.kind != "f":
            raise NotImplementedError(f"\"huber_cpu\" not implemented for '{kind_name(a)}'")
        d = a - b
        far = np.abs(d) > delta
        losses = np.where(far, delta * (np.abs(d) - 0.5 * delta), 0.5 * d * d).astype(d.dtype)
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "huber_loss")
        x, y = ctx._unpack("self", False), ctx._unpack("target", False)
        t, delta = g.dtype.type, ctx.delta
        norm = t(1 / np.size(x) if ctx.reduction == 1 else 1)

        def grad(d):  # torch's huber_backward kernel, for (input - target) and (target - input)
            vector = norm * np.where(np.abs(d) >= t(delta), np.where(d > 0, t(1), t(-1)) * t(delta), d) * g
            return by_kernel_path(d, vector, lambda d, g: np.where(
                d <= -delta, (-norm * g).astype(np.float64) * delta,
                np.where(d >= delta, (norm * g).astype(np.float64) * delta, norm * d * g)), g)
        return grad(x - y), grad(y - x)
