"""``torch.func``: derivatives as functions (``grad``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian``),
``vmap`` and ``functional_call``.

A transform turns a function into another function: ``grad(f)`` is the function ``x -> df/dx``, so it can be
transformed again (``grad(grad(f))`` is the second derivative) or mapped over a batch (``vmap(grad(f))`` gives one
gradient per sample). Here every transform runs the ordinary backward pass that ``loss.backward()`` runs, on fresh
leaves made from the inputs; ``vmap`` calls the function once per sample and stacks the results. torch batches the
samples instead (its "batching rules"): the math is the same, only the order of the work differs.

>>> import autograd_tutor as torch
>>> from autograd_tutor.func import grad, vmap
>>> grad(torch.sin)(torch.tensor(0.))            # cos(0)
tensor(1.)
>>> grad(grad(torch.sin))(torch.tensor(0.))      # -sin(0)
tensor(-0.)
>>> vmap(torch.dot)(torch.ones(2, 3), torch.ones(2, 3))   # one dot product per row
tensor([3., 3.])
"""
from __future__ import annotations

import contextlib
import functools

from .autograd import grad_mode
from .autograd.engine import grad as _autograd_grad
from .autograd.random import default_generator
from .autograd.tensor import Tensor
from .ops import stack

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call"]

_running = 0  # how many transforms are running now: inside another one, a result must stay differentiable


# ---------------------------------------------------------------------------------------------- trees of tensors
def _flatten(tree) -> list:
    """The leaves of a (nested) dict, list or tuple, in order: ``{"w": a, "b": (c, d)}`` -> ``[a, c, d]``."""
    if isinstance(tree, dict):
        return [leaf for value in tree.values() for leaf in _flatten(value)]
    if isinstance(tree, (list, tuple)):
        return [leaf for value in tree for leaf in _flatten(value)]
    return [tree]


def _rebuild(tree, leaves):
    """``tree`` with its leaves replaced, in order, by those of the iterator ``leaves``."""
    if isinstance(tree, dict):
        return {key: _rebuild(value, leaves) for key, value in tree.items()}
    if isinstance(tree, (list, tuple)):
        values = [_rebuild(value, leaves) for value in tree]
        return type(tree)(*values) if hasattr(tree, "_fields") else type(tree)(values)
    return next(leaves)


def _treespec(tree, indent: int = 0) -> str:
    """The structure of a tree as torch's ``TreeSpec`` prints it (``TreeSpec(tuple, None, [*,\n  *])``)."""
    if not isinstance(tree, (dict, list, tuple)):
        return "*"
    children = list(tree.values()) if isinstance(tree, dict) else list(tree)
    context = list(tree) if isinstance(tree, dict) else None
    inner = ("," + "\n" + " " * (indent + 2)).join(_treespec(c, indent + 2) for c in children)
    return f"TreeSpec({type(tree).__name__}, {context}, [{inner}])"


def _map(fn, tree):
    return _rebuild(tree, iter([fn(leaf) for leaf in _flatten(tree)]))


def _spec(tree) -> str:
    """The shape of a tree as torch's messages print it: ``*`` a leaf, ``(*, *)`` a tuple."""
    if isinstance(tree, dict):
        return "{" + ", ".join(f"{key!r}: {_spec(value)}" for key, value in tree.items()) + "}"
    if isinstance(tree, (list, tuple)):
        inner = ", ".join(_spec(value) for value in tree)
        return f"[{inner}]" if isinstance(tree, list) else f"({inner}{',' if len(tree) == 1 else ''})"
    return "*"


# ---------------------------------------------------------------------------------------------- shared steps
@contextlib.contextmanager
def _transform():
    """Grad mode on for the function's body, and one more transform counted as running."""
    global _running
    _running += 1
    try:
        with grad_mode.enable_grad():
            yield
    finally:
        _running -= 1


def _fresh(x) -> Tensor:
    """A tensor to differentiate against: a new leaf, or, when ``x`` already requires grad (an outer transform or
    the learner's own graph), a view of it, so that the derivative stays connected to what came before."""
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    return x.view_as(x) if x.requires_grad else x.detach().requires_grad_()


def _argnums(argnums, args: tuple) -> tuple:
    """The positions to differentiate, checked against the arguments as torch checks them."""
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    if not all(isinstance(n, int) for n in nums) or (isinstance(argnums, tuple) and not argnums):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    for n in nums:
        if not -len(args) <= n < len(args):
            raise RuntimeError(f"Got argnum={n}, but only {len(args)} positional inputs")
    return tuple(n % len(args) for n in nums)


