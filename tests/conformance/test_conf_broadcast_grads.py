"""The gradient of a broadcast operation is summed to its input's shape in torch's order (``sum_to``: one sum over
the broadcast dims, keepdim), the order of ``t.sum(dim)``: so a learner's hand-written backward, checked bit for
bit against autograd as in Karpathy's "backprop ninja" lecture, gives ``exact: True`` where torch's does."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "hand-written-backward-equals-autograd-bit-for-bit": """
        torch.manual_seed(0)
        for n, c in [(32, 27), (64, 16), (5, 40), (33, 9), (100, 3), (7, 64), (67, 33), (200, 5), (16, 1)]:
            x, g = torch.randn(n, c), torch.randn(n, c)
            b = torch.randn(c, requires_grad=True)           # a bias: (c,) broadcast over the rows
            row = torch.randn(1, c, requires_grad=True)      # a gain: (1, c)
            col = torch.randn(n, 1, requires_grad=True)      # a per-row shift: (n, 1), as logits - logits.max(1)
            s = torch.randn((), requires_grad=True)          # one number
            y = (x + b) * row - col + s
            y.backward(g)
            print(n, c, torch.equal(b.grad, (g * row).sum(0)), torch.equal(row.grad, (g * (x + b)).sum(0, keepdim=True)),
                  torch.equal(col.grad, (-g).sum(1, keepdim=True)), torch.equal(s.grad, g.sum()))
    """,
    "the-bias-gradient-of-a-linear-layer-is-its-column-sum": """
        torch.manual_seed(1)
        layer = torch.nn.Linear(10, 24)
        x = torch.randn(48, 10)
        out = layer(x)
        g = torch.randn(48, 24)
        out.backward(g)
        print(torch.equal(layer.bias.grad, g.sum(0)))
        logits = torch.randn(32, 27, requires_grad=True)   # the lecture's logit_maxes check
        logit_maxes = logits.max(1, keepdim=True).values
        norm_logits = logits - logit_maxes
        for t in (logit_maxes, norm_logits):
            t.retain_grad()
        probs = norm_logits.exp() / norm_logits.exp().sum(1, keepdim=True)
        probs.backward(torch.randn(32, 27))
        print(torch.equal(logit_maxes.grad, (-norm_logits.grad).sum(1, keepdim=True)))
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_broadcast_gradients(conform, name):
    conform(CASES[name])
