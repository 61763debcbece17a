"""Make ``import torch`` give autograd_tutor, so an existing PyTorch notebook runs here unchanged.

Put one line at the top of the notebook, before anything imports torch::

    import autograd_tutor.as_torch          # or, in IPython: %load_ext autograd_tutor.as_torch

From then on, in this process, ``import torch``, ``import torch.nn as nn``, ``from torch import optim``,
``from torch.utils.data import DataLoader`` ... give the matching ``autograd_tutor`` modules, and the line prints
one note saying so. ``%load_ext`` also adds the ``%%autograd`` magics. A submodule autograd_tutor lacks
(``import torch.distributed``) fails as a missing module does: ``No module named 'torch.distributed'``.
If real PyTorch is already imported, the line refuses with an ``ImportError`` (the two cannot share the name):
restart the kernel and run it first.

How: a finder at the front of ``sys.meta_path`` answers for ``torch`` and every ``torch.<sub>`` with the module
already imported as ``autograd_tutor.<sub>``; nothing is copied, so ``torch.nn is autograd_tutor.nn``.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

__all__ = ["install", "load_ipython_extension"]

_TARGET = "autograd_tutor"
NOTE = ("import torch now gives autograd_tutor {version} (a NumPy engine that records its graph) in this kernel; "
        "restart the kernel to use PyTorch again.")


def _target_name(fullname: str) -> str | None:
    """``torch.nn.functional`` -> ``autograd_tutor.nn.functional``; None for names that are not torch's."""
    if fullname == "torch" or fullname.startswith("torch."):
        return _TARGET + fullname[len("torch"):]
    return None


def _resolve(name: str):
    """The module (or module-like namespace such as ``torch.cuda``) autograd_tutor has under ``name``, or None."""
    try:
        if importlib.util.find_spec(name) is not None:
            return importlib.import_module(name)
    except ModuleNotFoundError:
        return None
    parent, _, child = name.rpartition(".")
    value = getattr(sys.modules.get(parent), child, None)
    if isinstance(value, types.SimpleNamespace):      # torch.cuda, torch.backends: modules in torch
        module = types.ModuleType(name, f"autograd_tutor's {child}, as a module for `import torch.{child}`")
        module.__dict__.update(vars(value))
        return module
    return value if isinstance(value, types.ModuleType) else None


class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finder and loader in one: ``torch.<sub>`` is loaded as the already imported ``autograd_tutor.<sub>``."""

    def find_spec(self, fullname, path=None, target=None):
        name = _target_name(fullname)
        if name is None or _resolve(name) is None:
            return None                # not torch's, or missing: the other finders say "No module named ..."
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        module = _resolve(_target_name(spec.name))
        self._own_spec = getattr(module, "__spec__", None)   # importlib overwrites it with ours: put it back
        return module

    def exec_module(self, module):
        """Nothing to run (the autograd_tutor module is already imported): give it back its own spec."""
        module.__spec__ = self._own_spec


def _real_torch_imported() -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and getattr(torch, "__name__", None) != _TARGET


def install() -> bool:
    """Alias ``torch`` to autograd_tutor in this process; print the note the first time. Returns whether it did."""
    if any(isinstance(finder, _TorchAlias) for finder in sys.meta_path):
        return False
    if _real_torch_imported():
        where = getattr(sys.modules["torch"], "__file__", None) or "an unknown place"
        raise ImportError(f"autograd_tutor.as_torch: PyTorch is already imported in this kernel (from {where}), "
                          "so `import torch` cannot be given to autograd_tutor any more. Restart the kernel and run "
                          "`import autograd_tutor.as_torch` first, before any `import torch`.")
    sys.meta_path.insert(0, _TorchAlias())
    version = importlib.import_module(_TARGET).__version__
    print(NOTE.format(version=version))
    return True


def load_ipython_extension(ipython) -> None:
    """``%load_ext autograd_tutor.as_torch``: alias torch, and add the ``%%autograd`` magics."""
    from .magics import load_ipython_extension as load_magics
    load_magics(ipython)


install()
