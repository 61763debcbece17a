"""``torch.autograd.functional``: whole derivatives of a function at a point, built on ``autograd.grad``.

* ``vjp(f, x, v)``: the vector-Jacobian product v^T J, one backward pass (what ``backward(v)`` computes).
* ``jacobian(f, x)``: J[i, j] = d f_i / d x_j, one backward pass per output element (row by row).
* ``hessian(f, x)``: the Jacobian of the gradient of a scalar f: H[i, j] = d^2 f / dx_i dx_j, through
  ``create_graph=True``.

Each works on copies of the inputs (detached, requiring grad), so your tensors' ``.grad`` stay untouched, and
returns what torch returns: a tensor for one input and one output, tuples for tuples (outputs first, then inputs).

>>> import autograd_tutor as torch
>>> from autograd_tutor.autograd.functional import jacobian, hessian
>>> jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
tensor([[2., 0.],
        [0., 4.]])
>>> hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]))
tensor([[ 6.,  0.],
        [ 0., 12.]])
"""
from __future__ import annotations

import numpy as np

from . import grad_mode
from .engine import grad as _grad
from .ops.shape import StackBackward0
from .tensor import Tensor

__all__ = ["vjp", "jacobian", "hessian"]


def _as_tuple(inp, arg_name: str, fn_name: str) -> tuple:
    """``(was_a_tuple, inputs as a tuple)``, with torch's TypeError for anything but tensors."""
    is_tuple = isinstance(inp, tuple)
    if not is_tuple:
        inp = (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            where = f"the value at index {i}" if is_tuple else f"the given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"{where} has type {type(el)}.")
    return is_tuple, inp


def _unpack(res, to_unpack):
    """Undo the tupling: a single output and/or a single input is returned without its tuple."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _prepare(inputs: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """New tensor objects to differentiate with respect to: a view (still in the graph) when create_graph
    should let gradients reach the caller's tensors, else a detached copy that requires grad."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph)
                 for t in inputs)


def _finish(res, create_graph: bool):
    """Detach the results unless the caller asked for their graph."""
    if isinstance(res[0], Tensor):
        return res if create_graph else tuple(t.detach() for t in res)
    return tuple(_finish(r, create_graph) for r in res)


def _check_outputs(outputs: tuple, strict: bool) -> None:
    if strict:
        for i, out in enumerate(outputs):
            if not out.requires_grad:
                raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                                   "must be computed in a differentiable manner from the input when running in strict "
                                   "mode.")


def _grads(outputs: tuple, inputs: tuple, grad_outputs=None, create_graph=False) -> tuple:
    """``autograd.grad`` over the outputs that require grad (None for every input if none does)."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return _grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=True, create_graph=create_graph,
                 allow_unused=True)


def _zeros_like(t: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(t._data))


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: the outputs and the vector-Jacobian product, for one backward pass.

    >>> import autograd_tutor as torch
    >>> vjp(lambda x: x ** 2, torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    (tensor([1., 4.]), tensor([2., 4.]))
    """
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_outputs(outputs, strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _prepare(v, create_graph, False)
            if len(v) != len(outputs):
                raise RuntimeError(f"v is a tuple of invalid length: should be {len(outputs)} but got {len(v)}."
                                   if is_outputs_tuple else "The given v should contain a single Tensor.")
            for i, (el_v, out) in enumerate(zip(v, outputs)):
                if el_v.size() != out.size():
                    prefix = f"Entry {i} in " if is_outputs_tuple else ""
                    raise RuntimeError(f"{prefix}v has invalid size: should be {out.size()} but got {el_v.size()}.")
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function returns a single Tensor "
                               "with a single element.")
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        grads = _grads(outputs, inputs, v, create_graph)
        result = []
        for i, (g, inp) in enumerate(zip(grads, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This "
                                       "is not allowed in strict mode.")
                g = _zeros_like(inp)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. This is "
                                   "not allowed in strict mode when create_graph=True.")
            result.append(g)
    return (_unpack(_finish(outputs, create_graph), is_outputs_tuple),
            _unpack(_finish(tuple(result), create_graph), is_inputs_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: for an output of shape S and an input of shape T, a tensor of
    shape S + T; one row per output element, each from one ``autograd.grad`` call.

    >>> import autograd_tutor as torch
    >>> jacobian(lambda a, b: a * b, (torch.tensor([1., 2.]), torch.tensor(3.)))
    (tensor([[3., 0.],
            [0., 3.]]), tensor([1., 2.]))
    """
    if strategy != "reverse-mode" or vectorize:
        raise NotImplementedError("autograd_tutor's jacobian computes in reverse mode, row by row: "
                                  "use strategy='reverse-mode' and vectorize=False")
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_outputs(outputs, strict)
        jac = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]  # rows[k][j]: d out[j] / d inputs[k]
            flat = out.reshape(-1)
            for j in range(out.nelement()):
                for k, (g, inp) in enumerate(zip(_grads((flat[j],), inputs, create_graph=create_graph), inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of input "
                                               f"{k}. This is not allowed in strict mode.")
                        g = _zeros_like(inp)
                    elif strict and create_graph and not g.requires_grad:
                        raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. "
                                           "This is not allowed in strict mode when create_graph=True.")
                    rows[k].append(g)
            jac.append(tuple(StackBackward0.apply(*r, dim=0).view(*out.shape, *inp.shape)
                             for r, inp in zip(rows, inputs)))
        return _unpack(_finish(tuple(jac), create_graph), (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The matrix of second derivatives of a scalar function: the Jacobian of its gradient. For several inputs,
    a tuple of tuples: ``H[i][j] = d^2 f / d inputs[i] d inputs[j]``.

    >>> import autograd_tutor as torch
    >>> hessian(lambda x, y: (x * x * y).sum(), (torch.tensor([1.]), torch.tensor([3.])))
    ((tensor([[6.]]), tensor([[2.]])), (tensor([[2.]]), tensor([[0.]])))
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def scalar_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_outputs(t_out, strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def gradient(*inp):
        jac = jacobian(scalar_function, inp, create_graph=True)
        if strict:
            for i, j in enumerate(_as_tuple(jac, "jacobian", "hessian")[1]):
                if not j.requires_grad:
                    raise RuntimeError(
                        "While computing the hessian, found that the jacobian of the user-provided function with "
                        f"respect to input {i} is independent of the input. This is not allowed in strict mode. You "
                        "should ensure that your function is twice differentiable and that the jacobian depends on "
                        "the inputs (this would be violated by a linear function for example).")
        return jac

    res = jacobian(gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _unpack(res, (is_inputs_tuple, is_inputs_tuple))
