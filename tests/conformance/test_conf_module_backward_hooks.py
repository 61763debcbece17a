"""Module backward hooks: ``register_full_backward_hook``, ``register_full_backward_pre_hook`` (the
BackwardHookFunctionBackward nodes around the call, grad_input / grad_output tuples, a returned tuple replacing
them, removal) and the deprecated ``register_backward_hook`` (on the output's node, with torch's FutureWarning).
Run in torch and autograd_tutor: the graphs, what each hook sees, the gradients, warnings and errors."""
import pytest

torch = pytest.importorskip("torch")

FULL = """
nn = torch.nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
def seen(module, grad_input, grad_output):
    print("hook", type(module).__name__, grad_input, grad_output)
def pre(module, grad_output):
    print("pre", type(module).__name__, grad_output)
h1 = lin.register_full_backward_hook(seen)
h2 = lin.register_full_backward_pre_hook(pre)
x = torch.randn(4, 3, requires_grad=True)
y = lin(x)
print(y.grad_fn, y.grad_fn.name(), y.requires_grad, y.is_leaf)
graph(y)
y.pow(2).sum().backward()
print(x.grad, lin.weight.grad)
h1.remove(); h2.remove()
graph(lin(x))
lin.register_full_backward_hook(lambda m, gin, gout: (gin[0] * 2,))
x.grad = None
lin(x).sum().backward()
print(x.grad)
lin5 = nn.Linear(2, 2)
lin5.register_full_backward_pre_hook(lambda m, gout: (gout[0] * 10,))
xx = torch.ones(1, 2, requires_grad=True)
lin5(xx).sum().backward()
print(xx.grad, lin5.weight.grad, lin5.bias.grad)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
names = {}
for name, layer in net.named_children():
    layer.register_full_backward_hook(lambda m, gin, gout, name=name: print(name, type(m).__name__,
        [None if g is None else tuple(g.shape) for g in gin], [tuple(g.shape) for g in gout]))
out = net(torch.randn(2, 3))
graph(out)
out.sum().backward()
print(net[0].weight.grad)
"""

NO_INPUT_GRAD = """
nn = torch.nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
lin.register_full_backward_hook(lambda m, gin, gout: print("hook", gin, gout))
out = lin(torch.ones(1, 3))
graph(out)
out.sum().backward()
print(lin.bias.grad)
lin2 = nn.Linear(3, 2)
lin2.register_full_backward_hook(lambda m, gin, gout: (torch.ones(1, 3),))
with expect(): lin2(torch.ones(1, 3)).sum().backward()
with torch.no_grad():
    print(lin(torch.ones(1, 3, requires_grad=True)).grad_fn)
"""

DEPRECATED = """
nn = torch.nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
h = lin.register_backward_hook(lambda m, gin, gout: print("old", [None if g is None else g.shape for g in gin], gout))
z = lin(torch.ones(1, 2, requires_grad=True))
print(z.grad_fn)
z.sum().backward()
h.remove()
relu = nn.ReLU()
relu.register_backward_hook(lambda m, gin, gout: (gin[0] * 0,))
x = torch.tensor([1., -1., 2.], requires_grad=True)
relu(x).sum().backward()
print(x.grad)
with expect(): lin.register_full_backward_hook(print)
lin.register_backward_hook(print)
with expect(): lin.register_full_backward_hook(print)
lin2 = nn.Linear(2, 2)
lin2.register_full_backward_hook(print)
with expect(): lin2.register_backward_hook(print)
lin4 = nn.Linear(2, 2)
lin4.register_full_backward_hook(lambda m, gin, gout: (gin[0], gin[0]))
with expect(): lin4(torch.ones(1, 2, requires_grad=True)).sum().backward()
lin6 = nn.Linear(2, 2)
lin6.register_full_backward_pre_hook(lambda m, gout: (gout[0], gout[0]))
with expect(): lin6(torch.ones(1, 2, requires_grad=True)).sum().backward()
"""


@pytest.mark.parametrize("program", [FULL, NO_INPUT_GRAD, DEPRECATED], ids=["full", "no_input_grad", "deprecated"])
def test_module_backward_hooks(conform, program):
    conform(program)
