"""``torch.autograd.graph``: the node type and the saved-tensor hooks.

>>> import autograd_tutor as torch
>>> isinstance((torch.tensor(1., requires_grad=True) * 2).grad_fn, torch.autograd.graph.Node)
True
"""
from .function import Node, saved_tensors_hooks

__all__ = ["Node", "saved_tensors_hooks"]
