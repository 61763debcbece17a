"""torch.einsum (and the diagonal it takes for a repeated label) in torch and autograd_tutor: values, gradients,
the whole recorded graph (torch has no einsum node: permutes, unsqueezes, diagonals, sums, bmm and views) and the
errors for equations that do not fit their operands."""
import pytest

torch = pytest.importorskip("torch")

# (equation, operand shapes): each run with every operand requiring grad, then with only the first
EQUATIONS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("i,i->", [(3,), (3,)]), ("ij->ji", [(2, 3)]), ("ii->i", [(3, 3)]),
    ("ii->", [(3, 3)]), ("ii", [(3, 3)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]), ("i,j->ij", [(2,), (3,)]),
    ("...ij,...jk->...ik", [(5, 2, 3), (5, 3, 4)]), ("ij->", [(2, 3)]), ("ij->j", [(2, 3)]), ("ij->i", [(2, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("ij,jk->ki", [(2, 3), (3, 4)]), ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]), ("ij", [(2, 3)]), ("ji", [(2, 3)]), ("ij->ij", [(2, 3)]), ("i,i->i", [(3,), (3,)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]), ("ij,ij->", [(2, 3), (2, 3)]), ("ij,j->i", [(2, 3), (3,)]),
    ("i,ij->j", [(2,), (2, 3)]), ("iij->j", [(2, 2, 3)]), ("i->", [(3,)]), ("ij,kl->ijkl", [(2, 3), (2, 2)]),
    ("bi,bi->b", [(2, 3), (2, 3)]), ("ij,ij->i", [(2, 3), (2, 3)]), ("i,j->", [(2,), (3,)]), ("i,j->i", [(2,), (3,)]),
    ("ij,jk->i", [(2, 3), (3, 4)]), ("ijk,jil->kl", [(2, 3, 4), (3, 2, 5)]), ("...i,...i->...", [(2, 3), (1, 3)]),
    ("ij,jk->ik", [(2, 1), (3, 4)]), ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ("ab,cd,bd->ac", [(2, 3), (4, 5), (3, 5)]), ("iji->j", [(2, 3, 2)]), ("ijij->ij", [(2, 3, 2, 3)]),
    (",->", [(), ()]), ("i,->i", [(3,), ()]), ("->", [()]), ("", [()]), ("...", [(2, 3)]), ("i...->...", [(2, 3, 4)]),
    ("...j,...j", [(2, 3), (2, 3)]), ("iJ,Jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk,kl,lm->im", [(2, 3), (3, 4), (4, 2), (2, 2)]),
    ("i,i,i->", [(3,), (3,), (3,)]), ("ij,ji->", [(2, 3), (3, 2)]), ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ii,i->i", [(3, 3), (3,)]), ("ij,jk->ik", [(2, 0), (0, 4)]), ("k...,...k->...", [(3, 2, 1), (2, 4, 3)]),
    (" i j , j k -> k i ", [(2, 3), (3, 4)]), ("bij,bkj->bik", [(1, 2, 3), (4, 5, 3)]), ("ab,b->a", [(1, 3), (3,)]),
    ("nchw,c->nhw", [(2, 3, 2, 2), (3,)]), ("i,j,k->ijk", [(2,), (3,), (2,)]), ("ij,kj->ikj", [(2, 3), (4, 3)]),
    # size-1 dims: whether a product is contiguous (torch's elementwise layout) decides view or _reshape_alias
    ("...ccB,...cdd->d", [(2, 2, 1), (2, 2, 3, 3)]), ("ccB,...BB,...aBc->aBc", [(2, 2, 1), (2, 2, 2), (2, 1, 1, 2)]),
    ("ab,c->bc", [(1, 2), (3,)]), (",d,Bca->Bacd", [(), (3,), (2, 1, 3)]), ("dc,e,a->cae", [(1, 3), (3,), (3,)]),
    ("B,bd->dBb", [(3,), (1, 2)]), ("abb,dce->ceab", [(3, 2, 2), (3, 3, 1)]), ("a,ebe->ba", [(3,), (2, 3, 2)]),
    ("aac,edB,a->dBa", [(1, 1, 2), (1, 1, 2), (3,)]), ("cb,Bda->daBb", [(1, 3), (1, 3, 1)]),
]

