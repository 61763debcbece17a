"""Samplers: the order in which a ``DataLoader`` visits a dataset's indices, and how it groups them.

``RandomSampler`` shuffles as torch does, so a seeded loop sees torch's batches: unless given a generator, it
draws a seed from the default one (``torch.empty((), dtype=torch.int64).random_()``), seeds a fresh
``Generator`` with it and takes ``torch.randperm(n, generator=...)``: a new order each epoch.

>>> import autograd_tutor as torch
>>> from autograd_tutor.utils.data import BatchSampler, RandomSampler
>>> list(BatchSampler(range(5), batch_size=2, drop_last=False))
[[0, 1], [2, 3], [4]]
>>> list(RandomSampler(range(5), generator=torch.Generator().manual_seed(0)))
[4, 0, 1, 3, 2]
"""
from __future__ import annotations

import itertools

import numpy as np

from ...autograd.factories import as_tensor, randint, randperm
from ...autograd.dtypes import float64
from ...autograd.random import Generator, default_generator

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler"]


class Sampler:
    """Base class: a sampler is an iterable of indices (or of lists of them), usually with a ``len``."""
    __module__ = "torch.utils.data.sampler"

    def __init__(self, data_source=None) -> None:
        pass


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``."""
    __module__ = "torch.utils.data.sampler"

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order of the indices (a new permutation per pass), or ``num_samples`` draws with replacement."""
    __module__ = "torch.utils.data.sampler"

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None,
                 generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:  # torch's way: a fresh generator, seeded from the default one
            generator = Generator().manual_seed(int(default_generator.random(1, np.int64)[0]))
        if self.replacement:  # in draws of 32, as torch draws them
            for size in [32] * (self.num_samples // 32) + [self.num_samples % 32]:
                yield from randint(0, n, (size,), generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from randperm(n, generator=generator).tolist()
            yield from randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in a random order, a new one per pass (``torch.randperm`` of their count, from
    ``generator`` or else the default generator): e.g. a validation split of one dataset.

    >>> import autograd_tutor as torch
    >>> list(SubsetRandomSampler([10, 20, 30], generator=torch.Generator().manual_seed(0)))
    [30, 10, 20]
    """
    __module__ = "torch.utils.data.sampler"

    def __init__(self, indices, generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probability proportional to ``weights`` (``torch.multinomial``, with
    replacement by default): e.g. to draw a rare class as often as a common one.

    >>> import autograd_tutor as torch
    >>> list(WeightedRandomSampler([0.0, 1.0], 3))
    [1, 1, 1]
    """
    __module__ = "torch.utils.data.sampler"

    def __init__(self, weights, num_samples: int, replacement: bool = True, generator=None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights = as_tensor(weights, dtype=float64)
        if len(weights.shape) != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape {tuple(weights.shape)}")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        yield from self.weights.multinomial(self.num_samples, self.replacement, generator=self.generator).tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Group another sampler's indices into lists of ``batch_size`` (the last one shorter, or dropped)."""
    __module__ = "torch.utils.data.sampler"

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        indices = iter(self.sampler)
        batch = list(itertools.islice(indices, self.batch_size))
        while batch and (len(batch) == self.batch_size or not self.drop_last):
            yield batch
            batch = list(itertools.islice(indices, self.batch_size))

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
