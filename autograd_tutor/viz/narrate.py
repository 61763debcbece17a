"""One plain sentence per replay step, and the local derivative of each common operation.

The chain rule at a node: the gradient that leaves along an edge is the gradient that arrived times the
*local derivative* of the node's output with respect to that input. For ``c = a * b`` it is ``b`` for ``a``
and ``a`` for ``b``; for ``d = c + a`` it is 1 for both, so the gradient passes unchanged.

>>> local_formula("MulBackward0", 0, ["a", "b"]), local_formula("DivBackward0", 1, ["x", "2"])
('b', '-x/2²')
>>> node_sentence("AddBackward0", ["1"], "1", [("c", "1", "1"), ("a", "1", "1")], None)
'AddBackward0 passes the gradient 1 unchanged to c and to a.'
>>> node_sentence("MulBackward0", ["1"], "1", [("a", "b", "4"), ("b", "a", "3")], ("freed", ["self", "other"]))
'MulBackward0 sends 1 × b = 4 to a and 1 × a = 3 to b, then frees its saved self and other.'
"""
from __future__ import annotations

from typing import Optional, Sequence

from .format import HEAT_MIN

__all__ = ["FORMULAS", "local_formula", "node_sentence", "start_sentence", "accumulate_sentence",
           "hook_sentence", "finish_sentence", "fail_sentence", "joined", "named", "spelled"]

#: Local derivative of the output with respect to input 0, 1, ... ; ``{0}``, ``{1}`` stand for the inputs.
FORMULAS = {
    "AddBackward0": ("1", "1"),
    "SubBackward0": ("1", "-1"),
    "RsubBackward1": ("-1",),
    "MulBackward0": ("{1}", "{0}"),
    "DivBackward0": ("1/{1}", "-{0}/{1}²"),
    "NegBackward0": ("-1",),
    "ReciprocalBackward0": ("-1/{0}²",),
    "PowBackward0": ("n·{0}^(n-1)",),
    "ExpBackward0": ("exp({0})",),
    "LogBackward0": ("1/{0}",),
    "TanhBackward0": ("1 - tanh²({0})",),
    "SigmoidBackward0": ("σ({0})·(1 - σ({0}))",),
    "ReluBackward0": ("1 if {0} > 0 else 0",),
    "SqrtBackward0": ("1/(2·√{0})",),
    "SinBackward0": ("cos({0})",),
    "CosBackward0": ("-sin({0})",),
    "AbsBackward0": ("sign({0})",),
    "SumBackward0": ("1",),
    "MeanBackward0": ("1/n",),
    "CloneBackward0": ("1",),
    "ViewBackward0": ("1",),
    "RsqrtBackward0": ("-1/(2·{0}^(3/2))",),
    "Log2Backward0": ("1/({0}·ln 2)",),
    "Log10Backward0": ("1/({0}·ln 10)",),
    "TanBackward0": ("1 + tan²({0})",),
    "AtanBackward0": ("1/(1 + {0}²)",),
    "AsinBackward0": ("1/√(1 - {0}²)",),
    "AcosBackward0": ("-1/√(1 - {0}²)",),
    "SinhBackward0": ("cosh({0})",),
    "CoshBackward0": ("sinh({0})",),
    "ErfBackward0": ("2/√π·exp(-{0}²)",),
    "SignBackward0": ("0",),
    "TruncBackward0": ("0",),
    "FracBackward0": ("1",),
}


def local_formula(op: str, position: int, labels: Sequence[Optional[str]]) -> Optional[str]:
    """The local derivative of ``op`` for input ``position`` written with the inputs' ``labels``.

    None when the operation is not in :data:`FORMULAS` or an input it needs has no label.
    """
    formulas = FORMULAS.get(op)
    if formulas is None or position >= len(formulas):
        return None
    text = formulas[position]
    for i, label in enumerate(labels):
        token = "{%d}" % i
        if token in text:
            if label is None:
                return None
            text = text.replace(token, label)
    return None if "{" in text else text


def named(value) -> str:
    """How the short sentence names a value: its text when it has at most ``HEAT_MIN`` (6) numbers, else its
    shape, as the drawing names a heatmap (a sentence never ends in a cut list; :func:`spelled` has them all).

    >>> import numpy as np; from autograd_tutor.viz.format import Value
    >>> named(Value.of(np.ones(3))), named(Value.of(np.ones((16, 2)))), named(None)
    ('[1, 1, 1]', 'a (16, 2) tensor', 'nothing')
    """
    if value is None:
        return "nothing"
    return value.text if value.size <= HEAT_MIN else f"a {value.shape} tensor"


def spelled(value) -> str:
    """How the full sentence names a value: every number a drawing keeps (see ``Value.numbers``)."""
    if value is None:
        return "nothing"
    return value.text if value.size <= HEAT_MIN else f"{value.shape} [{value.numbers}]"


def _shape_only(text: str) -> bool:
    """Whether ``text`` is a tensor named by its shape (see :func:`named`): no number to compute with."""
    return text.startswith("a (") and text.endswith(" tensor")


