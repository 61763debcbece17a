"""The ready-made modules: ``Linear``, ``Sequential``, activations and losses, each a thin wrapper around
:mod:`~autograd_tutor.nn.functional` that holds its settings (and, for ``Linear``, its parameters).

>>> import autograd_tutor as torch
>>> from autograd_tutor import nn
>>> model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
>>> model
Sequential(
  (0): Linear(in_features=2, out_features=16, bias=True)
  (1): Tanh()
  (2): Linear(in_features=16, out_features=1, bias=True)
)
>>> model(torch.zeros(5, 2)).shape, [name for name, _ in model.named_parameters()]
(torch.Size([5, 1]), ['0.weight', '0.bias', '2.weight', '2.bias'])
"""
from __future__ import annotations

import math
import numbers
import operator
from collections import OrderedDict

from ..autograd import grad_mode
from ..autograd.dtypes import int64
from ..autograd.factories import empty, ones, tensor, zeros
from ..autograd.tensor import Tensor
from ..devices import check_cpu
from . import functional as F
from . import init
from .container import _renumber
from .module import Module
from .parameter import Parameter

__all__ = ["Identity", "Linear", "Flatten", "Unflatten", "Dropout", "Sequential", "ReLU", "LeakyReLU", "GELU", "SiLU",
           "Softplus", "ELU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "MSELoss", "NLLLoss", "CrossEntropyLoss"]


class Identity(Module):
    """Returns its input unchanged (a placeholder; any constructor arguments are ignored)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """y = x W^T + b, with W of shape (out_features, in_features) and b of shape (out_features,).

    Both start uniform in [-1/sqrt(in_features), 1/sqrt(in_features)], as in torch.

    >>> import autograd_tutor as torch
    >>> layer = torch.nn.Linear(3, 2)
    >>> layer.weight.shape, layer.bias.shape, layer(torch.ones(4, 3)).grad_fn.name()
    (torch.Size([2, 3]), torch.Size([2]), 'AddmmBackward0')
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty(out_features, in_features, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh starting weights: kaiming_uniform_ with a=sqrt(5), i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Flatten(Module):
    """Flattens dims ``start_dim`` to ``end_dim`` into one: (N, 28, 28) becomes (N, 784)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dim ``dim`` into ``unflattened_size``, the inverse of Flatten: (N, 784) becomes (N, 1, 28, 28)."""

    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class Sequential(Module):
    """A chain of modules: ``forward`` feeds each one's output to the next.

    Build it from modules (named "0", "1", ...) or from an OrderedDict of named modules.
    """

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def _key(self, idx) -> str:
        size = len(self)
        idx = operator.index(idx)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        return list(self._modules)[idx % size]

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key(idx)]

    def __setitem__(self, idx, module: Module) -> None:
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)[idx] if isinstance(idx, slice) else [self._key(idx)]
        for key in keys:
            delattr(self, key)
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module: Module) -> "Sequential":
        """Add a module at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential) -> "Sequential":
        for module in sequential:
            self.append(module)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


# ---------------------------------------------------------------- activations

class ReLU(Module):
    """max(x, 0), elementwise."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """x where x > 0, else negative_slope * x, elementwise."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """x * Phi(x), Phi the standard normal CDF (or its tanh approximation), elementwise."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """x * sigmoid(x), elementwise."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta, elementwise: a smooth relu."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class ELU(Module):
    """x where x > 0, else alpha * (exp(x) - 1), elementwise."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Dropout(Module):
    """Zero each entry with probability ``p`` while training and scale the rest by 1 / (1 - p); pass the input
    through unchanged after ``model.eval()``."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Tanh(Module):
    """tanh(x), elementwise: squashes into (-1, 1)."""

    def forward(self, input: Tensor) -> Tensor:
        return input.tanh()


class Sigmoid(Module):
    """1 / (1 + exp(-x)), elementwise: squashes into (0, 1)."""

    def forward(self, input: Tensor) -> Tensor:
        return input.sigmoid()


class Softmax(Module):
    """exp(x_i) / sum_j exp(x_j) along ``dim``."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    """log(softmax(x)) along ``dim``, computed stably."""

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)


# ---------------------------------------------------------------- losses

class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._legacy_reduction(size_average, reduce)
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


# ---------------------------------------------------------------- binary and robust losses (one block)
__all__ += ["BCELoss", "BCEWithLogitsLoss", "L1Loss", "SmoothL1Loss"]


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


__all__ += ["LayerNorm", "Embedding"]


class LayerNorm(Module):
    """Normalises each sample over its last dims (``normalized_shape``) to mean 0 and variance 1, then scales
    and shifts it by learned ``weight`` (ones at first) and ``bias`` (zeros): ``F.layer_norm``.

    >>> import autograd_tutor as torch
    >>> torch.nn.LayerNorm(4)
    LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)
    """

    def __init__(self, normalized_shape, eps: float = 1e-05, elementwise_affine: bool = True, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        check_cpu(device)
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(empty(*self.normalized_shape, dtype=dtype))
            if bias:
                self.bias = Parameter(empty(*self.normalized_shape, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class Embedding(Module):
    """A table of ``num_embeddings`` learned vectors of size ``embedding_dim``, looked up by integer index
    (word ids to word vectors): ``F.embedding``. The table starts as N(0, 1) samples (torch's numbers after
    the same seed), with the ``padding_idx`` row zero.

    >>> import autograd_tutor as torch
    >>> emb = torch.nn.Embedding(10, 3, padding_idx=0)
    >>> emb, emb(torch.tensor([[0, 4]])).shape, emb.weight[0]
    (Embedding(10, 3, padding_idx=0), torch.Size([1, 2, 3]), tensor([0., 0., 0.], grad_fn=<SelectBackward0>))
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Tensor | None = None, _freeze: bool = False, device=None,
                 dtype=None) -> None:
        super().__init__()
        check_cpu(device)
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(empty(num_embeddings, embedding_dim, dtype=dtype), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with grad_mode.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: Tensor) -> Tensor:
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, padding_idx: int | None = None,
                        max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> "Embedding":
        """An Embedding whose table is ``embeddings`` (2-D), frozen (no gradient) unless ``freeze=False``."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
                   padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


__all__ += ["BatchNorm1d", "BatchNorm2d"]


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
