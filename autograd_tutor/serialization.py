"""``torch.save`` / ``torch.load``: keep tensors, a model's ``state_dict`` and containers of them in a file.

The file is our own format: a short header line, then a pickle of the object (each tensor as its values,
dtype and ``requires_grad``; views saved together keep sharing memory). It is not PyTorch's zip format: files
written by PyTorch cannot be loaded here, nor ours by PyTorch.

``load`` reads only plain data unless told otherwise (``weights_only=True``, torch's default since 2.6):
tensors, numbers, strings, lists, tuples, dicts and ``OrderedDict`` s. Any other class in the file raises
torch's "Weights only load failed" error; ``weights_only=False`` unpickles anything, so only use it on files
you trust (unpickling can run code).

>>> import io
>>> import autograd_tutor as torch
>>> buffer = io.BytesIO()
>>> torch.save({"w": torch.tensor([1., 2.], requires_grad=True), "step": 3}, buffer)
>>> _ = buffer.seek(0)
>>> torch.load(buffer)
{'w': tensor([1., 2.], requires_grad=True), 'step': 3}
"""
from __future__ import annotations

import contextlib
import os
import pickle

from .devices import check_cpu, device

__all__ = ["save", "load"]

HEADER = b"autograd_tutor tensors, pickle\n"
DEFAULT_PROTOCOL = 2  # torch's

#: What a ``weights_only`` load may build: ``module name`` as the pickle names them (a tensor's class by its public
#: name, ``autograd_tutor Tensor``; files written before it had one name it by its module).
SAFE_GLOBALS = frozenset({
    "autograd_tutor.autograd.tensor _rebuild", "autograd_tutor Tensor", "autograd_tutor Size",
    "autograd_tutor.autograd.tensor Tensor", "autograd_tutor.autograd.tensor Size", "autograd_tutor.nn.parameter Parameter",
    "autograd_tutor.autograd.dtypes from_numpy_dtype", "collections OrderedDict",
    "numpy dtype", "numpy ndarray", "numpy._core.multiarray _reconstruct", "numpy._core.multiarray scalar",
    "numpy.core.multiarray _reconstruct", "numpy.core.multiarray scalar", "_codecs encode",
    *(f"{module} {name}" for module in ("builtins", "__builtin__") for name in ("set", "frozenset", "complex", "bytes")),
})

WEIGHTS_ONLY_ERROR = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those "
    "steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default "
    "value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
    "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only "
    "if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please "
    "check the recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: "
    "GLOBAL {name} was not an allowed global by default. Please use `torch.serialization.add_safe_globals([{name}])`"
    " or the `torch.serialization.safe_globals([{name}])` context manager to allowlist this global if you trust "
    "this class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


class _WeightsUnpickler(pickle.Unpickler):
    """An unpickler that builds only the globals of :data:`SAFE_GLOBALS` (it never imports anything else)."""

    def find_class(self, module: str, name: str):
        if f"{module} {name}" not in SAFE_GLOBALS:
            shown = name if module in ("builtins", "__builtin__") else f"{module}.{name}"
            raise pickle.UnpicklingError(WEIGHTS_ONLY_ERROR.format(name=shown))
        return super().find_class(module, name)


@contextlib.contextmanager
def _opened(f, mode: str):
    """A path is opened (and closed); a file object is used as it is."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, mode) as file:
            yield file
    else:
        yield f


def save(obj, f, pickle_module=pickle, pickle_protocol: int = DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization: bool = True, _disable_byteorder_record: bool = False) -> None:
    """Write ``obj`` (a tensor, a ``state_dict``, a container of them...) to ``f``, a path or a binary file."""
    with _opened(f, "wb") as file:
        file.write(HEADER)
        pickle_module.dump(obj, file, protocol=pickle_protocol)


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None, mmap=None,
         **pickle_load_args):
    """Read back what :func:`save` wrote. ``map_location`` can only be the CPU (or a mapping / function, unused):
    every tensor here lives there."""
    if isinstance(map_location, (str, device)):
        check_cpu(map_location)
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    with _opened(f, "rb") as file:
        if file.read(len(HEADER)) != HEADER:
            raise RuntimeError("autograd_tutor.load reads only files written by autograd_tutor.save (not "
                               "PyTorch's format)")
        if weights_only:
            return _WeightsUnpickler(file, **pickle_load_args).load()
        return (pickle_module or pickle).load(file, **pickle_load_args)