PROGRAM = """
shapes = {shapes!r}
for needs in ([True] * len(shapes), [True] + [False] * (len(shapes) - 1)):
    ops = [(torch.arange(float(torch.Size(s).numel())).reshape(s) * 0.3 - 0.5 + k).requires_grad_(r)
           for k, (s, r) in enumerate(zip(shapes, needs))]
    out = torch.einsum({equation!r}, *ops)
    print(out, out.shape, out.is_contiguous())
    graph(out)
    weights = torch.arange(float(out.numel())).reshape(out.shape) - 1
    (out * weights).sum().backward()
    val(out, *[t.grad for t in ops if t.grad is not None])
"""


@pytest.mark.parametrize("equation,shapes", EQUATIONS, ids=[f"{e}|{len(s)}" for e, s in EQUATIONS])
def test_einsum_values_grads_graph(conform, equation, shapes):
    conform(PROGRAM.format(equation=equation, shapes=shapes))


ERRORS = [
    'torch.einsum("ij")', "torch.einsum()", 'torch.einsum("ij,jk->ik", a)', 'torch.einsum("ij->ij", a, b)',
    'torch.einsum("ijk,jk->ik", a, b)', 'torch.einsum("i,jk->ik", a, b)', 'torch.einsum("...ijk->ij", a)',
    'torch.einsum("i1,jk->ik", a, b)', 'torch.einsum("ij,jk->i1", a, b)', 'torch.einsum("i_", a)',
    'torch.einsum("ij,jk->ik", a, torch.ones(4, 4))', 'torch.einsum("i,i->", v, torch.ones(4))',
    'torch.einsum("ij->ii", a)', 'torch.einsum("ij->k", a)', 'torch.einsum("ii->i", a)', 'torch.einsum("..ij->ij", a)',
    'torch.einsum("i.j->ij", a)', 'torch.einsum("......->", a)', 'torch.einsum("...->..", a)',
    'torch.einsum("...->......", a)', 'torch.einsum("...i,...i->...", torch.ones(2, 3), torch.ones(4, 3))',
    'torch.einsum("i,i", v, [1., 2., 3.])', 'torch.einsum("i", 3.0)', "torch.einsum(3, a)",
    'torch.einsum("ij->j->i", a)', 'torch.einsum("ij-j", a)', 'torch.einsum("ij>j", a)', "torch.einsum(a, [0, 60])",
    'torch.einsum("i", [])', 'torch.einsum("ij,jk->ik", a, b.double())', 'torch.einsum("i,j,->", v, v)',
    'torch.einsum("i,i->", torch.tensor([True, False]), torch.tensor([True, True]))', 'torch.einsum("ij,j->i,", a, v)',
    'torch.einsum("ijj->i", torch.ones(2, 3, 4))',
]


@pytest.mark.parametrize("stmt", ERRORS)
def test_einsum_errors(conform, stmt):
    conform(f"""
        a, b, v = torch.ones(2, 3, requires_grad=True), torch.ones(3, 4), torch.ones(3)
        with expect():
            print({stmt})
    """)


