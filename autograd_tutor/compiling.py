"""``torch.compile``: here it runs the model or function as written, op by op.

torch's compiler traces a function into one graph and generates fused kernels for it, so that after
``torch.compile(model)`` a backward pass goes through one ``CompiledFunctionBackward`` node. A teaching engine has
nothing to gain from fusing, and a learner has much to lose: here ``compile`` keeps every node visible, computes
the same values, and accepts torch's arguments (and refuses a bad ``mode`` as torch does), so that a lesson
written with ``torch.compile`` runs unchanged. A compiled module is an ``OptimizedModule`` around the original,
as in torch (its parameters are named ``_orig_mod.weight`` ...).

>>> import autograd_tutor as torch
>>> torch.compile(torch.nn.Linear(2, 1))
OptimizedModule(
  (_orig_mod): Linear(in_features=2, out_features=1, bias=True)
)
>>> torch.compile(lambda t: t * 2)(torch.ones(2))
tensor([2., 2.])
"""
from __future__ import annotations

import functools

from .nn.modules.module import Module

__all__ = ["compile", "OptimizedModule"]

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


class OptimizedModule(Module):
    """What ``torch.compile(module)`` returns: calls the original module (``_orig_mod``), whose attributes it
    also answers for (``compiled.weight is module.weight``)."""

    def __init__(self, mod: Module) -> None:
        super().__init__()
        self._orig_mod = mod

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name: str):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(super().__getattr__("_orig_mod"), name)


def compile(model=None, *, fullgraph: bool = False, dynamic=None, backend="inductor", mode=None, options=None,
            disable: bool = False):
    """``torch.compile(model)`` or ``@torch.compile`` (with or without arguments): the model, run as written."""
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if model is None:
        return lambda fn: compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                  options=options, disable=disable)
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if isinstance(model, Module):
        return OptimizedModule(model)

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)
    return compiled
