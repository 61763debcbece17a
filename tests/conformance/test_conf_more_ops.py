"""flip, repeat, gather, amax / amin, logsumexp and the activations leaky_relu, gelu, silu, softplus and elu
(functions and modules), run in torch and autograd_tutor: values, gradients, grad_fn names, graphs, what the
nodes save, second- and third-order gradients, printed forms and errors; plus indexing with True / False."""
import pytest

from test_conf_ops import PROGRAM
from test_conf_saved import _program as saved_program

torch = pytest.importorskip("torch")

F = "torch.nn.functional."

OPS = [
    # flip
    "m.flip(0)", "m.flip(1)", "m.flip(0, 1)", "torch.flip(m, [0, 1])", "torch.flip(t3, (2,))", "m.flip(-1)",
    "x.flip(dims=[0])", "m.flip([])", "s.flip(0)", "t3.flip(0, 2) * 2",
    # repeat
    "x.repeat(2)", "m.repeat(2, 1)", "m.repeat(1, 2)", "v.repeat(2, 2)", "m.repeat(2, 1, 3)", "s.repeat(3)",
    "b.repeat((1, 3))", "m.repeat(0, 1)", "t3.repeat(1, 1, 1)", "u.repeat(2, 1, 1, 2)", "m.repeat([1, 1])",
    # gather
    "m.gather(1, torch.tensor([[0, 2], [1, 1]]))", "torch.gather(m, 0, torch.tensor([[1, 0, 1]]))",
    "v.gather(0, torch.tensor([2, 2, 0, 1]))", "m.gather(-1, torch.tensor([[2], [0]]))",
    "torch.gather(t3, 2, torch.tensor([[[0, 0]], [[2, 1]]]))",
    "m.gather(1, torch.tensor([[0, 0], [1, 1]], dtype=torch.int32))", "s.gather(0, torch.tensor([0, 0]))",
    "m.gather(dim=0, index=torch.tensor([[0, 0, 0], [0, 0, 0]]))", "v.gather(0, torch.tensor(1))",
    # amax / amin, with ties
    "m.amax(1)", "m.amax(0)", "m.amax()", "torch.amax(m, 0, True)", "m.amin(1)", "torch.amin(m)", "t3.amax((0, 2))",
    "t3.amin(dim=(1, 2), keepdim=True)", "v.amax(-1)", "s.amax()", "s.amin(0)", "u.amax()", "u.amin(1)",
    "torch.cat([v, v]).amax()", "b.expand(2, 3).amin(1)", "torch.maximum(m, torch.tensor(1.)).amax(0)",
    "m.amax([])", "m.amax(dim=None, keepdim=True)", "torch.amin(m, (1, 0))",
    # logsumexp
    "m.logsumexp(1)", "m.logsumexp(0)", "torch.logsumexp(m, (0, 1))", "torch.logsumexp(m, 1, keepdim=True)",
    "v.logsumexp(0)", "t3.logsumexp(-1)", "s.logsumexp(0)", "(m * 100).logsumexp(1)",
    "torch.logsumexp(t3, dim=(0, 2))", "m.logsumexp((0, 1), True)", "m.logsumexp((), keepdim=True)",
    "(m * -100).logsumexp(0)",
    # activations
    F + "leaky_relu(m)", F + "leaky_relu(m, 0.2)", F + "leaky_relu(m, negative_slope=-0.5)", F + "leaky_relu(s)",
    F + "gelu(m / 2)", F + "gelu(m, approximate='tanh')", F + "gelu(v * 0.5)", F + "gelu(t3 / 2 - 3)", F + "gelu(s)",
    F + "silu(m)", F + "silu(t3 - 6)", F + "silu(s)",
    F + "softplus(m)", F + "softplus(m, beta=2, threshold=3)", F + "softplus(m, 0.5)", F + "softplus(t3 - 6, 1, 2)",
    F + "elu(m)", F + "elu(m, 0.5)", F + "elu(m, alpha=2.)", F + "elu(t3 - 6)", F + "elu(m, -1.)",
    "torch.nn.LeakyReLU(0.1)(m)", "torch.nn.GELU('tanh')(m)", "torch.nn.GELU()(x)", "torch.nn.SiLU()(m)",
    "torch.nn.Softplus(2, 5)(m)", "torch.nn.ELU(0.3)(m)", "torch.nn.Softplus()(v)", "torch.nn.LeakyReLU()(b)",
    F + "gelu(x.double())", F + "silu(x.double())", F + "softplus(x.double())", F + "elu(x.double())",
    F + "leaky_relu(x.double())", "x.double().logsumexp(0)", "m.double().amax(1)",
    # compositions
    F + "gelu(m @ v.repeat(1) / 8).logsumexp(0)", F + "silu(m.flip(1)).amax(1)", F + "elu(m).gather(1, torch.tensor([[2], [1]]))",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


@pytest.mark.parametrize("expr", OPS)
def test_saved_tensors(conform, expr):
    conform(saved_program(expr))


SAVED_VALUES = """
x = torch.tensor([[1., -2., 3.], [0.5, 4., -1.]], requires_grad=True)
for e in ["x.flip(0)", "x.flip(1, 0)", "x.repeat(2, 1, 3)", "x.gather(1, torch.tensor([[0], [2]]))", "x.amax(1)",
          "x.amax()", "x.amin(0, keepdim=True)", "x.logsumexp(1)", "torch.logsumexp(x, (0, 1), True)",
          "F.leaky_relu(x)", "F.leaky_relu(x, 2)", "F.gelu(x)", "F.gelu(x, approximate='tanh')", "F.silu(x)",
          "F.softplus(x)", "F.softplus(x, 2, 3.5)", "torch.nn.Softplus()(x)", "F.elu(x)", "F.elu(x, 0.5)",
          "torch.nn.ELU()(x)", "torch.nn.LeakyReLU()(x)"]:
    n = eval(e).grad_fn
    names = [a for a in dir(n) if a.startswith("_saved_")]
    print(e, n.name(), [(a, getattr(n, a)) for a in names if not isinstance(getattr(n, a), torch.Tensor)])
    print("  tensors", [a for a in names if isinstance(getattr(n, a), torch.Tensor)])
"""


def test_saved_values(conform):
    """The non-tensor ``_saved_*`` values (dims, slopes, beta...) and which tensors each node keeps."""
    conform("F = torch.nn.functional\n" + SAVED_VALUES)


HIGHER = """
F = torch.nn.functional
x = torch.tensor([0.5, 1.5, -1., -0.25], requires_grad=True)
m = torch.tensor([[1., 2.], [3., -4.]], requires_grad=True)
t = {inputs}
y = ({expr}).sum()
grads = torch.autograd.grad(y, t, create_graph=True)
for g in grads:
    print(g)
    graph(g)
    val(g)
second = torch.autograd.grad(sum(g.sum() for g in grads), t, create_graph=True, allow_unused=True)
for h in second:
    print(h is None or h.requires_grad)
    if h is not None:
        val(h + torch.zeros(h.shape))
third = torch.autograd.grad([h.sum() for h in second if h is not None and h.requires_grad] or [y], t,
                            allow_unused=True, materialize_grads=True)
val(*third)
"""

HIGHER_EXPRS = [
    ("x.flip(0) * x", "[x]"), ("m.flip(0, 1) * m ** 2", "[m]"), ("m.repeat(2, 1) ** 2", "[m]"),
    ("x.repeat(2, 2) ** 3", "[x]"), ("m.gather(1, torch.tensor([[0, 0], [1, 0]])) ** 3", "[m]"),
    ("m.amax(1) ** 2", "[m]"), ("m.amax() * m", "[m]"), ("m.amin(0, keepdim=True) ** 3", "[m]"),
    ("torch.cat([x, x]).amax() ** 2", "[x]"), ("x.amin() * x", "[x]"),
    ("m.logsumexp(1) ** 2", "[m]"), ("x.logsumexp(0)", "[x]"), ("m.logsumexp((0, 1))", "[m]"),
    ("m.logsumexp(1, keepdim=True) * m", "[m]"), ("x.logsumexp(0) * x", "[x]"),
    ("F.leaky_relu(x) ** 2", "[x]"), ("F.leaky_relu(x, 0.3) * x", "[x]"), ("F.leaky_relu(m)", "[m]"),
    ("F.gelu(x)", "[x]"), ("F.gelu(m) * m", "[m]"), ("F.gelu(x, approximate='tanh')", "[x]"),
    ("F.gelu(m / 2, approximate='tanh') ** 2", "[m]"), ("F.silu(x)", "[x]"), ("F.silu(m) * m", "[m]"),
    ("F.softplus(x)", "[x]"), ("F.softplus(m, 2, 1)", "[m]"), ("F.softplus(x, 0.5) * x", "[x]"),
    ("F.elu(x)", "[x]"), ("F.elu(x, 0.5) ** 2", "[x]"), ("F.elu(m, 2.) * m", "[m]"),
    ("F.gelu(x.double()) * x", "[x]"), ("F.elu(x * 1, inplace=True)", "[x]"),
    ("F.elu(x * 1, 0.5, inplace=True) ** 2", "[x]"), ("F.leaky_relu(x * 1, 0.2, inplace=True) ** 2", "[x]"),
    ("F.silu(x * 1, inplace=True)", "[x]"), ("F.gelu(m @ m).logsumexp(0)", "[m]"),
]


@pytest.mark.parametrize("expr,inputs", HIGHER_EXPRS)
def test_higher_order(conform, expr, inputs):
    conform(HIGHER.format(expr=expr, inputs=inputs))


CASES = {
    "api-surface": """
        names = ("flip", "repeat", "gather", "amax", "amin", "logsumexp", "relu", "relu_", "leaky_relu", "leaky_relu_",
                 "gelu", "silu", "softplus", "elu", "elu_")
        for where in (torch.Tensor, torch, torch.nn.functional):
            print([n for n in names if hasattr(where, n)])
        print([n for n in ("LeakyReLU", "GELU", "SiLU", "Softplus", "ELU") if hasattr(torch.nn, n)])
    """,
    "module-reprs": """
        nn = torch.nn
        print(nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.LeakyReLU(negative_slope=1), nn.GELU(),
              nn.GELU('tanh'), nn.GELU(approximate='foo'), nn.SiLU(), nn.SiLU(inplace=True), nn.Softplus(),
              nn.Softplus(2, 5), nn.Softplus(beta=0.5), nn.ELU(), nn.ELU(0.5, True), nn.ELU(alpha=2))
        print(nn.Sequential(nn.Linear(2, 3), nn.GELU(), nn.Linear(3, 3), nn.SiLU(), nn.Linear(3, 1), nn.ELU()))
        print(nn.Softplus(beta=2).beta, nn.Softplus().threshold, nn.LeakyReLU().negative_slope, nn.ELU().alpha,
              nn.GELU().approximate, nn.LeakyReLU().inplace, nn.SiLU().inplace, nn.ELU(inplace=True).inplace)
        print(list(nn.GELU().parameters()), len(nn.Sequential(nn.LeakyReLU(), nn.ELU()).state_dict()))
        with expect(): nn.GELU(approximate='foo')(torch.ones(2))
    """,
    "inplace-activations": """
        F = torch.nn.functional
        x = torch.tensor([[1., -2., 3.], [0.5, 4., -1.]], requires_grad=True)
        for e in ["F.elu(y, inplace=True)", "F.elu(y, 0.5, inplace=True)", "F.elu(y, 0., inplace=True)",
                  "F.leaky_relu(y, 0.5, inplace=True)", "F.leaky_relu(y, 0., inplace=True)", "F.silu(y, inplace=True)",
                  "torch.nn.ELU(inplace=True)(y)", "torch.nn.LeakyReLU(inplace=True)(y)",
                  "torch.nn.SiLU(inplace=True)(y)", "F.elu_(y)", "F.leaky_relu_(y, 0.1)", "F.relu_(y)",
                  "F.elu(y, -1., inplace=True)", "F.leaky_relu(y, -1., inplace=True)"]:
            y = x * 1
            z = eval(e)
            print(e, z is y, z.grad_fn.name(), y._version, z)
            print("  ", [a for a in dir(z.grad_fn) if a.startswith("_saved_")])
            graph(z)
            with expect():
                z.sum().backward()
            print("  grad", x.grad)
            x.grad = None
        with expect(): F.leaky_relu(x, 0.2, True)
        with expect(): F.elu(x, inplace=True)
        with expect(): F.silu(x, True)
        with expect(): x.relu_()
        y = x * 1
        z = torch.relu_(y)
        print(z is y, z, y._version)
        z.sum().backward()
        print(x.grad)
        with torch.no_grad():
            w = torch.tensor([-1., 2.])
            print(F.elu(w, inplace=True), w, w._version, F.leaky_relu_(w), F.silu(w, inplace=True))
    """,
    "dtypes": """
        F = torch.nn.functional
        i = torch.tensor([[3, -1, 2], [0, 5, 5]])
        for e in ["i.flip(0)", "i.repeat(2, 1)", "i.gather(1, torch.tensor([[2], [0]]))", "i.amax(1)", "i.amin()",
                  "torch.logsumexp(i, 1)", "torch.tensor([True, False]).flip(0)", "torch.tensor([True, False]).amax()",
                  "torch.tensor([True, False]).amin()", "torch.tensor([True, False]).repeat(2)",
                  "torch.logsumexp(torch.tensor([True, False]), 0)", "torch.logsumexp(i.int(), 0)",
                  "torch.logsumexp(torch.tensor([1, 2], dtype=torch.uint8), 0)", "F.relu(i)", "torch.relu(i)",
                  "abs(i)", "torch.abs(i)"]:
            r = eval(e)
            print(e, r, r.dtype)
            val(r.double())
        d = torch.tensor([[1., -2.], [0.25, 3.]], dtype=torch.float64, requires_grad=True)
        for e in ["d.flip(1)", "d.repeat(1, 2)", "d.gather(0, torch.tensor([[1, 0]]))", "d.amax(0)", "d.logsumexp(1)",
                  "F.leaky_relu(d, 0.3)", "F.gelu(d)", "F.gelu(d, approximate='tanh')", "F.silu(d)", "F.softplus(d, 2)",
                  "F.elu(d, 0.7)"]:
            r = eval(e)
            print(e, r)
            val(r)
            r.sum().backward()
            val(d.grad)
            d.grad = None
    """,
    "special-values": """
        F = torch.nn.functional
        inf, nan = float("inf"), float("nan")
        for e in ["torch.logsumexp(torch.tensor([inf, 1.]), 0)", "torch.logsumexp(torch.tensor([-inf, -inf]), 0)",
                  "torch.logsumexp(torch.tensor([inf, -inf]), 0)", "torch.logsumexp(torch.tensor([1., nan]), 0)",
                  "torch.logsumexp(torch.tensor([1000., 1000.]), 0)", "torch.logsumexp(torch.tensor([-1000., -1000.]), 0)",
                  "torch.logsumexp(torch.ones(0), 0)", "torch.logsumexp(torch.ones(2, 0), 1)",
                  "torch.logsumexp(torch.ones(2, 0), 0)", "torch.amax(torch.tensor([1., nan, 2.]), 0)",
                  "torch.ones(2, 0).amax(0)", "torch.ones(0, 3).amin(1)", "torch.ones(2, 0).flip(1)",
                  "torch.ones(2, 0).repeat(2, 3)", "torch.ones(2, 3)[:, :0].gather(1, torch.zeros(2, 0, dtype=torch.long))",
                  "F.softplus(torch.tensor([-3., 0., 5.]), 0)", "F.softplus(torch.tensor([-3., 0., 5.]), -1)",
                  "F.softplus(torch.tensor([-3., 0., 5.]), 0.5, -1)", "F.softplus(torch.tensor([100., -100.]))",
                  "F.gelu(torch.tensor([-10., 10., 0.]), approximate='tanh')",
                  "F.silu(torch.tensor([-100., 100., 0.]))", "F.elu(torch.tensor([-100., 100., 0.]))",
                  "F.elu(torch.tensor([-1., 2.]), 0)", "F.leaky_relu(torch.tensor([-1., 2.]), -1)",
                  "F.leaky_relu(torch.tensor([nan, -inf, inf]))", "F.elu(torch.tensor([nan, -inf, inf]))",
                  "F.gelu(torch.tensor([nan, -inf, inf]))", "F.gelu(torch.tensor([nan, -inf, inf]), approximate='tanh')",
                  "F.gelu(torch.tensor(-10.))", "F.gelu(torch.tensor([-10.], dtype=torch.float64))",
                  "F.silu(torch.tensor([nan, -inf, inf]))",
                  "F.softplus(torch.tensor([nan, -inf, inf]))"]:
            print(e, eval(e))
        for e in ["torch.tensor([1., 3., 3., 2.], requires_grad=True)", "torch.tensor([[2., 2.], [1., 5.]], requires_grad=True)"]:
            a = eval(e)
            for f in ["a.amax()", "a.amin()", "a.amax(-1)", "a.amin(0)", "a.logsumexp(0)"]:
                a.grad = None
                eval(f).sum().backward()
                print(e, f, a.grad)
        a = torch.tensor([1., nan, 2.], requires_grad=True)
        a.amax().backward(); print(a.grad)
        for f in ["F.leaky_relu(z)", "F.gelu(z)", "F.gelu(z, approximate='tanh')", "F.silu(z)", "F.softplus(z)",
                  "F.elu(z)", "z.logsumexp(0)", "z.amax()"]:
            z = torch.tensor([-inf, -1., inf], requires_grad=True)
            r = eval(f)
            r.backward(torch.ones(r.shape))  # not r.sum(): inf - inf
            print(f, z.grad)
        z = torch.tensor([0.], requires_grad=True)
        for f in ["F.leaky_relu(z, 0.2)", "F.elu(z, 0.5)", "F.gelu(z)", "F.silu(z)", "F.softplus(z)"]:
            z.grad = None
            eval(f).sum().backward()
            print(f, z.grad)
    """,
    "bool-index": """
        x = torch.tensor([[1., -2., 3.], [0.5, 4., -1.]], requires_grad=True)
        for e in ["x[True]", "x[False]", "x[True, 0]", "x[0, True]", "x[None, True]", "x[..., True]", "x[True, True]",
                  "x[True, [0, 1]]", "x[:, True]", "x[0, True, 1]", "x[True, 1:]", "x[torch.tensor(True)]",
                  "x[torch.tensor(False), 0]", "x[False, ..., True]", "x[True][0, 1]"]:
            y = eval(e)
            print(e, y, y.grad_fn._saved_indices if hasattr(y.grad_fn, "_saved_indices") else None)
            graph(y)
            x.grad = None
            (y * 2).sum().backward()
            print(x.grad)
        s = torch.tensor(2., requires_grad=True)
        print(s[True], s[False], s[True, True], s[None, False], s[..., True])
        i = torch.tensor([1, 2, 3])
        print(i[True], i[False], i[True, 1], i[True, [0, 2]], i[[True, False, True]], i[torch.tensor(True)])
        with expect(): i[True, 3]
        with expect(): i[True, 0, 0]
    """,
    "version-and-second-backward": """
        F = torch.nn.functional
        x = torch.tensor([[1., -2., 3.], [0.5, 4., -1.]], requires_grad=True)
        for e in ["F.leaky_relu(y, 0.1)", "F.gelu(y)", "F.silu(y)", "F.softplus(y)", "F.elu(y)", "y.amax(1)",
                  "y.logsumexp(0)", "y.gather(1, torch.tensor([[0], [1]]))", "y.flip(0) * y", "y.repeat(2, 1)"]:
            y = x * 1
            z = eval(e)
            y.add_(1)
            with expect():
                z.sum().backward()
            x.grad = None
        idx = torch.tensor([[0], [1]])
        z = x.gather(1, idx)
        idx.add_(1)
        with expect():
            z.sum().backward()
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_programs(conform, name):
    conform(CASES[name])


# One statement per line; each runs under expect(), so the transcript lists every type and message.
STATEMENTS = """
torch.flip(torch.ones(2, 3), 2)
torch.flip(torch.ones(2, 3), [0, 0])
torch.flip(torch.ones(2, 3), (-3,))
torch.ones(2, 3).flip()
torch.ones(2, 3).flip([0], [1])
torch.flip(torch.ones(2, 3))
torch.tensor(2.).flip(1)
torch.ones(2, 3).repeat(2)
torch.ones(2, 3).repeat()
torch.ones(2, 3).repeat(-1, 1)
torch.ones(2).repeat(-1, -2)
torch.ones(2, 3).repeat(2.0, 1)
torch.ones(2, 3).gather(1, torch.tensor([[0]]).float())
torch.ones(2, 3).gather(1, torch.tensor([[0]], dtype=torch.int16))
torch.ones(2, 3).gather(1, torch.tensor([[True]]))
torch.ones(2, 3).gather(2, torch.tensor([[0]]))
torch.ones(2, 3).gather(-3, torch.tensor([[0]]))
torch.ones(2, 3).gather(1, torch.tensor([[0, 3]]))
torch.ones(2, 3).gather(1, torch.tensor([[0, -1]]))
torch.ones(2, 3).gather(1, torch.tensor([[0, 3], [5, 0]]))
torch.ones(2, 3).gather(1, torch.tensor([0, 1]))
torch.ones(2, 3).gather(1, torch.tensor([[0, 1], [0, 1], [0, 1]]))
torch.ones(2, 3).gather(0, torch.tensor([[0, 1, 1, 0]]))
torch.ones(2, 3).gather(1, torch.tensor(0))
torch.ones(2).gather(0, torch.tensor([[0]]))
torch.ones(2, 3).gather(1.0, torch.tensor([[0]]))
torch.ones(2, 3).gather(1, [[0]])
torch.ones(2, 3).gather(1, 0)
torch.ones(2, 3).gather(1)
torch.ones(2, 3).amax(2)
torch.ones(2, 3).amax((0, 0))
torch.ones(2, 3).amin(-3)
torch.tensor(3.).amax(1)
torch.ones(0).amax()
torch.ones(0).amin(())
torch.ones(2, 0).amax(1)
torch.ones(2, 0).amin(-1)
torch.logsumexp(torch.ones(2, 3))
torch.logsumexp(torch.ones(2, 3), 2)
torch.logsumexp(torch.ones(2, 3), (0, 0))
torch.logsumexp(torch.ones(2, 3), ())
torch.logsumexp(torch.ones(2, 3, 4), [])
torch.logsumexp(torch.ones(3), ())
torch.nn.functional.leaky_relu(torch.tensor([1, -2]))
torch.nn.functional.leaky_relu(torch.tensor([True]))
torch.nn.functional.gelu(torch.tensor([1, -2]))
torch.nn.functional.gelu(torch.tensor([True]))
torch.nn.functional.gelu(torch.ones(2), approximate='foo')
torch.nn.functional.gelu(torch.ones(2), 'tanh')
torch.nn.functional.gelu(torch.ones(2), approximate=None)
torch.nn.functional.silu(torch.tensor([1, -2]))
torch.nn.functional.silu(torch.tensor([True]))
torch.nn.functional.softplus(torch.tensor([1, -2]))
torch.nn.functional.softplus(torch.tensor([1, -2], dtype=torch.int32))
torch.nn.functional.elu(torch.tensor([1, -2]))
torch.nn.functional.elu(torch.tensor([1, -2], dtype=torch.uint8))
torch.nn.functional.elu(torch.tensor([True]))
torch.relu(torch.tensor([True, False]))
torch.tensor([True, False]).relu()
torch.nn.functional.relu(torch.tensor([True, False]))
torch.nn.ReLU()(torch.tensor([True, False]))
torch.abs(torch.tensor([True, False]))
abs(torch.tensor([True, False]))
torch.tensor([True, False]).abs()
"""


@pytest.mark.parametrize("statement", [s for s in STATEMENTS.strip().splitlines()])
def test_error(conform, statement):
    conform(f"with expect():\n    r = {statement}\n    print(repr(r))\n")
