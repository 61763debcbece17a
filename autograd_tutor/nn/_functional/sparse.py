"""``F.embedding`` and ``F.one_hot``: classes as indices.
"""
from __future__ import annotations


import numpy as np

from ...autograd.dtypes import kind_name
from ...autograd.ops.embedding import EmbeddingBackward0, EmbeddingBagBackward0
from ...autograd.tensor import Tensor

__all__ = ["one_hot", "embedding", "embedding_bag"]


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


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None, max_norm: float | None = None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """The sum, mean or max of the table's rows over each bag of indices, without the (bags, length, dim) tensor
    in between: a 2-D ``input`` holds one bag per row; a 1-D one is cut into bags where ``offsets`` start them.
    One EmbeddingBagBackward0 (the bag-of-words text classifier's first layer).

    >>> import autograd_tutor as torch
    >>> W = torch.tensor([[1., 0.], [0., 1.], [2., 2.]])
    >>> embedding_bag(torch.tensor([0, 1, 2, 2]), W, torch.tensor([0, 2]), mode="sum")
    tensor([[1., 1.],
            [4., 4.]])
    """
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        bags, length = input.shape
        offsets = Tensor._make(np.arange(0, bags * length, length, dtype=np.int64))
        input = input.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    idx = input._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{kind_name(idx)}Tensor instead (while checking arguments for "
                           "embedding_bag)")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    if per_sample_weights is not None and tuple(per_sample_weights.shape) != tuple(input.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
                         f"then it must have the same shape as the input ({input.shape})")
    if sparse:
        raise NotImplementedError("autograd_tutor has no sparse tensors: call embedding_bag with sparse=False")
    if scale_grad_by_freq:  # torch's CPU kernel scales rows by counts that are not each index's frequency
        raise NotImplementedError("autograd_tutor: embedding_bag with scale_grad_by_freq=True is not supported")
    starts = offsets._data
    if starts.size and starts[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {int(starts[0])}\n[ torch.LongTensor{{}} ]")
    if include_last_offset:
        offsets = Tensor._make(starts[:-1].astype(np.int64))
    for i, v in enumerate(idx.tolist()):
        if not 0 <= v < weight.shape[0]:
            raise RuntimeError(f"Index {i} of input takes value {v} which is not in the valid range "
                               f"[0, {weight.shape[0]})")
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        embedding(input, weight, max_norm=max_norm, norm_type=norm_type)  # its in-place renorm of the rows used
    scales = per_sample_weights
    if scales is None:  # none: an input without an edge, as torch's (None, 0)
        scales = Tensor._make(np.zeros(0, weight._data.dtype))
    return EmbeddingBagBackward0.apply(weight, scales, indices=input, offsets=offsets, mode=mode,
                                       padding_idx=padding_idx, weighted=per_sample_weights is not None)
