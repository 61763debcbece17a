"""Higher-order gradients, op by op: the graph of the gradient built with create_graph=True (torch records
its backward formulas, with nodes such as TanhBackwardBackward0 and MulBackward1), and the second and third
derivatives' values."""
import pytest

torch = pytest.importorskip("torch")

LEAVES = """
x = torch.tensor([0.5, 1.5, -1.], requires_grad=True)
m = torch.tensor([[1., 2.], [3., -4.]], requires_grad=True)
v = torch.tensor([0.5, -2.], requires_grad=True)
"""

PROGRAM = LEAVES + """
y = ({expr}).sum()
inputs = [t for t in (x, m, v) if name_of(t) in {expr!r}]
grads = torch.autograd.grad(y, inputs, create_graph=True)
for g in grads:
    print(g)
    graph(g)
    val(g)
second = torch.autograd.grad(sum(g.sum() for g in grads), inputs, create_graph=True, allow_unused=True)
for h in second:
    print(h is None or h.requires_grad)
    if h is not None:
        val(h + torch.zeros(h.shape))  # the sum turns torch's ZeroTensor (abs'' = 0) into one numpy can read
third = torch.autograd.grad([h.sum() for h in second if h is not None and h.requires_grad] or [y], inputs,
                            allow_unused=True, materialize_grads=True)
val(*third)
"""

EXPRS = [
    "x.exp()", "x.tanh()", "x.sigmoid()", "(x * x).log()", "(x * x).sqrt()", "x.sin()", "x.cos()",
    "x.reciprocal()", "x ** 3", "x ** 2", "x.abs() ** 0.5", "1 / x", "x * x", "x * x * x",
    "2 ** x", "x.abs() ** 3", "x / (x * x + 1)", "torch.softmax(x, 0)", "torch.log_softmax(x, 0)",
    "(x * x).mean()", "x.relu() ** 2", "x.relu()", "x.abs()", "x.clamp(-0.5, 1) ** 2", "x.max() ** 2",
    "x.min() * x", "torch.maximum(x, x * 2) ** 2", "torch.minimum(x, 2 - x) ** 2",
    "torch.where(x > 0, x, x * 3) ** 2", "x[0] * x[1]", "x[1:] ** 2", "x[[0, 0, 2]] ** 2", "x[x > 0] ** 2",
    "m.max(0).values ** 2", "m.min(dim=1, keepdim=True).values ** 3", "m[0, 1] * m[1, 0]", "m.T[0] ** 3",
    "torch.stack([x, x * 2]) ** 2", "torch.cat([x, x]) ** 2", "x.expand(2, 3) ** 2", "x.unsqueeze(0) ** 2",
    "(m @ m).sum(1) ** 2", "(m @ v) ** 2", "(v @ m) ** 2", "(v @ v) * v", "x.mean() ** 2", "x.sum() ** 2",
    "x.reshape(3, 1) ** 2", "torch.tanh(m @ v).exp()", "(m * v).sigmoid() * m", "torch.softmax(m, 1)[0] * v",
    "(x - x.mean()) ** 2", "x.exp() / x.exp().sum()", "x.tanh().tanh()", "m.t().mm(m)", "(m ** 2).sum(0, keepdim=True) * m", "x.double() ** 3", "x.clone() ** 3",
    "torch.log_softmax(m, 0) * m",
]


@pytest.mark.parametrize("expr", EXPRS)
def test_higher_order(conform, expr):
    conform(PROGRAM.format(expr=expr))
