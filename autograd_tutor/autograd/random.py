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
  ``j`` with value ``j + 8``; a last partial block is redrawn as 16 fresh values ending at the end. In float32
  torch computes ``log``, ``sin`` and ``cos`` with its own polynomials, which :func:`_log32` and
  :func:`_sincos32` repeat step by step.
- ``randint``: ``low + w % (high - low)``, with two words when the range is ``2**28`` or more.
- ``randperm``: a Fisher-Yates shuffle, swapping ``i`` with ``i + w % (n - i)``.
- ``random_()`` without bounds: ``w % (M + 1)`` for the dtype's largest value ``M`` (``2**24`` for float32,
  ``2**53`` for float64: every integer they hold exactly), one 64-bit word for int64 and float64, else one
  32-bit word (``DataLoader`` seeds its shuffling with one such int64 draw).
- ``bernoulli`` (and so ``dropout``): a uniform ``u`` per entry, 1 where ``u < p``.
- ``exponential_(lambd)``: a float64 uniform ``u`` per entry (two words, whatever the dtype),
  ``-1 / lambd * log1p(-u)``, then rounded to the dtype.

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

from .fma import fma

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
            raise RuntimeError("Overflow when unpacking long long")
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

    def _snapshot(self) -> tuple:
        """Where the generator is in its stream (``vmap`` uses it to see whether a function drew numbers)."""
        state = self._bits.state["state"]
        return state["key"].copy(), state["pos"], self._next_normal

    def _restore(self, snapshot: tuple) -> None:
        key, pos, self._next_normal = snapshot
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key.copy(), "pos": pos}}

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
        return fma(self._unit(n, dtype), hi - lo, lo, np.float64).astype(dtype)

    def normal(self, n: int, dtype, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        """N(mean, std**2) by Box-Muller: in blocks of 16 for 16 or more float values, else pair by pair."""
        dtype = np.dtype(dtype)
        if n >= 16:
            return self._normal_blocks(n, dtype, mean, std)
        return fma(self._normal_pairs(n), std, mean, np.float64).astype(dtype)

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

    def bernoulli(self, p) -> np.ndarray:
        """True with probability ``p`` for each entry of ``p`` (an array, or a number for one draw): ``u < p``
        with ``u`` uniform in ``p``'s dtype (float64 for a number), as torch's ``bernoulli``."""
        p = np.asarray(p)
        dtype = p.dtype if p.dtype == np.float32 else np.float64
        return self._unit(p.size, dtype).reshape(p.shape) < p

    def exponential(self, n: int, dtype, lambd: float = 1.0) -> np.ndarray:
        """Exp(lambd) by inversion: ``-1 / lambd * log1p(-u)`` from float64 uniforms, as torch's CPU kernel."""
        return (-1.0 / lambd * np.log1p(-self._unit(n, np.float64))).astype(dtype)

    def integers(self, n: int, low: int, high: int) -> np.ndarray:
        """``low + w % (high - low)`` as int64, one 32-bit word each (two when the range reaches 2**28)."""
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        span = high - low
        words = self._longs(n) if span >= 2 ** 28 else self._words(n)
        return (words % np.uint64(span)).astype(np.int64) + low

    def random(self, n: int, dtype) -> np.ndarray:
        """``random_()``: ``n`` integers in ``[0, M]`` for the dtype's largest exact integer ``M``."""
        dtype = np.dtype(dtype)
        if dtype == np.bool_:
            return (self._words(n) & np.uint64(1)).astype(dtype)
        top = 2 ** (np.finfo(dtype).nmant + 1) if dtype.kind == "f" else int(np.iinfo(dtype).max)
        words = self._longs(n) if dtype.itemsize == 8 else self._words(n)
        return (words % np.uint64(top + 1)).astype(dtype)

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
    blocks = u.reshape(-1, 2, 8)
    u1, u2 = 1 - blocks[:, 0], blocks[:, 1]
    out = np.empty_like(blocks)
    if u.dtype == np.float32:  # torch's AVX2 kernel: float32 throughout, its own log, sin and cos
        radius = np.sqrt(np.float32(-2) * _log32(u1))
        sin, cos = _sincos32(_TWO_PI_32 * u2)
        out[:, 0], out[:, 1] = fma(radius * cos, std, mean), fma(radius * sin, std, mean)
    else:
        radius = np.sqrt(-2 * np.log(u1))
        theta = 2.0 * math.pi * u2
        out[:, 0], out[:, 1] = (fma(radius * f(theta), std, mean, np.float64) for f in (np.cos, np.sin))
    return out.reshape(-1)


# ------------------------------------------------------------------ torch's float32 log, sin and cos
# torch's AVX2 normal kernel does not call the C library: it evaluates Cephes' polynomials in float32 (the
# "avx_mathfun" routines), and its compiler fuses each multiply with the add after it. The two functions below
# follow the same steps, so that float32 ``randn`` gives torch's values to the last bit.

def _horner(x: np.ndarray, coefficients: tuple) -> np.ndarray:
    """``((c0 x + c1) x + c2) x + ...`` with one fused multiply-add per step."""
    y = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        y = fma(y, x, c)
    return y


_LOG_P = (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
          -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)
_F32 = np.float32


def _log32(x: np.ndarray) -> np.ndarray:
    """log(x) for float32 x > 0: x = m 2**e with m in [sqrt(1/2), sqrt(2)), then
    log(x) = (m - 1) + (m - 1)**3 P(m - 1) - (m - 1)**2 / 2 + e log(2), log(2) split in two parts."""
    bits = np.maximum(x, np.finfo(np.float32).tiny).view(np.int32)
    e = ((bits >> 23) - 127).astype(np.float32) + _F32(1)
    m = ((bits & ~0x7F800000) | 0x3F000000).view(np.float32)  # the mantissa in [0.5, 1)
    small = m < _F32(math.sqrt(0.5))
    e -= small
    t = (m - _F32(1)) + np.where(small, m, _F32(0))  # m - 1, or 2m - 1 with e lowered by one
    z = t * t
    y = fma(_horner(t, _LOG_P) * t, z, e * _F32(-2.12194440e-4))
    y = fma(z, -0.5, y)
    return fma(e, 0.693359375, t + y)


def _sincos32(x: np.ndarray) -> tuple:
    """(sin x, cos x) for float32 x >= 0: x reduced by j pi/4 (j even, pi/4 in three parts) to |r| <= pi/4,
    then Taylor-like polynomials in r; j picks which polynomial gives sin and which cos, and their signs."""
    j = (x * _F32(4 / math.pi)).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    for part in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):
        x = fma(y, part, x)
    z = x * x
    cos = fma(_horner(z, (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)) * z, z,
               -(z * _F32(0.5))) + _F32(1)
    sin = fma(_horner(z, (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)) * z, x, x)
    swap = (j & 2) != 0
    sin, cos = np.where(swap, cos, sin), np.where(swap, sin, cos)
    return np.where((j & 4) != 0, -sin, sin), np.where((~(j - 2) & 4) != 0, -cos, cos)


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
