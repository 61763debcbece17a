"""Sums in torch's order, so that ``loss.item()`` prints torch's digits to the last one.

Floating-point addition is not associative: NumPy sums pairwise, torch's CPU kernel (``cascade_sum``) sums
in another order, and float32 results differ in the last bit about half the time. This module repeats
torch's order, with its AVX2 vector width W (8 float32 or 4 float64 lanes):

- A row (the reduced dim is the contiguous one, or everything is reduced): the row is read as vectors of W;
  four vector accumulators take the vectors in turn ("ILP"), each summed in a *cascade*: blocks of at least 16
  terms are summed one after another, then added into the next level, so rounding errors grow slowly. The
  four accumulators are added, then a scalar sum takes the leftover elements and the W lanes.
- Columns (a dim before the last is reduced): each column is summed down the rows, in cascades for blocks of
  4 vectors of columns (4 single columns when there are fewer than W), and with the four accumulators for the
  leftover columns.

Only contiguous float32 and float64 tensors of up to 32,768 elements (torch's grain size: larger ones are split
among threads) whose reduced dims are next to each other take this path; others use NumPy.

>>> import numpy as np
>>> x = np.arange(1, 13, dtype=np.float32) / 10      # 0.1, 0.2, ..., 1.2
>>> float(torch_sum(x, None, False)), float(np.add.reduce(x))   # torch's x.sum().item() is the first
(7.799999713897705, 7.800000190734863)
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["torch_sum", "numpy_sum"]

GRAIN_SIZE = 32768
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def numpy_sum(d: np.ndarray, dims, keepdim: bool, dtype=None) -> np.ndarray:
    """NumPy's sum, written C-contiguous as torch writes every sum (NumPy follows a transposed input's layout)."""
    return np.add.reduce(d, axis=dims, keepdims=keepdim, dtype=dtype).copy()


def torch_sum(d: np.ndarray, dims, keepdim: bool) -> np.ndarray:
    """``d`` summed over ``dims`` (None: all) as torch sums it; NumPy's sum where torch's order is not known."""
    lanes = _LANES.get(d.dtype)
    if lanes is None or not d.size or d.size > GRAIN_SIZE or not d.flags.c_contiguous or d.ndim == 0:
        return numpy_sum(d, dims, keepdim)
    if dims is None and not keepdim:  # everything: one row (the common case, first)
        return _row(d.reshape(-1), lanes)
    dims = tuple(range(d.ndim)) if dims is None else tuple(dims)
    if d.ndim == 2 and len(dims) == 1 and 1 not in d.shape:  # a matrix along one dim (a bias's gradient), quickly
        out = _columns(d, lanes) if dims[0] == 0 else _rows(d, lanes)
        return out.reshape((1, -1) if dims[0] == 0 else (-1, 1)) if keepdim else out
    # as torch's iterator does: drop the dims of size 1, then see the rest as (before, reduced, after)
    sizes = [(s, i in dims) for i, s in enumerate(d.shape) if s != 1]
    flags = [r for _, r in sizes]
    if True not in flags:
        out = d.astype(d.dtype)  # only size-1 dims reduced: each sum has one term
    elif False not in flags:  # every dim of more than one element: one row (a one-number parameter's gradient)
        out = _row(d.reshape(-1), lanes)
    else:
        a, b = flags.index(True), len(flags) - flags[::-1].index(True)
        if False in flags[a:b]:  # reduced dims with kept ones between them: not handled here
            return numpy_sum(d, dims, keepdim)
        before, middle, after = (int(math.prod([s for s, _ in sizes[i:j]])) for i, j in ((0, a), (a, b), (b, None)))
        if after == 1:
            out = _rows(d.reshape(before, middle), lanes)
        elif before == 1:
            out = _columns(d.reshape(middle, after), lanes)
        else:
            out = np.stack([_columns(block, lanes) for block in d.reshape(before, middle, after)])
    out = np.asarray(out, d.dtype).reshape([1 if i in dims else s for i, s in enumerate(d.shape)] if keepdim else
                                           [s for i, s in enumerate(d.shape) if i not in dims])
    return out if out.flags.owndata else out.copy()  # a new array: a reshaped view may have odd size-1 strides


def _row(x: np.ndarray, lanes: int) -> np.ndarray:
    """One row summed: :func:`_rows` written out for a row short enough that no cascade block finishes
    (fewer than 64 vectors), with as few NumPy calls as possible (sums of a lesson's size are the common case)."""
    n = len(x)
    zero = x.dtype.type(0)
    if n < lanes:  # four accumulators take the items in turn: x0 (+ x4, x5, x6), then x1, x2, x3
        return np.add.accumulate(x[_SCALAR_ORDER[n]])[-1] + zero
    m = n // lanes
    steps = m // 4
    if steps >= 256:
        return _rows(x.reshape(1, -1), lanes)[0]
    vectors = x[:m * lanes].reshape(m, lanes)
    if steps >= 16:  # each accumulator's cascade (:func:`_cascade`) has blocks of 16 but no push to level 2
        acc = _one_level(vectors[:4 * steps].reshape(steps, 4, lanes))
    elif steps:
        acc = np.add.reduce(vectors[:4 * steps].reshape(steps, 4, lanes), axis=0)
    else:
        acc = np.zeros((4, lanes), x.dtype)
    if m > 4 * steps:  # leftover vectors go into the first accumulator before the other three are added
        acc = np.concatenate([acc[:1], vectors[4 * steps:], acc[1:]])
    lane_sums = np.add.reduce(acc, axis=0)
    terms = np.concatenate([x[m * lanes:], lane_sums]) if n > m * lanes else lane_sums
    return np.add.accumulate(terms)[-1] + zero


def _one_level(terms: np.ndarray) -> np.ndarray:
    """:func:`_cascade` of each accumulator's 16 to 255 terms (``terms[i, j]`` is accumulator j's i-th vector) in
    three NumPy sums, each adding in turn along its axis (not the innermost): the blocks of 16, the blocks' sums,
    then the unfinished block's sum plus that. (Without the ``+ 0.`` of each partial sum: the sign of a zero
    never changes a sum that is not zero, and the row's final ``+ 0.`` settles one that is.)"""
    steps = len(terms)
    whole = steps - steps % 16
    blocks = np.add.reduce(np.add.reduce(terms[:whole].reshape(whole // 16, 16, *terms.shape[1:]), axis=1), axis=0)
    return np.add.reduce(terms[whole:], axis=0) + blocks if whole < steps else blocks


_SCALAR_ORDER = [list(range(n)) if n < 4 else [0, *range(4, n), 1, 2, 3] for n in range(8)]


def _rows(x: np.ndarray, lanes: int) -> np.ndarray:
    """Each row of ``x`` summed (torch's ``vectorized_inner_sum``, or ``scalar_inner_sum`` below W)."""
    rows, n = x.shape
    if n < lanes:
        return _ilp_sum(x[:, :, None])[:, 0]
    m = n // lanes
    vectors = _ilp_sum(x[:, :m * lanes].reshape(rows, m, lanes))
    # then one scalar sum: the leftover elements first, then the lanes
    terms = np.concatenate([x[:, m * lanes:], vectors], axis=1) if m * lanes < n else vectors
    return np.add.accumulate(terms, axis=1)[:, -1] + x.dtype.type(0)


def _columns(x: np.ndarray, lanes: int) -> np.ndarray:
    """Each column of ``x`` summed down its rows (torch's ``vectorized_outer_sum`` / ``scalar_outer_sum``)."""
    rows, n = x.shape
    block = 4 * lanes if n >= lanes else 4  # 4 vectors of columns, or 4 single columns when there are few
    whole = n - n % block
    if rows < 68:  # the usual gradient of a bias over a batch: the same order in fewer NumPy calls
        return _few_rows(x, whole)
    parts = []
    if whole:  # each column of a block summed down the rows in a cascade
        parts.append(_cascade(x[None, :, :whole])[0])
    if whole < n:  # the leftover columns: their rows taken by four accumulators in turn, as the items of a row
        parts.append(_ilp_sum(x[None, :, whole:])[0])
    return np.concatenate(parts)


def _few_rows(x: np.ndarray, whole: int) -> np.ndarray:
    """:func:`_columns` for fewer than 68 rows, with as few NumPy calls as possible (NumPy adds in turn along a
    first axis). The first ``whole`` columns: each summed down the rows in blocks of 16, the blocks' sums in
    turn, the unfinished block's sum plus that. The others: four accumulators take the rows in turn, each
    summing its (at most 16) rows in turn; then the leftover rows are added to the first, then the other three."""
    rows, n = x.shape
    parts = []
    if whole:
        full = rows - rows % 16
        part = np.add.reduce(x[full:, :whole], axis=0)  # the unfinished block (all rows, below 16)
        if full:
            blocks = np.add.reduce(x[:full, :whole].reshape(full // 16, 16, whole), axis=1)
            part = part + np.add.reduce(blocks, axis=0)
        parts.append(part)
    if whole < n:
        steps = rows // 4
        rest = x[:, whole:] if whole else x
        if steps:
            acc = np.add.reduce(rest[:4 * steps].reshape(steps, 4, n - whole), axis=0)
        else:
            acc = np.zeros((4, n - whole), x.dtype)
        if 4 * steps < rows:
            acc = np.concatenate([acc[:1], rest[4 * steps:], acc[1:]])
        parts.append(np.add.reduce(acc, axis=0))
    return (parts[0] if len(parts) == 1 else np.concatenate(parts)) + x.dtype.type(0)


def _ilp_sum(x: np.ndarray) -> np.ndarray:
    """torch's ``row_sum``: the items ``x[:, i]`` (shape (R, m, ...)) taken by four accumulators in turn,
    each a cascade, the leftover items added to the first, then the four added: (R, ...)."""
    m = x.shape[1]
    steps = m // 4
    if steps:
        acc = _cascade(x[:, :4 * steps].reshape(x.shape[0], steps, 4, *x.shape[2:]))
    else:
        acc = np.zeros((x.shape[0], 4, *x.shape[2:]), x.dtype)
    # the first accumulator, then the leftover items, then the other three accumulators, added in turn
    terms = np.concatenate([acc[:, :1], x[:, 4 * steps:], acc[:, 1:]], axis=1) if 4 * steps < m else acc
    return _in_turn(terms, axis=1)


def _cascade(x: np.ndarray) -> np.ndarray:
    """torch's ``multi_row_sum``: ``x[:, i]`` summed over i in blocks of ``step`` = 2**p terms (p >= 4), each
    block in turn; the block sums go in turn into a level-1 sum, pushed every ``step`` blocks into a level-2
    sum, pushed every ``step`` of those into level 3; at the end, the unfinished block + level 1 + 2 + 3."""
    size = x.shape[1]
    power = max(4, ((size - 1).bit_length() if size > 1 else 0) // 4)
    step = 1 << power
    if size < step:  # no block finished: the terms one after another (the usual case in a lesson)
        return _in_turn(x, axis=1)
    if size < step * step:  # blocks, but never a push to level 2: the unfinished block + the blocks' sum
        level0, blocks = _groups(x, step)
        return (level0 + _in_turn(blocks, axis=1)) + x.dtype.type(0)
    level0, blocks = _groups(x, step)
    level1, groups = _groups(blocks, step)
    level2, supergroups = _groups(groups, step)
    level3 = _in_turn(supergroups, axis=1)
    return ((level0 + level1) + level2) + level3


def _groups(x: np.ndarray, step: int) -> tuple:
    """``x[:, i]`` cut into groups of ``step``: (the sum of the unfinished last group, the finished groups' sums),
    each summed in turn."""
    whole = x.shape[1] - x.shape[1] % step
    done = x[:, :whole].reshape(x.shape[0], whole // step, step, *x.shape[2:])
    return _in_turn(x[:, whole:], axis=1), _in_turn(done, axis=2)


def _in_turn(x: np.ndarray, axis: int) -> np.ndarray:
    """The sum along ``axis`` taken one term after another from zero, as a C loop adds (NumPy's own sum may
    add in pairs): the last running sum of ``np.add.accumulate``; + 0. turns a -0. sum into 0., as C's does."""
    n = x.shape[axis]
    if not n:
        return np.zeros(x.shape[:axis] + x.shape[axis + 1:], x.dtype)
    if x.size >= 2 * n * math.prod(x.shape[:axis]):  # NumPy adds in turn along an axis that is not the innermost
        return np.add.reduce(x, axis=axis) + x.dtype.type(0)
    return np.take(np.add.accumulate(x, axis=axis), -1, axis=axis) + x.dtype.type(0)
