"""Drawing category indices: ``multinomial``, and the ``exponential_`` fill it builds on, with torch's draws
for the same seed (see random.py for how torch turns its words into numbers).

Without replacement (or for one sample) torch uses the Gumbel trick: with ``q`` exponential, the indices of
the largest ``p / q`` are a sample in proportion to ``p``. With replacement, each sample is one float64 uniform
looked up in the row's cumulative sums (divided by their total, the last set to exactly 1).
tensor.py attaches each name in ``__all__`` to Tensor.

>>> import autograd_tutor as torch
>>> _ = torch.manual_seed(0)
>>> torch.multinomial(torch.tensor([0.1, 0.6, 0.3]), 4, replacement=True)
tensor([2, 2, 1, 2])
"""
from __future__ import annotations

import numpy as np

from . import random
from .dtypes import kind_name
from .functions import UniformBackward0
from .tensor import Tensor

__all__ = ["exponential_", "multinomial"]


class ExponentialBackward0(UniformBackward0):
    """``x.exponential_(lambd)``: z = fresh samples, drawn before the call;  dx = 0."""


def exponential_(self, lambd=1.0, *, generator=None):
    """Fill with samples of Exp(lambd) (mean ``1 / lambd``), in place: torch's numbers after the same seed."""
    if self._data.dtype.kind != "f":
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {kind_name(self._data)}")
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    return self._random_(lambda gen, n, dtype: gen.exponential(n, dtype, lambd), ExponentialBackward0, "", generator)


def multinomial(self, num_samples, replacement=False, *, generator=None):
    """``num_samples`` indices per row of ``self`` (weights, not necessarily summing to 1), int64."""
    p = self._data
    if p.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {kind_name(p)}")
    if p.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not replacement and num_samples > p.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    gen = generator or random.default_generator
    rows = p.reshape(-1, p.shape[-1])
    if replacement and num_samples > 1:
        picks = np.stack([_with_replacement(row, num_samples, gen) for row in rows])
    else:
        if not (rows.max() < np.inf and rows.min() >= 0):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (rows.sum(1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        if num_samples > (rows > 0).sum(1).min():
            raise NotImplementedError("autograd_tutor cannot draw zero-probability categories without replacement "
                                      "in torch's order (its topk order for ties); draw fewer samples")
        keys = rows / gen.exponential(rows.size, p.dtype).reshape(rows.shape)
        picks = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    return Tensor._make(picks.reshape(p.shape[:-1] + (num_samples,)).astype(np.int64))


def _with_replacement(row: np.ndarray, n: int, gen) -> np.ndarray:
    """Binary search of ``n`` uniforms in the normalised cumulative sums: the first bucket reaching ``u``."""
    if (row < 0).any():
        raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
    if not np.isfinite(row).all():
        raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)")
    cumulative = np.cumsum(row)
    if not cumulative[-1] > 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    cumulative /= cumulative[-1]
    cumulative[-1] = 1
    return np.searchsorted(cumulative, gen._unit(n, np.float64), side="left")
