"""Anomaly mode: the forward stack each node keeps, and the checks on the engine's slow path (events, hooks)."""
import warnings

import pytest

import autograd_tutor as torch
from autograd_tutor import events


@pytest.fixture(autouse=True)
def anomaly_mode():
    with torch.autograd.set_detect_anomaly(True):
        yield


def _warning_of(fn) -> str:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError):
            fn()
    assert [w.category for w in caught] == [UserWarning]
    return str(caught[0].message)


def test_stack_keeps_nn_frames_and_drops_the_engines():
    layer = torch.nn.Linear(1, 1)
    torch.nn.init.zeros_(layer.bias)  # so that out = sqrt(0), and sqrt'(0) * 0 = inf * 0 = nan
    out = layer(torch.tensor([[0.]])).sqrt()  # the line this test shows
    message = _warning_of(lambda: (out * 0.).sum().backward())
    assert message.startswith("Error detected in SqrtBackward0. Traceback of forward call that caused the error:\n")
    assert "out = layer(torch.tensor([[0.]])).sqrt()  # the line this test shows\n" in message
    assert "/autograd_tutor/autograd/" not in message
    lin = torch.nn.Linear(1, 1)
    y = lin(torch.tensor([[1.]]))
    y.grad_fn.register_prehook(lambda g: 1 / 0)
    with warnings.catch_warnings(record=True) as caught, pytest.raises(ZeroDivisionError):
        warnings.simplefilter("always")
        y.sum().backward()
    assert "/autograd_tutor/nn/" in str(caught[0].message)  # torch's stack shows torch/nn frames too


def test_nan_check_on_the_event_path_and_on_hooked_nodes():
    x = torch.tensor(0., requires_grad=True)
    y = x.sqrt()
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
    with events.record() as trace:
        message = _warning_of(lambda: (y * 0.).backward())
    assert message.startswith("Error detected in SqrtBackward0.")
    failed = trace.of("backward_failed")
    assert [(e.name, e.message) for e in failed] == [
        ("SqrtBackward0", "Function 'SqrtBackward0' returned nan values in its 0th output.")]


def test_nodes_made_with_anomaly_mode_off_have_no_stack():
    with torch.autograd.set_detect_anomaly(False):
        y = torch.tensor(0., requires_grad=True).sqrt() * 0.
    assert "No forward pass information available" in _warning_of(y.backward)
