"""Learner-sized tracebacks: in IPython, an error the engine raises shows the learner's line and torch's message.

The engine's functions on the way to an intended error (a second backward through freed buffers, backward of a
non-scalar, an in-place change of a leaf, operands whose shapes do not fit) set ``__tracebackhide__`` to
:data:`ENGINE_FRAME`. IPython and Jupyter leave such frames out of a traceback (``[... skipping hidden 5
frame]``; the frame that raised stays, as IPython always shows the last one), so a learner reads their own
line, one engine line and the message, as short as torch's. Nothing else changes: plain Python (a script,
``python -c``) prints every frame, ``%xmode --show`` shows them in IPython, and pytest, which calls a
callable ``__tracebackhide__`` to ask, is told False, so a developer's test report keeps them all.

>>> ENGINE_FRAME(None), bool(ENGINE_FRAME)
(False, True)
"""
from __future__ import annotations

__all__ = ["ENGINE_FRAME"]


def ENGINE_FRAME(excinfo) -> bool:  # noqa: N802 (a constant to the modules that use it)
    """Hidden by IPython (which only tests the value for truth); shown by pytest (which calls it)."""
    return False
