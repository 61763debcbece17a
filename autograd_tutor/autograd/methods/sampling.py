"""Tensor methods that draw random numbers: ``bernoulli``, ``uniform_``, ``normal_``, ``random_``, ``exponential_``,
``multinomial``.

>>> import autograd_tutor as torch
>>> _ = torch.manual_seed(0)
>>> torch.multinomial(torch.tensor([0.1, 0.6, 0.3]), 4, replacement=True)
tensor([2, 2, 1, 2])
"""
from __future__ import annotations

import numpy as np

from .. import grad_mode, random
from ..dtypes import kind_name
from ..ops.arithmetic import NotImplementedNode
from ..ops.sampling import (BernoulliBackward0, BernoulliBackward1, BernoulliBackward2, ExponentialBackward0,
                            NormalBackward0, RandomBackward0, RandomBackward1, RandomBackward2, UniformBackward0)
from ..tensor import Tensor

# Tensor methods written as functions (they call one another); the class below holds the others
__all__ = ["exponential_", "multinomial"]


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


class SamplingMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def bernoulli(self, p=None, *, generator=None):
        """1 with probability self (or ``p``, one number for every entry), else 0, in self's dtype: torch's
        draws after the same ``manual_seed``. Recorded as torch does: BernoulliBackward0 (a zero gradient)
        for probabilities from self, a node without a derivative for a given ``p``."""
        d = self._data
        gen = generator or random.default_generator
        record = grad_mode._grad_enabled[0] and self._requires_grad
        if p is None:
            if d.dtype.kind != "f":
                raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{kind_name(d)}'")
            if d.size and not ((d >= 0) & (d <= 1)).all():
                raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                                   "message be improved?  If so, please report an enhancement request to PyTorch.)")
            values = gen.bernoulli(d).astype(d.dtype)
            return BernoulliBackward0.apply(self, values=values) if record else Tensor._make(values)
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        values = gen.bernoulli(np.broadcast_to(float(p), d.shape)).astype(d.dtype)
        return NotImplementedNode.apply(self, values=values, op="bernoulli") if record else Tensor._make(values)

    def uniform_(self, from_=0.0, to=1.0, *, generator=None):
        """Fill with samples of U(from_, to), in place: torch's numbers after the same ``manual_seed``."""
        return self._random_(lambda gen, n, dtype: gen.uniform(n, dtype, from_, to), UniformBackward0,
                             "check_uniform_bounds", generator)

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        """Fill with samples of N(mean, std**2), in place: torch's numbers after the same ``manual_seed``."""
        return self._random_(lambda gen, n, dtype: gen.normal(n, dtype, mean, std), NormalBackward0,
                             "normal_kernel_cpu", generator)

    def random_(self, from_=None, to=None, *, generator=None):
        """Fill with random integers, in place: ``random_(from_, to)`` in ``[from_, to)``, ``random_(to)`` in
        ``[0, to)``, ``random_()`` from 0 to the largest integer the dtype holds exactly: torch's numbers."""
        self._check_inplace()
        gen, d = generator or random.default_generator, self._data
        if from_ is None and to is None:
            values, fn = gen.random(d.size, d.dtype), RandomBackward2
        else:
            (low, high), fn = ((0, from_ if to is None else to), RandomBackward1) if from_ is None or to is None \
                else ((from_, to), RandomBackward0)
            values = gen.integers(d.size, low, high).astype(d.dtype)
        return self._inplace(lambda s: fn.apply(s, values=values.reshape(d.shape)))

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill with 1 (probability ``p``, a number or a tensor of them) or 0, in place: torch's draws."""
        self._check_inplace()
        probs, fn = (p._data, BernoulliBackward1) if isinstance(p, Tensor) else (float(p), BernoulliBackward2)
        probs = np.broadcast_to(probs, self._data.shape)
        values = (generator or random.default_generator).bernoulli(probs).astype(self._data.dtype)
        return self._inplace(lambda s: fn.apply(s, values=values))

    def _random_(self, draw, fn, kernel: str, generator):
        d = self._data
        if d.dtype.kind != "f":
            raise NotImplementedError(f'"{kernel}" not implemented for \'{kind_name(d)}\'')
        self._check_inplace()
        values = draw(generator or random.default_generator, d.size, d.dtype).reshape(d.shape)
        return self._inplace(lambda s: fn.apply(s, values=values))

