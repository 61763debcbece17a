"""The newer API, run in torch and in autograd_tutor: unary math (rsqrt ... erf, trunc, frac), addmm, outer, diag,
trace, tril/triu, sort/topk/argsort, any/all/nonzero/isclose, new_*, the binary-cross-entropy and L1 losses,
one_hot, torch.autograd.functional (jacobian, hessian, vjp) and gradcheck. Values, gradients, grad_fn names,
whole graphs (also of gradients under create_graph=True), printed text, warnings and errors are compared; the
last tests check the new gradients against central differences in float64 without torch."""
import numpy as np
import pytest

import autograd_tutor as at

torch = pytest.importorskip("torch")

LEAVES = """
x = torch.tensor([0.5, 2.], requires_grad=True)
w = torch.tensor([3., -4.], requires_grad=True)
m = torch.tensor([[1., -2., 3.], [4., 0., -6.]], requires_grad=True)
v = torch.tensor([1., 2., 3.], requires_grad=True)
s = torch.tensor(1.5, requires_grad=True)
b = torch.tensor([[1.], [2.]], requires_grad=True)
t3 = torch.arange(12.).reshape(2, 2, 3).requires_grad_()
"""

PROGRAM = LEAVES + """
y = {expr}
print(y)
print(type(y.grad_fn).__name__, y.grad_fn.name(), y.is_leaf, y.requires_grad, y.dtype, y.shape)
print(sorted(a for a in dir(y.grad_fn) if a.startswith("_saved_")))
graph(y)
val(y)
y.backward(torch.arange(1., y.numel() + 1).reshape(y.shape))
for name in ("x", "w", "m", "v", "s", "b", "t3"):
    g = globals()[name].grad
    print(name, g)
    if g is not None:
        val(g)
with expect():
    y.backward(torch.arange(1., y.numel() + 1).reshape(y.shape))
"""

