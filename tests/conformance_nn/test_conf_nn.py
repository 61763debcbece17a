"""nn, run in torch and in autograd_tutor: the same program text must print the same transcript (reprs, graph
node names, warnings, error messages) and compute the same values (see ``tests/conformance/conftest.py``).

Weights are set from NumPy in each program, so both libraries start from the same numbers."""
import pytest
from nn_programs import SET_WEIGHTS

pytest.importorskip("torch")

SETUP = SET_WEIGHTS + """
import collections
rng = np.random.default_rng(1)
X = torch.tensor(rng.standard_normal((6, 2)).astype(np.float32))
"""

CASES = {
    "parameter": """
p = nn.Parameter(torch.tensor([1., 2.]))
print(repr(p)); print(str(p)); print(f"{p}")
print(p.is_leaf, p.requires_grad, p.grad_fn, type(p).__name__, isinstance(p, torch.Tensor))
q = nn.Parameter(torch.tensor(3.), requires_grad=False)
print(repr(q), q.requires_grad, f"{q}")
y = p * 2
print(repr(y), type(y).__name__, type(p.detach()).__name__, type(p.data).__name__, type(p[0]).__name__)
y.sum().backward()
print(p.grad)
with expect(): p.add_(1)
with expect(): nn.Parameter(torch.tensor([1, 2]))
print(nn.Parameter())
t = torch.tensor([1., 2.])
p = nn.Parameter(t)
with torch.no_grad():
    p.add_(1)
print(t, t._version, p._version)
r = nn.Parameter(torch.ones(2, requires_grad=True) * 2)
print(r, r.is_leaf)
print(nn.Parameter(torch.ones(2, dtype=torch.float64)))
""",
    "module reprs": """
print(nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1)))
print(nn.Linear(3, 2, bias=False), nn.ReLU(), nn.ReLU(inplace=True), nn.Sigmoid(), nn.Identity(3, x=1))
print(nn.Softmax(dim=1), nn.Softmax(), nn.LogSoftmax(dim=-1), nn.Flatten(), nn.Flatten(0, 1))
print(nn.MSELoss(), nn.MSELoss(reduction="sum"), nn.CrossEntropyLoss(), nn.NLLLoss(), nn.Sequential())
print(repr(nn.Sequential(collections.OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())]))))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Sequential(nn.Linear(8, 8), nn.Tanh()))
        self.head = nn.Linear(8, 3)
    def forward(self, x):
        return self.head(self.body(x))
print(Net())
class Empty(nn.Module):
    def extra_repr(self):
        return "a=1\\nb=2"
print(Empty())
""",
    "names and state_dict": """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
        self.head = nn.Linear(2, 1)
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("tmp", torch.zeros(2), persistent=False)
        self.plain = 3
    def forward(self, x):
        return self.head(self.net(x)) * self.scale
n = set_weights(Net())
print([k for k, _ in n.named_parameters()], [k for k, _ in n.named_modules()], [k for k, _ in n.named_buffers()])
print([k for k, _ in n.named_children()], len(list(n.parameters())), len(list(n.modules())))
print([k for k, _ in n.named_parameters(recurse=False)], [k for k, _ in n.named_parameters(prefix="model")])
print(list(n.state_dict().keys()))
print(n.state_dict())
print(n.scale, n.running, n.plain, n.net[0].bias)
with expect(): n.missing
shared = nn.Linear(1, 1)
s = nn.Sequential(shared, shared)
print(len(list(s.parameters())), [k for k, _ in s.named_parameters()], list(s.state_dict()), len(list(s.modules())))
print(nn.CrossEntropyLoss(weight=torch.ones(3)).state_dict(), nn.CrossEntropyLoss().state_dict())
del n.scale
print([k for k, _ in n.named_parameters()])
n.head = None
print(n, list(n.state_dict()))
""",
    "load_state_dict": """
m = set_weights(nn.Sequential(nn.Linear(3, 2), nn.ReLU()))
sd = m.state_dict()
print(m.load_state_dict(sd))
with expect(): m.load_state_dict({"0.weight": torch.zeros(2, 3), "foo": torch.zeros(1), "0.bias": torch.zeros(3)})
with expect(): m.load_state_dict({"0.weight": torch.zeros(2, 3)})
print(m.load_state_dict({"0.weight": torch.zeros(2, 3), "foo": torch.zeros(1)}, strict=False))
with expect(): m.load_state_dict({"0.weight": torch.zeros(2, 3), "0.bias": [1, 2]})
print(m.load_state_dict({"0.weight": torch.ones(2, 3), "0.bias": torch.ones(2, dtype=torch.float64)}))
print(m[0].weight, m[0].bias, m[0].bias.dtype)
m2 = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
m2.load_state_dict(m.state_dict())
print(m2[0].weight)
""",
    "module api errors": """
m = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
with expect(): m[0].weight = torch.zeros(2, 3)
with expect(): setattr(m, "0", 3)
with expect(): nn.Module()(1)
with expect(): m.train("x")
with expect(): m[5]
with expect(): m[-3]
print(m[-1], m[0:1], len(m), [type(x).__name__ for x in m])
with expect(): m.register_parameter("a.b", None)
with expect(): m.register_parameter("", None)
with expect(): m.register_parameter("training", None)
with expect(): m.register_parameter("w", torch.zeros(1))
with expect(): m.register_parameter(1, None)
with expect(): m.add_module("a.b", nn.ReLU())
with expect(): m.add_module("x", 3)
with expect(): m.register_buffer("a.b", None)
with expect(): m.register_buffer("b", 3)
class M(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.zeros(1))
with expect(): M()
m.append(nn.Tanh())
m[1] = nn.Sigmoid()
print(m)
del m[0]
print(m)
""",
    "modes and grads": """
m = set_weights(nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.Tanh(), nn.Linear(3, 1))))
print(m.training, m[1].training, m[1][1].training)
print(m.eval() is m, m.training, m[1].training, m[1][1].training)
m.train()
print(m.training, m[1][1].training)
print(m[0].weight.grad)
out = m(X).sum()
out.backward()
print(m[0].weight.grad, m[1][1].bias.grad)
m(X).sum().backward()
print(m[1][1].bias.grad)
m.zero_grad(set_to_none=False)
print(m[0].weight.grad, m[1][1].bias.grad)
m.zero_grad()
print(m[0].weight.grad, m[1][1].bias.grad)
m.requires_grad_(False)
print(m[0].weight.requires_grad, m(X).requires_grad)
print(m.apply(lambda mod: print(type(mod).__name__)) is m)
print(m.double()[0].weight.dtype, m.float()[0].bias.dtype, m.to(torch.float64)[0].weight.dtype)
print(m.to("cpu") is m, m.cpu() is m)
""",
    "linear graphs": """
lin = set_weights(nn.Linear(2, 3))
for x in (X, X[0], X.reshape(3, 2, 2).transpose(0, 1), X.clone().requires_grad_(), X[0].clone().requires_grad_()):
    y = lin(x)
    print(y.shape, y.grad_fn.name())
    graph(y)
    val(y)
    y.sum().backward()
    val(lin.weight.grad, lin.bias.grad)
    lin.zero_grad()
g = lin(X).grad_fn
print(g._saved_alpha, g._saved_beta, g._saved_mat1_sym_sizes, g._saved_mat2_sym_sizes, g._saved_mat2_sym_strides)
print(g._saved_mat1_sym_strides, g._saved_mat2)
val(g._saved_mat1)
h = lin(X.clone().requires_grad_()).grad_fn
print(h._saved_mat1_sym_strides, h._saved_mat2.shape)
nobias = set_weights(nn.Linear(2, 3, bias=False))
for x in (X, X[0], X.reshape(6, 1, 2)):
    y = nobias(x)
    print(y.shape, y.grad_fn.name())
    val(y)
with expect(): lin(torch.ones(4, 3))
with expect(): lin(torch.tensor(1.))
with expect(): lin(X.double())
with expect(): nobias(X.double())
with expect(): F.linear(X, torch.randn(3, 2), torch.zeros(2))
with expect(): F.linear(X, torch.randn(3, 2), torch.zeros(2, 3, 3))
with expect(): F.linear(X, torch.randn(3, 2), torch.zeros(3, dtype=torch.float64))
""",
    "double backward through linear": """
lin = set_weights(nn.Linear(2, 2))
x = X.clone().requires_grad_()
y = (lin(x) ** 2).sum()
(gx,) = torch.autograd.grad(y, x, create_graph=True)
val(gx)
gx.sum().backward()
val(lin.weight.grad, lin.bias.grad)
""",
    "activations": """
x = (X * 2).requires_grad_()
for f in (nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Softmax(dim=1), nn.LogSoftmax(dim=1), nn.Identity(), nn.Flatten(0)):
    y = f(x)
    print(type(f).__name__, y.grad_fn)
    val(y)
for f in (F.relu, F.tanh, F.sigmoid):
    val(f(x))
val(F.softmax(x, dim=0), F.log_softmax(x, 1), F.softmax(x, 1, dtype=torch.float64))
y = F.softmax(x)
val(y)
y = nn.Softmax()(X[0])
val(y)
y = F.log_softmax(X[0])
z = x * 1
r = F.relu(z, inplace=True)
print(r is z, r.grad_fn.name(), r.grad_fn.next_functions[0][0].name())
r.sum().backward()
val(x.grad)
with expect(): F.relu(x, inplace=True)
r = nn.ReLU(inplace=True)(x * 1)
print(r.grad_fn.name())
""",
    "mse loss": """
x = X.clone().requires_grad_()
t = X * -0.5
for reduction in ("mean", "sum", "none"):
    loss = F.mse_loss(x, t, reduction=reduction)
    print(loss.grad_fn.name(), loss.grad_fn._saved_reduction, loss.shape)
    graph(loss)
    val(loss)
    (loss if reduction != "none" else loss.sum()).backward()
    val(x.grad)
    x.grad = None
loss = nn.MSELoss()(x, t)
print(loss)
tt = t.clone().requires_grad_()
F.mse_loss(x, tt).backward()
val(tt.grad)
y = x[:, :1]
loss = F.mse_loss(y, t[:, 0])
graph(loss)
val(loss)
with expect(): F.mse_loss(x, torch.zeros(6))
with expect(): F.mse_loss(x, t, reduction="bad")
print(F.mse_loss(x, torch.zeros(6, 2, dtype=torch.float64)).dtype)
val(F.mse_loss(x, torch.zeros(6, 2, dtype=torch.int64)))
w = torch.ones(6, 2) * 0.5
for reduction in ("mean", "sum", "none"):
    loss = F.mse_loss(x, t, reduction=reduction, weight=w)
    print(loss.grad_fn.name())
    val(loss)
with expect(): F.mse_loss(x, t, weight=torch.ones(2))
with expect(): F.mse_loss(x, t, reduction="avg", weight=w)
print(nn.MSELoss(size_average=False).reduction, F.mse_loss(x, t, reduce=False).shape)
loss = F.mse_loss(x, t)
loss.backward()
with expect(): loss.backward()
print(loss.grad_fn._saved_reduction)
with expect(): loss.grad_fn._saved_self
""",
    "cross entropy with class indices": """
logits = (X @ torch.tensor([[1., -1., 0.5], [0.2, 0.3, -2.]])).requires_grad_()
target = torch.tensor([0, 1, 2, 1, 0, 2])
for reduction in ("mean", "sum", "none"):
    loss = F.cross_entropy(logits, target, reduction=reduction)
    print(loss.grad_fn.name(), loss.grad_fn._saved_reduction, loss.grad_fn._saved_ignore_index, loss.shape)
    graph(loss)
    val(loss, loss.grad_fn._saved_total_weight)
    print(loss.grad_fn._saved_target, loss.grad_fn._saved_weight, loss.grad_fn._saved_self.grad_fn)
    (loss if reduction != "none" else loss.sum()).backward()
    val(logits.grad)
    logits.grad = None
print(nn.CrossEntropyLoss()(logits, target))
weight = torch.tensor([1., 2., 0.5])
for kwargs in ({"weight": weight}, {"ignore_index": 1}, {"weight": weight, "ignore_index": 2},
               {"weight": weight, "reduction": "none"}, {"weight": weight, "reduction": "sum"}):
    loss = nn.CrossEntropyLoss(**kwargs)(logits, target)
    print(kwargs.keys(), loss.grad_fn.name())
    val(loss, loss.grad_fn._saved_total_weight)
    (loss if loss.dim() == 0 else loss.sum()).backward()
    val(logits.grad)
    logits.grad = None
loss = F.nll_loss(logits.log_softmax(1), target)
val(loss)
print(F.cross_entropy(logits, torch.full((6,), -100)))
one = F.cross_entropy(logits[0], target[0])
print(one.grad_fn.name(), one.shape)
val(one)
val(F.cross_entropy(logits[0], target[:1]), F.cross_entropy(logits[0], target[0], reduction="none"))
val(F.cross_entropy(logits, target.to(torch.uint8)))
""",
    "cross entropy smoothing and probabilities": """
logits = (X @ torch.tensor([[1., -1., 0.5], [0.2, 0.3, -2.]])).requires_grad_()
target = torch.tensor([0, 1, 2, 1, 0, 2])
probs = torch.softmax(X @ torch.tensor([[0.3, 1., -1.], [1., 0., 2.]]), 1)
weight = torch.tensor([1., 2., 0.5])
for kwargs in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": weight}, {"label_smoothing": 0.2},
               {"label_smoothing": 0.2, "weight": weight, "reduction": "sum"}):
    loss = F.cross_entropy(logits, probs, **kwargs)
    print(sorted(kwargs), loss.grad_fn.name())
    graph(loss)
    val(loss)
    (loss if loss.dim() == 0 else loss.sum()).backward()
    val(logits.grad)
    logits.grad = None
for kwargs in ({"label_smoothing": 0.1}, {"label_smoothing": 0.1, "reduction": "sum"},
               {"label_smoothing": 0.1, "reduction": "none", "ignore_index": 1},
               {"label_smoothing": 0.3, "weight": weight},
               {"label_smoothing": 0.3, "weight": weight, "ignore_index": 0}):
    loss = F.cross_entropy(logits, target, **kwargs)
    print(sorted(kwargs), loss.grad_fn.name())
    graph(loss)
    val(loss)
    (loss if loss.dim() == 0 else loss.sum()).backward()
    val(logits.grad)
    logits.grad = None
""",
    "loss errors": """
x = torch.zeros(4, 3, requires_grad=True)
with expect(): F.cross_entropy(x, torch.tensor([0, 1, 2]))
with expect(): F.cross_entropy(x, torch.tensor([0, 1, 2, 3]))
with expect(): F.cross_entropy(x, torch.tensor([0, 1, 2, -1]))
with expect(): F.cross_entropy(x, torch.tensor([0., 1, 2, 1]))
with expect(): F.cross_entropy(x, torch.tensor([0, 1, 2, 1], dtype=torch.int32))
with expect(): F.cross_entropy(x, torch.tensor([[0, 1, 2, 1]]))
with expect(): F.cross_entropy(x, torch.zeros(4, 3, dtype=torch.int64))
with expect(): F.cross_entropy(x, torch.tensor([0, 1, 2, 1]), label_smoothing=1.5)
with expect(): F.cross_entropy(x, torch.tensor([0, 1, 2, 1]), reduction="bad")
with expect(): F.cross_entropy(x[0], torch.tensor([1, 2]))
with expect(): F.nll_loss(x, torch.tensor([0, 1, 2, 1]), weight=torch.ones(2))
with expect(): F.nll_loss(x, torch.tensor([0, 1, 2, 1]), weight=torch.ones(3, dtype=torch.float64))
with expect(): F.nll_loss(x, torch.zeros(4, 3, dtype=torch.int64))
with expect(): F.nll_loss(torch.tensor(1.), torch.tensor(0))
with expect(): F.nll_loss(x, torch.tensor(1))
with expect(): F.nll_loss(x, torch.tensor([0, 1, 2, 1]), reduction="bad")
""",
    "legacy reduction flags": """
print(nn.MSELoss(size_average=False).reduction, nn.CrossEntropyLoss(reduce=False).reduction)
print(F.mse_loss(X, X * 2, size_average=False))
print(F.nll_loss(X.log_softmax(1), torch.tensor([0, 1, 1, 0, 1, 0]), reduce=False))
""",
}


@pytest.mark.parametrize("name", CASES)
def test_nn_program(conform, name):
    conform(SETUP + CASES[name])
