"""Every differentiable operation: forward and backward side by side, the math in the docstring.

Each class is named as torch names its graph node. ``forward`` receives Tensors and returns a NumPy array;
``backward`` receives the gradient ``g`` of the output and returns one gradient per input (NumPy arrays,
or Tensors when the engine runs with ``create_graph=True``: the same formulas serve both, written with
operators that arrays and tensors share). Gradients may come back in the broadcast shape:
``Function._run`` sums them to each input's shape.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .dtypes import CPP_NAMES, kind_name, result_type
from .function import FREED_MESSAGE, Function, MultiOutputFunction, SavedTensor
from .summation import numpy_sum, torch_sum
from .vector_math import log_softmax_rows, softmax_rows

__all__: list = []  # used through Tensor methods and torch-level functions, not imported by name


def _rank(t) -> int:
    return 0 if t._wrapped else 2 if t._data.ndim else 1


def _promote(a, b):
    """The two operands' arrays in their common dtype (torch's promotion, see ``dtypes.result_type``).

    Two 0-dim arrays come back as NumPy scalars: the same arithmetic, several times faster."""
    da, db = a._data, b._data
    if da.dtype != db.dtype:
        key = (da.dtype, _rank(a), db.dtype, _rank(b))
        dt = _PROMOTED.get(key)
        if dt is None:
            dt = _PROMOTED[key] = result_type(key[:2], key[2:])
        if da.dtype != dt:
            da = da.astype(dt)
        if db.dtype != dt:
            db = db.astype(dt)
    if da.ndim or db.ndim:
        return da, db
    return da[()], db[()]


_PROMOTED: dict = {}  # result_type by (dtype, rank, dtype, rank): a handful of entries in practice


def _laid_out(out: np.ndarray, da: np.ndarray, db: np.ndarray) -> np.ndarray:
    """``out``, the elementwise result of arrays da and db, in the memory order torch gives it, which decides whether
    it is contiguous (and so what a later reshape records). torch's TensorIterator orders the dims by the inputs'
    strides, the first input that tells two dims apart deciding (broadcast dims tell nothing, size-1 dims do); NumPy
    keeps C order when its inputs disagree. Inputs of one shape that are contiguous, or inputs with the strides of
    new C-ordered arrays, give a contiguous result in both.

    >>> t = np.ones((3, 2)).T                     # not contiguous, (2, 3)
    >>> _laid_out(t * np.ones((2, 3)), t, np.ones((2, 3))).flags.c_contiguous   # NumPy's product is contiguous
    False
    """
    if da.flags.c_contiguous and db.flags.c_contiguous and (da.shape == db.shape or (
            1 not in da.shape or _standard(da)) and (1 not in db.shape or _standard(db))):
        return out
    shape, n = out.shape, out.ndim

    def along(d: np.ndarray) -> list:  # d's strides along the result's dims: 0 where d lacks or broadcasts one
        lead = n - d.ndim
        return [0] * lead + [0 if d.shape[k] == 1 and shape[lead + k] != 1 else d.strides[k] for k in range(d.ndim)]

    strides = [along(da), along(db)]

    def order(d0: int, d1: int) -> int:  # 1: d0 goes outside d1, -1: inside, 0: these inputs cannot tell
        for st in strides:
            if st[d0] and st[d1] and st[d0] != st[d1]:
                return 1 if st[d0] > st[d1] else -1
            if st[d0] and st[d1] and shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(n - 1, -1, -1))  # innermost first; an insertion sort that stops at the first "inside"
    for i in range(1, n):
        j = i
        for k in range(i - 1, -1, -1):
            c = order(perm[k], perm[j])
            if c > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif c < 0:
                break
    outer = perm[::-1]
    laid = np.empty([shape[d] for d in outer], out.dtype).transpose(np.argsort(outer))
    if laid.strides == out.strides:
        return out
    laid[...] = out
    return laid


def _standard(d: np.ndarray) -> bool:
    """Whether a C-contiguous ``d`` has the strides of a new C-ordered array: only its size-1 dims can have others,
    and an array of one dim never decides the order."""
    if d.ndim < 2 or 1 not in d.shape:
        return True
    stride = d.itemsize
    for size, st in zip(reversed(d.shape), reversed(d.strides)):
        if st != stride:
            return False
        stride *= size
    return True


def _float(t) -> np.ndarray:
    """The data as floats: integer tensors become float32, as torch does for exp, sqrt, division..."""
    d = t._data
    return d if d.dtype.kind == "f" else d.astype(np.float32)


#: Up to this many elements (torch prints tensors this size in full), float32 math goes through float64.
EXACT_UP_TO = 1000
_FLOAT32 = np.dtype(np.float32)  # comparing dtypes with a dtype is faster than with the scalar type


def _rounded(fn, d: np.ndarray) -> np.ndarray:
    """``fn(d)`` evaluated in float64 and rounded once to ``d``'s dtype, for tensors of up to EXACT_UP_TO elements.

    NumPy's own float32 exp, tanh, log, sin and cos are up to a few units in the last place off, torch's are
    (nearly always) correctly rounded: going through float64 makes ``torch.exp(torch.tensor(2.)).item()`` print
    7.389056205749512 here too, not 7.3890557289123535. Larger tensors use NumPy's float32 kernels directly:
    the detour costs about 6x on a 64x64 tanh, and the last-place difference never shows in their printout.
    exp overflows to inf without NumPy's warning, as in torch (``torch.tensor(-100.).sigmoid()``)."""
    if fn is np.exp:
        with np.errstate(over="ignore"):
            return _rounded_once(fn, d)
    return _rounded_once(fn, d)


def _rounded_once(fn, d: np.ndarray) -> np.ndarray:
    if d.dtype != _FLOAT32 or d.size > EXACT_UP_TO:
        return fn(d)
    scalar = _SCALAR_MATH.get(fn) if d.ndim == 0 else None
    if scalar is not None:  # a single number: Python's math module gives the same float64 value 4-5x faster
        try:
            return np.array(scalar(float(d)), np.float32)
        except (OverflowError, ValueError):  # exp overflows, log of 0 or less: NumPy's inf and nan below
            pass
    return fn(d, dtype=np.float64).astype(d.dtype)


_SCALAR_MATH = {np.exp: math.exp, np.log: math.log, np.tanh: math.tanh, np.sin: math.sin, np.cos: math.cos}


def _where(mask: np.ndarray, g):
    """``g`` where ``mask`` is true, else 0 (not ``g * mask``: an infinite ``g`` stays out of the zeros).

    Under create_graph ``g`` is a tensor and this is recorded as torch records ``where(mask, grad, 0)``."""
    if not _is_tensor(g):
        return np.where(mask, g, 0).astype(g.dtype, copy=False)
    from .tensor import Tensor
    zero = Tensor._make(np.zeros((), g._data.dtype))
    return WhereBackward0.apply(g, zero, condition=Tensor._make(np.broadcast_to(mask, g._data.shape)))


def _scaled(g, c):
    """``g * c`` for a number ``c``: under create_graph recorded as torch's formulas record it (MulBackward1)."""
    return MulBackward1.apply(g, other=c) if _is_tensor(g) else g * c


def _sum_keep(a, dim: int):
    """The sum along ``dim``, keeping it, for arrays and tensors alike."""
    return a.sum(dim=dim, keepdim=True) if _is_tensor(a) else a.sum(axis=dim, keepdims=True)


def _saved(ctx) -> dict:
    """What the node saved, by name; torch's error when a backward without retain_graph freed it."""
    if ctx._saved is None:
        raise RuntimeError(FREED_MESSAGE)
    return ctx._saved


def _zeros(g) -> np.ndarray:
    """A zero gradient shaped like ``g`` (a constant, also under create_graph)."""
    return np.zeros_like(g._data if _is_tensor(g) else g)


def _is_tensor(g) -> bool:
    """True for a Tensor (create_graph=True), False for an array or a NumPy scalar."""
    return hasattr(g, "_data")


def _needs_array_only(ctx, g, what: str):
    if _is_tensor(g):
        raise NotImplementedError(f"autograd_tutor cannot differentiate {what} twice (create_graph=True); "
                                  "use the gradients it returns as constants.")


# ---------------------------------------------------------------- arithmetic

class AddBackward0(Function):
    """z = a + alpha * b (alpha = 1 for ``a + b``);  dz/da = 1,  dz/db = alpha."""

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        if alpha != 1:
            _check_alpha(a, b, alpha)
        da, db = _promote(a, b)
        out = da + db if alpha == 1 else da + db * alpha
        return out if out.ndim < 2 else _laid_out(out, a._data, b._data)

    @staticmethod
    def backward(ctx, g):
        return g, (g if ctx.alpha == 1 else g * ctx.alpha)


def _check_subtraction(a, b, alpha=1) -> None:
    """torch's refusals: subtracting bool tensors, and a float alpha with integer tensors."""
    bools = (a._data.dtype == np.bool_) + (b._data.dtype == np.bool_)
    if bools == 2:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if bools:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                           "to invert a mask, use the `~` or `logical_not()` operator instead.")
    _check_alpha(a, b, alpha)


def _check_alpha(a, b, alpha) -> None:
    if isinstance(alpha, float) and a._data.dtype.kind in "iu" and b._data.dtype.kind in "iu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


class SubBackward0(Function):
    """z = a - alpha * b (alpha = 1 for ``a - b``);  dz/da = 1,  dz/db = -alpha."""

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        _check_subtraction(a, b, alpha)
        ctx.alpha = alpha
        da, db = _promote(a, b)
        out = da - db if alpha == 1 else da - db * alpha
        return out if out.ndim < 2 else _laid_out(out, a._data, b._data)

    @staticmethod
    def backward(ctx, g):
        return g, (-g if ctx.alpha == 1 else -g * ctx.alpha)


