"""``torch.einsum``: sums of products named by subscripts, recorded as torch records them.

``einsum("ij,jk->ik", a, b)`` is the matrix product, out[i, k] = sum_j a[i, j] * b[j, k]: a label shared by
two operands is multiplied along, a label missing from the output is summed over. torch has no einsum node; it
builds the result from operations the learner already knows, and so do we, step for step:

1. line every operand up on one common list of dims, the output's first, then the summed ones: ``diagonal``
   for a label repeated in one operand (``ii``), ``unsqueeze`` for a label it lacks, then one ``permute``;
2. contract the operands left to right, two at a time: dims only one of them has are summed first (``sum``),
   then the product is one ``bmm`` between permutes and reshapes, or a plain ``mul`` when nothing is summed;
3. drop the summed dims, now of size 1, with a ``view`` (or, for one operand, ``sum`` over them).

>>> import autograd_tutor as torch
>>> a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> torch.einsum("ij,jk->ik", a, torch.eye(2))
tensor([[1., 2.],
        [3., 4.]], grad_fn=<ViewBackward0>)
>>> torch.einsum("ii->", a)                # the trace: the diagonal, summed
tensor(5., grad_fn=<SumBackward1>)
"""
from __future__ import annotations

import math
import string
from collections import Counter

from .autograd.tensor import Tensor

__all__ = ["einsum"]

ELLIPSIS = "..."


def einsum(*args) -> Tensor:
    """``einsum(equation, *operands)``, the operands also as one list; or ``einsum(a, [0, 1], b, [1, 2], [0, 2])``
    with each operand followed by its subscripts as numbers (0-25 for A-Z, 26-51 for a-z, ``...``)."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    if isinstance(args[0], Tensor):
        equation = ",".join(_from_sublist(s) for s in args[1::2])
        if len(args) % 2:
            equation += "->" + _from_sublist(args[-1])
        operands = args[:-1:2] if len(args) % 2 else args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not {type(equation).__name__}")
    for i, op in enumerate(operands):
        if not isinstance(op, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(op).__name__}")
    return _einsum(equation, operands)


def _einsum(equation: str, operands) -> Tensor:
    """The three steps of the module's docstring: parse, align each operand, contract left to right."""
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    labels = _input_labels(lhs, len(operands))
    ell = _ellipsis_dims(operands, labels)
    count = Counter(label for op_labels in labels for label in op_labels if label != ELLIPSIS)
    if arrow < 0:  # implicit output: the ellipsis, then the labels used once, in alphabetical order (A-Z, a-z)
        out = [ELLIPSIS, *sorted(label for label in count if count[label] == 1)]
    else:
        out = _output_labels(equation[arrow + 2:], len(lhs) + 2, count)
    layout = out + ([] if ELLIPSIS in out else [ELLIPSIS]) + sorted(set(count) - set(out))
    slots = [s for label in layout for s in (range(ell) if label == ELLIPSIS else [label])]
    out_dims = len(out) - 1 + ell if ELLIPSIS in out else len(out)
    index = {s: k for k, s in enumerate(slots)}
    sizes: dict = {}
    holders = [0] * len(slots)  # how many operands still hold each dim with a size other than 1
    ops = [_align(i, op, op_labels, ell, index, sizes, holders)
           for i, (op, op_labels) in enumerate(zip(operands, labels))]
    while len(ops) > 1:
        ops = [_contract(ops[0], ops[1], out_dims, holders), *ops[2:]]
    result = ops[0]
    if len(slots) == out_dims:
        return result
    if len(operands) > 1:
        return result.view(result.shape[:out_dims])
    return result.sum(list(range(out_dims, len(slots))))


def _from_sublist(subscripts) -> str:
    """[0, 1, ...] as the equation's letters: 0-25 are A-Z, 26-51 are a-z, ``...`` is an ellipsis."""
    def letter(n) -> str:
        if n is Ellipsis:
            return ELLIPSIS
        if 0 <= n < 52:
            return string.ascii_letters[(n + 26) % 52]
        raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
    return "".join(letter(n) for n in subscripts)


def _scan(text: str, offset: int, allowed: str):
    """The subscripts of ``text`` one by one: letters, ``...`` for an ellipsis, and the characters in ``allowed``
    (a lone ``.`` for the caller to reject); spaces are skipped, anything else is an error naming its index
    (``offset`` + its place in ``text``) in the whole equation."""
    i = 0
    while i < len(text):
        if text.startswith(ELLIPSIS, i):
            yield ELLIPSIS
            i += 3
            continue
        if text[i] in string.ascii_letters or text[i] in allowed:
            yield text[i]
        elif text[i] != " ":
            raise RuntimeError(f"einsum(): invalid subscript given at index {offset + i} in the equation string, "
                               "subscripts must be in [a-zA-Z]")
        i += 1


def _input_labels(lhs: str, n_ops: int) -> list:
    """Each operand's labels, from the left of ``->``: ``"ij,j"`` is [["i", "j"], ["j"]]."""
    labels: list = [[]]
    for sub in _scan(lhs, 0, ",."):
        where = f"einsum(): found '.' for operand {len(labels) - 1}"
        if sub == ",":
            if len(labels) == n_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            labels.append([])
            continue
        if sub[0] == "." and ELLIPSIS in labels[-1]:
            raise RuntimeError(f"{where} for which an ellipsis was already found")
        if sub == ".":
            raise RuntimeError(f"{where} that is not part of any ellipsis")
        labels[-1].append(sub)
    if len(labels) != n_ops:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return labels


