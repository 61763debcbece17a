"""What torch's argument parser gives every built-in function, run in torch and in autograd_tutor: NumPy's names
(``axis=``, ``keepdims=``, ``x1=``...) and ``out=`` (the result written into a given tensor, resized with torch's
warning, cast by its rules, refused while an argument requires grad)."""
import pytest

pytest.importorskip("torch")

NUMPY_NAMES = {
    "axis-and-keepdims": """
        t = torch.arange(12.).reshape(3, 4)
        print(t.sum(axis=0), t.mean(axis=1, keepdims=True), torch.sum(t, axis=1, keepdims=True))
        print(torch.cumsum(t, axis=0), t.max(axis=1), torch.argmax(t, axis=1), t.std(axis=0, keepdims=True))
        print(t.softmax(axis=0), torch.logsumexp(t, axis=0), t.mean(axis=(0, 1)))
        print(torch.cat([t, t], axis=0).shape, torch.stack([t, t], axis=1).shape, t.unsqueeze(axis=0).shape)
        print(t.squeeze(axis=0).shape, t.cumprod(axis=1)[0], t.amax(axis=0), t.any(axis=0))
    """,
    "input-names": """
        t = torch.arange(6.).reshape(2, 3)
        print(torch.sum(x=t), torch.sum(a=t), torch.add(x1=t, x2=t), torch.add(t, x2=t), torch.exp(x=t)[0])
    """,
    "gradients-flow-as-with-dim": """
        x = torch.arange(6., requires_grad=True)
        y = x.reshape(2, 3).sum(axis=1, keepdims=True)
        graph(y)
        y.sum().backward()
        print(y, x.grad)
    """,
    "numpy-names-on-more-functions": """
        t = torch.arange(12.).reshape(3, 4)
        print(t.size(axis=0), t.size(dim=1), t.kthvalue(2, axis=1), t.mode(axis=1).indices)
        print(t.cummax(axis=1).indices[0], t.cummin(axis=0).values[0], t.nansum(axis=0), t.nanmean(axis=0))
        print(t.logcumsumexp(axis=1)[0], t.aminmax(axis=0), torch.kthvalue(t, 1, axis=0).values)
        print(torch.cummax(t, axis=0).indices[1], torch.mode(t, axis=0).values, torch.nansum(t, axis=1, keepdims=True))
        with expect(): t.size(0, axis=0)
        with expect(): t.unflatten(axis=1, sizes=(2, 2))
        with expect(): t.flip(dims=0)
        print(t.flip(0)[0], t.flip(dims=(0,))[0], t.flip(dims=[0, 1])[0])
    """,
    "numpy-style-function-names": """
        # torch's own aliases of NumPy's names: each the same operation, the same node
        t = torch.arange(12., requires_grad=True).reshape(3, 4)
        for r in [t.swapaxes(0, 1), t.swapdims(0, 1), torch.swapaxes(t, 0, 1), torch.swapdims(t, 1, 0),
                  torch.concatenate([t, t], axis=0), torch.concatenate([t, t], 1), t.multiply(2), torch.multiply(t, t),
                  t.divide(2), torch.divide(t, t + 1), torch.true_divide(t, 2), t.subtract(1), torch.subtract(t, t, alpha=2),
                  t.negative(), torch.negative(t), t.absolute(), torch.absolute(t), t.ravel(), torch.ravel(t.T),
                  t.fliplr(), torch.flipud(t), torch.narrow(t, 0, 1, 2), torch.select(t, 1, 2), t.moveaxis(0, 1),
                  torch.moveaxis(t, 1, 0)]:
            print(r.shape, r.grad_fn.name(), r.sum().item())
        for r in [t.greater(2), torch.greater_equal(t, 2), t.less(3), torch.less_equal(t, 3), t.not_equal(4),
                  torch.not_equal(t, t), t.argwhere()[:3], torch.argwhere(t > 8), t.count_nonzero(), t.count_nonzero(0),
                  torch.count_nonzero(t, dim=(0, 1)), torch.count_nonzero(t, axis=1)]:
            print(r)
        print(torch.multiply(t.detach(), 2, out=torch.empty(3, 4))[0], torch.greater(t.detach(), 5, out=torch.empty(0, dtype=torch.bool))[1])
        with expect(): torch.ones(3).fliplr()
        with expect(): torch.tensor(1.).flipud()
        graph(torch.ravel(t.T))
    """,
    "round-to-decimals-and-constants": """
        x = torch.tensor([0.12345, -2.5, 1234.5678, 0.5, 1.5, 2.675, -0.05], requires_grad=True)
        for d in (0, 1, 2, 3, -1, -2):
            r = x.round(decimals=d)
            print(d, r, r.grad_fn.name())
        print(torch.round(x.detach(), decimals=1), x.double().round(decimals=3), x.round().grad_fn.name())
        x.round(decimals=1).sum().backward()
        print(x.grad)
        with expect(): torch.tensor([1, 2]).round(decimals=1)
        with expect(): x.round(2)
        print(torch.pi, torch.e, torch.inf, torch.nan, type(torch.pi).__name__, torch.tensor(torch.pi))
    """,
    "refused": """
        t = torch.arange(6.).reshape(2, 3)
        with expect(): t.sum(dim=0, axis=0)
        with expect(): t.sum(0, axis=0)
        with expect(): t.norm(dim=0, keepdims=True)
        with expect(): torch.nn.functional.softmax(t, axis=0)
    """,
}

