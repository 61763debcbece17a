"""Datasets: anything with ``len(ds)`` and ``ds[i]``; ``TensorDataset`` pairs tensors row by row, ``Subset`` and
``random_split`` pick some of the rows.

>>> import autograd_tutor as torch
>>> from autograd_tutor.utils.data import TensorDataset, random_split
>>> ds = TensorDataset(torch.tensor([[1., 2.], [3., 4.], [5., 6.]]), torch.tensor([0, 1, 0]))
>>> ds[1]
(tensor([3., 4.]), tensor(1))
>>> train, test = random_split(ds, [2, 1], generator=torch.Generator().manual_seed(0))
>>> train.indices, test.indices
([2, 0], [1])
"""
from __future__ import annotations

import bisect
import itertools
import math
import warnings

from ...autograd.factories import randperm
from ...autograd.random import default_generator

__all__ = ["Dataset", "TensorDataset", "Subset", "ConcatDataset", "random_split"]


class Dataset:
    """Base class of map-style datasets: subclasses define ``__getitem__`` (and usually ``__len__``)."""
    __module__ = "torch.utils.data.dataset"

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Sample ``i`` is ``(t[i] for t in tensors)``: the tensors must agree in their first dimension."""
    __module__ = "torch.utils.data.dataset"

    def __init__(self, *tensors) -> None:
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), "Size mismatch between tensors"
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order: ``Subset(ds, [4, 0])[1] is ds[0]``."""
    __module__ = "torch.utils.data.dataset"

    def __init__(self, dataset, indices) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after the other: index ``i`` falls in the first dataset whose running total of
    lengths (``cumulative_sizes``) exceeds it.

    >>> ds = ConcatDataset([range(3), range(10, 12)])
    >>> len(ds), ds[3], ds[-1], ds.cumulative_sizes
    (5, 10, 11, [3, 5])
    """
    __module__ = "torch.utils.data.dataset"

    @staticmethod
    def cumsum(sequence) -> list:
        return list(itertools.accumulate(len(e) for e in sequence))

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        return self.datasets[which][idx - (self.cumulative_sizes[which - 1] if which else 0)]


def _lengths_of(fractions, n: int) -> list:
    """Fractions summing to 1 as lengths: ``floor(f * n)`` each, then the remainder one by one, round-robin."""
    lengths = []
    for i, frac in enumerate(fractions):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(math.floor(n * frac))
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                          UserWarning, stacklevel=3)
    return lengths


def random_split(dataset, lengths, generator=default_generator) -> list:
    """Split ``dataset`` into non-overlapping :class:`Subset` s of the given lengths (or fractions summing to 1):
    one ``randperm`` of all the indices, cut in consecutive pieces, as torch cuts it."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_of(lengths, len(dataset))
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[end - length:end]) for end, length in zip(itertools.accumulate(lengths), lengths)]