def _ellipsis_dims(operands, labels) -> int:
    """How many dims the widest ellipsis covers, after checking each operand has as many dims as labels."""
    ell = 0
    for i, (op, op_labels) in enumerate(zip(operands, labels)):
        n = len(op_labels) - (ELLIPSIS in op_labels)
        if ELLIPSIS in op_labels:
            ell = max(ell, op.ndim - n)
            if n > op.ndim:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) is more than the "
                                   f"number of dimensions ({op.ndim}) for operand {i}")
        elif n != op.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) does not match the number "
                               f"of dimensions ({op.ndim}) for operand {i} and no ellipsis was given")
    return ell


def _output_labels(rhs: str, offset: int, count: Counter) -> list:
    """The output's labels, from the right of ``->``: each used by some operand, none twice."""
    out: list = []
    for sub in _scan(rhs, offset, "."):
        if sub[0] == ".":
            if ELLIPSIS in out:
                raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
            if sub == ".":
                raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
        elif sub in out:
            raise RuntimeError(f"einsum(): output subscript {sub} appears more than once in the output")
        elif sub not in count:
            raise RuntimeError(f"einsum(): output subscript {sub} does not appear in the equation for any input "
                               "operand")
        out.append(sub)
    return out


def _align(i: int, op: Tensor, labels: list, ell: int, index: dict, sizes: dict, holders: list) -> Tensor:
    """Operand ``i`` with one dim per slot of the common layout, in its order: the diagonal for a label it
    repeats, a new size-1 dim for a slot it lacks, then one permute. Sizes other than 1 must agree across
    operands (``sizes``); ``holders`` counts, per slot, the operands that have such a size there."""
    perm = [-1] * len(index)
    covered = op.ndim - (len(labels) - 1)  # the dims its ellipsis covers, the last ones of the widest
    dim = 0
    for label in labels:
        for slot in (range(ell - covered, ell) if label == ELLIPSIS else [label]):
            k = index[slot]
            if perm[k] != -1:  # a repeated label: its diagonal, in the place of its first dim
                first = perm[k]
                if op.shape[dim] != op.shape[first]:
                    raise RuntimeError(f"einsum(): subscript {label} is repeated for operand {i} but the sizes "
                                       f"don't match, {op.shape[dim]} != {op.shape[first]}")
                op = op.diagonal(0, first, dim).movedim(-1, first)
                continue
            size = op.shape[dim]
            if size != 1:
                seen = sizes.setdefault(slot, size)
                if seen != size and label == ELLIPSIS:
                    raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {i}has size {size} "
                                       f"which does not broadcast with previously seen ellipsis with size {seen} for "
                                       "the respective dimension")
                if seen != size:
                    raise RuntimeError(f"einsum(): subscript {label} has size {size} for operand {i} which does not "
                                       f"broadcast with previously seen size {seen}")
                holders[k] += 1
            perm[k] = dim
            dim += 1
    for k in range(len(perm)):
        if perm[k] == -1:
            op = op.unsqueeze(dim)
            perm[k] = dim
            dim += 1
    return op.permute(perm)


def _contract(a: Tensor, b: Tensor, out_dims: int, holders: list) -> Tensor:
    """The product of two aligned operands, summed over the dims no other operand still holds; a dim only one of
    them holds is summed in that one first (keeping it as size 1)."""
    summed, alone = [], ([], [])
    for d in range(out_dims, len(holders)):
        if a.shape[d] != 1 and b.shape[d] != 1:
            holders[d] -= 1
            if holders[d] == 1:
                summed.append(d)
                holders[d] = 0
        elif holders[d] == 1 and (a.shape[d] != 1 or b.shape[d] != 1):
            alone[a.shape[d] == 1].append(d)
            holders[d] = 0
    a, b = (t.sum(dims, True) if dims else t for t, dims in zip((a, b), alone))
    return _sumproduct_pair(a, b, summed)


def _sumproduct_pair(left: Tensor, right: Tensor, summed: list) -> Tensor:
    """(left * right) summed over the dims ``summed``, kept as size 1, as one batched matrix product: the dims
    both have (size other than 1) are the batch, those only ``left`` has the rows, the others the columns
    (or the other way round, when all the columns come before the rows).

    For "ij,jk->ik" this is (1, i, j) @ (1, j, k): left and right permuted and reshaped, one bmm, then a view
    and a permute back to the common layout."""
    if not summed:
        return left * right
    both, rows, cols = [], [], []
    for d in range(left.ndim):
        if d not in summed:
            (both if left.shape[d] != 1 and right.shape[d] != 1 else rows if left.shape[d] != 1 else cols).append(d)
    if rows and cols and cols[-1] < rows[0]:  # right's dims come first: swapped, bmm writes them in that order
        left, right, rows, cols = right, left, cols, rows
    out_shape = [left.shape[d] for d in both + rows] + [1] * len(summed) + [right.shape[d] for d in cols]
    order = both + rows + summed + cols

    def size(t: Tensor, dims: list) -> int:
        return math.prod(t.shape[d] for d in dims)

    left2 = left.permute(order).reshape(size(left, both), size(left, rows), size(left, summed))
    right2 = right.permute(both + summed + cols + rows).reshape(size(left, both), size(left, summed),
                                                                  size(right, cols))
    return left2.bmm(right2).view(out_shape).permute([order.index(d) for d in range(len(order))])
