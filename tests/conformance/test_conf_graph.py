"""The graph API and leaf semantics: grad_fn, next_functions, AccumulateGrad, node hooks and metadata;
is_leaf, requires_grad, retain_grad, detach, .data and .grad (sections 1, 2, 4, 5, 8, 10 of the reference)."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "a-node-called-by-hand": """
        x = torch.tensor(2., requires_grad=True); w = torch.tensor(3., requires_grad=True)
        y = x * w
        print(y.grad_fn(torch.tensor(1.)))
        print((x * 2).grad_fn(torch.tensor(1.)))
        print((x + w).grad_fn(torch.tensor(1.)))
        print((x.exp()).grad_fn(torch.tensor(1.)))
        print((x ** 2).grad_fn(torch.tensor(5.)))
        with torch.no_grad(): print(y.grad_fn(torch.tensor(1.)))
        with expect(): y.grad_fn(torch.tensor(1.), torch.tensor(2.))
        with expect(): y.grad_fn()
        acc = y.grad_fn.next_functions[0][0]
        print(acc(torch.tensor(1.)), x.grad)
        print(acc(torch.tensor(2.)), x.grad)
        z = x * w; z.backward()
        with expect(): z.grad_fn(torch.tensor(1.))
        v = torch.tensor([1., 2.], requires_grad=True)
        print((v.sum()).grad_fn(torch.tensor(1.)), (v * v).grad_fn(torch.ones(2)))
    """,
    "grad-fn-and-is-leaf-are-read-only": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 2
        with expect(): y.grad_fn = None
        with expect(): x.grad_fn = y.grad_fn
        with expect(): y.is_leaf = True
        print(y.grad_fn.name(), y.is_leaf, x.is_leaf, x.grad_fn)
        x.detach_()
        print(x.is_leaf, x.grad_fn, x.requires_grad)
    """,
    "type-of-a-node-prints-as-in-torch": """
        x = torch.tensor(2., requires_grad=True)
        y = x * x
        print(type(y.grad_fn), type(y.grad_fn.next_functions[0][0]), type((x + 1).grad_fn), type(x.sum().grad_fn))
        class Twice(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2
            @staticmethod
            def backward(ctx, g):
                return g * 2
        print(type(Twice.apply(x).grad_fn))
        class KeepsANumber(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, 5)
                return x * 2
            @staticmethod
            def backward(ctx, g):
                return g
        with expect(): KeepsANumber.apply(torch.ones(2, requires_grad=True))
    """,
    "module-forward-hooks": """
        lin = torch.nn.Linear(1, 1)
        with torch.no_grad():
            lin.weight.fill_(2.0)
            lin.bias.fill_(0.0)
        h = lin.register_forward_hook(lambda m, i, o: print("fwd", type(m).__name__, i, o))
        p = lin.register_forward_pre_hook(lambda m, i: print("pre", i))
        print(lin(torch.ones(1, 1)))
        h.remove()
        p.remove()
        print(lin(torch.ones(1, 1)))
        h = lin.register_forward_hook(lambda m, i, o: o * 10)
        print(lin(torch.ones(1, 1)))
        h.remove()
        p = lin.register_forward_pre_hook(lambda m, i: (i[0] * 3,))
        print(lin(torch.ones(1, 1)))
        p.remove()
        p = lin.register_forward_pre_hook(lambda m, i: i[0] * 3)
        print(lin(torch.ones(1, 1)))
        net = torch.nn.Sequential(torch.nn.Linear(1, 1), torch.nn.Tanh())
        shapes = []
        for m in net:
            m.register_forward_hook(lambda m, i, o: shapes.append((type(m).__name__, tuple(o.shape))))
        net(torch.ones(4, 1))
        print(shapes)
    """,
    "norm-prod-cumsum-masked-fill-rounding-log1p-expm1-var-std": """
        torch.manual_seed(0)
        data = [[1., -2., 3.], [0.5, 4., -1.]]
        exprs = ["x.norm()", "x.norm(dim=1)", "torch.norm(x)", "x.norm(p=1)", "x.norm(2, 1)", "x.norm(dim=1, keepdim=True)", "x.norm(p=float('inf'))",
                 "x.norm(p=3)", "x.prod()", "x.prod(1)", "x.prod(0, keepdim=True)", "torch.prod(x)", "x.cumsum(1)", "x.cumsum(dim=0)", "torch.cumsum(x, dim=1)",
                 "x.masked_fill(x > 0, 0.)", "x.masked_fill(torch.tensor([True, False, True]), -1.)", "x.round()", "x.floor()", "x.ceil()", "(x * 1.5).round()",
                 "x.abs().log1p()", "x.expm1()", "x.var()", "x.std()", "x.var(1)", "x.std(0)", "x.var(unbiased=False)", "x.var(dim=1, correction=0)",
                 "x.std(1, keepdim=True)", "torch.var(x)", "torch.std(x, dim=1)", "z.prod()", "z.norm()", "s.cumsum(0)", "s.prod()", "s.norm()"]
        for e in exprs:
            x = torch.tensor(data, requires_grad=True)
            z = torch.tensor([0., 2., 3.], requires_grad=True)
            s = torch.tensor(2., requires_grad=True)
            r = eval(e)
            r.sum().backward()
            print(e, r, x.grad, z.grad, s.grad)
        with expect(): torch.tensor([1., 2.]).masked_fill(torch.tensor([1., 0.]), 0.)
        w = torch.tensor([2.], requires_grad=True)
        v = w.std(); v.backward(); print(v, w.grad)
    """,
    "custom-autograd-function": """
        class MyExp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                print("needs", ctx.needs_input_grad, torch.is_grad_enabled())
                y = (x * k).exp()
                ctx.save_for_backward(y)
                ctx.k = k
                return y
            @staticmethod
            def backward(ctx, g):
                y, = ctx.saved_tensors
                print("bw grad enabled", torch.is_grad_enabled(), type(g).__name__, y.requires_grad, y.grad_fn.name())
                return g * y * ctx.k, None
        x = torch.tensor([1., 2.], requires_grad=True)
        z = MyExp.apply(x, 2.0)
        print(z, z.grad_fn.name(), len(z.grad_fn.next_functions), z.grad_fn.next_functions[0][0].name(), z.is_leaf)
        z.sum().backward()
        print(x.grad)
        with expect(): z.grad_fn.saved_tensors
        with torch.no_grad():
            w = MyExp.apply(x, 1.0)
        print(w, w.requires_grad)
        class Bad(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x): return x * 2
            @staticmethod
            def backward(ctx, g): return g, g
        with expect(): Bad.apply(x).sum().backward()
        class Ident(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x): return x
            @staticmethod
            def backward(ctx, g): return g
        u = Ident.apply(x); print(u, u is x, u.grad_fn.name(), x.is_leaf)
        class Two(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.save_for_backward(a, None, b)
                return a * b
            @staticmethod
            def backward(ctx, g):
                a, n, b = ctx.saved_tensors
                print("saved", a, n, b)
                return g * b, g * a
        a = torch.tensor(1., requires_grad=True); b = torch.tensor(2.)
        r = Two.apply(a, b); print([None if f is None else f.name() for f, _ in r.grad_fn.next_functions]); r.backward(); print(a.grad, b.grad)
        print(MyExp.apply(torch.tensor([1.]), 1.0).requires_grad)
        class Idx(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                i = x.argmax()
                ctx.mark_non_differentiable(i)
                return i
            @staticmethod
            def backward(ctx, g): return None
        print(Idx.apply(x), Idx.apply(x).requires_grad)
        class Sq(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 2
            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return 2 * x * g
        x2 = torch.tensor(3., requires_grad=True)
        y2 = Sq.apply(x2)
        g1, = torch.autograd.grad(y2, x2, create_graph=True)
        print(g1)
        g2, = torch.autograd.grad(g1, x2)
        print(g2)
        y3 = Sq.apply(x2) * 2 + Sq.apply(x2)
        y3.backward(retain_graph=True); y3.backward(); print(x2.grad)
        print(type(y3.grad_fn.next_functions[0][0].next_functions[0][0]).__name__)
    """,
    "dir-lists-what-a-node-saved": """
        x = torch.tensor([1., 2.], requires_grad=True)
        for y in [x * x, x + 2, x ** 3, x.sum(), x.exp(), x * 2, x.tanh(), x.sigmoid() * x]:
            print(y.grad_fn.name(), [a for a in dir(y.grad_fn) if a.startswith("_saved_")])
        y = x * x
        y.sum().backward()
        print([a for a in dir(y.grad_fn) if a.startswith("_saved_")])
        with expect(): y.grad_fn._saved_self
    """,
    "expand-and-rsub-messages": """
        with expect(): torch.ones(2, 3, dtype=torch.float64).expand(3)
        with expect(): torch.ones(2, 3, dtype=torch.int64).expand(3)
        with expect(): torch.ones(3).expand(4, -1, -1)
        with expect(): torch.rsub(torch.ones(2, 3), torch.ones(2))
        print(torch.ones(3).expand(2, -1))
    """,
    "a-0-dim-tensor-s-one-dim-and-empty-dim-lists": """
        exprs = ["x.sum(0)", "x.sum(-1)", "x.sum(0, keepdim=True)", "x.mean(0, keepdim=True)", "x.sum(())", "x.t()",
                 "x.transpose(0, -1)", "x.squeeze(0)", "x.squeeze((0,))", "m.sum(())", "m.mean([], keepdim=True)",
                 "v.t()", "m.transpose(1, 1)"]
        for e in exprs:
            x = torch.tensor(2., requires_grad=True)
            m = torch.ones(2, 3, requires_grad=True)
            v = torch.tensor([1., 2.], requires_grad=True)
            r = eval(e)
            r.sum().backward()
            print(e, r, x.grad, m.grad, v.grad)
        with expect(): torch.tensor(2.).size(-1)
        with expect(): torch.tensor(2.).sum(1)
    """,
    "slices-keeping-a-whole-dim-and-integer-casts": """
        x = torch.ones(2, 3, requires_grad=True)
        for r in [x[:, -3:], x[:, 0:3], x[:, :10], x[-2:], x[:, -10:], x[-2:, :], x[:], x[..., -3:], x[0, -3:],
                  x[:, 0:3:1], x[None, :, -3:]]:
            print(r.grad_fn.name(), tuple(r.shape), [n.name() if n else None for n, _ in r.grad_fn.next_functions])
        for r in [x.long(), x.int(), x.bool(), x.to(torch.int64), x.double()]:
            print(r.dtype, r.requires_grad, r.is_leaf, r.grad_fn)
    """,
    # ---------------------------------------------------------------- graph structure
    "d=a*b+a-structure": """
        a = torch.tensor(3., requires_grad=True)
        b = torch.tensor(4., requires_grad=True)
        c = a * b
        d = c + a
        print(d.grad_fn.name(), d.grad_fn.next_functions)
        mul, acc_a = d.grad_fn.next_functions[0][0], d.grad_fn.next_functions[1][0]
        print(mul is c.grad_fn, mul.name(), mul.next_functions)
        print(acc_a.name(), acc_a.variable is a, acc_a.next_functions, repr(acc_a.variable))
        print(mul.next_functions[0][0] is acc_a, mul.next_functions[1][0].variable is b)
        graph(d)
    """,
    "untracked-inputs": """
        a = torch.tensor(3., requires_grad=True)
        k = torch.tensor(4.)
        d = a * k + k
        print(d.grad_fn.next_functions)
        print(d.grad_fn.next_functions[0][0].next_functions)
        e = k * a
        print(e.grad_fn.next_functions)
        graph(d); graph(e)
        print((k * 2).grad_fn, (k * 2).requires_grad, (k * 2).is_leaf)
    """,
    "leaf-propagation": """
        a = torch.tensor(3., requires_grad=True)
        b = torch.tensor(4.)
        c = a * b
        d = b * 2
        for name, t in [("a", a), ("b", b), ("c", c), ("d", d)]:
            print(name, "is_leaf=", t.is_leaf, "requires_grad=", t.requires_grad, "grad_fn=", t.grad_fn)
        x = torch.ones(2, requires_grad=True)
        print(torch.ones(2).requires_grad, torch.zeros(2, requires_grad=True).requires_grad)
        y = (x * 2 + 1).sum()
        print(y.requires_grad, y.is_leaf, y.grad_fn)
        z = torch.tensor([1., 2.]) + torch.tensor([3., 4.])
        print(z.requires_grad, z.is_leaf, z.grad_fn)
    """,
    "same-leaf-same-accumulate-node": """
        x = torch.tensor(2., requires_grad=True)
        y = x * x
        n0, n1 = y.grad_fn.next_functions
        print(n0[0] is n1[0], n0, n1)
        z = x + 1
        print(z.grad_fn.next_functions[0][0] is n0[0])
        graph(y * z)
        s = x + x
        graph(s)
    """,
    "sequence-numbers": """
        x = torch.tensor(2., requires_grad=True)
        a = x * 2; b = a + 1; c = b.exp()
        print(a.grad_fn._sequence_nr() < b.grad_fn._sequence_nr() < c.grad_fn._sequence_nr())
        print(c.grad_fn._sequence_nr() - a.grad_fn._sequence_nr())
        print(a.grad_fn.next_functions[0][0]._sequence_nr())
    """,
    "metadata": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        print(y.grad_fn.metadata, type(y.grad_fn.metadata).__name__)
        y.grad_fn.metadata["label"] = "triple"
        print(y.grad_fn.metadata, y.grad_fn.metadata is y.grad_fn.metadata)
        acc = y.grad_fn.next_functions[0][0]
        print(acc.metadata)
        acc.metadata["leaf"] = True
        print(y.grad_fn.next_functions[0][0].metadata)
    """,
    "node-hooks-and-handles": """
        a = torch.tensor(3., requires_grad=True)
        b = torch.tensor(4.)
        c = a * b
        d = c + 1
        hp = c.grad_fn.register_prehook(lambda gout: print("pre MulBackward0 grad_outputs=", gout))
        hh = c.grad_fn.register_hook(lambda gin, gout: print("post MulBackward0 grad_inputs=", gin, "grad_outputs=", gout))
        print(type(hp).__name__, type(hh).__name__)
        d.backward(retain_graph=True)
        print(a.grad)
        hp.remove(); hh.remove()
        c.grad_fn.register_hook(lambda gin, gout: (gin[0] * 100, None))
        d.backward()
        print(a.grad)
    """,
    "prehook-replaces-grad": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        y.grad_fn.register_prehook(lambda gout: (gout[0] * 0.5,))
        y.backward()
        print(x.grad)
    """,
    "node-hooks-on-leaf-accumulate": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        acc = y.grad_fn.next_functions[0][0]
        acc.register_prehook(lambda gout: print("acc pre", gout))
        acc.register_hook(lambda gin, gout: print("acc post", gin, gout))
        y.backward()
        print(x.grad)
    """,
    "node-hook-handle-remove-twice-and-context": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        h = y.grad_fn.register_prehook(lambda g: print("pre", g))
        h.remove(); h.remove()
        with y.grad_fn.register_hook(lambda gi, go: print("post", gi)) as h2:
            y.backward(retain_graph=True)
        y.backward()
        print(x.grad)
    """,
    "multiple-node-hooks-order": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        z = y * 2
        y.grad_fn.register_prehook(lambda g: print("pre1", g))
        y.grad_fn.register_prehook(lambda g: (g[0] + 1,))
        y.grad_fn.register_prehook(lambda g: print("pre3", g))
        y.grad_fn.register_hook(lambda gi, go: print("post1", gi, go))
        y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, gi[1]))
        y.grad_fn.register_hook(lambda gi, go: print("post3", gi, go))
        z.backward()
        print(x.grad)
    """,
    "post-hook-two-inputs": """
        a = torch.tensor(2., requires_grad=True)
        b = torch.tensor(5., requires_grad=True)
        y = a * b
        y.grad_fn.register_hook(lambda gi, go: print("post", gi, go))
        y.grad_fn.register_hook(lambda gi, go: (None, gi[1] * 2))
        y.backward()
        print(a.grad, b.grad)
    """,
    # ---------------------------------------------------------------- .grad
    "grad-none-then-accumulates": """
        x = torch.tensor(2., requires_grad=True)
        print(x.grad)
        y = x * 3
        print(y.backward())
        print(x.grad, x.grad.requires_grad, x.grad.is_leaf, x.grad.grad_fn)
        (x * 3).backward()
        print(x.grad)
        x.grad = None
        (x * 5).backward()
        print(x.grad)
        x.grad.zero_()
        print(x.grad)
        (x * 5).backward()
        print(x.grad)
    """,
    "grad-accumulates-in-place": """
        x = torch.tensor([1., 2.], requires_grad=True)
        (x * 3).sum().backward()
        g = x.grad
        (x * 3).sum().backward()
        print(g is x.grad, g)
        x.grad = torch.tensor([10., 20.])
        h = x.grad
        (x * 3).sum().backward()
        print(h is x.grad, x.grad)
    """,
    "leaf-used-twice": """
        x = torch.tensor(3., requires_grad=True)
        (x * x + x).backward()
        print(x.grad)
        y = torch.tensor([1., 2.], requires_grad=True)
        (y * y * y).sum().backward()
        print(y.grad)
    """,
    "non-leaf-grad-warning": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        z = y * 2
        print(y.grad)
        z.backward()
        print(y.grad)
        print(x.grad)
        for i in range(2):
            print(y.grad)
        print(z.grad)
    """,
    "retain-grad": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        print(y.retains_grad, x.retains_grad)
        y.retain_grad()
        print(y.retains_grad, y.grad)
        z = y * y
        z.backward()
        print(y.grad, x.grad)
        print(y.grad.requires_grad, y.grad.grad_fn, y.grad.is_leaf)
    """,
    "retain-grad-accumulates": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        y.retain_grad()
        y.retain_grad()
        z = y * 2
        z.backward(retain_graph=True)
        z.backward()
        print(y.grad, x.grad)
    """,
    "retain-grad-on-leaf-and-untracked": """
        x = torch.tensor(2., requires_grad=True)
        print(x.retain_grad(), x.retains_grad)
        (x * 2).backward()
        print(x.grad)
        u = torch.tensor(2.)
        with expect(): u.retain_grad()
    """,
    "retain-grad-vector": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        h = x.exp()
        h.retain_grad()
        y = (h * torch.tensor([1., 0., -1.])).sum()
        y.backward()
        print(h.grad, x.grad, h.retains_grad)
    """,
    "grad-setter-errors": """
        x = torch.tensor([1., 2.], requires_grad=True)
        with expect(): x.grad = torch.tensor([1., 2., 3.])
        with expect(): x.grad = [1., 2.]
        with expect(): x.grad = torch.tensor([1, 2])
        with expect(): x.grad = torch.tensor([1., 2.], dtype=torch.float64)
        x.grad = torch.tensor([1., 2.])
        print(x.grad)
        x.grad = None
        print(x.grad)
    """,
    # ---------------------------------------------------------------- requires_grad
    "requires-grad-underscore": """
        a = torch.ones(2, 2)
        r = a.requires_grad_()
        print(r is a, a.requires_grad, a.is_leaf)
        a.requires_grad_(False)
        print(a.requires_grad)
        a.requires_grad = True
        print(a.requires_grad)
        print(a)
    """,
    "requires-grad-on-non-leaf": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 2
        with expect(): y.requires_grad = False
        with expect(): y.requires_grad_(False)
        with expect(): y.requires_grad = True
        with expect(): y.requires_grad_()
        print(y.requires_grad)
    """,
    "no-grad-result-switched-on": """
        x = torch.tensor(2., requires_grad=True)
        with torch.no_grad():
            y = x * 2
        print(y.is_leaf, y.requires_grad)
        y.requires_grad_()
        (y * 3).backward()
        print(y.grad, x.grad)
    """,
    # ---------------------------------------------------------------- detach / .data
    "detach": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        d = y.detach()
        print(d, d.requires_grad, d.is_leaf, d.grad_fn)
        print(d.data_ptr() == y.data_ptr())
        d2 = x.detach()
        d2[0] = 100.
        print(x)
        print(x._version, d2._version)
    """,
    "detach-in-place": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        r = y.detach_()
        print(r is y, y.requires_grad, y.is_leaf, y.grad_fn)
        v = (x * 2)[0:1]
        with expect(): v.detach_()
        w = x.detach()
        print(w.detach_() is w)
    """,
    "gradient-stops-at-detach": """
        x = torch.tensor(3., requires_grad=True)
        y = x * x.detach()
        y.backward()
        print(x.grad)
        graph(y)
    """,
    "detached-saved-modified": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x.exp()
        y.detach().zero_()
        with expect(): y.sum().backward()
    """,
    "data-attribute": """
        x = torch.tensor([1., 2.], requires_grad=True)
        print(x.data, x.data.requires_grad, x.data.is_leaf)
        y = x.exp()
        y.data.zero_()
        y.sum().backward()
        print(x.grad)
        x.data = torch.tensor([5., 6.])
        print(x)
        with torch.no_grad():
            x.data.mul_(2)
        print(x, x._version)
    """,
    "leaf-modified-after-retained-backward": """
        w = torch.tensor(2., requires_grad=True)
        y = w * w
        y.backward(retain_graph=True)
        with torch.no_grad():
            w -= 0.1 * w.grad
        with expect(): y.backward()
        print(w, w._version, w.grad)
    """,
    "views-and-bases": """
        x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = x.view(4)
        y.retain_grad()
        z = (y * torch.arange(4.)).sum()
        z.backward()
        print(y.grad, x.grad)
        print(x.data_ptr() == y.data_ptr(), y._base is x, x._base)
        v = x.T
        print(v._base is x, v.is_leaf, v.requires_grad, v.grad_fn, v.is_contiguous(), x.is_contiguous())
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        b = a.detach().requires_grad_()
        print(b, b.is_leaf, b.requires_grad, b._base)
        (a * b).sum().backward()
        print(a.grad, b.grad)
        c = a.clone().detach()
        print(c, c.requires_grad)
    """,
    "reductions-keyword-forms": """
        m = torch.arange(6.).reshape(2, 3).requires_grad_()
        print(m.sum(axis=0), m.mean(dim=(0, 1)), m.mean((0,)), m.sum(dim=[0, 1]), m.sum(-1, True))
        print(m.mean(axis=1), m.sum(0, keepdims=True), torch.sum(m, dim=1, keepdim=True), torch.mean(m, dim=0))
        print(m.max(dim=1, keepdim=True), torch.min(m, dim=0))
        print(m.argmax(dim=1), m.argmax(1, keepdim=True))
    """,
    "nan-and-zero-gradients": """
        k = torch.tensor([1., 2.], requires_grad=True)
        (k.sum() * 0).backward()
        print(k.grad)
        s = torch.tensor(3., requires_grad=True)
        (s * torch.tensor(float('nan'))).backward()
        print(s.grad)
        z = torch.tensor(0., requires_grad=True)
        z.sqrt().backward(); print(z.grad); z.grad = None
        z.log().backward(); print(z.grad, z.log()); z.grad = None
        (z ** 0).backward(); print(z.grad); z.grad = None
        (z ** 0.5).backward(); print(z.grad)
        t = torch.tensor([1., 3., 3.], requires_grad=True)
        t.max().backward(); print(t.grad); t.grad = None
        t.max(0).values.backward(); print(t.grad); t.grad = None
        torch.maximum(t, torch.tensor([1., 1., 1.])).sum().backward(); print(t.grad)
        r = torch.tensor([-1., 0., 2.], requires_grad=True)
        r.relu().sum().backward(); print(r.grad); r.grad = None
        r.abs().sum().backward(); print(r.grad); r.grad = None
        r.clamp(min=0.).sum().backward(); print(r.grad)
        print(torch.tensor(1.) / torch.tensor(0.), torch.tensor(0.) / torch.tensor(0.))
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_graph(conform, name):
    conform(CASES[name])
