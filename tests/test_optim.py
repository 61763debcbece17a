"""optim without torch: SGD and Adam against their formulas written out in NumPy, parameter groups, state, and
what an update does to the graph. The comparisons with torch itself live in ``tests/conformance_nn``."""
import numpy as np
import pytest

import autograd_tutor as torch
from autograd_tutor import nn

RNG = np.random.default_rng(0)


def quadratic_problem():
    """Two parameters and a loss whose gradient is known: L = sum(A w - y)^2 + sum(b^2) / 2."""
    a = torch.tensor(RNG.standard_normal((5, 3)))
    y = torch.tensor(RNG.standard_normal(5))
    w = nn.Parameter(torch.tensor(RNG.standard_normal(3)))
    b = nn.Parameter(torch.tensor(RNG.standard_normal(2)))

    def loss():
        return ((a @ w - y) ** 2).sum() + (b ** 2).sum() / 2

    def grads(w_value, b_value):
        return 2 * a._data.T @ (a._data @ w_value - y._data), b_value

    return (w, b), loss, grads


def run(optimizer, loss, steps):
    for _ in range(steps):
        optimizer.zero_grad()
        loss().backward()
        optimizer.step()


@pytest.mark.parametrize("options", [
    {}, {"momentum": 0.9}, {"momentum": 0.9, "dampening": 0.5}, {"momentum": 0.8, "nesterov": True},
    {"weight_decay": 0.1}, {"momentum": 0.5, "weight_decay": 0.01, "maximize": True},
])
def test_sgd_follows_its_formula(options):
    params, loss, grads = quadratic_problem()
    expected = [p._data.copy() for p in params]
    run(torch.optim.SGD(params, lr=0.01, **options), loss, steps=5)
    lr, mu, tau = 0.01, options.get("momentum", 0), options.get("dampening", 0)
    wd, sign = options.get("weight_decay", 0), -1 if options.get("maximize") else 1
    buffers = [None, None]
    for _ in range(5):
        for i, g in enumerate(grads(*expected)):
            g = sign * g + wd * expected[i]
            if mu:
                buffers[i] = g.copy() if buffers[i] is None else mu * buffers[i] + (1 - tau) * g
                g = g + mu * buffers[i] if options.get("nesterov") else buffers[i]
            expected[i] = expected[i] - lr * g
    for p, want in zip(params, expected):
        np.testing.assert_allclose(p._data, want, rtol=1e-10)


@pytest.mark.parametrize("options", [
    {}, {"betas": (0.5, 0.9)}, {"weight_decay": 0.1}, {"amsgrad": True}, {"maximize": True},
    {"weight_decay": 0.1, "decoupled_weight_decay": True},
])
def test_adam_follows_its_formula(options):
    params, loss, grads = quadratic_problem()
    expected = [p._data.copy() for p in params]
    run(torch.optim.Adam(params, lr=0.05, **options), loss, steps=6)
    lr, eps = 0.05, 1e-8
    beta1, beta2 = options.get("betas", (0.9, 0.999))
    wd, sign = options.get("weight_decay", 0), -1 if options.get("maximize") else 1
    m = [np.zeros_like(e) for e in expected]
    v = [np.zeros_like(e) for e in expected]
    vmax = [np.zeros_like(e) for e in expected]
    for t in range(1, 7):
        for i, g in enumerate(grads(*expected)):
            g = sign * g
            if options.get("decoupled_weight_decay"):
                expected[i] = expected[i] * (1 - lr * wd)
            else:
                g = g + wd * expected[i]
            m[i] = beta1 * m[i] + (1 - beta1) * g
            v[i] = beta2 * v[i] + (1 - beta2) * g * g
            vmax[i] = np.maximum(vmax[i], v[i])
            second = vmax[i] if options.get("amsgrad") else v[i]
            m_hat, v_hat = m[i] / (1 - beta1 ** t), second / (1 - beta2 ** t)
            expected[i] = expected[i] - lr * m_hat / (np.sqrt(v_hat) + eps)
    for p, want in zip(params, expected):
        np.testing.assert_allclose(p._data, want, rtol=1e-9)


