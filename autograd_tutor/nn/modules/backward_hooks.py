"""Module backward hooks, as torch places them in the graph.

``register_full_backward_pre_hook(hook)``: ``hook(module, grad_output)`` runs when the gradient of the module's
output arrives; ``register_full_backward_hook(hook)``: ``hook(module, grad_input, grad_output)`` runs when the
gradient with respect to the module's input is ready. Both see tuples (one entry per argument, None for one that is
not a tensor) and may return a tuple that replaces what they saw. To catch those gradients, the call's input and
its output pass through an identity node each, ``BackwardHookFunctionBackward``, whose node hooks do the work.

``register_backward_hook`` (deprecated) hooks the node that made the output instead, so ``grad_input`` is that
node's gradients (for a Linear: bias, input, weight.T), not the module's.

>>> import autograd_tutor as torch
>>> lin = torch.nn.Linear(2, 1)
>>> h = lin.register_full_backward_hook(lambda m, gin, gout: print(gout))
>>> lin(torch.ones(1, 2, requires_grad=True)).grad_fn.name()
'BackwardHookFunctionBackward'
"""
from __future__ import annotations

import warnings

from ...autograd import grad_mode
from ...autograd.custom import Function
from ...autograd.tensor import Tensor

__all__ = ["BackwardHookFunction", "BackwardHook", "wrap_hook", "warn_non_full"]


class BackwardHookFunction(Function):
    """The identity on a tensor, recorded: a node where gradients can be watched."""

    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


class BackwardHook:
    """One call of a module with full backward hooks: wraps its input and output, then links the two gradients."""

    def __init__(self, module, user_hooks: list, user_pre_hooks: list) -> None:
        self.module, self.user_hooks, self.user_pre_hooks = module, user_hooks, user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_index = self.output_index = None

    def _wrap(self, args: tuple, on_node):
        """The tensors of ``args`` passed through a BackwardHookFunction (if one needs grad); their places."""
        places = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not (any(args[i].requires_grad for i in places) and grad_mode.is_grad_enabled()):
            return args, None
        if len(places) != 1:
            raise NotImplementedError("autograd_tutor: full backward hooks on a module called with several tensors "
                                      "are not supported")
        out = list(args)
        out[places[0]] = BackwardHookFunction.apply(args[places[0]])
        on_node(out[places[0]].grad_fn)
        return tuple(out), places

    @staticmethod
    def _packed(places, values, size) -> tuple:
        res = [None] * size
        for i, v in zip(places, values):
            res[i] = v
        return tuple(res)

    def setup_input_hook(self, args: tuple) -> tuple:
        def on_node(node):
            def hook(grad_input, _):
                if self.grad_outputs is None:  # reached without passing through the output
                    return None
                res = self._packed(self.input_index, grad_input, self.n_inputs)
                for user_hook in self.user_hooks:
                    out = user_hook(self.module, res, self.grad_outputs)
                    if out is None:
                        continue
                    if len(out) != len(res):
                        raise RuntimeError("Backward hook returned an invalid number of grad_input, got "
                                           f"{len(out)}, but expected {len(res)}")
                    res = out
                self.grad_outputs = None
                return tuple(res[i] for i in self.input_index)
            node.register_hook(hook)
        res, self.input_index = self._wrap(args, on_node)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, result):
        def on_node(node):
            def hook(_, grad_output):
                self.grad_outputs = self._packed(self.output_index, grad_output, self.n_outputs)
                for pre_hook in self.user_pre_hooks:
                    replaced = pre_hook(self.module, self.grad_outputs)
                    if replaced is None:
                        continue
                    if len(replaced) != len(self.grad_outputs):
                        raise RuntimeError("Backward pre hook returned an invalid number of grad_output, got "
                                           f"{len(replaced)}, but expected {len(self.grad_outputs)}")
                    self.grad_outputs = replaced
                given = self.grad_outputs
                if self.input_index is None:  # no input needs grad: the hooks run now, with grad_input None
                    warnings.warn("Full backward hook is firing when gradients are computed with respect to module "
                                  "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
                                  "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for "
                                  "more details.", stacklevel=2)
                    grad_inputs = (None,) * self.n_inputs
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(r is None for r in res)):
                            raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                               "always return None or None for all gradients.")
                    self.grad_outputs = None
                return tuple(given[i] for i in self.output_index)
            node.register_hook(hook)
        single = not isinstance(result, tuple)
        res, self.output_index = self._wrap((result,) if single else result, on_node)
        self.n_outputs = 1 if single else len(result)
        return res[0] if single else res


def wrap_hook(hook, module):
    """A deprecated module backward hook as a node hook: ``hook(module, grad_input, grad_output)``."""
    def node_hook(grad_input, grad_output):
        return hook(module, grad_input, grad_output)
    node_hook.__name__ = getattr(hook, "__name__", "hook")
    return node_hook


def warn_non_full(inputs: tuple, result, node) -> None:
    """torch's FutureWarnings for a deprecated backward hook that will miss some gradients."""
    results = (result,) if isinstance(result, Tensor) else result
    if not (isinstance(results, tuple) and all(isinstance(r, Tensor) for r in results)):
        return _deprecated("Using non-full backward hooks on a Module that does not return a single Tensor or a tuple "
                           "of Tensors is deprecated and will be removed in future versions. This hook will be missing "
                           "some of the grad_output. Please use register_full_backward_hook to get the documented "
                           "behavior.")
    if not all(isinstance(i, Tensor) for i in inputs):
        return _deprecated("Using non-full backward hooks on a Module that does not take as input a single Tensor or "
                           "a tuple of Tensors is deprecated and will be removed in future versions. This hook will be "
                           "missing some of the grad_input. Please use register_full_backward_hook to get the "
                           "documented behavior.")
    out_nodes = {r.grad_fn for r in results if r.grad_fn is not None}
    if not out_nodes or (len(out_nodes) == 1 and node not in out_nodes):
        _deprecated("Using a non-full backward hook when outputs are nested in python data structure is deprecated "
                    "and will be removed in future versions. This hook will be missing some grad_output.")
    elif len(out_nodes) > 1:
        _deprecated("Using a non-full backward hook when outputs are generated by different autograd Nodes is "
                    "deprecated and will be removed in future versions. This hook will be missing some grad_output. "
                    "Please use register_full_backward_hook to get the documented behavior.")
    elif {i.grad_fn for i in inputs if i.grad_fn is not None} != {n for n, _ in node.next_functions}:
        _deprecated("Using a non-full backward hook when the forward contains multiple autograd Nodes is deprecated "
                    "and will be removed in future versions. This hook will be missing some grad_input. Please use "
                    "register_full_backward_hook to get the documented behavior.")


def _deprecated(message: str) -> None:
    warnings.warn(message, FutureWarning, stacklevel=4)