class RsubBackward0(Function):
    """z = b - alpha * x for a tensor b (``torch.rsub(x, b)``);  dz/dx = -alpha,  dz/db = 1."""

    @staticmethod
    def forward(ctx, x, b, alpha=1):
        _check_subtraction(x, b, alpha)
        ctx.alpha = alpha
        da, db = _promote(x, b)
        return db - da if alpha == 1 else db - da * alpha

    @staticmethod
    def backward(ctx, g):
        return (-g if ctx.alpha == 1 else -g * ctx.alpha), g


class RsubBackward1(Function):
    """z = c - alpha * x for a number c (``1 - x``);  dz/dx = -alpha (the number is not an input)."""

    @staticmethod
    def forward(ctx, x, other, alpha=1):
        from .tensor import _wrap
        _check_subtraction(x, _wrap(other), alpha)
        ctx.alpha = alpha
        da, db = _promote(x, _wrap(other))
        return db - da if alpha == 1 else db - da * alpha

    @staticmethod
    def backward(ctx, g):
        return -g if ctx.alpha == 1 else -g * ctx.alpha


class MulBackward0(Function):
    """z = a * b;  dz/da = b,  dz/db = a."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        needs = ctx.needs_input_grad
        if needs:  # saved straight into the node: this is one of the hottest lines of the engine
            if needs[0]:
                ctx._saved["other"] = SavedTensor(b, False)  # torch's order: by name
            if needs[1]:
                ctx._saved["self"] = SavedTensor(a, False)
        da, db = _promote(a, b)
        out = da * db
        return out if out.ndim < 2 else _laid_out(out, a._data, b._data)

    @staticmethod
    def backward(ctx, g):
        saved, t = _saved(ctx), _is_tensor(g)
        b, a = saved.get("other"), saved.get("self")  # SavedTensors, each there only if its gradient is needed
        return (g * b.get(ctx, t) if b is not None else None), (g * a.get(ctx, t) if a is not None else None)


class DivBackward0(Function):
    """z = a / b;  dz/da = 1/b,  dz/db = -a/b**2."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save(other=b, self=a if need_b else None)
        da, db = _promote(a, b)
        if da.dtype.kind != "f":
            da, db = da.astype(np.float32), db.astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = da / db
        return out if out.ndim < 2 else _laid_out(out, a._data, b._data)

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        b = ctx._unpack("other", t)
        a = ctx._unpack("self", t) if "self" in _saved(ctx) else None
        with np.errstate(divide="ignore", invalid="ignore"):
            return g / b, (-g * ((a / b) / b) if a is not None else None)


class NegBackward0(Function):
    """z = -x;  dz/dx = -1."""

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                               "invert a mask, use the `~` or `logical_not()` operator instead.")
        return -x._data

    @staticmethod
    def backward(ctx, g):
        return -g


class ReciprocalBackward0(Function):
    """z = 1/x;  dz/dx = -z**2."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        with np.errstate(divide="ignore"):
            return 1 / _float(x)

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return -g * (r * r)


def _pow_scalar(d: np.ndarray, e):
    """``d ** e`` for a number ``e``, computed the way torch's kernel does (``x * x`` for 2, ``sqrt`` for 0.5...)
    so that float32 results agree to the last bit."""
    if d.dtype.kind == "f":
        if e == 2:
            return d * d
        if e == 3:
            return d * d * d
        if e == 0.5:
            return np.sqrt(d)
        if e == -1:
            return 1 / d
        if e == -2:
            return 1 / (d * d)
    return d ** np.asarray(e, dtype=d.dtype if d.dtype.kind == "f" else None)


class PowBackward0(Function):
    """z = x**e for a number e;  dz/dx = e * x**(e-1) (0 when e == 0)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, exponent):
        ctx.save(self=x, exponent=exponent)
        d = x._data
        if isinstance(exponent, float) and d.dtype.kind != "f":
            d = d.astype(np.float32)
        if d.dtype.kind in "iub" and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return _quiet_pow(d, exponent)

    @staticmethod
    def backward(ctx, g):
        e = ctx.exponent
        x = ctx._unpack("self", _is_tensor(g))
        if e == 0:
            return g * 0
        if _is_tensor(g):
            return g * _scaled(x ** (e - 1), e)
        return g * _scaled(x if e == 2 else _quiet_pow(x, e - 1), e)  # x**1 is x


def _quiet_pow(d: np.ndarray, e):
    """:func:`_pow_scalar` without NumPy's warnings for 0 to a negative power and the like (torch gives inf
    and nan silently); whole non-negative powers raise none, and skip the cost of ``np.errstate``."""
    if e >= 0 and float(e).is_integer():
        return _pow_scalar(d, e)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _pow_scalar(d, e)


