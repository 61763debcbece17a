"""``quiz_from(loss)``: questions about the learner's own graph, with answer keys read from the engine.

Each question is phrased with the learner's variable names (from the namespace of the code that calls
``quiz_from``, which in a notebook is the notebook's namespace) and keyed by :mod:`.facts`: ``is_leaf`` and
``requires_grad`` as the tensors report them, ``grad_fn.name()``, the nodes' own backward functions for
gradients, the nodes' saved tensors for the second-``backward()`` question. Nothing is typed by hand, so the
keys stay right for untracked inputs, ``detach()``, ``torch.no_grad()`` and ``retain_grad()``.

>>> import autograd_tutor as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> w = torch.tensor(3., requires_grad=True)
>>> z = w * x
>>> loss = z ** 2
>>> quiz = quiz_from(loss)
>>> [q.id for q in quiz.questions]
['leaves', 'grad-fn', 'gets-grad', 'grad-value', 'second-backward', 'paths', 'retain-grad', 'classify']
>>> quiz.check("grad-value", "36").correct, quiz.check("grad-fn", "mul backward0").correct
(True, True)
"""
from __future__ import annotations

import math
import sys
from typing import Optional

import numpy as np

from ..autograd.function import AccumulateGrad
from .facts import GraphFacts, TensorFact
from .keys import ChoiceKey, ClassifyKey, NumericKey, TextKey
from .model import CATEGORIES, Question, Quiz, diagram

__all__ = ["quiz_from", "caller_namespace", "values_text", "MAX_CHOICES", "MAX_DIAGRAM"]

#: Tensors offered as choices, at most.
MAX_CHOICES = 8
#: When fewer tensors have names, unnamed results of the graph are offered too, up to this many choices (so a
#: graph with two names, ``x`` and ``total``, still asks something to think about).
MIN_CHOICES = 4
#: A classify question is made only for graphs with at most this many tensors (the diagram must stay legible).
MAX_DIAGRAM = 30


def caller_namespace(depth: int = 1) -> dict:
    """The variables seen by the code ``depth`` frames above the caller (in a notebook: the notebook's)."""
    frame = sys._getframe(depth + 1)
    return {**frame.f_globals, **frame.f_locals}


#: Said when the gradient asked for is nan or infinite (the key then takes these words, see keys.NumericKey);
#: such a question is made only when no finite gradient can be asked about instead.
_NON_FINITE_NOTE = " It may not be a finite number: then type nan, inf or -inf."


def _c(name: str) -> str:
    return f"`{name}`"


def _names(facts: list, labels: Optional[dict] = None) -> str:
    names = [(labels or {}).get(f.key) or _c(f.name) for f in facts]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _unnamed_labels(facts: list) -> dict:
    """How a choice names results the learner gave no name: "the unnamed `MulBackward0` result", numbered
    ("#1", "#2", in the order they were computed) when one node name is there twice."""
    names = [f.node.name() for f in facts]
    labels, seen = {}, {}
    for f, name in zip(facts, names):
        seen[name] = seen.get(name, 0) + 1
        number = f" #{seen[name]}" if names.count(name) > 1 else ""
        labels[f.key] = f"the unnamed `{name}` result{number}"
    return labels


def _is_leaf(f: TensorFact) -> bool:
    return f.tensor is not None and f.tensor.is_leaf


def _num(x: float) -> str:
    return f"{x:.4g}"


def _element(f: TensorFact) -> str:
    shape = f.tensor.shape if f.tensor is not None else ()
    return "" if not shape else "[" + ", ".join("0" for _ in shape) + "]"


def _tolerance(value: float) -> float:
    """Half a unit in the third significant digit (0.5% of the value, at least 0.005): so any answer rounded
    to three significant digits passes."""
    return 5e-3 * max(1.0, abs(value))


def values_text(data, most: int = 6) -> str:
    """An array's values to read at a glance: 4 significant digits, a list for more than one number, at most
    ``most`` of them.

    >>> values_text(np.float32(2.5)), values_text(np.arange(8.0) / 3, most=4)
    ('2.5', '[0, 0.3333, 0.6667, 1, ...]')
    """
    data = np.asarray(data)
    if data.ndim == 0:
        return _num(float(data))
    flat = data.ravel()
    return "[" + ", ".join(_num(float(v)) for v in flat[:most]) + (", ...]" if flat.size > most else "]")


