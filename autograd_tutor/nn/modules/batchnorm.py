"""``nn.BatchNorm1d`` and ``nn.BatchNorm2d``.
"""
from __future__ import annotations


from ...autograd.dtypes import int64
from ...autograd.factories import empty, ones, tensor, zeros
from ...autograd.tensor import Tensor
from ...devices import check_cpu
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["BatchNorm1d", "BatchNorm2d"]


class _BatchNorm(Module):
    """Batch normalisation over channel dim 1: ``F.batch_norm`` with learned ``weight`` (ones) and ``bias``
    (zeros), and the buffers ``running_mean`` (zeros), ``running_var`` (ones) and ``num_batches_tracked``.

    While training it normalises with the batch's statistics and updates the running ones (``momentum=None``
    makes them a plain average over the batches seen); after ``eval()`` it normalises with the running ones.
    """
    dims = ()  # the input dims the subclass accepts
    _version = 2  # num_batches_tracked was added in version 2


    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        check_cpu(device)
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        self.register_parameter("weight", Parameter(empty(num_features, dtype=dtype)) if affine else None)
        self.register_parameter("bias", Parameter(empty(num_features, dtype=dtype)) if affine and bias else None)
        stats = track_running_stats
        self.register_buffer("running_mean", zeros(num_features, dtype=dtype) if stats else None)
        self.register_buffer("running_var", ones(num_features, dtype=dtype) if stats else None)
        self.register_buffer("num_batches_tracked", tensor(0, dtype=int64) if stats else None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in self.dims:
            raise ValueError(f"expected {' or '.join(f'{n}D' for n in self.dims)} input (got {input.dim()}D input)")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch = self.training or self.running_mean is None
        stats = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if stats else None, self.running_var if stats else None,
                            self.weight, self.bias, use_batch, factor, self.eps)

    def _load_own(self, state_dict, prefix: str, *args) -> None:
        """A state_dict without this module's version 2 (an old checkpoint, or a dict made by hand) may lack
        ``num_batches_tracked``: the current count is kept, as torch does."""
        version = getattr(state_dict, "_metadata", {}).get(prefix[:-1], {}).get("version")
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats and key not in state_dict:
            state_dict = {**state_dict, key: self.num_batches_tracked}
        super()._load_own(state_dict, prefix, *args)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch norm of (N, C) or (N, C, L) inputs, per channel C.

    >>> import autograd_tutor as torch
    >>> bn = torch.nn.BatchNorm1d(2)
    >>> bn(torch.tensor([[1., 0.], [3., 0.]]))       # each column to mean 0 and variance 1 (or all 0)
    tensor([[-1.0000,  0.0000],
            [ 1.0000,  0.0000]], grad_fn=<NativeBatchNormBackward0>)
    >>> bn.running_mean, bn.running_var, bn.num_batches_tracked     # 0.9 * start + 0.1 * batch's
    (tensor([0.2000, 0.0000]), tensor([1.1000, 0.9000]), tensor(1))
    """
    dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch norm of (N, C, H, W) images, per channel C (over the batch and all pixels)."""
    dims = (4,)
