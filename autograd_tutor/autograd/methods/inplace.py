"""Tensor methods that change a tensor in place: ``add_``, ``mul_``, ``clamp_``, ``sigmoid_``, ``zero_``, ``fill_``,
``copy_``... and the checks torch makes before (a leaf that requires grad, a view of one).

The change is recorded like the operation written out of place, whose node becomes the tensor's ``grad_fn``;
on a view, the node is recorded on the view's base instead (``ops/views.py``: ``CopySlices``).
"""
from __future__ import annotations

import numpy as np

from ... import events
from .. import grad_mode
from ..dtypes import LEGACY_NAMES
from ..function import SavedTensor
from ..ops.copies import CopyBackwards, FillBackward2, FillBackward3, ZeroBackward0
from ..ops.numerics import _promote
from ..ops.views import rebase, refusal, save_original, SavedViewResult
from ..tensor import _broadcast_shape, _wrap, LEAF_INPLACE, Tensor, VIEW_OF_LEAF_INPLACE
from ..tracebacks import ENGINE_FRAME

__all__: list = []  # every method is in the class below


class InplaceMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def sigmoid_(self):
        return self._inplace(lambda s: s.sigmoid())

    def tanh_(self):
        return self._inplace(lambda s: s.tanh())

    def sqrt_(self):
        return self._inplace(lambda s: s.sqrt())

    def rsqrt_(self):
        return self._inplace(lambda s: s.rsqrt())

    def reciprocal_(self):
        return self._inplace(lambda s: s.reciprocal())

    def log_(self):
        return self._inplace(lambda s: s.log())

    def abs_(self):
        return self._inplace(lambda s: s.abs())

    def sin_(self):
        return self._inplace(lambda s: s.sin())

    def cos_(self):
        return self._inplace(lambda s: s.cos())

    def square_(self):
        return self._inplace(lambda s: s.square())

    def atan2_(self, other):
        return self._inplace(lambda s: s.atan2(other), other)

    arctan2_ = atan2_

    def hypot_(self, other):
        return self._inplace(lambda s: s.hypot(other), other)

    def _check_inplace(self, recorded: bool = None) -> None:
        """Torch's refusals of an in-place change, in its order; ``recorded``: whether the change is recorded
        (grad mode on and some input requires grad; by default, whether this tensor requires grad)."""
        if self._inference and not grad_mode._inference[0]:
            raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
                               "a clone to get a normal tensor before doing inplace update.See "
                               "https://github.com/pytorch/rfcs/pull/17 for more details.")
        if not (grad_mode._grad_enabled[0] and (self.requires_grad if recorded is None else recorded)):
            return
        base = self._base
        if base is None:
            if self._requires_grad and self._grad_fn is None:
                raise RuntimeError(LEAF_INPLACE)
        elif self._view_origin is not None:
            raise RuntimeError(refusal(self, indirect=False))
        elif base._requires_grad and base._grad_fn is None:
            raise RuntimeError(VIEW_OF_LEAF_INPLACE)

    def _become(self, result: "Tensor") -> "Tensor":
        """Finish an in-place op: write ``result`` into this tensor's storage and take over its graph node (on a
        view: record it on the base, ``ops/views.py``)."""
        if result._data.shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(result.shape)}")
        if result._data.dtype != self._data.dtype and not np.can_cast(result._data.dtype, self._data.dtype,
                                                                       "same_kind"):
            raise RuntimeError(f"result type {LEGACY_NAMES[result._data.dtype.name][:-6]} can't be cast to the "
                               f"desired output type {LEGACY_NAMES[self._data.dtype.name][:-6]}")
        if not self._data.flags.writeable:  # an expanded tensor: several entries share one memory location
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                               "single memory location. Please clone() the tensor before performing the operation.")
        self._data[...] = result._data
        self._vbox[0] += 1
        fn = result._grad_fn
        if fn is not None and self._base is not None:
            rebase(self, fn)
        elif fn is not None:
            self._grad_fn, self._requires_grad = fn, True
            if self._retains_grad:
                fn._retain_grad_of(self)
        return self

    def _inplace(self, compute, *others) -> "Tensor":
        """Write ``compute(before)`` into this tensor, ``before`` standing for its current value.

        When the op is recorded, ``before`` is a copy that keeps this tensor's place in the graph: the op may
        save it for backward (torch saves the original value too), and writing the result here must not count
        as modifying that saved value. A node that saves its result (exp_, sigmoid_, tanh_...) saves, as in
        torch, this tensor itself at its new version: changing it again makes backward raise."""
        __tracebackhide__ = ENGINE_FRAME
        recorded = grad_mode._grad_enabled[0] and (self.requires_grad or any(
            isinstance(o, Tensor) and o._requires_grad for o in others))
        self._check_inplace(recorded)
        before = self
        if recorded:
            before = Tensor._make(self._data.copy(), self._requires_grad, self._grad_fn)
            before._id = self._id
        result = compute(before)
        self._become(result)
        node = result._grad_fn
        if node is None:
            return self
        if type(node._saved.get("result")) is SavedTensor:  # not packed by saved-tensor hooks
            node._saved["result"] = SavedTensor(self, True) if self._base is None else SavedViewResult(self)
        if before._requires_grad:
            save_original(node, before)
        return self

    def _update(self, ufunc, other):
        """``self op= other`` written straight into this tensor's storage, as an optimizer step under no_grad
        does: only when nothing is recorded or listened to and the result keeps this tensor's dtype and shape.
        None when the general path (:meth:`_inplace`) must run."""
        if events._subscribers or (grad_mode._grad_enabled[0] and (
                self.requires_grad or (type(other) is Tensor and other._requires_grad))):
            return None
        d = self._data
        b = _promote(self, _wrap(other))[1]
        if b.dtype != d.dtype or (np.ndim(b) and np.shape(b) != d.shape) or not d.flags.writeable:
            return None
        self._check_inplace()
        if ufunc is np.divide:  # x / 0: inf or nan, silently as in torch, even where warnings are made errors
            with np.errstate(all="ignore"):
                ufunc(d, b, out=d)
        else:  # only an overflow can warn here: the filter in autograd/__init__.py silences it, without the
            ufunc(d, b, out=d)  # 1.4 us that np.errstate costs on every step of an optimizer
        self._vbox[0] += 1
        return self

    def add_(self, other, alpha=1):
        __tracebackhide__ = ENGINE_FRAME
        done = self._update(np.add, other) if alpha == 1 else None
        return done if done is not None else self._inplace(lambda s: s.add(other, alpha), other)

    def sub_(self, other, alpha=1):
        __tracebackhide__ = ENGINE_FRAME
        done = self._update(np.subtract, other) if alpha == 1 else None
        return done if done is not None else self._inplace(lambda s: s.sub(other, alpha), other)

    def mul_(self, other):
        __tracebackhide__ = ENGINE_FRAME
        done = self._update(np.multiply, other)
        return done if done is not None else self._inplace(lambda s: s * other, other)

    def div_(self, other):
        __tracebackhide__ = ENGINE_FRAME
        done = self._update(np.divide, other) if self._data.dtype.kind == "f" else None
        return done if done is not None else self._inplace(lambda s: s / other, other)

    def pow_(self, exponent):
        return self._inplace(lambda s: s ** exponent, exponent)

    def masked_fill_(self, mask, value):
        """``self[mask] = value`` as one node (MaskedFillBackward0): e.g. a causal attention mask,
        ``scores.masked_fill_(mask == 0, float('-inf'))``."""
        return self._inplace(lambda s: s.masked_fill(mask, value))

    def clamp_(self, min=None, max=None):
        return self._inplace(lambda s: s.clamp(min, max))

    def clamp_min_(self, min):
        return self._inplace(lambda s: s.clamp_min(min))

    def clamp_max_(self, max):
        return self._inplace(lambda s: s.clamp_max(max))

    def neg_(self):
        return self._inplace(lambda s: -s)

    def exp_(self):
        return self._inplace(lambda s: s.exp())

    def relu_(self):
        return self._inplace(lambda s: s.relu())

    def zero_(self):
        return self._inplace(ZeroBackward0.apply)

    def fill_(self, value):
        if isinstance(value, Tensor):
            if value.ndim:
                raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} "
                                   "dimensions.")
            return self._inplace(lambda s: FillBackward3.apply(s, value), value)
        return self._inplace(lambda s: FillBackward2.apply(s, value=value))

    def copy_(self, src):
        src = _wrap(src)
        if _broadcast_shape(self._data.shape, src._data.shape) != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(_broadcast_shape(self._data.shape, src._data.shape))}")
        return self._inplace(lambda s: CopyBackwards.apply(s, src), src)

    __iadd__, __isub__, __imul__, __itruediv__ = add_, sub_, mul_, div_

