"""``torch.utils.data``: feed a training loop in shuffled mini-batches.

A *dataset* answers ``len(ds)`` and ``ds[i]``; a *sampler* says in which order to visit the indices; the
``DataLoader`` groups them into batches and *collates* each batch (stacks the samples into one tensor).

>>> import autograd_tutor as torch
>>> from autograd_tutor.utils.data import DataLoader, TensorDataset
>>> ds = TensorDataset(torch.arange(5.), torch.arange(5) * 10)
>>> [y.tolist() for x, y in DataLoader(ds, batch_size=2)]
[[0, 10], [20, 30], [40]]
"""
from .collate import default_collate, default_convert
from .dataloader import DataLoader
from .dataset import ConcatDataset, Dataset, Subset, TensorDataset, random_split
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                      WeightedRandomSampler)

__all__ = ["Dataset", "TensorDataset", "Subset", "ConcatDataset", "random_split", "Sampler", "SequentialSampler",
           "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler", "BatchSampler", "DataLoader",
           "default_collate", "default_convert"]
