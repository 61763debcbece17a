"""More of ``torch.linalg`` (issue 14: Gaussian-process, least-squares and numerics lessons): ``cholesky`` (and
``cholesky_ex``), ``solve_triangular``, ``slogdet`` / ``torch.slogdet`` / ``torch.logdet``, ``matrix_power``,
``multi_dot``, ``vecdot``, ``linalg.matmul``, ``linalg.diagonal`` and ``matrix_rank``: values, gradients, graphs,
reprs and torch's errors."""
import pytest

torch = pytest.importorskip("torch")

HEAD = """
torch.manual_seed(0)
M = torch.randn(3, 3)
A = (M @ M.T + 3 * torch.eye(3)).requires_grad_()
S = (torch.randn(2, 3, 3) @ torch.randn(2, 3, 3).mT + 3 * torch.eye(3)).requires_grad_()
B = torch.randn(3, 2, requires_grad=True)
T = torch.randn(3, 3).tril().requires_grad_()
v = torch.randn(3, requires_grad=True)
"""

EXPRS = [
    "torch.linalg.cholesky(A)", "torch.linalg.cholesky(A, upper=True)", "torch.linalg.cholesky(S)",
    "torch.linalg.cholesky_ex(A).L", "torch.linalg.solve_triangular(T + 3 * torch.eye(3), B, upper=False)",
    "torch.linalg.solve_triangular(A, B, upper=True)", "torch.linalg.solve_triangular(A, B.T, upper=True, left=False)",
    "torch.linalg.solve_triangular(T, B, upper=False, unitriangular=True)",
    "torch.linalg.solve_triangular(torch.linalg.cholesky(S), torch.ones(2, 3, 1), upper=False)",
    "torch.linalg.slogdet(A).logabsdet", "torch.slogdet(S)[1]", "torch.logdet(A)", "torch.logdet(S)",
    "torch.linalg.slogdet(-A).logabsdet * torch.linalg.slogdet(-A).sign",
    "torch.linalg.matrix_power(A, 0)", "torch.linalg.matrix_power(A, 1)", "torch.linalg.matrix_power(A * 0.3, 2)",
    "torch.linalg.matrix_power(A * 0.3, 3)", "torch.linalg.matrix_power(A * 0.3, 4)",
    "torch.linalg.matrix_power(A * 0.3, 5)", "torch.linalg.matrix_power(A, -2)", "torch.linalg.matrix_power(S * 0.3, 3)",
    "torch.linalg.multi_dot([A, B])", "torch.linalg.multi_dot([v, A, B])", "torch.linalg.multi_dot([v, A, v])",
    "torch.linalg.multi_dot([B.T, A, A, B])", "torch.linalg.multi_dot([A, B, B.T, A, v])",
    "torch.linalg.vecdot(B, B, dim=0)", "torch.linalg.vecdot(A, v)", "torch.linalg.matmul(A, B)",
    "torch.linalg.diagonal(S)", "torch.linalg.diagonal(A, offset=1)",
]

PROGRAM = HEAD + """
y = {expr}
val(y); graph(y)
(y * torch.randn(y.shape)).sum().backward()
for t in (A, S, B, T, v):
    if t.grad is not None:
        val(t.grad)
"""


@pytest.mark.parametrize("expr", EXPRS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


PRINTED = HEAD + """
print(torch.linalg.cholesky_ex(torch.tensor([[4., 2.], [2., 5.]])), torch.linalg.slogdet(torch.tensor([[2., 0.], [0., -3.]])))
print(torch.slogdet(torch.eye(2)), torch.logdet(torch.tensor([[-1., 0.], [0., 1.]])), torch.logdet(torch.zeros(2, 2)))
print(torch.linalg.matrix_rank(torch.ones(3, 3)), torch.linalg.matrix_rank(torch.ones(3, 3), atol=0.5),
      torch.linalg.matrix_rank(torch.ones(2, 3, 3)), torch.linalg.matrix_rank(A, hermitian=True),
      torch.linalg.matrix_rank(torch.tensor([[1., 0.], [0., 1e-3]]), rtol=1e-2), torch.linalg.matrix_rank(B))
y = torch.linalg.cholesky(A, upper=True)
print(y.grad_fn._saved_upper, torch.linalg.solve_triangular(A, B, upper=True).grad_fn._saved_upper,
      torch.linalg.solve_triangular(A, B, upper=True, left=False).grad_fn._saved_left if False else "",
      torch.linalg.slogdet(A).sign.grad_fn.name(), torch.linalg.cholesky(A).grad_fn.name())
for call in [lambda: torch.linalg.cholesky(-A), lambda: torch.linalg.cholesky(torch.diag(torch.tensor([1., -1., 2.]))),
             lambda: torch.linalg.cholesky(B), lambda: torch.linalg.solve_triangular(A, B),
             lambda: torch.linalg.solve_triangular(A, B.T, upper=True), lambda: torch.linalg.cholesky(-S),
             lambda: torch.linalg.cholesky(torch.ones(3)), lambda: torch.linalg.matrix_power(B, 2),
             lambda: torch.linalg.matrix_power(A, 1.5), lambda: torch.linalg.multi_dot([A]),
             lambda: torch.linalg.multi_dot([A, torch.randn(3, 3, 3)]), lambda: torch.linalg.multi_dot([A, torch.randn(2, 3)]),
             lambda: torch.linalg.multi_dot([torch.randn(2, 2, 2), A]), lambda: torch.linalg.multi_dot([A, torch.ones(3), A]),
             lambda: torch.linalg.vecdot(B, A), lambda: torch.linalg.cholesky(torch.ones(2, 2, dtype=torch.int64)),
             lambda: torch.linalg.slogdet(B)]:
    with expect():
        call()
"""


def test_printed(conform):
    conform(PRINTED)
