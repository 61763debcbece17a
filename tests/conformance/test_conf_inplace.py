"""In-place operations and the version counter (section 11 of the reference)."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "in-place-through-an-element-writes-the-tensor": """
        x = torch.tensor([1.0, 2.0, 3.0])
        x[1].fill_(9.0)
        x[0].add_(1)
        m = torch.tensor([[1., 2.], [3., 4.]])
        m[0, 1].fill_(7)
        m[1][0].mul_(2)
        print(x, x._version, m, m._version)
        w = torch.tensor([1., 2.], requires_grad=True)
        with torch.no_grad():
            w[0].mul_(10)
        w.data[1].fill_(0)
        print(w, w._version)
    """,
    "in-place-on-leaf-raises": """
        x = torch.tensor([1., 2.], requires_grad=True)
        with expect(): x.add_(1)
        with expect(): x += 1
        with expect(): x[0] = 5.
        with expect(): x.zero_()
        with expect(): x.mul_(2)
        with expect(): x[0].mul_(2)
        with expect(): x.sub_(1)
        with expect(): x.div_(2)
        with expect(): x.fill_(1)
        with expect(): x.copy_(torch.ones(2))
        with expect(): x.clamp_(0, 1)
        with expect(): x -= 1
        with expect(): x *= 2
        with expect(): x /= 2
        print(x, x._version)
        with torch.no_grad():
            x.add_(1)
        print(x, x.is_leaf, x.grad_fn, x._version)
    """,
    "in-place-on-non-leaf-replaces-grad-fn": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        print(y._version, y.grad_fn)
        y.add_(1)
        print(y._version, y.grad_fn, y.grad_fn.next_functions)
        y.mul_(3)
        print(y._version, y.grad_fn)
        y[0] = 0.
        print(y._version, y.grad_fn)
        y.exp_()
        print(y._version, y.grad_fn)
        y.sum().backward()
        print(x.grad)
    """,
    "in-place-node-names": """
        x = torch.tensor([1., 2.], requires_grad=True)
        for name in ["add_(1)", "sub_(1)", "mul_(2)", "div_(2)", "zero_()", "fill_(3.)", "clamp_(0, 1)",
                     "copy_(torch.tensor([5., 6.]))", "neg_()", "exp_()", "add_(x)", "mul_(x)", "sub_(x, alpha=2)",
                     "add_(x, alpha=3)", "clamp_(min=1.5)", "copy_(x * 3)", "fill_(torch.tensor(2.))"]:
            y = x * 1
            r = eval("y." + name)
            print(f"{name:30}", r is y, y, y._version, type(y.grad_fn).__name__)
            graph(y)
            y.sum().backward()
            print(x.grad)
            x.grad = None
    """,
    "in-place-untracked": """
        t = torch.tensor([1., 2., 3.])
        print(t.add_(1), t.mul_(2), t.sub_(1), t.div_(2), t._version)
        print(t.zero_(), t.fill_(7), t.copy_(torch.tensor([1., 2., 3.])), t.clamp_(1.5, 2.5), t._version)
        t[0] = 10.
        t[1:] = torch.tensor([20., 30.])
        t[t > 15] = 0.
        print(t, t._version)
        i = torch.tensor([1, 2])
        i += 1
        print(i, i._version)
        with expect(): i.add_(1.5)
        with expect(): t.add_(torch.ones(2))
        with expect(): t.mul_(torch.ones(2, 3))
    """,
    "saved-tensor-modified": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x.exp()
        y.add_(1)
        with expect(): y.sum().backward()
        a = torch.tensor([1., 2.], requires_grad=True)
        b = a * 1
        c = b * b
        b.mul_(2)
        with expect(): c.sum().backward()
    """,
    "saved-tensor-modified-other-ops": """
        for build in ["h.tanh()", "h.sigmoid()", "h.log()", "h ** 2", "h / h.detach()", "h @ h", "h.sqrt()",
                      "h.relu()", "torch.softmax(h, 0)", "h.max()", "h[[0, 1]]"]:
            x = torch.tensor([1., 2.], requires_grad=True)
            h = x * 1
            y = eval(build)
            h.add_(1)
            with expect():
                y.sum().backward()
    """,
    "saved-result-modified": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x.tanh()
        y.mul_(2)
        with expect(): y.sum().backward()
        z = x.sigmoid()
        z.data.mul_(2)
        z.sum().backward()
        print(x.grad)
    """,
    "unsaved-modified-is-fine": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x + 1
        y.mul_(3)
        y.sum().backward()
        print(x.grad)
        z = x * 2
        w = z + 1
        z.add_(5)
        w.sum().backward()
        print(x.grad)
    """,
    "view-of-leaf-and-iadd-non-leaf": """
        x = torch.tensor([1., 2.], requires_grad=True)
        v = x[0:1]
        with expect(): v.add_(1)
        y = x * 1
        y += 1
        print(y.grad_fn)
        y *= 3
        print(y.grad_fn, y)
        y.sum().backward()
        print(x.grad)
    """,
    "index-assignment-with-grad": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        w = torch.tensor(5., requires_grad=True)
        y = x * 2
        y[1] = w * 3
        print(y, y.grad_fn, y._version)
        graph(y)
        y.sum().backward()
        print(x.grad, w.grad)
    """,
    "index-assignment-variants": """
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        y = x * 1
        y[0] = 0.
        y[1:3] = torch.tensor([7., 8.])
        y[[3]] = 9.
        print(y, y._version, y.grad_fn)
        (y * torch.tensor([1., 2., 3., 4.])).sum().backward()
        print(x.grad)
        m = torch.ones(2, 3, requires_grad=True) * 1
        m[:, 1] = torch.tensor([5., 6.])
        m[m > 5] = -1.
        print(m)
    """,
    "version-counter": """
        x = torch.tensor([1., 2.])
        print(x._version)
        x.add_(1); x.mul_(2); x[0] = 1.
        print(x._version)
        y = x.detach()
        y.add_(1)
        print(x._version, y._version)
        z = x[0:1]
        z.mul_(3)
        print(x, x._version, z._version)
        x.data.add_(1)
        print(x._version)
        w = x + 1
        print(w._version)
    """,
    "in-place-through-view-of-non-leaf": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = x * 2
        y.detach()[0] = 100.
        print(y)
        y.sum().backward()
        print(x.grad)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_inplace(conform, name):
    conform(CASES[name])
