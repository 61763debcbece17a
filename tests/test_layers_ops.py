"""The ops and layers of test_conf_layers_ops.py (and batch norm) without torch: float64 gradients against central differences
(first order for all, second order through create_graph=True where the backward is recorded), the clear error
of the backwards that work on arrays only, and median's tie rule."""
import numpy as np
import pytest

import autograd_tutor as torch
from autograd_tutor.nn import functional as F

from test_more_ops import numeric_grad

X = np.array([[0.7, -1.3, 2.1], [-0.4, 1.6, -2.4]])  # no ties, both signs
W = np.array([[0.5, -2.0, 1.5], [3.0, -0.25, 1.0]])
IDX = torch.tensor([[1, 0], [2, 2], [0, 1]])

OPS = {  # name: (op, recorded under create_graph)
    "vstack": (lambda x: torch.vstack([x[0], x, x[1] * 2]), True),
    "hstack": (lambda x: torch.hstack([x, x[:, :1] ** 2]), True),
    "tensor_split": (lambda x: torch.cat([p * (i + 1) for i, p in enumerate(x.tensor_split(2, 1))], 1), True),
    "atan2": (lambda x: torch.atan2(x, x.flip(1) + 0.5), True),
    "cumprod": (lambda x: x.cumprod(1), False),
    "cumprod_zero": (lambda x: (x * torch.tensor([[1., 0., 1.], [1., 1., 0.]])).cumprod(1), False),
    "index_select": (lambda x: x.index_select(1, torch.tensor([2, 0, 2])), False),
    "masked_select": (lambda x: x.masked_select(torch.tensor([True, False, True])).reshape(2, 2), False),
    "repeat_interleave": (lambda x: x.repeat_interleave(2, 1)[:, ::2] * x, True),
    "repeat_interleave_t": (lambda x: x.repeat_interleave(torch.tensor([1, 2]), 0)[1:], False),
    "roll": (lambda x: x.roll((1, -1), (0, 1)) * x, True),
    "roll_flat": (lambda x: x.roll(2) * x, True),
    "tile": (lambda x: x.tile((2, 1))[1:3], True),
    "movedim": (lambda x: x.movedim(0, 1).T * x, True),
    "median": (lambda x: x.median() * x, True),  # recorded once (MaskedFillBackward1), arrays only after
    "median_dim": (lambda x: x.median(1, keepdim=True).values * x, True),
    "sigmoid_": (lambda x: (x * 1).sigmoid_() * x, True),
    "tanh_": (lambda x: (x * 1).tanh_() * x, True),
    "sqrt_": (lambda x: (x * x).sqrt_() * x, True),
    "layer_norm": (lambda x: F.layer_norm(x, (3,)), False),
    "layer_norm_2d": (lambda x: F.layer_norm(x * x, (2, 3), eps=0.1), False),
    "layer_norm_affine": (lambda x: F.layer_norm(x, (3,), x[0] * 2, x[1]), False),
    "embedding": (lambda x: F.embedding(IDX, x.T) * 1.5, False),
    "batch_norm": (lambda x: F.batch_norm(x, None, None, training=True), False),
    "batch_norm_affine_3d": (lambda x: F.batch_norm(torch.stack([x, x * x], 2), None, None, x[0] * 2, x[1],
                                                    training=True, eps=0.1), False),
    "batch_norm_eval": (lambda x: F.batch_norm(x, torch.tensor([0.5, -1., 0.], dtype=torch.float64),
                                               torch.tensor([2., 0.5, 1.], dtype=torch.float64), x[0], x[1]), False),
}


def _loss(op, x):
    """sum(w * y**2) for y = op(x): nonlinear, so that second derivatives go through the op's backward too."""
    y = op(x)
    w = np.resize(W, y.shape)
    return (y * y * torch.tensor(w)).sum()


