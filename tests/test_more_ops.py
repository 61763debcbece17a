"""flip, repeat, gather, amax / amin, logsumexp and the activations, without torch: float64 gradients against
central differences, first and second order (the second through create_graph=True), ties shared evenly by
amax / amin, and what the in-place activations compute. The comparisons with torch itself live in
``tests/conformance/test_conf_more_ops.py``."""
import numpy as np
import pytest

import autograd_tutor as torch
from autograd_tutor.nn import functional as F

H = 1e-6


def numeric_grad(f, t: torch.Tensor) -> np.ndarray:
    """Central differences of the scalar ``f()`` with respect to each entry of ``t`` (changed in place)."""
    grad = np.zeros_like(t._data)
    for i in np.ndindex(t._data.shape):
        old = t._data[i]
        t._data[i] = old + H
        up = f().item()
        t._data[i] = old - H
        down = f().item()
        t._data[i] = old
        grad[i] = (up - down) / (2 * H)
    return grad


X = np.array([[0.7, -1.3, 2.1], [-0.4, 1.6, -2.4]])  # no ties, no kinks within H, both sides of 0
W = np.array([[0.5, -2.0, 1.5], [3.0, -0.25, 1.0]])  # weights the output, so that no gradient is trivially 1

OPS = {
    "flip": lambda x: x.flip(0, 1),
    "flip_dims": lambda x: torch.flip(x, [1]),
    "repeat": lambda x: x.repeat(2, 1, 2)[1, :, 1:4],
    "gather": lambda x: x.gather(1, torch.tensor([[2, 2, 0], [1, 0, 1]])),
    "gather_dim0": lambda x: torch.gather(x, 0, torch.tensor([[1, 1, 0]])).expand(2, 3),
    "amax": lambda x: x.amax(1, keepdim=True).expand(2, 3) * x,
    "amin": lambda x: torch.amin(x, 0).expand(2, 3) * x,
    "amax_all": lambda x: x.amax() * x,
    "logsumexp": lambda x: x.logsumexp(1, keepdim=True) * x,
    "logsumexp_all": lambda x: torch.logsumexp(x * 300, (0, 1)) * x,  # large: the max shift keeps it finite
    "leaky_relu": lambda x: F.leaky_relu(x, 0.2) * x,
    "gelu": lambda x: F.gelu(x) * x,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh") * x,
    "silu": lambda x: F.silu(x) * x,
    "softplus": lambda x: F.softplus(x, 2) * x,
    "softplus_threshold": lambda x: F.softplus(x, 2, 3) * x,  # 2 * 2.1 > 3: the linear branch
    "elu": lambda x: F.elu(x, 0.7) * x,
    "elu_inplace": lambda x: F.elu(x * 1, 0.7, inplace=True) * x,
    "leaky_relu_inplace": lambda x: F.leaky_relu(x * 1, 0.2, inplace=True) * x,
    "silu_inplace": lambda x: F.silu(x * 1, inplace=True) * x,
}


def _loss(op, x):
    """sum(w * y**2) for y = op(x): nonlinear, so that the second derivative goes through the op's backward too."""
    y = op(x)
    return (y * y * torch.tensor(W[tuple(slice(n) for n in y.shape)])).sum()


@pytest.mark.parametrize("name", OPS)
def test_gradient_matches_central_differences(name):
    x = torch.tensor(X, requires_grad=True)
    _loss(OPS[name], x).backward()
    np.testing.assert_allclose(x.grad._data, numeric_grad(lambda: _loss(OPS[name], x), x), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", OPS)
def test_second_derivative_matches_central_differences(name):
    """d/dx of sum(w * dL/dx), with dL/dx recorded by create_graph=True, against central differences of it."""
    x = torch.tensor(X, requires_grad=True)
    w = torch.tensor(W[::-1].copy())

    def weighted_grad():
        (g,) = torch.autograd.grad(_loss(OPS[name], x), x, create_graph=True)
        return (g * w).sum()

    (h,) = torch.autograd.grad(weighted_grad(), x, allow_unused=True, materialize_grads=True)
    np.testing.assert_allclose(h._data, numeric_grad(weighted_grad, x), rtol=1e-5, atol=1e-6)


def test_amax_and_amin_share_the_gradient_among_ties():
    x = torch.tensor([[2., 5., 5.], [1., 1., 1.]], dtype=torch.float64, requires_grad=True)
    x.amax(1).backward(torch.tensor([6., 3.], dtype=torch.float64))
    np.testing.assert_array_equal(x.grad._data, [[0, 3, 3], [1, 1, 1]])
    x.grad = None
    torch.amin(x).backward()
    np.testing.assert_array_equal(x.grad._data, [[0, 0, 0], [1 / 3, 1 / 3, 1 / 3]])


def test_gather_adds_up_repeated_indices():
    x = torch.tensor([[1., 2., 3.]], requires_grad=True)
    y = x.gather(1, torch.tensor([[2, 2, 2, 0]]))
    assert y.tolist() == [[3., 3., 3., 1.]]
    y.backward(torch.tensor([[1., 2., 4., 8.]]))
    assert x.grad.tolist() == [[8., 0., 7.]]


def test_values():
    x = torch.tensor(X)
    np.testing.assert_allclose(torch.logsumexp(x, 1)._data, np.log(np.exp(X).sum(1)), rtol=1e-15)
    np.testing.assert_allclose(torch.logsumexp(x * 1000, 1)._data, 1000 * X.max(1) + np.log(np.exp(1000 * (X - X.max(1, keepdims=True))).sum(1)))
    np.testing.assert_array_equal(x.repeat(2, 1)._data, np.tile(X, (2, 1)))
    np.testing.assert_array_equal(x.flip(1)._data, X[:, ::-1])
    np.testing.assert_allclose(F.silu(x)._data, X / (1 + np.exp(-X)), rtol=1e-15)
    np.testing.assert_allclose(F.softplus(x)._data, np.log1p(np.exp(X)), rtol=1e-15)
    np.testing.assert_allclose(F.elu(x, 0.5)._data, np.where(X > 0, X, 0.5 * np.expm1(X)), rtol=1e-15)
    np.testing.assert_allclose(F.leaky_relu(x, 0.1)._data, np.where(X > 0, X, 0.1 * X), rtol=1e-15)
    # Phi(1) = 0.8413447460685429..., so gelu(1) = Phi(1) and gelu(-1) = -(1 - Phi(1))
    np.testing.assert_allclose(F.gelu(torch.tensor([1., -1.], dtype=torch.float64))._data,
                               [0.8413447460685429, -0.15865525393145707], rtol=1e-15)
    tanh_form = 0.5 * X * (1 + np.tanh(np.sqrt(2 / np.pi) * (X + 0.044715 * X ** 3)))
    np.testing.assert_allclose(F.gelu(x, approximate="tanh")._data, tanh_form, rtol=1e-14)


def test_flip_and_repeat_copy():
    """Their results own their data: writing into one leaves the input alone, as in torch."""
    x = torch.tensor([1., 2., 3.])
    y, z = x.flip(0), x.repeat(1)
    y[0] = 10.
    z[0] = 10.
    assert x.tolist() == [1., 2., 3.]


def test_inplace_activations_overwrite_their_input():
    x = torch.tensor([-1., 2.], requires_grad=True)
    y = x * 1
    for fn in (lambda t: F.elu(t, inplace=True), lambda t: F.leaky_relu(t, 0.5, inplace=True),
               lambda t: F.silu(t, inplace=True)):
        y = x * 1
        assert fn(y) is y and y._version == 1
    assert F.leaky_relu_(torch.tensor([-2.]), 0.5).tolist() == [-1.]
