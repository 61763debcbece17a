"""Losses on distances and margins, for embeddings and rankings: ``pairwise_distance``, ``triplet_margin_loss``,
``margin_ranking_loss``, ``hinge_embedding_loss``, ``cosine_embedding_loss``, ``soft_margin_loss`` and
``multilabel_soft_margin_loss``. Each is recorded as torch 2.13 records it: the composites from torch's C++ as
their pieces (``margin_ranking_loss`` is SubBackward0, MulBackward0, AddBackward1, ClampMinBackward0, then the
reduction), ``soft_margin_loss`` as one node.

>>> import autograd_tutor as torch
>>> F = torch.nn.functional
>>> a, p, n = torch.tensor([[0., 0.]]), torch.tensor([[3., 4.]]), torch.tensor([[6., 8.]])
>>> F.pairwise_distance(a, p), F.triplet_margin_loss(a, p, n, margin=1.0)   # 5, max(1 + 5 - 10, 0)
(tensor([5.0000]), tensor(0.))
"""
from __future__ import annotations

import numpy as np

from ...autograd import grad_mode
from ...autograd.ops.backward_formulas import AddBackward1, SubBackward1
from ...autograd.ops.losses import REDUCTIONS, SoftMarginLossBackward0
from ...autograd.ops.reductions import NormBackward1
from ...autograd.tensor import _broadcast_shape, Tensor
from ...ops import where
from .activation import logsigmoid
from .loss import _legacy_reduction, _reduction_enum

__all__ = ["pairwise_distance", "triplet_margin_loss", "margin_ranking_loss", "hinge_embedding_loss",
           "cosine_embedding_loss", "soft_margin_loss", "multilabel_soft_margin_loss"]


def _enum(size_average, reduce, reduction: str) -> int:
    """torch's Reduction enum of the arguments (the legacy flags win, with their warning)."""
    if size_average is not None or reduce is not None:
        return REDUCTIONS[_legacy_reduction(size_average, reduce)]
    return _reduction_enum(reduction)


def _reduced(output: Tensor, reduction: int) -> Tensor:
    """torch's apply_loss_reduction: the mean (1), the sum (2) or every entry (0)."""
    return output.mean() if reduction == 1 else output.sum() if reduction == 2 else output


def _zeros(like: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(like._data))


def _constant(value: float, like: Tensor) -> Tensor:
    """A number as a constant tensor of ``like``'s dtype: C++'s ``margin - x`` is SubBackward0 with no edge for it."""
    return Tensor._make(np.asarray(value, like._data.dtype))


def _plus(t: Tensor, c: float) -> Tensor:
    """t + c for a number c, as torch's C++ adds it (AddBackward1; Python's ``t + c`` records AddBackward0)."""
    return AddBackward1.apply(t, other=c)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """||x1 - x2 + eps||_p along the last dim, row by row (the two broadcast): torch's ``at::norm(x1 - x2 + eps, p,
    -1)``, whose eps keeps the gradient finite where the rows are equal.

    >>> import autograd_tutor as torch
    >>> pairwise_distance(torch.tensor([[1., 1.]]), torch.tensor([[4., 5.]]), eps=0.)
    tensor([5.])
    """
    diff = _plus(x1 - x2, eps)
    return NormBackward1.apply(diff, p=p, dim=(diff.dim() - 1,) if diff.dim() else None, keepdim=keepdim)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """max(d(a, p) - d(a, n) + margin, 0): an anchor nearer its positive than its negative by at least
    ``margin`` costs nothing (``swap``: the negative's distance is the smaller of d(a, n) and d(p, n)).

    >>> import autograd_tutor as torch
    >>> triplet_margin_loss(torch.zeros(1, 2), torch.tensor([[0., 1.]]), torch.tensor([[0., 1.5]]), eps=0.)
    tensor(0.5000)
    """
    enum = _enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = anchor.dim(), positive.dim(), negative.dim()
    if len(set(dims)) > 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = dist_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _reduced((_plus(dist_pos, margin) - dist_neg).clamp_min(0), enum)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average=None,
                        reduce=None, reduction: str = "mean") -> Tensor:
    """max(0, -y (x1 - x2) + margin), for y = 1 (x1 should rank higher) or -1 (x2 should).

    >>> import autograd_tutor as torch
    >>> margin_ranking_loss(torch.tensor([2., 0.]), torch.tensor([1., 1.]), torch.tensor([1., 1.]), margin=0.5)
    tensor(0.7500)
    """
    enum = _enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _reduced(_plus(-target * (input1 - input2), margin).clamp_min_(0), enum)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """x where y = 1, max(0, margin - x) where y = -1: for x a distance, similar pairs (1) are pulled together and
    dissimilar ones (-1) pushed at least ``margin`` apart.

    >>> import autograd_tutor as torch
    >>> hinge_embedding_loss(torch.tensor([0.3, 0.4]), torch.tensor([1., -1.]), reduction="none")
    tensor([0.3000, 0.6000])
    """
    enum = _enum(size_average, reduce, reduction)
    zeros = _zeros(input)
    margin_clamp = (_constant(margin, input) - input).clamp_min_(0)
    return _reduced(where(target != 1, margin_clamp, zeros) + where(target != -1, input, zeros), enum)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average=None,
                          reduce=None, reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1 (rows of 2-D inputs, one y each);
    each squared length gets 1e-12, as in torch.

    >>> import autograd_tutor as torch
    >>> cosine_embedding_loss(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]]), torch.tensor([1.]))
    tensor(0.2929)
    """
    enum = _enum(size_average, reduce, reduction)
    dim = target.dim()
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != dim + 1:
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    epsilon = float(np.float32(1e-12))  # torch's constexpr float
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = _plus((input1 * input1).sum(dim), epsilon)
    mag_square2 = _plus((input2 * input2).sum(dim), epsilon)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = _zeros(cos)
    pos = _constant(1, cos) - cos
    neg = SubBackward1.apply(cos, other=margin).clamp_min_(0)
    return _reduced(where(target == 1, pos, zeros) + where(target == -1, neg, zeros), enum)


def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """log(1 + exp(-y x)) for labels y = 1 or -1: the logistic loss of a margin y x, one SoftMarginLossBackward0.

    >>> import autograd_tutor as torch
    >>> soft_margin_loss(torch.tensor([0., 2.]), torch.tensor([1., -1.]), reduction="none")
    tensor([0.6931, 2.1269])
    """
    enum = _enum(size_average, reduce, reduction)
    if target.requires_grad and grad_mode._grad_enabled[0]:
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. "
                           "This input cannot have requires_grad True.")
    _broadcast_shape(tuple(input.shape), tuple(target.shape))  # torch's error when they do not broadcast
    return SoftMarginLossBackward0.apply(input, target=target, reduction=enum)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                                reduce=None, reduction: str = "mean") -> Tensor:
    """For each sample, the mean over its C labels of -(y log sigmoid(x) + (1 - y) log sigmoid(-x)): one
    binary cross entropy per label, for targets of 0s and 1s (several labels may be on).

    >>> import autograd_tutor as torch
    >>> multilabel_soft_margin_loss(torch.tensor([[0., 0.]]), torch.tensor([[1., 0.]]))
    tensor(0.6931)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")
