"""``torch.take`` / ``Tensor.take`` and ``torch.put`` / ``Tensor.put`` / ``put_`` (issue 14: reading and writing
a tensor as one flat row, in lessons on strides and on scatter-style updates): negative and repeated indices,
``accumulate``, the saved fields, gradients and double backward (take's gradient is recorded as PutBackward0),
in place on a non-leaf, and torch's errors."""
import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
x = torch.tensor([[4., 3., 5.], [6., 7., 8.]], requires_grad=True); i = torch.tensor([0, 2, 5, 2])
z = torch.take(x, i); print(z, z.grad_fn, z.grad_fn._saved_index, z.grad_fn._saved_self is x)
g, = torch.autograd.grad((z * z).sum(), x, create_graph=True); print(g, g.grad_fn, g.grad_fn.next_functions)
print(torch.autograd.grad((g * g).sum(), x))
print(x.take(torch.tensor([[0, -1]])), torch.take(x, torch.tensor([[0, -1]])).shape)
w = torch.zeros(2, 3, requires_grad=True); s = torch.tensor([1., 2., 3.], requires_grad=True); j = torch.tensor([0, 5, 0])
z = torch.put(w, j, s); print(z, z.grad_fn, z.grad_fn._saved_accumulate, z.grad_fn._saved_index, z.grad_fn._saved_source is s)
z.backward(torch.arange(6.).reshape(2, 3)); print(w.grad, s.grad)
w.grad = s.grad = None
z = w.put(j, s, accumulate=True); print(z, z.grad_fn._saved_accumulate)
z.backward(torch.arange(6.).reshape(2, 3)); print(w.grad, s.grad)
s2 = torch.tensor([[1.], [2.]], requires_grad=True)
gs, = torch.autograd.grad((torch.put(w, torch.tensor([1, 4]), s2) ** 2).sum(), s2, create_graph=True); print(gs, gs.grad_fn)
y = torch.ones(2, 3); print(y.put_(torch.tensor([1]), torch.tensor([9.])), y)
a = torch.ones(4, requires_grad=True); b = a * 2; b.put_(torch.tensor([0, 0]), torch.tensor([5., 6.]), accumulate=True); print(b, b.grad_fn)
b.sum().backward(); print(a.grad)
for c in [lambda: torch.put(w, j, torch.tensor([1.])), lambda: torch.put(w, j.float(), s), lambda: torch.put(w, torch.tensor([9]), torch.tensor([1.])),
          lambda: torch.put(w, j, s.double()), lambda: torch.take(torch.tensor([]), torch.tensor([0])), lambda: torch.take(x, torch.tensor([6])),
          lambda: torch.take(x, torch.tensor([1.])), lambda: torch.take(x, torch.tensor([-7])), lambda: torch.take(x, [1]), lambda: x.take([1]),
          lambda: torch.put(torch.tensor([]), torch.tensor([0]), torch.tensor([1.])), lambda: torch.take(torch.tensor([]), torch.tensor([], dtype=torch.long))]:
    try: print(c())
    except Exception as e: print(type(e).__name__, e)
"""


def test_take_put(conform):
    conform(PROGRAM)
