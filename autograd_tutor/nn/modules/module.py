"""``nn.Module``: the base class of layers and models, with torch's bookkeeping.

Assigning a :class:`Parameter` or another Module to an attribute registers it, so ``parameters()`` finds every
weight of a model, however deeply nested, with a dotted name (``"net.0.weight"``). Calling a module runs its
``forward``. ``train()`` / ``eval()`` set ``training`` on the whole tree, ``zero_grad()`` resets the gradients,
``state_dict()`` / ``load_state_dict()`` save and restore the weights, and ``repr`` prints the tree as torch does.

>>> import autograd_tutor as torch
>>> class Affine(torch.nn.Module):
...     def __init__(self):
...         super().__init__()
...         self.scale = torch.nn.Parameter(torch.tensor(2.))
...         self.shift = torch.nn.Parameter(torch.tensor(1.))
...     def forward(self, x):
...         return self.scale * x + self.shift
>>> m = Affine()
>>> m(torch.tensor(3.)), [name for name, _ in m.named_parameters()]
(tensor(7., grad_fn=<AddBackward0>), ['scale', 'shift'])
"""
from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple

from ...autograd.dtypes import float32, float64
from ...autograd.grad_mode import no_grad
from ...autograd.hooks import add_hook
from ...autograd.node import _ids
from ...autograd.tensor import Tensor
from ...devices import check_cpu
from ...events import ModuleEntered, ModuleLeft
from .backward_hooks import BackwardHook, warn_non_full, wrap_hook
from ...events import _routes as _announced
from ..parameter import Parameter

__all__ = ["Module"]


def _typename(obj) -> str:
    """``torch.typename``: ``'torch.FloatTensor'`` for a tensor, the qualified class name otherwise."""
    if isinstance(obj, Tensor):
        return obj.type()
    cls = type(obj)
    module = "" if cls.__module__ == "builtins" else cls.__module__ + "."
    return module + cls.__qualname__


