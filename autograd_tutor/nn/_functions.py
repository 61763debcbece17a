"""The differentiable operations behind ``nn``: a linear layer, activations and losses, named as torch names their
nodes.

Same pattern as ``autograd/functions.py``: ``forward(ctx, *tensors, **params)`` computes on NumPy arrays,
``backward(ctx, g)`` beside it returns one gradient per tensor input, and ``ctx.save`` keeps what torch keeps
under torch's names (``grad_fn._saved_mat1``, ``grad_fn._saved_reduction``...).

>>> import autograd_tutor as torch
>>> w = torch.tensor([[2., 0.]], requires_grad=True)
>>> y = torch.nn.functional.linear(torch.tensor([[1., 3.]]), w, torch.tensor([1.]))
>>> y, y.grad_fn._saved_mat1, y.grad_fn._saved_mat2   # A is kept to compute dB = A.T @ G; B is not needed
(tensor([[3.]], grad_fn=<AddmmBackward0>), tensor([[1., 3.]]), None)
"""
from __future__ import annotations

import math

import numpy as np

from ..autograd.dtypes import kind_name
from ..autograd.function import _NULL_CTX, Function
from ..autograd.functions import (AddBackward1, SigmoidBackwardBackward0, SubBackward0, _float, _is_tensor, _promote,
                                  _rounded, _saved, _zeros)
from ..autograd.more_functions import erf
from ..autograd.summation import torch_sum
from ..autograd.tensor import Tensor

__all__: list = []  # used through nn.functional

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}  # torch's Reduction enum, as saved in ``_saved_reduction``


class MseLossBackward0(Function):
    """L = reduce((x - y)**2);  dL/dx = 2 (x - y) g (divided by n for 'mean'),  dL/dy = -dL/dx."""
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, target, reduction):
        ctx.save(self=x, target=target, reduction=reduction)
        a, b = _promote(x, target)
        a = a if a.dtype.kind == "f" else a.astype(np.float32)
        diff = a - b
        squares = diff * diff
        if reduction == 0:
            return squares
        total = torch_sum(squares, None, False)  # in torch's order: the printed loss has torch's digits
        return total if reduction == 2 else total / squares.dtype.type(squares.size)

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, y = ctx._unpack("self", t), ctx._unpack("target", t)
        scale = 2 / int(np.prod(x.shape)) if ctx.reduction == 1 else 2
        gx = g * scale * (x - y)
        return gx, -gx


def _class_weights(target: np.ndarray, weight, ignore_index: int, dtype) -> tuple:
    """Each sample's class (0 where ignored) and its weight (0 where ignored), for a 1-D target."""
    valid = target != ignore_index
    safe = np.where(valid, target, 0)
    w = weight.reshape(-1)[safe].astype(dtype) if weight is not None else np.ones(target.shape, dtype)
    return safe, w * valid


def _signed(index: int) -> int:
    """The ignore_index that torch shows as unsigned (``-100`` is saved as ``2**64 - 100``), signed again."""
    return index - 2 ** 64 if index >= 2 ** 63 else index


_CASCADE_UP_TO = 4096


def _nll_cascade(picked: np.ndarray, weights, valid: np.ndarray) -> tuple:
    """torch's sums for nll_loss over a batch: (-sum of w * picked, sum of w) in its 8-level cascade, sample
    after sample; after sample b, while b is a multiple of 16, 256, ..., a level is added into the next one
    (so sample 0 goes straight to the top level). The levels are added from the lowest at the end."""
    zero = picked.dtype.type(0)
    loss, weight = [zero] * 8, [zero] * 8
    for b, (value, ok) in enumerate(zip(picked, valid)):
        if not ok:
            continue
        if weights is None:
            loss[0] = loss[0] - value
        else:
            loss[0] = loss[0] - value * weights[b]
            weight[0] = weight[0] + weights[b]
        for level in range(7):
            if b & (15 << (4 * level)):
                break
            loss[level + 1], loss[level] = loss[level + 1] + loss[level], zero
            weight[level + 1], weight[level] = weight[level + 1] + weight[level], zero
    total_loss, total_weight = zero, zero
    for level in range(8):
        total_loss, total_weight = total_loss + loss[level], total_weight + weight[level]
    if weights is None:
        total_weight = picked.dtype.type(int(valid.sum()))
    return total_loss, total_weight


def _classes_last(d: np.ndarray) -> np.ndarray:
    """Log-probabilities with the class dim last: (N, C, H, W) seen as (N, H, W, C); (N, C) and (C,) as they are."""
    return np.moveaxis(d, 1, -1) if d.ndim > 2 else d