OUT = {
    "written-into-out": """
        a = torch.ones(2, 3)
        b = torch.full((2, 3), 2.)
        c = torch.empty(2, 3)
        print(torch.add(a, b, out=c) is c, c, c._version)
        torch.mul(a, b, out=c); print(c)
        torch.add(a, b, alpha=2, out=c); print(c)
        torch.div(a, b, out=c); print(c)
        torch.sub(a, 3, out=c); print(c)
        m = torch.empty(2, 2)
        torch.matmul(a, b.T, out=m); print(m)
        torch.mm(a, b.T, out=m); print(m)
        print(torch.exp(a, out=torch.empty(2, 3)), torch.sum(a, 0, out=torch.empty(3)))
        print(torch.cat([a, b], out=torch.empty(4, 3)), torch.stack([a, b], out=torch.empty(2, 2, 3)).shape)
        print(torch.pow(a, 2, out=torch.empty(2, 3)), torch.where(a > 0, a, b, out=torch.empty(2, 3)))
        print(torch.clamp(b, 0, 1, out=torch.empty(2, 3)), torch.argmax(b, 1, out=torch.empty(2, dtype=torch.long)))
        print(torch.mean(a, 0, out=torch.empty(3)), torch.cumsum(a, 0, out=torch.empty(2, 3)))
        torch.add(a, b, out=a); print(a)
    """,
    "resized-with-a-warning": """
        a = torch.ones(2, 3)
        d = torch.empty(2, 2)
        print(torch.add(a, a, out=d), d.shape)
        e = torch.empty(0)
        print(torch.add(a, a, out=e).shape)
        print(torch.mm(a, a.T, out=torch.empty(3, 3)))
    """,
    "dtypes": """
        a = torch.ones(2, 3)
        print(torch.add(a.long(), a.long(), out=torch.empty(2, 3)))
        print(torch.add(a, a, out=torch.empty(2, 3, dtype=torch.float64)))
        print(torch.exp(a.long(), out=torch.empty(2, 3)))
        with expect(): torch.add(a, a, out=torch.empty(2, 3, dtype=torch.long))
        with expect(): torch.exp(a.long(), out=torch.empty(2, 3, dtype=torch.long))
        with expect(): torch.mean(a, 0, out=torch.empty(3, dtype=torch.long))
        with expect(): torch.matmul(a, a.T, out=torch.empty(2, 2, dtype=torch.float64))
        with expect(): torch.mm(a, a.T, out=torch.empty(2, 2, dtype=torch.float64))
        with expect(): torch.cat([a, a], out=torch.empty(4, 3, dtype=torch.long))
        with expect(): torch.stack([a, a], out=torch.empty(2, 2, 3, dtype=torch.long))
        with expect(): torch.add(a, a, out=[1])
    """,
    "no-autograd": """
        g = torch.ones(2, 3, requires_grad=True)
        b = torch.ones(2, 3)
        with expect(): torch.add(g, b, out=torch.empty(2, 3))
        with expect(): torch.add(b, b, out=torch.empty(2, 3, requires_grad=True))
        with expect(): torch.mul(g, b, out=torch.empty(2, 3))
        with expect(): torch.matmul(g, b.T, out=torch.empty(2, 2))
        with expect(): torch.sum(g, 0, out=torch.empty(3))
        with expect(): torch.cat([g, b], out=torch.empty(4, 3))
        with torch.no_grad():
            c = torch.add(g, b, out=torch.empty(2, 3))
        print(c, c.requires_grad)
    """,
    "factories": """
        torch.manual_seed(0)
        r = torch.empty(3)
        print(torch.rand(3, out=r) is r, r)
        torch.manual_seed(0)
        print(torch.rand(3, out=torch.empty(3, dtype=torch.float64)), torch.randn(2, out=torch.empty(2)))
        print(torch.zeros(2, out=torch.empty(3)), torch.ones(2, out=torch.empty(2, dtype=torch.long)))
        print(torch.arange(3, out=torch.empty(3)), torch.linspace(0, 1, 3, out=torch.empty(3)))
        print(torch.arange(3, out=torch.empty(1)), torch.arange(0., 1., 0.25, out=torch.empty(2, 2)).shape)
        print(torch.full((2,), 3., out=torch.empty(2)), torch.eye(2, out=torch.empty(2, 2)))
        print(torch.randint(0, 5, (3,), out=torch.empty(3, dtype=torch.long)), torch.empty(2, out=torch.empty(3)).shape)
        with expect(): torch.rand(3, out=torch.empty(3, dtype=torch.float64), dtype=torch.float32)
        with expect(): torch.zeros(2, out=torch.empty(3), dtype=torch.float64)
        with expect(): torch.rand(3, out=torch.empty(3, requires_grad=True))
        with expect(): torch.zeros(3, out=torch.empty(3, requires_grad=True))
    """,
}