def test_adams_first_step_moves_each_weight_by_about_lr():
    """Bias correction makes m_hat = g and v_hat = g^2 at step 1, so the step is lr * g / |g|."""
    w = nn.Parameter(torch.tensor([3., -0.001, 250.]))
    opt = torch.optim.Adam([w], lr=0.1)
    (w * torch.tensor([2., 1e-3, -7.])).sum().backward()
    opt.step()
    np.testing.assert_allclose(w._data, [2.9, -0.101, 250.1], rtol=1e-5)
    state = opt.state[w]
    assert sorted(state) == ["exp_avg", "exp_avg_sq", "step"] and repr(state["step"]) == "tensor(1.)"
    np.testing.assert_allclose(state["exp_avg"]._data, [0.2, 1e-4, -0.7], rtol=1e-5)


def test_step_updates_in_place_and_keeps_parameters_and_dtypes():
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)).double()
    before = {name: (p, p._data, p._data.copy(), p._version) for name, p in model.named_parameters()}
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.ones(4, 2, dtype=torch.float64)).sum().backward()
    assert opt.step() is None
    for name, p in model.named_parameters():
        same, array, old, version = before[name]
        assert p is same and p._data is array and type(p) is nn.Parameter and p.dtype == torch.float64
        assert not np.array_equal(p._data, old) and p._version == version + 1
        assert p.is_leaf and p.requires_grad and p.grad_fn is None


def test_parameters_without_gradients_are_skipped():
    used, unused = nn.Parameter(torch.ones(2)), nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([used, unused], lr=0.5, momentum=0.9)
    (used * 2).sum().backward()
    opt.step()
    assert used.tolist() == [0., 0.] and unused.tolist() == [1., 1.]
    assert list(opt.state) == [used] and opt.state[used]["momentum_buffer"].tolist() == [2., 2.]
    assert unused not in opt.state


def test_zero_grad_resets_to_none_or_to_zeros():
    w = nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([w])
    (w * 3).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert w.grad.tolist() == [0., 0.]
    opt.zero_grad()
    assert w.grad is None


def test_parameter_groups_have_their_own_settings():
    first, second = nn.Linear(2, 2), nn.Linear(2, 1)
    opt = torch.optim.SGD([{"params": first.parameters()}, {"params": second.parameters(), "lr": 0.5}],
                          lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5] and opt.param_groups[1]["momentum"] == 0.9
    assert repr(opt).startswith("SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n")
    assert repr(opt).endswith("\nParameter Group 1\n    dampening: 0\n    differentiable: False\n    foreach: None\n"
                              "    fused: None\n    lr: 0.5\n    maximize: False\n    momentum: 0.9\n"
                              "    nesterov: False\n    weight_decay: 0\n)")
    extra = nn.Parameter(torch.zeros(1))
    opt.add_param_group({"params": extra, "momentum": 0})
    assert opt.param_groups[2]["params"] == [extra] and opt.param_groups[2]["lr"] == 0.1
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [extra]})
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate parameters"):
        torch.optim.SGD([extra, extra])
    named = torch.optim.Adam(first.named_parameters())
    assert named.param_groups[0]["param_names"] == ["weight", "bias"]
    assert named.param_groups[0]["params"] == [first.weight, first.bias]


def test_adam_repr_lists_torchs_settings():
    opt = torch.optim.Adam([nn.Parameter(torch.zeros(1))], lr=0.01)
    assert repr(opt) == ("Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n"
                         "    capturable: False\n    decoupled_weight_decay: False\n    differentiable: False\n"
                         "    eps: 1e-08\n    foreach: None\n    fused: None\n    lr: 0.01\n    maximize: False\n"
                         "    weight_decay: 0\n)")