class PowBackward1(Function):
    """z = x**w for a tensor w;  dz/dx = w * x**(w-1),  dz/dw = z * log(x) (0 where x == 0 and w >= 0)."""
    saves_result = True
    saved_names = ("self", "exponent")

    @staticmethod
    def forward(ctx, x, w):
        ctx.save(exponent=w, self=x)
        dx, dw = _promote(x, w)
        with np.errstate(divide="ignore", invalid="ignore"):
            return dx ** dw

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        w, x, r = ctx._unpack("exponent", t), ctx._unpack("self", t), ctx._unpack("result", t)
        xd, wd = (x._data, w._data) if t else (x, w)
        mask = ~((xd == 0) & (wd >= 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            gw = g * _where(mask, r * (x.log() if t else _rounded(np.log, np.where(mask, x, 1))))
            gx = g * (w * x ** (w - 1))
            return (_where(wd != 0, gx) if t else np.where(wd != 0, gx, 0).astype(gx.dtype, copy=False)), gw


class PowBackward2(Function):
    """z = c**x for a number c;  dz/dx = z * log(c)."""
    saves_result = True
    saved_names = ("exponent",)

    @staticmethod
    def forward(ctx, x, base):
        ctx.save(exponent=x, self=base)
        from .tensor import _wrap
        db, dx = _promote(_wrap(base), x)
        return db ** dx

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, r = ctx._unpack("exponent", t), ctx._unpack("result", t)
        base = ctx.self
        if base == 0:  # 0**x is flat (0 or 1) where x >= 0
            flat = (x._data if t else x) >= 0
            with np.errstate(divide="ignore", invalid="ignore"):
                return _where(~flat, g * (r * -np.inf)) if t else np.where(flat, 0, g * (r * -np.inf)).astype(g.dtype)
        return g * _scaled(r, float(np.log(base)))


# ---------------------------------------------------------------- elementwise functions

class ExpBackward0(Function):
    """z = exp(x);  dz/dx = z."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        return _rounded(np.exp, _float(x))

    @staticmethod
    def backward(ctx, g):
        return g * ctx._unpack("result", _is_tensor(g))


class LogBackward0(Function):
    """z = log(x);  dz/dx = 1/x."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _rounded(np.log, _float(x))

    @staticmethod
    def backward(ctx, g):
        with np.errstate(divide="ignore"):
            return g / ctx._unpack("self", _is_tensor(g))


class TanhBackward0(Function):
    """z = tanh(x);  dz/dx = 1 - z**2."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        return _rounded(np.tanh, _float(x))

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return TanhBackwardBackward0.apply(g, r) if _is_tensor(g) else _tanh_grad(g, r)


class SigmoidBackward0(Function):
    """z = 1 / (1 + exp(-x));  dz/dx = z * (1 - z)."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        d = _float(x)
        with np.errstate(over="ignore"):
            return (1 / (1 + _rounded(np.exp, -d))).astype(d.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return SigmoidBackwardBackward0.apply(g, r) if _is_tensor(g) else g * (1 - r) * r


class ReluBackward0(Function):
    """z = max(x, 0);  dz/dx = 1 where z > 0, else 0."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype == np.bool_:
            raise RuntimeError("Boolean inputs not supported for relu")
        d = x._data
        return np.where(d < 0, d.dtype.type(0), d)  # keeps -0. and nan, as torch's max(x, 0) does

    @staticmethod
    def backward(ctx, g):
        r = ctx._unpack("result", _is_tensor(g))
        return ThresholdBackwardBackward0.apply(g, r) if _is_tensor(g) else _where(r > 0, g)


class SqrtBackward0(Function):
    """z = sqrt(x);  dz/dx = 1 / (2 z)."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        with np.errstate(invalid="ignore"):
            return np.sqrt(_float(x))

    @staticmethod
    def backward(ctx, g):
        with np.errstate(divide="ignore"):
            return g / _scaled(ctx._unpack("result", _is_tensor(g)), 2)


class AbsBackward0(Function):
    """z = |x|;  dz/dx = sign(x) (0 at 0)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype == np.bool_:
            raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
        ctx.save(self=x)
        return np.abs(x._data)

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * (SgnBackward0.apply(x) if _is_tensor(g) else np.sign(x))


class SinBackward0(Function):
    """z = sin(x);  dz/dx = cos(x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _rounded(np.sin, _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * (x.cos() if _is_tensor(g) else _rounded(np.cos, x))


class CosBackward0(Function):
    """z = cos(x);  dz/dx = -sin(x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return _rounded(np.cos, _float(x))

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", _is_tensor(g))
        return g * -x.sin() if _is_tensor(g) else -g * _rounded(np.sin, x)


class SignBackward0(Function):
    """z = sign(x);  dz/dx = 0 (torch takes 0 at x = 0 too)."""

    @staticmethod
    def forward(ctx, x):
        d = x._data
        return d.copy() if d.dtype == np.bool_ else np.sign(d)  # a bool is its own sign

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class ClampBackward1(Function):
    """z = min(max(x, lo), hi);  dz/dx = 1 where lo <= x <= hi, else 0."""
    saved_names = ("self", "min", "max")

    @staticmethod
    def forward(ctx, x, min=None, max=None):
        ctx.save(self=x, min=min, max=max)
        d = x._data
        bounds = [b for b in (min, max) if b is not None]
        if d.dtype.kind in "biu":  # an integer tensor with float bounds gives floats, as torch promotes
            dt = d.dtype
            for b in bounds:
                dt = result_type((dt, _rank(x)), (np.asarray(b).dtype, 0))
            if dt == np.bool_:
                kernel = "clamp" if len(bounds) == 2 else "clamp_min" if min is not None else "clamp_max"
                raise NotImplementedError(f'"{kernel}_scalar_cpu" not implemented for \'Bool\'')
            d = d.astype(dt)
        return np.clip(d, min, max).astype(d.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        x = ctx._unpack("self", False)
        inside = np.ones(x.shape, bool)
        if ctx.__dict__.get("min") is not None:
            inside &= x >= ctx.min
        if ctx.__dict__.get("max") is not None:
            inside &= x <= ctx.max
        return _where(inside, g)


class MaximumBackward0(Function):
    """z = maximum(a, b);  the larger input gets g, a tie splits it in halves."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save(other=b, self=a)
        return np.maximum(*_promote(a, b))

    @staticmethod
    def backward(ctx, g):
        b, a = ctx._unpack("other", False), ctx._unpack("self", False)
        return _tie_split(g, a > b, a == b)


def _tie_split(g, wins, ties) -> tuple:
    """maximum/minimum: the winning input gets ``g``, the other nothing, and a tie gives each half."""
    half = _where(ties, g / 2)
    return _where(wins, g) + half, _where(~(wins | ties), g) + half


class MinimumBackward0(Function):
    """z = minimum(a, b);  the smaller input gets g, a tie splits it in halves."""
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save(other=b, self=a)
        return np.minimum(*_promote(a, b))

    @staticmethod
    def backward(ctx, g):
        b, a = ctx._unpack("other", False), ctx._unpack("self", False)
        return _tie_split(g, a < b, a == b)


class WhereBackward0(Function):
    """z = where(c, a, b);  dz/da = c,  dz/db = not c."""
    saved_names = ("condition",)

    @staticmethod
    def forward(ctx, a, b, condition):
        ctx.save(condition=condition)
        da, db = _promote(a, b)
        return np.where(condition._data, da, db)

    @staticmethod
    def backward(ctx, g):
        c = ctx._unpack("condition", False)
        if _is_tensor(g):  # torch: where(c, grad, 0) and where(c, 0, grad)
            from .tensor import Tensor
            zero, cond = Tensor._make(np.zeros((), g._data.dtype)), Tensor._make(c)
            return WhereBackward0.apply(g, zero, condition=cond), WhereBackward0.apply(zero, g, condition=cond)
        return _where(c, g), _where(~c, g)


# ---------------------------------------------------------------- reductions

class SumBackward0(Function):
    """z = sum(x);  dz/dx_i = 1: the gradient is spread over x's shape."""

    @staticmethod
    def forward(ctx, x):
        ctx.save(self_sym_sizes=x._data.shape)
        d = x._data
        if d.dtype.kind in "biu":
            return np.add.reduce(d, axis=None, dtype=np.int64)
        return torch_sum(d, None, False)  # in torch's order: .item() prints torch's digits

    @staticmethod
    def backward(ctx, g):
        return g.expand(ctx.self_sym_sizes) if _is_tensor(g) else np.full(ctx.self_sym_sizes, g, g.dtype)


def _dims(dim, ndim: int) -> tuple:
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(sorted(d % ndim if ndim else 0 for d in dims))


def _spread(g, shape: tuple, dims: tuple, keepdim: bool):
    """Put back the reduced axes of a gradient so it broadcasts to ``shape``."""
    if not keepdim:
        for d in dims:
            g = g.unsqueeze(d) if _is_tensor(g) else np.expand_dims(g, d)
    return g.expand(shape) if _is_tensor(g) else np.broadcast_to(g, shape)


class SumBackward1(Function):
    """z = sum(x, dim);  each x_i gets the gradient of the sum it fed."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        d = x._data
        dims = _dims(dim, d.ndim)
        ctx.save(self_sym_sizes=d.shape, dim=dims, keepdim=keepdim)
        if d.dtype.kind in "biu":
            return numpy_sum(d, dims, keepdim, np.int64)
        return torch_sum(d, dims, keepdim)

    @staticmethod
    def backward(ctx, g):
        return _spread(g, ctx.self_sym_sizes, ctx.dim, ctx.keepdim)


class MeanBackward0(Function):
    """z = mean(x) = sum(x) / n;  dz/dx_i = 1/n."""

    @staticmethod
    def forward(ctx, x):
        d = x._data
        if d.dtype.kind != "f":
            raise RuntimeError(_mean_dtype_message(d))
        ctx.save(self_sym_sizes=d.shape, self_sym_numel=d.size)
        if not d.size:  # the mean of nothing: nan, without NumPy's warnings
            return np.array(np.nan, d.dtype)
        # torch's mean is its sum, in its order, divided by n
        return torch_sum(d, None, False) / d.size if d.itemsize >= 4 else d.mean()

    @staticmethod
    def backward(ctx, g):
        g = g / ctx.self_sym_numel
        return g.expand(ctx.self_sym_sizes) if _is_tensor(g) else np.full(ctx.self_sym_sizes, g, g.dtype)


class MeanBackward1(Function):
    """z = mean(x, dim);  each x_i gets 1/n of the gradient of its mean."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        d = x._data
        if d.dtype.kind != "f":
            raise RuntimeError(_mean_dtype_message(d))
        dims = _dims(dim, d.ndim)
        count = int(np.prod([d.shape[i] for i in dims])) if d.ndim else 1
        ctx.save(self_sym_sizes=d.shape, dim=dims, keepdim=keepdim, self_sym_numel=d.size)
        ctx._count = count
        if not count:  # means of nothing: nan, without NumPy's warnings
            return np.full(np.add.reduce(d, axis=dims, keepdims=keepdim).shape, np.nan, d.dtype)
        if d.itemsize < 4:
            return d.mean(axis=dims, keepdims=keepdim)
        return torch_sum(d, dims, keepdim) / d.dtype.type(count)

    @staticmethod
    def backward(ctx, g):
        return _spread(g / ctx._count, ctx.self_sym_sizes, ctx.dim, ctx.keepdim)


def _mean_dtype_message(d) -> str:
    return ("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            f"Got: {kind_name(d)}")


class MaxBackward1(Function):
    """z = max(x);  the gradient goes to the maximal entries, shared evenly among ties."""
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        _check_nonempty(x, "max")
        ctx.save(self=x)
        return x._data.max()

    @staticmethod
    def backward(ctx, g):
        return _evenly_distribute(ctx, g)


def _evenly_distribute(ctx, g):
    """max()/min(): the gradient shared evenly by the entries equal to the result (torch's formula)."""
    x, r = ctx._unpack("self", False), ctx._unpack("result", False)
    mask = x == r
    if not _is_tensor(g):
        return np.where(mask, g / mask.sum(), 0).astype(g.dtype, copy=False)
    from .tensor import Tensor
    zeros = Tensor._make(np.zeros(x.shape, g._data.dtype))
    return IndexPutBackward0.apply(zeros, g / int(mask.sum()), key=(mask,), index_tensors=(Tensor._make(mask),))


class MinBackward1(Function):
    """z = min(x);  the gradient goes to the minimal entries, shared evenly among ties."""
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        _check_nonempty(x, "min")
        ctx.save(self=x)
        return x._data.min()

    @staticmethod
    def backward(ctx, g):
        return _evenly_distribute(ctx, g)


def _check_nonempty(x, op: str) -> None:
    if x._data.size == 0:
        raise RuntimeError(f"{op}(): Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")


class MaxBackward0(Function):
    """values = max(x, dim);  each value's gradient goes to the entry it came from (the first, on ties)."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, x, dim, keepdim=False, indices=None):
        ctx.save(indices=indices, dim=dim % max(x._data.ndim, 1), keepdim=keepdim, self_sym_sizes=x._data.shape)
        idx = np.expand_dims(indices._data, dim) if not keepdim and x._data.ndim else indices._data
        values = np.take_along_axis(x._data, idx, dim) if x._data.ndim else x._data.copy()
        return values if keepdim or not x._data.ndim else values.squeeze(dim)

    @staticmethod
    def backward(ctx, g):
        idx = ctx._unpack("indices", False)
        shape, dim = ctx.self_sym_sizes, ctx.dim
        if not shape:
            return g
        if not ctx.keepdim:
            idx, g = np.expand_dims(idx, dim), (g.unsqueeze(dim) if _is_tensor(g) else np.expand_dims(g, dim))
        if _is_tensor(g):
            from .tensor import Tensor
            return ScatterBackward0.apply(Tensor._make(np.zeros(shape, g._data.dtype)), g, dim=dim,
                                          index=Tensor._make(idx))
        out = np.zeros(shape, g.dtype)
        np.put_along_axis(out, idx, g, dim)
        return out


class MinBackward0(MaxBackward0):
    """values = min(x, dim);  each value's gradient goes to the entry it came from (the first, on ties)."""


# ---------------------------------------------------------------- matrix products

def _mm_shapes_error(a, b) -> RuntimeError:
    (n, k), (k2, m) = a.shape, b.shape
    return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")


class MmBackward0(Function):
    """Z = A @ B;  dA = G @ B.T,  dB = A.T @ G."""
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, a, b):
        da, db = a._data, b._data
        if da.shape[1] != db.shape[0]:
            raise _mm_shapes_error(da, db)
        if da.dtype != db.dtype:  # torch multiplies matrices of one dtype only
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES[da.dtype.name]} != "
                               f"{CPP_NAMES[db.dtype.name]}")
        needs = ctx.needs_input_grad
        if needs:  # only a recorded node saves (the strides pick the backward formula); written out: a hot path
            if needs[0]:
                ctx._saved["mat2"] = SavedTensor(b, False)
            if needs[1]:
                ctx._saved["self"] = SavedTensor(a, False)
            ctx.self_sym_sizes, ctx.self_sym_strides = da.shape, _strides(da)
            ctx.mat2_sym_sizes, ctx.mat2_sym_strides = db.shape, _strides(db)
        return _mm(*_promote(a, b))

    @staticmethod
    def backward(ctx, g):
        """torch's formulas, which keep a column-major (transposed) operand's gradient column-major."""
        t = _is_tensor(g)
        b = ctx._unpack("mat2", t) if "mat2" in _saved(ctx) else None
        a = ctx._unpack("self", t) if "self" in _saved(ctx) else None
        ga = gb = None
        if b is not None:
            ga = _t(_mm(b, _t(g))) if _column_major(ctx.self_sym_sizes, ctx.self_sym_strides) else _mm(g, _t(b))
        if a is not None:
            gb = _t(_mm(_t(g), a)) if _column_major(ctx.mat2_sym_sizes, ctx.mat2_sym_strides) else _mm(_t(a), g)
        return ga, gb


def _strides(d: np.ndarray) -> tuple:
    """A matrix's strides counted in elements, as torch counts them."""
    size = d.itemsize
    rows, cols = d.strides
    return rows // size, cols // size


def _mm(x, y):
    """``x @ y`` for two matrices: ``ndarray.dot`` for arrays (the same BLAS call as ``@``, without the
    overhead that makes ``@`` up to twice as slow on small matrices), ``@`` for Tensors (recorded)."""
    return x @ y if _is_tensor(x) else x.dot(y)


def _column_major(sizes: tuple, strides: tuple) -> bool:
    """torch's test for a matrix stored column by column (a transposed view)."""
    return strides[0] == 1 and strides[1] == sizes[0]


def _t(m):
    """The transpose of a matrix: ``.t()`` for a tensor (a TBackward0 under create_graph, as in torch)."""
    return m.t() if _is_tensor(m) else m.T


class MvBackward0(Function):
    """z = A @ v;  dA = outer(g, v),  dv = A.T @ g."""
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx, a, v):
        if a._data.shape[1] != v._data.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({a._data.shape[0]}), mat "
                               f"({a._data.shape[0]}x{a._data.shape[1]}), vec ({v._data.shape[0]})")
        if a._data.dtype != v._data.dtype:
            kv, ka = kind_name(v._data), kind_name(a._data)
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {kv}, {ka}, and {kv}")
        need_a, need_v = ctx.needs_input_grad or (False, False)
        ctx.save(self=a if need_v else None, vec=v if need_a else None)
        return np.matmul(*_promote(a, v))

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        saved = _saved(ctx)
        a = ctx._unpack("self", t) if "self" in saved else None
        v = ctx._unpack("vec", t) if "vec" in saved else None
        ga = None if v is None else g.reshape(-1, 1) * v if t else np.outer(g, v)
        return ga, (_t(a) @ g if a is not None else None)


class DotBackward0(Function):
    """z = a . b;  da = g * b,  db = g * a."""
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx, a, b):
        if a._data.dtype != b._data.dtype:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {kind_name(a._data)} and "
                               f"{kind_name(b._data)}")
        if a._data.shape != b._data.shape:
            n, m = a._data.size, b._data.size
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
                               f"number of elements, but got {n} and {m} elements respectively")
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save(self=a if need_b else None, tensor=b if need_a else None)
        return np.dot(*_promote(a, b))

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        saved = _saved(ctx)
        a = ctx._unpack("self", t) if "self" in saved else None
        b = ctx._unpack("tensor", t) if "tensor" in saved else None
        return (g * b if b is not None else None), (g * a if a is not None else None)


