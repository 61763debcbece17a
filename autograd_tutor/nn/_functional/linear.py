"""``F.linear``: an affine map, one ``AddmmBackward0`` on a batch as torch records it.

>>> import autograd_tutor as torch
>>> w = torch.tensor([[2., 0.]], requires_grad=True)
>>> y = torch.nn.functional.linear(torch.tensor([[1., 3.]]), w, torch.tensor([1.]))
>>> y, y.grad_fn._saved_mat1, y.grad_fn._saved_mat2   # A is kept to compute dB = A.T @ G; B is not needed
(tensor([[3.]], grad_fn=<AddmmBackward0>), tensor([[1., 3.]]), None)
"""
from __future__ import annotations

from ...autograd.dtypes import CPP_NAMES
from ...autograd.ops.linalg import AddmmBackward0
from ...autograd.profiler import composite
from ...autograd.tensor import Tensor

__all__ = ["linear"]


@composite("aten::linear")  # a range of its own in a profile, around its aten::t and aten::addmm
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x W^T + b, for x of shape (..., in_features) and W of shape (out_features, in_features).

    >>> import autograd_tutor as torch
    >>> linear(torch.tensor([1., 2.]), torch.tensor([[1., 1.], [0., 3.]]), torch.tensor([0.5, 0.]))
    tensor([3.5000, 6.0000])
    """
    dims = input._data.ndim
    if dims == 0 or weight._data.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {dims}D and "
                           f"{weight.dim()}D")
    if bias is None:
        if input._data.dtype != weight._data.dtype:  # (``dtype.name`` is slow in NumPy: read only for the error)
            a, b = input._data.dtype.name, weight._data.dtype.name
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES.get(a, a)} != "
                               f"{CPP_NAMES.get(b, b)}")
        return input.matmul(weight.t())
    if dims == 2:
        return AddmmBackward0.apply(bias, input, weight.t())
    if input.is_contiguous() and (dims == 3 or bias.dim() == 1):  # fold the batch into rows, as torch does
        out = AddmmBackward0.apply(bias, input.view(-1, input.shape[-1]), weight.t())
        return out.view(*input.shape[:-1], out.shape[-1])
    return input.matmul(weight.t()) + bias
