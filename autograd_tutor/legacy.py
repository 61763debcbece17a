"""The legacy constructors of old PyTorch: ``torch.Tensor(...)`` and the typed ``torch.FloatTensor``,
``torch.LongTensor`` and their family.

Lessons written before ``torch.tensor`` existed build data with them, and torch 2.13 still accepts every form:
``FloatTensor([[1, 2], [3, 4]])`` (data, converted to the class's dtype), ``FloatTensor(2, 3)`` (a shape: torch
leaves the memory uninitialised, we give zeros), ``FloatTensor()`` (empty) and ``FloatTensor(t)`` (an alias of
``t``, ``AliasBackward0``, when its dtype matches). ``torch.Tensor(...)`` is ``FloatTensor(...)``, except that
``torch.Tensor(t)`` aliases a tensor of any dtype. The typed ones are not classes of their own tensors:
``isinstance(t, FloatTensor)`` asks whether ``t`` is a float32 tensor, and what they return is an ordinary ``Tensor``.

>>> import autograd_tutor as torch
>>> x = torch.LongTensor([1.7, -1.7])
>>> x, isinstance(x, torch.LongTensor), isinstance(x, torch.FloatTensor)
(tensor([ 1, -1]), True, False)
>>> torch.Tensor([[1, 2], [3, 4]]), torch.Tensor(2, 3).shape, torch.Tensor()
(tensor([[1., 2.],
        [3., 4.]]), torch.Size([2, 3]), tensor([]))
"""
from .autograd import dtypes
from .autograd.factories import empty, tensor
from .autograd.ops.shape import AliasBackward0
from .autograd.tensor import Size, Tensor

__all__ = ["new", "FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor", "CharTensor",
           "ByteTensor", "BoolTensor"]

_SIGNATURES = ("(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
               "(tuple of ints size, *, torch.device device = None)", "(object data, *, torch.device device = None)")


def _described(value) -> str:
    """A value's type as torch's argument errors mark it: ``list of [int]`` for a list of ints."""
    if isinstance(value, list):
        return f"list of [{', '.join(dict.fromkeys(_type_name(v) for v in value))}]"
    return _type_name(value)


def _invalid(args: tuple, kwargs: dict, why: str, under: tuple) -> TypeError:
    """torch's "invalid combination of arguments" error, ``why`` printed under the signatures numbered ``under``
    (torch's choice: by the number of positional arguments, see ``new``)."""
    got = ", ".join([_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()])
    if kwargs and not args:
        got += ", "
    lines = [f"new() received an invalid combination of arguments - got ({got}), but expected one of:"]
    for i, signature in enumerate(_SIGNATURES):
        lines += [f" * {signature}"] + ([f"      didn't match because {why}"] if i in under else [])
    return TypeError("\n".join(lines) + "\n")


def _type_name(value) -> str:
    if isinstance(value, dtypes.dtype):
        return "torch.dtype"
    return type(value).__name__


def new(dtype, args: tuple, kwargs: dict, any_tensor: bool = False) -> Tensor:
    """What ``torch.Tensor(*args, **kwargs)`` (``any_tensor``) or a typed constructor of ``dtype`` returns: an
    empty tensor, an alias of a tensor, a tensor of a shape (zeros), or the data converted to ``dtype``."""
    unknown = [key for key in kwargs if key != "device"]
    if unknown:  # torch names the wrong keywords under these signatures, by the number of positional arguments
        raise _invalid(args, kwargs, f"some of the keywords were incorrect: {', '.join(unknown)}",
                       {0: (1, 2), 1: (0,), 2: (3, 4)}.get(len(args), ()))
    if not args:
        return empty(0, dtype=dtype)
    if len(args) == 1 and isinstance(args[0], Tensor):
        if args[0].dtype != dtype and not any_tensor:
            raise TypeError(f"expected {_options(dtype)} (got {_options(args[0].dtype)})")
        return AliasBackward0.apply(args[0])
    if len(args) == 1 and isinstance(args[0], Size):
        return empty(*args[0], dtype=dtype)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        for a in args:
            if a < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {a}: {list(args)}")
        return empty(*args, dtype=dtype)
    if len(args) == 1 and not isinstance(args[0], (int, float, complex, bool)):
        return tensor(args[0], dtype=dtype)
    if len(args) == 1:
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")
    if not isinstance(args[0], int):
        marked = ", ".join(f"!{_described(a)}!" for a in args)
        raise _invalid(args, {}, f"some of the arguments have invalid types: ({marked})", (0,))
    bad = next(i for i, a in enumerate(args) if not isinstance(a, int))
    raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {bad + 1} with error "
                    f"\"type must be tuple of ints,but got {type(args[bad]).__name__}\"")


class tensortype(type):
    """The type of ``torch.FloatTensor`` & co: ``isinstance`` checks the tensor's dtype."""

    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor) and other.dtype == cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"

    def __call__(cls, *args, **kwargs):
        return new(cls.dtype, args, kwargs)


#: torch's C++ names for the dtypes, as its messages print them
_CPP_NAMES = {dtypes.float32: "float", dtypes.float64: "double", dtypes.float16: "c10::Half",
              dtypes.int64: "long int", dtypes.int32: "int", dtypes.int16: "short int", dtypes.int8: "signed char",
              dtypes.uint8: "unsigned char", dtypes.bool: "bool"}


def _options(dtype) -> str:
    return (f"TensorOptions(dtype={_CPP_NAMES.get(dtype, str(dtype))}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


def _legacy(name: str, dtype) -> tensortype:
    return tensortype(name, (), {"dtype": dtype, "is_cuda": False, "__module__": "torch",
                                 "__doc__": f"``torch.{name}(data)``, ``torch.{name}(*size)``: a {dtype} tensor."})


FloatTensor = _legacy("FloatTensor", dtypes.float32)
DoubleTensor = _legacy("DoubleTensor", dtypes.float64)
HalfTensor = _legacy("HalfTensor", dtypes.float16)
LongTensor = _legacy("LongTensor", dtypes.int64)
IntTensor = _legacy("IntTensor", dtypes.int32)
ShortTensor = _legacy("ShortTensor", dtypes.int16)
CharTensor = _legacy("CharTensor", dtypes.int8)
ByteTensor = _legacy("ByteTensor", dtypes.uint8)
BoolTensor = _legacy("BoolTensor", dtypes.bool)
