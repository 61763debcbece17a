"""``torch.finfo`` / ``torch.iinfo`` (issue 14: numerics lessons clamp by ``eps`` and print a dtype's limits): every
field, the reprs, equality, the default dtype, and torch's errors."""
import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
for d in [torch.float32, torch.float64, torch.float16]:
    f = torch.finfo(d)
    print(repr(f), f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype, type(f.eps))
print(torch.finfo(), torch.finfo().dtype, torch.finfo(torch.float32) == torch.finfo(), torch.finfo(torch.float32) == torch.finfo(torch.float64))
for d in [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8]:
    i = torch.iinfo(d)
    print(repr(i), i.bits, i.max, i.min, i.dtype)
x = torch.tensor([1e-30, 1.])
print(x.clamp(min=torch.finfo(x.dtype).eps), torch.finfo(x.dtype).tiny > 0, torch.iinfo(torch.int64).max + 1)
for call in [lambda: torch.finfo(torch.int32), lambda: torch.iinfo(torch.float32), lambda: torch.finfo("float32"),
             lambda: torch.finfo(torch.float32).foo, lambda: torch.iinfo(torch.bool), lambda: torch.finfo(torch.bool),
             lambda: torch.iinfo(3)]:
    with expect():
        call()
"""


def test_type_info(conform):
    conform(PROGRAM)
