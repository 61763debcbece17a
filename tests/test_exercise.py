"""check_backward: a learner's backward of their own autograd.Function, checked against central differences;
the verdict agrees with torch.autograd.gradcheck on the same code, the wrong input's edge is marked with what
was expected and what came back, and an error in the learner's code is one line naming their line."""
import textwrap

import numpy as np
import pytest

import autograd_tutor
from autograd_tutor.exercise import check_backward

#: The backward bodies a learner might write for y = a * b + c (forward saves a and b); True when right.
MULADD_BACKWARDS = {
    "return g * b, g * a, g": True,
    "return g * b, g * b, g": False,        # b's gradient is a, not b
    "return b, a, torch.ones_like(g)": False,   # grad_output ignored
    "return g * b, g * a, g * 2": False,
    "return g * b, g * a, g.sum()": False,  # c is a vector: its gradient must be one too (torch: shape error)
}
SOURCE = '''
class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c):
        ctx.save_for_backward(a, b)
        return a * b + c

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        {body}
'''


def muladd(lib, body):
    ns = {"torch": lib}
    exec(textwrap.dedent(SOURCE).format(body=body), ns)
    return ns["MulAdd"]


def inputs(lib):
    return tuple(lib.tensor(v, dtype=lib.float64, requires_grad=True)
                 for v in ([1.0, 2.0], [3.0, -4.0], [0.5, 0.25]))


@pytest.mark.parametrize("body", list(MULADD_BACKWARDS))
def test_the_verdict_is_the_expected_one_and_torch_gradcheck_agrees(body):
    result = check_backward(muladd(autograd_tutor, body), inputs(autograd_tutor))
    assert result.ok is MULADD_BACKWARDS[body], str(result)
    torch = pytest.importorskip("torch")
    try:
        theirs = torch.autograd.gradcheck(muladd(torch, body).apply, inputs(torch), raise_exception=False)
    except RuntimeError:  # torch refuses a gradient of the wrong shape outright
        theirs = False
    assert theirs is result.ok


def test_the_wrong_input_is_named_with_expected_and_got_and_its_edge_is_marked():
    a, b, c = inputs(autograd_tutor)
    result = check_backward(muladd(autograd_tutor, "return g * b, g * b, g"), (a, b, c))
    assert [(i.name, i.ok) for i in result.inputs] == [("a", True), ("b", False), ("c", True)]
    np.testing.assert_allclose(result.inputs[1].expected, [1.0, 2.0])
    np.testing.assert_allclose(result.inputs[1].got, [3.0, -4.0])
    assert str(result).splitlines() == ["check_backward(MulAdd): wrong for b",
                                        "  a: expected [3, -4], got [3, -4]  (right)",
                                        "  b: expected [1, 2], got [3, -4]  (wrong)",
                                        "  c: expected [1, 1], got [1, 1]  (right)"]
    page = result._repr_html_()
    assert page.count('class="edge is-wrong"') == 1 and page.count('class="edge is-right"') == 2
    assert "✗ expected [1, 2], got [3, -4]" in page and "MulAddBackward" in page


def test_a_backward_that_ignores_grad_output_is_caught_even_when_the_jacobian_looks_right():
    class Norm2(autograd_tutor.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return (x * x).sum()

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return 2 * x

    x = autograd_tutor.tensor([1.0, 2.0], requires_grad=True)
    result = check_backward(Norm2, x)
    assert not result.ok and all(i.ok for i in result.inputs)
    assert result.error == ("Your backward ignores grad_output: given grad_output = 0 it still returned a gradient "
                            "for x. Multiply by grad_output (the chain rule).")


def test_an_error_in_the_learners_backward_is_one_line_with_their_line():
    class Sine(autograd_tutor.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return grad_output * y.cos()  # noqa: F821 (the learner's mistake)

    x = autograd_tutor.tensor(1.0, requires_grad=True)
    result = check_backward(Sine, x)
    assert result.error == ("Your backward raised NameError: name 'y' is not defined (your backward, line 4: "
                            "return grad_output * y.cos()  # noqa: F821 (the learner's mistake))")
    assert "\n" not in result.error and result.inputs[0].got is None and not result.ok


def test_the_wrong_number_of_gradients_gives_torchs_message():
    class Twice(autograd_tutor.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 2, grad_output

    result = check_backward(Twice, autograd_tutor.tensor(1.0, requires_grad=True))
    assert result.error == ("Your backward raised RuntimeError: function TwiceBackward returned an incorrect number "
                            "of gradients (expected 1, got 2)")


def test_a_right_backward_in_float32_inputs_is_checked_in_float64():
    class Sigmoid(autograd_tutor.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = 1 / (1 + (-x).exp())
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad_output):
            y, = ctx.saved_tensors
            return grad_output * y * (1 - y)

    x = autograd_tutor.tensor([0.0, 1.0, -2.0], requires_grad=True)
    result = check_backward(Sigmoid, x)
    assert result.ok and str(result).startswith("check_backward(Sigmoid): right")
    assert "is-right" in result._repr_html_() and x.grad is None   # the learner's tensor is left alone


def test_bad_arguments_are_refused_clearly():
    x = autograd_tutor.tensor(1.0)
    with pytest.raises(TypeError, match="expects a torch.autograd.Function subclass"):
        check_backward(lambda t: t, x)
    with pytest.raises(ValueError, match="at least one input tensor with requires_grad=True"):
        check_backward(muladd(autograd_tutor, "return g, g, g"), (x, x, x))
