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
from typing import Iterator, Mapping, Optional

__all__ = ["tensors_in", "is_tensor", "caller_namespace", "notebook_namespace"]


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
    for name, module in modules:
        try:
            params = list(module.named_parameters())
        except Exception:  # a user object that only looks like a module
            continue
        for pname, p in params:
            if is_tensor(p):
                yield f"{name}.{pname}", p


def notebook_namespace() -> Optional[dict]:
    """IPython's ``user_ns`` when running inside IPython or Jupyter, else None."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None)
    shell = get() if get is not None else None
    return getattr(shell, "user_ns", None)


def caller_namespace(depth: int = 2) -> dict:
    """The notebook namespace if there is one, else the globals and locals ``depth`` frames up."""
    ns = notebook_namespace()
    if ns is not None:
        return ns
    frame = sys._getframe(depth)
    merged = dict(frame.f_globals)
    merged.update(frame.f_locals)
    return merged
