"""Containers that register what they hold: ``ModuleList``, ``ModuleDict``, ``ParameterList``, ``ParameterDict``.

A plain Python list of layers is invisible to ``parameters()``, ``state_dict()``, ``to()`` and ``train()``;
these behave like a list or a dict but register each entry under its index or key, so the dotted names are
``"layers.0.weight"`` or ``"heads.left.bias"``. A ModuleList prints runs of identical children once
(``(0-2): 3 x Linear(...)``); a plain tensor put in a ParameterList or ParameterDict becomes a Parameter.

>>> import autograd_tutor as torch
>>> from autograd_tutor import nn
>>> layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
>>> layers
ModuleList(
  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)
)
>>> [name for name, _ in layers.named_parameters()][:3], len(layers[1:])
(['0.weight', '0.bias', '1.weight'], 2)
>>> nn.ParameterDict({"scale": torch.ones(2)})
ParameterDict(  (scale): Parameter containing: [torch.FloatTensor of size 2])
"""
from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from ...autograd.tensor import Tensor
from ..parameter import Parameter
from .module import Module, _addindent, _typename

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _abs_index(idx, size: int) -> str:
    """The key of entry ``idx`` (negative counts from the end) of a list container of ``size`` entries."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return str(idx % size)


def _renumber(container: Module) -> None:
    """Rename the children 0, 1, 2, ... after a deletion, keeping their order."""
    container._modules = OrderedDict((str(i), m) for i, m in enumerate(container._modules.values()))


def _check_iterable(values, what: str, tensor_ok: bool) -> None:
    """torch's error for ``extend`` with something that is not iterable (or, for ParameterList, a tensor)."""
    if not isinstance(values, Iterable) or (isinstance(values, Tensor) and not tensor_ok):
        raise TypeError(f"{what} should be called with an iterable, but got {type(values).__name__}")


def _as_parameter(value):
    """A plain tensor stored in a ParameterList or ParameterDict is wrapped as a Parameter."""
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) else value


def _pairs(values, what: str):
    """The (key, value) pairs of ``update`` from an iterable of pairs, each checked as torch checks it."""
    for j, pair in enumerate(values):
        if not isinstance(pair, Iterable):
            raise TypeError(f"{what} update sequence element #{j} should be Iterable; is{type(pair).__name__}")
        if len(pair) != 2:
            raise ValueError(f"{what} update sequence element #{j} has length {len(pair)}; 2 is required")
        yield pair


def _pop(container, key):
    """``pop``: remove the entry at ``key`` (an index or a key) and return it."""
    value = container[key]
    del container[key]
    return value


def _entries_repr(items) -> str:
    """The lines ParameterList and ParameterDict print: ``  (key): Parameter containing: [dtype of size 2x3]``,
    where ``items`` gives (key, tensor, type text) triples."""
    lines = []
    for key, p, type_text in items:
        if isinstance(p, Tensor):
            size = "x".join(str(n) for n in p.size())
            kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
            lines.append(f"  ({key}): {kind} containing: [{type_text} of size {size}]")
        else:
            lines.append(f"  ({key}): Object of type: {type(p).__name__}")
    return "\n".join(lines)


class Sequential(Module):
    """A chain of modules: ``forward`` feeds each one's output to the next.

    Build it from modules (named "0", "1", ...) or from an OrderedDict of named modules.
    """

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def _key(self, idx) -> str:
        size = len(self)
        idx = operator.index(idx)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        return list(self._modules)[idx % size]

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key(idx)]

    def __setitem__(self, idx, module: Module) -> None:
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)[idx] if isinstance(idx, slice) else [self._key(idx)]
        for key in keys:
            delattr(self, key)
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module: Module) -> "Sequential":
        """Add a module at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential) -> "Sequential":
        for module in sequential:
            self.append(module)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(Module):
    """A list of modules, registered as children "0", "1", ...; slicing gives a new ModuleList."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[_abs_index(idx, len(self))]

    def __setitem__(self, idx, module: Module) -> None:
        setattr(self, _abs_index(idx, len(self)), module)

    def __delitem__(self, idx) -> None:
        keys = [str(k) for k in range(len(self))[idx]] if isinstance(idx, slice) else [_abs_index(idx, len(self))]
        for key in keys:
            delattr(self, key)
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules) -> "ModuleList":
        return self.extend(modules)

    def __add__(self, other) -> "ModuleList":
        return ModuleList([*self, *other])

    def append(self, module: Module) -> "ModuleList":
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules) -> "ModuleList":
        """Append every module of an iterable; returns self."""
        _check_iterable(modules, "ModuleList.extend", tensor_ok=True)
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Put ``module`` before position ``index``, moving the later ones up by one."""
        for i in range(len(self), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    pop = _pop

    def __repr__(self) -> str:
        """Runs of children with the same repr print once: ``(3-4): 2 x ReLU()``."""
        runs: list = []  # [first index, last index, repr]
        for i, module in enumerate(self):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        if not runs:
            return self._get_name() + "()"
        lines = [_addindent(f"({a}): {text}" if a == b else f"({a}-{b}): {b - a + 1} x {text}", 2)
                 for a, b, text in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules, registered as children under their keys (in insertion order)."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    pop = _pop

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules) -> None:
        """Add (or replace) the modules of a mapping or of an iterable of (key, module) pairs."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, but got "
                            + type(modules).__name__)
        pairs = modules.items() if isinstance(modules, (Mapping, ModuleDict)) else _pairs(modules, "ModuleDict")
        for key, module in pairs:
            self[key] = module


class ParameterList(Module):
    """A list of parameters, registered as "0", "1", ...; tensors become Parameters, other objects are kept."""

    def __init__(self, values=None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)([self[i] for i in range(len(self))[idx]])
        return getattr(self, _abs_index(idx, len(self)))

    def __setitem__(self, idx, value) -> None:
        setattr(self, _abs_index(idx, len(self)), _as_parameter(value))

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __iadd__(self, values) -> "ParameterList":
        return self.extend(values)

    def append(self, value) -> "ParameterList":
        """Add ``value`` at the end (a tensor as a Parameter); returns self."""
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values) -> "ParameterList":
        _check_iterable(values, "ParameterList.extend", tensor_ok=False)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return _entries_repr((k, p, p.dtype if isinstance(p, Tensor) else None) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict of parameters under string keys; tensors become Parameters. A plain dict given to the constructor
    or to ``update`` is added in sorted key order, an OrderedDict or a list of pairs in its own order."""

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys: dict = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _check_key(key) -> str:
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key: str):
        return getattr(self, self._check_key(key))

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None
        setattr(self, self._check_key(key), _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._check_key(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    pop = _pop

    def clear(self) -> None:
        for key in list(self._keys):
            del self[key]

    def update(self, parameters) -> None:
        """Add (or replace) the entries of a mapping or of an iterable of (key, value) pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                            + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = parameters.items()
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = _pairs(parameters, "ParameterDict")
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return _entries_repr((k, p, _typename(p)) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")
