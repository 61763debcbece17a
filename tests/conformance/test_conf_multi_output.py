"""Operations with several outputs (split, chunk, unbind, iterating a tensor): one node, one output_nr each."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "split-chunk-unbind-nodes": """
        x = torch.arange(6.).reshape(2, 3).requires_grad_()
        a, b = x.split(2, dim=1)
        print(a, b, a.grad_fn is b.grad_fn, a.output_nr, b.output_nr, a.is_leaf, a.requires_grad)
        print([k for k in dir(a.grad_fn) if k.startswith('_saved')], a.grad_fn._saved_split_size,
              a.grad_fn._saved_dim, a.grad_fn._saved_self_sym_sizes)
        c = x.split([1, 2], 1)
        print(c, [k for k in dir(c[0].grad_fn) if k.startswith('_saved')], c[0].grad_fn._saved_split_sizes)
        u = x.unbind(1)
        print(u, [k for k in dir(u[0].grad_fn) if k.startswith('_saved')], u[0].grad_fn._saved_dim)
        print(x.chunk(2, 1), torch.split(x, 1), torch.chunk(x, 3, 1)[2], torch.unbind(x)[0], list(x)[1])
        graph((b * 2).sum())
        print(x.split(5), torch.zeros(0).split(2), torch.zeros(0, 3).chunk(2), torch.ones(5).chunk(3))
    """,
    "gradients-of-pieces": """
        x = torch.arange(6.).reshape(2, 3).requires_grad_()
        a, b = x.split(2, dim=1)
        (b * 2).sum().backward()
        print(x.grad)
        x.grad = None
        m, n = x.split(1)
        (m.sum() * 3 + (m * n).sum()).backward()
        print(x.grad)
        print(torch.autograd.grad(x.split(1)[1].sum(), x))
        rows = [r.sum() * (i + 1) for i, r in enumerate(x)]
        graph(rows[1])
        x.grad = None
        sum(rows).backward()
        print(x.grad)
        w = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        k1, k2 = w.split(2)
        k2.backward(torch.ones(2))
        print(w.grad, torch.autograd.grad(k2.sum(), [k1, k2], allow_unused=True))
    """,
    "hooks-retain-grad-and-double-backward": """
        x = torch.arange(6.).reshape(2, 3).requires_grad_()
        p0, p1, p2 = x.unbind(1)
        p1.retain_grad()
        p2.register_hook(lambda g: g * 10)
        (p0 * p1 + p2).sum().backward()
        print(x.grad, p1.grad, p0.grad)
        w = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        h1, h2 = w.chunk(2)
        gw, = torch.autograd.grad((h1 ** 2).sum() + (h2 ** 3).sum(), w, create_graph=True)
        print(gw)
        gw.sum().backward()
        print(w.grad)
    """,
    "errors-and-views": """
        x = torch.arange(6.).reshape(2, 3).requires_grad_()
        a, b = x.split(2, dim=1)
        with expect(): x.split(0)
        with expect(): x.chunk(0)
        with expect(): x.chunk(-1)
        with expect(): x.split([1, 1], 1)
        with expect(): x.split([2, -1], 1)
        with expect(): torch.tensor(1.).unbind()
        with expect(): x.unbind(2)
        with expect(): x.split(1, 2)
        with expect(): a.mul_(2)
        with expect(): x.unbind()[1].zero_()
        with expect(): iter(torch.tensor(1.))
        t = torch.arange(6.)
        p, q = t.split(3)
        p.mul_(10)
        print(t, p._version, t._version)
        with torch.no_grad():
            r, s = x.split([1, 2], 1)
            s.zero_()
        print(x)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_multi_output(conform, name):
    conform(CASES[name])
