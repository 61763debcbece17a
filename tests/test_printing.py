"""Tensor printing must match torch 2.13.0 character for character.

Most tests build the same tensor in torch and compare ``repr`` with
``format_tensor``; they skip when torch is not installed. A few expected
strings from torch's documentation run without torch.
"""

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from autograd_tutor.autograd._printing import (
    format_tensor,
    get_printoptions,
    set_printoptions,
)

NAN, INF = float("nan"), float("inf")
RNG = np.random.default_rng(0)

# How to make torch print each autograd suffix, starting from a leaf that requires grad.
GRAD_SUFFIXES = {
    "requires_grad=True": lambda t: t,
    "grad_fn=<MulBackward0>": lambda t: t * 1,
    "grad_fn=<CloneBackward0>": lambda t: t.clone(),
}


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.fixture
def restore_printoptions():
    """Put both printers back to their defaults after the test."""
    yield
    set_printoptions(profile="default")
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_printoptions(profile="default")


def torch_repr(torch, array, suffix=None):
    tensor = torch.from_numpy(array.copy())
    if suffix is not None:
        tensor = GRAD_SUFFIXES[suffix](tensor.requires_grad_())
    return repr(tensor)


def f32(values):
    return np.array(values, dtype=np.float32)


def case(name, array, suffix=None):
    return pytest.param(array, suffix, id=name)


CASES = [
    # 0-d
    case("scalar-int-float", f32(15.0)),
    case("scalar-fraction", f32(0.1)),
    case("scalar-float64", np.array(-2.5)),
    case("scalar-float16", np.array(3.5, dtype=np.float16)),
    case("scalar-int64", np.array(7)),
    case("scalar-int8", np.array(-5, dtype=np.int8)),
    case("scalar-uint8", np.array(200, dtype=np.uint8)),
    case("scalar-bool", np.array(True)),
    case("scalar-nan", f32(NAN)),
    case("scalar-neg-inf", f32(-INF)),
    case("scalar-neg-zero", f32(-0.0)),
    case("scalar-tiny", f32(1e-5)),
    case("scalar-huge", f32(3e9)),
    case("scalar-requires-grad", np.array(3.0), "requires_grad=True"),
    case("scalar-grad-fn", f32(2.5), "grad_fn=<MulBackward0>"),
    # 1-d integers and bools
    case("ints", np.array([1, 2])),
    case("int32-negative", np.array([1, -200, 3], dtype=np.int32)),
    case("int16", np.array([300, -4], dtype=np.int16)),
    case("int8", np.array([-128, 127, 0], dtype=np.int8)),
    case("uint8", np.array([0, 255, 7], dtype=np.uint8)),
    case("bools", np.array([True, False])),
    case("bools-all-true", np.array([True, True, True])),
    case("ints-wrap-100", np.arange(100)),
    case("ints-wrap-negative", np.arange(-60, 60, 3, dtype=np.int32)),
    # 1-d floats
    case("fixed", f32([0.5, -1.25, 3.0])),
    case("integral-floats", f32([100.0, 2.0])),
    case("integral-negative", f32([-3.0, 0.0, 12.0])),
    case("sci-by-ratio", f32([0.1, 123.456])),
    case("fixed-ratio-below-1000", f32([999.5, 1.0])),
    case("sci-ratio-just-above-1000", f32([1234.5678, 0.5])),
    case("sci-small", f32([1e-5, 1.0])),
    case("float32-1e-4-is-below-1e-4", f32([1e-4, 0.5])),
    case("sci-big", f32([1.5e8, 2.5e8])),
    case("integral-sci-big", f32([1e9, 2e9])),
    case("integral-sci-ratio", f32([1.0, 5000.0])),
    case("integral-just-below-1e8", f32([1e8, 5e7])),
    case("nan-inf-and-numbers", f32([NAN, INF, -INF, 1.5])),
    case("nan-inf-integral", f32([NAN, -INF, 2.0])),
    case("only-nan-inf", f32([NAN, INF])),
    case("zeros", f32([0.0, 0.0])),
    case("negative-zero", f32([-0.0, 0.0, 1.0])),
    case("negative-zero-fixed", f32([-0.0, 0.5])),
    case("negatives", f32([-1.5, 2.25, -3.125])),
    case("float32-shows-float64-digits", f32([0.1, 0.2, 0.3])),
    case("float64", np.array([1 / 3, 2 / 3])),
    case("float64-tiny", np.array([1e-300, 1.0])),
    case("float64-extreme-ratio", np.array([5e-324, 1e308])),
    case("float16", np.array([0.1, 1000.0], dtype=np.float16)),
    case("floats-wrap-30", np.linspace(-1, 1, 30, dtype=np.float32)),
    case("floats-wrap-sci", f32(RNG.standard_normal(30) * 1e6)),
    # above the threshold: summarized
    case("summarized-1d-floats", np.arange(2000, dtype=np.float32) / 3),
    case("summarized-1d-ints", np.arange(2000)),
    case("summarized-1d-formatter-sees-edges-only", f32([1.0] * 3 + [1e-9] * 1995 + [2.0] * 3)),
    case("summarized-2d", f32(RNG.standard_normal((50, 50)))),
    case("summarized-2d-ints", np.arange(2500).reshape(50, 50)),
    case("summarized-2d-few-rows", f32(RNG.random((2, 600)))),
    case("summarized-3d", f32(RNG.random((20, 10, 10)))),
    case("summarized-4d-bool", RNG.random((4, 5, 8, 9)) > 0.5),
    # 2-d and up
    case("ones-2x2", np.ones((2, 2), dtype=np.float32), "requires_grad=True"),
    case("matrix-random", f32(RNG.standard_normal((3, 4)))),
    case("matrix-wide-rows-wrap", f32(RNG.standard_normal((3, 20)))),
    case("matrix-ints", np.array([[1, -20], [300, 4]])),
    case("matrix-bools", np.array([[True, False], [False, False]])),
    case("matrix-float64-nan", np.array([[NAN, 1.0], [2.5, -INF]])),
    case("cube-ints", np.arange(24, dtype=np.int32).reshape(2, 3, 4)),
    case("cube-nan", f32([[[NAN, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, -0.0]]])),
    case("4d-float32", f32(RNG.standard_normal((2, 2, 2, 3)))),
    case("4d-float64", RNG.random((3, 3, 3, 3)) * 1e-5),
    case("single-element-dims", f32([[[7.0]]])),
    # empty
    case("empty", np.zeros(0, dtype=np.float32)),
    case("empty-int64", np.zeros(0, dtype=np.int64)),
    case("empty-bool", np.zeros(0, dtype=bool)),
    case("empty-float64", np.zeros(0)),
    case("empty-0x3", np.zeros((0, 3), dtype=np.float32)),
    case("empty-2x0-float64", np.zeros((2, 0))),
    case("empty-2x0x3-int32", np.zeros((2, 0, 3), dtype=np.int32)),
    case("empty-0x3-requires-grad", np.zeros((0, 3), dtype=np.float32), "requires_grad=True"),
    # suffixes and line wrapping
    case("suffix-wraps", f32([-1.2345] * 8), "requires_grad=True"),
    case("suffix-fits", f32([1.5] * 6), "requires_grad=True"),
    # The line would end exactly at column 80, but torch's count is two too high.
    case("suffix-wraps-at-exactly-80", f32([1.5] * 6), "grad_fn=<MulBackward0>"),
    case("grad-fn-wraps", f32([-1.2345] * 8), "grad_fn=<CloneBackward0>"),
    case("dtype-fits-grad-fn-wraps", np.array([-1.2345] * 7), "grad_fn=<MulBackward0>"),
    case("dtype-and-grad-fn-on-last-row", RNG.random((3, 3)), "grad_fn=<MulBackward0>"),
    case("float16-requires-grad", np.array([1.0, 2.0], dtype=np.float16), "requires_grad=True"),
    case("long-row-grad-fn", f32(RNG.standard_normal((2, 8))), "grad_fn=<CloneBackward0>"),
    case("summarized-grad-fn", f32(RNG.random((20, 10, 10))), "grad_fn=<MulBackward0>"),
]