def test_state_dict_numbers_the_parameters_and_load_state_dict_maps_them_back():
    params, loss, _ = quadratic_problem()
    opt = torch.optim.Adam(params, lr=0.05, amsgrad=True)
    run(opt, loss, 3)
    saved = opt.state_dict()
    assert list(saved["state"]) == [0, 1] and saved["param_groups"][0]["params"] == [0, 1]
    assert saved["state"][0]["exp_avg"] is opt.state[params[0]]["exp_avg"]  # torch does not copy either
    twin = [nn.Parameter(torch.tensor(p._data.copy())) for p in params]
    restored = torch.optim.Adam(twin, lr=1.0)
    restored.load_state_dict(saved)
    assert restored.param_groups[0]["lr"] == 0.05 and restored.param_groups[0]["params"] == twin
    assert restored.state[twin[1]]["step"].item() == 3 and restored.state[twin[1]]["exp_avg"].dtype == torch.float64
    with pytest.raises(ValueError, match="loaded state dict has a different number of parameter groups"):
        restored.load_state_dict({"state": {}, "param_groups": []})
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        restored.load_state_dict({"state": {}, "param_groups": [{"params": [0]}]})


def test_checkpoint_then_resume_matches_an_uninterrupted_run():
    def build():
        torch.manual_seed(4)
        model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
        return model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    x, y = torch.tensor(RNG.standard_normal((8, 2)).astype(np.float32)), torch.zeros(8, 1)

    def train(model, opt, steps):
        for _ in range(steps):
            opt.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            opt.step()

    straight, straight_opt = build()
    train(straight, straight_opt, 6)
    first, first_opt = build()
    train(first, first_opt, 3)
    model_state, opt_state = first.state_dict(), first_opt.state_dict()
    resumed, resumed_opt = build()
    resumed.load_state_dict(model_state)
    resumed_opt.load_state_dict(opt_state)
    train(resumed, resumed_opt, 3)
    for a, b in zip(straight.parameters(), resumed.parameters()):
        np.testing.assert_array_equal(a._data, b._data)


def test_closure_reevaluates_with_grad_enabled_and_returns_its_loss():
    params, loss, _ = quadratic_problem()
    opt = torch.optim.SGD(params, lr=0.01)
    calls = []

    def closure():
        opt.zero_grad()
        value = loss()
        value.backward()
        calls.append(torch.is_grad_enabled())
        return value

    with torch.no_grad():
        first = opt.step(closure)
    second = opt.step(closure)
    assert calls == [True, True] and first.requires_grad and second.item() < first.item()


def test_an_update_invalidates_graphs_that_saved_the_old_weights():
    w = nn.Parameter(torch.tensor([1., 2.]))
    opt = torch.optim.SGD([w], lr=0.1)
    loss = (w ** 2).sum()
    loss.backward(retain_graph=True)
    opt.step()
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation: \[torch.FloatTensor \[2\]\] is at "
                                           r"version 1; expected version 0 instead"):
        loss.backward()


def test_errors_use_torchs_words():
    w = nn.Parameter(torch.zeros(1))
    cases = [
        (lambda: torch.optim.SGD([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
        (lambda: torch.optim.SGD(w, lr=0.1), TypeError, "should be an iterable of Tensors or dicts, but got "
                                                        "torch.FloatTensor"),
        (lambda: torch.optim.SGD([w * 2]), ValueError, "can't optimize a non-leaf Tensor"),
        (lambda: torch.optim.SGD([3]), TypeError, "optimizer can only optimize Tensors, but one of the params is int"),
        (lambda: torch.optim.SGD([w], lr=-1), ValueError, "Invalid learning rate: -1"),
        (lambda: torch.optim.SGD([w], nesterov=True), ValueError, "Nesterov momentum requires a momentum and zero "
                                                                  "dampening"),
        (lambda: torch.optim.Adam([w], betas=(0.9, 1.0)), ValueError, "Invalid beta parameter at index 1: 1.0"),
        (lambda: torch.optim.Adam([w], eps=-1.), ValueError, "Invalid epsilon value: -1.0"),
        (lambda: torch.optim.Adam([w], differentiable=True), NotImplementedError, "differentiable=True"),
        (lambda: torch.optim.SGD([{"params": {w}}]), TypeError, "ordering of tensors in sets will change between runs"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()


def test_a_small_network_learns():
    torch.manual_seed(0)
    x = torch.tensor(RNG.uniform(-1, 1, (64, 2)).astype(np.float32))
    y = (x[:, :1] * x[:, 1:]).detach()
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    losses = []
    for _ in range(150):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.1 * losses[0]
