"""The loss nodes for binary targets and robust regression, named as torch names them.

``reduction`` is torch's enum (0 'none', 1 'mean', 2 'sum'). Their backward formulas work on arrays only: under
``create_graph=True`` they raise a clear NotImplementedError (torch records ``...BackwardBackward0`` nodes there).

>>> import autograd_tutor as torch
>>> p = torch.tensor([0.8], requires_grad=True)
>>> loss = torch.nn.functional.binary_cross_entropy(p, torch.tensor([1.]))
>>> loss.backward(); loss, p.grad          # -log(0.8), and d/dp -log(p) = -1/p
(tensor(0.2231, grad_fn=<BinaryCrossEntropyBackward0>), tensor([-1.2500]))
"""
from __future__ import annotations

import numpy as np

from ..autograd.dtypes import kind_name
from ..autograd.function import Function
from ..autograd.functions import _needs_array_only, _promote, _rounded

__all__: list = []  # used through nn.functional

EPSILON = 1e-12  # torch's floor for x (1 - x) in the gradient of binary cross entropy


def _reduce(losses: np.ndarray, reduction: int) -> np.ndarray:
    return losses if reduction == 0 else losses.sum() if reduction == 2 else losses.mean()


def _log(d: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return _rounded(np.log, d)


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    """log(1 / (1 + exp(-x))) = min(x, 0) - log(1 + exp(-|x|)), without overflow for large |x|."""
    return np.minimum(x, 0) - _rounded(np.log1p, _rounded(np.exp, -np.abs(x)))


def _scale(ctx, grad: np.ndarray, g, n: int):
    """A loss gradient times the incoming g, the weight, and 1/n for 'mean'."""
    weight = ctx._unpack("weight", False) if "weight" in ctx._saved else None
    grad = grad * g if weight is None else grad * g * weight
    return grad / n if ctx.reduction == 1 else grad


class BinaryCrossEntropyBackward0(Function):
    """L = -w (y log x + (1 - y) log(1 - x)) for probabilities x (each log clamped at -100, so x = 0 or 1 gives
    100, not inf);  dL/dx = w (x - y) / (x (1 - x)) (x (1 - x) at least 1e-12),  dL/dy = w log((1 - x) / x)."""
    saved_names = ("self", "target", "weight")

    @staticmethod
    def forward(ctx, x, target, weight, reduction):
        d, y = x._data, target._data
        if y.dtype != d.dtype:
            raise RuntimeError(f"Found dtype {kind_name(y)} but expected {kind_name(d)}")
        bad = ~((d >= 0) & (d <= 1)) | ~((y >= 0) & (y <= 1))
        if bad.any():  # torch checks element by element, the input before the target
            first = np.flatnonzero(bad)[0]
            which = "input" if not 0 <= d.reshape(-1)[first] <= 1 else "target"
            raise RuntimeError(f"all elements of {which} should be between 0 and 1")
        ctx.save(self=x, target=target, weight=weight, reduction=reduction)
        losses = (y - 1) * np.maximum(_log(1 - d), -100) - y * np.maximum(_log(d), -100)
        if weight is not None:
            losses = losses * weight._data
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "binary_cross_entropy")
        x, y = ctx._unpack("self", False), ctx._unpack("target", False)
        gx = (x - y) / np.maximum((1 - x) * x, x.dtype.type(EPSILON))
        with np.errstate(divide="ignore"):
            gy = _log(1 - x) - _log(x)  # -logit(x)
        return _scale(ctx, gx, g, np.size(x)), _scale(ctx, gy, g, np.size(x))


class BinaryCrossEntropyWithLogitsBackward0(Function):
    """L = -w (p y log s(x) + (1 - y) log(1 - s(x))) for logits x, s the sigmoid, p = pos_weight (1 if not given),
    computed as (1 - y) x - (1 + (p - 1) y) log s(x);  dL/dx = w ((p y + 1 - y) s(x) - p y) (= w (s(x) - y) for
    p = 1),  dL/dy = w (log s(-x) - p log s(x)) (= -w x for p = 1)."""
    saved_names = ("self", "target", "weight", "pos_weight")

    @staticmethod
    def forward(ctx, x, target, weight, pos_weight, reduction):
        ctx.save(self=x, target=target, weight=weight, pos_weight=pos_weight, reduction=reduction)
        d, y = _promote(x, target)
        log_s = _log_sigmoid(d)
        if pos_weight is None:
            losses = (1 - y) * d - log_s
        else:
            losses = (1 - y) * d - ((pos_weight._data - 1) * y + 1) * log_s
        if weight is not None:
            losses = losses * weight._data
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "binary_cross_entropy_with_logits")
        x, y = ctx._unpack("self", False), ctx._unpack("target", False)
        s = 1 / (1 + _rounded(np.exp, -x))
        if "pos_weight" in ctx._saved:
            p = ctx._unpack("pos_weight", False)
            gx = (p * y + 1 - y) * s - p * y
            gy = _log_sigmoid(-x) - p * _log_sigmoid(x)
        else:
            gx, gy = s - y, -x
        return _scale(ctx, gx, g, np.size(x)), _scale(ctx, gy, g, np.size(y))


class SmoothL1LossBackward0(Function):
    """L = d**2 / (2 beta) where |d| < beta, else |d| - beta / 2, for d = x - y (quadratic near 0, linear far
    away: outliers pull no harder than in the L1 loss);  dL/dx = d / beta inside, sign(d) outside,  dL/dy = -dL/dx."""
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, target, reduction, beta):
        ctx.save(self=x, target=target, reduction=reduction, beta=beta)
        a, b = _promote(x, target)
        diff = a - b
        size = np.abs(diff)
        losses = np.where(size < beta, 0.5 * diff * diff / beta, size - 0.5 * beta).astype(diff.dtype, copy=False)
        return _reduce(losses, reduction)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "smooth_l1_loss")
        x, y = ctx._unpack("self", False), ctx._unpack("target", False)
        beta = ctx.beta
        diff = x - y
        slope = np.where(diff <= -beta, -1, np.where(diff >= beta, 1, diff / beta)).astype(diff.dtype, copy=False)
        gx = slope * g / np.size(diff) if ctx.reduction == 1 else slope * g
        return gx, -gx
