'''The seed lessons' programs, copied from the four course pages, print exactly what PyTorch prints.

Each program runs unchanged except its first line, ``import torch``, which becomes
``import autograd_tutor as torch``. Every test checks the key lines literally (no torch needed); where torch
is installed, the whole output is also compared with torch's after replacing memory addresses.
'''
import contextlib
import io
import re

import pytest

PROGRAMS = {
    "trace d = a*b + a": ("""
import torch

a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
c = a * b
d = c + a
d.backward()
print(a.grad.item(), b.grad.item())
""", "5.0 3.0\n"),

    "inspecting the graph": ("""
import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)

z = w * x          # MulBackward0
y = z + b          # AddBackward0
loss = y ** 2      # PowBackward0

# Leaves
print(x.is_leaf, x.grad_fn)   # True None
print(w.is_leaf, w.grad_fn)   # True None

# Intermediates
print(z.is_leaf, z.grad_fn)   # False <MulBackward0>
print(y.is_leaf, y.grad_fn)   # False <AddBackward0>
print(loss.grad_fn)           # <PowBackward0>
""", """True None
True None
False <MulBackward0 object at 0x...>
False <AddBackward0 object at 0x...>
<PowBackward0 object at 0x...>
"""),

    "backward through a linear-regression-like graph": ("""
import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)

z = w * x          # 6
y = z + b          # 7
loss = y ** 2      # 49
loss.backward()

# Gradients via chain rule
# dloss/dy = 2y       = 14
# dy/dz   = 1         → dloss/dz = 14
# dy/db   = 1         → dloss/db = 14
# dz/dw   = x = 2     → dloss/dw = 28
# dz/dx   = w = 3     → dloss/dx = 42
print(x.grad, w.grad, b.grad)
# tensor(42.) tensor(28.) tensor(14.)
""", "tensor(42.) tensor(28.) tensor(14.)\n"),

    "retain_graph: backward twice": ("""
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3

# First backward — frees graph by default
y.backward()
print(x.grad)         # 12.

# Second backward without retain_graph errors:
# y = x ** 3
# y.backward()  -- works because we built a fresh graph

# If you wanted to backward TWICE on the SAME graph:
x.grad = None
y = x ** 3
y.backward(retain_graph=True)
y.backward()          # second pass on the same retained graph
print(x.grad)         # 24. (gradients accumulate)
""", "tensor(12.)\ntensor(24.)\n"),

    "result z": ("""
import torch

# Tensors that require gradients
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)

# Operations
y = w * x  # Intermediate result 'y'
z = y + b  # Final result 'z'

print(f"Result z: {z}")
""", "Result z: 7.0\n"),

    "opting a tensor into the graph": ("""
import torch

x = torch.tensor([2.0, 3.0], requires_grad=True)  # opt in to autograd tracking
print(x.requires_grad)   # True  -> PyTorch will record ops on x
print(x.grad_fn)         # None  -> x is a leaf; nothing created it

w = torch.tensor([4.0])  # requires_grad defaults to False
print(w.requires_grad)   # False -> ordinary tensor, not tracked
""", "True\nNone\nFalse\n"),

    "watching the graph get built": ("""
import torch

x = torch.tensor(3.0, requires_grad=True)  # a tracked leaf
y = x * 2                                   # an operation -> creates a graph node
z = y + 1                                   # another operation -> another node

print(y.grad_fn)   # <MulBackward0 ...> -> records that y came from a multiply
print(z.grad_fn)   # <AddBackward0 ...> -> records that z came from an add
# The chain z <- y <- x is the computational graph PyTorch will walk backward.
""", "<MulBackward0 object at 0x...>\n<AddBackward0 object at 0x...>\n"),

    "turning tracking on after creation": ("""
import torch

a = torch.ones(2, 2)              # created untracked
a.requires_grad_(True)            # in-place: flip tracking ON (note trailing _)
b = (a * 3).sum()                 # b is now part of a graph rooted at a
print(b.grad_fn)                  # <SumBackward0 ...>
""", "<SumBackward0 object at 0x...>\n"),
}


def run(source: str, module: str) -> str:
    """Run a lesson program with ``torch`` meaning ``module``; return its stdout, addresses replaced by 0x...."""
    assert source.startswith("\nimport torch\n")
    if module != "torch":
        source = source.replace("import torch\n", f"import {module} as torch\n", 1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, f"<lesson program with {module}>", "exec"), {})
    return re.sub(r"0x[0-9a-f]+", "0x...", out.getvalue())


@pytest.mark.parametrize("name", PROGRAMS)
def test_lesson_program_prints_the_expected_lines(name):
    source, expected = PROGRAMS[name]
    assert run(source, "autograd_tutor") == expected


@pytest.mark.parametrize("name", PROGRAMS)
def test_lesson_program_prints_what_torch_prints(name):
    pytest.importorskip("torch")
    source, expected = PROGRAMS[name]
    assert run(source, "torch") == expected  # the literal expectations are torch's own output
    assert run(source, "autograd_tutor") == run(source, "torch")
