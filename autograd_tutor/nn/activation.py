"""More activation and loss modules: ``ReLU6``, ``Hardtanh``, ``LogSigmoid``, ``SELU``, ``Mish``, ``HuberLoss`` and
``KLDivLoss``, thin wrappers around :mod:`autograd_tutor.nn.functional`.

>>> import autograd_tutor as torch
>>> from autograd_tutor import nn
>>> nn.Sequential(nn.Linear(2, 4), nn.ReLU6(), nn.Linear(4, 1), nn.LogSigmoid())
Sequential(
  (0): Linear(in_features=2, out_features=4, bias=True)
  (1): ReLU6()
  (2): Linear(in_features=4, out_features=1, bias=True)
  (3): LogSigmoid()
)
"""
from __future__ import annotations

from ..autograd.tensor import Tensor
from . import functional as F
from .module import Module
from .modules import ReLU, _Loss

__all__ = ["Hardtanh", "ReLU6", "LogSigmoid", "SELU", "Mish", "HuberLoss", "KLDivLoss"]


class Hardtanh(Module):
    """x clipped to [min_val, max_val]: F.hardtanh.

    >>> import autograd_tutor as torch
    >>> torch.nn.Hardtanh(-2, 2)
    Hardtanh(min_val=-2, max_val=2)
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        assert self.max_val > self.min_val, f"max_val ({max_val}) must be greater than min_val ({min_val})"

    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """min(max(x, 0), 6): a Hardtanh(0., 6.) (so its node saves min_val 0.0 and max_val 6.0)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    extra_repr = ReLU.extra_repr


class LogSigmoid(Module):
    """log(sigmoid(x)): F.logsigmoid."""

    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


class SELU(ReLU):
    """scale * elu(x, alpha), the self-normalising activation: F.selu."""

    def forward(self, input: Tensor) -> Tensor:
        return F.selu(input, self.inplace)


class Mish(ReLU):
    """x * tanh(softplus(x)): F.mish."""

    def forward(self, input: Tensor) -> Tensor:
        return F.mish(input, self.inplace)


class HuberLoss(_Loss):
    """Squared error below ``delta``, linear above: F.huber_loss.

    >>> import autograd_tutor as torch
    >>> torch.nn.HuberLoss(delta=0.5).delta
    0.5
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """KL divergence from log-probabilities ``input`` to the distribution ``target``: F.kl_div (use
    reduction='batchmean' for the true KL divergence per sample)."""

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)
