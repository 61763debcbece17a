"""Loss modules: ``nn.MSELoss``, ``nn.NLLLoss``, ``nn.CrossEntropyLoss``, ``nn.BCELoss``, ``nn.BCEWithLogitsLoss``,
``nn.L1Loss``, ``nn.SmoothL1Loss``, ``nn.HuberLoss``, ``nn.KLDivLoss``.
"""
from __future__ import annotations


from ...autograd.tensor import Tensor
from .. import functional as F
from .._functional.loss import _legacy_reduction
from .module import Module

__all__ = ["MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "L1Loss", "SmoothL1Loss",
           "HuberLoss", "KLDivLoss"]


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = _legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight: Tensor | None = None, size_average=None, reduce=None, reduction: str = "mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    """Mean squared error between input and target: ``F.mse_loss`` with this module's ``reduction``."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log likelihood of class indices, given log-probabilities: ``F.nll_loss``."""

    def __init__(self, weight: Tensor | None = None, size_average=None, ignore_index: int = -100, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy between raw scores and class indices (or probabilities): ``F.cross_entropy``.

    >>> import autograd_tutor as torch
    >>> loss = torch.nn.CrossEntropyLoss()(torch.tensor([[0., 0.]], requires_grad=True), torch.tensor([1]))
    >>> loss
    tensor(0.6931, grad_fn=<NllLossBackward0>)
    """

    def __init__(self, weight: Tensor | None = None, size_average=None, ignore_index: int = -100, reduce=None,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)




class BCELoss(_WeightedLoss):
    """Binary cross entropy between probabilities and targets in [0, 1]: ``F.binary_cross_entropy``."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Sigmoid and binary cross entropy in one stable step: ``F.binary_cross_entropy_with_logits``.

    >>> import autograd_tutor as torch
    >>> torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.]))(torch.tensor([0.]), torch.tensor([1.]))
    tensor(1.3863)
    """

    def __init__(self, weight: Tensor | None = None, size_average=None, reduce=None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error between input and target: ``F.l1_loss`` with this module's ``reduction``."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Quadratic for errors below ``beta``, linear above: ``F.smooth_l1_loss``."""

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)




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
