"""``torch`` resolved to autograd_tutor: with this folder first on ``PYTHONPATH``, ``import torch`` imports ours.

``import torch.nn as nn``, ``from torch import optim`` and ``from torch.utils.data import DataLoader`` find
``autograd_tutor.nn``, ``autograd_tutor.optim`` and ``autograd_tutor.utils.data``: a finder on ``sys.meta_path``
answers every ``torch.X`` with the module ``autograd_tutor.X`` (and "No module named 'torch.X'" where we have none).
"""
import importlib
import importlib.abc
import importlib.util
import sys

import autograd_tutor


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``torch.X`` as ``autograd_tutor.X``, the very same module object."""

    def find_spec(self, name, path, target=None):
        if not name.startswith("torch."):
            return None
        if importlib.util.find_spec("autograd_tutor." + name[len("torch."):]) is None:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        module = importlib.import_module("autograd_tutor." + spec.name[len("torch."):])
        self._own_spec = module.__spec__  # the import system writes the alias's spec over it: put it back
        return module

    def exec_module(self, module):
        module.__spec__ = self._own_spec


sys.meta_path.insert(0, _Alias())
sys.modules["torch"] = autograd_tutor
