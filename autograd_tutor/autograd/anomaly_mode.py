"""Anomaly detection: find the forward line behind a failing backward step.

With anomaly mode on, every node remembers the Python stack of the forward call that created it. When
backward fails at a node, a ``UserWarning`` first shows that stack ("Error detected in MulBackward0.
Traceback of forward call that caused the error: ..."), then the error propagates. With ``check_nan`` a node
whose gradients contain a nan stops the pass: ``Function 'SqrtBackward0' returned nan values in its 0th
output.`` (sqrt'(0) = 1 / (2 sqrt(0)) = inf, and inf * 0 = nan).

>>> import autograd_tutor as torch
>>> with torch.autograd.set_detect_anomaly(True):
...     torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()
(True, True)
>>> torch.is_anomaly_enabled()
False
"""
from __future__ import annotations

import os
import traceback
import warnings

import numpy as np

__all__ = ["detect_anomaly", "set_detect_anomaly"]

#: [enabled, check_nan]: the engine reads it once per backward pass, ``Function.apply`` once per node.
_mode = [False, True]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_NN = _PACKAGE + "nn" + os.sep  # torch's nn is Python too: its frames show in torch's tracebacks
_TRIGGERED = " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:{}.)"


def set_anomaly_enabled(mode: bool, check_nan: bool = True) -> None:
    """``torch.set_anomaly_enabled``: switch anomaly mode on or off, and its nan check (kept even while off)."""
    for position, (name, value) in enumerate((("enabled", mode), ("check_nan", check_nan)), 1):
        if type(value) is not bool:
            raise TypeError(f"set_anomaly_enabled(): argument '{name}' (position {position}) must be bool, not "
                            f"{type(value).__name__}")
    _mode[0], _mode[1] = mode, check_nan


def is_anomaly_enabled() -> bool:
    return _mode[0]


def is_anomaly_check_nan_enabled() -> bool:
    return _mode[1]


class _AnomalyContext:
    """Restores the previous mode on exit (the public classes print under torch's module name)."""

    def __init__(self) -> None:
        self.prev = tuple(_mode)

    def __exit__(self, *exc) -> None:
        set_anomaly_enabled(*self.prev)


class set_detect_anomaly(_AnomalyContext):
    """Turn anomaly mode on or off at once; as a context manager it restores the previous mode on exit."""
    __module__ = "torch.autograd.anomaly_mode"

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        super().__init__()
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass


class detect_anomaly(_AnomalyContext):
    """A context manager that turns anomaly mode on inside it (warning, as torch does, that it is slow)."""
    __module__ = "torch.autograd.anomaly_mode"

    def __init__(self, check_nan: bool = True) -> None:
        super().__init__()
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only "
                      "be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)


def forward_stack() -> list:
    """The caller's stack as ``traceback.format_list`` lines, without the engine's own innermost frames."""
    frames = traceback.extract_stack()
    while frames and frames[-1].filename.startswith(_PACKAGE) and not frames[-1].filename.startswith(_NN):
        frames.pop()
    return traceback.format_list(frames)


def report(node) -> None:
    """Warn where the failing node's forward call was (torch's message, before its error propagates)."""
    stack = node.__dict__.get("_anomaly_stack")
    if stack is None:
        message = (f"Error detected in {node.name()}. No forward pass information available. Enable detect "
                   "anomaly during forward pass for more information." + _TRIGGERED.format(100))
    else:
        message = (f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                   + "".join(stack) + _TRIGGERED.format(122))
    warnings.warn(message, UserWarning, stacklevel=2)  # shown at the engine's line, as torch's


def check_nan(node, grads) -> None:
    """Raise torch's error if one of the gradients a node returned (one per input) contains a nan."""
    for i, g in enumerate(grads):
        if g is not None and np.isnan(getattr(g, "_data", g)).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
