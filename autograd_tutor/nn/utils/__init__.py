"""``torch.nn.utils``: clip gradients between ``backward()`` and ``optimizer.step()``; flatten parameters into one
vector and back.

``clip_grad_norm_`` scales all gradients together so that their joint norm is at most ``max_norm`` and returns
the norm they had; ``clip_grad_value_`` clamps each gradient entry into ``[-clip_value, clip_value]``.

>>> import autograd_tutor as torch
>>> w = torch.tensor([3.0, 4.0], requires_grad=True)
>>> (w * w).sum().backward()          # grad = 2w = [6, 8], norm 10
>>> torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)
tensor(10.)
>>> w.grad                            # [6, 8] * 1 / (10 + 1e-6)
tensor([0.6000, 0.8000])
"""
from __future__ import annotations

import types
import warnings

import numpy as np

from ...autograd.tensor import Tensor
from ...ops import cat
from ..modules.module import _typename
from . import rnn

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters"]


def _vector_norm(x: np.ndarray, p: float) -> np.ndarray:
    """``torch.linalg.vector_norm(x, p)`` of all entries, rounded to x's dtype: (sum |x|^p)^(1/p)."""
    a = np.abs(x.astype(np.float64)).ravel()
    if p == float("inf"):
        value = a.max(initial=0.0)
    elif p == float("-inf"):
        value = a.min()
    elif p == 0:
        value = np.count_nonzero(a)
    else:
        value = (a ** p).sum() ** (1 / p)
    return np.asarray(value, dtype=x.dtype)


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """The norm of the norms of ``tensors``: the norm of all their entries taken as one vector."""
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return Tensor._make(np.array(0.0, np.float32))
    norms = np.stack([_vector_norm(t._data, norm_type) for t in tensors])
    total = _vector_norm(norms, norm_type)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                           "so it cannot be clipped. To disable this error and scale the gradients by the "
                           "non-finite norm anyway, set `error_if_nonfinite=False`")
    return Tensor._make(total)


def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor, foreach=None) -> None:
    """Scale every ``.grad`` by ``min(1, max_norm / (total_norm + 1e-6))``."""
    parameters = [parameters] if isinstance(parameters, Tensor) else parameters
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return
    total = total_norm._data
    coef = np.reciprocal(total + total.dtype.type(1e-6)) * total.dtype.type(float(max_norm))
    coef = np.minimum(coef, total.dtype.type(1.0))  # multiplying by 1 changes nothing: torch does it anyway
    for g in grads:
        g._data *= coef.astype(g._data.dtype)
        g._vbox[0] += 1


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach=None) -> Tensor:
    """Rescale the gradients so that their joint ``norm_type``-norm is at most ``max_norm``; return the norm
    before clipping: ``g = g * min(1, max_norm / (||(g_1, g_2, ...)|| + 1e-6))``."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None) -> Tensor:
    """The deprecated name of :func:`clip_grad_norm_`."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient entry in place: ``g = min(max(g, -clip_value), clip_value)``."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    for p in parameters:
        if p.grad is not None:
            g = p.grad._data
            scalar = g.dtype.type
            np.minimum(np.maximum(g, scalar(-clip_value), out=g), scalar(clip_value), out=g)
            p.grad._vbox[0] += 1


def parameters_to_vector(parameters) -> Tensor:
    """All parameters flattened and joined into one vector (``cat`` of ``p.view(-1)``: gradients flow back).

    >>> import autograd_tutor as torch
    >>> layer = torch.nn.Linear(2, 1)
    >>> torch.nn.utils.parameters_to_vector(layer.parameters()).shape    # 2 weights and 1 bias
    torch.Size([3])
    """
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """The inverse: give each parameter (through ``.data``) its slice of ``vec``, in order, shaped like it."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    start = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[start:start + n].view_as(p).data
        start += n
