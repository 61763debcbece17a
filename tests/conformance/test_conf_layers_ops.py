"""vstack, hstack, atleast_1d/2d, tensor_split, atan2, cumprod, index_select, masked_select, repeat_interleave,
roll, tile, movedim, median, bernoulli, the in-place activations, F.layer_norm / nn.LayerNorm and
F.embedding / nn.Embedding, run in torch and autograd_tutor: values, gradients, grad_fn names, graphs, what
the nodes save, printed forms, seeds and errors."""
import pytest

from test_conf_more_ops import HIGHER
from test_conf_ops import PROGRAM
from test_conf_saved import _program as saved_program

torch = pytest.importorskip("torch")

F = "torch.nn.functional."

OPS = [
    # vstack / hstack / atleast_*d: cat over unsqueeze or view, as torch records them
    "torch.vstack([x, w])", "torch.vstack([m, v])", "torch.vstack([m, m])", "torch.vstack((s, s))",
    "torch.vstack([v, k.repeat(2)[:3]])", "torch.hstack([x, w])", "torch.hstack([m, b])", "torch.hstack([s, x])",
    "torch.hstack([s, s])", "torch.hstack((t3, t3))", "torch.atleast_2d(v)", "torch.atleast_1d(s)",
    "torch.atleast_2d(s)", "torch.vstack([x, k])", "torch.hstack([m, m.double()])",
    # atan2
    "torch.atan2(x, w)", "m.atan2(v)", "torch.atan2(m, b)", "x.arctan2(s)", "torch.atan2(k, x)", "torch.atan2(x, k)",
    "m.atan2(m.double())", "torch.arctan2(-m, m + 1)",
    # cumprod (m has a zero; m + 2 too)
    "v.cumprod(0)", "m.cumprod(1)", "m.cumprod(0)", "m.cumprod(-1)", "s.cumprod(0)", "torch.cumprod(t3, 2)",
    "m.cumprod(1, dtype=torch.float64)", "(m + 2).cumprod(1)", "torch.cat([v, x]).cumprod(0)", "(m * 0).cumprod(0)",
    # index_select
    "m.index_select(1, torch.tensor([0, 2, 0]))", "torch.index_select(m, 0, torch.tensor([1]))",
    "v.index_select(0, torch.tensor(2))", "s.index_select(0, torch.tensor([0]))",
    "t3.index_select(-1, torch.tensor([2, 2], dtype=torch.int32))", "m.index_select(0, torch.tensor([1, 0, 1, 1]))",
    # masked_select
    "m.masked_select(m > 0)", "torch.masked_select(m, torch.tensor([True, False, True]))", "v.masked_select(m > 0)",
    "b.masked_select(m < 1)", "s.masked_select(torch.tensor([True, True]))",
    # repeat_interleave
    "x.repeat_interleave(2)", "m.repeat_interleave(2, dim=0)", "m.repeat_interleave(3, 1)", "m.repeat_interleave(2)",
    "s.repeat_interleave(3)", "m.repeat_interleave(torch.tensor([1, 2]), dim=0)",
    "v.repeat_interleave(torch.tensor([2, 0, 1]))", "m.repeat_interleave(torch.tensor([2]), dim=1)",
    "torch.repeat_interleave(v, 2)", "t3.repeat_interleave(2, dim=-1)", "m.repeat_interleave(1, 0)",
    # roll
    "x.roll(1)", "m.roll(1, 1)", "m.roll((1, 1), (0, 1))", "m.roll(-1)", "torch.roll(t3, shifts=(1, -1), dims=(2, 0))",
    "m.roll(4, 0)", "torch.roll(m, 7)", "v.roll(-1, -1)",
    # tile
    "x.tile((2,))", "m.tile((2,))", "x.tile((2, 2))", "m.tile(1, 1)", "torch.tile(m, (2, 1, 1))", "s.tile(3)",
    "m.tile([2, 1])",
    # movedim
    "m.movedim(0, 1)", "t3.movedim(0, -1)", "t3.movedim((0, 1), (2, 0))", "torch.movedim(m, -1, 0)",
    "torch.moveaxis(t3, 2, 0)", "x.movedim(0, 0)", "t3.moveaxis([0], [1])",
    # median: ties share the gradient (whole tensor), or one index gets it (along a dim)
    "v.median()", "m.median()", "x.median()", "s.median()", "torch.median(m)", "torch.cat([v, v]).median()",
    "m.median(1).values", "m.median(0, keepdim=True)[0]", "torch.median(t3, -1).values",
    "torch.cat([v, v, v * 0 + 2]).median(0).values", "s.median(0).values", "torch.median(t3, dim=0).values",
    # in-place activations
    "m.clone().sigmoid_()", "x.clone().tanh_()", "torch.sigmoid_(m * 1)", "x.clone().sqrt_()", "x.clone().rsqrt_()",
    "x.clone().reciprocal_()", "x.clone().log_()", "m.clone().abs_()", "m.clone().sin_()", "m.clone().cos_()",
    "m.clone().square_()", "x.clone().atan2_(w)", "torch.tanh_(x * 2)", "torch.exp_(x * 1)", "torch.abs_(m.clone())",
    # layer_norm
    F + "layer_norm(m, (3,))", F + "layer_norm(m, (3,), v, v)", F + "layer_norm(m, [3], v)",
    F + "layer_norm(m, (3,), None, v)", F + "layer_norm(t3.sin(), (2, 3))", F + "layer_norm(m, (3,), eps=0.5)",
    "torch.nn.LayerNorm(3)(m)", "torch.nn.LayerNorm([2, 3], elementwise_affine=False)(t3.cos())",
    F + "layer_norm(m.double(), (3,))", F + "layer_norm(x, (2,), w, x)", F + "layer_norm(b, (1,))",
    F + "layer_norm(t3.exp(), torch.Size([3]), v * 2, v.detach())", F + "layer_norm(m.T @ m, (3,))",
    # embedding
    F + "embedding(torch.tensor([1, 0, 1]), m)", F + "embedding(torch.tensor([[0, 1], [1, 1]]), m, padding_idx=1)",
    F + "embedding(torch.tensor(1), m)", F + "embedding(torch.tensor([0, 0, 1]), m, scale_grad_by_freq=True)",
    F + "embedding(torch.tensor([1, 1], dtype=torch.int32), b)", F + "embedding(torch.tensor([0, 1]), m, padding_idx=-1)",
    F + "embedding(torch.tensor([[1], [0]]), m * 2)",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


@pytest.mark.parametrize("expr", OPS)
def test_saved_tensors(conform, expr):
    conform(saved_program(expr))


SAVED_VALUES = """
F = torch.nn.functional
x = torch.tensor([[1., -2., 3.], [0.5, 4., -1.]], requires_grad=True)
for e in ["torch.atan2(x, x)", "x.cumprod(1)", "x.cumprod(-1)", "x.index_select(-1, torch.tensor([1]))",
          "x.index_select(0, torch.tensor([1, 1]))", "x.masked_select(x > 0)", "x.roll(-1, -1)", "x.roll(2)",
          "x.roll((1, 2), (0, 1))", "x.tile(2)", "x.movedim(0, -1)", "F.layer_norm(x, (3,))",
          "F.layer_norm(x, [2, 3], x.detach())", "F.embedding(torch.tensor([1, 0]), x)",
          "F.embedding(torch.tensor([1]), x, padding_idx=1, scale_grad_by_freq=True)",
          "F.embedding(torch.tensor([1]), x, padding_idx=-2)", "x.median()", "x.clone().sigmoid_()"]:
    n = eval(e).grad_fn
    names = [a for a in dir(n) if a.startswith("_saved_")]
    print(e, n.name(), [(a, getattr(n, a)) for a in names if not isinstance(getattr(n, a), torch.Tensor)])
    print("  tensors", [(a, getattr(n, a)) for a in names if isinstance(getattr(n, a), torch.Tensor)])
"""


def test_saved_values(conform):
    """The non-tensor ``_saved_*`` values (dims as unsigned, shifts, normalized_shape, padding_idx...) and the
    tensors each node keeps (layer_norm's mean and 1/std as result1 and result2)."""
    conform(SAVED_VALUES)


HIGHER_EXPRS = [
    ("torch.atan2(x, x.flip(0)) ** 2", "[x]"), ("torch.atan2(m, m.T) * m", "[m]"), ("x.roll(1) * x", "[x]"),
    ("m.roll((1, 1), (0, 1)) ** 3", "[m]"), ("m.median(1).values ** 2", "[m]"), ("torch.vstack([x, x ** 2]) ** 2", "[x]"), ("torch.hstack([m, m]) ** 3", "[m]"),
    ("x.tile((2,)) ** 3", "[x]"), ("m.movedim(0, 1) * m.T", "[m]"), ("x.repeat_interleave(2) ** 3", "[x]"),
    ("torch.cat(x.tensor_split(3)) ** 3", "[x]"), ("x.clone().sigmoid_() * x", "[x]"), ("x.clone().tanh_() ** 2", "[x]"),
]


@pytest.mark.parametrize("expr,inputs", HIGHER_EXPRS)
def test_higher_order(conform, expr, inputs):
    conform(HIGHER.format(expr=expr, inputs=inputs))


CASES = {
    "api-surface": """
        names = ("vstack", "hstack", "atleast_1d", "atleast_2d", "tensor_split", "atan2", "arctan2", "cumprod",
                 "index_select", "masked_select", "repeat_interleave", "roll", "tile", "movedim", "moveaxis",
                 "median", "bernoulli", "sigmoid_", "tanh_", "sqrt_", "rsqrt_", "log_", "abs_", "sin_", "cos_",
                 "reciprocal_", "square_", "atan2_", "arctan2_")
        print([n for n in names if hasattr(torch.Tensor, n)])
        print([n for n in names if hasattr(torch, n)])
        print([n for n in ("layer_norm", "embedding") if hasattr(torch.nn.functional, n)])
        print([n for n in ("LayerNorm", "Embedding") if hasattr(torch.nn, n)])
    """,
    "tensor-split": """
        m = torch.tensor([[1., -2., 3.], [4., 0., -6.]], requires_grad=True)
        for e in ["torch.tensor_split(m, 2)", "m.tensor_split(2, dim=1)", "m.tensor_split([1, 2], 1)",
                  "m.tensor_split((3, 1), 1)", "m.tensor_split(torch.tensor([1, 2]), 1)", "m.tensor_split(4, 1)",
                  "m.tensor_split(torch.tensor(2), 1)", "m.tensor_split(indices=[1], dim=1)",
                  "m.tensor_split(sections=3, dim=-1)", "m.tensor_split([-1], 1)", "m.tensor_split([])",
                  "torch.tensor_split(m, [0, 5], dim=1)"]:
            pieces = eval(e)
            print(e, len(pieces))
            for p in pieces:
                print(p, p.grad_fn.name(), p.output_nr, p._base is m, p._version)
                graph(p)
            sum((p * (i + 1)).sum() for i, p in enumerate(pieces)).backward()
            print(m.grad)
            m.grad = None
        for e in ["m.tensor_split(0)", "m.tensor_split(-2)", "m.tensor_split(2, 5)", "m.tensor_split((1.5,))",
                  "m.tensor_split(torch.tensor([[1]]), 1)", "torch.tensor(1.).tensor_split(1)",
                  "m.tensor_split(torch.tensor([1.]))"]:
            with expect(): eval(e)
    """,
    "median": """
        m = torch.tensor([[1., -2., 3., 3.], [4., 0., -6., 0.], [2., 2., 2., 2.]], requires_grad=True)
        for e in ["m.median()", "m.median(1)", "m.median(0)", "m.median(dim=1, keepdim=True)", "torch.median(m, -1)",
                  "m[:, :3].median(1)", "torch.tensor([[5., 1., 5., 1.], [2., 1., 1., 2.]]).median(1)",
                  "torch.tensor([3., float('nan'), 1., float('nan')]).median()",
                  "torch.tensor([3., float('nan'), 1., float('nan')]).median(0)", "torch.tensor([]).median()",
                  "torch.tensor(2.).median(0)", "torch.tensor(2.).median(-1, True)", "torch.tensor([1, 4, 2, 3]).median()",
                  "torch.tensor([[1, 4], [2, 2]]).median(dim=0)", "torch.zeros(0, 2).median(1)",
                  "torch.arange(20.).flip(0).reshape(4, 5).median(1)", "torch.tensor([True, False, True]).median()",
                  "torch.tensor([True, False]).median(0)", "m.median(True)"]:
            with expect():
                r = eval(e)
                print(e, r, type(r).__name__)
                if isinstance(r, tuple):
                    print(r.values, r.indices, r[0] is r.values, len(r))
        r = m.median(1)
        (r.values * torch.tensor([1., 2., 3.])).sum().backward()
        print(m.grad)
        m.grad = None
        m.median().backward()
        print(m.grad)
        with expect(): torch.zeros(2, 0).median(1)
        with expect(): m.median(2)
    """,
    "inplace-saved-result": """
        a = torch.tensor([0.5, 2., -1.], requires_grad=True)
        for name in ["sigmoid_", "tanh_", "sqrt_", "rsqrt_", "reciprocal_", "log_", "abs_", "sin_", "cos_", "square_"]:
            x = a.clone()
            y = getattr(x, name)()
            print(name, y is x, x.grad_fn.name(), x._version, x)
            x.mul_(2)
            with expect():
                x.sum().backward()
            print(a.grad)
            a.grad = None
        x = a.clone()
        x.sigmoid_()
        y = x * 3
        y.sum().backward()
        print(a.grad)
        with torch.no_grad():
            z = a.clone()
            print(z.sigmoid_(), z.tanh_(), z._version)
        with expect(): a.sigmoid_()
        with expect(): a.tanh_()
        with expect(): torch.tensor([1, 2]).sigmoid_()
    """,
    "bernoulli": """
        p = torch.tensor([[0.2, 0.9, 0.5], [0.0, 1.0, 0.7]], requires_grad=True)
        torch.manual_seed(0)
        print(p.bernoulli(), p.bernoulli(0.3), torch.bernoulli(p), torch.bernoulli(p, 0.5))
        print(p.double().bernoulli(), torch.tensor([0, 1, 2]).bernoulli(0.5), p.detach().bernoulli())
        g = torch.Generator().manual_seed(3)
        print(p.bernoulli(generator=g), torch.bernoulli(p.detach(), generator=g))
        y = p.bernoulli()
        print(type(y.grad_fn).__name__, y.grad_fn.name())
        y.sum().backward()
        print(p.grad)
        y = p.bernoulli(0.3)
        print(type(y.grad_fn).__name__, y.grad_fn.name(), y.grad_fn.next_functions[0][0].variable is p)
        with expect(): y.sum().backward()
        with torch.no_grad():
            print(p.bernoulli(0.5))
        with expect(): torch.tensor([2.]).bernoulli()
        with expect(): torch.tensor([0.5]).bernoulli(1.5)
        with expect(): torch.tensor([0.5]).bernoulli(-0.1)
        with expect(): torch.tensor([0, 1]).bernoulli()
    """,
    "errors": """
        F = torch.nn.functional
        m = torch.tensor([[1., -2., 3.], [4., 0., -6.]], requires_grad=True)
        x = torch.randn(2, 4, requires_grad=True)
        w = torch.ones(4, requires_grad=True)
        for e in ["torch.vstack(m)", "torch.hstack([])", "torch.vstack([])", "torch.vstack([m, torch.ones(2)])",
                  "torch.hstack([m, torch.ones(3)])", "torch.vstack([m, 1])", "torch.atleast_2d(torch.ones(3), torch.ones(2))",
                  "torch.atleast_1d([torch.ones(3)])", "torch.atan2(m, torch.tensor([1., 2.]))", "torch.atan2(m, 2.)",
                  "m.atan2(2.)", "m.cumprod(2)", "m.index_select(0, torch.tensor([2]))",
                  "m.index_select(0, torch.tensor([[0]]))", "m.index_select(0, torch.tensor([0.]))",
                  "m.index_select(0, [0])", "m.index_select(0, torch.tensor([-1]))",
                  "m.masked_select(torch.tensor([1, 0, 1]))", "m.masked_select(torch.tensor([True, False]))",
                  "m.repeat_interleave(torch.tensor([1, 2]))", "m.repeat_interleave(torch.tensor([1, 2, 3]), dim=0)",
                  "m.repeat_interleave(-1, 0)", "m.repeat_interleave(torch.tensor([1, -1]), 0)",
                  "m.repeat_interleave(torch.tensor([1., 2.]), 0)", "m.repeat_interleave(2, 2)",
                  "m.repeat_interleave(torch.tensor([[1, 2]]), dim=0)", "torch.repeat_interleave(torch.tensor([1, 2]))",
                  "m.roll((1, 2), (0,))", "m.roll(1, 5)", "m.roll([], [])", "m.roll(())", "m.roll((1, 2))",
                  "m.tile((-1,))", "m.tile(())", "m.movedim(0, 2)", "m.movedim((0,), (1, 0))",
                  "m.movedim((0, 0), (1, 0))", "m.movedim((0, 1), (1, 1))",
                  "F.layer_norm(x, (3,))", "F.layer_norm(x, 4)", "torch.nn.LayerNorm(3)(x)",
                  "F.layer_norm(x, (4,), torch.ones(3))", "F.layer_norm(x, (4,), w, torch.ones(3))",
                  "F.layer_norm(x, ())", "F.layer_norm(torch.tensor([1, 2]), (2,))", "F.layer_norm(x, (4,), w.double())",
                  "F.layer_norm(x, (2, 4))", "F.layer_norm(x, (3, 2, 4))", "F.layer_norm(x, [1, 4])"]:
            with expect(): eval(e)
        e = torch.nn.Embedding(10, 3)
        for s in ["e(torch.tensor([10]))", "e(torch.tensor([1.]))", "e(torch.tensor([-1]))",
                  "torch.nn.Embedding(5, 2, padding_idx=5)", "torch.nn.Embedding(5, 2, padding_idx=-6)",
                  "F.embedding(torch.tensor([1]), torch.ones(3))", "F.embedding(torch.tensor([1]), m, padding_idx=2)",
                  "torch.nn.Embedding.from_pretrained(torch.ones(3))",
                  "torch.nn.Embedding(3, 2, _weight=torch.ones(2, 2))"]:
            with expect(): print(eval(s))
    """,
    "layer-norm-module": """
        nn = torch.nn
        torch.manual_seed(0)
        ln = nn.LayerNorm(4)
        print(ln, ln.weight, ln.bias, nn.LayerNorm((2, 3), elementwise_affine=False), nn.LayerNorm([3], bias=False),
              nn.LayerNorm(3, eps=1e-3), nn.LayerNorm(torch.Size([2, 2])))
        print(list(nn.LayerNorm([3], bias=False).named_parameters()), nn.LayerNorm(3, elementwise_affine=False).weight)
        print(ln.normalized_shape, ln.eps, ln.elementwise_affine, list(ln.state_dict()), nn.LayerNorm(2, dtype=torch.float64).weight)
        x = torch.randn(2, 4, requires_grad=True)
        y = ln(x)
        print(y, y.grad_fn._saved_normalized_shape, y.grad_fn._saved_result1, y.grad_fn._saved_result2)
        print(y.grad_fn._saved_weight is ln.weight, y.grad_fn._saved_bias is ln.bias, y.grad_fn._saved_input is x)
        graph(y)
        (y * torch.arange(8.).reshape(2, 4)).sum().backward()
        print(x.grad, ln.weight.grad, ln.bias.grad)
        val(x.grad, ln.weight.grad, ln.bias.grad)
        model = nn.Sequential(nn.Linear(3, 8), nn.LayerNorm(8), nn.ReLU(), nn.Linear(8, 2))
        print(model)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        data, target = torch.randn(5, 3), torch.randn(5, 2)
        for step in range(4):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(data), target)
            loss.backward()
            opt.step()
            print(step, f"{loss.item():.5f}")
        val(*model.parameters())
    """,
    "embedding-module": """
        nn = torch.nn
        torch.manual_seed(0)
        e = nn.Embedding(10, 3)
        print(e, e.weight)
        print(nn.Embedding(5, 2, padding_idx=1), nn.Embedding(5, 2, padding_idx=-1).padding_idx, nn.Embedding(5, 2, padding_idx=1).weight)
        print(nn.Embedding(4, 2, max_norm=1.0), nn.Embedding(4, 2, norm_type=1.), nn.Embedding(4, 2, scale_grad_by_freq=True))
        print(e.num_embeddings, e.embedding_dim, e.padding_idx, e.max_norm, e.norm_type, e.scale_grad_by_freq, e.sparse)
        idx = torch.tensor([[1, 2], [1, 9]])
        y = e(idx)
        print(y, y.grad_fn.name(), [(n, getattr(y.grad_fn, n)) for n in dir(y.grad_fn) if n.startswith("_saved_")])
        graph(y)
        (y * torch.arange(12.).reshape(2, 2, 3)).sum().backward()
        print(e.weight.grad)
        p = nn.Embedding(4, 2, padding_idx=0)
        p(torch.tensor([0, 1, 0, 3])).sum().backward()
        print(p.weight.grad)
        f = nn.Embedding.from_pretrained(torch.tensor([[1., 2.3, 3.], [4., 5.1, 6.3]]))
        print(f, f.weight, f.weight.requires_grad, f(torch.tensor([1])))
        g = nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]), freeze=False, padding_idx=0)
        print(g, g.weight.requires_grad)
        r = nn.Embedding(4, 3, max_norm=1.0)
        out = r(torch.tensor([0, 2, 2]))
        print(out, r.weight, r.weight._version)
        out.sum().backward()
        print(r.weight.grad)
        model = nn.Sequential(nn.Embedding(6, 4), nn.Flatten(), nn.Linear(8, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        tokens, target = torch.tensor([[0, 5], [2, 2], [4, 1]]), torch.tensor([[1.], [0.], [-1.]])
        for step in range(4):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(tokens), target)
            loss.backward()
            opt.step()
            print(step, f"{loss.item():.5f}")
        val(*model.parameters())
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_case(conform, name):
    conform(CASES[name])