def _prepared(args: tuple, nums: tuple) -> tuple:
    """The arguments with those at ``nums`` replaced by fresh leaves, and the list of those leaves."""
    args, leaves = list(args), []
    for n in nums:
        args[n] = _map(_fresh, args[n])
        leaves += _flatten(args[n])
    return tuple(args), leaves


def _keep_graph(originals) -> bool:
    """Whether a derivative must itself be differentiable: inside another transform, or when an input requires
    grad (the learner may call ``.backward()`` through it)."""
    return _running > 1 or any(isinstance(x, Tensor) and x.requires_grad for x in originals)


def _derivatives(outputs: list, inputs: list, cotangents: list, keep: bool) -> list:
    """One backward pass: ``sum_k cotangent_k^T d output_k / d input`` for each input, zeros where unused."""
    pairs = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    grads = [None] * len(inputs)
    if pairs:
        grads = _autograd_grad([o for o, _ in pairs], inputs, [c for _, c in pairs], retain_graph=True,
                               create_graph=keep, allow_unused=True)
    return [x.new_zeros(x.shape) if g is None else g for g, x in zip(grads, inputs)]


def _result(tree, keep: bool):
    """What a transform hands back: at the top level, plain tensors, cut from the graph it built."""
    return tree if keep else _map(lambda t: t.detach() if isinstance(t, Tensor) else t, tree)


def _split_aux(out, has_aux: bool, api: str):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{api}(f)(*args): output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    for leaf in _flatten(out[1]):
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
    return out


def _called(func, args: tuple, kwargs: dict, argnums, has_aux: bool, api: str) -> tuple:
    """``func`` called on fresh leaves at ``argnums`` (inside :func:`_transform`): the positions, whether the
    derivatives must stay differentiable, the leaves, the output and the aux (None without ``has_aux``)."""
    nums = _argnums(argnums, args)
    keep = _keep_graph(_flatten([args[n] for n in nums]))
    fresh_args, leaves = _prepared(args, nums)
    out, aux = _split_aux(func(*fresh_args, **kwargs), has_aux, api)
    return nums, keep, leaves, out, aux


def _pick(grads_by_arg: list, argnums):
    return tuple(grads_by_arg) if isinstance(argnums, tuple) else grads_by_arg[0]


# ---------------------------------------------------------------------------------------------- gradients
def grad_and_value(func, argnums=0, has_aux: bool = False):
    """``grad(func)`` that also returns ``func``'s value: ``(gradient, value)``; with ``has_aux``,
    ``(gradient, (value, aux))`` as in torch.

    >>> import autograd_tutor as torch
    >>> grad_and_value(lambda x: (x ** 2).sum())(torch.tensor([1., 2.]))
    (tensor([2., 4.]), tensor(5.))
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with _transform():
            nums, keep, leaves, out, aux = _called(func, args, kwargs, argnums, has_aux, "grad_and_value")
            if not isinstance(out, Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(out)}")
            if out.dim() != 0:
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {out.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs "
                                   "instead?")
            flat = iter(_derivatives([out], leaves, [None], keep))
            grads = _pick([_rebuild(args[n], flat) for n in nums], argnums)
            value = out if aux is None else (out, aux)
            return _result(grads, keep), _result(value, keep)
    return wrapper


def grad(func, argnums=0, has_aux: bool = False):
    """The gradient of a function with a scalar output, as a function: ``grad(f)(x)`` is df/dx at ``x``.

    ``argnums`` picks the arguments to differentiate (an int, or a tuple for a tuple of gradients); an argument
    may be a dict of tensors, such as a model's parameters, and its gradient is a dict of the same keys.
    With ``has_aux=True``, ``func`` returns ``(output, aux)`` and ``grad`` returns ``(gradient, aux)``.

    >>> import autograd_tutor as torch
    >>> grad(lambda x: (x ** 3).sum())(torch.tensor([1., 2.]))     # 3 x^2
    tensor([ 3., 12.])
    >>> grad(lambda p, x: (p["w"] * x).sum())({"w": torch.tensor(2.)}, torch.tensor([1., 3.]))
    {'w': tensor(4.)}
    """
    with_value = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = with_value(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper


def vjp(func, *primals, has_aux: bool = False):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(v)`` is the vector-Jacobian product ``v^T J``, one backward pass for
    each call, as a tuple with one entry per primal.

    >>> import autograd_tutor as torch
    >>> out, vjp_fn = vjp(torch.sin, torch.tensor([0., 0.]))
    >>> vjp_fn(torch.tensor([1., 2.]))         # v * cos(x)
    (tensor([1., 2.]),)
    """
    with _transform():
        keep = _keep_graph(_flatten(primals))
        fresh, leaves = _prepared(primals, tuple(range(len(primals))))
        out, aux = _split_aux(func(*fresh), has_aux, "vjp")
    outputs = _flatten(out)

    def vjp_fn(cotangents):
        if _spec(cotangents) != _spec(out):
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {_spec(cotangents)}, primal output: "
                               f"{_spec(out)}")
        with _transform():
            flat = iter(_derivatives(outputs, leaves, _flatten(cotangents), keep or _running > 1))
            return _result(tuple(_rebuild(p, flat) for p in primals), keep or _running > 1)

    result = (_result(out, keep), vjp_fn)
    return result + (_result(aux, keep),) if has_aux else result


