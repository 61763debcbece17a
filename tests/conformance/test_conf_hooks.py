"""Tensor hooks, post-accumulate hooks, saved_tensors_hooks, and the order in which the engine runs nodes
(sections 12, 15 and 18 of the reference): hooks record what ran, and the lists must be the same."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    # ---------------------------------------------------------------- Tensor.register_hook
    "leaf-hook-before-accumulation": """
        x = torch.tensor(2., requires_grad=True)
        h = x.register_hook(lambda g: print("hook got", g))
        print(type(h).__name__)
        (x * 3).backward()
        print(x.grad)
        h.remove()
        (x * 3).backward()
        print(x.grad)
        x.grad = None
        x.register_hook(lambda g: g * 10)
        (x * 3).backward()
        print(x.grad)
    """,
    "hooks-in-registration-order": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        y.register_hook(lambda g: print("h1", g))
        y.register_hook(lambda g: g + 1)
        y.register_hook(lambda g: print("h3", g))
        y.register_hook(lambda g: g * 100)
        (y * 2).backward()
        print(x.grad)
    """,
    "non-leaf-hook-and-retain-grad": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        y.retain_grad()
        y.register_hook(lambda g: g * 10)
        (y * 2).backward()
        print(y.grad, x.grad)
        a = x * 3
        a.register_hook(lambda g: g * 10)
        a.retain_grad()
        (a * 2).backward()
        print(a.grad, x.grad)
    """,
    "leaf-hook-sees-total": """
        x = torch.tensor(2., requires_grad=True)
        calls = []
        x.register_hook(lambda g: calls.append(g.item()))
        (x * x + x).backward()
        print(calls, x.grad)
    """,
    "hook-errors": """
        u = torch.tensor(2.)
        with expect(): u.register_hook(lambda g: g)
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: torch.ones(3))
        with expect(): y.sum().backward()
        def scale(g):
            return torch.ones(1, 2)
        z = x * 3
        z.register_hook(scale)
        with expect(): z.sum().backward()
        print(x.grad)
    """,
    "hook-handle-remove-and-context": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        h1 = y.register_hook(lambda g: print("h1", g))
        h2 = y.register_hook(lambda g: print("h2", g))
        h1.remove(); h1.remove()
        with x.register_hook(lambda g: print("x", g)):
            y.backward(retain_graph=True)
        y.backward()
        print(x.grad)
    """,
    "hook-on-intermediate-vector": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        h = x ** 2
        h.register_hook(lambda g: g * torch.tensor([1., 0., 2.]))
        h.sum().backward()
        print(x.grad)
    """,
    "hook-changing-dtype-and-none": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: None)
        y.register_hook(lambda g: g.double())
        y.sum().backward()
        print(x.grad, x.grad.dtype)
    """,
    "hooks-chain-order": """
        x = torch.tensor(2., requires_grad=True)
        a = x * 2; b = a + 1; c = b * b
        for name, t in [("x", x), ("a", a), ("b", b), ("c", c)]:
            t.register_hook(lambda g, name=name: print("tensor hook", name, g))
        for name, t in [("a", a), ("b", b), ("c", c)]:
            t.grad_fn.register_prehook(lambda go, n=t.grad_fn.name(), name=name: print("node prehook", n, "(of", name + ")"))
        c.backward()
    """,
    "tensor-hook-then-prehook-then-post": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        z = y * 2
        y.grad_fn.register_prehook(lambda go: print("prehook", go))
        y.register_hook(lambda g: print("tensor hook", g) or g + 1)
        y.grad_fn.register_hook(lambda gi, go: print("posthook", gi, go))
        y.retain_grad()
        z.backward()
        print(y.grad, x.grad)
    """,
    "post-accumulate-grad-hook": """
        x = torch.tensor(2., requires_grad=True)
        h = x.register_post_accumulate_grad_hook(lambda t: print("accumulated, t.grad =", t.grad, t is x))
        (x * 3).backward()
        (x * 4).backward()
        h.remove()
        (x * 5).backward()
        print(x.grad)
        y = x * 2
        with expect(): y.register_post_accumulate_grad_hook(lambda t: None)
        u = torch.tensor(1.)
        with expect(): u.register_post_accumulate_grad_hook(lambda t: None)
    """,
    "post-accumulate-after-tensor-hooks": """
        x = torch.tensor(2., requires_grad=True)
        x.register_post_accumulate_grad_hook(lambda t: print("post acc", t.grad))
        x.register_hook(lambda g: print("tensor hook", g) or g * 2)
        x.register_post_accumulate_grad_hook(lambda t: t.grad.mul_(10))
        (x * x).backward()
        print(x.grad)
    """,
    "post-accumulate-optimizer-in-hook": """
        w = torch.tensor([1., 2.], requires_grad=True)
        def step(p):
            with torch.no_grad():
                p -= 0.1 * p.grad
            p.grad = None
        w.register_post_accumulate_grad_hook(step)
        for _ in range(3):
            (w ** 2).sum().backward()
            print(w, w.grad)
    """,
    "hooks-under-create-graph": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 2
        y.register_hook(lambda g: print("y hook", g, g.requires_grad))
        x.register_hook(lambda g: print("x hook", g, g.requires_grad))
        (g,) = torch.autograd.grad(y * 3, x, create_graph=True)
        print(g)
    """,
    # ---------------------------------------------------------------- saved_tensors_hooks
    "saved-tensors-hooks": """
        x = torch.tensor([1., 2.], requires_grad=True)
        def pack(t):
            print("pack", t)
            return t.clone()
        def unpack(t):
            print("unpack", t)
            return t
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = x * x
            z = y.exp()
            s = z.sum()
        print("--- backward")
        s.backward()
        print(x.grad)
    """,
    "saved-tensors-hooks-transform": """
        x = torch.tensor([1., 2.], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 0 + 1, lambda t: t):
            y = (x * x).sum()
        y.backward()
        print(x.grad)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: ("packed", t.shape), lambda p: torch.ones(p[1])):
            z = (x ** 3).sum()
        print(z.grad_fn.next_functions[0][0]._saved_self)
        z.backward()
        print(x.grad)
    """,
    "saved-tensors-hooks-nesting-and-scope": """
        x = torch.tensor([1., 2.], requires_grad=True)
        log = []
        with torch.autograd.graph.saved_tensors_hooks(lambda t: (log.append("outer"), t)[1], lambda t: t):
            a = x.exp()
            with torch.autograd.graph.saved_tensors_hooks(lambda t: (log.append("inner"), t)[1], lambda t: t):
                b = a.log()
            c = b.tanh()
        d = c * 2
        print(log)
        (d.sum()).backward()
        print(x.grad)
    """,
    "saved-tensors-hooks-wrapped-number-and-no-grad": """
        x = torch.tensor([1., 2.], requires_grad=True)
        packed = []
        with torch.autograd.graph.saved_tensors_hooks(lambda t: (packed.append(str(t)), t)[1], lambda t: t):
            y = x * 2
            z = x / 3
            with torch.no_grad():
                w = x * x
            v = torch.tensor([3., 4.]) * torch.tensor([1., 1.])
        print(packed)
    """,
    # ---------------------------------------------------------------- engine order
    "order-diamond": """
        x = torch.tensor(1., requires_grad=True)
        a = x * 2; b = a.exp(); c = a * 3; d = b + c
        names = {a.grad_fn: "a", b.grad_fn: "b", c.grad_fn: "c", d.grad_fn: "d"}
        for node, n in names.items():
            node.register_prehook(lambda go, n=n, node=node: print("run", node.name(), "for", n, "grad_output", go[0].item()))
        x.register_hook(lambda g: print("leaf x hook", g.item()))
        print({n: node._sequence_nr() - a.grad_fn._sequence_nr() for node, n in names.items()})
        d.backward()
        print(x.grad)
    """,
    "order-long-and-short-branch": """
        def run(build):
            x = torch.tensor(1., requires_grad=True)
            t = build(x)
            order = []
            seen = set()
            def walk(fn):
                if fn is None or fn in seen: return
                seen.add(fn)
                fn.register_prehook(lambda go, fn=fn: order.append(fn.name()))
                for nxt, _ in fn.next_functions: walk(nxt)
            walk(t.grad_fn)
            t.backward()
            print(order)
        def short_first(x):
            a = x * 2
            b = a.exp()
            c3 = ((a * 3) * 4) * 5
            return b + c3
        def long_first(x):
            a = x * 2
            c3 = ((a * 3) * 4) * 5
            b = a.exp()
            return b + c3
        run(short_first)
        run(long_first)
    """,
    "order-two-leaves": """
        a = torch.tensor(2., requires_grad=True)
        b = torch.tensor(5., requires_grad=True)
        y = a * a + b
        a.register_hook(lambda g: print("a accumulates", g.item()))
        b.register_hook(lambda g: print("b accumulates", g.item()))
        y.grad_fn.register_prehook(lambda go: print("AddBackward0"))
        y.grad_fn.next_functions[0][0].register_prehook(lambda go: print("MulBackward0"))
        y.backward()
    """,
    "order-several-paths": """
        x = torch.tensor(1., requires_grad=True)
        y1 = x * 2
        y2 = x * 3
        y3 = x.exp()
        z = y1 + y2 + y3
        for t, n in [(y1, "y1"), (y2, "y2"), (y3, "y3")]:
            t.grad_fn.register_prehook(lambda go, n=n: print("node", n))
        x.register_hook(lambda g: print("x hook", g.item()))
        z.backward()
    """,
    "order-mlp-like": """
        torch.manual_seed(0)
        W1 = torch.tensor([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], requires_grad=True)
        b1 = torch.tensor([0.01, -0.02, 0.03], requires_grad=True)
        W2 = torch.tensor([[0.7, -0.8, 0.9]], requires_grad=True)
        x = torch.tensor([[1., 2.], [3., -1.]])
        h = torch.tanh(x @ W1.T + b1)
        out = (h @ W2.T).sum()
        order = []
        seen = set()
        def walk(fn):
            if fn is None or fn in seen: return
            seen.add(fn)
            fn.register_prehook(lambda go, fn=fn: order.append(fn.name() if not hasattr(fn, "variable") else name_of(fn.variable)))
            for nxt, _ in fn.next_functions: walk(nxt)
        walk(out.grad_fn)
        for t in (W1, b1, W2):
            t.register_hook(lambda g, t=t: order.append("hook " + name_of(t)))
        out.backward()
        print(order)
        print(W1.grad, b1.grad, W2.grad)
    """,
    "order-multiple-roots": """
        x = torch.tensor(1., requires_grad=True)
        a = x * 2
        b = x * 3
        c = a * b
        for t, n in [(a, "a"), (b, "b"), (c, "c")]:
            t.grad_fn.register_prehook(lambda go, n=n: print("node", n, go[0].item()))
        x.register_hook(lambda g: print("x", g.item()))
        torch.autograd.backward([a, c, b], [torch.tensor(1.), torch.tensor(10.), torch.tensor(100.)])
        print(x.grad)
    """,
    "order-retained-second-pass": """
        x = torch.tensor(1., requires_grad=True)
        w = torch.tensor(2., requires_grad=True)
        y = (x * w).exp() + w
        log = []
        x.register_hook(lambda g: log.append(("x", round(g.item(), 4))))
        w.register_hook(lambda g: log.append(("w", round(g.item(), 4))))
        y.backward(retain_graph=True)
        y.backward()
        print(log, x.grad, w.grad)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_hooks(conform, name):
    conform(CASES[name])
