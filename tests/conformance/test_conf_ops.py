"""Every op of the engine, run in torch and autograd_tutor: value, grad_fn names, whole graph, gradients,
and whether a second backward through the same graph works or raises (the saved-tensor table)."""
import pytest

torch = pytest.importorskip("torch")

LEAVES = """
x = torch.tensor([0.5, 2.], requires_grad=True)
w = torch.tensor([3., -4.], requires_grad=True)
m = torch.tensor([[1., -2., 3.], [4., 0., -6.]], requires_grad=True)
v = torch.tensor([1., 2., 3.], requires_grad=True)
s = torch.tensor(1.5, requires_grad=True)
b = torch.tensor([[1.], [2.]], requires_grad=True)
t3 = torch.arange(12.).reshape(2, 2, 3).requires_grad_()
u = torch.ones(1, 3, 1, requires_grad=True)
k = torch.tensor([2., 3.])
"""

PROGRAM = LEAVES + """
y = {expr}
print(y)
print(type(y.grad_fn).__name__, y.grad_fn.name(), y.is_leaf, y.requires_grad, y.retains_grad, y.dtype, y.shape)
graph(y)
val(y)
y.backward(torch.arange(1., y.numel() + 1).reshape(y.shape))
for name in ("x", "w", "m", "v", "s", "b", "t3", "u"):
    g = globals()[name].grad
    print(name, g)
    if g is not None:
        val(g)
with expect():
    y.backward(torch.arange(1., y.numel() + 1).reshape(y.shape))
for name in ("x", "w", "m", "v", "s", "b", "t3", "u"):
    print(name, globals()[name].grad)
"""

