"""Reductions: ``sum``, ``mean``, ``max`` / ``min``, ``prod``, norms, ``var`` / ``std``, ``amax``, ``logsumexp``,
``median``, cumulative sums and products, ``cummax``, ``kthvalue``, ``nansum``.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..arguments import _outside
from ..dtypes import kind_name
from ..function import Function, MultiOutputFunction
from ..summation import numpy_sum, torch_sum
from ..tensor import Tensor
from .indexing import gathered_back, IndexPutBackward0, MaskedFillBackward1, scattered_back
from .arithmetic import _pow_scalar
from .numerics import _float, _is_tensor, _needs_array_only, _rounded, _sign

__all__ = ["SumBackward0", "SumBackward1", "MeanBackward0", "MeanBackward1", "MaxBackward1", "MinBackward1",
           "MaxBackward0", "MinBackward0", "LinalgVectorNormBackward0", "NormBackward1", "vector_norm", "norm_backward", "ProdBackward0",
           "ProdBackward1", "CumsumBackward0", "VarBackward0", "StdBackward0", "VarMeanBackward0",
           "StdMeanBackward0", "AmaxBackward0", "AminBackward0",
           "LogsumexpBackward0", "CumprodBackward0", "lower_median", "median_indices", "MedianBackward0",
           "MedianBackward1", "nan_median_indices", "NanmedianBackward0", "NanmedianBackward1", "running_extreme",
           "CummaxBackward0", "CumminBackward0", "LogcumsumexpBackward0",
           "KthvalueBackward0", "ModeBackward0", "NansumBackward0"]


class SumBackward0(Function):
    """z = sum(x);  dz/dx_i = 1: the gradient is spread over x's shape."""

    @staticmethod
    def forward(ctx, x, dtype=None):
        ctx.save(self_sym_sizes=x._data.shape)
        d = _in_dtype(x._data, dtype)
        if d.dtype.kind in "biu":
            return np.add.reduce(d, axis=None, dtype=d.dtype if dtype is not None else np.int64)
        return torch_sum(d, None, False)  # in torch's order: .item() prints torch's digits

    @staticmethod
    def backward(ctx, g):
        return g.expand(ctx.self_sym_sizes) if _is_tensor(g) else np.full(ctx.self_sym_sizes, g, g.dtype)


def _in_dtype(d: np.ndarray, dtype) -> np.ndarray:
    """The input of a reduction cast to its ``dtype=`` first (as torch does: an int8 sum wraps around)."""
    return d if dtype is None else d.astype(dtype, copy=False)


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
    def forward(ctx, x, dim, keepdim=False, dtype=None):
        d = _in_dtype(x._data, dtype)
        dims = _dims(dim, d.ndim)
        ctx.save(self_sym_sizes=d.shape, dim=dims, keepdim=keepdim)
        if d.dtype.kind in "biu":
            return numpy_sum(d, dims, keepdim, d.dtype if dtype is not None else np.int64)
        return torch_sum(d, dims, keepdim)

    @staticmethod
    def backward(ctx, g):
        return _spread(g, ctx.self_sym_sizes, ctx.dim, ctx.keepdim)


class MeanBackward0(Function):
    """z = mean(x) = sum(x) / n;  dz/dx_i = 1/n."""

    @staticmethod
    def forward(ctx, x, dtype=None):
        d = _in_dtype(x._data, dtype)
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
    def forward(ctx, x, dim, keepdim=False, dtype=None):
        d = _in_dtype(x._data, dtype)
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
    """max()/min(): the gradient shared evenly by the entries equal to the result (torch's formula), or by the
    nans when the result is nan."""
    x, r = ctx._unpack("self", False), ctx._unpack("result", False)
    mask = np.isnan(x) if np.isnan(r) else x == r
    if not _is_tensor(g):
        return np.where(mask, g / mask.sum(), 0).astype(g.dtype, copy=False)
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
        return scattered_back(g, shape, dim, idx)