class BmmBackward0(Function):
    """Z[i] = A[i] @ B[i];  dA = G @ B^T,  dB = A^T @ G (batch by batch)."""
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, a, b):
        if a._data.dtype != b._data.dtype:
            raise RuntimeError(f"expected scalar type {kind_name(a._data)} but found {kind_name(b._data)}")
        if a._data.dtype == np.bool_:
            raise NotImplementedError('"bmm" not implemented for \'Bool\'')
        need_a, need_b = ctx.needs_input_grad or (False, False)
        ctx.save(mat2=b if need_a else None, self=a if need_b else None)
        return np.matmul(*_promote(a, b))

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        saved = _saved(ctx)
        b = ctx._unpack("mat2", t) if "mat2" in saved else None
        a = ctx._unpack("self", t) if "self" in saved else None
        if t:  # recorded as torch records it: bmm with a transposed operand
            return (None if b is None else g.bmm(b.transpose(1, 2))), (None if a is None else a.transpose(1, 2).bmm(g))
        return (None if b is None else g @ b.swapaxes(-1, -2)), (None if a is None else a.swapaxes(-1, -2) @ g)


# ---------------------------------------------------------------- shape and copies (no saved tensors)

class ViewBackward0(Function):
    """z = x viewed with a new shape;  dx = g reshaped back."""
    is_view = True

    @staticmethod
    def forward(ctx, x, shape):
        ctx.save(self_sym_sizes=x._data.shape)
        return x._data.reshape(shape)

    @staticmethod
    def backward(ctx, g):
        return g.reshape(ctx.self_sym_sizes)


class UnsafeViewBackward0(ViewBackward0):
    """z = a copy of x with a new shape;  dx = g reshaped back."""
    is_view = False


class ReshapeAliasBackward0(ViewBackward0):
    """``reshape`` of a tensor that is not contiguous but can still be viewed with the new shape (an expanded or
    sliced one): z = x viewed with new strides;  dx = g reshaped back."""


class AliasBackward0(Function):
    """z = x itself under a new name (``x[...]``, ``x[:, :]``);  dx = g."""
    is_view = True

    @staticmethod
    def forward(ctx, x):
        return x._data.view()

    @staticmethod
    def backward(ctx, g):
        return g


class CloneBackward0(Function):
    """z = a copy of x;  dx = g."""

    @staticmethod
    def forward(ctx, x):
        return x._data.copy()

    @staticmethod
    def backward(ctx, g):
        return g


class CopyBackwards(Function):
    """``dst.copy_(src)``: z = src broadcast to dst's shape and dtype;  d dst = 0,  d src = g.

    Also the node of a ``.grad`` that backward(create_graph=True) makes: a copy of the incoming gradient."""

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"

    @staticmethod
    def forward(ctx, dst, src):
        return np.broadcast_to(src._data, dst._data.shape).astype(dst._data.dtype)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g), g


class ZeroBackward0(Function):
    """``x.zero_()``: z = 0;  dx = 0."""

    @staticmethod
    def forward(ctx, x):
        return np.zeros_like(x._data)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class UniformBackward0(Function):
    """``x.uniform_(a, b)``: z = fresh samples, drawn before the call;  dx = 0."""

    @staticmethod
    def forward(ctx, x, values):
        return values

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class NormalBackward0(UniformBackward0):
    """``x.normal_(mean, std)``: z = fresh samples, drawn before the call;  dx = 0."""


class BernoulliBackward0(UniformBackward0):
    """``torch.bernoulli(p)``: z = 1 with probability p, else 0 (drawn before the call);  dp = 0."""


class BernoulliBackward1(UniformBackward0):
    """``x.bernoulli_(p)`` for a tensor p: z = fresh 0s and 1s, drawn before the call;  dx = 0."""


class BernoulliBackward2(UniformBackward0):
    """``x.bernoulli_(p)`` for a number p: z = fresh 0s and 1s, drawn before the call;  dx = 0."""


class RandomBackward0(UniformBackward0):
    """``x.random_(a, b)``: z = fresh random integers in [a, b), drawn before the call;  dx = 0."""


class RandomBackward1(UniformBackward0):
    """``x.random_(b)``: z = fresh random integers in [0, b), drawn before the call;  dx = 0."""


class RandomBackward2(UniformBackward0):
    """``x.random_()``: z = fresh random integers (all those x's dtype holds exactly);  dx = 0."""


class FillBackward2(Function):
    """``x.fill_(c)`` for a number c: z = c everywhere;  dx = 0."""

    @staticmethod
    def forward(ctx, x, value):
        return np.full(x._data.shape, value, x._data.dtype)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class FillBackward3(Function):
    """``x.fill_(v)`` for a 0-dim tensor v: z = v everywhere;  dx = 0,  dv = sum(g)."""

    @staticmethod
    def forward(ctx, x, value):
        return np.full(x._data.shape, value._data, x._data.dtype)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g), g.sum()


class ToCopyBackward0(Function):
    """z = x converted to another dtype;  dx = g converted back."""

    @staticmethod
    def forward(ctx, x, dtype):
        return x._data.astype(dtype)

    @staticmethod
    def backward(ctx, g):
        return g


class PermuteBackward0(Function):
    """z = x with its axes reordered by ``dims``;  dx = g with the inverse order."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dims):
        ctx.save(dims=dims)
        return x._data.transpose(dims)

    @staticmethod
    def backward(ctx, g):
        inverse = tuple(np.argsort(ctx.dims))
        return g.permute(*inverse) if _is_tensor(g) else g.transpose(inverse)


class TransposeBackward0(Function):
    """z = x with axes dim0 and dim1 swapped;  dx = g swapped back."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx._dims = dim0, dim1
        d = x._data
        return d.view() if dim0 == dim1 else d.swapaxes(dim0, dim1)  # an axis with itself (or a 0-dim x): as is

    @staticmethod
    def backward(ctx, g):
        dim0, dim1 = ctx._dims
        if dim0 == dim1:
            return g
        return g.transpose(dim0, dim1) if _is_tensor(g) else g.swapaxes(dim0, dim1)


