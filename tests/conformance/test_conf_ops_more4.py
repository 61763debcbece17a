"""unique and unique_consecutive (their nodes, whose backward raises), run in torch and autograd_tutor: printed
results, grad_fn names and errors."""
import pytest

from test_conf_ops import LEAVES

torch = pytest.importorskip("torch")

UNIQUE = LEAVES + """
y = torch.tensor([3., 1., 2., 3., 1.], requires_grad=True)
u = torch.unique(y)
print(u, u.grad_fn.name(), u.requires_grad, u.grad_fn.next_functions[0][0].name())
print(torch.unique(m, dim=0).grad_fn.name(), torch.unique_consecutive(m, dim=1).grad_fn.name())
for e in ["u.sum().backward()", "torch.unique_consecutive(y).sum().backward()", "torch.unique(m, dim=0).sum().backward()",
          "torch.unique(y, dim=3)", "torch.unique_consecutive(m, dim=-3)"]:
    with expect():
        exec(e)
print(torch.unique(y, return_inverse=True, return_counts=True))
print(torch.unique(y, sorted=False), y.unique(return_counts=True), y.unique_consecutive(return_inverse=True))
z = torch.tensor([[1, 2], [1, 2], [0, 5]])
for d in (0, 1, -1):
    print(torch.unique(z, dim=d, return_inverse=True, return_counts=True))
    print(torch.unique_consecutive(z, dim=d, return_inverse=True, return_counts=True))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor([[1, 2], [3, 1]]), return_inverse=True), torch.unique(torch.tensor([True, False, True])))
print(torch.unique(torch.tensor([], dtype=torch.int32)), torch.unique(torch.tensor([]), return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor(5)), torch.unique(torch.tensor(5), return_inverse=True))
print(torch.unique(torch.tensor([float('nan'), 1., float('nan')]), return_counts=True))
print(torch.unique_consecutive(torch.tensor(3), return_inverse=True, return_counts=True))
print(torch.unique(torch.arange(24).reshape(2, 3, 4) % 3, dim=1, return_inverse=True), torch.unique(k.double()))
with torch.no_grad():
    print(torch.unique(y), t3.unique(dim=2))
"""


def test_unique(conform):
    conform(UNIQUE)


MULTINOMIAL = """
for seed in range(40):
    torch.manual_seed(seed)
    p = torch.rand(3, 6) + 0.01
    print(torch.multinomial(p, 4), p[0].multinomial(6), torch.multinomial(p.double(), 1))
    print(torch.multinomial(p, 9, replacement=True), torch.multinomial(p[1], 3, True), torch.rand(2))
    g = torch.Generator().manual_seed(seed)
    print(torch.multinomial(torch.tensor([0., 2., 1., 0.5]), 3, generator=g), torch.empty(5).exponential_(generator=g))
    print(torch.tensor([0., 1., 0.]).multinomial(5, True, generator=g), torch.empty(3).double().exponential_(2.5, generator=g))
y = torch.ones(3, requires_grad=True)
e = (y * 1).exponential_()
print(e.grad_fn.name(), e.grad_fn.next_functions[0][0].name(), torch.multinomial(y, 2).requires_grad)
for c in ["torch.multinomial(torch.tensor([1., 2.]), 3)", "torch.multinomial(torch.tensor([0., 0.]), 1)",
          "torch.multinomial(torch.tensor([-1., 2.]), 1, True)", "torch.multinomial(torch.tensor([-1., 2.]), 2, True)",
          "torch.multinomial(torch.tensor([float('inf'), 2.]), 2, True)", "torch.multinomial(torch.tensor([0., 0.]), 2, True)",
          "torch.multinomial(torch.tensor([1, 2]), 1)", "torch.multinomial(torch.ones(2, 2, 2), 1)",
          "torch.multinomial(torch.tensor(1.), 1)", "torch.multinomial(torch.ones(3), 0)",
          "torch.multinomial(torch.tensor([[1., 1.], [0., 0.]]), 2, True)", "torch.multinomial(torch.tensor([float('nan'), 2.]), 1)",
          "torch.ones(3, dtype=torch.long).exponential_()", "torch.ones(3).exponential_(0)", "torch.ones(3).exponential_(-1)",
          "y.exponential_()"]:
    with expect():
        print(eval(c))
"""


def test_multinomial(conform):
    """torch's draws bit for bit: Gumbel keys from exponential_ without replacement (and for one sample),
    binary search of float64 uniforms in the cumulative sums with replacement; the stream position after."""
    conform(MULTINOMIAL)


MORE = LEAVES + """
print(torch.aminmax(k), k.aminmax(dim=0), torch.aminmax(torch.tensor([[1, 2], [3, 0]]), dim=1, keepdim=True))
a = torch.aminmax(torch.tensor([[1, 2], [3, 0]]), dim=-1)
print(a.min, a.max, type(a).__name__, len(a))
with torch.no_grad():
    print(torch.aminmax(m, dim=1))
print(torch.msort(m), torch.msort(torch.tensor([[3, 1], [2, 5]])), m.msort().grad_fn.name())
z = torch.tensor([0., 0., 1., 2.], requires_grad=True)
o = torch.tensor([-1., 0., 2., 4.], requires_grad=True)
for e in ["torch.xlogy(x, w.abs())", "x.xlogy(w.abs())", "torch.special.xlogy(z, o)", "torch.xlogy(z, o.abs())",
          "torch.xlogy(m, v)", "torch.special.expit(m)", "torch.special.erf(m)", "torch.special.softmax(m, 0)",
          "torch.special.log_softmax(m, -1)", "torch.special.logsumexp(m, 1)", "torch.special.logsumexp(m, (0, 1))",
          "torch.msort(m)"]:
    y = eval(e)
    print(e, y, y.grad_fn.name())
    y.sum().backward()
    for name in ("x", "w", "m", "v", "z", "o"):
        print(name, globals()[name].grad)
        globals()[name].grad = None
with expect():
    torch.xlogy(x, v)
"""


def test_aminmax_msort_xlogy_special(conform):
    """aminmax (no grad), msort (SortBackward0), xlogy's XlogyBackward0 and its gradient where x = 0, and the
    torch.special aliases with the nodes torch records."""
    conform(MORE)
