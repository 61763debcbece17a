"""Factories, dtypes, tensor basics and printing: the same program in torch and autograd_tutor."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "one-index-tensor-picks-rows-and-adds-their-gradients-back": """
        x = (torch.arange(12.).reshape(4, 3) / 4).requires_grad_()
        for idx in (torch.tensor([3, 0, 3, -1]), torch.tensor([[1, 2], [2, 2]], dtype=torch.int32), torch.tensor([0])):
            y = x[idx]
            print(y, y.grad_fn.name(), y.grad_fn._saved_indices, y.grad_fn.next_functions[0][0].name())
            (y * torch.arange(float(y.numel())).reshape(y.shape)).sum().backward()
            print(x.grad)
            x.grad = None
        print(torch.arange(5)[torch.tensor([4, 1])], x.detach()[torch.tensor([2])])
        with expect(): x[torch.tensor([4])]
        with expect(): x[torch.tensor([0, -5])]
        with expect(): torch.tensor(3.)[torch.tensor([0])]
    """,
    "tensor-scalars": """
        for t in [torch.tensor(3.), torch.tensor(3), torch.tensor(True), torch.tensor(2.5), torch.tensor(-0.),
                  torch.tensor(1e-5), torch.tensor(123456789.), torch.tensor(float('nan')), torch.tensor(float('inf'))]:
            print(repr(t), str(t), t.dtype, t.shape, t.ndim, t.dim(), t.numel(), t.is_leaf, t.requires_grad)
    """,
    "tensor-lists": """
        for data in [[1., 2.], [1, 2], [1, 2.], [True, False], [[1., 2.], [3., 4.]], [[1, 2, 3]], [], [[[1.]]],
                     [0.1, 123.456], [1e-5, 1.0], [1.5, 2.0, 3.25], [-1., 0., 1.]]:
            t = torch.tensor(data)
            print(repr(t), t.dtype, t.shape, t.size(), t.dim(), t.numel())
    """,
    "tensor-dtype-argument": """
        for dt in [torch.float32, torch.float64, torch.int64, torch.bool, torch.int32]:
            t = torch.tensor([1, 0, 2], dtype=dt)
            print(repr(t), t.dtype, t.dtype.is_floating_point, t.is_floating_point())
        print(torch.tensor(3., dtype=torch.float64, requires_grad=True))
        print(torch.float32, torch.float, torch.double, torch.long, torch.int64 is torch.long, torch.get_default_dtype())
    """,
    "tensor-requires-grad": """
        a = torch.tensor([2., 3.], requires_grad=True)
        print(a, a.requires_grad, a.is_leaf, a.grad_fn, a.grad)
        with expect(): torch.tensor([1, 2], requires_grad=True)
        with expect(): torch.tensor([1, 2]).requires_grad_()
        with expect(): torch.tensor([True]).requires_grad_()
        with expect(): torch.ones(2, dtype=torch.int64, requires_grad=True)
        i = torch.tensor([1, 2])
        f = torch.tensor([1., 2.], requires_grad=True)
        print(f * i, (f * i).dtype)
    """,
    "factories": """
        for t in [torch.ones(2, 3), torch.zeros(2), torch.ones((2, 2)), torch.zeros([3]), torch.ones(2, dtype=torch.int64),
                  torch.zeros(2, 2, dtype=torch.float64), torch.ones(()), torch.zeros(0), torch.full((2, 2), 7.),
                  torch.full((2,), 7), torch.full((3,), 1.5), torch.full([2], True), torch.eye(2), torch.eye(2, 3),
                  torch.eye(3, dtype=torch.int64), torch.ones(2, requires_grad=True), torch.zeros(1, 2, 1)]:
            print(repr(t), t.dtype, t.shape, t.requires_grad)
    """,
    "arange-linspace": """
        for t in [torch.arange(5), torch.arange(1, 4), torch.arange(0, 1, 0.25), torch.arange(5.), torch.arange(2, 9, 3),
                  torch.arange(5, dtype=torch.float64), torch.arange(3, 0, -1), torch.arange(0.5, 2), torch.arange(0),
                  torch.linspace(0, 1, 5), torch.linspace(-1, 1, 3), torch.linspace(0, 10, 1), torch.linspace(2, 3, 4)]:
            print(repr(t), t.dtype, t.shape)
        with expect(): torch.arange(0, 1, 0)
    """,
    "full-precision-values": """
        print(torch.tensor([0.645873181125018, 0.1], dtype=torch.float64).tolist(), torch.tensor(0.1).item())
        print(torch.tensor(0.1, dtype=torch.float64, requires_grad=True).item(), torch.tensor([1.9, -1.9], dtype=torch.int64))
        x = torch.tensor([0.645873181125018, 0.3], dtype=torch.float64, requires_grad=True)
        (x * x).sqrt().sum().backward()
        print(x.grad.tolist())
        for args in [(0, 1, 7), (-1, 1, 11), (0, 2 * 3.141592653589793, 100), (0.1, 0.9, 33), (-2.5, 7.25, 64),
                     (3, -2, 50), (2, 5, 1), (0, 1, 1000)]:
            for dt in [torch.float32, torch.float64, torch.int64]:
                print(args, dt, torch.linspace(*args, dtype=dt).tolist())
        print(torch.linspace(0, 1, 0))
        with expect(): torch.linspace(0, 1, -1)
    """,
    "like-factories": """
        x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        i = torch.tensor([1, 2, 3])
        for t in [torch.ones_like(x), torch.zeros_like(x), torch.ones_like(i), torch.zeros_like(i, dtype=torch.float32),
                  torch.ones_like(x, requires_grad=True), torch.full_like(x, 2.5), torch.zeros_like(x, dtype=torch.float64)]:
            print(repr(t), t.dtype, t.requires_grad, t.is_leaf)
    """,
    "random-shapes": """
        torch.manual_seed(0)
        for t in [torch.rand(2, 3), torch.randn(4), torch.randn(2, 2, dtype=torch.float64), torch.rand(()),
                  torch.randn(3, requires_grad=True), torch.rand((2, 1))]:
            print(t.shape, t.dtype, t.requires_grad, t.is_leaf)
        r = torch.rand(1000)
        print(bool((r >= 0).all()) if hasattr(r, 'all') else True, bool((r < 1).sum() == 1000))
    """,
    "from-numpy": """
        a = np.array([1., 2., 3.])
        t = torch.from_numpy(a)
        print(repr(t), t.dtype, t.requires_grad)
        a[0] = 10.
        print(t)
        t[1] = 20.
        print(a)
        for arr in [np.array([1, 2]), np.array([1., 2.], dtype=np.float32), np.array([True, False]), np.zeros((2, 2))]:
            u = torch.from_numpy(arr)
            print(repr(u), u.dtype)
        print(repr(torch.tensor(np.array([1., 2.]))), repr(torch.tensor(np.float32(2.5))))
    """,
    "basics-methods": """
        x = torch.tensor([2., 3.], requires_grad=True)
        s = (x * x).sum()
        print(s.item(), type(s.item()), x.tolist(), (x * 0.1).tolist(), s.tolist())
        print(x.shape, tuple(x.shape), s.shape, x.size(), x.size(0), x.size(-1), x.dim(), x.ndim, x.numel(), len(x))
        with expect(): x.numpy()
        print(x.detach().numpy(), type(x.detach().numpy()).__name__)
        with expect(): x.item()
        print(torch.tensor([5.]).item(), torch.tensor([[7]]).item(), type(torch.tensor(7).item()))
        with expect(): x.size(2)
        with expect(): len(torch.tensor(1.))
        m = torch.ones(2, 3)
        print(m.size(), m.size(1), m.shape[0], m.shape[-1], m.numel(), len(m), list(m.shape), m.shape == (2, 3))
        print(torch.Size([2, 3]), m.shape.numel(), torch.ones(()).shape)
    """,
    "conversions": """
        x = torch.tensor([1.5, -2.5], requires_grad=True)
        y = x.float()
        print(y is x, y.grad_fn, y.is_leaf)
        print(x.to(torch.float32) is x)
        d = x.double()
        print(d, d.dtype, d.grad_fn, d.is_leaf, d.requires_grad)
        c = x.clone()
        print(c, c.grad_fn, c.is_leaf, c.data_ptr() == x.data_ptr())
        i = torch.tensor([1, 2])
        print(i.float(), i.double(), i.float().dtype, i.to(torch.float64), torch.tensor([1.7, -1.7]).long())
        print(torch.tensor([0., 2.]).bool(), torch.tensor([1, 2]).to(torch.float32).requires_grad)
        print(x.detach().int(), x.type(), i.type(), torch.tensor([True]).type())
        (d.sum() + c.sum()).backward()
        print(x.grad)
    """,
    "python-scalars": """
        t = torch.tensor(2.5, requires_grad=True)
        print(bool(t), int(t), t.item(), t.tolist(), f"{t:.2f}", f"{t}", f"{t:>8.3f}")
        print(float(t))
        u = torch.tensor(7.)
        print(f"{u}", f"{u * 2}", f"{torch.tensor(3)}", float(u), int(torch.tensor(3.9)), "%.1f" % u.item())
        v = torch.tensor([1., 2.])
        print(f"{v}", str(v), repr(v))
        with expect(): bool(torch.tensor([1., 2.]))
        with expect(): float(torch.tensor([1., 2.]))
        with expect(): int(torch.tensor([1, 2]))
        print(bool(torch.tensor([0.])), bool(torch.tensor(0)), bool(torch.tensor([[3]])))
    """,
    "iteration-and-len": """
        m = torch.tensor([[1., 2.], [3., 4.]])
        for row in m:
            print(row)
        print(len(m), [r.tolist() for r in m])
        with expect():
            for e in torch.tensor(1.):
                pass
    """,
    "dtype-promotion": """
        i = torch.tensor([1, 2])
        f = torch.tensor([1., 2.])
        d = torch.tensor([1., 2.], dtype=torch.float64)
        b = torch.tensor([True, False])
        for r in [i + 1, i + 1.5, i * f, f * d, i / 2, i / i, f + torch.tensor(1., dtype=torch.float64), d + torch.tensor(1.),
                  b + b, b + 1, b * 1.5, i * torch.tensor(2.5), f + torch.tensor(2), i + torch.tensor([1], dtype=torch.int32),
                  torch.tensor(2) * 3, torch.tensor(2.) * 3, 2 ** i, i ** 2, f ** 2, i.sum(), b.sum(), f.mean(), i.max()]:
            print(repr(r), r.dtype)
        with expect(): i.mean()
    """,
    "int-and-bool-ops": """
        i = torch.tensor([3, -1, 2])
        print(i.abs(), -i, i.exp(), i.sqrt(), i.sigmoid(), i.tanh(), i.relu(), i.clamp(0, 2), i.argmax(), i.max(), i.min())
        print(i.sum(0), i.float().mean(), i.reshape(3, 1), i.t(), i.unsqueeze(0), i[1:], i[[0, 2]], i * i)
        print(torch.cat([i, i]), torch.stack([i, i]), torch.where(i > 0, i, 0), torch.maximum(i, torch.tensor([0, 0, 9])))
        print(i.max(0), i.min(dim=0))
    """,
    "torch-functions": """
        x = torch.tensor([1., -2., 3.])
        print(torch.is_tensor(x), torch.is_tensor(3), torch.numel(x), torch.add(x, 1), torch.sub(x, 1), torch.mul(x, x))
        print(torch.div(x, 2), torch.pow(x, 2), torch.neg(x), torch.square(x), torch.clip(x, -1, 1), torch.abs(x))
        print(torch.allclose(x, x + 1e-9), torch.equal(x, x.clone()), torch.equal(x, x[:2]), torch.argmax(x), torch.argmin(x))
        print(torch.flatten(torch.ones(2, 2)), torch.reshape(x, (3, 1)), torch.t(torch.ones(2, 3)).shape)
        print(torch.transpose(torch.ones(2, 3), 0, 1).shape, torch.permute(torch.ones(2, 3, 4), (2, 0, 1)).shape)
        print(torch.unsqueeze(x, 1).shape, torch.squeeze(torch.ones(1, 3)).shape, torch.max(x), torch.min(x))
        print(torch.sum(x), torch.mean(x), torch.exp(x), torch.log(torch.abs(x)), torch.sigmoid(x), torch.relu(x))
        print(torch.eq(x, 1), torch.ne(x, 1), torch.lt(x, 1), torch.le(x, 1), torch.gt(x, 1), torch.ge(x, 1))
        print(torch.clone(x), torch.detach(x), torch.isnan(torch.tensor([float('nan'), 1.])), torch.sign(x))
    """,
    "comparisons": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        print(x > 1, (x > 1).requires_grad, (x > 1).grad_fn)
        print(x.argmax(), x.argmax().requires_grad)
        print(x.max(0))
        print(x == torch.tensor([1., 0., 3.]), x != 2, x <= 2, x >= 2, 1 < x, 2 == x)
        print((x > 1) & (x < 3), (x > 2) | (x < 2), ~(x > 1), (x > 1).sum(), (x > 1).float().mean())
        with expect(): x > torch.ones(2)
    """,
    "indexing-untracked": """
        t = torch.arange(12.).reshape(3, 4)
        print(t[0], t[:, 1], t[1:, ::2], t[[0, 2]], t[t > 5], t[..., -1], t[None].shape, t[1, [0, 3]], t[[0, 1], [1, 2]])
        print(t[torch.tensor([2, 0])], t[torch.tensor(1)], t[-1, -1], t[0][1], t[:2, None, 1].shape, t[[True, False, True]])
        print(t[0].requires_grad, t[[0]].grad_fn, t[:, 1].is_leaf)
    """,
    "indexing-errors": """
        m = torch.ones(2, 3, requires_grad=True)
        s = torch.tensor(1., requires_grad=True)
        for k in ["m[5]", "m[:, 5]", "m[0, 0, 0]", "m[-3]", "m[::-1]", "m[::0]", "s[0]", "s[:]", "m[1.5]", "m[[5]]",
                  "m[torch.tensor([5])]", "m[[0], [5]]", "m[[0, 1], [0, 1, 2]]", "m[torch.tensor([0.5])]",
                  "m[torch.tensor([True, False, True])]", "m[torch.tensor([[True, False, True]])]"]:
            with expect():
                print(k, eval(k))
    """,
    "torch-tensor-of-tensor-warns": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = torch.tensor(x)
        print(y, y.requires_grad, y.is_leaf)
    """,
    "size-errors": """
        with expect(): torch.ones(-1)
        with expect(): torch.zeros(2, -3)
        with expect(): torch.ones(2).view(3)
        with expect(): torch.ones(6).view(4, -1)
        with expect(): torch.ones(6).view(-1, -1)
        with expect(): torch.ones(6).reshape(4, 2)
        with expect(): torch.ones(2, 3).T.view(6)
        print(torch.ones(6).view(-1, 3).shape, torch.ones(2, 3).reshape(-1).shape, torch.ones(0).reshape(2, 0).shape)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_basics(conform, name):
    conform(CASES[name])