def _values(facts: GraphFacts) -> str:
    """The values of the named leaves, to compute with: "`x` = 2, `w` = 3"."""
    parts = []
    for f in facts.named:
        t = f.tensor
        if t.is_leaf and t.numel() <= 6:
            parts.append(f"{_c(f.name)} = {values_text(t._data)}")
    return ", ".join(parts)


class _Generator:
    def __init__(self, facts: GraphFacts) -> None:
        self.f = facts
        self.root = facts.root_name
        self.call = (f"{self.root}.backward()" if facts.root.numel() == 1
                     else f"{self.root}.backward(torch.ones_like({self.root}))")
        self.choices = facts.named[:MAX_CHOICES]
        unnamed = [f for f in facts.tensors
                   if f.name is None and f.on_graph and not isinstance(f.node, AccumulateGrad)]
        if len(self.choices) >= 2:  # unnamed results of different operations first (an Exp, a Mul, an Add)
            names = [f.node.name() for f in unnamed]
            unnamed = sorted(unnamed, key=lambda f: names[:unnamed.index(f)].count(f.node.name()))
            self.choices += unnamed[:max(0, MIN_CHOICES - len(self.choices))]
        self.labels = _unnamed_labels([f for f in facts.tensors if f in unnamed])  # numbered in graph order
        self.grads_known = facts.received is not None and not facts.hooked

    def choice_texts(self) -> tuple:
        return tuple(self.labels.get(f.key) or _c(f.name) for f in self.choices)

    def _finite(self, f: TensorFact) -> bool:
        """Whether the gradient a question would ask about (its first element) is a finite number."""
        return bool(np.isfinite(self.f.gradient(f).flat[0]))

    @staticmethod
    def _pick(candidates: list, rank) -> Optional[TensorFact]:
        """The candidate ranked first (lowest ``rank``), or None."""
        return min(candidates, key=rank) if candidates else None

    def leaves(self) -> Optional[Question]:
        if len(self.choices) < 2:
            return None
        leaves = [f for f in self.choices if _is_leaf(f)]
        others = [f for f in self.choices if not _is_leaf(f)]
        parts = []
        if leaves:
            one = len(leaves) == 1
            parts.append(f"{_names(leaves, self.labels)} {'is a leaf' if one else 'are leaves'}: no recorded "
                         f"operation produced {'it' if one else 'them'}, so `grad_fn` is None (whether or not it "
                         "requires grad).")
        if others:
            one = len(others) == 1
            parts.append(f"{_names(others, self.labels)} came out of recorded operations and "
                         f"{'has' if one else 'have'} a `grad_fn`, so {'it is' if one else 'they are'} not "
                         f"{'a leaf' if one else 'leaves'}.")
        if any(not f.on_graph and not f.tensor.requires_grad for f in leaves):
            parts.append("A tensor made by `.detach()`, under `torch.no_grad()`, or from inputs that do not "
                         "require grad is a new leaf as well.")
        return Question(
            "leaves", "multiple", "Which of these tensors are leaves (`is_leaf` is `True`)?",
            ChoiceKey.many([i for i, f in enumerate(self.choices) if _is_leaf(f)], len(self.choices)),
            " ".join(parts), choices=self.choice_texts(),
            hint="A tensor is a leaf when no recorded operation produced it.")

    def grad_fn(self) -> Question:
        inner = [f for f in self.f.named if f.on_graph and not f.tensor.is_leaf and f.tensor is not self.f.root]
        target = inner[0] if inner else self.f.by_node[self.f.root.grad_fn]
        name = target.node.name()
        z = target.name or self.root
        return Question(
            "grad-fn", "text", f"What is the name of the node in `{z}.grad_fn`? (What `{z}.grad_fn.name()` returns.)",
            TextKey([name], feedback=[("AccumulateGrad", "AccumulateGrad nodes belong to leaves; "
                                                          f"`{z}` was computed by an operation.")]),
            f"`{z}` is the output of a recorded operation, so its `grad_fn` is that operation's backward node, "
            f"`{name}`: the first step backward takes from `{z}`.",
            hint="The name is the operation that produced the tensor (Mul, Add, Pow, Sum...) followed by "
                 "`Backward0` or `Backward1`.")

    def gets_grad(self) -> Optional[Question]:
        if len(self.choices) < 2 or self.f.backward_error is not None:
            return None
        yes = [f for f in self.choices if self.f.gets_grad(f)]
        if not yes:
            return None
        retained = [f for f in yes if not _is_leaf(f)]
        no = [f for f in self.choices if f not in yes]
        parts = [f"`{self.call}` stores gradients in the leaves that require grad"
                 + (f" ({_names([f for f in yes if _is_leaf(f)], self.labels)})" if len(yes) > len(retained)
                    else "")
                 + (f", and in {_names(retained, self.labels)}, which called `retain_grad()`" if retained else "")
                 + "."]
        untracked = [f for f in no if _is_leaf(f) and not f.tensor.requires_grad]
        passing = [f for f in no if not _is_leaf(f) and f.on_graph]
        off = [f for f in no if not f.on_graph and f.tensor.requires_grad]
        if untracked:
            one = len(untracked) == 1
            parts.append(f"{_names(untracked, self.labels)} {'does' if one else 'do'} not require grad, so "
                         f"autograd never computes a gradient for {'it' if one else 'them'}.")
        if passing:
            parts.append(f"The gradients of {_names(passing, self.labels)} pass through on their way to the "
                         "leaves and are not kept.")
        if off:
            parts.append(f"{_names(off, self.labels)} {'is' if len(off) == 1 else 'are'} not on the graph of "
                         f"`{self.root}`.")
        return Question(
            "gets-grad", "multiple", f"After `{self.call}`, which of these tensors have a gradient stored in `.grad`?",
            ChoiceKey.many([i for i, f in enumerate(self.choices) if f in yes], len(self.choices)),
            " ".join(parts), choices=self.choice_texts(),
            hint="By default only one kind of tensor keeps its gradient; `retain_grad()` adds exceptions.")

    def grad_value(self) -> Optional[Question]:
        if not self.grads_known:
            return None
        leaves = [f for f in self.f.named if f.on_graph and f.tensor.is_leaf and self.f.gradient(f) is not None]
        target = self._pick(leaves, lambda f: (not self._finite(f), f.tensor.numel() > 1, f.tensor._id))
        if target is None:
            return None
        value = float(self.f.gradient(target).flat[0])
        x, elem = target.name, _element(target)
        values = _values(self.f)
        return Question(
            "grad-value", "numeric",
            f"What is ∂{self.root}/∂{x}{elem}: the number `{self.call}` adds into `{x}.grad{elem}`?"
            + (f" Values: {values}." if values else "") + " Three significant digits are enough; 1/3 works too."
            + _NON_FINITE_NOTE * (not math.isfinite(value)),
            NumericKey.near(value, _tolerance(value)),
            f"Backward starts with 1 at `{self.root}`, multiplies by each node's local derivative on the way "
            f"down, and adds what arrives along every path into `{x}`: ∂{self.root}/∂{x}{elem} = {_num(value)}.",
            hint="Use the chain rule along every path from the loss to this leaf, and add the paths.")

    def second_backward(self) -> Question:
        f = self.f
        if f.backward_error is not None:
            first = f.backward_error.split(". ")[0]
            return Question(
                "second-backward", "single", f"What happens if you call `{self.call}` now?",
                ChoiceKey.single(0, 2), f"It raises: {first}. An earlier backward() through this graph freed "
                "values that a node needs, or a tensor was changed in place since it was saved.",
                choices=("It raises a RuntimeError", "It runs and adds gradients into `.grad`"),
                choice_feedback=("", "Something this graph needs is gone or changed: look for an earlier "
                                     "backward() through it, or an in-place change to one of its tensors."),
                hint="Saved tensors are freed by backward() and checked for in-place changes.")
        raises = bool(f.saved_nodes)
        if raises:
            saved = "; ".join(f"{name} saved {', '.join(names)}" for name, names in f.saved_nodes[:4])
            explanation = (f"Nodes on this graph keep tensors from the forward pass to compute gradients ({saved}). "
                           "The first call frees them, so the second cannot run those nodes again. Pass "
                           "`retain_graph=True` to the first call if you need to go back twice.")
        else:
            explanation = ("No node on this graph saved a tensor: each one computes its gradient from the incoming "
                           "gradient alone, so nothing is freed, and the second call adds the same gradients again "
                           "(the leaves' `.grad` doubles).")
        return Question(
            "second-backward", "single",
            f"Starting from now, you call `{self.call}` twice, without `retain_graph=True`. What happens at the "
            "second call?",
            ChoiceKey.single(0 if raises else 1, 2), explanation,
            choices=("It raises a RuntimeError: the first call freed tensors saved for backward",
                     "It runs again and adds the same gradients into `.grad` once more"),
            hint="A node needs saved tensors when its derivative depends on forward values (like `a * b`); "
                 "`a + b` does not.")

    def paths(self) -> Optional[Question]:
        inner = [f for f in self.f.named if f.on_graph and f.tensor is not self.f.root]
        target = self._pick(inner, lambda f: (-self.f.paths[f.node], f.tensor._id))
        if target is None:
            return None
        n = self.f.paths[target.node]
        return Question(
            "paths", "numeric",
            f"How many paths lead from `{self.root}` back to `{target.name}` in the backward graph? "
            "An input used twice by one operation (as in `a * a`) counts as two paths.",
            NumericKey.near(n, 0),
            f"Backward reaches `{target.name}` along {n} path{'s' if n != 1 else ''} and adds the gradients that "
            "arrive along each of them.",
            hint="Start at the loss and follow every edge toward the inputs; where paths split, count both.")

    def retain_grad(self) -> Optional[Question]:
        if not self.grads_known:
            return None
        inner = [f for f in self.f.named if f.on_graph and not f.tensor.is_leaf and f.tensor is not self.f.root
                 and self.f.gradient(f) is not None]
        target = self._pick(inner, lambda f: (not self._finite(f), bool(np.all(self.f.gradient(f) == 1)),
                                              -f.tensor._id))
        if target is None:
            return None
        z, elem = target.name, _element(target)
        value = float(self.f.gradient(target).flat[0])
        before = (f"`{z}` already called `retain_grad()`." if target.tensor.retains_grad
                  else f"You add `{z}.retain_grad()` before backward.")
        return Question(
            "retain-grad", "numeric",
            f"{before} What number does `{self.call}` then add into `{z}.grad{elem}`? Three significant digits "
            "are enough." + _NON_FINITE_NOTE * (not math.isfinite(value)),
            NumericKey.near(value, _tolerance(value)),
            f"`{z}` is not a leaf, so without `retain_grad()` its gradient only passes through and `{z}.grad` "
            f"stays None. With it, backward also stores the gradient arriving at `{z}`'s node: "
            f"∂{self.root}/∂{z}{elem} = {_num(value)}.",
            hint=f"It is the gradient of `{self.root}` with respect to `{z}`: the chain rule from the loss down to "
                 f"`{z}`.")

    def classify(self) -> Optional[Question]:
        items = self.f.tensors
        marked = [f for f in items if f.name is not None]
        if len(marked) < 2 or len(items) > MAX_DIAGRAM:
            return None
        nodes = []
        for f in items:
            if f.name is not None:
                label, note = f.name, "" if f.on_graph else "off the graph"
            elif f.tensor is None or not f.tensor.is_leaf:
                label, note = f"({f.node.name().split('Backward')[0].lower()})", "unnamed result"
            else:
                label, note = "(leaf)", "unnamed leaf"
            nodes.append({"id": f.key, "label": label, "classify": f.name is not None, "note": note,
                          "off": not f.on_graph})
        drawing = diagram(nodes, [(a, b, n) for (a, b), n in self.f.edges.items()])
        lines = [f"{_c(f.name)}: {CATEGORIES[f.category]}" for f in marked]
        return Question(
            "classify", "classify",
            "Mark each named tensor: a leaf that requires grad, a leaf without grad, or a non-leaf. Arrows run "
            f"from inputs to results along the recorded graph of `{self.root}`; tensors that backward does not "
            "reach are drawn apart, without arrows.",
            ClassifyKey({f.key: f.category for f in marked}, CATEGORIES),
            "; ".join(lines) + ". Tensors you create are leaves; those computed by recorded operations are not, "
            "and they require grad because one of their inputs does.",
            diagram=drawing,
            hint="Tensors you create yourself are leaves, and require grad only if you asked; a result of a "
                 "recorded operation is a non-leaf.")

    def questions(self) -> list:
        made = [self.leaves(), self.grad_fn(), self.gets_grad(), self.grad_value(), self.second_backward(),
                self.paths(), self.retain_grad(), self.classify()]
        return [q for q in made if q is not None]


def quiz_from(tensor, names=None, title: Optional[str] = None) -> Quiz:
    """Questions about the graph behind ``tensor``, phrased with the caller's variable names.

    ``names`` maps names to values (default: the caller's namespace, i.e. the notebook's).
    """
    if names is None:
        names = caller_namespace()
    facts = GraphFacts(tensor, names)
    return Quiz(title or f"Your graph: {facts.root_name}", _Generator(facts).questions())