class TBackward0(TransposeBackward0):
    """z = x.t() (a transposed matrix);  dx = g.t()."""

    @staticmethod
    def backward(ctx, g):
        return _t(g) if g.ndim == 2 else g


class UnsqueezeBackward0(Function):
    """z = x with a new axis of size 1 at ``dim``;  dx = g without it."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim)
        return np.expand_dims(x._data, dim)

    @staticmethod
    def backward(ctx, g):
        return g.squeeze(ctx.dim)


class SqueezeBackward0(Function):
    """z = x without its size-1 axes;  dx = g reshaped back."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dims=None):
        ctx.save(self_sym_sizes=x._data.shape, dim=dims)
        d = x._data
        if dims is None:
            return d.squeeze()
        return d.squeeze(tuple(i for i in dims if i < d.ndim and d.shape[i] == 1))  # a 0-dim x stays as it is

    @staticmethod
    def backward(ctx, g):
        sizes = ctx.self_sym_sizes
        if not _is_tensor(g):
            return g.reshape(sizes)
        dims = ctx.__dict__.get("dim") or range(len(sizes))
        for d in sorted(dims):  # torch's unsqueeze_to: one UnsqueezeBackward0 per squeezed dim
            if d < len(sizes) and sizes[d] == 1:
                g = g.unsqueeze(d)
        return g


class SqueezeBackward1(SqueezeBackward0):
    """z = x.squeeze(dim);  dx = g reshaped back."""


class SqueezeBackward2(SqueezeBackward0):
    """z = x.squeeze(dims) for a tuple of dims;  dx = g reshaped back."""


class SqueezeBackward4(SqueezeBackward0):
    """z = x.squeeze_(dim), the in-place squeeze inside ``matmul`` of 1-D @ 2-D;  dx = g reshaped back."""


class ExpandBackward0(Function):
    """z = x broadcast to a larger shape;  dx = g summed back over the broadcast axes."""
    is_view = True

    @staticmethod
    def forward(ctx, x, shape):
        ctx.save(self_sym_sizes=x._data.shape)
        return np.broadcast_to(x._data, shape)

    @staticmethod
    def backward(ctx, g):
        return g


class CatBackward0(Function):
    """z = the inputs joined along ``dim``;  each input gets its own slice of g."""

    @staticmethod
    def forward(ctx, *tensors, dim=0):
        ctx.save(dim=dim)
        ctx._sizes = [t._data.shape[dim] if t._data.ndim else 0 for t in tensors]
        arrays = [t._data for t in tensors]
        dt = arrays[0].dtype
        for t in tensors[1:]:
            dt = result_type((dt, 2), (t._data.dtype, 2))
        return np.concatenate([a.astype(dt, copy=False) for a in arrays], axis=dim)

    @staticmethod
    def backward(ctx, g):
        bounds = np.cumsum(ctx._sizes)[:-1]
        if _is_tensor(g):
            return tuple(g.narrow(ctx.dim, int(start), n) for start, n in zip([0, *bounds], ctx._sizes))
        return tuple(np.split(g, bounds, axis=ctx.dim))


class StackBackward0(Function):
    """z = the inputs stacked along a new axis ``dim``;  input i gets g[..., i, ...]."""

    @staticmethod
    def forward(ctx, *tensors, dim=0):
        ctx.save(dim=dim)
        arrays = [t._data for t in tensors]
        dt = arrays[0].dtype
        for t in tensors[1:]:
            dt = result_type((dt, 2), (t._data.dtype, 2))
        return np.stack([a.astype(dt, copy=False) for a in arrays], axis=dim)

    @staticmethod
    def backward(ctx, g):
        n = g.shape[ctx.dim]
        if _is_tensor(g):
            return tuple(g.select(ctx.dim, i) for i in range(n))
        return tuple(np.take(g, i, axis=ctx.dim) for i in range(n))


class SplitBackward0(MultiOutputFunction):
    """``x.split(size, dim)``: pieces of ``size`` along ``dim`` (the last may be shorter), views of x;
    dx = the pieces' gradients joined again, zeros for a piece that received none."""

    @staticmethod
    def forward(ctx, x, split_size, dim):
        d = x._data
        length = d.shape[dim]
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
        if split_size == 0 and length:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {length}")
        sizes = [min(split_size, length - start) for start in range(0, length, split_size or 1)] or [0]
        ctx.save(self_sym_sizes=d.shape, split_size=split_size, dim=dim)
        ctx._sizes = sizes
        return _pieces(d, sizes, dim)

    @staticmethod
    def backward(ctx, grads):
        return _join(ctx, grads, ctx._sizes)


class SplitWithSizesBackward0(SplitBackward0):
    """``x.split([s0, s1, ...], dim)``: pieces of the sizes given;  dx = their gradients joined again."""

    @staticmethod
    def forward(ctx, x, split_sizes, dim):
        d = x._data
        if any(s < 0 for s in split_sizes):
            raise RuntimeError("split_with_sizes expects split_sizes have only non-negative entries, but got "
                               f"split_sizes={list(split_sizes)}")
        if sum(split_sizes) != d.shape[dim]:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {d.shape[dim]} (input "
                               f"tensor's size at dimension {dim}), but got split_sizes={list(split_sizes)}")
        ctx.save(self_sym_sizes=d.shape, split_sizes=split_sizes, dim=dim)
        ctx._sizes = list(split_sizes)
        return _pieces(d, split_sizes, dim)


class UnbindBackward0(MultiOutputFunction):
    """``x.unbind(dim)`` (and ``for row in x``): the slices along ``dim``, views of x without that dim;
    dx = the slices' gradients stacked again, zeros for a slice that received none."""

    @staticmethod
    def forward(ctx, x, dim):
        d = x._data
        ctx.save(dim=dim)
        return [d[(slice(None),) * dim + (i,)] for i in range(d.shape[dim])]

    @staticmethod
    def backward(ctx, grads):
        return _join(ctx, grads, None)


def _pieces(d: np.ndarray, sizes: list, dim: int) -> list:
    """Views of ``d``, consecutive along ``dim``, of the given sizes."""
    starts = np.cumsum([0, *sizes]).tolist()
    return [d[(slice(None),) * dim + (slice(a, b),)] for a, b in zip(starts, starts[1:])]


def _join(ctx, grads: list, sizes) -> object:
    """The gradient of a split (``sizes`` of its pieces) or, with ``sizes`` None, of an unbind: the outputs'
    gradients joined along ``ctx.dim``, zeros standing in for the missing ones (Tensors, recorded, under
    create_graph)."""
    shape, dtype = ctx._meta[0]
    dim = ctx.dim
    parts = []
    for i, g in enumerate(grads):
        if g is None:
            piece = list(shape)
            del piece[dim]
            if sizes is not None:
                piece.insert(dim, sizes[i])
            g = np.zeros(piece, dtype)
        parts.append(g)
    if not any(_is_tensor(g) for g in parts):
        return np.concatenate(parts, axis=dim) if sizes is not None else np.stack(parts, axis=dim)
    from .tensor import Tensor
    parts = [g if _is_tensor(g) else Tensor._make(g) for g in parts]
    return (CatBackward0 if sizes is not None else StackBackward0).apply(*parts, dim=dim)


# ---------------------------------------------------------------- indexing

class SliceBackward0(Function):
    """z = x[start:end:step] on axis ``dim``;  dx = zeros with g placed in the slice."""
    is_view = True

    @staticmethod
    def forward(ctx, x, dim, key):
        _save_key(ctx, dim, key, x._data.shape)
        ctx.save(self_sym_sizes=x._data.shape)
        return x._data[(slice(None),) * dim + (key, Ellipsis)]  # the Ellipsis keeps x[i] a (0-dim) view

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):
            return ctx.placing.apply(g, dim=ctx.dim, key=ctx._key, sizes=ctx.self_sym_sizes)
        out = np.zeros(ctx.self_sym_sizes, g.dtype)
        out[(slice(None),) * ctx.dim + (ctx._key,)] = g
        return out


def _save_key(ctx, dim: int, key, shape: tuple) -> None:
    """Keep a slice's or select's ``key`` for backward, and save what torch shows: start, end and step, or index."""
    ctx._key = key
    if type(key) is slice:
        start, end, step = key.indices(shape[dim])
        ctx.save(dim=dim, start=start, end=end, step=step)
    else:
        ctx.save(dim=dim, index=key)


class SelectBackward0(SliceBackward0):
    """z = x[..., i, ...] on axis ``dim`` (``key`` is the int i);  dx = zeros with g placed at i."""


