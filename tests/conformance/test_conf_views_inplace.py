"""In-place operations on views of tensors that require grad (the base's graph rewritten: CopySlices, the views'
AsStridedBackward0, the shared version counter), indexing with a Python range, and a custom Function's backward
that returns trailing Nones (issue 14)."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "in-place-on-a-view-rewrites-the-base": """
        x = torch.ones(2, 3, requires_grad=True)
        y = x * 2
        v = y[0]
        print(v.grad_fn, v._version, y._version)
        r = v.mul_(3)
        print(r is v, v, y)
        print(y.grad_fn, y.grad_fn.name(), v.grad_fn, v._version, y._version, v._base is y, v.is_leaf)
        graph(y)
        graph(v)
        y.sum().backward()
        print(x.grad)
    """,
    "iadd-on-a-slice-and-on-an-element": """
        w = torch.zeros(4, requires_grad=True)
        z = w.clone()
        z[1:3] += torch.tensor([1.0, 2.0])
        print(z, z._version)
        graph(z)
        (z * z).sum().backward()
        print(w.grad)
        t = torch.tensor([3.0, 4.0], requires_grad=True)
        m = torch.ones(2, 2, requires_grad=True) * 1
        m[0, 1] += t[0]
        m[1] *= t
        print(m, m._version)
        graph(m)
        (m * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
        print(t.grad)
        q = torch.ones(4, requires_grad=True) * 1
        q[[0, 2]] += t
        q[torch.tensor([True, False, False, True])] *= 2
        q[1:][[0]] -= t[1]
        print(q, q._version, q.grad_fn)
        graph(q)
        q.sum().backward()
        print(t.grad)
    """,
    "a-base-without-grad-gets-it-from-the-view": """
        C = torch.randn(5, 3, generator=torch.Generator().manual_seed(0), requires_grad=True)
        Xb = torch.tensor([[1, 3], [3, 0], [4, 4]])
        emb = C[Xb] * 2
        dC = torch.zeros_like(C)
        print(dC.requires_grad, dC.is_leaf)
        for k in range(Xb.shape[0]):
            for j in range(Xb.shape[1]):
                ix = Xb[k, j]
                dC[ix] += emb[k, j]
        print(dC, dC._version, dC.requires_grad, dC.is_leaf)
        print(dC.grad_fn, dC.grad_fn.next_functions[0][0].next_functions)
        (dC * torch.arange(15.).reshape(5, 3)).sum().backward()
        print(C.grad)
        b = torch.zeros(3)
        w = torch.tensor(2., requires_grad=True)
        v = b[0]
        v.add_(w)
        print(b, b.grad_fn.next_functions, b.requires_grad, v.grad_fn)
        b.sum().backward()
        print(w.grad)
    """,
    "chains-of-views": """
        x = torch.arange(16.).requires_grad_()
        a = x * 1
        b = a.view(4, 4)[1:3].t()
        c = b[2]
        print(c, c._base is a, c.grad_fn)
        c.mul_(10)
        print(a, a.grad_fn, b.grad_fn, c.grad_fn)
        print(b.storage_offset(), c.storage_offset(), c.grad_fn._saved_size, c.grad_fn._saved_stride,
              c.grad_fn._saved_storage_offset)
        (a * a).sum().backward()
        print(x.grad)
        y = torch.ones(2, 3, requires_grad=True) * 1
        v = y.t()
        v.exp_()
        print(v.grad_fn, y.grad_fn, v[1].grad_fn, v[1]._base is y)
        u = y.view(6)[1:5].view(2, 2)
        u[0] += 5
        print(y, u, y._version, u._version)
        y.sum().backward()
    """,
    "a-base-whose-memory-is-not-in-row-order": """
        x = torch.arange(12.).reshape(3, 4).requires_grad_()
        y = x.t() * 2
        print(y.stride(), y.is_contiguous())
        y[1].mul_(10)
        y[2:, 1:] += 1
        y[:, 0].exp_()
        print(y, y._version)
        (y * torch.arange(12.).reshape(4, 3)).sum().backward()
        print(x.grad)
        f = torch.arange(6.).requires_grad_() * 1
        r = f.flip(0)
        r[0:2].mul_(-1)
        print(r, f)
        (r * torch.arange(6.)).sum().backward()
    """,
    "exp-and-relu-in-place-save-the-tensor-itself": """
        for op in ["exp_()", "relu_()", "sigmoid_()", "tanh_()", "sqrt_()", "reciprocal_()", "rsqrt_()", "abs_()"]:
            x = torch.tensor([0.5, 2.0], requires_grad=True)
            y = x * 1
            eval("y." + op)
            y.add_(1)
            with expect(): y.sum().backward()
            z = x * 1
            eval("z[1:]." + op)
            z.mul_(2)
            with expect(): z.sum().backward()
    """,
    "every-view-of-the-base-is-made-again": """
        x = torch.ones(2, 3, requires_grad=True)
        y = x * 2
        v1, v2, v3 = y[0], y[1], y[0, :2]
        print(v2.grad_fn)
        v1.mul_(3)
        print(v2.grad_fn, v2.grad_fn.next_functions[0][0] is y.grad_fn, v3.grad_fn)
        y.add_(1)
        print(v1.grad_fn, v1.grad_fn.next_functions, v1._version)
        (v3 * torch.tensor([1., 10.])).sum().backward()
        print(x.grad)
        s = torch.ones(3, requires_grad=True) * 1
        e = s.expand(2, 3)
        s.mul_(2)
        print(e.grad_fn)
        e.sum().backward()
    """,
    "a-view-of-a-leaf-is-refused": """
        x = torch.ones(2, 3, requires_grad=True)
        with expect(): x[0].mul_(2)
        with expect(): x[0:1].add_(1)
        with expect(): x.t().zero_()
        with expect(): x.view(6).fill_(2)
        with expect(): x[0] = 1.
        with expect(): x[0, [1, 2]] = 5.
        with expect(): x[[0]] = 1.
        with expect(): x[x > 0] = 0.
        with expect(): x[:] = 1.
        with expect(): x[...] = torch.ones(3)
        with expect(): x[1:] += 1
        print(x, x._version)
        with torch.no_grad():
            x[0].mul_(2)
            x[1, 1] = 7.
        print(x, x._version, x.is_leaf)
        b = torch.zeros(3)
        vb = b[0:2]
        b.requires_grad_()
        print(vb.requires_grad, vb.grad_fn)
        with expect(): vb.add_(1)
    """,
    "index-assignment-records-a-copy-into-a-view": """
        x = torch.ones(3, requires_grad=True)
        y = x * 1
        y[[0, 2]] = torch.tensor([5., 6.])
        print(y.grad_fn)
        m = torch.ones(3, 4, requires_grad=True) * 1
        m[0, [1, 2]] = 7.
        print(m.grad_fn, m._version)
        graph(m)
        m[:, [1, 2]] = 7.
        print(m.grad_fn, m._version)
        m[1:, [0]] = 3.
        print(m.grad_fn, m._version)
        m[:] = 1.
        print(m.grad_fn, m._version)
        m[...] = torch.ones(4)
        print(m.grad_fn, m._version)
        w = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        m[0] = w
        m[2, 1:3] = w[:2] * 10
        m[1][2] = w[3]
        print(m, m._version)
        graph(m)
        (m * torch.arange(12.).reshape(3, 4)).sum().backward()
        print(w.grad)
    """,
    "index-assignment-of-a-value-that-requires-grad": """
        w = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        s = torch.tensor(5., requires_grad=True)
        m = torch.zeros(3, 4)
        m[0] = w.view(1, 4)
        m[1:] = w
        m[2, 0] = s
        m[1] = s
        m[:, [0]] = w[:3].view(1, 3, 1)
        print(m, m._version)
        graph(m)
        (m * torch.arange(12.).reshape(3, 4)).sum().backward()
        print(w.grad, s.grad)
        z = s * 1
        z[...] = 7.
        print(z.grad_fn)
        a = torch.zeros(2, 3)
        a[...] = w[:3]
        print(a.grad_fn, a.grad_fn.next_functions)
        with expect(): a[0] = torch.ones(1, 4)
        with expect(): a[:] = torch.ones(1, 2, 2)
        with expect(): a[[0]] = torch.ones(1, 1, 4)
        with expect(): a[0] = torch.ones(2, 3)
        print(a, a._version)
    """,
    "a-saved-tensor-changed-through-a-view": """
        x = torch.ones(3, requires_grad=True)
        y = x * 1
        v = y[:2]
        c = v * v
        y.mul_(2)
        with expect(): c.sum().backward()
        x = torch.ones(3, requires_grad=True)
        y = x.exp()
        y[:2].mul_(2)
        with expect(): y.sum().backward()
        x = torch.tensor([0.5, 1.5], requires_grad=True)
        h = x * 1
        p = h[0:1].sigmoid_()
        print(p, h)
        h.sum().backward(retain_graph=True)
        print(x.grad)
        h[1:].add_(1)
        h.sum().backward()
        print(x.grad)
        p.mul_(2)
        with expect(): h.sum().backward()
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 1
        y[0:1].mul_(x[1:])
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        with expect(): y.sum().backward()
        print(x.grad)
    """,
    "retain-grad-and-hooks-across-a-rewrite": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = x * 1
        y.retain_grad()
        v = y[1:]
        v.retain_grad()
        v.mul_(4)
        print(y.retains_grad, v.retains_grad)
        (y * torch.tensor([1., 10., 100.])).sum().backward()
        print(y.grad, v.grad, x.grad)
    """,
    "views-made-under-no-grad-are-refused": """
        y = torch.ones(4, requires_grad=True) * 1
        with torch.no_grad():
            v = y[0:2]
        print(v.requires_grad, v.grad_fn, v.is_leaf)
        w = torch.tensor(2., requires_grad=True)
        with expect(): v.mul_(2)
        y.mul_(2)
        with expect(): v.grad_fn
        print(v)
        with expect(): v * 2
        with torch.no_grad():
            print(v * 2)
        b = torch.zeros(3)
        with torch.no_grad():
            u = b[:2]
        u.add_(1)
        with expect(): u.add_(w)
        print(b, b.grad_fn)
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            s = x[0:2]
            s.add_(1)
        print(s, x)
    """,
    "the-pieces-of-split-and-unbind-are-refused": """
        w = torch.tensor(2., requires_grad=True)
        y = torch.ones(4, requires_grad=True) * 1
        for make in ["y.unbind()", "y.split([1, 3])", "y.chunk(2)", "y.split(2)"]:
            a = eval(make)[1]
            with expect(): a.mul_(2)
        a, b = y.split(2)
        y.mul_(2)
        with expect(): a.grad_fn
        with expect(): a * 2
        print(a)
        z = torch.zeros(4)
        p, q = z.split(2)
        with expect(): p.mul_(w)
        p.add_(1)
        print(z, p)
        with torch.no_grad():
            p, q = (z * 1).split(2)
        with expect(): p.mul_(w)
    """,
    "indexing-with-a-range": """
        x = torch.arange(12.).reshape(3, 4).requires_grad_()
        y = torch.tensor([1, 0, 3])
        z = x[range(3), y]
        print(z, z.grad_fn, z.grad_fn._saved_indices)
        z.sum().backward()
        print(x.grad)
        print(x[range(2)], x[range(1, 3), 2], x[:, range(0, 4, 2)], x[range(0)])
        print(x[[0, 2], range(2)], x[(range(2), [1, 2])], x[range(-1, -3, -1)])
        with expect(): x[range(5)]
        with expect(): x[range(3), range(2)]
        w = torch.zeros(3, 4)
        w[range(3), y] = 1.
        w[range(2)] += 5
        print(w, w._version)
        logits = torch.tensor([[1., 2., 3.], [1., 1., 1.]], requires_grad=True)
        logprobs = logits.log_softmax(1)
        loss = -logprobs[range(2), torch.tensor([2, 0])].mean()
        loss.backward()
        print(loss, logits.grad)
    """,
    "a-custom-function-may-return-trailing-nones": """
        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, k=2.0, bias=None):
                ctx.k = k
                return x * k
            @staticmethod
            def backward(ctx, g):
                return g * ctx.k, None, None, None
        class TooMany(Scale):
            @staticmethod
            def backward(ctx, g):
                return g * 2, None, g
        class TooFew(Scale):
            @staticmethod
            def backward(ctx, g):
                return g * 2
        x = torch.ones(2, requires_grad=True)
        Scale.apply(x).sum().backward()
        Scale.apply(x, 3.0).sum().backward()
        Scale.apply(x, 3.0, None).sum().backward()
        print(x.grad)
        with expect(): TooMany.apply(x).sum().backward()
        with expect(): TooFew.apply(x, 3.0).sum().backward()
        TooFew.apply(x).sum().backward()
        print(x.grad)
    """,
    "create-graph-through-copy-slices": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = x * 1
        v = y[1:]
        v.mul_(x[1:])
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        print(g)
        graph(g)
        g.sum().backward()
        print(x.grad)
    """,
    "create-graph-through-copy-slices-and-as-strided": """
        x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = x * 1
        v = y[:, 1]
        v.exp_()
        w = y[0]
        print(v.grad_fn, w.grad_fn)
        g, = torch.autograd.grad((v * v).sum() + (y ** 3).sum() + (w * 2).sum(), x, create_graph=True)
        print(g)
        graph(g)
        h, = torch.autograd.grad(g.sum(), x, create_graph=True)
        print(h)
        graph(h)
        print(torch.autograd.grad(h.sum(), x))
    """,
    "create-graph-through-an-accumulated-slice": """
        C = torch.tensor([[0.5, -1.], [2., 0.25], [1., 1.5]], requires_grad=True)
        w = C * 2
        w[1] += C[0] * C[0]
        w[[0, 2]] *= C[1]
        g, = torch.autograd.grad(w.pow(2).sum(), C, create_graph=True)
        print(g)
        graph(g)
        print(torch.autograd.grad(g.sum(), C))
        z = torch.zeros(3)
        z[1:].add_(C[0] * C[2, 0])
        g, = torch.autograd.grad((z * z).sum(), C, create_graph=True)
        print(g)
        graph(g)
        print(torch.autograd.grad(g.sum(), C))
    """,
    "saved-original-of-an-in-place-op-is-a-clone": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = x * 1
        y.mul_(x)
        y.div_(x + 1)
        y.clamp_(0.1, 1.)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        print(g)
        graph(g)
        print(torch.autograd.grad(g.sum(), x))
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_views_inplace(conform, name):
    conform(CASES[name])
