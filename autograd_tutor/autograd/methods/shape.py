"""Tensor methods of shape: ``view`` / ``reshape``, ``permute`` / ``transpose`` / ``T``, ``squeeze``, ``expand``,
``split``, ``chunk``, ``flip``, ``rot90``, ``repeat``, ``roll``, ``tile``, ``movedim``, ``tensor_split``, ``unflatten``,
``unfold``, ``H`` / ``mT`` / ``mH``, ``broadcast_to``.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import grad_mode
from ..dtypes import kind_name, LEGACY_NAMES
from ..function import shown
from ..ops.indexing import SelectBackward0, SliceBackward0
from ..ops.shape import (IN_PLACE_NODES, ExpandBackward0, FlipBackward0, PermuteBackward0, RepeatBackward0, ReshapeAliasBackward0, Rot90Backward0,
                         RollBackward0, SplitBackward0, SplitWithSizesBackward0, UnsafeSplitBackward0,
                         UnsafeSplitWithSizesBackward0, SqueezeBackward0, SqueezeBackward1,
                         SqueezeBackward2, TBackward0, TransposeBackward0, UnbindBackward0, UnfoldBackward0,
                         UnsafeViewBackward0, UnsqueezeBackward0, ViewBackward0)
from ..tensor import LEAF_INPLACE, _dim, _int_args, _shape_args, _viewable, _warn_once, Tensor

# Tensor methods written as functions (they call one another); the class below holds the others
__all__ = ["unflatten", "unfold"]


def unflatten(self, dim, sizes):
    """Dim ``dim`` split into several of ``sizes`` (one may be -1, inferred), as a view: ``(6, 2)`` with
    ``unflatten(0, (2, 3))`` becomes ``(2, 3, 2)``."""
    d = _dim(dim, self.ndim)
    sizes = list(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n = self.shape[d]
    known = int(np.prod([s for s in sizes if s != -1]))
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    if (-1 not in sizes and known != n) or (-1 in sizes and (known == 0 or n % known)):
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {d} ({n}) in "
                           "the input tensor")
    sizes = [n // known if s == -1 else s for s in sizes]
    return self.view(*self.shape[:d], *sizes, *self.shape[d + 1:])


unflatten.__qualname__ = "Tensor.unflatten"  # written in Python in torch, so named in its errors


def unfold(self, dimension, size, step):
    """The windows of ``size`` entries, ``step`` apart, along ``dimension``, as a view with one more dim (the
    entries of each window): ``torch.arange(6.).unfold(0, 2, 2)`` is ``[[0, 1], [2, 3], [4, 5]]``."""
    d = _dim(dimension, max(self.ndim, 1))
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    longest = self.shape[d] if self.ndim else 1
    if size > longest:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {longest} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return UnfoldBackward0.apply(self, dimension=d, size=size, step=step, given=dimension)


def _split(self, split_size, dim, equal, sized):
    """Pieces of ``split_size`` (one node ``equal``) or of the sizes in a list (one node ``sized``) along ``dim``."""
    if self._data.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    axis = _dim(dim, self._data.ndim)
    if isinstance(split_size, (list, tuple)):
        return shown(sized.apply(self, split_sizes=tuple(int(s) for s in split_size), dim=axis), dim=dim)
    return shown(equal.apply(self, split_size=int(split_size), dim=axis), dim=dim)


def _chunk_size(self, chunks, dim):
    """The split size of ``chunks`` pieces along ``dim``: ceil(size / chunks), or ``chunks`` empty pieces."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if self._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    size = self._data.shape[_dim(dim, self._data.ndim)]
    return [0] * chunks if size == 0 else -(-size // chunks)


class ShapeMethods:
    """Attached to ``Tensor`` by ``methods/__init__.py``."""

    def split(self, split_size, dim=0):
        """Pieces of ``split_size`` along ``dim`` (the last one shorter), or of the sizes in a list: views
        sharing one SplitBackward0 (SplitWithSizesBackward0) node."""
        return _split(self, split_size, dim, SplitBackward0, SplitWithSizesBackward0)

    def chunk(self, chunks, dim=0):
        """``chunks`` pieces of (nearly) equal size along ``dim``: ``split`` with size ceil(size / chunks)."""
        return self.split(_chunk_size(self, chunks, dim), dim)

    def unsafe_split(self, split_size, dim=0):
        """split's pieces (UnsafeSplitBackward0), sharing this tensor's memory without being autograd views (no
        shared version counter): torch's LSTM and GRU cells cut their gates so."""
        if isinstance(split_size, (list, tuple)):
            raise TypeError("unsafe_split(): argument 'split_size' (position 1) must be int, not "
                            f"{type(split_size).__name__}")
        return _split(self, split_size, dim, UnsafeSplitBackward0, UnsafeSplitWithSizesBackward0)

    def unsafe_split_with_sizes(self, split_sizes, dim=0):
        """split_with_sizes' pieces (UnsafeSplitWithSizesBackward0), not autograd views."""
        return _split(self, list(split_sizes), dim, UnsafeSplitBackward0, UnsafeSplitWithSizesBackward0)

    def unsafe_chunk(self, chunks, dim=0):
        """chunk's pieces cut by ``unsafe_split``."""
        return _split(self, _chunk_size(self, chunks, dim), dim, UnsafeSplitBackward0, UnsafeSplitWithSizesBackward0)

    def unbind(self, dim=0):
        """The slices along ``dim``, that dim removed: views sharing one UnbindBackward0 node."""
        if self._data.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        return shown(UnbindBackward0.apply(self, dim=_dim(dim, self._data.ndim)), dim=dim)

    def flip(self, *args, dims=None):
        """The entries in reverse order along each of ``dims``: ``x.flip(0)``, ``x.flip(0, 1)``, ``x.flip([0, 1])``."""
        if isinstance(dims, numbers.Integral):  # by keyword torch's parser wants a sequence
            raise TypeError(f"flip(): argument 'dims' must be tuple of ints, not {type(dims).__name__}")
        dims = _int_args(args, dims, "flip", "dims")
        return shown(FlipBackward0.apply(self, dims=self._dims(dims) if dims else ()), dims=tuple(dims))

    def rot90(self, k=1, dims=(0, 1)):
        """The tensor turned ``k`` quarter turns in the plane of ``dims``, from the first dim towards the second
        (a matrix by 90 degrees anticlockwise for k = 1); k < 0 turns the other way.

        >>> import autograd_tutor as torch
        >>> torch.tensor([[1, 2], [3, 4]]).rot90()
        tensor([[2, 4],
                [1, 3]])
        """
        if isinstance(dims, numbers.Integral):
            raise TypeError(f"rot90(): argument 'dims' (position 2) must be tuple of ints, not {type(dims).__name__}")
        dims, n = tuple(dims), self.ndim
        if len(dims) != 2:
            raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
        if n < 2:
            raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
        wrapped = (_dim(dims[0], n), _dim(dims[1], n))
        if wrapped[0] == wrapped[1]:
            raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
        turn = Rot90Backward0.apply(self, k=k % 4, dims=wrapped)
        return shown(turn, k=k, dims=dims)

    def repeat(self, *args, repeats=None):
        """The tensor tiled ``repeats[i]`` times along dim i; extra leading repeats add new leading dims."""
        repeats = _int_args(args, repeats, "repeat", "repeats")
        if len(repeats) < self.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                               "tensor")
        padded = (1,) * (len(repeats) - self.ndim) + self._data.shape
        shape = [n * r for n, r in zip(padded, repeats)]
        for n in shape:
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {shape}")
        return RepeatBackward0.apply(self, repeats=repeats)

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        """Each entry (slice along ``dim``; of the flattened tensor without ``dim``) repeated ``repeats``
        times in place: [a, b] -> [a, a, b, b]. torch records an int count as unsqueeze, expand, clone and
        view, and a tensor of counts as one index_select."""
        x = self.flatten() if dim is None else self
        axis = 0 if dim is None else _dim(dim, self.ndim)
        if isinstance(repeats, Tensor):
            r = repeats._data
            if r.dtype.kind not in "iu":
                raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{kind_name(r)}'")
            if r.ndim > 1:
                raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
            n = x.shape[axis] if x.ndim else 1
            if r.size == 1:
                r = np.full(n, r.reshape(-1)[0])
            elif r.size != n:
                raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                                   f"{r.size} and input.size({axis}) = {n}")
            if (r < 0).any():
                raise RuntimeError("repeats can not be negative")
            return x.index_select(0 if dim is None else dim, Tensor._make(np.repeat(np.arange(n), r).astype(np.int64)))
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        shape = list(x.shape)
        wide = x.unsqueeze(axis + 1)
        wide = wide.expand(*shape[:axis + 1], repeats, *shape[axis + 1:])
        shape[axis] *= repeats
        return wide.clone().view(*shape)

    def roll(self, shifts, dims=None):
        """Entries shifted cyclically by ``shifts`` along ``dims`` (those leaving one end come back at the
        other); without ``dims`` the flattened tensor is rolled."""
        shifts = (shifts,) if isinstance(shifts, numbers.Integral) else tuple(shifts)
        dims = () if dims is None else (dims,) if isinstance(dims, numbers.Integral) else tuple(dims)
        if not shifts:
            raise RuntimeError("`shifts` required")
        if len(shifts) != len(dims) and not (len(shifts) == 1 and not dims):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
        for d in dims:
            _dim(d, self.ndim)
        return RollBackward0.apply(self, shifts=tuple(int(s) for s in shifts), dims=tuple(int(d) for d in dims))

    def tile(self, *args, dims=None):
        """The tensor repeated ``dims[i]`` times along dim i; fewer dims than the tensor has are padded with
        leading 1s (unlike ``repeat``): ``repeat`` after that, so RepeatBackward0."""
        reps = _int_args(args, dims, "tile", "dims") if args or dims is not None else ()
        return self.repeat(*((1,) * (self.ndim - len(reps)) + reps))

    def movedim(self, source, destination):
        """Dims moved from ``source`` to ``destination`` positions, the others keeping their order: a permute."""
        src = (source,) if isinstance(source, numbers.Integral) else tuple(source)
        dst = (destination,) if isinstance(destination, numbers.Integral) else tuple(destination)
        if len(src) != len(dst):
            raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
                               f"contain the same number of dims as destination ({list(dst)} dims)")
        n = self.ndim
        src, dst = [_dim(d, n) for d in src], [_dim(d, n) for d in dst]
        for name, ds in (("source", src), ("destination", dst)):
            if len(set(ds)) != len(ds):
                raise RuntimeError(f"movedim: repeated dim in `{name}` ({ds})")
        order = [-1] * n
        for s, d in zip(src, dst):
            order[d] = s
        rest = iter(d for d in range(n) if d not in src)
        order = [next(rest) if o == -1 else o for o in order]
        return PermuteBackward0.apply(self, dims=tuple(order))

    moveaxis = movedim

    def tensor_split(self, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                     tensor_indices_or_sections=None):
        """Pieces along ``dim``: ``n`` sections of nearly equal size (the first ones one longer), or cut at
        each of ``indices``. Each piece is its own SliceBackward0 view."""
        split = next((v for v in (indices_or_sections, sections, indices, tensor_indices_or_sections)
                      if v is not None), None)
        if isinstance(split, Tensor):
            s = split._data
            if s.ndim > 1:
                raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                                   f"one-dimensional tensor, but got a tensor with {s.ndim} dims")
            if s.dtype != np.int64:
                raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                                   f"{kind_name(s)}")
            split = int(s) if s.ndim == 0 else [int(i) for i in s]
        if self.ndim == 0:
            raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
        axis = _dim(dim, self.ndim)
        n = self.shape[axis]
        if isinstance(split, numbers.Integral):
            if split <= 0:
                raise RuntimeError(f"number of sections must be larger than 0, got {split}")
            size, extra = divmod(n, split)
            cuts = [i * size + min(i, extra) for i in range(1, split)]  # the first ``extra`` pieces one longer
        else:
            if not all(isinstance(i, numbers.Integral) for i in split):
                raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                                f"({type(split).__name__}), but expected one of:\n"
                                " * (tuple of ints indices, int dim = 0)\n"
                                " * (Tensor tensor_indices_or_sections, int dim = 0)\n * (int sections, int dim = 0)\n")
            cuts = [int(i) for i in split]
        bounds = [0, *cuts]
        ends = [*cuts, None]
        return tuple(SliceBackward0.apply(self, dim=axis, key=slice(a, b)) for a, b in zip(bounds, ends))

    def reshape(self, *shape):
        """A view with the new shape when the data allows one (ViewBackward0, or ReshapeAliasBackward0 for a
        tensor that is not contiguous), else a copy (CloneBackward0, then UnsafeViewBackward0), as in torch."""
        shape = _shape_args(shape)
        if self._data.flags.c_contiguous:
            return self.view(*shape)
        shape = self._resolve(shape)
        if _viewable(self._data, shape):
            return ReshapeAliasBackward0.apply(self, shape=shape)
        return UnsafeViewBackward0.apply(self.clone(), shape=shape)

    def view(self, *shape):
        shape = self._resolve(_shape_args(shape))
        if not self._data.flags.c_contiguous and not _viewable(self._data, shape):
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return ViewBackward0.apply(self, shape=shape)

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def _resolve(self, shape: tuple) -> tuple:
        """Replace one ``-1`` in a new shape and check the element count, with torch's message."""
        n = self._data.size
        if shape.count(-1) > 1:
            raise RuntimeError("only one dimension can be inferred")
        known = math.prod([s for s in shape if s != -1])
        if -1 in shape:
            if known == 0 or n % known:
                raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {n}")
            shape = tuple(n // known if s == -1 else s for s in shape)
        elif known != n:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {n}")
        return shape

    def flatten(self, start_dim=0, end_dim=-1):
        if self.ndim == 0:
            return self.reshape(1)
        s, e = _dim(start_dim, self.ndim), _dim(end_dim, self.ndim)
        if s == e:
            return self
        shape = self.shape
        return self.reshape(*shape[:s], -1, *shape[e + 1:])

    @property
    def T(self):
        if self.ndim != 2:
            _warn_once(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
                "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
                "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered "
                "internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
        return self.permute(*reversed(range(self.ndim)))

    @property
    def mT(self):
        return self._batch_transpose("mT", "This function is the identity in these cases. (Triggered internally at "
                                     "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4373.)")

    @property
    def mH(self):
        """The conjugate transpose of the last two dims: ``mT`` for real numbers, the only ones here."""
        return self._batch_transpose("mH", "Consider using x.conj(). (Triggered internally at "
                                     "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4382.)")

    def _batch_transpose(self, name: str, advice: str):
        """``mT``/``mH``: the last two dims swapped; a 0-D tensor is returned as it is, with torch's warning."""
        if self.ndim == 0:
            _warn_once(f"Tensor.{name} is deprecated on 0-D tensors. {advice}", 4)  # at the line that read .{name}
            return self
        if self.ndim < 2:
            raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got {self.ndim}-D "
                               "tensor.")
        return self.transpose(-2, -1)

    @property
    def H(self):
        """The conjugate transpose of a matrix: for real numbers its transpose (recorded as ``mH``'s)."""
        if self.ndim == 0:
            _warn_once("Tensor.H is deprecated on 0-D tensors. Consider using x.conj(). (Triggered internally at "
                       "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4335.)")
            return self  # conj() of real numbers: the tensor itself
        if self.ndim != 2:
            hint = " For batches of matrices, consider using tensor.mH" if self.ndim > 2 else ""
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor.{hint}")
        return self.transpose(-2, -1)

    def t(self):
        n = self._data.ndim
        if n > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {n}D")
        if n < 2:
            return TBackward0.apply(self, dim0=0, dim1=0)
        return TBackward0.apply(self, dim0=0, dim1=1)

    def transpose(self, dim0, dim1):
        n = self.ndim
        return shown(TransposeBackward0.apply(self, dim0=_dim(dim0, n), dim1=_dim(dim1, n)), dim0=dim0, dim1=dim1)

    swapaxes = swapdims = transpose

    def ravel(self):
        """The entries in one row, as torch writes it: ``contiguous().view(-1)`` (a copy first only when the
        memory is not in row order)."""
        return self.contiguous().view(-1)

    def fliplr(self):
        """The columns in reverse order: ``flip(1)``, for 2 or more dims."""
        if self.ndim < 2:
            raise RuntimeError("Input must be >= 2-d.")
        return self.flip(1)

    def flipud(self):
        """The rows in reverse order: ``flip(0)``, for 1 or more dims."""
        if self.ndim < 1:
            raise RuntimeError("Input must be >= 1-d.")
        return self.flip(0)

    def permute(self, *dims):
        dims = _shape_args(dims)
        if len(dims) != self.ndim:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               "length of the desired ordering of dimensions i.e. input.dim() = "
                               f"{self.ndim} is not equal to len(dims) = {len(dims)}")
        axes = tuple(_dim(d, self.ndim) for d in dims)
        if len(set(axes)) != len(axes):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return shown(PermuteBackward0.apply(self, dims=axes), dims=tuple(dims))

    def unsqueeze(self, dim):
        return shown(UnsqueezeBackward0.apply(self, dim=_dim(dim, self.ndim + 1)), dim=dim)

    def squeeze(self, dim=None):
        if dim is None:
            return SqueezeBackward0.apply(self)
        if isinstance(dim, int):
            return shown(SqueezeBackward1.apply(self, dims=(_dim(dim, self.ndim),)), dim=dim)
        return shown(SqueezeBackward2.apply(self, dims=tuple(_dim(d, self.ndim) for d in dim)), dim=tuple(dim))

    def _reshaped_in_place(self, reshape, *args):
        """``x.unsqueeze_(0)`` & co: ``x`` itself takes the shape of ``reshape(x, *args)`` (a view of its memory)
        and, when recorded, its node under the in-place name (UnsqueezeBackward1); its version counts one more."""
        if self._requires_grad and self._grad_fn is None and grad_mode._grad_enabled[0]:
            raise RuntimeError(LEAF_INPLACE)
        out = reshape(self, *args)
        self._data = out._data
        self._vbox[0] += 1
        if self._base is not None:  # a view's own new shape: its grad_fn (below) is current, not to be made again
            self._view_version = self._vbox[0]
        node = out._grad_fn
        if node is not None:
            node.__class__ = IN_PLACE_NODES[type(node)]
            self._grad_fn = node
            if self._retains_grad:
                node._retain_grad_of(self)
        return self

    def unsqueeze_(self, dim):
        return self._reshaped_in_place(Tensor.unsqueeze, dim)

    def squeeze_(self, dim=None):
        return self._reshaped_in_place(Tensor.squeeze, dim)

    def t_(self):
        if self.ndim > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
        return self._reshaped_in_place(Tensor.t)

    def transpose_(self, dim0, dim1):
        return self._reshaped_in_place(Tensor.transpose, dim0, dim1)

    def expand(self, *sizes):
        sizes = _shape_args(sizes)
        lead = len(sizes) - self.ndim
        if lead < 0:
            kind = LEGACY_NAMES[self._data.dtype.name]
            raise RuntimeError(f"expand(torch.{kind}{{{list(self.shape)}}}, size={list(sizes)}): the number of "
                               "sizes provided (" + str(len(sizes)) + ") must be greater or equal to the number of "
                               f"dimensions in the tensor ({self.ndim})")
        for i, s in enumerate(sizes[:lead]):
            if s == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
        shape = tuple(self.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
        for i, s in enumerate(self.shape):
            if s != 1 and s != shape[i + lead]:
                raise RuntimeError(f"The expanded size of the tensor ({shape[i + lead]}) must match the existing "
                                   f"size ({s}) at non-singleton dimension {i + lead}.  Target sizes: "
                                   f"{list(sizes)}.  Tensor sizes: {list(self.shape)}")
        return ExpandBackward0.apply(self, shape=shape)

    def broadcast_to(self, *size):
        """``expand(size)``: the tensor seen in a bigger shape, size-1 dims repeated without copying."""
        return self.expand(*size)

    def expand_as(self, other):
        return self.expand(other.shape)

    def narrow(self, dim, start, length):
        d = _dim(dim, self.ndim)
        n = self.shape[d]
        if not -n <= start <= n:
            raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but got {start})")
        if start < 0:
            start += n
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        if start + length > n:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
        return shown(SliceBackward0.apply(self, dim=d, key=slice(start, start + length)), dim=dim)

    def select(self, dim, index):
        d = _dim(dim, self.ndim)
        n = self.shape[d]
        if not -n <= index < n:
            raise IndexError(f"select(): index {index} out of range for tensor of size {list(self.shape)} at "
                             f"dimension {d}")
        return shown(SelectBackward0.apply(self, dim=d, key=index % n), dim=dim, index=index)