@pytest.mark.parametrize(("array", "suffix"), CASES)
def test_matches_torch(torch, array, suffix):
    suffixes = [] if suffix is None else [suffix]
    assert format_tensor(array, suffixes) == torch_repr(torch, array, suffix)


def test_prefix_sets_indent_like_a_tensor_subclass(torch):
    class MyTensor(torch.Tensor):
        pass

    array = np.linspace(0, 5, 30, dtype=np.float32)
    expected = repr(torch.from_numpy(array).as_subclass(MyTensor))
    assert format_tensor(array, prefix="MyTensor(") == expected


# Expected strings from torch's documentation and behaviour; no torch needed.
DOCUMENTED = [
    (f32(15.0), [], "tensor(15.)"),
    (f32([0.1, 123.456]), [], "tensor([1.0000e-01, 1.2346e+02])"),
    (np.array([True, False]), [], "tensor([ True, False])"),
    (np.array([1, 2]), [], "tensor([1, 2])"),
    (f32([[1, 1], [1, 1]]), ["requires_grad=True"], "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"),
    (np.array(3.0), ["requires_grad=True"], "tensor(3., dtype=torch.float64, requires_grad=True)"),
    (f32([100, 2]), ["requires_grad=True"], "tensor([100.,   2.], requires_grad=True)"),
    (f32([1.12345]), [], "tensor([1.1235])"),
    (f32([NAN, INF, -0.0]), [], "tensor([nan, inf, -0.])"),
    (np.array([1, 2], dtype=np.int32), [], "tensor([1, 2], dtype=torch.int32)"),
    (f32([]), [], "tensor([])"),
    (np.zeros(0, dtype=np.int64), [], "tensor([], dtype=torch.int64)"),
    (np.zeros((0, 3), dtype=np.float32), [], "tensor([], size=(0, 3))"),
    (f32([2.0]), ["grad_fn=<MulBackward0>"], "tensor([2.], grad_fn=<MulBackward0>)"),
]


