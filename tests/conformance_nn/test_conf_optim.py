"""optim and whole training loops, run in torch and in autograd_tutor: same reprs and errors, and the same losses
and weights after 20 steps from the same initial weights."""
import numpy as np
import pytest
from nn_programs import SET_WEIGHTS

import autograd_tutor

torch = pytest.importorskip("torch")

SETUP = SET_WEIGHTS + """
rng = np.random.default_rng(1)
X = torch.tensor(rng.standard_normal((32, 2)).astype(np.float32))
Y = torch.sin(X[:, :1] * 2)
labels = torch.tensor((X[:, 0] > 0).long().numpy() + (X[:, 1] > 0.5).long().numpy())
def mlp():
    return set_weights(nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1)))
def classifier():
    return set_weights(nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3)))
def train(model, loss_fn, target, opt, steps=20):
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(X), target)
        loss.backward()
        opt.step()
        val(loss)
    for p in model.parameters():
        val(p)
"""

CASES = {
    "reprs": """
m = classifier()
print(torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4))
print(torch.optim.SGD(m.parameters()))
print(torch.optim.Adam(m.parameters()))
print(torch.optim.Adam(m.parameters(), lr=0.01, betas=(0.8, 0.99), amsgrad=True, weight_decay=0.1))
opt = torch.optim.SGD([{"params": m[0].parameters()}, {"params": m[2].parameters(), "lr": 0.5}], lr=0.1)
print(opt, len(opt.param_groups), [len(g["params"]) for g in opt.param_groups])
print(sorted(opt.defaults), opt.state)
opt.add_param_group({"params": [nn.Parameter(torch.zeros(1))], "momentum": 0.5})
print(opt)
named = torch.optim.SGD(m.named_parameters(), lr=0.1)
print(named.param_groups[0]["param_names"])
""",
    "errors": """
m = classifier()
with expect(): torch.optim.SGD([], lr=0.1)
with expect(): torch.optim.SGD(torch.zeros(1), lr=0.1)
with expect(): torch.optim.SGD([1], lr=0.1)
with expect(): torch.optim.SGD([torch.ones(1, requires_grad=True) * 2], lr=0.1)
with expect(): torch.optim.SGD(m.parameters(), lr=-0.1)
with expect(): torch.optim.SGD(m.parameters(), lr=0.1, momentum=-1)
with expect(): torch.optim.SGD(m.parameters(), lr=0.1, weight_decay=-1)
with expect(): torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True)
with expect(): torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)
with expect(): torch.optim.SGD(m.parameters(), foreach=True, fused=True)
with expect(): torch.optim.Adam(m.parameters(), lr=-1)
with expect(): torch.optim.Adam(m.parameters(), eps=-1)
with expect(): torch.optim.Adam(m.parameters(), betas=(1.0, 0.9))
with expect(): torch.optim.Adam(m.parameters(), betas=(0.9, 1))
with expect(): torch.optim.Adam(m.parameters(), betas=(0, 0.9))
with expect(): torch.optim.Adam(m.parameters(), weight_decay=-1)
opt = torch.optim.SGD(m[0].parameters(), lr=0.1)
with expect(): opt.add_param_group({"params": m[0].bias})
with expect(): opt.add_param_group([m[2].bias])
with expect(): opt.add_param_group({"params": {m[2].bias}})
with expect(): opt.load_state_dict({"state": {}, "param_groups": []})
with expect(): opt.load_state_dict({"state": {}, "param_groups": [{"params": [0]}]})
""",
    "state and state_dict": """
m = classifier()
sgd = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
F.cross_entropy(m(X), labels).backward()
sgd.step()
print(sgd.state_dict()["param_groups"], list(sgd.state_dict()["state"]))
val(sgd.state_dict()["state"][0]["momentum_buffer"])
print(sgd.state[m[0].weight].keys(), len(sgd.state))
adam = torch.optim.Adam(m.parameters(), lr=0.01, amsgrad=True)
adam.step()
print(adam.state_dict()["param_groups"])
st = adam.state[m[2].bias]
print(sorted(st), st["step"])
val(st["exp_avg"], st["exp_avg_sq"], st["max_exp_avg_sq"])
adam2 = torch.optim.Adam(m.parameters(), lr=0.5)
adam2.load_state_dict(adam.state_dict())
print(adam2.param_groups[0]["lr"], adam2.state[m[2].bias]["step"], adam2.state[m[2].bias]["exp_avg"] is st["exp_avg"])
print(adam2.param_groups[0]["params"][0] is m[0].weight)
""",
    "zero_grad and skipped parameters": """
m = classifier()
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
opt.step()
print(len(opt.state), m[0].weight.grad)
F.cross_entropy(m(X), labels).backward()
opt.zero_grad(set_to_none=False)
print(m[2].bias.grad)
opt.zero_grad()
print(m[2].bias.grad)
m[0].requires_grad_(False)
F.cross_entropy(m(X), labels).backward()
before = m[0].weight.clone()
opt.step()
print(torch.equal(before, m[0].weight), len(opt.state), m[0].weight.grad)
val(m[2].weight, m[2].bias)
""",
    "closure": """
m = mlp()
opt = torch.optim.SGD(m.parameters(), lr=0.05)
def closure():
    opt.zero_grad()
    loss = F.mse_loss(m(X), Y)
    loss.backward()
    return loss
for _ in range(3):
    loss = opt.step(closure)
    print(loss.grad_fn.name(), loss.requires_grad)
    val(loss)
with torch.no_grad():
    loss = opt.step(closure)
print(loss.requires_grad, torch.is_grad_enabled())
""",
    "mlp tanh mse sgd momentum weight decay": """
m = mlp()
train(m, nn.MSELoss(), Y, torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4))
""",
    "classifier relu cross entropy adam": """
m = classifier()
train(m, nn.CrossEntropyLoss(), labels, torch.optim.Adam(m.parameters(), lr=0.01))
""",
    "adam amsgrad weight decay maximize": """
m = classifier()
train(m, nn.CrossEntropyLoss(), labels, torch.optim.Adam(m.parameters(), lr=0.02, amsgrad=True, weight_decay=0.01))
m = classifier()
train(m, nn.CrossEntropyLoss(), labels, torch.optim.Adam(m.parameters(), lr=0.02, weight_decay=0.1,
                                                          decoupled_weight_decay=True, betas=(0.5, 0.9)))
m = mlp()
train(m, lambda out, y: -F.mse_loss(out, y), Y, torch.optim.Adam(m.parameters(), lr=0.01, maximize=True), steps=5)
""",
    "sgd nesterov dampening maximize": """
m = mlp()
train(m, nn.MSELoss(), Y, torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.8, nesterov=True))
m = mlp()
train(m, nn.MSELoss(), Y, torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.8, dampening=0.3))
m = classifier()
train(m, lambda out, y: -F.cross_entropy(out, y), labels, torch.optim.SGD(m.parameters(), lr=0.1, maximize=True))
m = classifier()
groups = [{"params": m[0].parameters(), "lr": 0.3}, {"params": m[2].parameters(), "momentum": 0.5}]
train(m, nn.CrossEntropyLoss(), labels, torch.optim.SGD(groups, lr=0.1))
""",
    "manual updates under no_grad": """
m = mlp()
for step in range(20):
    loss = F.mse_loss(m(X), Y)
    m.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in m.parameters():
            p -= 0.1 * p.grad
    val(loss)
for p in m.parameters():
    print(type(p).__name__, p.requires_grad, p.is_leaf, p.grad_fn, p._version)
    val(p)
w = m[0].weight
with expect(): w -= 0.1 * w.grad
with torch.no_grad():
    w.sub_(w.grad, alpha=0.1)
    w.grad.zero_()
print(w.grad.abs().sum(), w._version)
""",
    "an optimizer step invalidates the graph": """
m = classifier()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
loss = F.cross_entropy(m(X), labels) + (m[0].weight ** 2).sum()
loss.backward(retain_graph=True)
opt.step()
print([p._version for p in m.parameters()])
with expect(): (m[0].weight ** 2).sum().backward()
with expect(): loss.backward()
""",
}


