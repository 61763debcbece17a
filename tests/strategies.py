"""Hypothesis strategies for random expression graphs, driven by one table of operations.

A :class:`Program` is a few float64 leaves and a list of steps; each step applies an operation from
:data:`OPS` to earlier values, so values are reused (``v1 * v1``, ``v0`` feeding three steps) and shapes
broadcast. The program is plain Python source over a module named ``torch``: running the same text with
``autograd_tutor`` and with real torch is the whole trick behind the conformance property, and a failing
example prints as code you can paste.

>>> import numpy as np, autograd_tutor
>>> p = Program(leaves=(np.array([1., 2.]),), steps=("torch.exp(v0)", "v0 * v1"))
>>> print(p.source())
v1 = torch.exp(v0)
v2 = v0 * v1
loss = v1.sum() + v2.sum()
>>> round(p.run(autograd_tutor)[1].item(), 4)  # (e + e**2) + (e + 2 e**2)
27.6037
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = ["Op", "OPS", "LEAF_SHAPES", "Program", "programs"]


def _broadcast(a: tuple, b: tuple) -> Optional[tuple]:
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


def _matmul(a: tuple, b: tuple) -> Optional[tuple]:
    """The shape of ``a @ b`` for 1-d and 2-d operands (Dot, Mv, Mm and vector @ matrix), None if they don't fit."""
    if not a or not b or len(a) > 2 or len(b) > 2 or a[-1] != b[0]:
        return None
    return a[:-1] + b[1:]


def _reduced(shape: tuple, dim: int, keepdim: bool) -> tuple:
    dim %= len(shape)
    return shape[:dim] + ((1,) if keepdim else ()) + shape[dim + 1:]


def _dims(shape: tuple):
    """Parameters of a reduction along one dimension of ``shape``."""
    return st.fixed_dictionaries({"dim": st.integers(-len(shape), len(shape) - 1), "keepdim": st.booleans()})


@dataclass(frozen=True)
class Op:
    """One operation: a source template over ``{0}``, ``{1}`` and named parameters, and its result shape.

    ``shape(*input_shapes, **params)`` returns None when the inputs do not fit together.
    ``params(shape of the first input)`` is a strategy of keyword parameters, or None when the shape has none.
    """
    template: str
    arity: int
    shape: Callable[..., Optional[tuple]]
    params: Optional[Callable[[tuple], Optional[st.SearchStrategy]]] = None


def _same(a: tuple, **_) -> tuple:
    return a


OPS = {
    "add": Op("{0} + {1}", 2, _broadcast),
    "sub": Op("{0} - {1}", 2, _broadcast),
    "mul": Op("{0} * {1}", 2, _broadcast),
    "div": Op("{0} / (1 + {1} ** 2)", 2, _broadcast),  # the denominator stays >= 1
    "pow": Op("{0} ** {k}", 1, _same, lambda s: st.fixed_dictionaries({"k": st.sampled_from([2, 3])})),
    "exp": Op("torch.exp({0})", 1, _same),
    "tanh": Op("torch.tanh({0})", 1, _same),
    "sigmoid": Op("torch.sigmoid({0})", 1, _same),
    "sin": Op("torch.sin({0})", 1, _same),
    "cos": Op("{0}.cos()", 1, _same),
    "sum": Op("{0}.sum()", 1, lambda a: ()),
    "mean": Op("{0}.mean()", 1, lambda a: ()),
    "sum_dim": Op("{0}.sum(dim={dim}, keepdim={keepdim})", 1, _reduced, lambda s: _dims(s) if s else None),
    "mean_dim": Op("{0}.mean({dim}, keepdim={keepdim})", 1, _reduced, lambda s: _dims(s) if s else None),
    "matmul": Op("{0} @ {1}", 2, _matmul),
    "logsumexp": Op("torch.logsumexp({0}, {dim}, keepdim={keepdim})", 1, _reduced, lambda s: _dims(s) if s else None),
    "flip": Op("{0}.flip({dim})", 1, _same, lambda s: _dims(s) if s else None),
    "repeat": Op("{0}.repeat(2, *[1] * {0}.dim())", 1, lambda a: (2,) + a),
    "gelu": Op("torch.nn.functional.gelu({0})", 1, _same),
    "silu": Op("torch.nn.functional.silu({0})", 1, _same),
    "softplus": Op("torch.nn.functional.softplus({0}, 2)", 1, _same),
    "elu": Op("torch.nn.functional.elu({0})", 1, _same),  # smooth at 0 for alpha = 1
}

#: Leaf shapes: they broadcast with each other in most pairs, and (2, 3) @ (3, 2) and friends multiply.
LEAF_SHAPES = [(), (3,), (2,), (2, 3), (3, 2), (2, 1), (1, 3)]


@dataclass(frozen=True)
class Program:
    """Leaves ``v0 .. v{n-1}`` (float64 arrays) and steps; step ``i`` defines ``v{n+i}``; the loss sums them all."""
    leaves: tuple
    steps: tuple

    def source(self) -> str:
        n = len(self.leaves)
        lines = [f"v{n + i} = {step}" for i, step in enumerate(self.steps)]
        lines.append("loss = " + " + ".join(f"v{n + i}.sum()" for i in range(len(self.steps))))
        return "\n".join(lines)

    def run(self, torch, leaves: Optional[list] = None) -> tuple:
        """Run in ``torch`` (either library) from leaves that require grad; return (leaves, loss, values)."""
        arrays = self.leaves if leaves is None else leaves
        ts = [torch.tensor(a, dtype=torch.float64, requires_grad=leaves is None) for a in arrays]
        scope = {"torch": torch, **{f"v{i}": t for i, t in enumerate(ts)}}
        exec(self.source(), scope)
        values = [scope[f"v{len(ts) + i}"] for i in range(len(self.steps))]
        return ts, scope["loss"], values

    def __repr__(self) -> str:
        leaves = "\n".join(f"v{i} = torch.tensor({a.tolist()!r}, dtype=torch.float64, requires_grad=True)"
                           for i, a in enumerate(self.leaves))
        return f"Program:\n{leaves}\n{self.source()}"


@st.composite
def programs(draw, max_leaves: int = 3, max_steps: int = 6) -> Program:
    """A random program: each step draws an op from :data:`OPS` and operands among the values so far."""
    shapes = draw(st.lists(st.sampled_from(LEAF_SHAPES), min_size=1, max_size=max_leaves))
    leaves = tuple(draw(hnp.arrays(np.float64, s, elements=st.floats(-1.5, 1.5))) for s in shapes)
    shapes = list(shapes)
    steps = []
    for _ in range(draw(st.integers(1, max_steps))):
        op = OPS[draw(st.sampled_from(sorted(OPS)))]
        first = draw(st.integers(0, len(shapes) - 1))
        args = [first]
        if op.arity == 2:
            fits = [j for j in range(len(shapes)) if op.shape(shapes[first], shapes[j]) is not None]
            if not fits:
                continue
            args.append(draw(st.sampled_from(fits)))
        params = op.params(shapes[first]) if op.params else None
        if op.params and params is None:
            continue
        params = draw(params) if params is not None else {}
        shapes.append(op.shape(*(shapes[i] for i in args), **params))
        steps.append(op.template.format(*(f"v{i}" for i in args), **params))
    if not steps:  # every drawn op was impossible: fall back to the simplest step
        shapes.append(shapes[0])
        steps.append("v0 * v0")
    return Program(leaves, tuple(steps))
