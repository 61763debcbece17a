"""``torch.profiler``: the newer face of the same profiler as ``torch.autograd.profiler`` (its ``profile`` takes
``activities=[ProfilerActivity.CPU]``; schedules, traces and memory are not there).

>>> import autograd_tutor as torch
>>> from autograd_tutor.profiler import ProfilerActivity, profile, record_function
>>> w = torch.ones(2, requires_grad=True)
>>> with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
...     with record_function("double"):
...         y = w * 2
>>> [e.key for e in prof.key_averages()]
['double', 'aten::mul']
"""
from __future__ import annotations

import enum

from .autograd import profiler as _autograd_profiler
from .autograd.profiler import record_function

__all__ = ["ProfilerActivity", "profile", "record_function"]


class ProfilerActivity(enum.Enum):
    """What a profile listens to: the CPU (the only one here; CUDA is accepted and sees nothing)."""
    CPU = 0
    XPU = 1
    CUDA = 2
    HPU = 3
    MTIA = 4
    PrivateUse1 = 5


class profile(_autograd_profiler.profile):
    """``with profile(activities=[ProfilerActivity.CPU]) as prof:``: see ``torch.autograd.profiler.profile``."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes: bool = False,
                 profile_memory: bool = False, with_stack: bool = False, with_flops: bool = False,
                 with_modules: bool = False, **ignored) -> None:
        super().__init__(record_shapes=record_shapes, profile_memory=profile_memory, with_stack=with_stack)

    def step(self) -> None:
        """The end of one step of a schedule; without schedules, nothing to do."""
