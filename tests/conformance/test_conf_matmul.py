"""matmul beyond 2-D, as torch records it: folded into one mm or mv, or broadcast batches through one bmm."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "every-rank-pair": """
        lefts = [(3,), (2, 3), (4, 2, 3), (1, 2, 3), (5, 1, 2, 3), (2, 2, 3)]
        rights = [(3,), (3, 2), (4, 3, 2), (1, 3, 2), (1, 1, 3, 2), (2, 3, 2)]
        for sa in lefts:
            for sb in rights:
                for ra, rb in ((True, True), (True, False), (False, True)):
                    x = (torch.arange(float(torch.Size(sa).numel())).reshape(sa) * 0.1).requires_grad_(ra)
                    y = (torch.arange(float(torch.Size(sb).numel())).reshape(sb) * 0.2 - 0.3).requires_grad_(rb)
                    with expect():
                        z = x @ y
                        print(sa, sb, ra, rb, tuple(z.shape))
                        graph(z)
                        z.sum().backward()
                        val(z, *[t.grad for t in (x, y) if t.grad is not None])
    """,
    "non-contiguous-and-errors": """
        x = torch.arange(24.).reshape(3, 4, 2).transpose(0, 1).requires_grad_()
        z = x @ torch.ones(2, 5)
        graph(z)
        print(torch.ones(2, 3).t().reshape(3, 2).grad_fn, torch.ones(2, 3, requires_grad=True).expand(4, 2, 3).reshape(8, 3).grad_fn)
        with expect(): torch.ones(4, 2, 3) @ torch.ones(5, 3, 2)
        with expect(): torch.ones(4, 2, 3) @ torch.ones(4, 2, 2)
        with expect(): torch.ones(2, 3) @ torch.ones(4, 2, 2)
        with expect(): torch.ones(3) @ torch.ones(4, 2, 2)
        with expect(): torch.ones(2, 3, requires_grad=True) @ torch.ones(4, 2, 2)
        with expect(): torch.ones(2, 3).bmm(torch.ones(2, 3, 2))
        with expect(): torch.ones(2, 2, 3).bmm(torch.ones(3, 2))
        with expect(): torch.ones(2, 2, 3).bmm(torch.ones(2, 4, 2))
        with expect(): torch.ones(6).reshape(2, 3).t().view(6)
        print(torch.ones(4, 6)[:, :3].view(2, 2, 3).shape, torch.bmm(torch.ones(2, 1, 3), torch.ones(2, 3, 1)))
    """,
    "second-derivatives-through-batches": """
        a = torch.tensor([[[1., 2.], [3., 4.]], [[0.5, -1.], [2., 0.]]], requires_grad=True)
        w = torch.tensor([[0.3, -0.2], [0.1, 0.4]], requires_grad=True)
        v = torch.tensor([1., -2.], requires_grad=True)
        for out in (a @ w, w @ a, a @ v, v @ a, a @ a):
            g, = torch.autograd.grad((out ** 2).sum(), a, create_graph=True)
            graph(g)
            g.sum().backward()
            val(g, a.grad)
            a.grad = None
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_matmul(conform, name):
    conform(CASES[name])