def jvp(func, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """``(func(*primals), J v)``: the Jacobian-vector product for the tangents ``v``, one entry per output.

    torch computes J v in forward mode. Here it is the derivative of the vector-Jacobian product ``u^T J``
    with respect to ``u`` (two backward passes): ``d/du (u^T J v) = J v``, the same numbers.

    >>> import autograd_tutor as torch
    >>> jvp(lambda x: x ** 2, (torch.tensor([1., 3.]),), (torch.tensor([1., 1.]),))   # 2 x v
    (tensor([1., 9.]), tensor([2., 6.]))
    """
    for name, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, tuple):
            raise RuntimeError(f"jvp(f, primals, tangents): Expected {name} to be a tuple. E.g. it should be valid "
                               "to call f(*primals).")
    if _spec(primals) != _spec(tangents):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           f"structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
                           f"primals with structure {_spec(primals)} and tangents with structure {_spec(tangents)}")
    for p, t in zip(_flatten(primals), _flatten(tangents)):
        if isinstance(p, Tensor) and isinstance(t, Tensor) and p.shape != t.shape:
            raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                               f"Tensor, this is not supported. Tensor is of size {list(p.shape)} while the given "
                               f"forward gradient is of size {list(t.shape)}.")
    with _transform():
        keep = _keep_graph(_flatten(primals) + _flatten(tangents))
        fresh, leaves = _prepared(primals, tuple(range(len(primals))))
        out, aux = _split_aux(func(*fresh), has_aux, "jvp")
        outputs = _flatten(out)
        dummies = [o.detach().new_zeros(o.shape).requires_grad_() for o in outputs]
        transposed = _derivatives(outputs, leaves, dummies, True)  # u^T J, linear in u
        used = [(g, t) for g, t in zip(transposed, _flatten(tangents)) if g.requires_grad]
        products = [d.new_zeros(d.shape) for d in dummies]
        if used:
            products = _derivatives([g for g, _ in used], dummies, [t for _, t in used], keep)
    result = (_result(out, keep), _result(_rebuild(out, iter(products)), keep))
    return result + (_result(aux, keep),) if has_aux else result


# ---------------------------------------------------------------------------------------------- Jacobians
def _jacobian(func, argnums, has_aux: bool, by_columns: bool):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with _transform():
            nums, keep, leaves, out, aux = _called(func, args, kwargs, argnums, has_aux,
                                                   "jacfwd" if by_columns else "jacrev")
            outputs = _flatten(out)
            blocks = _columns(outputs, leaves, keep) if by_columns else _rows(outputs, leaves, keep)
            per_output = []
            for i in range(len(outputs)):
                flat = iter(blocks[i])
                per_output.append(_pick([_rebuild(args[n], flat) for n in nums], argnums))
            jac = _rebuild(out, iter(per_output))
        return (_result(jac, keep), _result(aux, keep)) if has_aux else _result(jac, keep)
    return wrapper


def _rows(outputs: list, leaves: list, keep: bool) -> list:
    """Reverse mode: one backward pass per output entry gives one row of every block d output / d leaf."""
    blocks = []
    for o in outputs:
        flat = o.reshape(-1)
        rows = [_derivatives([flat[i]], leaves, [None], keep) for i in range(flat.numel())]
        blocks.append([stack([r[j] for r in rows]).reshape(o.shape + x.shape) if rows else
                       x.new_zeros(o.shape + x.shape) for j, x in enumerate(leaves)])
    return blocks


