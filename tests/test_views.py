"""ops/views.py: where a view's elements sit in its base, and the gradients of an in-place change of a view.

The places are checked against an oracle that needs no address arithmetic: fill the base with the numbers
0, 1, 2, ... in its own (row-major) order, and a view of it then reads its places. The bases cover the layouts NumPy
gives (row-major, column-major, reversed, with gaps); the gradients are checked against torch on random views
and in-place ops.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import autograd_tutor as at
from autograd_tutor.autograd.ops.views import _geometry, _places

torch = pytest.importorskip("torch")


def _slices(shape: tuple):
    """A basic index for ``shape``: per dim an int or a slice with a positive step."""
    per_dim = [st.one_of(st.integers(0, n - 1),
                         st.builds(slice, st.integers(0, n - 1), st.integers(1, n), st.integers(1, 3)))
               for n in shape]
    return st.tuples(*per_dim)


@st.composite
def base_and_key(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    layout = draw(st.sampled_from(["C", "F", "reversed", "gaps"]))
    size = int(np.prod(shape))
    if layout == "C":
        base = np.empty(shape)
    elif layout == "F":
        base = np.empty(shape, order="F")
    elif layout == "reversed":
        base = np.empty(shape)[(slice(None, None, -1),) * len(shape)]
    else:
        base = np.empty(tuple(2 * n for n in shape))[(slice(None, None, 2),) * len(shape)]
    assert base.size == size
    return base, draw(_slices(shape))


@settings(max_examples=200, deadline=None)
@given(base_and_key())
def test_places_are_where_the_view_reads_the_base(case):
    base, key = case
    view = base[key + (Ellipsis,)]  # a 0-dim view, not a NumPy scalar, for a key of ints only (as SelectBackward0)
    base[...] = np.arange(base.size).reshape(base.shape)
    assert _places(_geometry(base, view)).tolist() == np.asarray(view, dtype=np.int64).tolist()


def test_places_of_an_expanded_view_repeat():
    base = np.zeros(3)
    view = np.broadcast_to(base, (2, 3))
    assert _places(_geometry(base, view)).tolist() == [[0, 1, 2], [0, 1, 2]]


OPS = ["mul_(w)", "add_(w, alpha=2)", "exp_()", "sigmoid_()", "zero_()", "copy_(w * 3)", "clamp_(0.1, 0.5)"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 31 - 1), st.sampled_from(OPS), st.sampled_from(["[1]", "[:, 1:3]", ".t()[2]",
                                                                               "[0, ::2]", ".view(12)[3:9]"]))
def test_gradients_after_an_in_place_change_of_a_view_are_torch_s(seed, op, view):
    """The same program under both: y = x * 2, one view of y changed in place by ``op``, a loss through y and the
    view; the gradients of x and w agree."""
    rng = np.random.default_rng(seed)
    x0, coef = rng.uniform(0.1, 1.0, (3, 4)), rng.uniform(-1, 1, (3, 4))
    results = []
    for lib in (at, torch):
        x = lib.tensor(x0, requires_grad=True)
        y = x * 2
        v = eval("y" + view)
        w = lib.tensor(np.full(tuple(v.shape), 0.7), requires_grad=True)
        eval("v." + op)
        loss = (y * lib.tensor(coef)).sum() + (v * v).sum()
        loss.backward()
        results.append((x.grad.numpy(), None if w.grad is None else w.grad.numpy(), y._version,
                        type(y.grad_fn).__name__, type(v.grad_fn).__name__))
    ours, theirs = results
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
    assert (ours[1] is None) == (theirs[1] is None)
    if ours[1] is not None:
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)
    assert ours[2:] == theirs[2:]


def _graph_names(t) -> list:
    """The node names below ``t``'s grad_fn, depth first (None for an edge to nothing)."""
    names, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        names.append(None if node is None else node.name())
        if node is not None:
            stack.extend(n for n, _ in reversed(node.next_functions))
    return names


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 31 - 1), st.sampled_from(OPS), st.sampled_from(["[1]", "[:, 1:3]", ".t()[2]",
                                                                               "[0, ::2]", ".view(12)[3:9]"]))
def test_second_derivatives_through_an_in_place_change_of_a_view_are_torch_s(seed, op, view):
    """As above, differentiated twice: the gradient made with create_graph=True has torch's graph (CopySlices'
    backward recorded as copy_, as_strided and clone, as torch records it) and its gradient torch's values."""
    rng = np.random.default_rng(seed)
    x0, coef = rng.uniform(0.1, 1.0, (3, 4)), rng.uniform(-1, 1, (3, 4))
    results = []
    for lib in (at, torch):
        x = lib.tensor(x0, requires_grad=True)
        y = x * x
        v = eval("y" + view)
        w = lib.tensor(np.full(tuple(v.shape), 0.7), requires_grad=True)
        eval("v." + op)
        loss = (y * y * lib.tensor(coef)).sum() + (v * v * v).sum()
        gx, gw = lib.autograd.grad(loss, (x, w), create_graph=True, allow_unused=True)
        second = lib.autograd.grad((gx * gx).sum() + (0 if gw is None else gw.sum()), (x, w), allow_unused=True)
        results.append((gx.detach().numpy(), _graph_names(gx), [None if s is None else s.numpy() for s in second]))
    ours, theirs = results
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
    assert ours[1] == theirs[1]
    for a, b in zip(ours[2], theirs[2]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_second_derivative_through_a_view_of_a_base_with_gaps_is_refused_clearly():
    """A base whose memory has gaps (only ``from_numpy`` of a strided array makes one, torch refuses it there): no
    layout to copy the gradient into, so create_graph=True raises; a first derivative still works."""
    x = at.tensor([1., 2., 3.], requires_grad=True)
    y = at.from_numpy(np.ones(6)[::2])
    y[1:].mul_(x[1:] * x[1:])
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    with pytest.raises(NotImplementedError, match="create_graph=True"):
        at.autograd.grad(y.sum(), x, create_graph=True)
    assert at.autograd.grad(y.sum(), x)[0].tolist() == [0., 4., 6.]
