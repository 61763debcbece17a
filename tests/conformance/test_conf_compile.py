"""``torch.compile`` (issue 14: torch 2 tutorials compile their model): the compiled module or function, its repr,
parameter names, attribute pass-through, training mode, the decorator forms and torch's argument errors. Its
graph is not compared: torch's has one CompiledFunctionBackward node where ours keeps every op visible."""
import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
import warnings
warnings.filterwarnings("ignore", message=".*torch.jit.script")  # torch's compiler, imported on first use, warns
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
c = torch.compile(m)
print(type(c).__name__, c)
print(list(c.state_dict()), [n for n, _ in c.named_parameters()], c._orig_mod is m, c[0] is m[0], c.training)
x = torch.randn(4, 2)
val(c(x)); print(torch.equal(c(x), m(x)))
f = torch.compile(lambda t: t.sin() * 2)
print(type(f).__name__, f(x).grad_fn); val(f(x))
@torch.compile
def g(t):
    return t + 1
@torch.compile(mode="max-autotune", dynamic=True)
def h(t):
    return t * 3
print(g.__name__, g(torch.ones(1)), h.__name__, h(torch.ones(1)))
print(torch.compile(m, mode="reduce-overhead", fullgraph=True, dynamic=False, backend="eager"))
with expect():
    torch.compile(m, mode="fast")
with expect():
    torch.compile(3)
c.eval(); print(m.training, m[0].training, c.training)
opt = torch.optim.SGD(c.parameters(), lr=0.1)
c(x).sum().backward(); opt.step(); val(m[0].weight, m[0].weight.grad)
"""


def test_compile(conform):
    conform(PROGRAM)