class IndexBackward0(Function):
    """z = x[indices] (lists, tensors or masks);  dx = zeros with g added at the indices (repeats add up)."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, x, key, index_tensors=()):
        """``key`` indexes the array; ``index_tensors`` are its index arrays as tensors, None for full slices."""
        if ctx.needs_input_grad:
            ctx.save(self_sym_sizes=x._data.shape)
            ctx._saved["indices"] = _SavedList(index_tensors)
        return x._data[key]

    @staticmethod
    def backward(ctx, g):
        indices = ctx._unpack("indices", False)
        key = tuple(slice(None) if i is None else i for i in indices)
        if _is_tensor(g):
            from .tensor import Tensor
            return IndexPutImplBackward0.apply(Tensor._make(np.zeros(ctx.self_sym_sizes, g._data.dtype)), g, key=key)
        out = np.zeros(ctx.self_sym_sizes, g.dtype)
        np.add.at(out, key, g)
        return out


class _SavedList:
    """The saved index tensors (``_saved_indices``, None where a dimension is not indexed): each one saved like
    any tensor (saved-tensor hooks, in-place checks) and freed with the node."""

    def __init__(self, tensors) -> None:
        self.items = tuple(None if t is None else SavedTensor(t, is_output=False) for t in tensors)
        self.data = np.empty(0)

    def get(self, node, as_tensor: bool) -> tuple:
        return tuple(None if s is None else s.get(node, as_tensor) for s in self.items)


class CopySlices(Function):
    """x[key] = v recorded as a new node;  dx = g with the overwritten part zeroed,  dv = g[key]."""

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    @staticmethod
    def forward(ctx, x, value, key):
        ctx.save(key=key)
        out = x._data.copy()
        out[key] = value._data
        return out

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "item assignment")
        gx = g.copy()
        gx[ctx.key] = 0
        return gx, g[ctx.key]


class IndexPutBackward0(Function):
    """x[indices] = v with index tensors or masks;  dx = g with the written places zeroed,  dv = g[indices]."""
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, x, value, key, index_tensors=()):
        if ctx.needs_input_grad:
            ctx.save(accumulate=False)
            ctx._saved["indices"] = _SavedList(index_tensors)
        out = x._data.copy()
        out[key] = value._data
        return out

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "item assignment")
        key = tuple(slice(None) if i is None else i for i in ctx._unpack("indices", False))
        gx = g.copy()
        gx[key] = 0
        return gx, g[key]


# ---------------------------------------------------------------- softmax family and losses

def _last_dim_rows(d: np.ndarray, dim: int) -> bool:
    """Whether (log_)softmax runs torch's float32 kernel over the last dim (see :mod:`.vector_math`)."""
    return d.dtype == _FLOAT32 and d.ndim >= 1 and dim == d.ndim - 1 and d.size > 0


class SoftmaxBackward0(Function):
    """z = exp(x) / sum(exp(x)) along dim;  dx = z * (g - sum(g * z)) along dim."""
    saves_result = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim)
        d = _float(x)
        if _last_dim_rows(d, dim):  # torch's vectorized kernel, to the last bit
            return softmax_rows(np.ascontiguousarray(d).reshape(-1, d.shape[-1])).reshape(d.shape)
        e = _rounded(np.exp, d - d.max(axis=dim, keepdims=True, initial=-np.inf))
        return e / e.sum(axis=dim, keepdims=True)

    @staticmethod
    def backward(ctx, g):
        z = ctx._unpack("result", _is_tensor(g))
        if _is_tensor(g):
            return SoftmaxBackwardDataBackward0.apply(g, z, dim=ctx.dim)
        return z * (g - _sum_keep(g * z, ctx.dim))


class LogSoftmaxBackward0(Function):
    """z = x - log(sum(exp(x))) along dim;  dx = g - exp(z) * sum(g) along dim."""
    saves_result = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim)
        d = _float(x)
        if _last_dim_rows(d, dim):  # torch's vectorized kernel, to the last bit
            return log_softmax_rows(np.ascontiguousarray(d).reshape(-1, d.shape[-1])).reshape(d.shape)
        shifted = d - d.max(axis=dim, keepdims=True, initial=-np.inf)  # (initial: an empty dim has no max)
        with np.errstate(divide="ignore"):  # an empty dim sums to 0, whose log is -inf: nothing is subtracted
            return shifted - _rounded(np.log, _rounded(np.exp, shifted).sum(axis=dim, keepdims=True))

    @staticmethod
    def backward(ctx, g):
        z = ctx._unpack("result", _is_tensor(g))
        if _is_tensor(g):
            return LogSoftmaxBackwardDataBackward0.apply(g, z, dim=ctx.dim)
        return g - _rounded(np.exp, z) * _sum_keep(g, ctx.dim)


# ---------------------------------------------------------------- torch's backward formulas as operations
# Under create_graph=True a backward formula is itself recorded. torch records several formulas as single
# operations with nodes of their own; these classes are those operations, so that the graph of a gradient
# carries torch's names (``TanhBackwardBackward0``...), and each has the derivative torch gives it.

class MulBackward1(Function):
    """z = x * c for a number c, as torch's formulas multiply (``mul.Scalar``);  dz/dx = c."""

    @staticmethod
    def forward(ctx, x, other):
        ctx.save(other=other)
        return x._data * other

    @staticmethod
    def backward(ctx, g):
        return _scaled(g, ctx.other)


class AddBackward1(Function):
    """z = x + c for a number c, as torch's formulas add (``add.Scalar``);  dz/dx = 1."""

    @staticmethod
    def forward(ctx, x, other):
        return x._data + x._data.dtype.type(other)

    @staticmethod
    def backward(ctx, g):
        return g


