"""The fast forms of torch's exact kernels give the bits of their plain forms: the float32 fused multiply-add, SLEEF's
exp, nll_loss's cascade of sums (each written here the slow, obvious way as the reference)."""
import numpy as np
import pytest

from autograd_tutor.autograd.fma import fma
from autograd_tutor.autograd.ops.losses import _nll_cascade
from autograd_tutor.autograd.vector_math import sleef_exp

RNG = np.random.default_rng(14)


def _float32s(n: int) -> np.ndarray:
    return (RNG.standard_normal(n) * 10.0 ** RNG.integers(-30, 30, n)).astype(np.float32)


def _bits(x) -> np.ndarray:
    return np.asarray(x, np.float32).view(np.int32)


def test_float32_fma_is_the_float64_fma_rounded_to_float32():
    a, b, c = _float32s(200_000), _float32s(200_000), _float32s(200_000)
    with np.errstate(over="ignore"):
        c[::2] = (-(a[::2].astype(np.float64) * b[::2])).astype(np.float32)  # near-cancellation: the hard cases
    c[~np.isfinite(c)] = 1
    with np.errstate(over="ignore"):
        wide = fma(a, b, c, np.float64).astype(np.float32)  # Dekker's exact product, then rounded to float32
    with np.errstate(over="ignore"):
        assert (_bits(fma(a, b, c)) == _bits(wide)).all()
    assert (_bits(fma(a[:7], 0.1, 0.3)) == _bits(fma(a[:7], np.float32(0.1), np.float32(0.3)))).all()


def test_float32_fma_keeps_infinities_and_signed_zeros():
    inf = np.float32(np.inf)
    assert fma(np.float32(2), np.float32(3), -inf) == -inf
    assert fma(inf, np.float32(2), np.float32(1)) == inf
    assert np.signbit(fma(np.float32(-0.0), np.float32(1), np.float32(-0.0)))


def _sleef_exp_by_fma(d: np.ndarray) -> np.ndarray:
    """SLEEF's expf with one fma() call per step, as its C source reads."""
    q = np.rint(d * np.float32(1.4426950408889634)).astype(np.int32)
    qf = q.astype(np.float32)
    s = fma(qf, -0.693145751953125, d)
    s = fma(qf, -1.428606765330187045e-06, s)
    u = np.full_like(s, np.float32(0.000198527617612853646278381))
    for c in (0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156,
              0.166666671633720397949219, 0.5):
        u = fma(u, s, c)
    u = np.float32(1) + fma(s * s, u, s)
    half = q >> 1
    u = u * ((half + 127) << 23).view(np.float32) * ((q - half + 127) << 23).view(np.float32)
    return np.where(d < np.float32(-104), np.float32(0), u)


def test_sleef_exp_is_its_polynomial_step_by_step():
    d = np.concatenate([RNG.uniform(-110, 89, 100_000), RNG.standard_normal(10_000)]).astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        assert (_bits(sleef_exp(d)) == _bits(_sleef_exp_by_fma(d))).all()


def _cascade_by_loop(picked, weights, valid):
    """torch's nll_loss sums, sample after sample (aten's 8-level cascade, written as a loop)."""
    zero = picked.dtype.type(0)
    loss, weight = [zero] * 8, [zero] * 8
    for b, (value, ok) in enumerate(zip(picked, valid)):
        if not ok:
            continue
        loss[0] = loss[0] - (value if weights is None else value * weights[b])
        weight[0] = weight[0] + (zero if weights is None else weights[b])
        for level in range(7):
            if b & (15 << (4 * level)):
                break
            loss[level + 1], loss[level] = loss[level + 1] + loss[level], zero
            weight[level + 1], weight[level] = weight[level + 1] + weight[level], zero
    total_loss, total_weight = zero, zero
    for level in range(8):
        total_loss, total_weight = total_loss + loss[level], total_weight + weight[level]
    return total_loss, (picked.dtype.type(int(valid.sum())) if weights is None else total_weight)