OPS = [
    # unary math, as methods and torch.* functions, float32 and float64
    "x.rsqrt()", "torch.rsqrt(v)", "x.log2()", "torch.log2(v)", "x.log10()", "torch.log10(v.double())",
    "x.tan()", "torch.tan(m)", "x.atan()", "torch.atan(m)", "x.arctan()", "(x / 4).asin()", "torch.asin(m / 8)",
    "(x / 4).acos()", "torch.acos(m.double() / 8)", "m.sinh()", "torch.sinh(x)", "m.cosh()", "torch.cosh(x)",
    "m.erf()", "torch.erf(x.double())", "(m * 0.7).trunc()", "torch.trunc(m * 0.7)", "(m * 0.7).frac()",
    "torch.frac(m * -0.7)", "m.square()", "torch.square(m)", "torch.sign(m)", "m.sign()", "s.erf()", "s.rsqrt()",
    "(x * w / 8).tan().sum()", "x.asin().rsqrt()", "torch.arcsin(x / 4)", "torch.arccos(x / 4)",
    # matrices
    "torch.addmm(v, m.T, m)", "torch.addmm(b, m, m.T, beta=0.5, alpha=2)", "v.addmm(m.T, m)",
    "torch.addmm(x, m, m.T, alpha=-1)", "torch.addmm(b, m, m.T, beta=0)", "torch.addmm(s, m.T, m)",
    "torch.outer(x, v)", "x.outer(w)", "torch.outer(v, v)", "torch.ger(x, v)",
    "torch.diag(v)", "torch.diag(v, 1)", "v.diag(-2)", "torch.diag(m)", "m.diag(1)", "m.diag(-1)",
    "m.trace()", "torch.trace(m.T @ m)", "m.tril()", "m.triu()", "m.triu(1)", "torch.tril(m, diagonal=-1)",
    "torch.triu(m, -1)", "t3.tril()", "t3.triu(1)", "(m.tril() @ v).sum()",
    # sorting
    "m.sort().values", "m.sort(0).values", "torch.sort(m, 1, True).values", "m.sort(descending=True)[0]",
    "m.sort(stable=True).values", "torch.sort(v, stable=False).values", "m.topk(2).values",
    "torch.topk(m, 1, dim=0, largest=False).values", "v.topk(3, sorted=True)[0]", "m.topk(k=2, dim=-1).values",
    "s.sort().values", "s.topk(1).values", "t3.sort(1).values", "(m.sort().values * v).sum()",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


HIGHER = """
x = torch.tensor([0.5, 1.5, -1.], requires_grad=True)
m = torch.tensor([[1., 2.], [3., -4.]], requires_grad=True)
v = torch.tensor([0.5, -2.], requires_grad=True)
y = ({expr}).sum()
inputs = [t for t in (x, m, v) if name_of(t) in {expr!r}]
grads = torch.autograd.grad(y, inputs, create_graph=True)
for g in grads:
    print(g)
    graph(g)
    val(g)
second = torch.autograd.grad(sum(g.sum() for g in grads), inputs, create_graph={again}, allow_unused=True)
for h in second:
    print(h is None or h.requires_grad)
    if h is not None:
        val(h + torch.zeros(h.shape))
"""

HIGHER_EXPRS = [
    "x.abs().rsqrt()", "(x.abs() + 1).log2()", "(x * x + 1).log10()", "x.atan()", "(x / 2).asin()",
    "(x / 2).acos()", "x.sinh()", "x.cosh()", "x.erf()", "x.trunc() * x", "x.frac() ** 2", "x.sign() * x",
    "x.square()", "(x / 2).tan()", "torch.addmm(v, m, m) ** 2", "torch.addmm(v, m, m.T, beta=0.5, alpha=2) ** 2",
    "torch.outer(x, v) ** 2", "torch.diag(v) ** 2", "torch.diag(x, -1) ** 2", "torch.diag(m) ** 2",
    "m.diag(1) ** 3", "m.tril() ** 2", "m.triu(1) ** 2", "m.sort()[0] ** 2", "x.sort(descending=True)[0] * x",
    "m.topk(1, dim=0)[0] ** 2", "torch.nn.functional.linear(m, m, v) ** 2", "torch.nn.functional.linear(m, m.T) ** 2", "(x / 2).tan() * x.atan()", "x.erf() * x.sinh()",
]


@pytest.mark.parametrize("expr", HIGHER_EXPRS)
def test_higher_order(conform, expr):
    conform(HIGHER.format(expr=expr, again=True))


def test_trace_create_graph(conform):
    """The gradient of trace recorded as torch records it (IndexFillBackward1, then a view); its own gradient
    is taken without create_graph (index_fill is differentiated once more only as arrays)."""
    conform(HIGHER.format(expr="m.trace() ** 2 + (m.T @ m).trace()", again=False))


RESULTS = LEAVES + """
n = torch.tensor([[3., 1., 2.], [0., 5., 5.]], requires_grad=True)
print(n.sort())
print(n.sort(dim=0, descending=True))
print(torch.sort(n, 1, True))
print(n.sort(stable=True))
print(n.topk(2))
print(torch.topk(n, 1, dim=0, largest=False))
print(n.topk(k=0))
print(torch.tensor(3.).sort(), torch.tensor(3.).topk(1))
print(torch.tensor([3, 1, 2]).sort(), torch.tensor([True, False]).sort())
print(torch.tensor([3., float("nan"), 1.]).sort(), torch.tensor([3., float("nan"), 1.]).sort(descending=True))
print(torch.tensor([3., float("nan"), 1.]).topk(2), torch.tensor([1, 5, 3]).topk(2))
r = n.sort()
values, indices = r
print(r.values is r[0], r.indices is r[1], values is r.values, len(r), indices.dtype, indices.requires_grad)
print(n.argsort(), n.argsort(dim=0, descending=True), torch.argsort(n, 1), n.argsort(stable=True))
print(n.any(), n.all(), (n > 1).any(1), (n > 1).all(dim=0), torch.any(n), torch.all(n > -1))
print(n.any(1, keepdim=True), n.all(dim=(0, 1)), n.any(dim=(0,)), torch.any(n, 1), torch.all(n, dim=1, keepdim=True))
print(torch.tensor([1, 0], dtype=torch.uint8).any(), torch.tensor(2).all(), torch.tensor(0.).any(0))
print(torch.tensor([]).all(), torch.tensor([]).any(), n.any().requires_grad)
print(n.nonzero(), torch.nonzero(n), torch.nonzero(n, as_tuple=True), m.nonzero().dtype)
print(torch.tensor(5.).nonzero(), torch.tensor(0.).nonzero(), torch.tensor(5.).nonzero(as_tuple=True))
print(torch.tensor([0., 1.]).nonzero(as_tuple=True))
print(torch.isclose(n, n + 1e-6), torch.isclose(n, torch.tensor(3.)), n.isclose(n), torch.isclose(n, n + 0.01))
print(torch.isclose(n, n + 0.01, rtol=0.01), torch.isclose(n, n + 0.01, atol=0.1))
nan = torch.tensor([float("nan"), float("inf"), 1.])
print(nan.isclose(nan), nan.isclose(nan, equal_nan=True), torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])))
print(torch.isclose(torch.tensor([True]), torch.tensor([True])), torch.isclose(n, n).requires_grad)
"""


def test_results_and_predicates(conform):
    conform(RESULTS)


UNARY_DTYPES = """
for data in ([1, 2, 4], [True, False], [0.25, 1.0]):
    for dtype in (None, torch.float64):
        t = torch.tensor(data, dtype=dtype) if dtype is None or not isinstance(data[0], bool) else None
        if t is None:
            continue
        for op in ("rsqrt", "log2", "log10", "tan", "atan", "asin", "acos", "sinh", "cosh", "erf", "square", "sign",
                   "trunc", "frac"):
            with expect():
                r = getattr(t, op)()
                print(op, r, r.dtype)
                val(r)
print(torch.tensor([0., -1., float("inf")]).rsqrt(), torch.tensor([0., -1.]).log2(), torch.tensor([2., -2.]).asin())
print(torch.tensor([2., -2.]).acos(), torch.tensor([100., -100.]).sinh(), torch.tensor([100.]).cosh())
print(torch.tensor([1e-3, 3., -5., 0.]).erf(), torch.tensor([-2.5, 2.5]).trunc(), torch.tensor([-2.5, 2.5]).frac())
"""


def test_unary_dtypes_and_edges(conform):
    conform(UNARY_DTYPES)


ERRORS = LEAVES + """
m1 = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
m2 = torch.ones(3, 2)
cases = [
    "torch.addmm(torch.ones(3), m1, m2)", "torch.addmm(torch.ones(2), m1, m1)", "torch.addmm(torch.ones(2), v, m2)",
    "torch.addmm(torch.ones(2), m1, v)", "torch.addmm(torch.ones(2, 2, 2), m1, m2)",
    "torch.addmm(torch.ones(2), m1, m2.double())", "torch.addmm(torch.ones(2).double(), m1, m2)",
    "torch.addmm(torch.ones(2, 1), m1, m2)", "torch.addmm(torch.tensor([float('nan'), 1.]), m1, m2, beta=0)",
    "torch.addmm(torch.ones(2, 2), m1, m2, beta=True)",
    "torch.outer(m1, v)", "torch.outer(v, m1)", "torch.outer(v, torch.tensor([1, 2]))",
    "torch.diag(torch.ones(2, 2, 2))", "torch.diag(torch.tensor(2.))", "torch.diag(m1, 5)",
    "torch.tensor([[1, 2], [3, 4]]).diag()", "torch.ones(3).trace()", "torch.ones(2, 2, 2).trace()",
    "torch.tensor([[1, 2], [3, 4]]).trace()", "torch.tensor([[1, 2], [3, 4]], dtype=torch.int32).trace()",
    "torch.tensor([[True, True], [False, True]]).trace()", "torch.ones(3).tril()", "torch.tensor(2.).triu()",
    "m.topk(4)", "m.topk(-1)", "m.topk(2.5)", "m.sort(dim=2)", "m.argsort(dim=-3)", "torch.tensor(3.).topk(2)",
    "torch.tensor([1, 2]).sort(dim=1)", "m.any(dim=3)", "m.all(dim=(0, 0))",
    "torch.isclose(m, torch.tensor([1, 2]))", "torch.isclose(m, 3.)", "torch.isclose(m, m, rtol=-1)",
    "torch.isclose(m, m, atol=-0.5)", "torch.isclose(torch.tensor([1.]), torch.tensor([1.], dtype=torch.float64))",
    "torch.isclose(m, torch.ones(3, 2))",
]
for c in cases:
    with expect():
        print(c, eval(c))
"""


def test_errors(conform):
    conform(ERRORS)


NEW = """
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
i = torch.tensor([1, 2])
cases = ["x.new_ones(2, 3)", "x.new_ones((2,))", "x.new_zeros([2])", "x.new_full((2,), 3)",
         "x.new_full((2,), 3, dtype=torch.int64)", "x.new_tensor([1, 2])", "x.new_tensor([1., 2.])", "i.new_tensor([1.5])",
         "i.new_ones(2)", "i.new_full((2,), 2.5)", "x.new_empty(0)", "x.new_empty((2,)).shape",
         "x.new_ones(2, requires_grad=True)", "x.new_tensor(x)", "x.new_zeros(2, dtype=torch.float32)", "x.new_ones()",
         "x.new_tensor(3)", "x.new_ones(2, 3).requires_grad", "i.new_zeros(())", "x.new_full(2, 1.)",
         "x.new_full([2], 1.).dtype", "x.new_ones(size=(2,))", "torch.tensor(True).new_ones(2)",
         "x.new_tensor(torch.tensor([1, 2]))", "x.new_zeros(2, 2).is_leaf", "i.new_ones(2, requires_grad=True)",
         "x.new_tensor([1., 2.], requires_grad=True)", "x.new_ones(-1)"]
for c in cases:
    with expect():
        print(c, eval(c))
"""


def test_new_factories(conform):
    conform(NEW)


LOSSES = """
F = torch.nn.functional
p = torch.tensor([0.2, 0.9, 1.0, 0.0], requires_grad=True)
t = torch.tensor([0., 1., 0., 1.], requires_grad=True)
wt = torch.tensor([1., 2., 3., 4.])
z = torch.tensor([-1., 0.5, 3., -20.], requires_grad=True)
pw = torch.tensor([2.])
y = {expr}
print(y)
print(type(y.grad_fn).__name__, y.dtype, y.shape)
print(sorted(a for a in dir(y.grad_fn) if a.startswith("_saved_")))
graph(y)
val(y)
inputs = [a for a in (p, t, z) if name_of(a) in {expr!r}]
grads = torch.autograd.grad(y.sum(), inputs, allow_unused=True)
for g in grads:
    print(g)
    if g is not None:
        val(g)
"""

LOSS_EXPRS = [
    "F.binary_cross_entropy(p, t)", "F.binary_cross_entropy(p, t, reduction='none')",
    "F.binary_cross_entropy(p, t, weight=wt, reduction='sum')", "F.binary_cross_entropy(p, t, weight=wt)",
    "F.binary_cross_entropy(p, t.detach())", "F.binary_cross_entropy(p.double(), t.double())",
    "F.binary_cross_entropy(p * 0.5 + 0.25, t, weight=torch.tensor(2.))",
    "F.binary_cross_entropy_with_logits(z, t)", "F.binary_cross_entropy_with_logits(z, t, pos_weight=pw)",
    "F.binary_cross_entropy_with_logits(z, t, weight=wt, reduction='none')",
    "F.binary_cross_entropy_with_logits(z, t, weight=wt, pos_weight=pw, reduction='sum')",
    "F.binary_cross_entropy_with_logits(z, t.detach() * 0.5, pos_weight=torch.tensor([1., 2., 3., 4.]))",
    "F.binary_cross_entropy_with_logits(z, t.double())", "F.binary_cross_entropy_with_logits(z * 50, t)",
    "F.l1_loss(z, t)", "F.l1_loss(z, t, reduction='sum')", "F.l1_loss(z, t, reduction='none')",
    "F.l1_loss(z, t.detach()[:1])", "F.l1_loss(z, t, weight=wt)", "F.l1_loss(z, t.double())",
    "F.smooth_l1_loss(z, t)", "F.smooth_l1_loss(z, t, beta=0.5)", "F.smooth_l1_loss(z, t, reduction='none', beta=2.)",
    "F.smooth_l1_loss(z, t, beta=0.)", "F.smooth_l1_loss(z, t, reduction='sum')", "F.smooth_l1_loss(z, t.double())",
    "torch.nn.BCELoss()(p, t)", "torch.nn.BCELoss(weight=wt, reduction='sum')(p, t)",
    "torch.nn.BCEWithLogitsLoss()(z, t)", "torch.nn.BCEWithLogitsLoss(pos_weight=pw)(z, t)",
    "torch.nn.L1Loss()(z, t)", "torch.nn.L1Loss(reduction='none')(z, t)", "torch.nn.SmoothL1Loss(beta=0.5)(z, t)",
]


@pytest.mark.parametrize("expr", LOSS_EXPRS)
def test_loss(conform, expr):
    conform(LOSSES.format(expr=expr))


LOSS_ERRORS = """
F = torch.nn.functional
nn = torch.nn
p = torch.tensor([0.2, 0.9, 1.0, 0.0], requires_grad=True)
t = torch.tensor([0., 1., 0., 1.])
z = torch.tensor([-1., 0.5, 3., -20.], requires_grad=True)
cases = ["F.binary_cross_entropy(p, t[:2])", "F.binary_cross_entropy(z, t)", "F.binary_cross_entropy(p, t * 2)",
         "F.binary_cross_entropy(p, t, reduction='bad')", "F.binary_cross_entropy(p, t.double())",
         "F.binary_cross_entropy(p, t.long())", "F.binary_cross_entropy(p.double(), t)",
         "F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([0.5]), weight=torch.ones(2))",
         "F.binary_cross_entropy(torch.tensor([float('nan')]), torch.tensor([0.5]))",
         "F.binary_cross_entropy(p, t, size_average=False)", "F.binary_cross_entropy(p, t, reduce=False)",
         "F.binary_cross_entropy_with_logits(z, t[:2])", "F.binary_cross_entropy_with_logits(z, t, reduction='x')",
         "F.l1_loss(z, t, reduction='bad')", "F.l1_loss(z, torch.ones(3))", "F.l1_loss(z, t, weight=torch.ones(2))",
         "F.smooth_l1_loss(z, t, beta=-1.)", "F.smooth_l1_loss(z, t, reduction='bad')",
         "F.smooth_l1_loss(z, t, size_average=True)",
         "F.one_hot(torch.tensor([0, 2, 1]))", "F.one_hot(torch.tensor([0, 2]), 4)", "F.one_hot(torch.tensor([[0], [1]]))",
         "F.one_hot(torch.tensor(2), 3)", "F.one_hot(torch.tensor([], dtype=torch.long), 2)",
         "F.one_hot(torch.tensor([0., 1.]))", "F.one_hot(torch.tensor([0, 3]), 2)", "F.one_hot(torch.tensor([-1, 0]))",
         "F.one_hot(torch.tensor([], dtype=torch.long))", "F.one_hot(torch.tensor([0, 1]), num_classes=2).dtype",
         "nn.BCELoss()", "nn.BCEWithLogitsLoss()", "nn.L1Loss()", "nn.SmoothL1Loss(beta=0.5)",
         "nn.BCELoss(reduction='sum')", "nn.L1Loss(reduction='none').reduction", "nn.SmoothL1Loss(beta=0.5).beta",
         "list(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.]), weight=torch.ones(4)).named_buffers())",
         "list(nn.BCELoss(weight=torch.ones(4)).named_buffers())", "list(nn.BCELoss().named_buffers())",
         "nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.])).pos_weight", "nn.BCELoss(size_average=False).reduction",
         "nn.L1Loss()(z, t.double())"]
for c in cases:
    with expect():
        print(c, eval(c))
"""


def test_loss_errors_and_modules(conform):
    conform(LOSS_ERRORS)


def test_loss_create_graph_refused():
    """Differentiating the new losses twice is refused clearly (torch has BackwardBackward nodes for them)."""
    import autograd_tutor.nn.functional as F
    z = at.tensor([0.5, -1.], requires_grad=True)
    for loss in (F.binary_cross_entropy(z.sigmoid(), at.tensor([1., 0.])),
                 F.binary_cross_entropy_with_logits(z, at.tensor([1., 0.])), F.smooth_l1_loss(z, at.zeros(2))):
        (g,) = at.autograd.grad(loss, z)  # once is fine
        assert g.shape == (2,)
        with pytest.raises(NotImplementedError, match="cannot differentiate"):
            at.autograd.grad(loss, z, create_graph=True)


FUNCTIONAL = """
jacobian, hessian, vjp = torch.autograd.functional.jacobian, torch.autograd.functional.hessian, \\
    torch.autograd.functional.vjp
x = torch.tensor([1., 2.])
y = torch.tensor(3.)
xg = torch.tensor([1., 2.], requires_grad=True)
f = lambda a: a ** 2 * 3
print(jacobian(f, x))
print(jacobian(f, (x,)))
print(jacobian(lambda a, b: a * b, (x, y)))
print(jacobian(lambda a, b: (a * b, a.sum()), (x, y)))
print(jacobian(lambda a: (a * 2, a.sum()), x))
print(jacobian(lambda a: a.sum(), x), jacobian(lambda a: a * 2, y))
print(jacobian(lambda a: a.reshape(2, 1) * a, x))
j = jacobian(f, x, create_graph=True)
print(j, j.requires_grad)
j = jacobian(f, xg, create_graph=True)
print(j)
graph(j)
j.sum().backward()
print(xg.grad)
print(jacobian(lambda a: a.tan().sum() * a, xg))
print(hessian(lambda a: (a ** 3).sum(), x))
print(hessian(lambda a, b: (a ** 2 * b).sum(), (x, y)))
print(hessian(lambda a: (a.outer(a).tril() * a).sum(), x))
print(hessian(lambda a: a.erf().sum(), x.double()))
print(vjp(f, x, torch.ones(2)))
print(vjp(lambda a: a.sum(), x))
print(vjp(lambda a, b: a * b, (x, y), torch.ones(2)))
print(vjp(lambda a: (a * 2, a.sum()), x, (torch.ones(2), torch.tensor(1.))))
print(vjp(lambda a: a.detach(), x, torch.ones(2)))
out, g = vjp(f, xg, torch.ones(2), create_graph=True)
print(out, g)
print(x.requires_grad, x.grad, xg.grad)
cases = ["jacobian(lambda a: a.detach(), x)", "jacobian(lambda a: a.detach(), x, strict=True)",
         "jacobian(lambda a: 3, x)", "hessian(lambda a: a * 2, x)", "vjp(f, x)",
         "jacobian(lambda a: torch.ones(2), x, strict=True)", "jacobian(f, [x])", "vjp(f, x, torch.ones(3))",
         "jacobian(f, 3.)", "jacobian(lambda a, b: a * 2, (x, y), strict=True)", "jacobian(lambda a, b: a, (x, 2))",
         "vjp(lambda a: (a, a), x, torch.ones(2))", "vjp(lambda a: (a, a), x, (torch.ones(2), torch.ones(3)))",
         "vjp(lambda a: a * 1, x, torch.ones(2), strict=True)", "vjp(lambda a, b: a * 1, (x, y), torch.ones(2), strict=True)",
         "hessian(lambda a: (a, a), x)", "hessian(lambda a: (a * 2).sum(), x, strict=True)",
         "hessian(lambda a: (a * a).sum(), x, strict=True)"]
for c in cases:
    with expect():
        print(c, eval(c))
"""


def test_autograd_functional(conform):
    conform(FUNCTIONAL)


GRADCHECK = """
gradcheck = torch.autograd.gradcheck
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
m = torch.tensor([[0.5, -0.3], [0.2, 0.9]], dtype=torch.float64, requires_grad=True)
print(gradcheck(lambda a: a ** 2, (x,)), gradcheck(lambda a: a ** 2, x), gradcheck(lambda a: a.sum(), x))
print(gradcheck(lambda a, b: (a * b).sum(), (x, x.detach().clone().requires_grad_())))
print(gradcheck(lambda a, n: a * n, (x, 3)), gradcheck(lambda a: (a, a * 2), (x,)), gradcheck(lambda a: a ** 2, (x,), eps=1e-3))
print(gradcheck(lambda a: a.abs(), (torch.tensor([0.], dtype=torch.float64, requires_grad=True),)))
x = torch.tensor([1.25, 0.5], dtype=torch.float64, requires_grad=True)
for fn in ("rsqrt", "log2", "log10", "tan", "atan", "sinh", "cosh", "erf", "square", "frac"):
    print(fn, gradcheck(lambda a: getattr(a, fn)(), (x,)))
print(gradcheck(lambda a: (a / 4).asin() + (a / 4).acos(), (x,)))
print(gradcheck(lambda a, b: torch.addmm(b, a, a.T, beta=0.5, alpha=2), (m, x)))
print(gradcheck(lambda a: (a.diag(), a.trace(), a.tril(), a.triu(1), a.sort().values, a.topk(1).values), (m,)))
print(gradcheck(lambda a: torch.diag(a, 1), (x,)), gradcheck(lambda a, b: torch.outer(a, b), (x, m[0].detach().requires_grad_())))

class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 2

    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return g * a * 3

class Unscaled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):  # right for a one-hot g, but not zero for a zero g
        return g * 2 if g.abs().sum() > 0 else torch.ones_like(g)

for call in ("gradcheck(Bad.apply, (x,))", "gradcheck(Bad.apply, (x,), raise_exception=False)",
             "gradcheck(Unscaled.apply, (x,))", "gradcheck(lambda a: a ** 2, (x.detach(),))",
             "gradcheck(lambda a: a.detach() ** 2, (x,))", "gradcheck(lambda a: 3, x)",
             "gradcheck(lambda a: a ** 2, (torch.tensor([1., 2.], requires_grad=True),))"):
    try:
        print(call, eval(call))
    except Exception as e:
        print(call, type(e).__name__, [c.__name__ for c in type(e).__mro__[1:3]], isinstance(e, RuntimeError))
        print(str(e))
"""


def test_gradcheck(conform):
    conform(GRADCHECK)


def test_gradcheck_error_type():
    """``GradcheckError`` is importable from the gradcheck module, as in torch, while ``torch.autograd.gradcheck``
    is the function; the error is a RuntimeError whose first line names the output and input."""
    from autograd_tutor.autograd.gradcheck import GradcheckError
    assert callable(at.autograd.gradcheck) and not hasattr(at.autograd, "GradcheckError")
    assert issubclass(GradcheckError, RuntimeError) and GradcheckError.__name__ == "GradcheckError"
    x = at.tensor([1., 2.], dtype=at.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0 with respect to input 0,\n"):
        at.autograd.gradcheck(lambda a: a.detach() * a, (x,))


# ---------------------------------------------------------------- central differences, without torch

def _central(fn, x: np.ndarray, r: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """d/dx sum(r * fn(x)) by central differences, elementwise."""
    out = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[k] += eps
        down[k] -= eps
        out[k] = ((r * fn(up)).sum() - (r * fn(down)).sum()) / (2 * eps)
    return out


X = np.array([[0.3, -0.7, 1.2], [0.45, 0.8, -0.25]])
R = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]])
TARGET = at.tensor(np.abs(R) / 3)
ZEROS = at.zeros(2, 3, dtype=at.float64)
LOSSES_F = at.nn.functional
CASES = {  # name: (function of a Tensor, input array)
    "rsqrt": (lambda t: t.rsqrt(), np.abs(X) + 0.1), "log2": (lambda t: t.log2(), np.abs(X) + 0.1),
    "log10": (lambda t: t.log10(), np.abs(X) + 0.1), "tan": (lambda t: t.tan(), X), "atan": (lambda t: t.atan(), X),
    "asin": (lambda t: t.asin(), X / 2), "acos": (lambda t: t.acos(), X / 2), "sinh": (lambda t: t.sinh(), X),
    "cosh": (lambda t: t.cosh(), X), "erf": (lambda t: t.erf(), X), "frac": (lambda t: t.frac(), X * 3 + 0.01),
    "trunc": (lambda t: t.trunc(), X * 3 + 0.01), "square": (lambda t: t.square(), X),
    "sign": (lambda t: t.sign(), X), "tril": (lambda t: t.tril(1), X), "triu": (lambda t: t.triu(-1), X),
    "diag2d": (lambda t: t.diag(1) * 1, X), "diag1d": (lambda t: t[0].diag(-1)[1:, :2], X),
    "trace": (lambda t: t[:, :2].trace() * t, X), "sort": (lambda t: t.sort(0, descending=True).values, X),
    "topk": (lambda t: t.topk(2).values, X), "outer": (lambda t: t[0].outer(t[1])[:2], X),
    "addmm": (lambda t: at.addmm(t[0, :2], t[:, :2].T, t[:, 1:], beta=0.5, alpha=-2), X),
    "bce": (lambda t: LOSSES_F.binary_cross_entropy(t.sigmoid(), TARGET, reduction="none"), X),
    "bce_logits": (lambda t: LOSSES_F.binary_cross_entropy_with_logits(
        t, TARGET, reduction="none", pos_weight=at.tensor([1., 2., 3.], dtype=at.float64)), X),
    "smooth_l1": (lambda t: LOSSES_F.smooth_l1_loss(t, ZEROS, reduction="none", beta=0.5), X),
    "l1": (lambda t: LOSSES_F.l1_loss(t, ZEROS, reduction="none"), X),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_central_differences(name):
    """The gradient backward computes equals central differences of the forward pass (float64)."""
    fn, x0 = CASES[name]
    x = at.tensor(x0, dtype=at.float64, requires_grad=True)
    y = fn(x)
    r = R.reshape(-1)[:y.numel()].reshape(tuple(y.shape)) if y.numel() <= R.size else np.ones(tuple(y.shape))
    y.backward(at.tensor(r, dtype=at.float64))
    numeric = _central(lambda a: fn(at.tensor(a, dtype=at.float64)).detach().numpy(), x0.astype(np.float64), r)
    np.testing.assert_allclose(x.grad.numpy(), numeric, rtol=1e-6, atol=1e-7)


def test_target_gradients_by_central_differences():
    """The target gradients of the binary cross entropies and smooth L1, against central differences."""
    F = at.nn.functional
    x0 = np.abs(X) / 2
    for make in (lambda p, y: F.binary_cross_entropy(p, y, weight=at.tensor(np.abs(R))),
                 lambda p, y: F.binary_cross_entropy_with_logits(p, y, pos_weight=at.tensor(np.abs(R)[0])),
                 lambda p, y: F.smooth_l1_loss(p, y, beta=0.3, reduction="sum")):
        y0 = np.abs(X[::-1]) / 2
        y = at.tensor(y0, requires_grad=True, dtype=at.float64)
        make(at.tensor(x0, dtype=at.float64), y).backward()
        numeric = _central(lambda a: make(at.tensor(x0, dtype=at.float64), at.tensor(a, dtype=at.float64)).numpy(),
                           y0, np.ones(()))
        np.testing.assert_allclose(y.grad.numpy(), numeric, rtol=1e-6, atol=1e-7)


def test_hessian_matches_central_differences_of_the_gradient():
    from autograd_tutor.autograd.functional import hessian, jacobian

    def f(t):
        return (t.tan() * t.erf()).sum() + t.outer(t).tril().sum()

    x0 = np.array([0.3, -0.4, 0.9])
    h = hessian(f, at.tensor(x0, dtype=at.float64)).numpy()

    def grad_at(a):
        return jacobian(f, at.tensor(a, dtype=at.float64)).numpy()

    numeric = np.stack([(grad_at(x0 + e) - grad_at(x0 - e)) / 2e-6 for e in np.eye(3) * 1e-6], axis=1)
    np.testing.assert_allclose(h, numeric, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, h.T, atol=1e-12)


GRAD_LAYOUT = """
x = torch.ones(3, 2, requires_grad=True)
(x.t() * 2).sum().backward()                      # the gradient arrives transposed
print(x.grad.is_contiguous(), x.grad.stride(), x.grad.view(-1))
(x.t().sin()).sum().backward()                    # accumulated in place: the layout stays
print(x.grad.stride())
w = torch.arange(6.).reshape(3, 2).t().detach().requires_grad_()   # a transposed leaf
(w * w).sum().backward()
print(w.stride(), w.grad.stride(), w.grad)
v = torch.ones(2, 3, requires_grad=True)
h = v.t() * 3
h.retain_grad()
h.sum().backward()
print(v.grad.stride(), h.grad.stride())
"""


def test_a_leaf_grad_takes_the_leaf_layout(conform):
    """torch's layout contract: a leaf's first .grad has the leaf's strides, whatever layout the gradient came in."""
    conform(GRAD_LAYOUT)