def _tanh_grad(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """g * (1 - y**2); for float32 tensors printed in full, 1 - y**2 is rounded once (torch's fused multiply-add)."""
    if y.dtype == _FLOAT32 and y.size <= EXACT_UP_TO:
        if y.ndim == 0:  # a Python float times float32 is rounded to float32 first (NumPy's weak scalars)
            y = float(y)
            return g * (1 - y * y)
        return g * (1 - np.square(y, dtype=np.float64)).astype(np.float32)
    return g * (1 - y * y)


class TanhBackwardBackward0(Function):
    """z = g * (1 - y**2), the backward of tanh (y its output);  dz/dg = 1 - y**2,  dz/dy = -2 y g."""

    @staticmethod
    def forward(ctx, g, y):
        ctx.save(grad_output=g, output=y)
        return _tanh_grad(g._data, y._data)

    @staticmethod
    def backward(ctx, gg):
        t = _is_tensor(gg)
        g, y = ctx._unpack("grad_output", t), ctx._unpack("output", t)
        return (TanhBackwardBackward0.apply(gg, y) if t else _tanh_grad(gg, y)), gg * (_scaled(y, -2) * g)


class SigmoidBackwardBackward0(Function):
    """z = g * (1 - y) * y, the backward of sigmoid;  dz/dg = (1 - y) y,  dz/dy = g (1 - 2 y)."""

    @staticmethod
    def forward(ctx, g, y):
        ctx.save(grad_output=g, output=y)
        return g._data * (1 - y._data) * y._data

    @staticmethod
    def backward(ctx, gg):
        t = _is_tensor(gg)
        g, y = ctx._unpack("grad_output", t), ctx._unpack("output", t)
        dg = SigmoidBackwardBackward0.apply(gg, y) if t else gg * (1 - y) * y
        return dg, gg * g * (_scaled(y, -2) + 1)


class ThresholdBackwardBackward0(Function):
    """z = g where y > 0 else 0, the backward of relu;  dz/dg = [y > 0],  dz/dy = 0."""

    @staticmethod
    def forward(ctx, g, y):
        ctx.save(self=y, threshold=0)
        return np.where(y._data > 0, g._data, 0).astype(g._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, gg):
        y = ctx._unpack("self", _is_tensor(gg))
        if _is_tensor(gg):
            return ThresholdBackwardBackward0.apply(gg, y), _zeros(gg)
        return _where(y > 0, gg), _zeros(gg)


class SoftmaxBackwardDataBackward0(Function):
    """z = y * (g - sum(g y)), the backward of softmax;  dz/dg = the same map,
    dz/dy = g gg - sum(y g) gg - g sum(y gg) (sums along dim)."""

    @staticmethod
    def forward(ctx, g, y, dim):
        ctx.save(grad_output=g, output=y, dim=dim)
        return y._data * (g._data - _sum_keep(g._data * y._data, dim))

    @staticmethod
    def backward(ctx, gg):
        t, d = _is_tensor(gg), ctx.dim
        g, y = ctx._unpack("grad_output", t), ctx._unpack("output", t)
        dg = SoftmaxBackwardDataBackward0.apply(gg, y, dim=d) if t else y * (gg - _sum_keep(gg * y, d))
        return dg, g * gg - _sum_keep(y * g, d) * gg - g * _sum_keep(y * gg, d)


class LogSoftmaxBackwardDataBackward0(Function):
    """z = g - exp(y) sum(g), the backward of log_softmax;  dz/dg = gg - sum(gg exp(y)),
    dz/dy = -sum(g) exp(y) gg (sums along dim)."""

    @staticmethod
    def forward(ctx, g, y, dim):
        ctx.save(grad_output=g, output=y, dim=dim)
        return g._data - _rounded(np.exp, y._data) * _sum_keep(g._data, dim)

    @staticmethod
    def backward(ctx, gg):
        t, d = _is_tensor(gg), ctx.dim
        g, y = ctx._unpack("grad_output", t), ctx._unpack("output", t)
        e = y.exp() if t else _rounded(np.exp, y)
        return gg - _sum_keep(gg * e, d), -_sum_keep(g, d) * e * gg


class SgnBackward0(Function):
    """z = sgn(x), the factor in the backward of abs;  dz/dx = 0."""

    @staticmethod
    def forward(ctx, x):
        return np.sign(x._data)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class SliceBackwardBackward0(Function):
    """z = zeros of the input's shape with g in the slice, the backward of slicing;  dz/dg = gg[slice]."""

    @staticmethod
    def forward(ctx, g, dim, key, sizes):
        _save_key(ctx, dim, key, sizes)
        out = np.zeros(sizes, g._data.dtype)
        out[(slice(None),) * dim + (key,)] = g._data
        return out

    @staticmethod
    def backward(ctx, gg):
        if _is_tensor(gg):
            return ctx.taking.apply(gg, dim=ctx.dim, key=ctx._key)
        return gg[(slice(None),) * ctx.dim + (ctx._key,)]


class SelectBackwardBackward0(SliceBackwardBackward0):
    """z = zeros of the input's shape with g at index i of dim, the backward of select;  dz/dg = gg[i]."""


# Each of these pairs differentiates the other (used under create_graph).
SliceBackward0.placing, SliceBackwardBackward0.taking = SliceBackwardBackward0, SliceBackward0
SelectBackward0.placing, SelectBackwardBackward0.taking = SelectBackwardBackward0, SelectBackward0


class IndexPutImplBackward0(Function):
    """z = x with g added at the indices (repeats add up), the backward of advanced indexing;
    dz/dg = gg[indices]."""

    @staticmethod
    def forward(ctx, x, g, key):
        ctx.save(key=key, accumulate=True)
        out = x._data.copy()
        np.add.at(out, key, g._data)
        return out

    @staticmethod
    def backward(ctx, gg):
        return gg, gg[ctx.key]


class ScatterBackward0(Function):
    """z = x with src written at ``index`` along dim (``x.scatter(dim, index, src)``, and the backward of max/min
    along a dim);  dx = gg with zeros where src landed,  dsrc = gg gathered at ``index``."""
    saved_names = ("index",)

    @staticmethod
    def forward(ctx, x, src, dim, index):
        ctx.save(dim=dim, index=index)
        return _scatter(x._data.copy(), dim, index._data, src._data)

    @staticmethod
    def backward(ctx, gg):
        t = _is_tensor(gg)
        index = ctx._unpack("index", t)
        dx = None
        if ctx.needs_input_grad[0]:
            if t:  # torch: grad.scatter(dim, index, 0)
                from .index_functions import ScatterBackward1
                dx = ScatterBackward1.apply(gg, dim=ctx.dim, index=index, value=0)
            else:
                dx = _scatter(gg.copy(), ctx.dim, index, 0)
        return dx, (GatherBackward0.apply(gg, dim=ctx.dim, index=index) if t else _gather(gg, ctx.dim, index))


def _scatter(out: np.ndarray, dim: int, index: np.ndarray, src) -> np.ndarray:
    """``out`` with ``src`` (an array at least as large as ``index``, or one number) written in at ``index``
    along ``dim`` (in place)."""
    if np.ndim(src):
        src = src[tuple(slice(n) for n in index.shape)]
    if not out.ndim or not index.ndim:
        out.reshape(-1)[index.reshape(-1)] = np.reshape(src, -1)
    else:
        out[_along(index, dim)] = src
    return out


def _along(index: np.ndarray, dim: int) -> tuple:
    """The NumPy key that reads ``x[..., index[i, j, k], ...]`` into position (i, j, k): ``index`` on axis
    ``dim``, the position itself on every other axis (so ``index`` may be smaller than x there)."""
    key = list(np.ogrid[tuple(slice(n) for n in index.shape)])
    key[dim] = index
    return tuple(key)


class GatherBackward0(Function):
    """z[i][j] = x[i][index[i][j]] (for dim = 1);  dx = zeros with g added back at the index (repeats add up)."""
    saved_names = ("self", "index")

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.save(index=index, self=x, dim=dim, sparse_grad=False)
        return _gather(x._data, dim, index._data)

    @staticmethod
    def backward(ctx, g):
        index = ctx._unpack("index", _is_tensor(g))  # unpacked before self, as torch does (saved-tensor hooks see it)
        return gathered_back(g, ctx._unpack("self", False), ctx.dim, index)


def gathered_back(g, x: np.ndarray, dim: int, index):
    """The gradient of a gather from x: each g added at its ``index`` along dim into zeros of x's shape (torch's
    ``zeros.scatter_add(dim, index, grad)``, recorded when g is a Tensor)."""
    if _is_tensor(g):
        from .tensor import Tensor
        zeros = Tensor._make(np.zeros(np.shape(x), g._data.dtype))
        return ScatterAddBackward0.apply(zeros, g, dim=dim, index=index)
    return _scatter_add(np.zeros(np.shape(x), g.dtype), dim, np.asarray(index), g)


def _gather(d: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    """``d`` read at ``index`` along ``dim`` (a 0-dim ``d`` or ``index`` reads like a vector of one element)."""
    if not d.ndim or not index.ndim:
        return d.reshape(-1)[index.reshape(-1)].reshape(index.shape)
    return d[_along(index, dim)]


def _scatter_add(out: np.ndarray, dim: int, index: np.ndarray, src) -> np.ndarray:
    """``out`` with ``src`` added in at ``index`` along ``dim`` (in place; repeated indices add up)."""
    if not out.ndim or not index.ndim:
        np.add.at(out.reshape(-1), index.reshape(-1), np.reshape(src, -1))  # a view: writes into out
        return out
    np.add.at(out, _along(index, dim), src)
    return out


class ScatterAddBackward0(Function):
    """z = x with src added at ``index`` along dim, the backward of gather;  dz/dx = gg,  dz/dsrc = gg gathered."""
    saved_names = ("index",)

    @staticmethod
    def forward(ctx, x, src, dim, index):
        ctx.save(dim=dim, index=index)
        return _scatter_add(x._data.copy(), dim, index._data, src._data)

    @staticmethod
    def backward(ctx, gg):
        if _is_tensor(gg):
            return gg, GatherBackward0.apply(gg, dim=ctx.dim, index=ctx._unpack("index", True))
        return gg, _gather(gg, ctx.dim, np.asarray(ctx._unpack("index", False)))


# ---------------------------------------------------------------- more reductions and elementwise ops
# Their backward formulas work on arrays only: under create_graph=True they raise a clear NotImplementedError.

def _reduced_dims(ctx):
    """The dims a reduction node reduced, None for all (``save`` keeps no None)."""
    return ctx.__dict__.get("dim")


def _reduced(ctx, *arrays) -> list:
    """Arrays shaped like a reduction's result (its value, its gradient), spread back over the input's shape."""
    shape, dims, keepdim = ctx._meta[0][0], _reduced_dims(ctx), ctx.keepdim
    if not keepdim and dims is not None:
        arrays = [np.expand_dims(a, dims) for a in arrays]
    return [np.broadcast_to(a, shape) for a in arrays]


class LinalgVectorNormBackward0(Function):
    """z = ||x||_p = (sum |x_i|^p)^(1/p);  dz/dx_i = x_i |x_i|^(p-2) / z^(p-1)  (x / z for p = 2, sign(x) for p = 1)."""
    saved_names = ("self", "result", "dim")
    saves_result = True

    @staticmethod
    def forward(ctx, x, ord, dim, keepdim):
        ctx.save(self=x, ord=ord, dim=dim, keepdim=keepdim)
        return vector_norm(_float(x), ord, dim, keepdim)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a norm")
        x = ctx._unpack("self", False)
        z, g = _reduced(ctx, ctx._unpack("result", False), g)
        if ctx.ord == 0:  # a count: no gradient, as torch leaves it undefined
            return None
        return norm_backward(x, z, g, ctx.ord, _reduced_dims(ctx))


def vector_norm(d: np.ndarray, ord, axis, keepdims: bool) -> np.ndarray:
    """(sum |d_i|^ord)^(1/ord) over ``axis`` (None: all), with ord 0 (how many are not 0), 1, 2, inf, or any other."""
    a = np.abs(d)
    if ord == 2:
        return np.sqrt(np.add.reduce(a * a, axis=axis, keepdims=keepdims))
    if ord == 1:
        return np.add.reduce(a, axis=axis, keepdims=keepdims)
    if ord == float("inf"):
        return np.max(a, axis=axis, keepdims=keepdims)
    if ord == float("-inf"):  # the smallest |d_i|
        return np.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:  # the "0-norm": how many entries are not zero
        return np.count_nonzero(a, axis=axis, keepdims=keepdims).astype(d.dtype)
    with np.errstate(divide="ignore"):  # a negative order: a zero entry makes the norm 0, as in torch
        return np.add.reduce(a ** ord, axis=axis, keepdims=keepdims) ** (1 / ord)


def norm_backward(x: np.ndarray, z: np.ndarray, g: np.ndarray, p, axis) -> np.ndarray:
    """The gradient of z = ||x||_p (z and g spread back over x's shape) for p > 0: sign(x) g for p = 1, the largest
    |x_i| takes g for p = inf (the smallest for -inf; shared among ties), else x |x|^(p-2) g / z^(p-1), 0 where z
    is 0."""
    if p == 1:
        return np.sign(x) * g
    if p == float("inf") or p == float("-inf"):
        wins = np.abs(x) == z
        return np.sign(x) * g * wins / wins.sum(axis=axis, keepdims=True)
    scale = np.where(z == 0, 0, g / np.where(z == 0, 1, z ** (p - 1)))  # 0 at a zero norm, as torch
    return (x if p == 2 else x * np.abs(x) ** (p - 2)) * scale


class ProdBackward0(Function):
    """z = x_1 x_2 ... x_n;  dz/dx_i = the product of the others (computed without dividing, so zeros are fine)."""
    saved_names = ("self", "result")
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        d = x._data
        return d.prod(dtype=np.int64 if d.dtype.kind in "biu" else None)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a product")
        x = ctx._unpack("self", False)
        return g * _others_product(np.reshape(x, -1), 0).reshape(np.shape(x))


def _others_product(x: np.ndarray, axis: int) -> np.ndarray:
    """For each element, the product of the other elements along ``axis``: left and right running products."""
    ones = np.ones_like(np.take(x, [0], axis=axis))
    left = np.cumprod(np.concatenate([ones, np.take(x, range(x.shape[axis] - 1), axis=axis)], axis), axis=axis)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(np.take(x, range(1, x.shape[axis]), axis=axis), axis)],
                                              axis), axis=axis), axis)
    return left * right