class NllLossBackward0(Function):
    """L = -sum_i w[y_i] x[i, y_i] (divided by sum_i w[y_i] for 'mean');  dL/dx[i, y_i] = -w[y_i] g (same divisor).

    ``x`` holds log-probabilities, (N, C) or (C,) (or (N, C, H, W): NllLoss2DBackward0 below); the target ``y``
    holds class indices and gets no gradient.
    """
    saved_names = ("self", "target", "weight", "total_weight")

    @staticmethod
    def forward(ctx, x, target, weight, reduction, ignore_index):
        d = x._data
        rows = _classes_last(d)
        rows = rows.reshape(-1, rows.shape[-1])
        y = target._data.reshape(-1).astype(np.int64)
        bad = (y != ignore_index) & ((y < 0) | (y >= rows.shape[1]))
        if bad.any():
            raise IndexError(f"Target {y[bad][0]} is out of bounds.")
        safe, w = _class_weights(y, None if weight is None else weight._data, ignore_index, d.dtype)
        picked = rows[np.arange(len(y)), safe]
        losses = -w * picked
        if not reduction:
            loss_sum, total = None, d.dtype.type(0)  # torch leaves the total weight 0 for 'none'
        elif d.ndim >= 2 and len(y) <= _CASCADE_UP_TO:  # torch's order, so that loss.item() prints its digits
            loss_sum, total = _nll_cascade(picked, None if weight is None else w, y != ignore_index)
        else:
            loss_sum, total = losses.sum(), w.sum(dtype=d.dtype)
        ctx.save(self=x, target=target, weight=weight, total_weight=Tensor._make(np.asarray(total)),
                 reduction=reduction, ignore_index=ignore_index % 2 ** 64)  # torch shows it as unsigned
        if reduction == 0:
            return losses.reshape(target._data.shape) if d.ndim >= 2 else losses.reshape(())
        with np.errstate(invalid="ignore", divide="ignore"):
            return loss_sum if reduction == 2 else loss_sum / total

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", False)
        y = ctx._unpack("target", False).reshape(-1).astype(np.int64)
        weight = ctx._unpack("weight", False) if "weight" in _saved(ctx) else None
        safe, w = _class_weights(y, weight, _signed(ctx.ignore_index), x.dtype)
        shape = _classes_last(x).shape
        coef = np.zeros((len(y), shape[-1]), x.dtype)
        coef[np.arange(len(y)), safe] = 0 - w  # 0 - 0 is 0., where -0. would print -0.0000 for an ignored row
        if ctx.reduction == 1:  # torch divides g first, then multiplies by the weight: the same last bit
            with np.errstate(invalid="ignore", divide="ignore"):
                g = g / ctx._unpack("total_weight", False)
        if ctx.reduction == 0:
            g = g.reshape(-1, 1)
        grad = (coef * g).reshape(shape)
        if x.ndim <= 2:
            return grad
        return grad.movedim(-1, 1) if _is_tensor(grad) else np.ascontiguousarray(np.moveaxis(grad, -1, 1))


class NllLoss2DBackward0(NllLossBackward0):
    """The same loss for a batch of maps: x of shape (N, C, H, W) holds log-probabilities at every position,
    y of shape (N, H, W) a class index at every position; each position counts as one sample."""


class DivBackward1(Function):
    """z = x / c for a number c;  dz/dx = 1 / c."""

    @staticmethod
    def forward(ctx, x, other):
        ctx.save(other=other)
        d = _float(x)
        return d / np.asarray(other, d.dtype)

    @staticmethod
    def backward(ctx, g):
        return g / ctx.other


class MulBackward1(Function):
    """z = x * c for a number c;  dz/dx = c."""

    @staticmethod
    def forward(ctx, x, other):
        ctx.save(other=other)
        d = _float(x)
        return d * np.asarray(other, d.dtype)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.other


class MaskedFillBackward0(Function):
    """z = x with ``value`` where ``mask`` is true;  dz/dx = 1 where the mask is false, else 0."""
    saved_names = ("mask",)

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.save(mask=mask)
        return np.where(mask._data, np.asarray(value, x._data.dtype), x._data)

    @staticmethod
    def backward(ctx, g):
        return g * ~ctx._unpack("mask", False)


# ---------------------------------------------------------------- activations
# Each forward and gradient is computed in the input's dtype, step by step as torch's CPU kernels compute it
# (exp, tanh, erf... rounded once from float64), so that float32 results agree with torch's to the last bit
# or nearly. Under create_graph=True their gradients are recorded as torch records them: as one operation
# with a node of its own (LeakyReluBackwardBackward0...), differentiable in turn; silu's as several.

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
    return np.where(x > 0, slope, g * a * _rounded(np.exp, np.minimum(x, 0)))


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
