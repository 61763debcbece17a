"""``torch.linalg.inv`` / ``det`` / ``solve`` (and ``torch.inverse``, ``torch.det``, ``Tensor.inverse`` / ``det``):
one node each (LinalgInvExBackward0, LinalgDetBackward0, LinalgSolveExBackward0), their gradients, torch's
LinAlgError for singular matrices and its shape and dtype errors; ``linalg.matrix_norm`` of every order, composed
of vector norms or singular values as torch composes it. Run in torch and autograd_tutor. Values of random
matrices go through ``val`` (LAPACK's last bits are the library's), the small exact ones are printed."""
import pytest

from test_conf_ops import PROGRAM

torch = pytest.importorskip("torch")

LEAVES = """
A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
P = torch.tensor([[0., 1.], [1., 0.]], requires_grad=True)
bb = torch.tensor([1., 2.], requires_grad=True)
"""

OPS = [
    "torch.linalg.inv(A)", "torch.inverse(A)", "A.inverse()", "torch.linalg.inv(P)", "torch.linalg.det(A)",
    "torch.det(A)", "A.det()", "torch.linalg.det(P)", "torch.linalg.solve(A, bb)", "torch.linalg.solve(A, bb.unsqueeze(1))",
    "torch.linalg.solve(P, bb)", "torch.linalg.det(A * 2)",
    "torch.linalg.det(torch.stack([A, P]))", "torch.linalg.solve(torch.stack([A, P]), bb)",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    program = PROGRAM.format(expr=expr).replace('for name in ("x", "w", "m", "v", "s", "b", "t3", "u"):',
                                                'for name in ("A", "P", "bb"):')
    conform(LEAVES + program)


PRINTED = """
for m in [[[1., 0.], [0., 0.]], [[1., 2.], [2., 4.]], [[0., 0.], [0., 0.]], [[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]],
          [[0., 1.], [1., 0.]], [[4., 0., 0.], [0., 2., 0.], [0., 0., 0.5]]]:
    x = torch.tensor(m, requires_grad=True)
    d = torch.linalg.det(x)
    d.backward()
    print(d, x.grad)
print(torch.linalg.det(torch.zeros(2, 2)), torch.linalg.det(torch.ones(3, 2, 2)), torch.linalg.inv(torch.eye(3) * 2))
print(torch.linalg.det(torch.eye(3, dtype=torch.float64) * 3), torch.linalg.inv(torch.tensor([[4.]])))
print(torch.linalg.solve(torch.eye(2).expand(3, 2, 2), torch.ones(3, 2)).shape,
      torch.linalg.solve(torch.eye(2), torch.ones(3, 2, 2)).shape, torch.linalg.solve(torch.eye(2) * 2, torch.ones(2)))
torch.manual_seed(0)
M = torch.randn(3, 4, 4, requires_grad=True)
B = torch.randn(4, 2, requires_grad=True)
X = torch.linalg.solve(M, B)
graph(X)
X.sum().backward()
val(X, M.grad, B.grad)
M.grad = None
(torch.linalg.inv(M) * 2).sum().backward()
val(torch.linalg.inv(M), M.grad, torch.linalg.det(M))
d = torch.linalg.det(M)
graph(d)
d.sum().backward()
val(M.grad)
with expect(): torch.linalg.inv(torch.zeros(2, 2))
with expect(): torch.linalg.inv(torch.tensor([[1., 2.], [2., 4.]]))
with expect(): torch.linalg.inv(torch.zeros(2, 2, 2))
with expect(): torch.linalg.inv(torch.ones(2, 3))
with expect(): torch.linalg.inv(torch.tensor([[1, 2], [3, 4]]))
with expect(): torch.linalg.det(torch.ones(3))
with expect(): torch.linalg.det(torch.ones(2, 3))
with expect(): torch.linalg.solve(torch.zeros(2, 2), torch.ones(2))
with expect(): torch.linalg.solve(torch.zeros(2, 2, 2), torch.ones(2, 2))
with expect(): torch.linalg.solve(torch.eye(2), torch.ones(3))
with expect(): torch.linalg.solve(torch.ones(2, 3), torch.ones(2))
with expect(): torch.linalg.solve(torch.eye(2), torch.ones(2, dtype=torch.float64))
try:
    torch.linalg.inv(torch.zeros(3, 3))
except torch.linalg.LinAlgError as e:
    print(type(e).__name__, isinstance(e, RuntimeError))
"""


def test_printed(conform):
    conform(PRINTED)


MATRIX_NORMS = """
torch.manual_seed(0)
A = torch.tensor([[2., 1., -1.], [1., 3., 0.5]], requires_grad=True)
T = torch.randn(2, 3, 4).requires_grad_()
for o in ['fro', 'nuc', 2, -2, 1, -1, float('inf'), -float('inf')]:
    for keep in (False, True):
        y = torch.linalg.matrix_norm(A, o, keepdim=keep)
        print(o, y)
        graph(y)
        y.sum().backward()
        val(A.grad)
        A.grad = None
    for d in [(0, 2), (2, 0), (-1, -2)]:
        for keep in (False, True):
            y = torch.linalg.matrix_norm(T, o, dim=d, keepdim=keep)
            print(o, d, keep, y.shape, type(y.grad_fn).__name__)
            val(y)
            y.sum().backward()
            val(T.grad)
            T.grad = None
print(torch.linalg.norm(A, 'nuc'), torch.linalg.norm(A, 2), torch.linalg.norm(A, float('inf')),
      torch.linalg.norm(A, -1, dim=(0, 1)))
with expect(): torch.linalg.matrix_norm(A, 3)
with expect(): torch.linalg.matrix_norm(torch.ones(3), 2)
"""


def test_matrix_norms(conform):
    conform(MATRIX_NORMS)


EIGH = """
A = torch.tensor([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]], requires_grad=True)
L, V = torch.linalg.eigh(A)
print(L, V.abs(), V.grad_fn is L.grad_fn, V.output_nr)
graph(V)
(L * torch.tensor([1., 2., 3.])).sum().backward()
val(A.grad)
A.grad = None
L, V = torch.linalg.eigh(A)
(V.abs() * torch.arange(9.).view(3, 3)).sum().backward()
val(A.grad)
torch.manual_seed(0)
X = torch.randn(10, 3)
cov = (X.T @ X / 9).requires_grad_()
values, vectors = torch.linalg.eigh(cov)
val(values, vectors.abs())
values[-1].backward()
val(cov.grad)
print(torch.linalg.eigvalsh(A), type(torch.linalg.eigh(A)).__name__, torch.linalg.eigh(A)._fields if False else "")
B = torch.tensor([[2., 5.], [0., 3.]])
print(torch.linalg.eigh(B), torch.linalg.eigh(B, UPLO='U').eigenvalues)
with expect(): torch.linalg.eigh(torch.ones(2, 3))
with expect(): torch.linalg.eigh(torch.ones(2, 2), UPLO='X')
with expect(): torch.linalg.eigh(torch.ones(3))
"""


def test_eigh(conform):
    conform(EIGH)