@pytest.mark.parametrize("n", [0, 1, 2, 15, 16, 17, 32, 33, 255, 256, 257, 1000, 4096])
def test_nll_cascade_is_the_loop_sample_after_sample(n):
    for trial in range(12):
        picked = (-np.abs(RNG.standard_normal(n)) * 10.0 ** RNG.integers(-6, 6, n)).astype(np.float32)
        picked[RNG.random(n) < 0.1] = 0
        valid = RNG.random(n) < (1.0 if trial % 3 == 0 else 0.7)
        weights = None if trial % 2 else (RNG.random(n) * valid).astype(np.float32)
        got, want = _nll_cascade(picked, weights, valid), _cascade_by_loop(picked, weights, valid)
        assert [_bits(x) for x in got] == [_bits(x) for x in want]
        assert [type(x) for x in got] == [type(x) for x in want]


def test_class_weights_without_weights_or_ignored_samples_are_the_masked_ones():
    """The short cut of ``_class_weights`` (no class weights, nothing ignored) against its general path, reached
    with weights of 1 (the same numbers, through the masking); and the general path where a sample is ignored."""
    from autograd_tutor.autograd.ops.losses import _class_weights
    for n in (0, 1, 32, 100):
        y = RNG.integers(0, 5, n)
        for dtype in (np.float32, np.float64):
            fast, general = _class_weights(y, None, -100, dtype), _class_weights(y, np.ones(5), -100, dtype)
            assert [a.dtype for a in fast] == [a.dtype for a in general]
            assert all(np.array_equal(a, b) for a, b in zip(fast, general))
    classes, weights = _class_weights(np.array([3, -100, 1]), None, -100, np.float32)
    assert classes.tolist() == [3, 0, 1] and weights.tolist() == [1, 0, 1]


def test_one_errstate_for_a_row_function_leaves_its_bits():
    """softmax_rows and log_softmax_rows under their one ``np.errstate`` give the bits of the steps taken one by
    one, each under its own (as before the short cut): sleef_exp, the lane sums, the log."""
    from autograd_tutor.autograd.vector_math import _lane_sums, log_softmax_rows, softmax_rows
    x = (RNG.standard_normal((64, 27)) * 20).astype(np.float32)
    x[0, :3], x[1], x[2, 0] = (np.inf, 1, 2), -np.inf, np.nan
    with np.errstate(invalid="ignore"):
        shifted = x - x.max(axis=1, keepdims=True)
    e = sleef_exp(shifted)
    sums = _lane_sums(e)
    with np.errstate(divide="ignore"):
        logs = np.log(sums.astype(np.float64)).astype(np.float32)[:, None]
    assert np.array_equal(_bits(log_softmax_rows(x)), _bits(shifted - logs))
    assert np.array_equal(_bits(softmax_rows(x)), _bits(e * (np.float32(1) / sums)[:, None]))


def test_float32_fma_of_single_numbers_is_the_array_one():
    """fma's short cut for three numbers (Python floats, NumPy scalars, 0-dim arrays) gives the bits and the type
    (a NumPy scalar) of its array path, reached with 1-element arrays; float16 too."""
    values = np.concatenate([_float32s(3000), np.float32([0, -0.0, np.inf, -np.inf, np.nan, 3.4e38, 1e-45])])
    picks = RNG.integers(0, len(values), (20000, 3))
    with np.errstate(all="ignore"):
        for dtype in (np.float32, np.float16):
            for i, j, k in picks:
                a, b, c = values[i], values[j], values[k]
                for args in ((a, float(b), np.array(c)), (float(a), b, float(c)), (np.array(a), np.array(b), c)):
                    one = fma(*args, dtype=dtype)
                    assert type(one) is np.dtype(dtype).type
                    wide = fma(*(np.full(1, x, dtype) for x in args), dtype=dtype)
                    assert one.tobytes() == wide.tobytes()
