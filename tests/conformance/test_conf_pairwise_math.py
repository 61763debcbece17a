"""``torch.hypot``, ``torch.logaddexp`` and ``torch.logaddexp2`` (issue 14: a log-space mixture and a vector's
length in teaching programs): values, infinities and nan, broadcasting, dtype promotion, gradients (also of
the gradients), the saved tensors, ``hypot_``, ``out=``, and torch's errors."""
import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
a = torch.tensor([3., -4., 0.], requires_grad=True); b = torch.tensor([4., 3., 0.], requires_grad=True)
for f in (torch.hypot, torch.logaddexp, torch.logaddexp2):
    z = f(a, b); print(z, z.grad_fn, [n for n in dir(z.grad_fn) if n.startswith('_saved')])
    z.sum().backward(); print(a.grad, b.grad); a.grad = b.grad = None
print(torch.hypot(torch.tensor([[1.],[2.]]), torch.tensor([1., 2., 3.])))
for args in [(torch.tensor([1, 2]), torch.tensor([3, 4])), (torch.tensor([True]), torch.tensor([False])), (torch.tensor([1.]), 2.), (torch.tensor([1.]), torch.tensor([2.], dtype=torch.float64)), (torch.tensor([1.], dtype=torch.float16), torch.tensor([2.])), (torch.tensor([1, 2]), torch.tensor([0.5])), (torch.ones(2), torch.ones(3))]:
    for f in (torch.hypot, torch.logaddexp, torch.logaddexp2, lambda x, y: x.hypot(y), lambda x, y: x.logaddexp(y)):
        try: r = f(*args); print(r, r.dtype)
        except Exception as e: print(type(e).__name__, e)
x = torch.tensor([float('inf'), float('-inf'), float('nan'), 1., float('inf')]); y = torch.tensor([float('inf'), float('-inf'), 1., float('nan'), float('nan')])
print(torch.logaddexp(x, y), torch.logaddexp2(x, y), torch.hypot(x, y))
x = torch.tensor([float('-inf'), float('inf'), 100., -100.], requires_grad=True); y = torch.tensor([float('-inf'), float('inf'), -100., 100.], requires_grad=True)
torch.logaddexp(x, y).backward(torch.ones(4)); print(x.grad, y.grad)
x.grad = y.grad = None; torch.logaddexp2(x, y).backward(torch.ones(4)); print(x.grad, y.grad)
c = torch.tensor([1., 2.]); c.hypot_(torch.tensor([2., 2.])); print(c)
o = torch.empty(3); torch.hypot(torch.tensor([1., 2., 3.]), torch.tensor([2., 2., 2.]), out=o); print(o)
z = torch.hypot(a, b); print(z.grad_fn._saved_result, z.grad_fn._saved_self)
z = torch.logaddexp(a, b); print(z.grad_fn._saved_other)
# double backward
x = torch.tensor([0.5, -1.5, 2.], requires_grad=True); y = torch.tensor([1., 0.25, -2.], requires_grad=True)
for f in (torch.hypot, torch.logaddexp, torch.logaddexp2):
    gx, gy = torch.autograd.grad(f(x, y).sum(), (x, y), create_graph=True)
    print(gx, gy)
    h = torch.autograd.grad((gx * gx).sum() + gy.sum(), (x, y))
    print(h)
# a broadcasting gradient and a log-sum-exp pair in a loss
torch.manual_seed(0)
s = torch.randn(4, 3, requires_grad=True); t = torch.randn(3, requires_grad=True)
loss = torch.logaddexp(s, t).mean() + torch.hypot(s, t).pow(2).mean()
loss.backward(); print(loss, s.grad, t.grad)
"""


def test_pairwise_math(conform):
    conform(PROGRAM)