@pytest.mark.parametrize("name", CASES)
def test_optim_program(conform, name):
    conform(SETUP + CASES[name])


def _build(lib, sizes, activation):
    layers = []
    for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
        layers.append(lib.nn.Linear(n_in, n_out))
        if i < len(sizes) - 2:
            layers.append(getattr(lib.nn, activation)())
    return lib.nn.Sequential(*layers)


@pytest.mark.parametrize("sizes, activation, loss, optimizer, options", [
    ((2, 16, 16, 1), "Tanh", "MSELoss", "SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 1e-4}),
    ((2, 8, 3), "ReLU", "CrossEntropyLoss", "Adam", {"lr": 0.01}),
    ((2, 8, 8, 3), "Sigmoid", "CrossEntropyLoss", "SGD", {"lr": 0.5, "momentum": 0.5, "nesterov": True}),
])
def test_our_initial_weights_train_like_torch(sizes, activation, loss, optimizer, options):
    """Our Linear init, copied into torch's modules: 20 steps give the same losses and weights."""
    autograd_tutor.manual_seed(0)
    ours = _build(autograd_tutor, sizes, activation)
    theirs = _build(torch, sizes, activation)
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})
    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 2)).astype(np.float32)
    if loss == "MSELoss":
        y = np.tanh(x @ [[1.0], [-2.0]]).astype(np.float32)
    else:
        y = (x.sum(1) > 0).astype(np.int64) + (x[:, 0] > 1)
    results = []
    for lib, model in ((autograd_tutor, ours), (torch, theirs)):
        opt = getattr(lib.optim, optimizer)(model.parameters(), **options)
        loss_fn = getattr(lib.nn, loss)()
        inputs, target = lib.tensor(x), lib.tensor(y)
        losses = []
        for _ in range(20):
            opt.zero_grad()
            value = loss_fn(model(inputs), target)
            value.backward()
            opt.step()
            losses.append(value.item())
        results.append((losses, {k: v.numpy().copy() for k, v in model.state_dict().items()}))
    (our_losses, our_weights), (torch_losses, torch_weights) = results
    np.testing.assert_allclose(our_losses, torch_losses, rtol=1e-5)
    assert our_losses[-1] < our_losses[0]
    assert our_weights.keys() == torch_weights.keys()
    for key in our_weights:
        np.testing.assert_allclose(our_weights[key], torch_weights[key], rtol=1e-5, atol=1e-6, err_msg=key)