OPS = [
    # arithmetic and the three Pow forms
    "x + w", "x - w", "x * w", "x / w", "-x", "x ** 2", "x ** 0.5", "x ** w", "2 ** x", "0.5 ** x",
    "torch.pow(x, 2)", "x.pow(w)", "torch.pow(x, w)", "x ** 0", "x ** 1", "x ** -1", "x ** 3", "x ** s",
    "x * 2", "2 * x", "x + 1", "1 + x", "x - 1", "1 - x", "x / 2", "2 / x", "x.mul(2)", "torch.add(x, w)",
    "x.add(w, alpha=2)", "x.sub(w, alpha=2)", "torch.sub(x, w)", "torch.mul(x, w)", "torch.div(x, w)",
    "x.neg()", "torch.neg(x)", "x.reciprocal()", "torch.reciprocal(x)", "torch.rsub(x, 1)", "x * x",
    "x + x", "x.square()", "x * k", "k * x", "k - x", "x / k", "k / x", "x * 2.5", "x + True",
    "x.div(2)", "x.sub(1)", "x.add(1)", "x - s", "s - x", "x * s * s",
    # elementwise functions
    "x.exp()", "torch.exp(x)", "x.log()", "torch.log(m)", "x.tanh()", "torch.tanh(m)", "x.sigmoid()",
    "torch.sigmoid(m)", "m.relu()", "torch.relu(m)", "x.sqrt()", "torch.sqrt(m)", "m.abs()", "torch.abs(m)",
    "x.sin()", "torch.sin(m)", "x.cos()", "torch.cos(m)", "m.clamp(min=0)", "m.clamp(max=1)",
    "m.clamp(-1, 1)", "torch.clamp(m, 0, 1)", "m.clip(0, 2)", "torch.clamp(m, min=-2.)", "m.clamp(min=0.)",
    "torch.maximum(x, w)", "torch.minimum(x, w)", "torch.maximum(m, v)", "torch.minimum(v, m)",
    "torch.where(x > 1, x, w)", "torch.where(m > 0, m, v)", "torch.where(m > 0, b, v)",
    "x.exp().log()", "(x * w).tanh().sum()", "m.relu().sigmoid()", "abs(m)",
    # reductions
    "x.sum()", "m.sum()", "m.sum(0)", "m.sum(1)", "m.sum(dim=1, keepdim=True)", "m.sum((0, 1))", "m.sum(-1)",
    "torch.sum(m, 0)", "torch.sum(m)", "t3.sum((0, 2))", "t3.sum(dim=(0, 2), keepdim=True)", "m.sum(dim=0)",
    "x.mean()", "m.mean()", "m.mean(0)", "m.mean(dim=1, keepdim=True)", "torch.mean(m)", "torch.mean(m, 1)",
    "t3.mean((1, 2))", "m.max()", "m.min()", "v.max()", "torch.max(m)", "torch.min(m)", "m.max(0).values",
    "m.max(1).values", "m.max(dim=1, keepdim=True).values", "m.min(0).values", "m.min(dim=-1).values",
    "torch.max(m, 1).values", "torch.min(m, 0)[0]", "torch.max(x, w)", "torch.min(x, w)", "x.max(w)",
    "s.sum()", "s.mean()", "s.max()",
    # matrix products
    "m @ m.T", "m.T @ m", "m @ v", "v @ v", "x @ m", "torch.matmul(m, v)", "torch.matmul(x, m)",
    "torch.mm(m, m.t())", "m.mm(m.t())", "torch.mv(m, v)", "m.mv(v)", "torch.dot(x, w)", "x.dot(w)",
    "t3 @ m.T", "torch.matmul(t3, v)", "m @ k.unsqueeze(0).T.expand(2, 3).T", "x @ k", "b.T @ m",
    # views and shapes
    "m.reshape(3, 2)", "m.reshape(-1)", "m.view(6)", "m.view(-1, 2)", "m.view(3, 2)", "m.T.reshape(6)",
    "m.T", "m.t()", "m.transpose(0, 1)", "m.transpose(1, 0)", "m.transpose(-1, -2)", "m.mT",
    "m.permute(1, 0)", "t3.permute(2, 0, 1)", "t3.permute((1, 2, 0))", "t3.transpose(0, 2)",
    "v.unsqueeze(0)", "v.unsqueeze(-1)", "m.unsqueeze(1)", "m[None]", "m[:, None]", "m.flatten()",
    "t3.flatten(1)", "t3.flatten()", "t3.reshape(4, 3)", "v.expand(2, 3)", "b.expand(2, 3)",
    "b.expand(-1, 3)", "s.expand(3)", "v.expand(2, 2, 3)", "u.squeeze()", "u.squeeze(0)", "u.squeeze(2)",
    "u.squeeze(1)", "u.squeeze((0, 2))", "u.squeeze(-1)", "v.view(3, 1)", "x.view_as(w)", "s.reshape(1)",
    "s.unsqueeze(0)", "v.t()", "x.reshape(2, 1) * w", "m.T.contiguous()", "m.view(3, 2).T.reshape(6)",
    "m.T.flatten()",
    # cat / stack
    "torch.cat([x, w])", "torch.cat([m, m], 1)", "torch.cat([m, m], dim=-1)", "torch.cat((x, w))",
    "torch.cat([x, k])", "torch.cat([k, x, w])", "torch.stack([x, w])", "torch.stack([x, w], 1)",
    "torch.stack([x, w], dim=-1)", "torch.stack([x, k])", "torch.stack([s, s, s])", "torch.cat([m, b], 1)",
    "torch.concat([x, w])", "torch.cat([x, x])",
    # indexing
    "m[0]", "m[0, 1]", "m[:, 1]", "v[1:]", "v[::2]", "m[:, 1:]", "m[1, 1:]", "m[..., 0]", "m[None, 0]",
    "v[[0, 2]]", "v[[0, 0, 2]]", "v[v > 1]", "m[m > 0]", "m[[0, 1], [1, 2]]", "m[torch.tensor([1, 0])]",
    "m[:, [0, 2]]", "v[-1]", "m[-1]", "m[0][1]", "v.select(0, 1)", "m.select(1, -1)", "v.narrow(0, 1, 2)",
    "v[:]", "m[...]", "v[1:2]", "m[:1]", "t3[1, :, ::2]", "t3[..., 1]", "v[torch.tensor([True, False, True])]",
    "m[torch.tensor([[0, 1], [1, 0]])]", "v[:-1]", "v[-2:]", "m[1:, :2]",
    # softmax family
    "torch.softmax(v, 0)", "v.softmax(0)", "torch.softmax(m, 1)", "m.softmax(dim=-1)", "m.softmax(0)",
    "torch.log_softmax(m, 1)", "v.log_softmax(0)", "torch.log_softmax(v, dim=0)", "m.log_softmax(-1)",
    # conversions and copies
    "x.double()", "x.to(torch.float64)", "x.clone()", "m.clone()", "x.double() * 2",
    "x.double().float()", "x.to(torch.float64).sum()",
    # broadcasting
    "m * v", "m + b", "m * s", "b * v", "s * m", "x * s", "v + b", "m / b", "b ** 2 * v", "v - b",
    "b / v", "v ** b", "s ** v", "m * b * v * s", "(m * v).sum(0)", "b.expand(2, 3) * v",
    # compositions
    "(x * w + x).sum()", "((x * w) ** 2).mean()", "torch.tanh(m @ v + 1)", "(m @ v).relu().sum()",
    "torch.softmax(m @ m.T, 1)[0]", "torch.cat([x * 2, w.exp()]).sum()", "m.T[0] * v[:2]",
    "torch.stack([x.sum(), w.sum()])", "(m - m.mean(1, keepdim=True)) / 2",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


COMPARISONS = ["x > 1", "x >= 2", "x < w", "x <= 0.5", "x == 2", "x != 2", "m > v", "torch.eq(x, w)",
               "torch.gt(m, 0)", "x.lt(1)", "x.ge(w)", "x.ne(2)", "x.eq(k)", "m.argmax()", "m.argmax(1)",
               "m.argmin(0)", "torch.argmax(m, dim=1, keepdim=True)", "x.detach()", "x.sign()", "x.isnan()",
               "(x > 1) & (w > 0)", "(x > 1) | (w > 0)", "~(x > 1)"]


@pytest.mark.parametrize("expr", COMPARISONS)
def test_no_grad_result(conform, expr):
    conform(LEAVES + f"""
y = {expr}
print(y, y.requires_grad, y.is_leaf, y.grad_fn, y.dtype, y.shape)
with expect():
    y.sum().backward()
""")
