"""``torch.isin`` (issue 14: dropping stop words or padding ids from a batch of tokens): tensor and number
operands, ``invert``, ``assume_unique``, torch's promotion (a float32 tensor meets a Python float in float32),
nan, ``out=``, and torch's errors."""
import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
a = torch.tensor([[1, 2], [3, 4]]); b = torch.tensor([2, 3, 7])
print(torch.isin(a, b), torch.isin(a, b, invert=True), torch.isin(a, 3), torch.isin(2, b), torch.isin(a, b, assume_unique=True))
print(torch.isin(torch.tensor([1., float('nan'), 2.]), torch.tensor([float('nan'), 2.])))
print(torch.isin(torch.tensor([1, 2]), torch.tensor([1.5, 2.0])), torch.isin(torch.tensor([1., 2.], requires_grad=True), torch.tensor([2.])))
print(torch.isin(torch.tensor([0.1, 0.2]), 0.1), torch.isin(torch.tensor([0.1], dtype=torch.float64), torch.tensor([0.1])))
words = torch.tensor([5, 17, 2, 99, 17, 0]); stop = torch.tensor([0, 2]); print(words[~torch.isin(words, stop)])
for c in [lambda: torch.isin(1, 2), lambda: torch.isin(a, [1, 2]), lambda: torch.isin(torch.tensor([True]), torch.tensor([1])),
          lambda: torch.isin(torch.tensor([1]), torch.tensor([True])), lambda: torch.isin(True, torch.tensor([1])),
          lambda: torch.isin(torch.tensor([1]), 2.5), lambda: torch.isin(torch.tensor([1.5]), 1.5), lambda: torch.isin(torch.tensor(1), torch.tensor([[1, 2]])),
          lambda: torch.isin(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 3]), assume_unique=True, invert=True),
          lambda: torch.isin(torch.tensor([1]), torch.tensor([1]), out=torch.empty(1, dtype=torch.bool))]:
    try: print(c())
    except Exception as e: print(type(e).__name__, e)
"""


def test_isin(conform):
    conform(PROGRAM)
