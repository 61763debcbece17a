"""The torch 2.13 functions real teaching programs call that were missing (issue 14): ``diff``, ``take_along_dim``,
``var_mean`` / ``std_mean``, ``rot90``, ``Tensor.H`` / ``mH``, ``cumsum`` / ``cumprod`` with ``dtype=``,
``F.bilinear`` / ``nn.Bilinear``; and ``meshgrid``, ``broadcast_to`` / ``_tensors`` / ``_shapes``, ``cartesian_prod``,
``atleast_3d``, ``searchsorted`` / ``bucketize``, ``tril_indices`` / ``triu_indices``, ``logical_*``, ``block_diag``,
``bincount``, run in torch and autograd_tutor: values, gradients, graphs, saved fields, printed
results and errors."""
import pytest

from test_conf_ops import LEAVES, PROGRAM

torch = pytest.importorskip("torch")

F = "torch.nn.functional."
W = "t3.transpose(1, 2)[:, :, :1]"  # a (2, 3, 1) bilinear weight made from a leaf

OPS = [
    # differences: narrow and subtract, n times; prepend / append joined by cat; n = 0 a copy
    "torch.diff(v)", "torch.diff(m)", "m.diff(dim=0)", "torch.diff(m, n=2)", "m.diff(2, 1)", "torch.diff(v, n=3)",
    "torch.diff(m, n=0)", "torch.diff(x, prepend=w)", "torch.diff(m, append=b)", "torch.diff(m, 2, -1, b, b * 2)",
    "t3.diff(dim=1)", "torch.diff(m, dim=0, prepend=v[None])", "torch.diff(v, append=k)",
    # take_along_dim: expand then gather; no dim: view then gather
    "torch.take_along_dim(m, torch.tensor([[2], [0]]), 1)", "m.take_along_dim(torch.tensor([[1, 0, 1]]), 0)",
    "torch.take_along_dim(m, m.argmax(1, keepdim=True), dim=1)", "torch.take_along_dim(m, torch.tensor([5, 0, 5]))",
    "torch.take_along_dim(t3, torch.tensor([[[0], [1]]]), 2)", "torch.take_along_dim(m, m.argsort(1), -1)",
    # a spread and a mean in one node, each output and both
    "torch.var_mean(m)[0]", "torch.var_mean(m)[1]", "sum(torch.var_mean(m, 1))", "torch.var_mean(m, 0, keepdim=True)[0]",
    "torch.var_mean(t3, (0, 2), correction=0)[1]", "torch.std_mean(m)[0]", "torch.std_mean(m, 1, unbiased=False)[0]",
    "torch.std_mean(t3, -1, keepdim=True)[1]", "torch.std_mean(v * 0 + 1)[0]", "sum(torch.std_mean(t3, 1))",
    # quarter turns, conjugate transposes
    "torch.rot90(m)", "m.rot90(2)", "m.rot90(-1)", "torch.rot90(m, 3, [1, 0])", "m.rot90(0)", "t3.rot90(1, (2, 0))",
    "torch.rot90(t3, 5, (-1, -2))", "m.H", "m.mH", "t3.mH", "b.H * 2",
    # running sums and products in another dtype
    "torch.cumsum(m, 1, dtype=torch.float64)", "m.cumsum(0, dtype=torch.float64)", "torch.cumprod(v, 0, dtype=torch.float64)",
    "t3.cumsum(dim=-1, dtype=torch.float32)",
    # bilinear: rows as views, TrilinearBackward0, + bias
    F + f"bilinear(m, b, {W})", F + f"bilinear(m, b, {W}, x)", F + f"bilinear(m[0], b[1], {W}, w)",
    F + f"bilinear(t3[:, :, :1] + 1, t3[:, :, 1:2], {W}[:, :1] * 0 + m.sum(), x)",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


SAVED = LEAVES + """
F = torch.nn.functional
for e in ["torch.diff(m, n=2)", "torch.diff(m, dim=0, prepend=v[None])", "torch.diff(m, n=0)",
          "torch.take_along_dim(m, torch.tensor([[2], [0]]), 1)", "torch.take_along_dim(m, torch.tensor([5, 0]))",
          "torch.var_mean(m, 1)[0]", "torch.var_mean(m)[1]", "torch.std_mean(m, [0, 1], correction=0)[0]",
          "torch.std_mean(m)[1]", "torch.rot90(m, -1, [1, 0])", "t3.rot90(6, (2, -3))", "m.H", "t3.mH",
          "torch.cumsum(m, -1, dtype=torch.float64)", "F.bilinear(m, b, t3.transpose(1, 2)[:, :, :1], x)",
          "F.bilinear(m.detach(), b.detach(), t3.transpose(1, 2)[:, :, :1])"]:
    y = eval(e)
    n = y.grad_fn
    while n is not None:
        names = [a for a in dir(n) if a.startswith("_saved_")]
        print(e, n.name(), [(a, getattr(n, a)) for a in names if not isinstance(getattr(n, a), torch.Tensor)])
        print("  tensors", [(a, tuple(getattr(n, a).shape), getattr(n, a).dtype) for a in names
                            if isinstance(getattr(n, a), torch.Tensor)])
        n = n.next_functions[0][0] if n.next_functions and n.next_functions[0][0] is not None else None
"""


def test_saved_fields(conform):
    """The ``_saved_*`` fields of each node the new functions record, down the first input to the leaf."""
    conform(SAVED)


TWO_OUTPUTS = """
x2 = torch.tensor([[0.5, -1., 3.], [2., 2., 2.]], requires_grad=True)
for f in (torch.var_mean, torch.std_mean):
    for kw in ({}, {"dim": 1}, {"dim": 0, "keepdim": True, "correction": 0}, {"dim": (0, 1), "unbiased": False}):
        for which in ((0,), (1,), (0, 1)):
            x2.grad = None
            out = f(x2, **kw)
            print(type(out).__name__, out, out[0].output_nr, out[1].output_nr, out[1].grad_fn is out[0].grad_fn)
            graph(out[1])
            sum(out[i].sum() * (i + 2) for i in which).backward()
            print(kw, which, x2.grad)
            val(x2.grad)
            with expect():
                out[0].sum().backward()
with torch.no_grad():
    print(torch.var_mean(x2), torch.std_mean(x2, 0).__getitem__(0).requires_grad)
z = torch.std_mean(torch.ones(3, requires_grad=True))
z[0].backward()
print(torch.std_mean(torch.ones(1)), torch.var_mean(x2.double(), 0))
"""


def test_two_outputs(conform):
    """var_mean / std_mean: one node, two outputs told apart by output_nr; the gradient of either, or both
    (the mean's part added to the spread's, as torch's var_mean_backward adds them); freed after backward."""
    conform(TWO_OUTPUTS)


PRINTED = """
F = torch.nn.functional
print(torch.diff(torch.tensor([1, 5, 2])), torch.diff(torch.tensor([True, False, False])))
print(torch.diff(torch.tensor([[True, False], [True, True]]), dim=0), torch.tensor([1, 2, 4]).to(torch.uint8).diff())
print(torch.diff(torch.arange(12.).reshape(3, 4), append=torch.ones(3, 1, dtype=torch.int64)))
print(torch.diff(torch.tensor([1, 2]), prepend=torch.tensor([0.5])), torch.diff(torch.ones(3, 4), n=5))
print(torch.diff(torch.tensor([1., 4., 9., 16.]), n=4), torch.diff(torch.tensor([3., 1.]), n=0))
x = torch.arange(12.).reshape(3, 4)
print(torch.take_along_dim(x, x.argsort(0, descending=True), 0))
print(torch.take_along_dim(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1], [0]]), 1))
print(torch.var_mean(x, 1, False), torch.var_mean(x, False), torch.var_mean(x, (0, 1), keepdim=True))
print(torch.var_mean(x, correction=2), torch.var_mean(x, 0, correction=0.5), torch.std_mean(x, dim=None, keepdim=True))
print(torch.std_mean(x, -1, keepdim=True), torch.std_mean(torch.tensor([])), torch.var_mean(x, axis=0))
for k in range(-5, 6):
    r = torch.rot90(x.reshape(2, 2, 3), k, [2, 0])
    print(k, r, r.stride(), r.is_contiguous())
print(torch.rot90(torch.tensor([[1, 2], [3, 4]])), torch.rot90(torch.tensor([[True, False]]), -1))
print(x.H, x.mH.stride(), x.reshape(2, 2, 3).mH, x.H._base is x)
print(torch.cumsum(x, 0, dtype=torch.int32), torch.cumsum(torch.tensor([1, 2]), 0, dtype=torch.float32))
print(x.cumsum(1, dtype=torch.float16), torch.cumprod(torch.tensor([1, 2]), 0, dtype=torch.float64))
print(torch.tensor([100, 100]).cumsum(0, dtype=torch.int8), torch.cumsum(x, dim=0, dtype=None))
torch.manual_seed(0)
layer = torch.nn.Bilinear(3, 4, 5)
print(layer, [(n, p.shape) for n, p in layer.named_parameters()])
print(layer.weight, layer.bias)
print(torch.nn.Bilinear(2, 2, 1, bias=False), torch.nn.Bilinear(2, 2, 1, bias=False).bias)
print(torch.nn.Bilinear(1, 2, 3).state_dict().keys(), torch.nn.Bilinear(2, 3, 1, dtype=torch.float64).weight.dtype)
x1, x2 = torch.randn(2, 3, requires_grad=True), torch.randn(2, 4, requires_grad=True)
y = layer(x1, x2)
print(y)
val(y)
y.sum().backward()
val(x1.grad, x2.grad, layer.weight.grad)
print(layer.bias.grad)
z = F.bilinear(torch.randn(2, 6, 3), torch.randn(2, 6, 4), layer.weight, layer.bias)
print(z.shape, z.grad_fn.name())
graph(z)
print(F.bilinear(torch.tensor([[1, 2]]), torch.tensor([[3]]), torch.tensor([[[1], [1]]])))
"""


def test_printed(conform):
    conform(PRINTED)


ERRORS = [
    "torch.diff(s)", "torch.diff(m, n=-1)", "torch.diff(m, dim=2)", "torch.diff(m, prepend=torch.zeros(3, 1))",
    "torch.diff(m, prepend=v)", "torch.diff(m, prepend=2.)", "torch.diff(m, append=[1.])",
    "torch.take_along_dim(m, torch.tensor([[0], [1], [0]]), 1)", "torch.take_along_dim(m, torch.tensor([[0.]]), 1)",
    "torch.take_along_dim(m, torch.tensor([0]), 1)", "torch.take_along_dim(m, torch.tensor([[[0]]]), 1)",
    "torch.take_along_dim(m, torch.tensor([[1, 2, 0, 1]]), 0)", "torch.take_along_dim(m, torch.tensor([13]))",
    "torch.take_along_dim(m, torch.tensor([[0]]), 5)",
    "torch.take_along_dim(m, torch.tensor([0.]))", "torch.take_along_dim(m, torch.tensor([[1]], dtype=torch.int32), 0)",
    "torch.var_mean(torch.tensor([1, 2]))", "torch.std_mean(m, dim=5)", "torch.std_mean(m, [0, 0])",
    "torch.std_mean(torch.tensor([True]))",
    "torch.rot90(v)", "torch.rot90(m, 1, [0, 0])", "torch.rot90(m, 1, [0, 2])", "torch.rot90(m, 1, [0])",
    "torch.rot90(m, 1, [0, 1, 2])", "t3.rot90(1, [0, -3])", "t3.rot90(1, [-1, 2])", "t3.rot90(1, [3, 0])", "m.rot90(1, 0)",
    "t3.H", "v.H", "v.mH", "v.mT", "s.mH", "s.H", "s.mT",
    "torch.cumsum(m, 0, dtype=torch.int32)", "m.cumprod(1, dtype=torch.int64)",
    "torch.cumsum(torch.tensor([True, True]), 0, dtype=torch.bool)",
    F + f"bilinear(m.double(), b, {W})", F + f"bilinear(m, b, {W}, x.double())", F + f"bilinear(m, b[0], {W})",
    F + f"bilinear(m, b[:1], {W})", F + f"bilinear(m[:, :2], b, {W})", F + f"bilinear(m, torch.ones(2, 2), {W})",
    F + f"bilinear(m, b, {W}, v)", F + f"bilinear(s, s, {W})", F + f"bilinear(m, b, {W}[0])",
    "torch.nn.Bilinear(3, 1, 2)(m, b[0])",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_error(conform, expr):
    conform(LEAVES + f"with expect():\n    print({expr})\n")


# ---- more that teaching material calls: grids, broadcasting, bins, triangles, logic
MORE_OPS = [
    "torch.meshgrid(v, x, indexing='ij')[0]", "torch.meshgrid(v, x, indexing='ij')[1]", "torch.meshgrid([v, x], indexing='xy')[0]",
    "torch.meshgrid(v, x, indexing='xy')[1]", "torch.meshgrid(s, v, x, indexing='xy')[2]", "torch.meshgrid(v, indexing='xy')[0]",
    "torch.broadcast_to(v, (2, 3))", "x.broadcast_to(3, 2)", "b.broadcast_to((2, 2, 3))", "torch.broadcast_tensors(v, b)[0]",
    "torch.broadcast_tensors(v, b)[1]", "torch.cartesian_prod(v, x)", "torch.cartesian_prod(x, v, x)",
    "torch.block_diag(v, m)", "torch.block_diag(s, b, m)", "torch.block_diag(m)", "torch.block_diag(x, k[None], m * 2)",
    "torch.atleast_3d(v)", "torch.atleast_3d(m)", "torch.atleast_3d(s)", "torch.atleast_3d(t3)", "torch.atleast_3d(x, m)[1]",
]


@pytest.mark.parametrize("expr", MORE_OPS)
def test_more_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


MORE_PRINTED = LEAVES + """
print(torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), indexing='ij'))
g = torch.meshgrid(torch.tensor([1., 2.]), torch.tensor(3.), torch.tensor([4., 5., 6.]), indexing='xy')
print([t.shape for t in g], g[0]._base is not None, type(g).__name__)
print(torch.meshgrid(v, indexing='ij'), torch.broadcast_tensors(v), torch.broadcast_tensors(v)[0] is v)
print(torch.broadcast_shapes((2, 1), (3,)), torch.broadcast_shapes(2, (3, 1)), torch.broadcast_shapes(), torch.broadcast_shapes((1, 2), None, [4, 1, 1]))
print(torch.cartesian_prod(v) is v, torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5])))
for kw in ({}, {"right": True}, {"side": "right"}, {"out_int32": True}, {"side": "left"}):
    print(torch.searchsorted(torch.tensor([1., 3., 3., 5.]), torch.tensor([0., 3., 4., 6., 5.]), **kw))
    print(torch.bucketize(torch.tensor([[0., 3.], [4., 6.]]), torch.tensor([1., 3., 5.]), **{k: a for k, a in kw.items() if k != "side"}))
print(torch.searchsorted(torch.tensor([1, 3, 5]), 3), torch.searchsorted(torch.tensor([[1, 3], [2, 4]]), torch.tensor([[2], [3]])))
print(torch.searchsorted(torch.tensor([3., 1., 2.]), torch.tensor([2.5, 0.]), sorter=torch.tensor([1, 2, 0])))
print(torch.searchsorted(torch.tensor([1, 3]), torch.tensor([2.5])), torch.searchsorted(torch.tensor([1., 3.]), torch.tensor(2.)))
print(torch.bucketize(3, torch.tensor([1, 3, 5])), torch.bucketize(v, torch.tensor([1.5, 2.5])), torch.bucketize(x, torch.tensor([1, 2])))
print(torch.bucketize(torch.tensor([1, 5]), torch.tensor([2.5])))
for r, c, o in ((3, 3, 0), (3, 4, 1), (4, 3, -1), (2, 5, 3), (0, 3, 0), (3, 3, -5), (1, 1, 0)):
    print(torch.tril_indices(r, c, o), torch.triu_indices(r, c, o), torch.triu_indices(r, c, offset=o, dtype=torch.int32))
a = torch.arange(9.).reshape(3, 3)
print(a[tuple(torch.tril_indices(3, 3))], a[torch.triu_indices(3, 3, 1).unbind()])
print(torch.logical_and(m > 0, m < 3), torch.logical_or(m, torch.tensor([0, 0, 1])), torch.logical_xor(v > 1, k[:1] > 2))
print(torch.logical_not(m), (m > 1).logical_not(), m.logical_and(v), torch.logical_not(torch.tensor([0, 2])))
print(torch.logical_and(torch.tensor([1.]), torch.tensor([0])).dtype, m.logical_or(v).requires_grad, torch.tensor(0.).logical_xor(torch.tensor(2)))
o = torch.empty(3, dtype=torch.bool)
print(torch.logical_xor(v, torch.zeros(3), out=o), o)
print(torch.block_diag(torch.tensor([1, 2]), torch.tensor([[0.5]])), torch.block_diag(torch.tensor([True]), torch.tensor([[2]])))
print(torch.block_diag(torch.tensor([1, 2], dtype=torch.int8), torch.tensor([[300]], dtype=torch.int16)), torch.block_diag())
print(torch.block_diag(v, m, torch.ones(0, 2)), torch.block_diag(torch.tensor(2), torch.ones(1, 2)))
print(torch.bincount(torch.tensor([0, 1, 1, 4])), torch.tensor([0, 2]).bincount(), torch.bincount(torch.tensor([0, 1]), minlength=4))
print(torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([0.5, 1., 2.])), torch.bincount(torch.tensor([], dtype=torch.long)))
print(torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([1, 2, 3])), torch.bincount(torch.tensor([2]), v.double()[:1]))
r = torch.bincount(torch.tensor([0, 1, 1]), weights=v)
print(r, r.grad_fn.name())
with expect():
    r.sum().backward()
print(torch.atleast_3d(torch.tensor(1.)).shape, torch.atleast_3d(x, s), torch.atleast_3d([x, m])[1].shape)
"""


def test_more_printed(conform):
    conform(MORE_PRINTED)


MORE_ERRORS = [
    "torch.meshgrid(v, x, indexing='foo')", "torch.meshgrid(v, x.double(), indexing='ij')", "torch.meshgrid(indexing='ij')",
    "torch.meshgrid(v, 2, indexing='ij')", "torch.broadcast_to(v, (2,))", "torch.broadcast_tensors(v, x)",
    "torch.broadcast_tensors(v, 1)", "torch.broadcast_shapes((2,), (3,))", "torch.broadcast_shapes((2, 3), (3, 2, 1), (4, 1, 1))",
    "torch.cartesian_prod(v, m)", "torch.cartesian_prod(torch.tensor([1, 2]), v)",
    "torch.searchsorted(torch.tensor([1., 3.]), torch.tensor([2.]), side='left', right=True)",
    "torch.searchsorted(torch.tensor([1., 3.]), torch.tensor([2.]), side='middle')",
    "torch.searchsorted(torch.tensor([[1., 3.]]), torch.tensor([2.]))", "torch.searchsorted(torch.tensor(1.), torch.tensor([2.]))",
    "torch.searchsorted(m, v[None])", "torch.bucketize(torch.tensor([1]), torch.tensor([[1, 2]]))",
    "torch.tril_indices(-1, 3)", "torch.triu_indices(3, -2)", "torch.tril_indices(3, 3, dtype=torch.float32)",
    "torch.logical_xor(v > 1, True)", "torch.logical_and(v, 1)", "v.logical_and(x)", "v.logical_or(2)",
    "torch.logical_not(v, out=torch.empty(3))", "torch.eq(v, v, out=torch.empty(3, dtype=torch.bool))",
    "torch.add(v, v, out=torch.empty(3))", "torch.block_diag(t3)", "torch.block_diag(v, [1])",
    "torch.bincount(torch.tensor([-1]))", "torch.bincount(torch.tensor([[1]]))", "torch.bincount(v)",
    "torch.bincount(torch.tensor([0, 1]), weights=torch.tensor([1.]))", "torch.bincount(torch.tensor([0, 1]), minlength=-1)",
]


@pytest.mark.parametrize("expr", MORE_ERRORS)
def test_more_error(conform, expr):
    conform(LEAVES + f"with expect():\n    print({expr})\n")
