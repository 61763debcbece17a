"""backward(), autograd.backward, autograd.grad, retain_graph and freed saved tensors, create_graph and
higher-order gradients (sections 6, 7, 13, 14 of the reference)."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    # ---------------------------------------------------------------- backward()
    "gradient-arguments-are-checked-as-torch-checks-them": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        with expect(): y.backward([1.0, 1.0])
        with expect(): (x.sum() * 2).backward(1.0)
        with expect(): torch.autograd.backward(y, grad_tensors=[2.0])
        with expect(): torch.autograd.grad(y, x, grad_outputs=[1.0])
        with expect(): torch.autograd.backward([y, x * 3], grad_tensors=[torch.ones(2)])
        torch.autograd.backward([y], grad_tensors=[torch.ones(2), torch.ones(2)], retain_graph=True)
        y.backward(gradient=(torch.ones(2),), retain_graph=True)
        print(x.grad)
        with expect(): (x * 2).sum().backward(inputs=[torch.tensor(2.)])
        with expect(): torch.autograd.grad(torch.tensor(2.) * 2, torch.tensor(2.))
    """,
    "a-leaf-that-stopped-requiring-grad-gets-no-grad": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 2
        x.requires_grad_(False)
        y.backward()
        print(x.grad, x.requires_grad)
    """,
    "a-hook-must-return-a-tensor-or-none": """
        x = torch.tensor([1., 2.], requires_grad=True)
        x.register_hook(lambda g: 5)
        with expect(): (x * 2).sum().backward()
        h = torch.tensor([1., 2.], requires_grad=True) * 1
        h.register_hook(lambda g: [1, 2])
        with expect(): (h * 2).sum().backward()
    """,
    "a-retained-grad-under-create-graph-is-a-clone": """
        x = torch.tensor(2., requires_grad=True)
        y = x * x
        y.retain_grad()
        (y * y).backward(create_graph=True)
        print(y.grad, x.grad)
    """,
    "non-scalar-needs-gradient": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        with expect(): y.backward()
        z = torch.tensor([3.], requires_grad=True) * 2
        z.backward()
        print(z.grad_fn.next_functions[0][0].variable.grad)
        w = torch.ones(1, 1, requires_grad=True)
        (w * 3).backward()
        print(w.grad)
    """,
    "gradient-argument": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * x
        y.backward(gradient=torch.tensor([1., 10.]))
        print(x.grad)
        s = (x * 3).sum()
        s.backward(torch.tensor(2.))
        print(x.grad)
        m = torch.ones(2, 2, requires_grad=True)
        (m * 2).backward(torch.tensor([[1., 2.], [3., 4.]]))
        print(m.grad)
    """,
    "gradient-wrong-shape": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        with expect(): y.backward(torch.tensor([1., 2., 3.]))
        with expect(): y.backward(torch.tensor(1.))
        with expect(): y.backward(torch.ones(2, 1))
        s = x.sum()
        with expect(): s.backward(torch.ones(1))
        print(x.grad)
    """,
    "backward-untracked": """
        u = torch.tensor(2.)
        with expect(): u.backward()
        with expect(): (u * 3).backward()
        x = torch.tensor(2., requires_grad=True)
        with torch.no_grad():
            y = x * 3
        with expect(): y.backward()
        with expect(): torch.autograd.backward([x * 2, u])
    """,
    "backward-on-leaf": """
        x = torch.tensor(2., requires_grad=True)
        x.backward()
        print(x.grad)
        x.backward(torch.tensor(5.))
        print(x.grad)
        v = torch.tensor([1., 2.], requires_grad=True)
        v.backward(torch.tensor([3., 4.]))
        print(v.grad)
    """,
    "backward-inputs": """
        a = torch.tensor(2., requires_grad=True)
        b = torch.tensor(3., requires_grad=True)
        y = a * b
        y.backward(inputs=[a], retain_graph=True)
        print(a.grad, b.grad)
        y.backward(inputs=[b], retain_graph=True)
        print(a.grad, b.grad)
        y.backward(inputs=(a, b))
        print(a.grad, b.grad)
    """,
    "backward-inputs-non-leaf": """
        x = torch.tensor(2., requires_grad=True)
        h = x * 3
        y = h * h
        y.backward(inputs=[h], retain_graph=True)
        print(h.grad, x.grad, h.retains_grad)
        y.backward(inputs=[h, x])
        print(h.grad, x.grad)
    """,
    "backward-inputs-tensor-and-errors": """
        a = torch.tensor(2., requires_grad=True)
        b = torch.tensor(3., requires_grad=True)
        y = a * b
        y.backward(inputs=a, retain_graph=True)
        print(a.grad, b.grad)
        with expect(): y.backward(inputs=[], retain_graph=True)
        y.backward(inputs=[b])
        print(a.grad, b.grad)
    """,
    "autograd-backward-several-roots": """
        a = torch.tensor(2., requires_grad=True)
        torch.autograd.backward([a * 2, a * 3])
        print(a.grad)
        torch.autograd.backward([a * 2, a * 3], grad_tensors=[torch.tensor(1.), torch.tensor(10.)])
        print(a.grad)
        torch.autograd.backward(a * a)
        print(a.grad)
        torch.autograd.backward((a * 4,), (torch.tensor(0.5),))
        print(a.grad)
        with expect(): torch.autograd.backward([a * 2, a * 3], grad_tensors=[torch.tensor(1.)])
    """,
    "autograd-backward-shared-graph": """
        x = torch.tensor([1., 2.], requires_grad=True)
        h = x.exp()
        y1 = h.sum()
        y2 = (h * 2).sum()
        torch.autograd.backward([y1, y2])
        print(x.grad)
        with expect(): y1.backward()
    """,
    "backward-returns-none-and-in-no-grad": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 2
        with torch.no_grad():
            print(y.backward())
        print(x.grad, torch.is_grad_enabled())
    """,
    # ---------------------------------------------------------------- second backward
    "x-cubed-twice": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 3
        y.backward()
        print(x.grad)
        with expect(): y.backward()
        print(x.grad)
    """,
    "retain-then-default-then-error": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 3
        y.backward(retain_graph=True)
        print(x.grad)
        y.backward()
        print(x.grad)
        with expect(): y.backward()
        print(x.grad)
    """,
    "second-backward-table": """
        for label, f in [("x + 1", lambda x: x + 1), ("x + x", lambda x: x + x), ("x.sum()", lambda x: x.sum()),
                         ("x * 2", lambda x: x * 2), ("x * x", lambda x: x * x), ("x / 2", lambda x: x / 2),
                         ("(x * 2).sum()", lambda x: (x * 2).sum()), ("-x", lambda x: -x), ("1 - x", lambda x: 1 - x),
                         ("x - 3", lambda x: x - 3), ("x.exp()", lambda x: x.exp()), ("x.clone()", lambda x: x.clone())]:
            x = torch.tensor(3., requires_grad=True)
            y = f(x)
            y.backward()
            g1 = x.grad.item()
            try:
                y.backward()
                print(f"{label:14} first grad {g1}, second backward OK, grad now {x.grad.item()}")
            except RuntimeError as e:
                print(f"{label:14} first grad {g1}, second backward -> RuntimeError, grad stays {x.grad.item()}")
    """,
    "saved-values": """
        x = torch.tensor([1., 2.], requires_grad=True)
        w = torch.tensor([3., 4.], requires_grad=True)
        y = x * 2
        print(repr(y.grad_fn._saved_other), repr(y.grad_fn._saved_self))
        z = x * w
        print(repr(z.grad_fn._saved_self), repr(z.grad_fn._saved_other))
        e = x.exp()
        print(repr(e.grad_fn._saved_result), e.grad_fn._saved_result.equal(e))
        p = x ** 3
        print(repr(p.grad_fn._saved_self), repr(p.grad_fn._saved_exponent))
        a = x + 1
        print(repr(a.grad_fn._saved_alpha))
        print(repr((x - w).grad_fn._saved_alpha), repr((1 - x).grad_fn._saved_alpha), repr(x.add(w, alpha=3).grad_fn._saved_alpha))
        print(repr((2 ** x).grad_fn._saved_self), repr((x ** w).grad_fn._saved_exponent), repr((x / 2).grad_fn._saved_other))
        print(repr((x * 2.5).grad_fn._saved_other), repr((x * True).grad_fn._saved_other))
    """,
    "saved-freed-access": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * x
        s = y.sum()
        s.backward()
        with expect(): y.grad_fn._saved_self
        with expect(): y.grad_fn._saved_other
        print(s.grad_fn._saved_self_sym_sizes)
        e = x.exp(); e.sum().backward()
        with expect(): e.grad_fn._saved_result
        with expect(): e.grad_fn._saved_nothing
        t = x * 2
        t.sum().backward()
        with expect(): t.grad_fn._saved_other
        print(t.grad_fn._saved_self)
    """,
    "retain-keeps-saved": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * x
        y.sum().backward(retain_graph=True)
        print(y.grad_fn._saved_self)
        y.sum().backward()
        with expect(): print(y.grad_fn._saved_self)
    """,
    "two-losses-shared-subgraph": """
        x = torch.tensor(2., requires_grad=True)
        h = x * x
        l1 = h + 1
        l2 = h * 3
        l1.backward()
        print(x.grad)
        with expect(): l2.backward()
        print(x.grad)
    """,
    "partial-accumulation": """
        a = torch.tensor(2., requires_grad=True)
        b = torch.tensor(5., requires_grad=True)
        y = a * a + b
        y.backward()
        print(a.grad, b.grad)
        with expect(): y.backward()
        print(a.grad, b.grad)
        with expect(): y.backward()
        print(a.grad, b.grad)
    """,
    "partial-accumulation-deeper": """
        a = torch.tensor(2., requires_grad=True)
        b = torch.tensor(5., requires_grad=True)
        c = torch.tensor(1., requires_grad=True)
        y = (a + c) * b + c.exp() + a
        y.backward()
        print(a.grad, b.grad, c.grad)
        with expect(): y.backward()
        print(a.grad, b.grad, c.grad)
    """,
    "create-graph-implies-retain": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 3
        y.backward(create_graph=True)
        print(x.grad)
        y.backward()
        print(x.grad)
        with expect(): y.backward()
    """,
    "grad-frees-graph": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 3
        print(torch.autograd.grad(y, x))
        with expect(): torch.autograd.grad(y, x)
        with expect(): y.backward()
        z = x ** 3
        print(torch.autograd.grad(z, x, retain_graph=True), torch.autograd.grad(z, x))
    """,
    # ---------------------------------------------------------------- autograd.grad
    "grad-basic": """
        x = torch.tensor(2., requires_grad=True)
        w = torch.tensor(3., requires_grad=True)
        y = x * w + x
        g = torch.autograd.grad(y, [x, w])
        print(g, type(g).__name__)
        print(x.grad, w.grad)
        print(torch.autograd.grad((x * w), x))
        print(torch.autograd.grad(outputs=[x * w], inputs=[w]))
        print(torch.autograd.grad(x * w, (w, x)))
    """,
    "grad-non-scalar": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * x
        with expect(): torch.autograd.grad(y, x)
        print(torch.autograd.grad(y, x, grad_outputs=torch.ones(2), retain_graph=True))
        print(torch.autograd.grad(y, x, torch.tensor([1., 10.]), retain_graph=True))
        print(torch.autograd.grad([y.sum(), y[0]], x))
        with expect(): torch.autograd.grad(x * 2, x, grad_outputs=torch.ones(3))
    """,
    "grad-unused": """
        x = torch.tensor(2., requires_grad=True)
        z = torch.tensor(5., requires_grad=True)
        with expect(): torch.autograd.grad(x * 3, [x, z])
        print(torch.autograd.grad(x * 3, [x, z], allow_unused=True))
        print(torch.autograd.grad(x * 3, [x, z], materialize_grads=True))
        print(torch.autograd.grad(x * 3, [z, x], allow_unused=True, materialize_grads=True))
        v = torch.ones(2, 2, requires_grad=True)
        print(torch.autograd.grad(x * 3, [v], materialize_grads=True))
    """,
    "grad-errors": """
        x = torch.tensor(2., requires_grad=True)
        u = torch.tensor(2.)
        with expect(): torch.autograd.grad(x * u, [u])
        with expect(): torch.autograd.grad(u * 2, [x])
        with expect(): torch.autograd.grad(x * 2, [x, 3])
        with expect(): torch.autograd.grad(x * 2, [x], allow_unused=False, materialize_grads=False)
        print("ok")
    """,
    "grad-non-leaf-input": """
        x = torch.tensor(2., requires_grad=True)
        h = x * 3
        y = h * h
        print(torch.autograd.grad(y, h, retain_graph=True))
        print(torch.autograd.grad(y, [h, x]))
        print(x.grad, h.retains_grad)
    """,
    "grad-does-not-run-hooks-of-others": """
        x = torch.tensor(2., requires_grad=True)
        w = torch.tensor(3., requires_grad=True)
        x.register_hook(lambda g: print("x hook", g))
        w.register_hook(lambda g: print("w hook", g))
        y = x * w
        print(torch.autograd.grad(y, [x]))
        print(x.grad, w.grad)
    """,
    "grad-input-leaf-hook-sees-grad": """
        x = torch.tensor(2., requires_grad=True)
        x.register_hook(lambda g: g * 10)
        print(torch.autograd.grad(x * x, x))
        h = x * 3
        h.register_hook(lambda g: g + 1)
        print(torch.autograd.grad(h * 2, h, retain_graph=True), torch.autograd.grad(h * 2, x))
    """,
    # ---------------------------------------------------------------- higher order
    "double-backward-x-cubed": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 3
        (g,) = torch.autograd.grad(y, x, create_graph=True)
        print(g, g.requires_grad, g.is_leaf)
        (g2,) = torch.autograd.grad(g, x, create_graph=True)
        print(g2)
        (g3,) = torch.autograd.grad(g2, x)
        print(g3)
    """,
    "double-backward-via-backward": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 3
        y.backward(create_graph=True)
        print(x.grad)
        g = x.grad
        x.grad = None
        g.backward()
        print(x.grad)
    """,
    "create-graph-accumulates": """
        x = torch.tensor(2., requires_grad=True)
        (x ** 2).backward(create_graph=True)
        print(x.grad)
        (x ** 2).backward(create_graph=True)
        print(x.grad)
        (x * 5).backward()
        print(x.grad)
    """,
    "without-create-graph-constant": """
        x = torch.tensor(2., requires_grad=True)
        (g,) = torch.autograd.grad(x ** 3, x)
        print(g, g.requires_grad)
        with expect(): torch.autograd.grad(g, x)
    """,
    "higher-order-elementwise": """
        x = torch.tensor([0.5, 1.5], requires_grad=True)
        for name, f in [("exp", torch.exp), ("tanh", torch.tanh), ("sigmoid", torch.sigmoid), ("log", torch.log),
                        ("sqrt", torch.sqrt), ("sin", torch.sin), ("cos", torch.cos), ("recip", torch.reciprocal),
                        ("pow3", lambda t: t ** 3), ("div", lambda t: 1 / t), ("mul", lambda t: t * t * t),
                        ("2**x", lambda t: 2 ** t), ("x**x", lambda t: t ** t), ("softmax", lambda t: torch.softmax(t, 0)),
                        ("log_softmax", lambda t: torch.log_softmax(t, 0)), ("mean", lambda t: (t * t).mean()),
                        ("sub", lambda t: (1 - t) * (t - 2)), ("neg", lambda t: -t * t)]:
            y = f(x).sum()
            (g,) = torch.autograd.grad(y, x, create_graph=True)
            (h,) = torch.autograd.grad(g.sum(), x)
            val(g, h)
            print(name, type(g.grad_fn).__name__ if g.grad_fn is not None else None)
    """,
    "higher-order-matmul-and-broadcast": """
        A = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        v = torch.tensor([1., -1.], requires_grad=True)
        y = ((A @ v) ** 2).sum() + (A * v).sum() + (v @ v) * 2
        gA, gv = torch.autograd.grad(y, [A, v], create_graph=True)
        print(gA, gv)
        hv = torch.autograd.grad((gv * torch.tensor([1., 2.])).sum(), v, retain_graph=True)
        print(hv)
        print(torch.autograd.grad(gA.sum(), [A, v], allow_unused=True))
    """,
    "hessian-vector-product": """
        w = torch.tensor([1., 2., 3.], requires_grad=True)
        loss = (w ** 2).sum() * w.sum()
        (g,) = torch.autograd.grad(loss, w, create_graph=True)
        (hvp,) = torch.autograd.grad(g @ torch.tensor([1., 0., 0.]), w)
        print(g, hvp)
    """,
    "create-graph-with-grad-outputs": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x ** 2
        (g,) = torch.autograd.grad(y, x, grad_outputs=torch.ones(2), create_graph=True)
        print(g)
        graph(g)
        g.sum().backward()
        print(x.grad)
    """,
    "create-graph-on-sum-and-mean": """
        x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = (x ** 3).sum(0).mean()
        (g,) = torch.autograd.grad(y, x, create_graph=True)
        print(g)
        g.sum().backward()
        print(x.grad)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_backward(conform, name):
    conform(CASES[name])


NONE_ALONG_ONE_PATH = """
class NoGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return None
x = torch.ones(2, requires_grad=True)
(NoGrad.apply(x) + x * 3).sum().backward(); print(x.grad)
x.grad = None
y = x * 1
(NoGrad.apply(y) + y * 3).sum().backward(); print(x.grad)
x.grad = None
NoGrad.apply(x * 1).sum().backward(); print(x.grad)
A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
(torch.linalg.slogdet(-A).logabsdet * torch.linalg.slogdet(-A).sign).backward(); print(A.grad)
print(torch.autograd.grad(NoGrad.apply(x * 1).sum() + (x * 5).sum(), x))
"""


def test_a_none_gradient_along_one_path_leaves_the_others(conform):
    """A backward that returns None for an input still counts as arrived: the node below runs on what the other
    paths sent (before, it waited for the None forever and got no gradient at all)."""
    conform(NONE_ALONG_ONE_PATH)