@pytest.mark.parametrize(("array", "suffixes", "expected"), DOCUMENTED)
def test_documented_output(array, suffixes, expected):
    assert format_tensor(array, suffixes) == expected


def test_long_suffix_moves_to_new_line():
    text = format_tensor(f32([-1.2345] * 8), ["requires_grad=True"])
    assert text == (
        "tensor([-1.2345, -1.2345, -1.2345, -1.2345, -1.2345, -1.2345, -1.2345, -1.2345],\n"
        "       requires_grad=True)"
    )


def test_default_printoptions():
    assert get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }


def test_get_printoptions_returns_a_copy():
    get_printoptions()["precision"] = 9
    assert get_printoptions()["precision"] == 4


def test_precision(restore_printoptions):
    set_printoptions(precision=2)
    assert format_tensor(f32([1.12345])) == "tensor([1.12])"
    assert get_printoptions()["precision"] == 2


def test_threshold_summarizes(restore_printoptions):
    set_printoptions(threshold=5)
    # torch's docstring shows "2, ...", but torch really prints "2,  ..." (the
    # ellipsis item is " ..." and items are joined with ", ").
    assert format_tensor(np.arange(10)) == "tensor([0, 1, 2,  ..., 7, 8, 9])"


def test_default_profile_restores(restore_printoptions):
    set_printoptions(precision=2, threshold=5, linewidth=20, sci_mode=True)
    set_printoptions(profile="default")
    assert format_tensor(f32([1.12345])) == "tensor([1.1235])"
    assert format_tensor(np.arange(10)) == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ("short", {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80}),
        ("full", {"precision": 4, "threshold": float("inf"), "edgeitems": 3, "linewidth": 80}),
    ],
)
def test_profiles(restore_printoptions, profile, expected):
    set_printoptions(profile=profile, linewidth=100)
    assert get_printoptions() == {**expected, "linewidth": 100, "sci_mode": None}


def test_sci_mode_is_reset_when_omitted(restore_printoptions):
    set_printoptions(sci_mode=True)
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None


OPTION_SETS = [
    {"precision": 2},
    {"precision": 7},
    {"sci_mode": True},
    {"sci_mode": False},
    {"linewidth": 40},
    {"linewidth": 10},
    {"threshold": 10, "edgeitems": 2},
    {"threshold": 10, "edgeitems": 0},
    {"profile": "short"},
    {"profile": "full"},
]

OPTION_ARRAYS = [
    f32(3.25),
    f32([0.1, 123.456, -7.0]),
    f32([1e-5, 1.0]),
    f32([1e9, 2.0]),
    f32([NAN, 0.0]),
    f32([1.0, 2.0, 3.0]),
    np.arange(30),
    np.array([True, False] * 8),
    f32(RNG.standard_normal((5, 6))),
    np.arange(60, dtype=np.float64).reshape(3, 4, 5),
    np.arange(2000, dtype=np.float32),
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_printoptions_match_torch(torch, restore_printoptions, options):
    set_printoptions(**options)
    torch.set_printoptions(**options)
    for array in OPTION_ARRAYS:
        assert format_tensor(array) == torch_repr(torch, array)
        if array.dtype.kind == "f":
            expected = torch_repr(torch, array, "requires_grad=True")
            assert format_tensor(array, ["requires_grad=True"]) == expected


@st.composite
def float_arrays(draw, dtype):
    """Arrays of a random small shape whose values span a random magnitude."""
    shape = draw(
        hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)
        | hnp.array_shapes(min_dims=1, max_dims=1, min_side=0, max_side=40)
    )
    values = st.one_of(
        st.floats(-1000, 1000, width=32),
        st.integers(-50, 50).map(float),
        st.sampled_from([0.0, -0.0, NAN, INF, -INF]),
    )
    unscaled = draw(hnp.arrays(np.float64, shape, elements=values))
    scale = 10.0 ** draw(st.integers(-8, 10))
    return np.asarray(unscaled * scale, dtype=dtype)


@settings(max_examples=300, deadline=None)
@given(array=float_arrays(np.float32), suffix=st.sampled_from([None, *GRAD_SUFFIXES]))
def test_random_float32_arrays_match_torch(torch, array, suffix):
    suffixes = [] if suffix is None else [suffix]
    assert format_tensor(array, suffixes) == torch_repr(torch, array, suffix)


@settings(max_examples=100, deadline=None)
@given(array=float_arrays(np.float64))
def test_random_float64_arrays_match_torch(torch, array):
    assert format_tensor(array) == torch_repr(torch, array)


@settings(max_examples=100, deadline=None)
@given(
    array=hnp.arrays(
        st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]),
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6),
    )
)
def test_random_integer_and_bool_arrays_match_torch(torch, array):
    assert format_tensor(array) == torch_repr(torch, array)