#: out=(values, indices) for the functions with two results
OUTS = {
    "written-into-the-pair": """
        x = torch.tensor([[3., 1., 2.], [0., 5., 5.]])
        v, i = torch.empty(3), torch.empty(3, dtype=torch.long)
        r = torch.max(x, 0, out=(v, i))
        print(r, type(r).__name__, r.values is v, r.indices is i, v._version, i._version)
        print(torch.min(x, 1, out=[torch.empty(2), torch.empty(2, dtype=torch.long)]))
        print(torch.max(x, dim=1, keepdim=True, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        print(torch.sort(x, 1, out=(torch.empty(2, 3), torch.empty(2, 3, dtype=torch.long))))
        print(torch.sort(x, dim=1, descending=True, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        print(torch.topk(x, 2, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        print(torch.kthvalue(x, 2, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        print(torch.median(x, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        print(torch.mode(x, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        print(torch.cummax(x, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        print(torch.cummin(x, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        print(torch.aminmax(x, dim=1, out=(torch.empty(0), torch.empty(0))))
        xl = x.long()
        print(torch.max(xl, 1, out=(torch.empty(0, dtype=torch.long), torch.empty(0, dtype=torch.long))))
        print(torch.max(x, out=torch.empty(0)), torch.min(x, out=torch.empty(0, dtype=torch.float64)))
        print(torch.max(x, x * 2, out=torch.empty(2, 3)))
        with torch.no_grad():
            g = torch.ones(2, 3, requires_grad=True)
            print(torch.max(g, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
    """,
    "resized-with-a-warning-each": """
        x = torch.tensor([[3., 1., 2.], [0., 5., 5.]])
        for name, call in [("max", lambda o: torch.max(x, 1, out=o)), ("sort", lambda o: torch.sort(x, 1, out=o)),
                           ("topk", lambda o: torch.topk(x, 2, out=o)), ("median", lambda o: torch.median(x, 1, out=o)),
                           ("kthvalue", lambda o: torch.kthvalue(x, 2, 1, out=o)),
                           ("kthvalue-3", lambda o: torch.kthvalue(x, 2, 1, out=o)),
                           ("kthvalue-keepdim", lambda o: torch.kthvalue(x, 2, 1, True, out=o)),
                           ("mode", lambda o: torch.mode(x, 1, out=o)), ("mode-dim0", lambda o: torch.mode(x, 0, out=o)),
                           ("cummax", lambda o: torch.cummax(x, 1, out=o))]:
            n = 3 if name.endswith("-3") else 1
            print(name, call((torch.zeros(n), torch.zeros(n, dtype=torch.long))))
        print(torch.max(x, out=torch.zeros(2)))
    """,
    "wrong-outs": """
        x = torch.tensor([[3., 1., 2.], [0., 5., 5.]])
        calls = [("max", lambda o: torch.max(x, 1, out=o)), ("min", lambda o: torch.min(x, 1, out=o)),
                 ("sort", lambda o: torch.sort(x, 1, out=o)), ("topk", lambda o: torch.topk(x, 2, out=o)),
                 ("kthvalue", lambda o: torch.kthvalue(x, 2, 1, out=o)), ("median", lambda o: torch.median(x, 1, out=o)),
                 ("mode", lambda o: torch.mode(x, 1, out=o)), ("aminmax", lambda o: torch.aminmax(x, dim=1, out=o)),
                 ("cummax", lambda o: torch.cummax(x, 1, out=o)), ("cummin", lambda o: torch.cummin(x, 1, out=o))]
        for name, call in calls:
            print(name)
            with expect(): call((torch.empty(0, dtype=torch.long), torch.empty(0, dtype=torch.long)))
            with expect(): call((torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.long)))
            with expect(): call((torch.empty(0), torch.empty(0, dtype=torch.int32)))
            with expect(): call((torch.empty(0),))
            with expect(): call((torch.empty(0), 3))
            if name not in ("max", "min", "sort"):
                with expect(): call(torch.empty(0))
        with expect(): torch.max(x, out=torch.empty(0, dtype=torch.long))
        with expect(): torch.sort(x.long(), 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))
    """,
    "outs-refused-with-autograd": """
        g = torch.ones(2, 3, requires_grad=True)
        x = torch.ones(2, 3)
        with expect(): torch.max(g, 0, out=(torch.empty(3), torch.empty(3, dtype=torch.long)))
        with expect(): torch.max(x, 0, out=(torch.empty(3, requires_grad=True), torch.empty(3, dtype=torch.long)))
        with expect(): torch.sort(g, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))
        with expect(): torch.topk(g, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))
        with expect(): torch.kthvalue(g, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))
        with expect(): torch.mode(g, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))
        with expect(): torch.max(g, out=torch.empty(0))
    """,
}


@pytest.mark.parametrize("name", [*NUMPY_NAMES, *OUT, *OUTS])
def test_argument_parser(conform, name):
    conform({**NUMPY_NAMES, **OUT, **OUTS}[name])