def _columns(outputs: list, leaves: list, keep: bool) -> list:
    """Column by column, one Jacobian-vector product per input entry (the way forward mode builds it)."""
    dummies = [o.detach().new_zeros(o.shape).requires_grad_() for o in outputs]
    transposed = _derivatives(outputs, leaves, dummies, True)
    blocks = [[None] * len(leaves) for _ in outputs]
    for j, (x, g) in enumerate(zip(leaves, transposed)):
        columns = []
        for k in range(x.numel()):
            basis = x.detach().new_zeros(x.numel())
            basis[k] = 1
            columns.append(_derivatives([g], dummies, [basis.reshape(x.shape)], keep) if g.requires_grad else
                           [d.new_zeros(d.shape) for d in dummies])
        for i, o in enumerate(outputs):
            block = stack([c[i] for c in columns], dim=-1) if columns else o.new_zeros(o.shape + (0,))
            blocks[i][j] = block.reshape(o.shape + x.shape)
    return blocks


def jacrev(func, argnums=0, *, has_aux: bool = False, chunk_size=None, _preallocate_and_copy: bool = False):
    """The Jacobian of ``func`` as a function, by reverse mode: one backward pass per output entry. Its shape is
    the output's shape followed by the input's.

    >>> import autograd_tutor as torch
    >>> jacrev(lambda x: x ** 2)(torch.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    return _jacobian(func, argnums, has_aux, by_columns=False)


def jacfwd(func, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """The Jacobian of ``func`` as a function, built column by column: one Jacobian-vector product per input
    entry (see ``jvp``). Cheaper than ``jacrev`` when there are fewer inputs than outputs.

    >>> import autograd_tutor as torch
    >>> jacfwd(lambda x: x.sum(0, keepdim=True) * x)(torch.tensor([1., 2.]))
    tensor([[4., 1.],
            [2., 5.]])
    """
    return _jacobian(func, argnums, has_aux, by_columns=True)


def hessian(func, argnums=0):
    """The matrix of second derivatives, ``jacfwd(jacrev(func))`` as in torch.

    >>> import autograd_tutor as torch
    >>> hessian(lambda x: (x ** 3).sum())(torch.tensor([1., 2.]))     # diag(6 x)
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)


