"""F.pad (constant, reflect, replicate), F.normalize, F.cosine_similarity, torch.linalg.vector_norm / norm /
matrix_norm ('fro'), torch.cdist, scatter / scatter_add / index_add / index_fill / masked_scatter (and their
in-place forms), cummax / cummin, logcumsumexp, kthvalue, nansum / nanmean and unflatten / nn.Unflatten, run in
torch and autograd_tutor: values, gradients, grad_fn names, graphs, saved fields, printed results and errors."""
import pytest

from test_conf_ops import LEAVES, PROGRAM

torch = pytest.importorskip("torch")

F = "torch.nn.functional."
I2 = "torch.tensor([[0, 1, 0], [1, 0, 1]])"

OPS = [
    # padding
    F + "pad(m, (1, 2))", F + "pad(m, (1, 1, 2, 0), value=3.)", F + "pad(m, (-1, 1))",
    F + "pad(t3, [0, 1, 1, 0, 0, 1])",
    F + "pad(m, (1, 1), mode='reflect')", F + "pad(t3, (2, 1), mode='reflect')", F + "pad(t3, (1, 1, 1, 0), 'reflect')",
    F + "pad(m, (2, 1), mode='replicate')", F + "pad(t3, (1, 0, 0, 2), mode='replicate')",
    F + "pad(t3[None], (1, 1, 1, 0), mode='reflect')", F + "pad(u, (1, 2), mode='replicate')",
    F + "pad(t3[None, None], (1, 0, 1, 1, 1, 0), mode='replicate')", F + "pad(t3[None], (-1, 1), mode='reflect')",
    # normalize, cosine similarity, norms, distances
    F + "normalize(m)", F + "normalize(m, dim=0)", F + "normalize(m, p=1, dim=1)", F + "normalize(t3, dim=-1)",
    F + "cosine_similarity(m, m.flip(0))", F + "cosine_similarity(m, v)", F + "cosine_similarity(m, v * 2, dim=-1)",
    F + "cosine_similarity(t3[:, None], t3[None], dim=-1)", F + "cosine_similarity(x, w, dim=0)",
    "torch.linalg.vector_norm(m)", "torch.linalg.vector_norm(m, 1, dim=1)",
    "torch.linalg.vector_norm(m, 2, (0, 1), True)",
    "torch.linalg.vector_norm(v, float('inf'))", "torch.linalg.vector_norm(v, float('-inf'))",
    "torch.linalg.vector_norm(m, float('-inf'), dim=1)", "torch.linalg.vector_norm(m, 3, -1)", "torch.linalg.vector_norm(m, 0)",
    "torch.linalg.norm(m)", "torch.linalg.norm(v)", "torch.linalg.norm(m, dim=1)", "torch.linalg.norm(m, 'fro')",
    "torch.linalg.norm(m, ord=1, dim=1)", "torch.linalg.norm(t3, 'fro', dim=(1, 2))", "torch.linalg.matrix_norm(t3)",
    "torch.linalg.norm(v, 1)", "torch.cdist(m, m * 2)", "torch.cdist(m, v[None], p=1)", "torch.cdist(t3, t3 + 1)",
    "torch.cdist(m, m.flip(0), p=3)", "torch.cdist(m, m * 2, p=float('inf'))", "torch.cdist(m, m * 2, p=0)",
    # writing at indices
    f"m.scatter(0, {I2}, m * 10)", f"m.scatter(1, {I2}, 5.)", f"torch.scatter(m, 0, {I2}, t3[0])",
    f"m.scatter(-1, {I2}[:, :2], m[:, :2])", f"m.scatter(0, {I2}.int(), -m)", f"m.scatter_add(0, {I2}, m * 10)",
    f"torch.scatter_add(m, 1, {I2}, t3[1])", f"m.clone().scatter_(0, {I2}, t3[1])", f"m.clone().scatter_(1, {I2}, 2.)",
    f"m.clone().scatter_add_(0, {I2}, m)", "v.scatter(0, torch.tensor([2, 0]), x)",
    "m.index_add(0, torch.tensor([1, 1]), t3[0])", "m.index_add(1, torch.tensor([2, 0, 2]), t3[1], alpha=2)",
    "m.clone().index_add_(0, torch.tensor([1, 0]), t3[0])", "v.index_add(0, torch.tensor([0, 0]), x)",
    "m.index_fill(1, torch.tensor([0, 2]), -1.)", "m.index_fill(0, torch.tensor([1]), s)",
    "m.index_fill(0, torch.tensor([-1]), 2.)", "m.clone().index_fill_(1, torch.tensor([0]), 0.)",
    "m.index_fill(1, torch.tensor([1, 1]), s * 2)", "m.masked_scatter(m > 0, t3[0])",
    "m.masked_scatter(torch.tensor([True, False, True]), t3[1] * 2)",
    # running along a dim, nan-aware sums, unflatten
    "m.cummax(1).values", "m.cummin(0).values", "torch.cummax(v, 0).values", "t3.flip(2).cummin(-1).values",
    "torch.tensor([[3., 1., 3., 5., 1., 5.]], requires_grad=True).cummax(1).values",
    "m.logcumsumexp(1)", "torch.logcumsumexp(m, 0)", "t3.logcumsumexp(-1)", "s.logcumsumexp(0)",
    "m.kthvalue(2, 1).values", "m.kthvalue(1).values", "torch.kthvalue(m, 2, 0, keepdim=True).values",
    "t3.kthvalue(3).values", "m.nansum()", "m.nansum(1)", "torch.nansum(m, 0, keepdim=True)", "t3.nansum((0, 2))",
    "m.nanmean()", "m.nanmean(1)", "torch.nanmean(t3, dim=(0, 1))", "m.log().nansum(1)", "m.log().nanmean(0)",
    "m.unflatten(1, (3, 1))", "torch.unflatten(m, 0, (1, -1))", "torch.nn.Unflatten(1, (1, 3))(m)",
    "t3.unflatten(-1, [1, 3, 1])",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


SAVED = LEAVES + """
F = torch.nn.functional
i2 = torch.tensor([[0, 1, 0], [1, 0, 1]])
for e in ["F.pad(m, (1, 2))", "F.pad(m, (-1, 1))", "F.pad(m, (1, 1), mode='reflect')",
          "F.pad(t3, (1, 0, 0, 2), 'replicate')",
          "F.pad(t3, (1, 1, 1, 0), mode='reflect')", "F.normalize(m)", "torch.linalg.vector_norm(m, 1, -1)",
          "torch.linalg.norm(m)", "torch.linalg.norm(m, 'fro')", "torch.linalg.norm(m, dim=1)", "torch.cdist(m, m * 2)",
          "torch.cdist(m, m, p=1)", "m.scatter(0, i2, m * 2)", "m.scatter(-1, i2, 5.)", "m.scatter_add(1, i2, m * 2)",
          "m.index_add(-1, torch.tensor([2, 0, 2]), m * 2, alpha=3)", "m.index_fill(1, torch.tensor([0]), 1.)",
          "m.index_fill(-2, torch.tensor([1]), s)", "m.masked_scatter(m > 0, m * 2)", "m.cummax(1)[0]",
          "m.cummin(-1)[0]", "m.logcumsumexp(-1)", "m.kthvalue(2)[0]", "m.kthvalue(1, 0, True)[0]", "m.nansum()",
          "m.nansum(-1)", "m.nansum((0, 1), True)", "m.nanmean(1)", "m.unflatten(1, (3, 1))"]:
    n = eval(e).grad_fn
    names = [a for a in dir(n) if a.startswith("_saved_")]
    print(e, n.name(), [(a, getattr(n, a)) for a in names if not isinstance(getattr(n, a), torch.Tensor)])
    print("  tensors", [(a, tuple(getattr(n, a).shape)) for a in names if isinstance(getattr(n, a), torch.Tensor)])
"""


def test_saved_fields(conform):
    """The ``_saved_*`` fields of each new node: dims (negative ones as unsigned), pads, orders, alpha, sizes."""
    conform(SAVED)


PRINTED = """
x = torch.tensor([[1., -2., 3.], [4., 0., -6.]], requires_grad=True)
print(x.cummax(1))
print(torch.cummin(x, 0))
r = x.kthvalue(2, 1)
print(r)
print(r.values, r.indices, type(r).__name__)
v, i = torch.tensor([1, 5, 2]).cummax(0)
print(v, i)
print(torch.tensor([1, 2]).nansum(), torch.tensor([[float('nan'), 1.]]).nansum())
print(torch.tensor([float('nan')]).nanmean())
print(torch.nn.Unflatten(1, (3, 1)), torch.nn.Unflatten(-1, [1, 3]))
print(torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Unflatten(1, (3, 2))))
print(torch.tensor([1, 2]).scatter(0, torch.tensor([0]), 2.5))
y = torch.zeros(2, 3).scatter_(1, torch.tensor([[2], [0]]), 1.)
print(y)
print(torch.zeros(5).index_add_(0, torch.tensor([0, 4, 0]), torch.tensor([1., 2., 3.])))
print(torch.tensor([-float('inf'), 0., 1.]).logcumsumexp(0))
print(torch.nn.functional.pad(torch.arange(6).reshape(2, 3), (1, 1), value=7))
print(torch.nn.functional.pad(torch.arange(6.).reshape(1, 2, 3), (2, 2), mode='reflect'))
print(torch.linalg.vector_norm(torch.tensor([3., 4.]), 0), torch.linalg.norm(torch.ones(2, 2), keepdim=True))
"""


def test_printed(conform):
    conform(PRINTED)


ERRORS = [
    # pad
    F + "pad(m, (1,))", F + "pad(m, (1, 1, 1, 1, 1, 1))", F + "pad(t3, (3, 3), mode='reflect')",
    F + "pad(t3, (0, 0, 2, 0), mode='reflect')", F + "pad(t3, (1, 1), mode='foo')", F + "pad(m, (-2, -2))",
    F + "pad(t3, (1, 1), mode='replicate', value=2.)", F + "pad(m, (1, 1, 1, 1), mode='reflect')",
    F + "pad(v, (1, 1), mode='replicate')",
    # norms and distances
    F + "normalize(m, dim=2)", F + "cosine_similarity(m, x)", F + "cosine_similarity(m, m, dim=3)",
    "torch.linalg.vector_norm(m, dim=3)", "torch.linalg.vector_norm(torch.tensor([1, 2]))",
    "torch.linalg.vector_norm(m, 'fro')", "torch.linalg.norm(v, 'fro')", "torch.linalg.norm(m, 3)",
    "torch.linalg.norm(t3, 'fro')", "torch.linalg.norm(m, 'fro', dim=1)", "torch.linalg.norm(t3, dim=(0, 1, 2))",
    "torch.cdist(m, v)", "torch.cdist(v, m)", "torch.cdist(m, t3[0, :, :2])", "torch.cdist(m, m, p=-1)",
    "torch.cdist(torch.tensor([[1, 2]]), torch.tensor([[1, 2]]))",
    # scatter family
    f"m.scatter(2, {I2}, m)", "m.scatter(0, torch.tensor([[0, 5, 0]]), m)", f"m.scatter(0, {I2}.float(), m)",
    f"m.scatter(0, {I2}, m.double())", f"m.scatter(0, {I2}[0], m)", "m.scatter(0, torch.tensor([[0, 1, 0, 1]]), m)",
    f"m.scatter(0, {I2})", f"m.scatter_(0, {I2}, m)", "m.scatter_add(0, torch.tensor([[0, -1, 0]]), m)",
    f"m.scatter_add(0, {I2}, 1.)", f"m.scatter_add(0, {I2}, m[:1, :2])",
    "m.scatter(0, torch.tensor([[0, 1, 0, 1]]), 1.)",
    f"m.scatter(0, {I2}, v)",
    "m.index_add(0, torch.tensor([2]), m[:1])", "m.index_add(0, torch.tensor([0]), m)",
    "m.index_add(0, torch.tensor([0.]), m[:1])", "m.index_add(2, torch.tensor([0]), m[:1])",
    "m.index_add(0, torch.tensor([[0]]), m[:1])", "m.index_add(0, torch.tensor([0]), m[:1].double())",
    "m.index_add(0, torch.tensor([0]), m[:1, :2])", "m.index_add(0, torch.tensor([-1]), m[:1])",
    "m.index_add(0, torch.tensor([0]), 2.)",
    "m.index_fill(0, torch.tensor([3]), 1.)", "m.index_fill(0, torch.tensor([0.]), 1.)",
    "m.index_fill(0, torch.tensor([0], dtype=torch.int32), 1.)", "m.index_fill(0, torch.tensor([0]), v)",
    "m.index_fill(4, torch.tensor([0]), 1.)", "m.index_fill(0, torch.tensor([[0]]), 1.)",
    "m.index_fill(0, torch.tensor([-3]), 1.)",
    "m.masked_scatter(m > 0, m[:1, :1])", "m.masked_scatter(m, m)", "m.masked_scatter(m > 0, m.double())",
    "m.masked_scatter(torch.ones(3, 3, dtype=torch.bool), m)",
    # running along a dim, nan sums, unflatten
    "m.cummax(2)", "m.cummax()", "m.cummin()", "m.logcumsumexp(3)", "torch.tensor([1, 2]).logcumsumexp(0)",
    "m.kthvalue(4, 1)", "m.kthvalue(0, 1)", "m.kthvalue(1, 5)", "m.kthvalue(3)", "m.nansum(3)", "m.nansum((0, 0))",
    "torch.tensor([1, 2]).nanmean()", "m.nanmean(dtype=torch.long)", "m.unflatten(1, (2, 2))", "m.unflatten(1, ())",
    "m.unflatten(4, (3,))", "m.unflatten(0, (-1, 3))", "torch.nn.Unflatten(1, 3)",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_error(conform, expr):
    conform(LEAVES + f"with expect():\n    print({expr})\n")


HIGHER = LEAVES + """
F = torch.nn.functional
for e in ["F.pad(m, (1, -1)) ** 2", "m.scatter(0, torch.tensor([[1, 0, 1]]), m[:1] * m[:1])",
          "m.cummax(1).values ** 2", "m.index_fill(1, torch.tensor([0]), 2.) ** 3"]:
    y = eval(e).sum()
    (g,) = torch.autograd.grad(y, m, create_graph=True)
    print(e, g, g.grad_fn.name() if g.grad_fn else None)
    (gg,) = torch.autograd.grad(g.sum(), m, allow_unused=True)
    print(gg)
"""


def test_second_order(conform):
    """Second derivatives through pad, scatter and cummax, whose backward is itself recorded."""
    conform(HIGHER)