class MinBackward0(MaxBackward0):
    """values = min(x, dim);  each value's gradient goes to the entry it came from (the first, on ties)."""


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
    """The gradient of z = ||x||_p (z and g spread back over x's shape) for p > 0, as torch's norm_backward
    computes it: sgn(x) g for p = 1 (0 at nan), g (x / z) for p = 2, for p = inf the largest |x_i| (or the nans)
    take g, shared among ties (the smallest for -inf), else sgn(x) |x|^(p-1) g / z^(p-1); 0 where z is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 1:
            return _sign(x) * g
        if p == 2:
            return g * np.where(z == 0, 0, x / z).astype(x.dtype, copy=False)
        if p == float("inf") or p == float("-inf"):
            size = np.abs(x)
            wins = (size == z) | np.isnan(size)
            return _sign(x) * (g / wins.sum(axis=axis, keepdims=True).astype(g.dtype) * wins)
        if p < 1:
            scaled = _sign(x) * np.where(x == 0, 0, _pow_scalar(np.abs(x), p - 1)).astype(x.dtype, copy=False)
            return scaled * g * _pow_scalar(z, 1 - p)
        scaled = _sign(x) * _pow_scalar(np.abs(x), p - 1) if p < 2 else x * _pow_scalar(np.abs(x), p - 2)
        return scaled * np.where(z == 0, 0, g / _pow_scalar(z, p - 1)).astype(x.dtype, copy=False)


class ProdBackward0(Function):
    """z = x_1 x_2 ... x_n;  dz/dx_i = the product of the others: z / x_i as torch computes it when no x_i is 0
    (so an inf or nan reaches every entry), the running products from both sides when one is, 0 when several are."""
    saved_names = ("self", "result")
    saves_result = True

    @staticmethod
    def forward(ctx, x, dtype=None):
        ctx.save(self=x)
        d = _in_dtype(x._data, dtype)
        return d.prod(dtype=_product_dtype(d, dtype))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a product")
        x, r = ctx._unpack("self", False), ctx._unpack("result", False)
        if not np.ndim(x):
            return g
        zeros = np.count_nonzero(x == 0)
        if zeros > 1:
            return np.zeros(np.shape(x), g.dtype)
        return g * (_others_product(np.reshape(x, -1), 0).reshape(np.shape(x)) if zeros else _divided(r, x))


def _product_dtype(d: np.ndarray, dtype):
    """The dtype a product is computed in: the one asked for, else int64 for integers and bools (as torch)."""
    return d.dtype if dtype is not None else np.int64 if d.dtype.kind in "biu" else None


def _divided(r, x):
    """z / x_i, silently (inf / inf is nan, as in torch)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return r / x


def _others_product(x: np.ndarray, axis: int) -> np.ndarray:
    """For each element, the product of the other elements along ``axis``: left and right running products."""
    ones = np.ones_like(np.take(x, [0], axis=axis))
    left = np.cumprod(np.concatenate([ones, np.take(x, range(x.shape[axis] - 1), axis=axis)], axis), axis=axis)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(np.take(x, range(1, x.shape[axis]), axis=axis), axis)],
                                              axis), axis=axis), axis)
    return left * right


class ProdBackward1(Function):
    """z = the product along ``dim``;  each x_i gets the product of the others in its slice (z / x_i when no
    entry of x is 0, as torch)."""
    saved_names = ("self", "result")
    saves_result = True

    @staticmethod
    def forward(ctx, x, dim, keepdim=False, dtype=None):
        d = _in_dtype(x._data, dtype)
        ctx.save(self=x, dim=dim, keepdim=keepdim)
        return d.prod(axis=dim, keepdims=keepdim, dtype=_product_dtype(d, dtype))

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a product")
        x = ctx._unpack("self", False)
        if np.ndim(x) == 0:
            return g
        g, r = _reduced(ctx, g, ctx._unpack("result", False))
        return g * (_others_product(x, ctx.dim) if (x == 0).any() else _divided(r, x))


class CumsumBackward0(Function):
    """z_i = x_1 + ... + x_i along ``dim``;  dx_i = g_i + ... + g_n (the cumulative sum from the end)."""

    @staticmethod
    def forward(ctx, x, dim, dtype=None):
        ctx.save(dim=dim)
        d = x._data if dtype is None else x._data.astype(dtype)
        if dtype is not None and d.dtype.kind in "iu":  # summed in the dtype asked for (an int8 sum wraps)
            return d.cumsum(axis=dim, dtype=d.dtype) if d.ndim else d.copy()
        if d.dtype.kind in "biu":
            return d.cumsum(axis=dim, dtype=np.int64) if d.ndim else d.copy()
        return running(np.add, d, dim) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a cumulative sum")
        if not np.ndim(g):
            return g
        return np.flip(running(np.add, np.flip(g, ctx.dim), ctx.dim), ctx.dim)


