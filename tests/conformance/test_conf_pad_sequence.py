"""``torch.nn.utils.rnn.pad_sequence`` (issue 14: NLP tutorials pad their batches in a collate function): values,
gradients, the CopySlices graph torch records, both sides and batch_first, and torch's errors."""
import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
pad_sequence = torch.nn.utils.rnn.pad_sequence
a = torch.ones(3, 2, requires_grad=True); b = torch.ones(1, 2, requires_grad=True)
p = pad_sequence([a, b]); print(p.shape, p); graph(p)
(p * torch.arange(12.).reshape(3, 2, 2)).sum().backward(); print(a.grad, b.grad)
print(pad_sequence([a, b], batch_first=True, padding_value=-1., padding_side='left'))
print(pad_sequence((torch.tensor([1, 2]), torch.tensor([3]))), pad_sequence([torch.tensor([1., 2.])], batch_first=True))
print(pad_sequence([torch.zeros(0, 2), torch.ones(2, 2)], batch_first=True), pad_sequence(a))
for call in [lambda: pad_sequence([]), lambda: pad_sequence([torch.ones(2), torch.ones(2, 3)]),
             lambda: pad_sequence([a], padding_side='up')]:
    with expect():
        call()
"""


def test_pad_sequence(conform):
    conform(PROGRAM)
