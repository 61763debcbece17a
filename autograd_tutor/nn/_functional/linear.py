"""``F.linear``: an affine map, one ``AddmmBackward0`` on a batch as torch records it; ``F.bilinear``.

>>> import autograd_tutor as torch
>>> w = torch.tensor([[2., 0.]], requires_grad=True)
>>> y = torch.nn.functional.linear(torch.tensor([[1., 3.]]), w, torch.tensor([1.]))
>>> y, y.grad_fn._saved_mat1, y.grad_fn._saved_mat2   # A is kept to compute dB = A.T @ G; B is not needed
(tensor([[3.]], grad_fn=<AddmmBackward0>), tensor([[1., 3.]]), None)
"""
from __future__ import annotations

from ...autograd.dtypes import CPP_NAMES
from ...autograd.ops.linalg import AddmmBackward0, TrilinearBackward0
from ...autograd.profiler import composite
from ...autograd.tensor import Tensor

__all__ = ["linear", "bilinear"]


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


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y_o = x1^T W_o x2 + b_o for each output o, x1 of shape (..., in1), x2 (..., in2), W (out, in1, in2):
    as torch builds it, the batch dims flattened into rows (views), one ``TrilinearBackward0``, then + bias.

    >>> import autograd_tutor as torch
    >>> bilinear(torch.tensor([1., 2.]), torch.tensor([3.]), torch.tensor([[[1.], [1.]]]), torch.tensor([0.5]))
    tensor([9.5000])
    """
    tensors = (("input1", input1), ("input2", input2), ("weight", weight)) + ((("bias", bias),) if bias is not None else ())
    if len({t._data.dtype for _, t in tensors}) > 1:
        raise RuntimeError("All tensors must have the same dtype, got " +
                           ", ".join(f"{name}: {CPP_NAMES[t._data.dtype.name]}" for name, t in tensors))
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.shape[i]} "
                               f"and {input2.shape[i]}")
    for name, t, k in (("input1", input1, 1), ("input2", input2, 2)):
        if t.size(-1) != weight.shape[k]:
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got {t.shape[-1]} but expected "
                               f"{weight.shape[k]}")
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but expected "
                           f"{weight.shape[0]}")
    rows1, rows2 = input1.reshape(-1, input1.shape[-1]), input2.reshape(-1, input2.shape[-1])
    out = TrilinearBackward0.apply(rows1, weight, rows2).reshape(*input1.shape[:-1], weight.shape[0])
    return out if bias is None else out + bias
