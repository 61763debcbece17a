"""Saved tensors, op by op: which ``_saved_*`` tensors a node holds, how many go through saved_tensors_hooks,
that reading them after a backward without retain_graph raises torch's error, and that retain_graph keeps them.

The attribute names are those torch's node exposes with a tensor (or a tuple of tensors, or None) as value;
torch's other ``_saved_*`` attributes are internal metadata (strides, dims encoded as unsigned integers) that
autograd_tutor does not imitate. The documented scalar ones (alpha, exponent, sizes) have their own cases.
"""
import pytest

from test_conf_ops import LEAVES, OPS

torch = pytest.importorskip("torch")


def _tensor_saved_names(expr: str) -> list:
    env: dict = {}
    exec(LEAVES, {"torch": torch}, env)
    node = eval(expr, {"torch": torch, **env}).grad_fn
    names = []
    for name in sorted(a for a in dir(node) if a.startswith("_saved_")):
        value = getattr(node, name)
        if value is None or isinstance(value, torch.Tensor) or (
                isinstance(value, tuple) and any(isinstance(e, torch.Tensor) for e in value)):
            names.append(name)
    return names


def _program(expr: str) -> str:
    names = _tensor_saved_names(expr)
    show = "".join(f"    with expect():\n        print({n!r}, repr(y.grad_fn.{n}))\n" for n in names)
    return LEAVES + f"""
packed, unpacked = [], []
def pack(t):
    packed.append(str(t))
    return t
def unpack(t):
    unpacked.append(str(t))
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = {expr}
print("packed", packed)
def show():
{show or "    pass"}
show()
gy = torch.arange(1., y.numel() + 1).reshape(y.shape)
y.backward(gy, retain_graph=True)
print("unpacked", unpacked)
show()
y.backward(gy)
show()
with expect():
    y.backward(gy)
"""


@pytest.mark.parametrize("expr", OPS)
def test_saved_tensors(conform, expr):
    conform(_program(expr))
