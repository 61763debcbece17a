"""``default_collate``: turn a list of samples into one batch, keeping the samples' structure
(``default_convert``: one sample, without batching).

Tensors are stacked along a new first dim; Python floats become a float64 tensor, ints an int64 tensor, NumPy
arrays tensors; strings stay as they are (a list or tuple of them); a dict, tuple or list is collated field by
field (a tuple of fields comes back as a list, as in torch).

>>> import autograd_tutor as torch
>>> from autograd_tutor.utils.data import default_collate
>>> default_collate([(torch.tensor([1., 2.]), 0), (torch.tensor([3., 4.]), 1)])
[tensor([[1., 2.],
        [3., 4.]]), tensor([0, 1])]
>>> default_collate([{"x": 0.5, "name": "a"}, {"x": 1.5, "name": "b"}])
{'x': tensor([0.5000, 1.5000], dtype=torch.float64), 'name': ['a', 'b']}
"""
from __future__ import annotations

import collections.abc
import copy

import numpy as np

from ...autograd.dtypes import float64
from ...autograd.factories import as_tensor, tensor
from ...autograd.tensor import Tensor
from ...ops import stack

__all__ = ["default_collate", "default_convert"]

ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def default_collate(batch):
    """One batch from a list of samples that all have the structure of ``batch[0]``."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "SaUO":  # arrays of strings or objects
            raise TypeError(ERROR.format(elem.dtype))
        return default_collate([as_tensor(b) for b in batch])
    if isinstance(elem, np.number | np.bool_):
        return as_tensor(np.array(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, str | bytes):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: default_collate([d[key] for d in batch]) for key in elem}
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)
            clone.update(fields)
            return clone
        return _rebuilt(type(elem), fields)
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple stays one
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(samples) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return fields
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            clone[:] = fields
            return clone
        return _rebuilt(type(elem), fields)
    raise TypeError(ERROR.format(type(elem)))


def _rebuilt(kind, fields):
    """``kind(fields)`` when the container type can be rebuilt that way, else the plain ``fields``."""
    try:
        return kind(fields)
    except TypeError:
        return fields


def default_convert(data):
    """What a loader without batching (``batch_size=None``) gives for one sample: NumPy arrays and scalars become
    tensors, a dict or a sequence is converted item by item (a tuple comes back as a list, as in torch), and
    numbers and strings stay as they are.

    >>> default_convert((np.ones(2), 3))
    [tensor([1., 1.], dtype=torch.float64), 3]
    """
    if isinstance(data, (np.ndarray, np.generic)) and data.dtype.kind not in "SUO":
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({key: default_convert(value) for key, value in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a namedtuple stays one
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return [default_convert(d) for d in data]
    return data
