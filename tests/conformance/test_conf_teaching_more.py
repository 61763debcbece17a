"""More of what teaching programs call (issue 14, found by running torch 2.13's API against ours): ``torch.kron``,
``torch.tensordot``, ``torch.histc``, ``isinf`` / ``isfinite`` / ``isposinf`` / ``isneginf``, ``nan_to_num``,
``div(rounding_mode=)``, in-place ``masked_fill_`` / ``pow_`` / ``logical_*_``; ``F.glu``, ``F.hardswish``,
``F.hardsigmoid``, ``F.threshold``, ``F.softsign``, ``F.tanhshrink``, ``F.softmin`` and their modules; the
schedulers LinearLR, ConstantLR, MultiplicativeLR, PolynomialLR, SequentialLR; ``ConcatDataset``,
``SubsetRandomSampler``, ``WeightedRandomSampler``; ``Module.get_submodule`` / ``get_parameter`` /
``get_buffer``; ``nn.init.eye_`` / ``dirac_``. Run in torch and autograd_tutor: values, gradients, graphs,
printed results and errors."""
import pytest

from test_conf_ops import LEAVES, PROGRAM

torch = pytest.importorskip("torch")

F = "torch.nn.functional."

OPS = [
    # Kronecker products: viewed with interleaved 1s, one product, viewed back
    "torch.kron(m, b)", "torch.kron(v, x)", "torch.kron(b, m)", "m.kron(v)", "torch.kron(t3, x)", "torch.kron(s, m)",
    # tensordot: permute, reshape to matrices, one mm, view
    "torch.tensordot(m, v, dims=1)", "torch.tensordot(m, m, dims=([1], [1]))", "torch.tensordot(t3, m, dims=([2], [1]))",
    "torch.tensordot(t3, m.t(), dims=([0, 2], [1, 0]))", "torch.tensordot(x, v, dims=0)", "torch.tensordot(m, m, dims=2)",
    "torch.tensordot(t3, t3, dims=([0, 1], [1, 0]))", "torch.tensordot(b, m, dims=([0], [0]))",
    # non-finite entries replaced; their gradient 0
    "torch.nan_to_num(m.log())", "torch.nan_to_num(m.log(), nan=0.5, posinf=9., neginf=-9.)", "(m / 0).nan_to_num(neginf=-1.)",
    # rounded quotients: one DivBackward2, zero gradients
    "torch.div(m, b, rounding_mode='floor')", "m.div(3, rounding_mode='trunc')", "torch.div(v, x[0], rounding_mode='floor')",
    # in place on a non-leaf
    "m.clone().masked_fill_(m > 0, 0.)", "(t3 * 1).masked_fill_(torch.tensor([True, False, True]), -1.)", "(m * 1).pow_(2)",
    "(v + 1).pow_(x[0])",
    # activations
    F + "glu(m, 0)", F + "glu(t3, 1)", F + "glu(t3 - 6)", F + "hardswish(m * 2)", F + "hardswish(t3 - 6)",
    F + "hardsigmoid(m * 2)", F + "hardsigmoid(t3 - 6)", F + "threshold(m, 0., -1.)", F + "threshold(t3, 4.5, 20.)",
    F + "softsign(m)", F + "tanhshrink(v)", F + "softmin(m, 1)", F + "softmin(t3, dim=0)",
    "torch.nn.GLU(0)(m)", "torch.nn.Hardswish()(t3 - 6)", "torch.nn.Threshold(1., 0.)(m * 1)",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


PRINTED = LEAVES + """
F = torch.nn.functional
nonfinite = torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5, 0.])
for t in (nonfinite, nonfinite.double(), nonfinite.half(), torch.tensor([1, 2]), torch.tensor([True])):
    print(torch.isinf(t), torch.isfinite(t), t.isposinf(), torch.isneginf(t), torch.nan_to_num(t))
print(nonfinite.isinf().any(), torch.isfinite(m).all(), torch.nan_to_num(nonfinite, out=torch.empty(5)))
c = nonfinite.clone()
print(c.nan_to_num_(nan=-1.), c)
# counts in bins, in the input's dtype
data = torch.tensor([0.1, 0.5, 2.9, 3., -1, 1.0, 2.0, float('nan')])
print(torch.histc(data, bins=3, min=0, max=3), data.histc(4, 0, 3), torch.histc(data.double(), 5, -1, 3))
print(torch.histc(torch.tensor([2., 2.]), bins=4), torch.histc(torch.arange(10.), bins=3),
      torch.histc(torch.randn(1000, generator=torch.Generator().manual_seed(0)), bins=10))
print(torch.histc(data, bins=3, min=0, max=3, out=torch.empty(3)), torch.histc(m, bins=2))
# in-place logic: written in the tensor's dtype, never recorded
bb = torch.tensor([True, False])
print(bb.logical_and_(torch.tensor([True, True])), bb.logical_not_(), bb)
print(torch.tensor([1., 0.]).logical_or_(torch.tensor([0, 0])), torch.tensor([1., 0.]).logical_xor_(torch.tensor([1, 1])))
y = m * 2
before = y._version
y.logical_not_()
print(y, y._version - before)
print(x.detach().clone().logical_or_(x > 1))
# a causal attention mask, written in place
scores = torch.ones(3, 3)
print(scores.masked_fill_(torch.tril(torch.ones(3, 3)) == 0, float('-inf')).softmax(-1), scores)
# rounded quotients of integers stay integers
print(torch.div(torch.tensor([5, -7]), 2, rounding_mode='floor'), torch.tensor([7, -7, 7]).div(torch.tensor([2, 2, -2]),
      rounding_mode='trunc'), torch.div(torch.tensor(7), 2.5, rounding_mode='floor'))
print(torch.div(torch.tensor([5., -7.]), 0, rounding_mode='floor'), torch.div(torch.tensor([5., -7.]), 0,
      rounding_mode='trunc'), torch.div(torch.arange(10), 3, rounding_mode='floor', out=torch.empty(10, dtype=torch.long)))
q = torch.div(m, b, rounding_mode='trunc')
print(q.grad_fn._saved_rounding_mode, q.grad_fn._saved_other is not None)
print(torch.tensordot(torch.arange(24.).view(2, 3, 4), torch.arange(60.).view(3, 4, 5), dims=2))
print(torch.tensordot(m, v, dims=torch.tensor(1)), torch.tensordot(m, m, dims=torch.tensor([[0, 1], [0, 1]])))
print(torch.kron(torch.tensor([1, 2]), torch.tensor([[1], [3]])), torch.kron(torch.ones(2, 1, 2), torch.eye(2)).shape)
print(torch.nn.Threshold(0.1, 20), torch.nn.Threshold(0.1, 20, inplace=True), torch.nn.GLU(), torch.nn.GLU(0),
      torch.nn.Softmin(dim=0), torch.nn.Softmin(), torch.nn.Hardswish(), torch.nn.Hardsigmoid(inplace=True),
      torch.nn.Softsign(), torch.nn.Tanhshrink())
print(torch.nn.Softmin()(torch.ones(2, 2)))
for f in (F.threshold, F.hardsigmoid, F.hardswish):
    h = m * 1
    args = (0.5, -2.) if f is F.threshold else ()
    out = f(h, *args, inplace=True)
    print(out is h, out.grad_fn.name(), sorted(a for a in dir(out.grad_fn) if a.startswith("_saved")))
    out.sum().backward()
    print(m.grad)
    m.grad = None
print(F.threshold_(m.detach().clone(), 0., 1.))
"""


def test_printed(conform):
    conform(PRINTED)


ERRORS = [
    "torch.kron(m.t(), b)", "torch.tensordot(m, v, dims=([0], [0]))", "torch.tensordot(m, v, dims=-1)",
    "torch.tensordot(m, v, dims=3)", "torch.tensordot(m, m, dims=([0, 1], [0]))", "torch.tensordot(m, m, dims='x')",
    "torch.histc(torch.tensor([1, 2]))", "torch.histc(v, bins=0)", "torch.histc(v, min=3, max=1)",
    "torch.histc(v, min=float('-inf'), max=1)", "torch.histc(torch.tensor([1., float('inf')]))",
    "torch.nan_to_num(v, nan='a')", "torch.nan_to_num(v, posinf=True)",
    "torch.div(m, 2, rounding_mode='x')", "torch.div(torch.tensor([5, -7]), 0, rounding_mode='floor')",
    "torch.div(m, v[:2], rounding_mode='floor')",
    "m.masked_fill_(m > 0, 0.)", "v.pow_(2)", "(m * 1).masked_fill_(torch.tensor([True, False]), 0.)",
    "torch.tensor([True]).logical_and_(torch.tensor([True, False]))", "torch.tensor([True]).logical_or_(1)",
    F + "glu(v)", F + "glu(m)", F + "glu(s)", F + "hardswish(torch.tensor([1, 2]))",
    F + "hardsigmoid(torch.tensor([1, 2]))", F + "threshold(m, 0., 1., True)",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_error(conform, expr):
    conform(LEAVES + f"with expect():\n    print({expr})\n")


SCHEDULERS = """
L = torch.optim.lr_scheduler
def run(make, n=8):
    w = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    sched = make(opt)
    lrs = []
    for _ in range(n):
        lrs.append(sched.get_last_lr()[0])
        opt.step()
        sched.step()
    print(type(sched).__name__, lrs, opt.param_groups[0]["lr"], sched.last_epoch)
    print(sorted(sched.state_dict()))
    return opt, sched
run(lambda o: L.LinearLR(o, start_factor=0.1, total_iters=4))
run(lambda o: L.LinearLR(o))
run(lambda o: L.ConstantLR(o, factor=0.3, total_iters=3))
run(lambda o: L.MultiplicativeLR(o, lambda e: 0.95))
run(lambda o: L.PolynomialLR(o, total_iters=6, power=2.0))
run(lambda o: L.SequentialLR(o, [L.LinearLR(o, start_factor=0.01, total_iters=3), L.CosineAnnealingLR(o, T_max=5)],
                             milestones=[3]), 10)
opt, sched = run(lambda o: L.SequentialLR(o, [L.ConstantLR(o, factor=0.5, total_iters=2), L.ExponentialLR(o, gamma=0.9),
                                              L.StepLR(o, 2)], milestones=[2, 5]), 10)
print(sched.state_dict()["_schedulers"][1]["last_epoch"], sched.state_dict()["_milestones"])
# two groups, one factor each
w1, w2 = torch.zeros(1, requires_grad=True), torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([{"params": [w1]}, {"params": [w2], "lr": 1.0}], lr=0.1)
sched = L.MultiplicativeLR(opt, [lambda e: 0.5, lambda e: 0.9])
for _ in range(3):
    opt.step()
    sched.step()
print(sched.get_last_lr())
# the closed form, when an epoch is given (deprecated)
w = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for sched in (L.LinearLR(opt, total_iters=3), L.ConstantLR(opt, total_iters=2), L.PolynomialLR(opt, total_iters=4)):
    opt.step()
    sched.step(2)
    print(type(sched).__name__, sched.get_last_lr())
with expect(): L.LinearLR(opt, start_factor=0)
with expect(): L.LinearLR(opt, end_factor=1.5)
with expect(): L.ConstantLR(opt, factor=2)
with expect(): L.MultiplicativeLR(opt, [lambda e: 1, lambda e: 1])
with expect(): L.MultiplicativeLR(opt, 0.5)
with expect(): L.SequentialLR(opt, [L.StepLR(opt, 2)], milestones=[1])
with expect(): L.SequentialLR(opt, [], milestones=[])
with expect(): L.SequentialLR(opt, [L.StepLR(opt, 2), L.ReduceLROnPlateau(opt)], milestones=[1])
"""


def test_schedulers(conform):
    conform(SCHEDULERS)


DATA = """
D = torch.utils.data
torch.manual_seed(0)
ds = D.ConcatDataset([D.TensorDataset(torch.arange(4.), torch.zeros(4, dtype=torch.long)),
                      D.TensorDataset(torch.arange(10., 13.), torch.ones(3, dtype=torch.long))])
print(len(ds), ds[3], ds[4], ds[-1], ds.cumulative_sizes, D.ConcatDataset.cumsum([range(2), range(5)]))
for xb, yb in D.DataLoader(ds, batch_size=3, shuffle=True):
    print(xb, yb)
print(list(D.SubsetRandomSampler([10, 20, 30, 40])),
      list(D.SubsetRandomSampler(range(5), generator=torch.Generator().manual_seed(3))))
w = [0.1, 0.1, 0.8]
print(list(D.WeightedRandomSampler(w, 10)), list(D.WeightedRandomSampler(w, 2, replacement=False)),
      list(D.WeightedRandomSampler(torch.tensor(w), 5, generator=torch.Generator().manual_seed(1))))
print(D.WeightedRandomSampler(w, 3).weights, len(D.WeightedRandomSampler(w, 7)), len(D.SubsetRandomSampler([1, 2])))
for xb, yb in D.DataLoader(ds, batch_size=2, sampler=D.WeightedRandomSampler([1.0] * 4 + [4.0] * 3, 6)):
    print(xb.tolist(), yb.tolist())
for xb, yb in D.DataLoader(ds, batch_size=2, sampler=D.SubsetRandomSampler([0, 2, 4, 6])):
    print(xb.tolist(), yb.tolist())
with expect(): D.ConcatDataset([])
with expect(): ds[-8]
with expect(): D.WeightedRandomSampler(w, 0)
with expect(): D.WeightedRandomSampler(w, True)
with expect(): D.WeightedRandomSampler(w, 2, replacement=1)
with expect(): D.WeightedRandomSampler([[1.]], 2)
print(torch.as_tensor(torch.ones(2, requires_grad=True), dtype=torch.float64))
"""


def test_data(conform):
    conform(DATA)


MODULES = """
nn = torch.nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Sequential(nn.ReLU(), nn.Linear(3, 1)))
print(net.get_submodule("2.1"), net.get_submodule("") is net, net.get_parameter("2.1.bias"))
print(net.get_buffer("1.running_var"), net.get_buffer("1.num_batches_tracked"))
for target in ["3", "0.foo", "0.weight.x"]:
    with expect(): net.get_submodule(target)
for target in ["1.running_mean", "0.nope", "5.weight"]:
    with expect(): net.get_parameter(target)
with expect(): net.get_buffer("0.weight")
torch.manual_seed(0)
xs = torch.randn(64, 8)
for layer in [nn.Hardswish(), nn.Hardsigmoid(), nn.GLU(), nn.Softsign(), nn.Tanhshrink(), nn.Softmin(1),
              nn.Threshold(0.1, 0.)]:
    val(layer(xs))
net = nn.Sequential(nn.Linear(8, 16), nn.GLU(), nn.Linear(8, 8), nn.Hardswish(), nn.Linear(8, 1))
print(net)
loss = net(xs).pow(2).mean()
loss.backward()
val(loss, net[0].weight.grad, net[2].bias.grad)
"""


def test_modules(conform):
    conform(MODULES)


INIT = """
nn = torch.nn
w = torch.empty(3, 4, requires_grad=True)
print(nn.init.eye_(w), w._version, nn.init.eye_(torch.empty(4, 2, dtype=torch.float64)))
print(nn.init.dirac_(torch.empty(2, 2, 3)), nn.init.dirac_(torch.empty(4, 2, 3, 3), groups=2)[:, :, 1],
      nn.init.dirac_(torch.empty(2, 2, 1, 3, 3)).sum())
torch.manual_seed(0)
conv = nn.Conv2d(3, 3, 3, padding=1, bias=False)
nn.init.dirac_(conv.weight)
x = torch.randn(1, 3, 4, 4)
print(torch.equal(conv(x), x))
lin = nn.Linear(3, 3, bias=False)
nn.init.eye_(lin.weight)
print(lin.weight.requires_grad, lin(torch.ones(3)))
with expect(): nn.init.eye_(torch.empty(3))
with expect(): nn.init.dirac_(torch.empty(3, 3))
with expect(): nn.init.dirac_(torch.empty(3, 2, 3), groups=2)
"""


def test_init(conform):
    conform(INIT)
