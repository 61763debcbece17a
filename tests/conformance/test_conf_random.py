"""Random numbers: after the same ``manual_seed``, torch's numbers to the last bit."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "uniform-and-scalar-normal-exact": """
        torch.manual_seed(0)
        print(torch.rand(5).tolist(), torch.rand(3, dtype=torch.float64).tolist())
        print(torch.randn(3).tolist(), torch.randn(1).tolist())  # the second value of a pair waits for the next call
        print(torch.randn(2, 3, dtype=torch.float64).tolist(), torch.randn(40, dtype=torch.float64)[-3:].tolist())
        print(torch.rand(2, 2), torch.randn(2, 2))
    """,
    "block-normal-exact": """
        for seed in (0, 7, 2 ** 40 + 3):
            torch.manual_seed(seed)
            a, b, c = torch.randn(16), torch.randn(33), torch.randn(10, 10)
            print(a.tolist(), b[-4:].tolist(), c[9].tolist())
            print(torch.empty(40).normal_(0.3, 1.7).tolist())
            print(torch.empty(20, dtype=torch.float64).normal_(-1, 0.3)[:4].tolist())
            print(torch.empty(5, dtype=torch.float64).uniform_(-0.37, 2.9).tolist(), torch.rand(1).tolist())
    """,
    "integers-and-permutations": """
        torch.manual_seed(3)
        print(torch.randint(10, (6,)), torch.randint(-5, 5, (2, 3)), torch.randint(0, 2 ** 30, (3,)))
        print(torch.randperm(8), torch.randperm(1), torch.randperm(0), torch.randint(3, (2,), dtype=torch.float32))
        x = torch.zeros(2, 3)
        print(torch.randint_like(x, 4), torch.rand_like(x), torch.randn_like(x))
        print(torch.randint(5, size=(4,)), torch.randint(high=5, size=(3,)), torch.randint(low=1, high=5, size=(3,)))
        with expect(): torch.randint(5, 3, (2,))
    """,
    "normal-and-in-place-fills": """
        torch.manual_seed(1)
        print(torch.normal(0., 1., (3,)), torch.normal(2., 0.5, size=(2, 2)), torch.normal(torch.zeros(3), 2.))
        x = torch.empty(20)
        print(x.uniform_(-1, 1)[:3], x.normal_(0, 0.1)[-3:])
        w = torch.randn(3, requires_grad=True)
        y = w * 2
        y.normal_()
        y.uniform_()
        print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
        y.sum().backward()
        print(w.grad)
        with expect(): w.uniform_()
        with expect(): torch.ones(2, dtype=torch.int64).uniform_()
        with expect(): torch.ones(2, dtype=torch.int32).normal_()
        with expect(): torch.rand(2, dtype=torch.int64)
        with expect(): torch.randn(2, dtype=torch.int64)
    """,
    "generators-and-seeds": """
        g = torch.Generator()
        print(g.initial_seed(), g.manual_seed(5) is g, g.initial_seed())
        print(torch.randn(3, generator=g), torch.rand(2, generator=torch.Generator().manual_seed(5)))
        print(torch.manual_seed(11).initial_seed(), torch.initial_seed(), torch.manual_seed(-1).initial_seed())
        print(torch.randint(0, 9, (4,), generator=g), torch.randperm(5, generator=g))
        torch.manual_seed(2 ** 32 + 4)
        a = torch.rand(3)
        torch.manual_seed(4)
        print(torch.equal(a, torch.rand(3)))  # only the low 32 bits seed the twister
    """,
    "layers-start-from-torchs-weights": """
        torch.manual_seed(0)
        lin = torch.nn.Linear(3, 2)
        print(lin.weight, lin.bias)
        net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
        x = torch.randn(16, 2)
        y = x[:, :1] * 0.5 - x[:, 1:] ** 2
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for step in range(5):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(net(x), y)
            loss.backward()
            opt.step()
            print(step, round(loss.item(), 5))
        torch.nn.init.xavier_uniform_(lin.weight)
        torch.nn.init.kaiming_normal_(lin.weight, generator=torch.Generator().manual_seed(9))
        torch.nn.init.normal_(lin.bias, 0, 0.01)
        print(lin.weight, lin.bias)
    """,
    "bernoulli-and-dropout": """
        F = torch.nn.functional
        x = torch.ones(3, requires_grad=True)
        print(F.dropout(x, 0.5, False) is x, F.dropout(x, 0.) is x)
        with expect(): F.dropout(x, 1.5)
        with expect(): torch.nn.Dropout(-0.1)
        y = F.dropout(x, 1.0)
        print(y, y.grad_fn._saved_other)
        torch.manual_seed(0)
        y = F.dropout(x * 2, 0.3)
        print(y, y.grad_fn._saved_other, y.grad_fn._saved_self)
        y.sum().backward()
        print(x.grad, torch.nn.Dropout(0.3), torch.nn.Dropout(0.3, inplace=True))
        torch.manual_seed(0)
        print(torch.bernoulli(torch.full((6,), 0.3)), torch.rand(1), torch.bernoulli(torch.full((6,), 0.3), 0.9))
        print(F.dropout(torch.ones(4, dtype=torch.float64), 0.5))
        print(torch.bernoulli(torch.full((3,), 0.5, dtype=torch.float64)))
        torch.manual_seed(1)
        nn = torch.nn
        net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Dropout(0.25), nn.Linear(16, 1))
        print(net)
        data, target = torch.randn(32, 4), torch.randn(32, 1)
        opt = torch.optim.SGD(net.parameters(), lr=0.05)
        for step in range(4):
            opt.zero_grad()
            loss = F.mse_loss(net(data), target)
            loss.backward()
            opt.step()
            print(step, round(loss.item(), 4))
        net.eval()
        print(net(data[:2]))
        net.train()
        print(net(data[:2]))
        v = torch.ones(5, requires_grad=True) * 1
        v.bernoulli_(0.5)
        print(v.grad_fn.name(), v, torch.ones(3, dtype=torch.int64).bernoulli_(0.5))
        print(torch.bernoulli(torch.full((3,), 0.5, requires_grad=True)).grad_fn.name())
        q = torch.ones(6)
        F.dropout(q, 0.5, inplace=True)
        print(q)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_random(conform, name):
    conform(CASES[name])