def running(ufunc, d: np.ndarray, axis: int) -> np.ndarray:
    """The running sum (``np.add``) or product (``np.multiply``) along ``axis`` as torch's cumsum / cumprod
    kernels compute it: from 0 (or 1), a float32 tensor's in float64, each step rounded back to float32 (so
    later terms lose no bits to earlier roundings), and -0. as 0. + -0. = 0.

    >>> running(np.add, np.array([-0., 1e8, 1., -1e8], np.float32), 0).tolist()   # NumPy's float32 sum ends in 0.
    [0.0, 100000000.0, 100000000.0, 1.0]
    """
    out = ufunc.accumulate(d.astype(np.float64) if d.dtype == np.float32 else d, axis=axis)
    if ufunc is np.add:
        out = out + 0.  # from 0.: -0. becomes 0.
    return out.astype(d.dtype, copy=False)


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
        (g,) = _reduced(ctx, g)
        return _var_backward(ctx, g)


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
        z, g = _reduced(ctx, ctx._unpack("result", False), g)
        with np.errstate(divide="ignore", invalid="ignore"):  # torch's std_backward: 0 where the std is 0
            return _var_backward(ctx, np.where(z == 0, 0, g / (z * 2)).astype(g.dtype, copy=False))


class VarMeanBackward0(MultiOutputFunction):
    """(v, m) = (var(x), mean(x)) in one pass, two outputs of one node;  dx = dv dvar/dx + dm / n."""
    is_view = False
    saved_names = ("self", "dim", "correction")
    spread = staticmethod(lambda v: v)  # what the first output is made of the variance (std: its square root)

    @classmethod
    def forward(cls, ctx, x, dim, correction, keepdim):
        name = cls.__name__[:-9].replace("Mean", "_mean").lower()
        with np.errstate(invalid="ignore"):
            first = cls.spread(_variance(ctx, x, dim, correction, keepdim, name))
        d = _float(x)
        if not _count(d, dim):  # the mean of nothing: nan, as the spread
            return [first, np.full(first.shape, np.nan, d.dtype)]
        return [first, d.mean(axis=dim, keepdims=keepdim, dtype=d.dtype)]

    @staticmethod
    def backward(ctx, grads):
        for g in grads:
            _needs_array_only(ctx, g, "var_mean")
        g_var, g_mean = grads
        x = ctx._unpack("self", False)
        out = None if g_var is None else _var_backward(ctx, _reduced(ctx, g_var)[0])
        if g_mean is not None:  # as torch's var_mean_backward: the mean's part added to the variance's
            part = _reduced(ctx, g_mean)[0] / x.dtype.type(_count(x, _reduced_dims(ctx)))
            out = part if out is None else out + part
        return out


class StdMeanBackward0(VarMeanBackward0):
    """(s, m) = (std(x), mean(x));  dx = ds (x - mean) / ((n - correction) s) + dm / n (0 where s is 0)."""
    saved_names = ("self", "dim", "correction", "result0")
    saves_result = True
    spread = staticmethod(np.sqrt)

    @staticmethod
    def backward(ctx, grads):
        g_std, g_mean = grads
        if g_std is not None:
            _needs_array_only(ctx, g_std, "std_mean")
            std = np.asarray(ctx._unpack("result0", False))
            with np.errstate(divide="ignore", invalid="ignore"):  # as std_backward: 0 where the std is 0
                g_std = np.where(std == 0, 0, g_std / (std * 2)).astype(g_std.dtype, copy=False)
        return VarMeanBackward0.backward(ctx, [g_std, g_mean])