# ---------------------------------------------------------------------------------------------- vmap
def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """Map ``func`` over a batch dimension: ``vmap(f)(x)[i] == f(x[i])``. ``in_dims`` says, per argument, which
    dim is the batch (``None``: the same argument for every sample); ``out_dims`` where the batch goes in the
    outputs. Random numbers inside ``func`` raise unless ``randomness`` is ``"same"`` (every sample draws the
    same numbers, as in torch) or ``"different"`` (each sample draws its own, one sample after the other).

    >>> import autograd_tutor as torch
    >>> vmap(lambda row: row.max())(torch.tensor([[1., 5.], [7., 2.]]))
    tensor([5., 7.])
    >>> vmap(torch.mul, in_dims=(0, None))(torch.tensor([1., 2.]), torch.tensor(10.))
    tensor([10., 20.])
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    name = getattr(func, "__name__", repr(func))

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
        dims = _batch_dims(in_dims, args, where)
        batched = [(x, d) for x, d in zip(_flatten(args), dims) if d is not None]
        if not batched:
            raise ValueError("vmap: Expected at least one Tensor to vmap over")
        sizes = [x.shape[d] for x, d in batched]
        if len(set(sizes)) > 1:
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sizes} for the mapped dimension")
        outs = []
        start = default_generator._snapshot()
        for i in range(sizes[0]):
            if randomness == "same":
                default_generator._restore(start)
            leaves = [x if d is None else x.select(d, i) for x, d in zip(_flatten(args), dims)]
            outs.append(func(*_rebuild(args, iter(leaves)), **kwargs))
            if randomness == "error" and not _same_place(default_generator._snapshot(), start):
                default_generator._restore(start)  # torch refuses before drawing: the stream stays where it was
                raise RuntimeError("vmap: called random operation while in randomness error mode. Please either use "
                                   "the 'same' or 'different' randomness flags on vmap or perform the randomness "
                                   "operation out of vmap")
        return _stacked(outs, out_dims, name)
    return wrapper


def _same_place(a: tuple, b: tuple) -> bool:
    return a[1] == b[1] and a[2] is b[2] and bool((a[0] == b[0]).all())


def _batch_dims(in_dims, args: tuple, where: str) -> list:
    """One batch dim (or None) per leaf of ``args``: an int applies to every leaf, a tuple per argument."""
    if isinstance(in_dims, int):
        in_dims = (in_dims,) * len(args)
    if not isinstance(in_dims, tuple):
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                         f"structure of inputs, got: {type(in_dims)}.")
    if len(in_dims) != len(args):
        raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has "
                         f"structure {_treespec(in_dims)} but inputs has structure {_treespec(args)}.")
    dims = []
    for arg, d in zip(args, in_dims):
        leaves = _flatten(arg)
        per_leaf = _flatten(d) if isinstance(d, (tuple, list, dict)) else [d] * len(leaves)
        for x, dim in zip(leaves, per_leaf):
            if dim is not None and not isinstance(x, Tensor):
                raise ValueError(f"{where}: Got in_dim={dim} for an input but the input is of type {type(x)}. We "
                                 "cannot vmap over non-Tensor arguments, please use None as the respective in_dim")
            if dim is not None and not -x.dim() <= dim < max(x.dim(), 1):
                raise ValueError(f"{where}: Got in_dim={dim} for some input, but that input is a Tensor of "
                                 f"dimensionality {x.dim()} so expected in_dim to satisfy {-x.dim()} <= in_dim < "
                                 f"{x.dim()}.")
            dims.append(dim)
    return dims


def _stacked(outs: list, out_dims, name: str):
    """The per-sample outputs stacked along ``out_dims`` into the structure of one output."""
    first = outs[0]
    leaves = list(zip(*[_flatten(o) for o in outs]))
    dims = _flatten(out_dims) if isinstance(out_dims, tuple) else [out_dims] * len(leaves)
    stacked = []
    for samples, dim in zip(leaves, dims):
        if dim is None:
            if any(s is not samples[0] for s in samples):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            stacked.append(samples[0])
            continue
        if not isinstance(samples[0], Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(samples[0])}. "
                             "Did you mean to set out_dims= to None for output?")
        stacked.append(stack(samples, dim=dim))
    return _rebuild(first, iter(stacked))


# ---------------------------------------------------------------------------------------------- functional_call
def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights: bool = True,
                    strict: bool = False):
    """Call ``module`` with the given tensors in place of its parameters and buffers (by their dotted names, as
    ``named_parameters()`` lists them), then put its own back: the model as a pure function of its weights, which
    ``grad`` can differentiate.

    >>> import autograd_tutor as torch
    >>> lin = torch.nn.Linear(1, 1)
    >>> functional_call(lin, {"weight": torch.tensor([[2.]]), "bias": torch.tensor([1.])}, (torch.tensor([3.]),))
    tensor([7.])
    """
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, dict):
        dicts = (dicts,)
    given = {}
    for d in dicts:
        for key, value in d.items():
            if key in given:
                raise ValueError(f"{[key]} appeared in multiple dictionaries; behavior of functional call is "
                                 "ambiguous")
            given[key] = value
    own = dict(module.named_parameters(remove_duplicate=False))
    own.update(module.named_buffers(remove_duplicate=False))
    if tie_weights:  # a weight shared by two names takes the given tensor under either name
        by_tensor = {id(own[k]): v for k, v in given.items() if k in own}
        given = {**{k: by_tensor[id(t)] for k, t in own.items() if id(t) in by_tensor}, **given}
    if strict:
        unexpected = sorted(set(given) - set(own))
        missing = sorted(set(own) - set(given))
        if unexpected or missing:
            lines = [f"Error(s) in reparametrizing for {type(module).__name__}:"]
            if unexpected:
                lines.append("\tUnexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected) + ".")
            if missing:
                lines.append("\tMissing key(s): " + ", ".join(f"'{k}'" for k in missing) + ".")
            raise RuntimeError("\n".join(lines))
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _swapped(module, given):
        return module(*args, **(kwargs or {}))


@contextlib.contextmanager
def _swapped(module, tensors: dict):
    """Put ``tensors`` in place of the module's own (by dotted name) for the ``with`` body, then restore them."""
    undo = []
    try:
        for name, tensor in tensors.items():
            owner_name, _, leaf = name.rpartition(".")
            owner = module.get_submodule(owner_name)
            for registry in (owner._parameters, owner._buffers):
                if leaf in registry:
                    undo.append((registry, leaf, registry[leaf]))
                    registry[leaf] = tensor
                    break
            else:  # a name the module does not have: set for the call as an attribute, as torch does
                undo.append((owner.__dict__, leaf, _ABSENT))
                owner.__dict__[leaf] = tensor
        yield
    finally:
        for registry, leaf, original in reversed(undo):
            if original is _ABSENT:
                del registry[leaf]
            else:
                registry[leaf] = original


_ABSENT = object()
