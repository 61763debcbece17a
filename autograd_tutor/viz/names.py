"""The learner's own variable names for the tensors of a graph, found by identity in a namespace.

In a notebook the namespace is IPython's ``user_ns``; in a script it is the caller's globals and locals.
A name is kept when it is a plain identifier (``_``, ``_3`` and ``__x`` are IPython's or private) and its
value *is* a tensor (identity, not equality). Modules with ``named_parameters()`` (``nn.Linear``) lend
their parameters dotted names: ``model.weight``.

>>> import autograd_tutor as torch
>>> w = torch.tensor(1., requires_grad=True)
>>> [name for name, t in tensors_in({"w": w, "_": w, "n": 3})]
['w']
"""
from __future__ import annotations

import sys
from collections import ChainMap
from typing import Iterator, Mapping, Optional

__all__ = ["tensors_in", "dotted", "is_tensor", "caller_namespace", "notebook_namespace"]


def is_tensor(obj) -> bool:
    """True for a tensor of this package or of PyTorch (anything with ``grad_fn`` and ``requires_grad``)."""
    cls = type(obj)
    return hasattr(cls, "grad_fn") and hasattr(cls, "requires_grad")


def tensors_in(namespace: Mapping) -> Iterator[tuple]:
    """Yield ``(name, tensor)`` for the tensors of a namespace, then the parameters of its modules."""
    modules = []
    for name, value in list(namespace.items()):
        if not isinstance(name, str) or name.startswith("_"):
            continue
        if is_tensor(value):
            yield name, value
        elif callable(getattr(value, "named_parameters", None)) and not isinstance(value, type):
            modules.append((name, value))
    for name, p in dotted(modules, "named_parameters"):
        if is_tensor(p):
            yield name, p


def dotted(modules, method: str) -> Iterator[tuple]:
    """``(name.qualified, member)`` for what ``module.<method>()`` lists (``named_parameters``,
    ``named_modules``) of each ``(name, module)``; the module itself (qualified ``""``) as ``name``."""
    for name, module in modules:
        try:
            members = list(getattr(module, method)())
        except Exception:  # a user object that only looks like a module
            continue
        for qualified, member in members:
            yield (f"{name}.{qualified}" if qualified else name), member


def notebook_namespace() -> Optional[dict]:
    """IPython's ``user_ns`` when running inside IPython or Jupyter, else None."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None)
    shell = get() if get is not None else None
    return getattr(shell, "user_ns", None)


def caller_namespace(depth: int = 2) -> Mapping:
    """The variables seen ``depth`` frames up: its locals, its globals, then the notebook's (IPython's ``user_ns``).

    In a notebook cell the globals *are* the notebook's; from a function, a magic or a test, the caller's own
    variables come first. Globals and the notebook's namespace stay live (later assignments are seen).
    """
    frame = sys._getframe(depth)
    maps = [] if frame.f_locals is frame.f_globals else [dict(frame.f_locals)]
    maps.append(frame.f_globals)
    notebook = notebook_namespace()
    if notebook is not None and notebook is not frame.f_globals:
        maps.append(notebook)
    return ChainMap(*maps)