def _var_backward(ctx, g: np.ndarray) -> np.ndarray:
    """torch's var_backward: 2 / (n - correction) g (x - mean); over all elements with n <= correction, g times
    nan where x is the mean and inf elsewhere."""
    x = ctx._unpack("self", False)
    dims = _reduced_dims(ctx)
    n = _count(x, dims)
    mean = torch_sum(x, dims, True) / x.dtype.type(n) if n else x.mean(axis=dims, keepdims=True)
    dof = n - ctx._correction
    if dims is None and dof <= 0:
        return g * np.where(x == mean, np.nan, np.inf).astype(x.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        return x.dtype.type(2 / dof if dof else np.inf) * g * (x - mean)


def _variance(ctx, x, dim, correction, keepdim: bool, name: str) -> np.ndarray:
    """The variance along ``dim`` divided by n - correction; torch's warning when that is not positive."""
    d = _float(x)
    ctx.save(self=x, dim=dim, correction=correction, keepdim=keepdim)
    ctx._correction = correction = 1 if correction is None else correction
    if _count(d, dim) - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel). (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)", UserWarning, stacklevel=_outside())
    if not _count(d, dim):  # the spread of nothing: nan, without NumPy's warnings
        return np.full(np.add.reduce(d, axis=dim, keepdims=keepdim).shape, np.nan, d.dtype)
    centred = d - d.mean(axis=dim, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):  # n <= correction: inf or nan, as torch
        return np.add.reduce(centred * centred, axis=dim, keepdims=keepdim) / d.dtype.type(_count(d, dim) - correction)


def _count(x, dims) -> int:
    """How many elements each reduction over ``dims`` combines."""
    shape = np.shape(x)
    return int(np.prod([shape[i] for i in dims])) if dims is not None else int(np.size(x))


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


class CumprodBackward0(Function):
    """z_j = x_1 * ... * x_j along ``dim``;  dx_k = sum over j >= k of g_j * (the product of x_1..x_j without x_k),
    as torch's cumprod_backward computes it: (the reversed cumulative sum of g z) / x_k when no x is 0; with
    zeros, that before the first zero, the products after it for the first zero, and 0 beyond."""
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, dim, dtype=None):
        ctx.save(self=x, dim=dim)
        d = x._data
        if dtype is not None:
            d = d.astype(dtype)
        elif d.dtype.kind in "biu":
            d = d.astype(np.int64)
        if not d.ndim:
            return d.copy()
        return running(np.multiply, d, dim) if d.dtype.kind == "f" else d.cumprod(axis=dim)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "cumprod")
        x, z = ctx._unpack("self", False), ctx._unpack("result", False)
        if np.size(x) <= 1 or x.shape[ctx.dim] == 1:
            return g
        axis = ctx.dim
        x = np.asarray(x, g.dtype)
        w = z * g

        def after(a):  # the reversed cumulative sum along dim: a_k + a_{k+1} + ... from the end
            return np.flip(running(np.add, np.flip(a, axis), axis), axis)
        zero = x == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            if not zero.any():
                return after(w) / x
            count = np.cumsum(zero, axis)
            before = count == 0
            out = np.where(before, after(np.where(before, w, 0)) / x, 0).astype(g.dtype)
            segment = count == 1  # from the first zero to the second
            first = np.expand_dims(np.argmax(segment, axis=axis), axis)
            first_mask = np.zeros_like(segment)
            np.put_along_axis(first_mask, first, True, axis)
            first_mask &= segment
            between = segment & ~first_mask
            products = (running(np.multiply, np.where(between, x, x.dtype.type(1)), axis) *
                        np.where(segment, g, 0)).sum(axis, keepdims=True)
            previous = np.where(first == 0, 1, np.take_along_axis(z, np.maximum(first - 1, 0), axis))
            return np.where(first_mask, products * previous, out).astype(g.dtype)


