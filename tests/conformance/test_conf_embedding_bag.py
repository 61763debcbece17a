"""``nn.EmbeddingBag`` / ``F.embedding_bag`` (issue 14: PyTorch's text-classification tutorial starts with one):
the modes sum / mean / max, offsets and 2-D input, include_last_offset, per-sample weights, padding_idx, empty
bags, from_pretrained, max_norm; values, gradients (of the table and of the weights), graphs, reprs, errors, and the
table's initial numbers after manual_seed."""
import pytest

torch = pytest.importorskip("torch")

HEAD = """
torch.manual_seed(0)
text = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 7])
off = torch.tensor([0, 3, 3])
"""

CASES = [
    "torch.nn.EmbeddingBag(10, 5)(text, off)", "torch.nn.EmbeddingBag(10, 5, mode='sum')(text, off)",
    "torch.nn.EmbeddingBag(10, 5, mode='max')(text, off)", "torch.nn.EmbeddingBag(10, 4)(torch.tensor([[1, 2], [3, 3]]))",
    "torch.nn.EmbeddingBag(10, 3, include_last_offset=True)(text, torch.tensor([0, 3, 9]))",
    "torch.nn.EmbeddingBag(10, 3, padding_idx=2)(text, off)", "torch.nn.EmbeddingBag(10, 3, mode='sum', padding_idx=-1)(text, off)",
    "torch.nn.EmbeddingBag(10, 3, mode='max', padding_idx=4)(text, off)",
    "torch.nn.EmbeddingBag(10, 3, max_norm=1.)(text, off)",
    "torch.nn.functional.embedding_bag(text, torch.randn(10, 3, requires_grad=True), off, mode='sum')",
]

PROGRAM = HEAD + """
y = {expr}
val(y); graph(y)
(y * torch.randn(y.shape)).sum().backward()
for p in [t for t in globals().values() if isinstance(t, torch.nn.Module)] + [n.variable for n in [y.grad_fn.next_functions[0][0]] if hasattr(n, 'variable')]:
    if getattr(p, "grad", None) is not None:
        val(p.grad)
"""


@pytest.mark.parametrize("expr", CASES)
def test_embedding_bag(conform, expr):
    conform(PROGRAM.format(expr=expr))


PRINTED = HEAD + """
e = torch.nn.EmbeddingBag(10, 5, mode='mean')
print(e, torch.nn.EmbeddingBag(10, 3, mode='max', padding_idx=0, include_last_offset=True, max_norm=1.), e.weight[:2])
y = e(text, off); y.sum().backward(); print(y, e.weight.grad[:6])
s = torch.nn.EmbeddingBag(10, 3, mode='sum'); w = torch.rand(9, requires_grad=True)
y = s(text, off, per_sample_weights=w); y.sum().backward(); val(y, w.grad, s.weight.grad)
m = torch.nn.EmbeddingBag(10, 3, mode='max'); y = m(text, off); y.sum().backward(); print(y, m.weight.grad)
p = torch.nn.EmbeddingBag.from_pretrained(torch.eye(4)); print(p, p.weight.requires_grad, p(torch.tensor([[0, 1]])))
print(torch.nn.EmbeddingBag.from_pretrained(torch.eye(4), freeze=False, mode='sum').weight.requires_grad)
for call in [lambda: e(text), lambda: e(text.float(), off),
             lambda: torch.nn.EmbeddingBag(10, 3, mode='foo')(text, off), lambda: e(text, torch.tensor([1, 3])),
             lambda: e(text, off, per_sample_weights=torch.ones(9)), lambda: e(torch.tensor([11]), torch.tensor([0])),
             lambda: torch.nn.EmbeddingBag(10, 3, padding_idx=10), lambda: s(text, off, per_sample_weights=torch.ones(3))]:
    with expect():
        call()
"""


def test_printed(conform):
    conform(PRINTED)
