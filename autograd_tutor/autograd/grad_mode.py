"""Grad mode: whether operations record a graph.

``no_grad``, ``enable_grad``, ``set_grad_enabled`` and ``inference_mode`` work as context managers and as
decorators, exactly like torch's. Grad mode only decides whether *new* operations are recorded; a backward
pass started inside ``no_grad`` still runs.

>>> import autograd_tutor as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> with torch.no_grad():
...     y = x * 2
>>> y.requires_grad, y.is_leaf
(False, True)
"""
from __future__ import annotations

import functools
import inspect

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]

# One-element lists so the engine reads them with a single index (fast and mutable in place).
_grad_enabled = [True]
_inference = [False]


def is_grad_enabled() -> bool:
    """True when new operations are recorded into the graph."""
    return _grad_enabled[0]


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()``."""
    return _inference[0]


class _GradModeContext:
    """A context manager that is also a decorator: ``with no_grad():`` or ``@no_grad()`` (or ``@no_grad``)."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.__module__ = "torch.autograd.grad_mode"  # printed as torch prints them

    def __new__(cls, *args, **kwargs):
        # ``@no_grad`` without parentheses passes the function itself.
        if cls._allows_bare_decorator and len(args) == 1 and not kwargs and callable(args[0]):
            return cls()(args[0])
        return super().__new__(cls)

    _allows_bare_decorator = True

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):  # the mode holds while the generator runs, not while it waits
            @functools.wraps(func)
            def generator(*args, **kwargs):
                steps = func(*args, **kwargs)
                while True:
                    with self.__class__(*self._args):
                        try:
                            value = next(steps)
                        except StopIteration as stop:
                            return stop.value
                    yield value
            return generator

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._args):
                return func(*args, **kwargs)
        return wrapper

    _args: tuple = ()

    def __exit__(self, *exc) -> None:
        _grad_enabled[0], _inference[0] = self._prev


class no_grad(_GradModeContext):
    """Do not record operations: results neither require grad nor have a grad_fn."""

    def __enter__(self) -> None:
        self._prev = (_grad_enabled[0], _inference[0])
        _grad_enabled[0] = False


class enable_grad(_GradModeContext):
    """Record operations again, e.g. inside a ``no_grad`` block."""

    def __enter__(self) -> None:
        self._prev = (_grad_enabled[0], _inference[0])
        _grad_enabled[0] = True


class set_grad_enabled(_GradModeContext):
    """Turn recording on or off: ``set_grad_enabled(False)`` acts at once; as a context manager it restores."""
    _allows_bare_decorator = False

    def __init__(self, mode: bool) -> None:
        self._args = (mode,)
        self._prev = (_grad_enabled[0], _inference[0])
        _grad_enabled[0] = bool(mode)

    def __enter__(self) -> None:
        pass

    def __call__(self, func):
        _grad_enabled[0], _inference[0] = self._prev  # as a decorator it changes nothing until func runs
        return super().__call__(func)


class inference_mode(_GradModeContext):
    """Like ``no_grad``, and tensors made inside are *inference tensors* that autograd refuses to use later."""
    _allows_bare_decorator = False

    def __init__(self, mode: bool = True) -> None:
        self._args = (mode,)
        self._mode = bool(mode)

    def __enter__(self) -> None:
        self._prev = (_grad_enabled[0], _inference[0])
        # inference_mode(False) inside inference_mode() turns it off again, and recording back on
        _grad_enabled[0], _inference[0] = not self._mode, self._mode
