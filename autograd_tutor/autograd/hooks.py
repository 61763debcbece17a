"""Hook bookkeeping shared by tensors and graph nodes.

A hook is a function that the engine calls during backward. Registering one returns a
:class:`RemovableHandle`; ``handle.remove()`` unregisters it.

>>> hooks = {}
>>> h = RemovableHandle(hooks); hooks[h.id] = print
>>> h.remove(); hooks
{}
"""
from __future__ import annotations

import itertools

__all__ = ["RemovableHandle"]

_next_id = itertools.count()


class RemovableHandle:
    """Handle to one hook in a dict of hooks; ``remove()`` deletes it (again is harmless)."""

    def __init__(self, hooks_dict: dict) -> None:
        self.hooks_dict = hooks_dict
        self.id = next(_next_id)

    def remove(self) -> None:
        self.hooks_dict.pop(self.id, None)

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def add_hook(hooks: dict, fn) -> RemovableHandle:
    """Store ``fn`` in ``hooks`` (insertion order = call order) and return its handle."""
    if not callable(fn):
        raise TypeError(f"hook must be callable, got {type(fn).__name__}")
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


def hook_name(fn) -> str:
    """The name torch uses for a hook in messages: ``'<lambda>'``, ``'scale'``."""
    return getattr(fn, "__name__", type(fn).__name__)
