"""Reductions with ``dtype=`` (``sum``, ``mean``, ``prod``, ``cumsum``: the input cast first, the gradient cast back,
no extra node) and ``unsafe_split`` / ``unsafe_chunk`` (split's pieces, not autograd views: UnsafeSplitBackward0, as
in torch's LSTM and GRU cells). Run in torch and autograd_tutor: values, graphs, gradients and errors."""
import pytest

from test_conf_ops import LEAVES, PROGRAM

torch = pytest.importorskip("torch")

OPS = [
    "m.sum(dtype=torch.float64)", "torch.sum(m, 1, dtype=torch.float64)", "m.sum(0, True, dtype=torch.float16)",
    "torch.sum(t3, (0, 2), dtype=torch.float64)", "m.mean(dtype=torch.float64)", "torch.mean(t3, 1, dtype=torch.float64)",
    "m.mean(dim=0, keepdim=True, dtype=torch.float64)", "v.prod(dtype=torch.float64)", "torch.prod(m, 1, dtype=torch.float64)",
    "m.cumsum(1, dtype=torch.float64)", "m.double().sum(dtype=torch.float32)",
    "torch.unsafe_chunk(v, 2)[1]", "m.unsafe_chunk(3, 1)[2]", "torch.unsafe_split(t3, 1, 1)[0]", "v.unsafe_split(2)[0]",
    "m.unsafe_split_with_sizes([1, 2], 1)[1]", "torch.unsafe_split_with_sizes(t3, [2, 1], dim=2)[0]",
    "sum(m.unsafe_chunk(2, 0))", "(m * 1).unsafe_chunk(3, 1)[0].mul_(2)",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


PRINTED = LEAVES + """
i = torch.tensor([[1, 2], [3, 4]])
print(i.sum(dtype=torch.float32), torch.sum(i, 0, dtype=torch.int8), i.mean(dtype=torch.float64), i.mean(1, dtype=torch.float32))
print(torch.tensor([200, 100], dtype=torch.uint8).sum(dtype=torch.uint8), torch.tensor([True, True]).sum(dtype=torch.bool))
print(i.prod(dtype=torch.float32), torch.prod(i, 1, dtype=torch.int16), torch.tensor([100, 100], dtype=torch.int8).prod(dtype=torch.int8))
print(torch.sum(m, dtype=torch.float64, dim=1).dtype, torch.mean(i.float(), dtype=torch.float64))
with expect(): i.mean(dtype=torch.int64)
with expect(): m.mean(dtype=torch.int32)
with expect(): m.sum(dtype=torch.int64)
with expect(): m.prod(dtype=torch.long)
with torch.no_grad():
    print(m.sum(dtype=torch.int64), m.prod(1, dtype=torch.int32))
y = m.sum(dtype=torch.float64) * 2
y.backward()
print(m.grad, m.grad.dtype)
y = m * 1
pieces = y.unsafe_chunk(3, 1)
print(pieces, pieces[0]._base, [p._version for p in pieces], y._version)
pieces[1].add_(10)
print(y, pieces[1].grad_fn, y._version, pieces[1]._version)
print(torch.unsafe_chunk(torch.arange(5), 2), torch.unsafe_split(torch.arange(5.), 2, dim=0), torch.unsafe_chunk(torch.ones(0, 2), 2))
with expect(): v.unsafe_split([1, 2])
with expect(): torch.unsafe_chunk(s, 2)
with expect(): v.unsafe_chunk(0)
with expect(): v.unsafe_split_with_sizes([1, 1])
torch.manual_seed(0)
for cell in (torch.nn.LSTMCell(3, 2), torch.nn.GRUCell(3, 2)):
    out = cell(torch.randn(4, 3))
    h = out[0] if isinstance(out, tuple) else out
    graph(h)
    h.sum().backward()
    val(cell.weight_ih.grad, cell.bias_hh.grad)
"""


def test_printed(conform):
    conform(PRINTED)