class ProdBackward1(Function):
    """z = the product along ``dim``;  each x_i gets the product of the others in its slice."""
    saved_names = ("self", "result")
    saves_result = True

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        d = x._data
        ctx.save(self=x, dim=dim, keepdim=keepdim)
        return d.prod(axis=dim, keepdims=keepdim, dtype=np.int64 if d.dtype.kind in "biu" else None)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a product")
        x = ctx._unpack("self", False)
        if np.ndim(x) == 0:
            return g
        (g,) = _reduced(ctx, g)
        return g * _others_product(x, ctx.dim)


class CumsumBackward0(Function):
    """z_i = x_1 + ... + x_i along ``dim``;  dx_i = g_i + ... + g_n (the cumulative sum from the end)."""

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim)
        d = x._data
        return d.cumsum(axis=dim, dtype=np.int64 if d.dtype.kind in "biu" else None) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a cumulative sum")
        if not np.ndim(g):
            return g
        return np.flip(np.flip(g, ctx.dim).cumsum(axis=ctx.dim), ctx.dim)


class MaskedFillBackward0(Function):
    """z = value where mask, else x;  dx = g where the mask is False, 0 where it is True."""

    @staticmethod
    def forward(ctx, x, mask, value):
        if mask.dtype != np.bool_:
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                               f"{CPP_NAMES.get(mask.dtype.name, mask.dtype.name)}")
        ctx.save(mask=mask)
        d = x._data
        return np.where(mask, np.asarray(value, d.dtype), d)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "masked_fill")
        return _where(~np.broadcast_to(ctx.mask, g.shape), g)


class _StepFunction(Function):
    """Rounding: z is flat between the jumps, so dz/dx = 0."""
    rounding = None

    @classmethod
    def forward(cls, ctx, x):
        return cls.rounding(x._data)

    @staticmethod
    def backward(ctx, g):
        return _zeros(g)


class RoundBackward0(_StepFunction):
    """z = round(x), halves to even;  dz/dx = 0."""
    rounding = staticmethod(np.round)


class FloorBackward0(_StepFunction):
    """z = floor(x);  dz/dx = 0."""
    rounding = staticmethod(np.floor)


class CeilBackward0(_StepFunction):
    """z = ceil(x);  dz/dx = 0."""
    rounding = staticmethod(np.ceil)


class Log1PBackward0(Function):
    """z = log(1 + x);  dz/dx = 1 / (1 + x)."""
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _rounded(np.log1p, _float(x))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "log1p")
        return g / (ctx._unpack("self", False) + 1)


class Expm1Backward0(Function):
    """z = exp(x) - 1;  dz/dx = exp(x) = z + 1."""
    saves_result = True

    @staticmethod
    def forward(ctx, x):
        with np.errstate(over="ignore"):
            return _rounded(np.expm1, _float(x))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "expm1")
        return g * (ctx._unpack("result", False) + 1)


class VarBackward0(Function):
    """z = sum((x - mean)^2) / (n - correction);  dz/dx_i = 2 (x_i - mean) / (n - correction). A ``correction``
    of None (``x.var()``, as torch saves it) is 1."""
    saved_names = ("self", "dim", "correction")

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        return _variance(ctx, x, dim, correction, keepdim, "var")

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "var")
        x = ctx._unpack("self", False)
        dims = _reduced_dims(ctx)
        n = _count(x, dims)
        (g,) = _reduced(ctx, g)
        centred = x - x.mean(axis=dims, keepdims=True)
        return g * centred * (2 / np.float64(n - ctx._correction))  # nan where n <= correction, as torch


class StdBackward0(VarBackward0):
    """z = sqrt(var(x));  dz/dx_i = (x_i - mean) / ((n - correction) z)."""
    saves_result = True

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        with np.errstate(invalid="ignore"):
            return np.sqrt(_variance(ctx, x, dim, correction, keepdim, "std"))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "std")
        x = ctx._unpack("self", False)
        dims = _reduced_dims(ctx)
        n = _count(x, dims)
        z, g = _reduced(ctx, ctx._unpack("result", False), g)
        centred = x - x.mean(axis=dims, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            return g * centred / ((n - ctx._correction) * z)


def _variance(ctx, x, dim, correction, keepdim: bool, name: str) -> np.ndarray:
    """The variance along ``dim`` divided by n - correction; torch's warning when that is not positive."""
    d = _float(x)
    ctx.save(self=x, dim=dim, correction=correction, keepdim=keepdim)
    ctx._correction = correction = 1 if correction is None else correction
    if _count(d, dim) - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel). (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)", UserWarning, stacklevel=6)
    centred = d - d.mean(axis=dim, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):  # n <= correction: inf or nan, as torch
        return np.add.reduce(centred * centred, axis=dim, keepdims=keepdim) / d.dtype.type(_count(d, dim) - correction)


def _count(x, dims) -> int:
    """How many elements each reduction over ``dims`` combines."""
    shape = np.shape(x)
    return int(np.prod([shape[i] for i in dims])) if dims is not None else int(np.size(x))


# ---------------------------------------------------------------- flip, repeat, amax / amin, logsumexp
# Their backward formulas are made of recorded operations, so create_graph=True works through them.

class FlipBackward0(Function):
    """z = x reversed along each dim in ``dims``;  dx = g flipped back the same way (a flip undoes itself)."""

    @staticmethod
    def forward(ctx, x, dims):
        ctx.save(dims=dims)
        d = x._data
        return np.flip(d, dims).copy() if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        if _is_tensor(g):
            return FlipBackward0.apply(g, dims=ctx.dims)
        return np.flip(g, ctx.dims) if np.ndim(g) else g


class RepeatBackward0(Function):
    """z = x tiled ``repeats[i]`` times along dim i (x's shape padded with leading 1s first);
    dx = g summed over the copies: over the new leading dims, then over the copies within each dim."""

    @staticmethod
    def forward(ctx, x, repeats):
        ctx.save(repeats=repeats, self_sym_sizes=x._data.shape)
        return np.tile(x._data, repeats)

    @staticmethod
    def backward(ctx, g):
        """torch's repeat_backward: one sum per new leading dim, then a reshape that gives each repeated dim
        a (copies, size) pair of dims, and one sum over the copies."""
        repeats, sizes = ctx.repeats, ctx.self_sym_sizes
        if 0 in repeats:
            return np.zeros(sizes, g._data.dtype if _is_tensor(g) else g.dtype)
        for _ in range(len(repeats) - len(sizes)):
            g = g.sum(0)
        shape, copies = [], []
        for r, n in zip(repeats[len(repeats) - len(sizes):], sizes):
            if r != 1:
                copies.append(len(shape))
                shape.append(r)
            shape.append(n)
        return g.reshape(shape).sum(tuple(copies)) if copies else g


class AmaxBackward0(Function):
    """z = the largest x along ``dim`` (along all dims when it is empty);  the gradient goes to the entries
    equal to z, shared evenly among ties:  dx = g [x == z] / (number of ties)."""
    saves_result = True
    saved_names = ("self",)
    reduce = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx, x, dim, keepdim):
        ctx.save(self=x, dim=dim, keepdim=keepdim)
        return np.asarray(cls.reduce(x._data, axis=dim or None, keepdims=keepdim))

    @staticmethod
    def backward(ctx, g):
        """torch's formula: g and z put back in x's shape (a view), then (g / count) * mask."""
        x, z = np.asarray(ctx._unpack("self", False)), np.asarray(ctx._unpack("result", False))
        dims = ctx.dim
        if not ctx.keepdim:
            kept = [1 if i in dims else n for i, n in enumerate(x.shape)] if dims else []
            g, z = g.reshape(kept), z.reshape(kept)
        mask = z == x
        count = mask.sum(axis=dims or None, keepdims=True)
        if _is_tensor(g):
            from .tensor import Tensor
            return g / Tensor._make(count) * Tensor._make(mask)
        with np.errstate(divide="ignore", invalid="ignore"):  # a nan maximum matches nothing: nan, as torch
            return g / count.astype(g.dtype) * mask


class AminBackward0(AmaxBackward0):
    """z = the smallest x along ``dim``;  the gradient goes to the entries equal to z, shared evenly among ties."""
    reduce = staticmethod(np.min)


class LogsumexpBackward0(Function):
    """z = log(sum(exp(x))) along ``dim``, computed as m + log(sum(exp(x - m))) with m = max(x), so that exp
    cannot overflow;  dz/dx = exp(x - z) = softmax(x) along dim."""
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.save(self=x, dim=dim, keepdim=keepdim)
        d, axis = _float(x), dim or None
        with np.errstate(divide="ignore"):  # the log of an empty sum: -inf, as torch
            if not d.size:
                return np.log(np.exp(d).sum(axis=axis, keepdims=keepdim))
            m = d.max(axis=axis, keepdims=True)
            m = np.where(np.isinf(m), 0, m).astype(d.dtype)  # an infinite max is not subtracted (inf - inf)
            s = _rounded(np.exp, d - m).sum(axis=axis, keepdims=keepdim)
            return _rounded(np.log, s) + m.reshape(np.shape(s))

    @staticmethod
    def backward(ctx, g):
        t = _is_tensor(g)
        x, z = ctx._unpack("self", t), ctx._unpack("result", t)
        if not ctx.keepdim and np.ndim(x._data if t else x):  # torch's unsqueeze_multiple, dim by dim
            for d in ctx.dim:
                g, z = (g.unsqueeze(d), z.unsqueeze(d)) if t else (np.expand_dims(g, d), np.expand_dims(z, d))
        return g * ((x - z).exp() if t else _rounded(np.exp, x - z))
