"""Which of several equal entries ``kthvalue``, ``median(dim)``, ``nanmedian(dim)`` and ``mode`` name on the CPU, and where their
gradient goes (issue 14): median breaks ties by position, kthvalue names the entry torch's quickselect lands on,
mode the last of its value's run after torch's ``std::sort`` (in position order up to 16 entries, shuffled by the
introsort beyond)."""
import pytest

pytest.importorskip("torch")

CASES = {
    "kthvalue-with-ties": """
        x = torch.tensor([2., 1., 2., 2., 1., 3., 2.], requires_grad=True)
        for k in range(1, 8):
            r = torch.kthvalue(x, k)
            print(k, r.values.item(), r.indices.item())
        m = torch.tensor([[1., 1., 1., 1.], [5., 0., 5., 0.], [2., 2., 3., 2.]], requires_grad=True)
        for k in range(1, 5):
            print(k, m.kthvalue(k, 1), m.kthvalue(k, 1, keepdim=True).indices.tolist())
        print(m.kthvalue(2, 0))
        r = m.kthvalue(2, 1)
        r.values.sum().backward()
        print(m.grad)
    """,
    "kthvalue-long-rows-and-nan": """
        g = torch.Generator().manual_seed(0)
        x = torch.randint(0, 4, (6, 40), generator=g).float()
        for k in (1, 7, 20, 33, 40):
            print(k, x.kthvalue(k, 1).indices.tolist())
        y = torch.tensor([float("nan"), 1., float("nan"), 1., 0.])
        print([y.kthvalue(k).indices.item() for k in range(1, 6)])
        print(torch.randint(0, 3, (5, 30), generator=g).kthvalue(9, 0).indices.tolist())
    """,
    "median-with-ties": """
        x = torch.tensor([[5., 1., 5., 1.], [2., 2., 2., 2.], [3., 1., 3., 1.]], requires_grad=True)
        print(x.median(1), x.median(0))
        x.median(1).values.sum().backward()
        print(x.grad)
    """,
    "nanmedian": """
        nan = float("nan")
        x = torch.tensor([[nan, 1., 3., nan, 2.], [nan] * 5, [2., 2., nan, 2., 1.], [5., 4., 3., 2., 1.]],
                         requires_grad=True)
        r = x.nanmedian(1)
        print(r, x.nanmedian(), torch.nanmedian(x, 0, keepdim=True))
        graph(r.values)
        r.values.nansum().backward()
        print(x.grad)
        y = torch.tensor([nan, 1., 1., nan, 3.], requires_grad=True)
        z = y.nanmedian()
        z.backward()
        print(z, y.grad, torch.tensor([1, 3, 2]).nanmedian(), torch.tensor([[1, 3, 2]]).nanmedian(1))
        print([torch.tensor([nan] * k).nanmedian(0).indices.item() for k in range(1, 40)])
        print(torch.nanmedian(x.detach(), 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
        with expect(): torch.nanmedian(x.detach(), 1, out=(torch.empty(0), torch.empty(0)))
    """,
    "mode-with-ties": """
        x = torch.tensor([[3., 1., 2.], [0., 5., 5.], [4., 4., 7.], [1., 2., 3.]], requires_grad=True)
        print(torch.mode(x, 1), x.mode(0), x.mode(1, keepdim=True))
        print(torch.mode(torch.tensor(3.)), torch.mode(torch.tensor([2, 2, 1, 1])))
        r = x.mode(1)
        print(r.values.grad_fn.name())
        r.values.sum().backward()
        print(x.grad)
    """,
    "mode-of-long-rows": """
        g = torch.Generator().manual_seed(1)
        x = torch.randint(0, 5, (8, 60), generator=g).float()
        print(x.mode(1))
        print(torch.randint(0, 3, (17, 4), generator=g).mode(0))
        y = torch.tensor([1., float("nan"), 1., float("nan"), 2.] * 4)
        print(y.mode())
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_ties(conform, name):
    conform(CASES[name])