def joined(items: Sequence[str], word: str = "to ") -> str:
    """``"to c and to a"``, ``"to x, to y and to z"``."""
    parts = [word + i for i in items]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _sum(received: Sequence[str], total: str) -> str:
    return f"{' + '.join(received)} = {total}" if len(received) > 1 else total


def start_sentence(number: int, root: str, grad: str, retain: bool) -> str:
    keep = "; retain_graph=True keeps what the nodes saved" if retain else ""
    with_grad = f"with {grad} as its gradient" if _shape_only(grad) else f"with the gradient {grad}"
    return f"Backward pass {number} starts at {root} {with_grad} (∂{root}/∂{root} = 1){keep}."


def outside_start_sentence(number: int, op: str, retain: bool) -> str:
    """A pass whose root is not drawn (``y.sum().backward()`` under ``GraphWidget(y)``)."""
    keep = "; retain_graph=True keeps what the nodes saved" if retain else ""
    return (f"Backward pass {number} starts outside this drawing, at {op}; follow the gradient into the drawing"
            f"{keep}.")


def gradient_text(value) -> str:
    """A gradient's text, or "nothing" for an output that received none (a piece of a split left unused)."""
    return "nothing" if value is None else value.text


def node_sentence(op: str, received: Sequence[str], total: str, flows: Sequence[tuple],
                  saved: Optional[tuple], several: bool = False) -> str:
    """``flows`` holds ``(target, local derivative text or None, gradient sent)`` per edge; ``several``: the
    node has several outputs (``split``), and ``received`` holds one gradient per output, in order. A gradient
    named by its shape (``"a (4, 16) tensor"``) is not written into a sum or a product.

    >>> node_sentence("TanhBackward0", ["a (4, 16) tensor"], "a (4, 16) tensor", [("x", None, "a (4, 16) tensor")],
    ...               None)
    'TanhBackward0 sends a (4, 16) tensor to x.'
    """
    shape_only = _shape_only(total)
    if several:
        head = f"{op} joins the gradients of its {len(received)} outputs, {joined(list(received), '')}, and "
    elif len(received) > 1:
        summed = f"its {len(received)} gradients into {total}" if shape_only else _sum(received, total)
        head = f"{op} adds up {summed} and "
    else:
        head = f"{op} "
    if not flows:
        body = "sends no gradient further"
    elif all(local == "1" for _, local, _ in flows):
        passed = f"its gradient, {total}," if shape_only else f"the gradient {total}"
        body = f"passes {passed} unchanged {joined([t for t, _, _ in flows])}"
    else:
        pieces = []
        for target, local, sent in flows:
            if local == "1":
                pieces.append(f"{sent} unchanged to {target}")
            elif local is None:
                pieces.append(f"{sent} to {target}")
            elif shape_only:
                pieces.append(f"{sent} (its gradient × {local}) to {target}")
            else:
                pieces.append(f"{total} × {local} = {sent} to {target}")
        body = "sends " + joined(pieces, "")
    tail = ""
    if saved is not None:
        state, names = saved
        what = joined(list(names), "")
        tail = f", then frees its saved {what}" if state == "freed" else f", and keeps its saved {what}"
    return head + body + tail + "."


def accumulate_sentence(name: str, received: Sequence[str], total: str, before: Optional[str], after: str,
                        leaf: bool) -> str:
    who = name or ("the leaf" if leaf else "the result")
    where = f"{name}.grad" if name else "its .grad"
    shape_only = _shape_only(total)
    got = total if shape_only else _sum(received, total)
    if not leaf:
        return f"{who} keeps its gradient {got} in {where} (retain_grad)."
    if before is None:
        return f"{who} receives {got} and stores it in {where}" + ("." if shape_only else f", which becomes {after}.")
    return f"{who} receives {got} and adds it to {where}" + ("." if shape_only else f": {before} + {total} = {after}.")


def hook_sentence(hook: str, kind: str, target: str) -> str:
    where = {"prehook": "before", "posthook": "after"}.get(kind)
    if where:
        return f"Hook {hook} runs {where} {target}."
    if kind == "post_accumulate":
        return f"Hook {hook} runs after {target}.grad was updated."
    return f"Hook {hook} runs on the gradient of {target}."


def finish_sentence(number: int, grads: Sequence[tuple], most: Optional[int] = 4) -> str:
    """The last step's sentence: the first ``most`` gradients by name (None: all of them), and how many more the
    node table lists (a sentence is never cut off with "…").

    >>> finish_sentence(1, [(n, "1") for n in "abcdef"])
    'Backward pass 1 is done: a.grad = 1, b.grad = 1, c.grad = 1, d.grad = 1, and 2 more (see the node table).'
    """
    most = len(grads) if most is None else most
    shown = [f"{name}.grad is {g}" if _shape_only(g) else f"{name}.grad = {g}" for name, g in grads[:most]]
    if len(grads) > most:
        shown.append(f"and {len(grads) - most} more (see the node table)")
    return f"Backward pass {number} is done" + (": " + ", ".join(shown) if shown else "") + "."


def fail_sentence(number: int, where: Optional[str], error_type: str, message: str) -> str:
    first = message.split(". ")[0].rstrip(".") + "."
    at = f" at {where}" if where else ""
    return f"Backward pass {number} stops{at} with {error_type}: {first}"