DEVICE_CASES = {
    "the-usual-device-lines": """
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        print(device, repr(device), device.type, device.index, torch.cuda.is_available(), torch.cuda.device_count())
        x = torch.ones(2, 3, device=device).to(device)
        model = torch.nn.Linear(3, 1).to(device)
        print(x.device, repr(x.device), x.device == device, model.weight.device, x.cpu() is x)
        print(repr(torch.device("cuda:1")), str(torch.device("cuda", 0)), torch.device("cpu:0"), torch.device(device))
        print(torch.backends.mps.is_available(), torch.backends.cudnn.deterministic)
        torch.backends.cudnn.deterministic = True
        torch.cuda.manual_seed(0)
        torch.cuda.manual_seed_all(0)
        with expect(): x.to("cuda")
        with expect(): x.cuda()
        with expect(): torch.ones(2, device="cuda")
        with expect(): x.to("mps")
        with expect(): torch.device("gpu")
        with expect(): torch.device("cuda:x")
    """,
    "factory-keyword-forms": """
        print(torch.ones(size=(2,)), torch.zeros(size=[1, 2]).shape, torch.empty(size=(3,)).shape)
        torch.manual_seed(0)
        print(torch.rand(size=(2,)), torch.randn(size=(1, 2)), torch.full((2,), 7., device="cpu"))
        print(torch.arange(3, device="cpu"), torch.eye(2, device="cpu"), torch.zeros_like(torch.ones(2), device="cpu"))
        with expect(): torch.full(3, .5)
        with expect(): torch.randint(10, 3)
        with expect(): torch.zeros(-1)
    """,
}


@pytest.mark.parametrize("name", DEVICE_CASES)
def test_devices_and_factory_forms(conform, name):
    conform(DEVICE_CASES[name])
