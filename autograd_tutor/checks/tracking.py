"""``check_tracking``: will backward give the tensors you train a gradient, and leave the data alone? (lesson 2)

Tracking is opt-in: only a *leaf* that requires grad, and that the loss was computed from through the graph,
gets a ``.grad``. The check reads the graph behind ``loss`` and asks the engine for the gradients themselves
(``torch.autograd.grad``, which fills no ``.grad`` and keeps the graph, so your cell can still call
``loss.backward()``). It names the first tensor that is wrong, with the reason and the fix:

* a tensor you train that is not a leaf (``torch.tensor(..., requires_grad=True) * 2`` is a result of a
  multiplication: its ``.grad`` stays None);
* one that does not require grad, or that the graph no longer reaches (a ``detach()``, ``torch.no_grad()``);
  the reasons come from :func:`~autograd_tutor.viz.cuts.explain_no_grad`;
* data that requires grad: it is tracked for nothing, and gets a ``.grad`` nobody uses.

Unlike :func:`~autograd_tutor.quiz.check_gradients` (lesson 9), which makes fresh parameters that require grad
and runs your training step, this checks the tensors *you* made.

>>> import autograd_tutor as torch
>>> w = torch.tensor([1., -2.], requires_grad=True) * 2
>>> b = torch.tensor(0.5, requires_grad=True)
>>> data = torch.tensor([3., 4.])
>>> loss = ((w * data).sum() + b) ** 2
>>> print(check_tracking(loss, trained={"w": w, "b": b}, data={"data": data}))
check_tracking: w is not a leaf (its grad_fn is MulBackward0): backward passes its gradient on to the leaves it was
computed from and keeps none in w.grad. Put requires_grad=True on the tensor you train itself, after any
arithmetic: w = torch.tensor(..., requires_grad=True).
"""
from __future__ import annotations

from typing import Mapping

from ..autograd.engine import grad as _grad
from ..autograd.tensor import Tensor
from ..quiz.generate import caller_namespace, values_text
from ..viz.cuts import explain_no_grad
from ..viz.model import GraphModel
from .drawing import Marks, check_html, graph_svg

__all__ = ["check_tracking", "TrackingCheck"]

_KEY = ("The graph behind your loss. The marked box is the tensor the verdict is about; a tensor drawn apart "
        "is not in the graph at all.")


class TrackingCheck:
    """What :func:`check_tracking` found: ``ok``, ``problem`` (one line), ``grads`` (name -> the gradient
    ``loss.backward()`` will give each tensor you train, None for none), ``model`` and ``marks``."""

    def __init__(self, model: GraphModel, problem: str, marks: Marks, grads: dict, root: str = "loss") -> None:
        self.model, self.problem, self.marks, self.grads, self.root = model, problem, marks, grads, root

    @property
    def ok(self) -> bool:
        return not self.problem

    @property
    def verdict(self) -> str:
        if self.ok:
            got = ", ".join(f"{k}.grad = {values_text(v._data, most=4)}" for k, v in self.grads.items())
            return (f"{self.root}.backward() will give {got}, and the data stays untracked. (Until it runs, "
                    "their .grad is None: this check asked the engine without filling it.)")
        return self.problem

    def __str__(self) -> str:
        return f"check_tracking: {'right' if self.ok else self.problem}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return check_html(self.ok, "Check of what your loss tracks", self.verdict,
                          [("", graph_svg(self.model, self.marks))], _KEY)


def check_tracking(loss, trained: Mapping, data: Mapping = None) -> TrackingCheck:
    """Check that ``loss.backward()`` gives every tensor of ``trained`` (name -> tensor) a gradient and that no
    tensor of ``data`` (name -> tensor) is tracked; the graph is kept and no ``.grad`` is filled."""
    data = dict(data or {})
    for name, t in {"loss": loss, **trained, **data}.items():
        if not isinstance(t, Tensor):
            raise TypeError(f"check_tracking expects tensors, but {name} is a {type(t).__name__}. Pass the loss "
                            "tensor and dicts of tensors: check_tracking(loss, trained={'w': w}, data={'x': x}).")
    if not trained:
        raise ValueError("check_tracking needs the tensors you train: trained={'w': w, 'b': b}")
    root = next((k for k, v in caller_namespace().items() if v is loss and k.isidentifier() and k[0] != "_"),
                "loss")
    names = {**trained, **data, root: loss}
    model = GraphModel.from_tensor(loss, namespace=names)
    leaves = {k: t for k, t in trained.items() if t.is_leaf and t.requires_grad}
    grads = dict(zip(leaves, _grad(loss, list(leaves.values()), retain_graph=True, allow_unused=True)
                     if leaves and loss.requires_grad else [None] * len(leaves)))
    for name, t in trained.items():
        if not t.is_leaf:
            node = model.node(t.grad_fn._id)
            return TrackingCheck(model, explain_no_grad(t, loss, namespace=names).split(" Call ")[0] +
                                 f" Put requires_grad=True on the tensor you train itself, after any arithmetic: "
                                 f"{name} = torch.tensor(..., requires_grad=True).",
                                 Marks(node=node.key if node else None, apart="" if node else name,
                                       note=f"{name} is not a leaf"), {})
        if grads.get(name) is None:
            node = model.node(t._id)
            return TrackingCheck(model, explain_no_grad(t, loss, namespace=names),
                                 Marks(node=node.key if node else None, apart="" if node else name,
                                       note=f"{name}: no gradient"), {})
    for name, t in data.items():
        if t.requires_grad:
            node = model.node(t._id if t.is_leaf else t.grad_fn._id)
            return TrackingCheck(model, f"{name} is data, but it requires grad: autograd records every operation "
                                 f"on it and backward fills {name}.grad, which nothing uses. Make it without "
                                 f"requires_grad=True.", Marks(node=node.key if node else None,
                                                               apart="" if node else name, note=f"{name} is tracked"),
                                 {})
    return TrackingCheck(model, "", Marks(ok=True), grads, root)
