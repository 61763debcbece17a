"""torch's CPU random numbers, drawn the way torch draws them, so that a seeded lesson prints torch's numbers.

torch's CPU generator is a Mersenne Twister (MT19937) seeded with the low 32 bits of the seed. NumPy ships
the same bit generator; only the seeding differs, so :class:`Generator` writes torch's starting state into it.
On top of its 32-bit words, torch builds each distribution in a fixed way, copied here:

- ``rand`` (uniform on [0, 1)): float32 takes the low 24 bits of one word, ``u = (w & (2**24 - 1)) / 2**24``;
  float64 takes the low 53 bits of two words joined as ``hi << 32 | lo``.
- ``randn`` with fewer than 16 values (or not float32): Box-Muller in float64 on two uniforms,
  ``r = sqrt(-2 log(1 - u2))``, ``theta = 2 pi u1``; it returns ``r cos(theta)`` and keeps ``r sin(theta)``
  for the next value asked for, even by a later call.
- ``randn`` with 16 values or more: all the uniforms first, then Box-Muller on blocks of 16, pairing value
  ``j`` with value ``j + 8``; a last partial block is redrawn as 16 fresh values ending at the end.
- ``randint``: ``low + w % (high - low)``, with two words when the range is ``2**28`` or more.
- ``randperm``: a Fisher-Yates shuffle, swapping ``i`` with ``i + w % (n - i)``.

>>> import autograd_tutor as torch
>>> _ = torch.manual_seed(0)
>>> torch.rand(2)
tensor([0.4963, 0.7682])
>>> torch.randn(3)
tensor([-0.2905, -1.0704,  1.2645])
"""
from __future__ import annotations

import math
import random as _os_random

import numpy as np

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed"]

#: The seed of ``torch.Generator()`` (the default generator itself starts from a random seed, as in torch).
GENERATOR_SEED = 67280421310721
_TWO_PI_32 = np.float32(2.0 * math.pi)


def _mt_key(seed: int) -> np.ndarray:
    """The 624 words MT19937 starts from for a 32-bit seed (``init_genrand``, as C++ and torch seed it)."""
    key = [seed & 0xFFFFFFFF]
    for i in range(1, 624):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


