"""``F.embedding`` and ``F.one_hot``: classes as indices.
"""
from __future__ import annotations


import numpy as np

from ...autograd.dtypes import kind_name
from ...autograd.ops.embedding import EmbeddingBackward0
from ...autograd.tensor import Tensor

__all__ = ["one_hot", "embedding"]


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices as rows of zeros with a 1 at the index: shape (*, num_classes), int64.

    >>> import autograd_tutor as torch
    >>> one_hot(torch.tensor([0, 2]), 3)
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    d = tensor._data
    if d.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if not d.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(d.max()) + 1
    if d.size and d.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if d.size and d.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make((d[..., None] == np.arange(num_classes)).astype(np.int64))


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Look up rows of the table ``weight`` (num_embeddings, embedding_dim) at the integer ``input``: the
    output has shape input.shape + (embedding_dim,), one EmbeddingBackward0. Row ``padding_idx`` gets no
    gradient; with ``max_norm``, the rows looked up are first rescaled in place to norm at most ``max_norm``.

    >>> import autograd_tutor as torch
    >>> embedding(torch.tensor([2, 0, 2]), torch.tensor([[0., 1.], [2., 3.], [4., 5.]]))
    tensor([[4., 5.],
            [0., 1.],
            [4., 5.]])
    """
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= weight.size(0):
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    idx = input._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{kind_name(idx)}Tensor instead (while checking arguments for "
                           "embedding)")
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if sparse:
        raise NotImplementedError("autograd_tutor has no sparse tensors: call embedding with sparse=False")
    if max_norm is not None:  # torch's embedding_renorm_, without recording: rows longer than max_norm shrink
        rows = np.unique(idx)
        norms = np.linalg.norm(weight._data[rows].astype(np.float64), ord=norm_type, axis=1)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight._data[rows] = (weight._data[rows] * scale[:, None]).astype(weight._data.dtype)
        weight._vbox[0] += 1
    return EmbeddingBackward0.apply(weight, indices=input, padding_idx=padding_idx,
                                    scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)
