"""Activation modules: ``nn.ReLU``, ``nn.LeakyReLU``, ``nn.GELU``, ``nn.SiLU``, ``nn.Softplus``, ``nn.ELU``,
``nn.SELU``, ``nn.Tanh``, ``nn.Sigmoid``, ``nn.Softmax``, ``nn.LogSoftmax``, ``nn.Hardtanh``, ``nn.ReLU6``,
``nn.LogSigmoid``, ``nn.Mish``, ``nn.Softmin``, ``nn.Softsign``, ``nn.Tanhshrink``, ``nn.Threshold``, ``nn.GLU``,
``nn.Hardsigmoid``, ``nn.Hardswish``, ``nn.PReLU``.

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


from ...autograd.factories import empty
from ...autograd.tensor import Tensor
from ...devices import check_cpu
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["ReLU", "LeakyReLU", "GELU", "SiLU", "Softplus", "ELU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax",
           "Hardtanh", "ReLU6", "LogSigmoid", "SELU", "Mish", "Softmin", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink", "Threshold", "GLU",
           "Hardsigmoid", "Hardswish", "PReLU"]


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


class Softmin(Softmax):
    """softmax(-x) along ``dim``: F.softmin."""

    def forward(self, input: Tensor) -> Tensor:
        return F.softmin(input, self.dim, _stacklevel=5)


class Softsign(Module):
    """x / (1 + |x|): F.softsign."""

    def forward(self, input: Tensor) -> Tensor:
        return F.softsign(input)


class Softshrink(Module):
    """x - lambd above lambd, x + lambd below -lambd, 0 between: F.softshrink.

    >>> import autograd_tutor as torch
    >>> torch.nn.Softshrink(0.25)
    Softshrink(0.25)
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        return F.softshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return str(self.lambd)


class Hardshrink(Softshrink):
    """x where |x| > lambd, else 0: F.hardshrink."""

    def forward(self, input: Tensor) -> Tensor:
        return F.hardshrink(input, self.lambd)


class Tanhshrink(Module):
    """x - tanh(x): F.tanhshrink."""

    def forward(self, input: Tensor) -> Tensor:
        return F.tanhshrink(input)


class Threshold(Module):
    """``value`` where x <= threshold, else x: F.threshold.

    >>> import autograd_tutor as torch
    >>> torch.nn.Threshold(0.1, 20)
    Threshold(threshold=0.1, value=20)
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class GLU(Module):
    """a * sigmoid(b) over the two halves of ``dim``: F.glu."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Hardsigmoid(Module):
    """min(max(x + 3, 0), 6) / 6: F.hardsigmoid."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Hardsigmoid):
    """x * hardsigmoid(x): F.hardswish."""

    def forward(self, input: Tensor) -> Tensor:
        return F.hardswish(input, self.inplace)


class PReLU(Module):
    """x where x > 0, else a * x, with the slope ``a`` learned: one for all channels (``num_parameters=1``) or
    one per channel, all starting at ``init``: F.prelu.

    >>> import autograd_tutor as torch
    >>> torch.nn.PReLU(3), torch.nn.PReLU().weight
    (PReLU(num_parameters=3), Parameter containing:
    tensor([0.2500], requires_grad=True))
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None) -> None:
        check_cpu(device)
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"
