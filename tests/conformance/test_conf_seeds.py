"""The seed lessons' programs (section 16 of the reference) and a few lesson-sized programs around them."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "a-d=a*b+a": """
        a = torch.tensor(3., requires_grad=True)
        b = torch.tensor(4., requires_grad=True)
        c = a * b
        d = c + a
        print(c, d)
        d.backward()
        print(a.grad, b.grad)
        print(type(c.grad_fn).__name__, type(d.grad_fn).__name__)
    """,
    "b-loss=(w*x+b)**2": """
        x = torch.tensor(2., requires_grad=True)
        w = torch.tensor(3., requires_grad=True)
        b = torch.tensor(1., requires_grad=True)
        z = w * x
        y = z + b
        loss = y ** 2
        print(z, y, loss)
        loss.backward()
        print(x.grad, w.grad, b.grad)
        print(z.grad_fn.name(), y.grad_fn.name(), loss.grad_fn.name())
    """,
    "c-x**3-retain-graph": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 3
        y.backward(retain_graph=True)
        print(x.grad)
        y.backward()
        print(x.grad)
    """,
    "d-requires-grad-later": """
        a = torch.ones(2, 2)
        print(a.requires_grad)
        a.requires_grad_(True)
        b = (a * 3).sum()
        print(b, b.grad_fn, type(b.grad_fn).__name__)
        b.backward()
        print(a.grad)
    """,
    "e-vector": """
        x = torch.tensor([2., 3.], requires_grad=True)
        print(x, x.shape, x.is_leaf, x.grad_fn, x.grad)
        y = (x ** 2).sum()
        print(y)
        y.backward()
        print(x.grad)
        print(x.tolist(), x.grad.tolist())
    """,
    "lesson-walk-the-graph": """
        a = torch.tensor(3., requires_grad=True)
        b = torch.tensor(4., requires_grad=True)
        d = a * b + a
        node = d.grad_fn
        print(node, node.name())
        for child, nr in node.next_functions:
            print(" ", child.name(), nr, getattr(child, "variable", None))
            for grandchild, nr2 in child.next_functions:
                print("   ", grandchild.name(), nr2, grandchild.variable)
    """,
    "lesson-retain-graph-error-on-purpose": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 3
        y.backward()
        print("first:", x.grad)
        try:
            y.backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
        print("after:", x.grad)
        x.grad = None
        y = x ** 3
        y.backward(retain_graph=True)
        y.backward()
        print("with retain_graph:", x.grad)
    """,
    "lesson-linear-regression": """
        xs = torch.tensor([1., 2., 3., 4.])
        ys = torch.tensor([3., 5., 7., 9.])
        w = torch.tensor(0., requires_grad=True)
        b = torch.tensor(0., requires_grad=True)
        for step in range(5):
            pred = w * xs + b
            loss = ((pred - ys) ** 2).mean()
            loss.backward()
            print(step, f"{loss.item():.4f}", w.grad, b.grad)
            with torch.no_grad():
                w -= 0.05 * w.grad
                b -= 0.05 * b.grad
            w.grad.zero_()
            b.grad.zero_()
        print(w, b)
    """,
    "lesson-tiny-mlp": """
        X = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
        Y = torch.tensor([[0.], [1.], [1.], [0.]])
        W1 = torch.tensor([[0.5, -0.4, 0.3], [0.2, 0.6, -0.7]], requires_grad=True)
        b1 = torch.tensor([0.1, -0.1, 0.05], requires_grad=True)
        W2 = torch.tensor([[0.3], [-0.2], [0.4]], requires_grad=True)
        b2 = torch.tensor([0.02], requires_grad=True)
        for step in range(3):
            h = torch.tanh(X @ W1 + b1)
            out = torch.sigmoid(h @ W2 + b2)
            loss = ((out - Y) ** 2).mean()
            loss.backward()
            print(step, loss, loss.grad_fn)
            with torch.no_grad():
                for p in (W1, b1, W2, b2):
                    p -= 0.5 * p.grad
                    p.grad = None
        val(W1, b1, W2, b2)
        print(h.grad_fn, out.grad_fn, out.grad_fn.next_functions)
    """,
    "lesson-softmax-cross-entropy-by-hand": """
        logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, -1.0]], requires_grad=True)
        target = torch.tensor([0, 1])
        logp = torch.log_softmax(logits, dim=1)
        loss = -logp[torch.arange(2), target].mean()
        print(loss)
        loss.backward()
        print(logits.grad)
        graph(loss)
    """,
    "lesson-chain-rule-by-hand": """
        x = torch.tensor(0.5, requires_grad=True)
        u = x ** 2
        v = torch.sin(u)
        y = torch.exp(v)
        y.backward()
        manual = torch.exp(torch.sin(x.detach() ** 2)) * torch.cos(x.detach() ** 2) * 2 * x.detach()
        print(x.grad, manual, torch.allclose(x.grad, manual))
        print(f"{x.grad.item():.6f}")
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_seed(conform, name):
    conform(CASES[name])
