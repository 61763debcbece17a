"""Property tests on random expression graphs (see ``strategies.py``), all in float64.

1. The gradient of every leaf matches central differences: d loss / d x_i ~ (f(x + h e_i) - f(x - h e_i)) / 2h.
2. Where torch is installed, the same program in torch gives the same values and the same gradients.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

import autograd_tutor
from strategies import OPS, Program, programs

H = 1e-6
#: Programs whose values grow past this are skipped: central differences lose their digits there.
LIMIT = 50.0
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _tame(program: Program) -> tuple:
    """Run the program in autograd_tutor; skip the example when a value is huge (exp of a cube...)."""
    leaves, loss, values = program.run(autograd_tutor)
    assume(all(np.all(np.abs(v.detach().numpy()) < LIMIT) for v in values))
    return leaves, loss, values


def _numeric_grad(program: Program, k: int) -> np.ndarray:
    """Central differences of the loss with respect to every element of leaf ``k``."""
    base = [np.array(a) for a in program.leaves]
    grad = np.zeros_like(base[k])
    for i in np.ndindex(base[k].shape):
        losses = []
        for step in (H, -H):
            moved = [a.copy() for a in base]
            moved[k][i] += step
            losses.append(program.run(autograd_tutor, moved)[1].item())
        grad[i] = (losses[0] - losses[1]) / (2 * H)
    return grad


@SETTINGS
@given(programs())
def test_gradients_match_central_differences(program):
    leaves, loss, _ = _tame(program)
    loss.backward()
    for k, leaf in enumerate(leaves):
        analytic = np.zeros(leaf.shape) if leaf.grad is None else leaf.grad.numpy()
        numeric = _numeric_grad(program, k)
        np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-5,
                                   err_msg=f"d loss / d v{k} differs from central differences in\n{program!r}")


@SETTINGS
@given(programs())
def test_values_and_gradients_match_torch(program):
    torch = pytest.importorskip("torch")
    leaves, loss, values = _tame(program)
    loss.backward()
    t_leaves, t_loss, t_values = program.run(torch)
    t_loss.backward()
    for k, (v, tv) in enumerate(zip(values, t_values)):
        assert v.dtype == autograd_tutor.float64
        assert v.shape == tuple(tv.shape), f"v{len(leaves) + k} in\n{program!r}"
        np.testing.assert_allclose(v.detach().numpy(), tv.detach().numpy(), rtol=1e-12, atol=1e-12,
                                   err_msg=f"value of v{len(leaves) + k} in\n{program!r}")
    for k, (leaf, t_leaf) in enumerate(zip(leaves, t_leaves)):
        assert (leaf.grad is None) == (t_leaf.grad is None), f"v{k}.grad in\n{program!r}"
        if leaf.grad is not None:
            np.testing.assert_allclose(leaf.grad.numpy(), t_leaf.grad.numpy(), rtol=1e-10, atol=1e-12,
                                       err_msg=f"v{k}.grad in\n{program!r}")


def test_every_op_of_the_table_runs_in_a_program():
    """The table drives both properties: each template is valid code for every shape it accepts."""
    leaves = (np.linspace(-1, 1, 6).reshape(2, 3), np.linspace(0.5, 1, 3))
    for name, op in OPS.items():
        args = ("v0", "v1") if op.arity == 2 and name != "matmul" else ("v0", "v0.T")[:op.arity]
        program = Program(leaves, (op.template.format(*args, k=2, dim=-1, keepdim=True),))
        _, loss, (value,) = program.run(autograd_tutor)
        loss.backward()
        assert value.grad_fn is not None, name
