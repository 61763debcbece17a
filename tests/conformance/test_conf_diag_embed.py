"""``torch.diag_embed`` / ``Tensor.diag_embed`` (issue 14: a batch of variances made into diagonal covariance
matrices, a batch of eigenvalues back into matrices): any ``offset``, ``dim1`` and ``dim2`` (also reversed), the
saved fields as torch shows them, gradients and double backward, ``torch.diag`` of a vector beside it, and
torch's errors."""
import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
z = torch.diag_embed(x); print(z, z.grad_fn, z.grad_fn._saved_dim1, z.grad_fn._saved_dim2, z.grad_fn._saved_offset)
z = torch.diag_embed(x, offset=1, dim1=0, dim2=2); print(z.shape, z[:, 0], z.grad_fn._saved_dim1, z.grad_fn._saved_offset)
g = torch.arange(18.).reshape(3, 2, 3); z.backward(g); print(x.grad)
x.grad = None
z = x.diag_embed(-1, 2, 0); print(z.shape, z); z.backward(torch.arange(18.).reshape(3, 2, 3)); print(x.grad)
gx, = torch.autograd.grad((torch.diag_embed(x * x, -1) * torch.arange(18.).reshape(2, 3, 3)).sum(), x, create_graph=True); print(gx, gx.grad_fn)
print(torch.autograd.grad(gx.sum(), x))
v = torch.tensor([1., 2., 3.], requires_grad=True)
d = torch.diag(v); print(d, d.grad_fn, d.grad_fn._saved_dim1, d.grad_fn._saved_dim2)
h, = torch.autograd.grad((torch.diag_embed(v) ** 2).sum(), v, create_graph=True); print(h, h.grad_fn)
print(x.diag_embed().shape, torch.diag_embed(torch.tensor([1, 2])), torch.diag_embed(torch.ones(2, 1, 3), 2, 1, 3).shape)
for c in [lambda: torch.diag_embed(x, dim1=1, dim2=1), lambda: torch.diag_embed(x, dim1=5), lambda: torch.diag_embed(torch.tensor(1.)), lambda: torch.diag_embed(x, dim1=-1, dim2=2)]:
    try: print(c())
    except Exception as e: print(type(e).__name__, e)
"""


def test_diag_embed(conform):
    conform(PROGRAM)