class Generator:
    """A random number generator: ``torch.Generator()``, or the default one that ``torch.manual_seed`` seeds.

    >>> g = Generator().manual_seed(0)
    >>> g.initial_seed()
    0
    """

    def __init__(self, device: str = "cpu") -> None:
        if str(device) != "cpu":
            raise RuntimeError(f"autograd_tutor has only the CPU generator, not {device!r}")
        self.device = "cpu"
        self._bits = np.random.MT19937()
        self.manual_seed(GENERATOR_SEED)

    def manual_seed(self, seed) -> "Generator":
        """Restart the generator from ``seed`` (any int; as in torch, only its low 32 bits seed the twister)."""
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 64:
            raise RuntimeError(f"Overflow when unpacking long long")
        self._seed = seed % 2 ** 64
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": _mt_key(self._seed), "pos": 624}}
        self._next_normal = None  # the second value of a Box-Muller pair, kept for the next scalar draw
        return self

    def seed(self) -> int:
        """Seed from the operating system's randomness and return the seed chosen."""
        chosen = _os_random.SystemRandom().getrandbits(63)
        self.manual_seed(chosen)
        return chosen

    def initial_seed(self) -> int:
        return self._seed

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {id(self):#x}>"

    # ------------------------------------------------------------------------------ words
    def _words(self, n: int) -> np.ndarray:
        """``n`` 32-bit words (as uint64)."""
        return self._bits.random_raw(n)

    def _longs(self, n: int) -> np.ndarray:
        """``n`` 64-bit words, each made of two 32-bit ones as ``hi << 32 | lo``."""
        w = self._words(2 * n)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    def _unit(self, n: int, dtype) -> np.ndarray:
        """``n`` uniforms on [0, 1) in float64: 24 random bits for a float32 result, 53 for float64."""
        if dtype == np.float32:
            return (self._words(n) & np.uint64(0xFFFFFF)).astype(np.float64) * 2.0 ** -24
        return (self._longs(n) & np.uint64(2 ** 53 - 1)).astype(np.float64) * 2.0 ** -53

    # ------------------------------------------------------------------------------ distributions
    def uniform(self, n: int, dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        """U(low, high): ``u * (high - low) + low``, the bounds first rounded to ``dtype`` as torch does."""
        dtype = np.dtype(dtype)
        lo, hi = dtype.type(low), dtype.type(high)
        return (self._unit(n, dtype) * np.float64(hi - lo) + np.float64(lo)).astype(dtype)

    def normal(self, n: int, dtype, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        """N(mean, std**2) by Box-Muller: in blocks of 16 for 16 or more float values, else pair by pair."""
        dtype = np.dtype(dtype)
        if n >= 16:
            return self._normal_blocks(n, dtype, mean, std)
        return (self._normal_pairs(n) * std + mean).astype(dtype)

    def _normal_pairs(self, n: int) -> np.ndarray:
        """torch's ``normal_distribution<double>``: each pair of uniforms gives two values; the second waits."""
        out = []
        if n and self._next_normal is not None:
            out.append(self._next_normal)
            self._next_normal = None
        pairs = (n - len(out) + 1) // 2
        if pairs:
            u = self._unit(2 * pairs, np.float64)
            u1, u2 = u[0::2], u[1::2]
            r = np.sqrt(-2.0 * np.log1p(-u2))
            theta = 2.0 * np.pi * u1
            values = np.empty(2 * pairs)
            values[0::2], values[1::2] = r * np.cos(theta), r * np.sin(theta)
            if (n - len(out)) % 2:
                self._next_normal = float(values[-1])
                values = values[:-1]
            out.extend(values.tolist())
        return np.array(out, dtype=np.float64)

    def _normal_blocks(self, n: int, dtype, mean: float, std: float) -> np.ndarray:
        """torch's ``normal_fill``: uniforms for every value, then Box-Muller on each block of 16."""
        data = self._unit(n, dtype).astype(dtype)
        whole = n - n % 16
        data[:whole] = _box_muller_16(data[:whole], mean, std)
        if n % 16:  # torch draws 16 new uniforms for the last 16 places
            data[n - 16:] = _box_muller_16(self._unit(16, dtype).astype(dtype), mean, std)
        return data

    def integers(self, n: int, low: int, high: int) -> np.ndarray:
        """``low + w % (high - low)`` as int64, one 32-bit word each (two when the range reaches 2**28)."""
        span = high - low
        words = self._longs(n) if span >= 2 ** 28 else self._words(n)
        return (words % np.uint64(span)).astype(np.int64) + low

    def permutation(self, n: int) -> np.ndarray:
        """``randperm``: Fisher-Yates, position ``i`` swapped with ``i + w % (n - i)``."""
        perm = list(range(n))
        for i, w in enumerate(self._words(max(n - 1, 0)).tolist()):
            j = i + w % (n - i)
            perm[i], perm[j] = perm[j], perm[i]
        return np.array(perm, dtype=np.int64)


def _box_muller_16(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Box-Muller on blocks of 16 uniforms in their own dtype: value ``j`` and ``j + 8`` of each block give
    ``r cos(theta)`` and ``r sin(theta)`` with ``r = sqrt(-2 log(1 - u_j))``, ``theta = 2 pi u_(j+8)``."""
    dtype = u.dtype
    blocks = u.reshape(-1, 2, 8)
    u1, u2 = 1 - blocks[:, 0], blocks[:, 1]
    if dtype == np.float32:  # float32 arithmetic as torch's AVX2 kernel; log, cos, sin rounded from float64
        radius = np.sqrt(np.float32(-2) * np.log(u1.astype(np.float64)).astype(np.float32))
        theta = (_TWO_PI_32 * u2).astype(np.float64)
    else:
        radius = np.sqrt(-2 * np.log(u1))
        theta = 2.0 * math.pi * u2
    out = np.empty_like(blocks)
    out[:, 0] = radius * np.cos(theta).astype(dtype)
    out[:, 1] = radius * np.sin(theta).astype(dtype)
    if std != 1 or mean != 0:
        out = (out.astype(np.float64) * std + mean).astype(dtype)
    return out.reshape(-1)


#: The generator behind ``rand``, ``randn``, ``randint``, ``randperm`` and ``nn.init`` unless one is passed.
default_generator = Generator()
default_generator.seed()


def manual_seed(seed) -> Generator:
    """Seed the default generator: after ``torch.manual_seed(0)`` the draws are torch's own."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator from the operating system's randomness; return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator started from."""
    return default_generator.initial_seed()
