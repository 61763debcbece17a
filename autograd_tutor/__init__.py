"""autograd_tutor: see autograd work while your own code runs.

A NumPy autograd engine whose public API mirrors PyTorch, so lesson code runs unchanged with
``import autograd_tutor as torch`` and prints what PyTorch prints; plus an event stream that the
Jupyter widgets (``autograd_tutor.widgets``, imported on demand) listen to.

>>> import autograd_tutor as torch
>>> x = torch.tensor(2.0, requires_grad=True)
>>> w = torch.tensor(3.0, requires_grad=True)
>>> b = torch.tensor(1.0, requires_grad=True)
>>> loss = (w * x + b) ** 2
>>> loss.backward()
>>> print(x.grad, w.grad, b.grad)
tensor(42.) tensor(28.) tensor(14.)
"""
from . import autograd, events
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled
from .autograd._printing import get_printoptions, set_printoptions
from .autograd.dtypes import (bool, double, dtype, float, float16, float32, float64, get_default_dtype, half, int,
                              int8, int16, int32, int64, long, short, uint8)
from .autograd.factories import (arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like,
                                 linspace, normal, ones, ones_like, rand, rand_like, randint, randint_like, randn,
                                 randn_like, randperm, tensor, tril_indices, triu_indices, zeros,
                                 zeros_like)
from .autograd.random import Generator, default_generator, initial_seed, manual_seed, seed
from .devices import backends, cuda, device, set_default_device
from .autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                                 no_grad, set_grad_enabled)
from .autograd.tensor import Size, Tensor, return_types
from .ops import *  # noqa: F401,F403  (the torch-level functions; ops.__all__ lists them)
from .ops import __all__ as _ops_all
from . import distributions, func, linalg, nn, optim, profiler, special, utils  # after the tensor API they build on
from .serialization import load, save
from .linalg import logdet, torch_slogdet as slogdet
from .autograd.type_info import finfo, iinfo
from .compiling import compile  # noqa: A001  (torch.compile shadows the builtin, as in torch)
from .legacy import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor,
                     LongTensor, ShortTensor)

__version__ = "0.1.0"

from math import e, inf, nan, pi  # noqa: E402  (torch.pi, torch.e, torch.inf, torch.nan: Python floats, as torch's)

__all__ = ["autograd", "events", "Tensor", "Size", "return_types", "dtype", "tensor", "as_tensor", "from_numpy",
           "ones", "zeros", "empty", "full", "ones_like", "zeros_like", "empty_like", "full_like", "arange",
           "linspace", "eye", "rand", "randn", "randint", "randperm", "normal", "rand_like", "randn_like",
           "randint_like", "tril_indices", "triu_indices", "manual_seed", "seed", "initial_seed", "Generator", "default_generator",
           "device", "cuda", "backends", "set_default_device", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "inference_mode", "is_inference_mode_enabled",
           "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_anomaly_enabled",
           "set_printoptions", "get_printoptions", "get_default_dtype", "float16", "half", "float32", "float",
           "float64", "double", "int8", "int16", "short", "int32", "int", "int64", "long", "uint8", "bool",
           "distributions", "func", "linalg", "nn", "optim", "profiler", "special", "utils", "serialization", "save", "load", "compile", "slogdet", "logdet", "finfo", "iinfo", "FloatTensor",
           "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor", "CharTensor", "ByteTensor",
           "BoolTensor", "pi", "e", "inf", "nan", *_ops_all]


def load_ipython_extension(ipython) -> None:
    """``%load_ext autograd_tutor``: registers ``%%autograd`` and ``%autograd_quiz`` (see ``magics``)."""
    from .magics import load_ipython_extension as load
    load(ipython)
