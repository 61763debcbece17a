"""``torch.autograd.gradcheck``: compare the gradients backward computes with central differences.

For each input x that requires grad and each of its elements x_k, the numerical column of the Jacobian is
(f(x + eps e_k) - f(x - eps e_k)) / (2 eps); the analytical rows come from ``autograd.grad`` with a one-hot
``grad_outputs``. They must agree within ``atol + rtol * |numerical|``. Use float64 inputs: in float32 the
difference quotient loses about half of the digits (torch warns, and so do we).

>>> import autograd_tutor as torch
>>> x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
>>> torch.autograd.gradcheck(lambda a: (a * a.sin()).sum(), (x,))
True
"""
from __future__ import annotations

import warnings

import numpy as np

from .engine import grad as _grad
from .tensor import Tensor

__all__ = ["gradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by :func:`gradcheck` when the analytical gradients disagree with the numerical ones."""


GradcheckError.__module__ = "torch.autograd.gradcheck"  # the name torch's traceback and repr show


def _as_tuple(x) -> tuple:
    return x if isinstance(x, tuple) else tuple(x) if isinstance(x, list) else (x,)


def _check_inputs(inputs: tuple) -> list:
    """The inputs that require grad; torch's warning for those that are not float64, its error if there are none."""
    wanted = []
    for i, t in enumerate(inputs):
        if isinstance(t, Tensor) and t.requires_grad:
            if t._data.dtype != np.float64:
                warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ", UserWarning, stacklevel=3)
            wanted.append(t)
    if not wanted:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")
    return wanted


def _numerical(func, inputs: tuple, x: Tensor, eps: float) -> list:
    """For each output of ``func``: the central-difference Jacobian with respect to ``x``, (x.numel(), out.numel()).

    x's elements are moved in place (its array, bypassing autograd and the version counter) and put back."""
    d = x._data
    columns = []
    for k in np.ndindex(d.shape):
        orig = d[k]
        d[k] = orig - d.dtype.type(eps)
        before = [o.detach()._data.reshape(-1).copy() for o in _as_tuple(func(*inputs))]
        d[k] = orig + d.dtype.type(eps)
        after = [o.detach()._data.reshape(-1).copy() for o in _as_tuple(func(*inputs))]
        d[k] = orig
        columns.append([(b - a) / (2 * eps) for a, b in zip(before, after)])
    outs = len(columns[0]) if columns else 0
    return [np.stack([c[j] for c in columns]) if columns else np.zeros((0, 0), d.dtype) for j in range(outs)]


def _analytical(output: Tensor, wanted: list) -> list:
    """The Jacobian of one output with respect to each input, (input.numel(), output.numel()): column j is the
    gradient that a one-hot ``grad_outputs`` at element j sends back."""
    jac = [np.zeros((t._data.size, output._data.size), t._data.dtype) for t in wanted]
    for j in range(output._data.size):
        onehot = np.zeros(output._data.size, output._data.dtype)
        onehot[j] = 1
        grads = _grad(output, wanted, Tensor._make(onehot.reshape(output._data.shape)), retain_graph=True,
                      allow_unused=True)
        for col, g in zip(jac, grads):
            if g is not None:
                col[:, j] = g._data.reshape(-1)
    return jac


def _check(func, inputs: tuple, wanted: list, eps: float, atol: float, rtol: float) -> None:
    func_out = _as_tuple(func(*inputs))
    outputs = [o for o in func_out if o.requires_grad]
    numerical = [_numerical(func, inputs, x, eps) for x in wanted]  # [input][output]
    if not outputs:
        if any(np.any(n != 0) for per_input in numerical for n in per_input):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    diff_index = [i for i, o in enumerate(func_out) if o.requires_grad]
    for i, (o, k) in enumerate(zip(outputs, diff_index)):
        for j, a in enumerate(_analytical(o, wanted)):
            n = numerical[j][k]
            if not np.allclose(a, n, rtol, atol):
                raise GradcheckError(f"Jacobian mismatch for output {i:d} with respect to input {j:d},\n"
                                     f"numerical:{Tensor._make(n)}\nanalytical:{Tensor._make(a)}\n")
    zeros = [Tensor._make(np.zeros_like(o._data)) for o in outputs]
    for g, x in zip(_grad(outputs, wanted, zeros, allow_unused=True), wanted):
        if g is not None and np.any(g._data != 0):
            raise GradcheckError("backward not multiplied by grad_output")


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True, **options) -> bool:
    """True if backward's gradients of ``func`` at ``inputs`` match central differences; else a
    :class:`GradcheckError` (or False with ``raise_exception=False``). torch's other options are accepted and
    do not change the check (it always runs the slow mode: the full Jacobians)."""
    inputs = _as_tuple(inputs)
    wanted = _check_inputs(inputs)
    try:
        _check(func, inputs, wanted, eps, atol, rtol)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True