@pytest.mark.parametrize("name", OPS)
def test_gradient_matches_central_differences(name):
    op, _ = OPS[name]
    x = torch.tensor(X, requires_grad=True)
    _loss(op, x).backward()
    np.testing.assert_allclose(x.grad._data, numeric_grad(lambda: _loss(op, x), x), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", [n for n, (_, recorded) in OPS.items() if recorded])
def test_second_derivative_matches_central_differences(name):
    op, _ = OPS[name]
    x = torch.tensor(X, requires_grad=True)
    w = torch.tensor(W[::-1].copy())

    def weighted_grad():
        (g,) = torch.autograd.grad(_loss(op, x), x, create_graph=True)
        return (g * w).sum()

    (h,) = torch.autograd.grad(weighted_grad(), x, allow_unused=True, materialize_grads=True)
    np.testing.assert_allclose(h._data, numeric_grad(weighted_grad, x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", [n for n, (_, recorded) in OPS.items() if not recorded])
def test_arrays_only_backward_says_so_under_create_graph(name):
    x = torch.tensor(X, requires_grad=True)
    with pytest.raises(NotImplementedError, match="autograd_tutor cannot differentiate"):
        (g,) = torch.autograd.grad(_loss(OPS[name][0], x), x, create_graph=True)
        (g * g).sum().backward()


def test_layer_norm_weight_and_bias_gradients():
    x = torch.tensor(X)
    w = torch.tensor([0.5, -1., 2.], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.1, 0.2, -0.3], dtype=torch.float64, requires_grad=True)
    loss = lambda: (F.layer_norm(x, (3,), w, b) ** 2 * torch.tensor(W)).sum()  # noqa: E731
    loss().backward()
    np.testing.assert_allclose(w.grad._data, numeric_grad(loss, w), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(b.grad._data, numeric_grad(loss, b), rtol=1e-6, atol=1e-7)


def test_layer_norm_standardises_rows():
    y = F.layer_norm(torch.tensor(X), (3,), eps=0.0)._data
    np.testing.assert_allclose(y.mean(1), 0, atol=1e-12)
    np.testing.assert_allclose(y.var(1), 1, rtol=1e-12)


def test_embedding_rows_and_padding_gradient():
    w = torch.tensor(X.T.copy(), requires_grad=True)  # 3 rows of 2
    F.embedding(torch.tensor([2, 0, 2]), w, padding_idx=0).sum().backward()
    assert w.grad.tolist() == [[0., 0.], [0., 0.], [2., 2.]]
    assert F.embedding(torch.tensor([1]), w).tolist() == [X.T[1].tolist()]
    w.grad = None
    F.embedding(torch.tensor([2, 0, 2]), w, scale_grad_by_freq=True).sum().backward()  # each row / its count
    assert w.grad.tolist() == [[1., 1.], [0., 0.], [1., 1.]]


def test_median_third_derivative_is_refused_clearly():
    x = torch.tensor(X, requires_grad=True)
    (g,) = torch.autograd.grad(x.median() * x.sum(), x, create_graph=True)
    assert g.grad_fn.name() == "AddBackward0"
    with pytest.raises(NotImplementedError, match="masked_fill with a tensor value"):
        torch.autograd.grad(g.sum(), x, create_graph=True)


def test_median_ties_and_nan():
    t = torch.tensor([[5., 1., 5., 1.], [2., 2., 2., 2.], [3., float("nan"), 1., 0.]])
    r = t.median(1)
    assert r.indices.tolist() == [3, 1, 1]  # stable-sort position (n - 1) // 2; the first nan
    assert r.values[:2].tolist() == [1., 2.] and r.values[2].isnan()
    assert t[:2].median().item() == 2.0  # 1 1 2 2 2 2 5 5: the lower of the two middle values
    x = torch.tensor([1., 3., 3., 0.], requires_grad=True)
    x.median().backward()  # the lower median is 1: one entry
    assert x.grad.tolist() == [1., 0., 0., 0.]
    y = torch.tensor([3., 1., 3., 5., 3.], requires_grad=True)
    y.median().backward()  # three entries equal the median: the gradient is shared
    np.testing.assert_allclose(y.grad._data, [1 / 3, 0, 1 / 3, 0, 1 / 3])


def test_inplace_saving_result_detects_later_change():
    a = torch.tensor([0.5, 2.], requires_grad=True)
    x = a.clone()
    x.sigmoid_()
    x.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        x.sum().backward()


def test_bernoulli_follows_the_seed():
    p = torch.tensor([0.2, 0.9, 0.5, 0.5])
    torch.manual_seed(7)
    first = p.bernoulli()
    torch.manual_seed(7)
    assert torch.bernoulli(p).equal(first)
    assert set(p.bernoulli(0.5).tolist()) <= {0.0, 1.0}