FORMS = {
    "operands-as-a-list-or-tuple": """
        a, b = torch.arange(6.).reshape(2, 3).requires_grad_(), torch.arange(12.).reshape(3, 4)
        for out in (torch.einsum("ij,jk->ik", [a, b]), torch.einsum("ij,jk->ik", (a, b)), torch.einsum("ij", [a])):
            print(out)
            graph(out)
    """,
    "sublist-format": """
        a, b = torch.arange(6.).reshape(2, 3).requires_grad_(), torch.arange(12.).reshape(3, 4).requires_grad_()
        for out in (torch.einsum(a, [0, 1], b, [1, 2], [0, 2]), torch.einsum(a, [..., 1], b, [1, 2]),
                    torch.einsum(a, [26, 27], [27, 26]), torch.einsum(a, [0, 0 + 30])):
            print(out)
            graph(out)
    """,
    "dtypes": """
        a, b = torch.arange(6).reshape(2, 3), torch.arange(12).reshape(3, 4)
        print(torch.einsum("ij,jk->ik", a, b), torch.einsum("ij->", a), torch.einsum("i,j->ij", a[0], b[0].double()))
        print(torch.einsum("ij,jk->ik", a.double(), b.double()), torch.einsum("ii->i", b[:, :3].float()))
        with torch.no_grad():
            out = torch.einsum("ij,jk->ik", a.float().requires_grad_(), b.float())
        print(out, out.requires_grad, out.grad_fn)
    """,
    "strided-operands": """
        a = torch.arange(24.).reshape(4, 6).requires_grad_()
        for x, y in ((a.t()[:3], a[:2, :4].t()), (a[::2, ::3], a[1::2, :2].t()), (a.t(), a), (a[:, :3].t(), a[:3])):
            out = torch.einsum("ij,jk->ik", x, y)
            graph(out)
            out.sum().backward()
            val(out, a.grad)
            a.grad = None
    """,
    "second-derivatives": """
        a = torch.tensor([[1., 2.], [3., -4.]], requires_grad=True)
        b = torch.tensor([[0.5, -1.], [2., 0.25]], requires_grad=True)
        for eq in ("ij,jk->ik", "ii->", "ij,ij->", "i,j->ij", "ij->j"):
            ops = (a, b) if "," in eq else (a,)
            out = torch.einsum(eq, *[t[0] if "i,j" in eq else t for t in ops])
            g = torch.autograd.grad((out ** 2).sum(), a, create_graph=True)[0]
            graph(g)
            g.sum().backward()
            val(g, a.grad)
            a.grad = None
    """,
    "elementwise-layout": """
        a, b = torch.arange(6.).reshape(2, 3), torch.arange(6.).reshape(3, 2)
        col, row = torch.arange(3.).reshape(3, 1), torch.arange(2.).reshape(1, 2)
        for r in (a.t() * b, b * a.t(), a.t() + b, a.t() - b, a.t() / (b + 1), a.t() * 2, a.t() * row, col * a.t(),
                  a.unsqueeze(2).permute(2, 1, 0) * torch.ones(1, 3, 1), a.t().unsqueeze(0) * torch.ones(4, 1, 1),
                  a.t()[:, :1] * row, torch.tensor(2.).reshape(1, 1, 1) * a.t().unsqueeze(0), col * row):
            print(tuple(r.shape), r.stride(), r.is_contiguous())
            with expect():
                r.view(-1)
    """,
    "diagonal": """
        x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
        for d in (x.diagonal(), torch.diagonal(x, 1, 0, 2), x.diagonal(-1, 2, 1), x.diagonal(dim1=-1, dim2=0),
                  x.diagonal(5), x[0].diagonal(), torch.diagonal(x[0], -1)):
            print(d, d.grad_fn._saved_offset, d.grad_fn._saved_self_sym_sizes, d._base is x)
            (d * 2).sum().backward()
            val(d, x.grad)
            x.grad = None
        g = torch.autograd.grad((x.diagonal(1, 0, 2) ** 2).sum(), x, create_graph=True)[0]
        graph(g)
        print(g.grad_fn._saved_dim1, g.grad_fn._saved_dim2, g.grad_fn._saved_offset)
        z = torch.zeros(3, 3)
        z.diagonal().fill_(1.)
        z.diagonal(1).add_(2.)
        print(z)
        for stmt in ("x.diagonal(0, 0, 0)", "x.diagonal(0, 0, 3)", "torch.tensor(1.).diagonal()",
                     "torch.ones(3).diagonal()", "x.diagonal(0, 0, -3)"):
            with expect():
                eval(stmt)
    """,
}


@pytest.mark.parametrize("name", FORMS)
def test_einsum_forms(conform, name):
    conform(FORMS[name])
