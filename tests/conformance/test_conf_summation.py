"""Sums and means in torch's order: ``.item()`` and ``.tolist()`` print torch's digits to the last one."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "sums-and-means-of-every-shape": """
        shapes = [(3,), (8,), (12,), (33,), (100,), (1000,), (5000,), (4, 7), (7, 4), (16, 17), (64, 1), (1, 64),
                  (33, 9), (5, 40), (3, 8, 9), (4, 5, 6), (2, 1, 3)]
        for dtype in (torch.float32, torch.float64):
            for k, shape in enumerate(shapes):
                torch.manual_seed(k)
                x = torch.randn(shape, dtype=dtype) * 3
                print(shape, x.sum().item(), x.mean().item(), x.sum(-1).tolist()[:3], x.sum(0).flatten().tolist()[:3])
                print(x.mean(dim=0, keepdim=True).flatten().tolist()[:3], x.sum(dim=tuple(range(x.ndim))).item())
                if x.ndim == 3:
                    print(x.sum(1).flatten().tolist()[:4], x.mean((1, 2)).tolist())
    """,
    "rows-whose-cascades-have-blocks-but-no-second-level": """
        for k, n in enumerate([512, 519, 543, 1000, 2000, 2047, 2048, 4100, 6000, 8191, 8192, 8200]):
            for dtype in (torch.float32, torch.float64):
                torch.manual_seed(k)
                x = torch.randn(n, dtype=dtype) * 1000 + torch.randn(n, dtype=dtype)
                print(n, x.sum().item(), x.abs().sum().item(), (x * 1e-30).sum().item(), (-torch.zeros(n, dtype=dtype)).sum())
    """,
    "a-linear-regression-lesson-prints-torchs-losses": """
        torch.manual_seed(0)
        x = torch.randn(50, 1)
        y = 3 * x + 0.5 + 0.1 * torch.randn(50, 1)
        w = torch.zeros(1, requires_grad=True)
        b = torch.zeros(1, requires_grad=True)
        for step in range(5):
            loss = ((w * x + b - y) ** 2).mean()
            loss.backward()
            print(step, loss.item(), w.grad.item(), b.grad.item())
            with torch.no_grad():
                w -= 0.1 * w.grad
                b -= 0.1 * b.grad
            w.grad.zero_()
            b.grad.zero_()
        print(torch.nn.functional.mse_loss(w * x + b, y).item(), torch.nn.MSELoss(reduction="sum")(w * x + b, y).item())
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_summation(conform, name):
    conform(CASES[name])


EDGE_CASES = {
    "empty-and-strided-reductions": """
        print(torch.ones(0).sum(), torch.ones(0, 3).mean(0), torch.ones(5, dtype=torch.float16).sum())
        x = torch.arange(24.).reshape(2, 3, 4)
        print(torch.arange(12.).reshape(3, 4).t().sum(0).tolist(), x.sum((0, 2)).tolist(), x.sum(-1).tolist())
        print(torch.arange(6.).reshape(2, 3).sum(1, keepdim=True).tolist(), x.mean((1, 2), keepdim=True).tolist())
        torch.manual_seed(0)
        print(torch.randn(50000).sum().item() == torch.randn(50000).sum().item())
    """,
}


@pytest.mark.parametrize("name", EDGE_CASES)
def test_reduction_edges(conform, name):
    conform(EDGE_CASES[name])


SOFTMAX_CASES = {
    "softmax-log-softmax-and-cross-entropy-to-the-last-bit": """
        F = torch.nn.functional
        for seed in range(12):
            torch.manual_seed(seed)
            x = torch.randn(6, 2 + 3 * seed) * (1 + seed % 4)
            t = torch.randint(0, x.shape[1], (6,))
            w = torch.rand(x.shape[1])
            print(torch.softmax(x, 1).tolist()[0][:4], torch.softmax(x, 1).sum(1), F.log_softmax(x, -1).tolist()[1][:4])
            print(F.cross_entropy(x, t).item(), F.cross_entropy(x, t, reduction="sum").item(),
                  F.cross_entropy(x, t, weight=w).item(), F.nll_loss(F.log_softmax(x, 1), t, ignore_index=0).item())
        x = torch.randn(40, 10, requires_grad=True)
        loss = F.cross_entropy(x, torch.randint(0, 10, (40,)))
        loss.backward()
        print(loss.item(), x.grad[0].tolist()[:3])
    """,
    "nll-loss-sums-in-torchs-cascade-with-ignored-samples-where-it-moves-up": """
        F = torch.nn.functional
        for n in (1, 15, 16, 17, 33, 48, 100, 256, 257, 300, 1000, 4096):
            torch.manual_seed(n)
            x = torch.randn(n, 7) * 4
            t = torch.randint(0, 7, (n,))
            t = torch.where((torch.arange(n) % 16 == 0) & (torch.rand(n) < 0.5), -100, t)
            t[0] = -100 if n == 15 else t[0]  # no sample moves up: the weights are summed in one stretch of 15
            w = torch.rand(7)
            lp = F.log_softmax(x, 1)
            print(n, F.nll_loss(lp, t).item(), F.nll_loss(lp, t, weight=w).item(),
                  F.nll_loss(lp, t, reduction="sum").item(), F.cross_entropy(x, t, weight=w, reduction="sum").item(),
                  F.nll_loss(lp, torch.where(t < 0, 3, t), ignore_index=3, weight=w).item())
    """,
}


@pytest.mark.parametrize("name", SOFTMAX_CASES)
def test_softmax_exact(conform, name):
    conform(SOFTMAX_CASES[name])