def _addindent(text: str, spaces: int) -> str:
    """Indent every line but the first (a child's repr inside its parent's)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _quoted(keys: list) -> str:
    return ", ".join(f'"{k}"' for k in keys)


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it missed and the keys it did not expect."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Module:
    """Base class for all neural network modules: subclass it, register parts in ``__init__``, define ``forward``."""

    training: bool
    _version = 1  # of the state_dict layout; a subclass that changes its layout raises it

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        """``forward``, between the forward pre-hooks (which may replace the arguments) and the forward hooks
        (which may replace the output). When someone listens, the call is announced by a ``module_entered``
        event and a ``module_left`` one (drawings group what the call made); otherwise it costs one check."""
        if not _announced[ModuleEntered]:
            return self._call(args, kwargs)
        ModuleEntered.emit(id(self), type(self).__name__, next(_ids))
        try:
            return self._call(args, kwargs)
        finally:
            ModuleLeft.emit(id(self), next(_ids))

    def _call(self, args: tuple, kwargs: dict):
        state = self.__dict__
        pre, post = state.get("_forward_pre_hooks"), state.get("_forward_hooks")
        backward, backward_pre = state.get("_backward_hooks"), state.get("_backward_pre_hooks")
        if not (pre or post or backward or backward_pre):  # the common case, as torch tests it first: forward alone
            return self.forward(*args, **kwargs)
        for hook in tuple(pre.values()) if pre else ():
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        full = list(backward.values()) if backward and state.get("_is_full_backward_hook") else []
        watcher = None
        if full or backward_pre:  # the input and the output pass through BackwardHookFunctionBackward nodes
            watcher = BackwardHook(self, full, list(backward_pre.values()) if backward_pre else [])
            args = watcher.setup_input_hook(args)
        out = self.forward(*args, **kwargs)
        for hook in tuple(state.get("_forward_hooks", {}).values()):
            result = hook(self, args, out)
            if result is not None:
                out = result
        if watcher:
            if not isinstance(out, (Tensor, tuple)):
                warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple of "
                              f"Tensors but received {type(out)}", stacklevel=3)
            out = watcher.setup_output_hook(out)
        if backward and not state.get("_is_full_backward_hook"):  # the deprecated kind: on the output's node
            first = out
            while not isinstance(first, Tensor):
                first = next(v for v in first.values() if isinstance(v, Tensor)) if isinstance(first, dict) \
                    else first[0]
            if first.grad_fn is not None:
                for hook in tuple(backward.values()):
                    first.grad_fn.register_hook(wrap_hook(hook, self))
                warn_non_full(args, out, first.grad_fn)
        return out

    def register_forward_pre_hook(self, hook):
        """Call ``hook(module, args)`` before each forward; a returned tuple (or single value) replaces ``args``."""
        return add_hook(self.__dict__.setdefault("_forward_pre_hooks", {}), hook)

    def register_forward_hook(self, hook):
        """Call ``hook(module, args, output)`` after each forward; a returned value replaces the output."""
        return add_hook(self.__dict__.setdefault("_forward_hooks", {}), hook)

    def register_full_backward_pre_hook(self, hook):
        """Call ``hook(module, grad_output)`` when the gradient of the output arrives; a returned tuple replaces
        ``grad_output``."""
        return add_hook(self.__dict__.setdefault("_backward_pre_hooks", {}), hook)

    def register_full_backward_hook(self, hook):
        """Call ``hook(module, grad_input, grad_output)`` once the gradient with respect to the input is known; a
        returned tuple replaces ``grad_input``."""
        return self._backward_hook(hook, True)

    def register_backward_hook(self, hook):
        """Deprecated: ``hook(module, grad_input, grad_output)`` on the node that made the output, so
        ``grad_input`` holds that node's gradients. Use ``register_full_backward_hook``."""
        return self._backward_hook(hook, False)

    def _backward_hook(self, hook, full: bool):
        if self.__dict__.get("_is_full_backward_hook", full) is not full:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", full)
        return add_hook(self.__dict__.setdefault("_backward_hooks", {}), hook)

    # ------------------------------------------------------------ registration
    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or None, a slot for one) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter", self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (saved in ``state_dict`` unless not ``persistent``)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: "Module | None") -> None:
        """Add a child module under ``name`` (what ``self.name = module`` does)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name, kind: str, registry: dict) -> None:
        """torch's checks on the name of a new parameter or buffer, in torch's order."""
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in registry:
            raise KeyError(f"attribute '{name}' already exists")

    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, self.__dict__, buffers, modules)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, self.__dict__, params, buffers)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = None
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    @staticmethod
    def _forget(name: str, *registries) -> None:
        for registry in registries:
            registry.pop(name, None)

    def __getattr__(self, name: str):
        # Only called when normal lookup fails: registered parameters, buffers and children live in dicts.
        state = self.__dict__
        if "_modules" in state:  # (the last one __init__ makes: before it, and while unpickling, nothing is found)
            for found in (state["_parameters"], state["_buffers"], state["_modules"]):
                if name in found:
                    return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list:
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules))

    # ------------------------------------------------------------ walking the tree
    def named_modules(self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True):
        """This module and every module below it, each once, as ``(dotted name, module)``; the root is ``''``."""
        memo = set() if memo is None else memo
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """The direct children as ``(name, module)``, each once."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def get_submodule(self, target: str) -> "Module":
        """The module at the dotted path ``target`` (``"encoder.0"``; ``""`` is this module)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target``, as ``named_parameters()`` names it (``"0.weight"``)."""
        mod, name = self._owner_of(target)
        if not isinstance(getattr(mod, name), Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return getattr(mod, name)

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target`` (``"bn.running_mean"``)."""
        mod, name = self._owner_of(target)
        if name not in mod._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(mod, name)

    def _owner_of(self, target: str) -> tuple:
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        return mod, name

    def _named_members(self, registry: str, prefix: str, recurse: bool, remove_duplicate: bool = True):
        seen = set()
        tree = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in tree:
            for name, value in getattr(module, registry).items():
                if value is None or value in seen:
                    continue
                if remove_duplicate:
                    seen.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """Every parameter as ``(dotted name, parameter)``: this module's first, then each child's in order."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True):
        """Every parameter, each once: what you hand to an optimizer."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def apply(self, fn) -> "Module":
        """Call ``fn(module)`` on every child (recursively), then on this module; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------ modes and gradients
    def train(self, mode: bool = True) -> "Module":
        """Set ``training`` on this module and all below it (dropout and batch norm behave differently)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> "Module":
        """``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        """Switch gradient tracking of every parameter on or off (freeze a model with False)."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad``: to None (the default, as in torch 2), or to zeros."""
        reset_grads(self.parameters(), set_to_none)

    # ------------------------------------------------------------ conversions
    def to(self, *args, **kwargs) -> "Module":
        """Convert floating-point parameters and buffers to a dtype (``model.to(torch.float64)``); the only
        device is the CPU, so ``model.to("cpu")`` returns the model unchanged."""
        def convert(t):
            return t.to(*args, **kwargs) if t.is_floating_point() else t
        return self._apply_to_tensors(convert)

    def _apply_to_tensors(self, fn) -> "Module":
        with no_grad():
            for module in self.modules():
                for p in module._parameters.values():
                    if p is not None:
                        p.data = fn(p)
                        if p.grad is not None:
                            p.grad = fn(p.grad)
                for name, b in module._buffers.items():
                    if b is not None:
                        module._buffers[name] = fn(b)
        return self

    def float(self) -> "Module":
        return self.to(float32)

    def double(self) -> "Module":
        return self.to(float64)

    def cuda(self, device=None) -> "Module":
        """There is no GPU here: the error a CPU-only torch raises."""
        check_cpu("cuda")

    def cpu(self) -> "Module":
        return self

    # ------------------------------------------------------------ saving and loading
    def state_dict(self, *, destination=None, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
        """Parameters and persistent buffers by dotted name, detached unless ``keep_vars`` (shared modules
        appear under each of their names)."""
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()  # each module's version, by name: how old checkpoints are told
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = {"version": self._version}
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False) -> _IncompatibleKeys:
        """Copy the tensors of ``state_dict`` into this module's parameters and buffers (in place, under
        no_grad); with ``strict``, missing or unexpected keys are an error."""
        missing, unexpected, errors = [], [], []
        for prefix, module in self.named_modules(remove_duplicate=False):
            module._load_own(state_dict, prefix + "." if prefix else "", missing, unexpected, errors, assign)
        if strict:
            if unexpected:
                errors.insert(0, f"Unexpected key(s) in state_dict: {_quoted(unexpected)}. ")
            if missing:
                errors.insert(0, f"Missing key(s) in state_dict: {_quoted(missing)}. ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def _load_own(self, state_dict, prefix: str, missing: list, unexpected: list, errors: list, assign: bool):
        """Load this module's own tensors from ``state_dict`` and list the keys at this level it does not know."""
        own = {k: v for k, v in self._parameters.items() if v is not None}
        own.update((k, v) for k, v in self._buffers.items()
                   if v is not None and k not in self._non_persistent_buffers_set)
        for name, current in own.items():
            key = prefix + name
            if key not in state_dict:
                missing.append(key)
                continue
            given = state_dict[key]
            if not isinstance(given, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                              f"object from checkpoint but received {type(given)}")
                continue
            if given.shape != current.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape {given.shape} from checkpoint, "
                              f"the shape in current model is {current.shape}.")
                continue
            with no_grad():
                if assign:
                    setattr(self, name, Parameter(given, current.requires_grad)
                            if isinstance(current, Parameter) else given)
                else:
                    current.copy_(given)
        for key in state_dict:
            if key.startswith(prefix):
                head = key[len(prefix):].split(".", 1)[0]
                if head not in self._modules and head not in own:
                    unexpected.append(key)

    # ------------------------------------------------------------ printing
    def extra_repr(self) -> str:
        """The text between the parentheses of this module's repr (``in_features=2, ...``); override it."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _addindent(repr(module), 2) for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


def reset_grads(params, set_to_none: bool) -> None:
    """``zero_grad`` of modules and optimizers: drop each ``.grad`` (set_to_none) or zero it, cut from any graph."""
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            if p.grad.grad_fn is not None:
                p.grad.detach_()
            else:
                p.grad.requires_grad_(False)
            p.grad.zero_()
