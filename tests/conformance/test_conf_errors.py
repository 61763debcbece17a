"""Errors on the supported surface: the same exception type and the same message, word for word."""
import pytest

torch = pytest.importorskip("torch")

# One statement per line; each runs under expect(), so the transcript lists every type and message.
STATEMENTS = """
torch.tensor(2.)[0]
torch.tensor(2.)[0, 1]
torch.tensor(2.)[..., 0]
torch.tensor(2.)[-1]
torch.tensor(2.)[5]
torch.tensor(2.)[:, None]
torch.tensor(2.)[::2]
torch.tensor(2.)[None, 0]
torch.tensor(2.)[[0]]
torch.tensor([1, 2, 3]).clamp(0, 2.5)
torch.tensor([1, 2, 3]).clamp(max=1.5)
torch.tensor([True, False]).clamp(min=-0.5)
torch.tensor([True]).clamp(min=0)
torch.tensor([True]).clamp(min=True)
torch.tensor([True]).clamp(False, True)
torch.ones(0).softmax(0)
torch.ones(2, 0, requires_grad=True).log_softmax(1)
torch.ones(0).argmax()
torch.ones(2, 0).argmax(1)
torch.tensor([True, False]).argmax()
torch.tensor(3.).argmax(0)
bool(torch.ones(0))
torch.tensor([True]) ** -1
torch.tensor([1, 2]) - torch.tensor([True, False])
torch.tensor([True]) - torch.tensor([False])
1 - torch.tensor([True])
-torch.tensor([True])
torch.tensor([1, 2]).sub(torch.tensor([1, 1]), alpha=0.5)
torch.tensor([1, 2]).add(torch.tensor([1, 1]), alpha=0.5)
torch.ones(2, 3).mv(torch.ones(3, 4))
torch.ones(3).mv(torch.ones(3))
torch.ones(2, 3) @ torch.ones(3, 4, dtype=torch.float64)
torch.ones(2, 3, dtype=torch.int64) @ torch.ones(3, 4)
torch.ones(3, dtype=torch.float64) @ torch.ones(3, 2)
torch.ones(2, 3, dtype=torch.float64) @ torch.ones(3)
torch.ones(2, 3).mv(torch.ones(3, dtype=torch.int64))
torch.ones(3) @ torch.ones(3, dtype=torch.float64)
torch.ones(3).dot(torch.ones(4, dtype=torch.float64))
torch.ones(2, 2, 3) @ torch.ones(2, 3, 4, dtype=torch.float64)
torch.ones(2, 2, 3, dtype=torch.float64) @ torch.ones(3, 4)
torch.ones(2, requires_grad=True) + torch.ones(3)
torch.ones(2, 3) * torch.ones(3, 2)
torch.ones(2, 3) - torch.ones(2)
torch.ones(4, 1, 3) / torch.ones(2, 3, 1, 2)
torch.ones(2, 3, requires_grad=True) @ torch.ones(2, 3)
torch.ones(3) @ torch.ones(4)
torch.ones(2, 3) @ torch.ones(4)
torch.ones(3) @ torch.ones(4, 2)
torch.ones(2, 2, 3) @ torch.ones(4)
torch.ones(2, 2, 3) @ torch.ones(4, 2)
torch.ones(2, 2, 3) @ torch.ones(2, 4, 2)
torch.ones(2, 2, 3) @ torch.ones(3, 3, 2)
torch.tensor(1.) @ torch.ones(2)
torch.mm(torch.ones(3), torch.ones(3, 2))
torch.mm(torch.ones(2, 3), torch.ones(3))
torch.mm(torch.ones(2, 3), torch.ones(2, 3))
torch.mv(torch.ones(2, 3), torch.ones(2))
torch.dot(torch.ones(2), torch.ones(3))
torch.dot(torch.ones(2, 2), torch.ones(2))
torch.cat([torch.ones(2, 3), torch.ones(3, 2)])
torch.cat([torch.ones(2, 3), torch.ones(3)])
torch.cat([torch.tensor(1.), torch.tensor(2.)])
torch.cat([])
torch.cat(torch.ones(2))
torch.cat([torch.ones(2)], dim=1)
torch.stack([torch.ones(2), torch.ones(3)])
torch.stack([])
torch.stack([torch.ones(2)], dim=2)
torch.ones(2, 3).view(4)
torch.ones(2, 3).reshape(-1, 4)
torch.ones(2, 3).view(-1, -1)
torch.ones(2, 3).T.view(6)
torch.ones(2, 3).expand(3, 3)
torch.ones(2, 3).expand(3)
torch.ones(3).expand(2, 4)
torch.ones(2, 3).squeeze(2)
torch.ones(2, 3).unsqueeze(3)
torch.ones(2, 3).transpose(0, 2)
torch.ones(2, 3).permute(0)
torch.ones(2, 3).permute(0, 0)
torch.ones(2, 3).permute(0, 1, 2)
torch.ones(2, 3, 4).t()
torch.ones(2).mT
torch.ones(2, 3).sum(2)
torch.ones(2, 3).sum((0, 0))
torch.ones(2, 3).mean(-3)
torch.ones(2, 3).max(2)
torch.ones(0).max()
torch.ones(2, 0).max(1)
torch.ones(2, 3).softmax(2)
torch.ones(2, 3).log_softmax(-3)
torch.ones(2, 3).select(0, 2)
torch.ones(2, 3).select(2, 0)
torch.ones(2, 3).narrow(0, 1, 2)
torch.ones(3).clamp()
torch.where(torch.ones(2), torch.ones(2), torch.zeros(2))
torch.where(torch.ones(2) > 0, torch.ones(2), torch.zeros(3))
torch.tensor([1, 2]).mean()
torch.tensor([True]).mean()
torch.ones(2, 3).item()
bool(torch.ones(2))
len(torch.tensor(1.))
torch.tensor([[1, 2], [3]])
torch.tensor(1.).backward()
torch.ones(2, requires_grad=True).backward()
torch.ones(2, requires_grad=True).numpy()
torch.ones(2, requires_grad=True).add_(1)
torch.tensor([1, 2]).add_(1.5)
torch.tensor([1, 2]) ** -1
torch.ones(2).fill_(torch.ones(2))
torch.ones(2).copy_(torch.ones(3))
torch.ones(2).copy_(torch.ones(2, 2))
torch.ones(2).mul_(torch.ones(2, 2))
torch.ones(2, 3)[2]
torch.ones(2, 3)[:, 3]
torch.ones(2, 3)[0, 0, 0]
torch.ones(2, 3)[[0, 2]]
torch.tensor(1.)[0]
torch.ones(2).retain_grad()
torch.ones(2).register_hook(lambda g: g)
torch.autograd.grad(torch.ones(2, requires_grad=True).sum(), torch.ones(2))
torch.autograd.grad(torch.ones(2).sum(), torch.ones(2, requires_grad=True))
torch.ones(2, dtype=torch.int64, requires_grad=True)
torch.ones(2, 2).requires_grad_().mean(dim=(0, 0))
torch.ones(2).reshape(2, -1, -1)
torch.ones(2).view(2, 2)
torch.arange(0, 5, 0)
torch.full((2,), 1.).t().mT
"""


@pytest.mark.parametrize("statement", [s for s in STATEMENTS.strip().splitlines()])
def test_error(conform, statement):
    conform(f"with expect():\n    r = {statement}\n    print(repr(r))\n")


CASES = {
    "requires-grad-errors": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 2
        with expect(): y.requires_grad = False
        with expect(): y.requires_grad_(False)
        with expect(): torch.tensor([1, 2]).requires_grad = True
        with expect(): x.grad = torch.ones(3)
        with expect(): x.grad = "grad"
    """,
    "second-backward-and-freed": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        with expect(): y.backward()
        with expect(): torch.autograd.grad(y, x)
        with expect(): y.grad_fn.next_functions[0][0]._saved_self
    """,
    "version-error-messages": """
        x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = x.sigmoid()
        y.mul_(2)
        with expect(): y.sum().backward()
        a = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
        b = a * 1
        c = b.log()
        b.add_(1)
        with expect(): c.sum().backward()
        s = torch.tensor(3., requires_grad=True)
        t = s * 1
        u = t ** 2
        t.zero_()
        with expect(): u.backward()
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_error_programs(conform, name):
    conform(CASES[name])