def lower_median(d: np.ndarray):
    """The lower median of all entries (the smaller middle one for an even count), nan if any entry is nan.

    >>> float(lower_median(np.array([4., 1., 3., 2.]))), float(lower_median(np.array([1., np.nan])))
    (2.0, nan)
    """
    flat = d.reshape(-1)
    if flat.dtype.kind == "f" and (flat.size == 0 or np.isnan(flat).any()):
        return np.array(np.nan, d.dtype)
    return np.sort(flat)[(flat.size - 1) // 2]


def median_indices(d: np.ndarray, axis: int) -> np.ndarray:
    """Where torch's median along ``axis`` finds the lower median of each row: the position that lands at
    (n - 1) // 2 in a stable sort (torch's nth_element breaks ties by position), or the first nan of a row
    that has one. Keeps ``axis`` (size 1).

    >>> median_indices(np.array([[5., 1., 5., 1.], [2., np.nan, 1., np.nan]]), 1).tolist()
    [[3], [1]]
    """
    n = d.shape[axis]
    pick = np.take(np.argsort(d, axis=axis, kind="stable"), [(n - 1) // 2], axis=axis)
    if d.dtype.kind == "f":
        nan = np.isnan(d)
        pick = np.where(nan.any(axis=axis, keepdims=True), np.argmax(nan, axis=axis, keepdims=True), pick)
    return pick.astype(np.int64)


class MedianBackward0(Function):
    """z = the lower median of all entries;  the gradient goes to the entries equal to it, shared evenly."""
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        return lower_median(x._data)

    @staticmethod
    def backward(ctx, g):
        x, r = ctx._unpack("self", False), ctx._unpack("result", False)
        mask = np.isnan(x) if r != r else x == r
        if not _is_tensor(g):
            return np.where(mask, g / mask.sum(), 0).astype(g.dtype, copy=False)
        zeros = Tensor._make(np.zeros(x.shape, g._data.dtype))  # torch: zeros.masked_fill_(mask, g / mask.sum())
        return MaskedFillBackward1.apply(zeros, g / int(mask.sum()), mask=Tensor._make(mask))


def nan_median_indices(d: np.ndarray, axis: int) -> np.ndarray:
    """Where torch's nanmedian along ``axis`` finds the lower median of each row's numbers: the position that
    lands at (count - 1) // 2 in a stable sort with nans last; in a row of nans only, the one libstdc++'s
    ``nth_element`` leaves first when nothing compares (:func:`_first_of_equals`). Keeps ``axis`` (size 1).

    >>> nan = float("nan")
    >>> nan_median_indices(np.array([[nan, 1., 3., nan, 2.], [nan] * 5]), 1).tolist()
    [[4], [2]]
    """
    n = d.shape[axis]
    order = np.argsort(d, axis=axis, kind="stable")  # NumPy puts nans last
    count = n - np.isnan(d).sum(axis=axis, keepdims=True) if d.dtype.kind == "f" else np.full(
        d.shape[:axis] + (1,) + d.shape[axis + 1:], n)
    pick = np.take_along_axis(order, np.maximum(count - 1, 0) // 2, axis=axis)
    return np.where(count == 0, _first_of_equals(n), pick).astype(np.int64)


def _first_of_equals(n: int) -> int:
    """The index ``std::nth_element(first, first, last)`` puts first when no two of the n entries compare
    (libstdc++'s introselect: a median-of-three that swaps the middle entry to the front, partitions that swap
    pairs from both ends, down to 3 entries)."""
    index, first, last = list(range(n)), 0, n
    while last - first > 3:
        middle = first + (last - first) // 2
        index[first], index[middle] = index[middle], index[first]
        low, high = first + 1, last
        while True:
            high -= 1
            if not low < high:
                break
            index[low], index[high] = index[high], index[low]
            low += 1
        last = low  # the cut is after position 0, which is the one asked for
    return index[0]


class NanmedianBackward0(Function):
    """z = the lower median of the entries that are not nan;  the gradient goes to the entries equal to it,
    shared evenly (all of them, when every entry is nan)."""
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save(self=x)
        d = x._data.reshape(-1)
        numbers = d[~np.isnan(d)] if d.dtype.kind == "f" else d
        return lower_median(numbers) if numbers.size else np.array(np.nan, d.dtype)

    backward = staticmethod(MedianBackward0.backward)


class NanmedianBackward1(MaxBackward0):
    """values = the lower median of each row's numbers along ``dim``;  each value's gradient goes to its entry."""


class MedianBackward1(MaxBackward0):
    """values = the lower median along ``dim``;  each value's gradient goes to the entry it came from."""


def running_extreme(d: np.ndarray, axis: int, ufunc) -> tuple:
    """cummax (``np.maximum``) or cummin (``np.minimum``) along ``axis``: the running values, and where each was
    found, the latest place on ties (torch's rule: an entry equal to the running maximum takes over, and so
    does a nan, which then stays the running value).

    >>> values, indices = running_extreme(np.array([3., 1., 3., 5.]), 0, np.maximum)
    >>> values.tolist(), indices.tolist()
    ([3.0, 3.0, 3.0, 5.0], [0, 0, 2, 3])
    """
    values = ufunc.accumulate(d, axis=axis)
    place = np.arange(d.shape[axis]).reshape((-1,) + (1,) * (d.ndim - axis - 1))
    takes_over = np.where((d == values) | (d != d), place, 0)  # d[i] is a new record, ties it, or is nan
    return values, np.maximum.accumulate(takes_over, axis=axis).astype(np.int64)


class CummaxBackward0(Function):
    """values = the running maximum along dim;  each value's gradient goes to the entry it came from (``indices``),
    so an entry that stays the maximum for k steps collects k gradients."""
    saved_names = ("indices", "self")

    @staticmethod
    def forward(ctx, x, dim, indices):
        ctx.save(dim=dim, indices=indices, self=x)
        d = x._data
        return np.take_along_axis(d, indices._data, dim) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        indices = ctx._unpack("indices", _is_tensor(g))  # unpacked before self, as torch does
        return gathered_back(g, ctx._unpack("self", False), ctx.dim, indices)


class CumminBackward0(CummaxBackward0):
    """values = the running minimum along dim;  each value's gradient goes to the entry it came from."""


class LogcumsumexpBackward0(Function):
    """z_j = log(exp(x_1) + ... + exp(x_j)) along dim (``np.logaddexp.accumulate``, without overflow);
    dx_k = sum over j >= k of g_j exp(x_k - z_j), a softmax weight of x_k within each prefix, computed as torch
    does: exp(x_k + log(sum over j >= k of exp(log g_j - z_j))), for the positive and the negative g apart.

    >>> import autograd_tutor as torch
    >>> torch.tensor([0., 0., 0.]).logcumsumexp(0)     # log 1, log 2, log 3
    tensor([0.0000, 0.6931, 1.0986])
    """
    saves_result = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save(dim=dim, self=x)
        d = _float(x)  # accumulated in float64 from -inf (so -0. gives 0.), as torch's kernel does for float32
        return (np.logaddexp.accumulate(d.astype(np.float64), axis=dim) + 0.).astype(d.dtype) if d.ndim else d.copy()

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "logcumsumexp")
        x, z = ctx._unpack("self", False), ctx._unpack("result", False)
        if not np.ndim(x) or not np.size(x):
            return g
        axis, lowest = ctx.dim, np.finfo(g.dtype).min

        def from_the_end(a):  # logcumsumexp along dim, from the last entry back
            return np.flip(np.logaddexp.accumulate(np.flip(a, axis).astype(np.float64), axis=axis), axis)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # torch's formula, g split by sign
            log_g = np.log(np.abs(g))
            parts = [np.exp(from_the_end(np.where(side, log_g, lowest) - z).astype(g.dtype) + x)
                     for side in (g > 0, g < 0)]
        return (parts[0] - parts[1]).astype(g.dtype)


class KthvalueBackward0(MaxBackward0):
    """values = the k-th smallest entry along dim;  each value's gradient goes to the entry it came from."""


class ModeBackward0(MaxBackward0):
    """values = the most frequent entry along dim;  each value's gradient goes to the entry its index names."""


class NansumBackward0(Function):
    """z = the sum of the entries that are not nan (over ``dim``, or all);  dx = g where x is a number, 0 at nan."""
    saved_names = ("self", "dim")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.save(self=x, dim=dim, keepdim=keepdim)
        d = x._data
        if d.dtype.kind in "biu":
            return d.sum(axis=dim, keepdims=keepdim, dtype=np.int64)
        return np.nansum(d, axis=dim, keepdims=keepdim)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "nansum")
        x = ctx._unpack("self", False)
        (g,) = _reduced(ctx, g)
        return np.where(np.isnan(x), 0, g).astype(g.dtype)


class NormBackward1(Function):
    """z = ||x||_p along ``dim``, as torch's own C++ code records it (``at::norm``: pairwise_distance's node), where
    ``x.norm(p, dim)`` from Python is LinalgVectorNormBackward0; the same math, torch's names ``p`` and ``dim``."""
    saved_names = ("self", "p", "dim", "keepdim", "result")
    saves_result = True

    @staticmethod
    def forward(ctx, x, p, dim, keepdim):
        ctx.save(self=x, p=p, dim=dim, keepdim=keepdim)
        return vector_norm(_float(x), p, dim, keepdim)

    @staticmethod
    def backward(ctx, g):
        _needs_array_only(ctx, g, "a norm")
        z, g = _reduced(ctx, ctx._unpack("result", False), g)
        return norm_backward(ctx._unpack("self", False), z, g, ctx.p, _reduced_dims(ctx))
