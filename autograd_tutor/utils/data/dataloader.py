"""``DataLoader``: a dataset served in (shuffled) mini-batches.

Each pass (``iter(loader)``, one epoch) first draws one int64 from the loader's generator (torch's seed for
its worker processes: drawn here too, so that the random numbers after it stay torch's), then asks the batch
sampler for lists of indices, fetches ``dataset[i]`` for each and collates them into a batch. Batches load in
this process, one after another; ``num_workers`` is accepted and changes nothing in what comes out.

>>> import autograd_tutor as torch
>>> from autograd_tutor.utils.data import DataLoader
>>> _ = torch.manual_seed(0)
>>> loader = DataLoader(torch.arange(10.), batch_size=4, shuffle=True)
>>> len(loader), [batch.tolist() for batch in loader]
(3, [[6.0, 7.0, 1.0, 4.0], [2.0, 0.0, 9.0, 8.0], [3.0, 5.0]])
"""
from __future__ import annotations

import warnings

import numpy as np

from ...autograd.random import default_generator
from .collate import default_collate, default_convert
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader"]


class DataLoader:
    """Iterate over ``dataset`` in batches of ``batch_size`` (``None``: sample by sample, uncollated), in a new
    random order each epoch when ``shuffle``; ``drop_last`` drops a last, shorter batch."""
    __module__ = "torch.utils.data.dataloader"

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None, sampler=None,
                 batch_sampler=None, num_workers: int = 0, collate_fn=None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn=None, multiprocessing_context=None,
                 generator=None, *, prefetch_factor: int | None = None, persistent_workers: bool = False) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.generator = generator
        if collate_fn is None:  # batches are collated, single samples (batch_size=None) converted
            collate_fn = default_collate if batch_sampler else default_convert
        self.collate_fn = collate_fn

    @property
    def _index_sampler(self):
        """What one step of the loop asks for: a list of indices (with batches) or one index (without)."""
        return self.batch_sampler if self.batch_sampler is not None else self.sampler

    def __iter__(self):
        return _SingleProcessDataLoaderIter(self)

    def __len__(self) -> int:
        return len(self._index_sampler)


class _SingleProcessDataLoaderIter:
    """One pass over a loader: the batches of one epoch."""
    __module__ = "torch.utils.data.dataloader"

    def __init__(self, loader: DataLoader) -> None:
        self._loader = loader
        if loader.pin_memory:  # there is no GPU to pin memory for
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.", UserWarning, stacklevel=2)
        self._indices = iter(loader._index_sampler)  # lazy: a RandomSampler draws its seed at the first batch
        self._base_seed = int((loader.generator or default_generator).random(1, np.int64)[0])

    def __iter__(self):
        return self

    def __next__(self):
        loader = self._loader
        index = next(self._indices)
        if loader.batch_sampler is None:
            return loader.collate_fn(loader.dataset[index])
        return loader.collate_fn([loader.dataset[i] for i in index])

    def __len__(self) -> int:
        return len(self._loader)
