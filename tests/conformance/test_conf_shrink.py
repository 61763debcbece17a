"""``F.softshrink`` / ``F.hardshrink``, ``nn.Softshrink`` / ``nn.Hardshrink``, ``Tensor.hardshrink`` and
``torch.hardshrink`` (issue 14: the shrink activations of sparse-coding and denoising lessons): values at and
around lambd (signed zeros, nan, infinities), gradients, double backward (the BackwardBackward nodes), reprs,
dtypes and torch's errors."""
import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
F = torch.nn.functional
x = torch.tensor([-1.5, -0.5, -0.2, 0., 0.3, 0.5, 2., float('nan'), float('inf'), float('-inf')], requires_grad=True)
for f in [F.softshrink, F.hardshrink, lambda t: F.softshrink(t, 0.2), lambda t: F.hardshrink(t, 0.), lambda t: F.hardshrink(t, -1.), lambda t: torch.nn.Softshrink(1.)(t), lambda t: torch.nn.Hardshrink(lambd=0.25)(t), lambda t: t.hardshrink(0.3), lambda t: t.softshrink()]:
    try:
        z = f(x); print(z, z.grad_fn.name(), z.grad_fn._saved_lambd, z.grad_fn._saved_self is x)
        gx, = torch.autograd.grad(z, x, torch.arange(10.)); print(gx)
    except Exception as e: print(type(e).__name__, e)
for call in [lambda: F.softshrink(x, -0.5), lambda: F.softshrink(torch.tensor([1, 2]), 0.5), lambda: F.hardshrink(torch.tensor([1, 2]), 0.5), lambda: F.softshrink(torch.tensor([True])), lambda: torch.nn.Softshrink(-1.)(x), lambda: F.hardshrink(x, lambd=torch.tensor(0.5))]:
    try: r = call(); print(r)
    except Exception as e: print(type(e).__name__, e)
print(torch.nn.Softshrink(), torch.nn.Hardshrink(0.3), torch.nn.Softshrink(lambd=2))
d = torch.tensor([[0.7, -0.1], [-2., 0.4]], dtype=torch.float64, requires_grad=True)
z = F.softshrink(d, 0.3); print(z, z.dtype); z.sum().backward(); print(d.grad)
h = torch.tensor([0.7, -0.1], dtype=torch.float16); print(F.softshrink(h), F.hardshrink(h))
y = torch.tensor([0.7, -0.9], requires_grad=True)
try:
    g, = torch.autograd.grad(F.softshrink(y).sum(), y, create_graph=True); print(g, g.grad_fn)
except Exception as e: print(type(e).__name__, e)
g, = torch.autograd.grad((F.hardshrink(y, 0.8) * y).sum(), y, create_graph=True); print(g, g.grad_fn, g.grad_fn.next_functions)
print(torch.autograd.grad((g * y).sum(), y))
"""


def test_shrink_activations(conform):
    conform(PROGRAM)
