"""Print tensors exactly the way PyTorch does.

This is a NumPy port of ``torch/_tensor_str.py``. Printing happens in two steps:

1. A ``_Formatter`` looks at every value once and picks one notation for the
   whole tensor (integer-like ``3.``, fixed ``0.1000`` or scientific
   ``1.0000e-05``) and one width, so that columns line up.
2. The nested brackets are built recursively: a 1-D slice is a row of padded
   values wrapped at ``linewidth``; each higher dimension joins its slices
   with ``,`` plus one more newline per extra dimension.

Big tensors (more than ``threshold`` elements) show only ``edgeitems``
values at each end of every dimension, with ``...`` in between.

>>> import numpy as np
>>> print(format_tensor(np.array([[1.0, 2.5], [-3.0, 4.0]], dtype=np.float32)))
tensor([[ 1.0000,  2.5000],
        [-3.0000,  4.0000]])
>>> print(format_tensor(np.array(3.0), ["requires_grad=True"]))
tensor(3., dtype=torch.float64, requires_grad=True)
"""

import math

import numpy as np

__all__ = ["format_tensor", "set_printoptions", "get_printoptions"]

_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}

_OPTS = {**_PROFILES["default"], "sci_mode": None}

_TORCH_DTYPE_NAMES = {
    np.dtype(np.float16): "torch.float16",
    np.dtype(np.float32): "torch.float32",
    np.dtype(np.float64): "torch.float64",
    np.dtype(np.int8): "torch.int8",
    np.dtype(np.int16): "torch.int16",
    np.dtype(np.int32): "torch.int32",
    np.dtype(np.int64): "torch.int64",
    np.dtype(np.uint8): "torch.uint8",
    np.dtype(np.bool_): "torch.bool",
}

# torch leaves the dtype out of a non-empty tensor's repr for these dtypes.
_IMPLIED_DTYPES = (np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_))


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Set printing options, like ``torch.set_printoptions``.

    ``profile`` ('default', 'short' or 'full') resets the four numeric options
    first; the explicit arguments then override it. ``sci_mode`` is always
    replaced: None lets each tensor choose, True/False forces the notation.
    """
    if profile is not None:
        _OPTS.update(_PROFILES[profile])
    if precision is not None:
        _OPTS["precision"] = precision
    if threshold is not None:
        _OPTS["threshold"] = threshold
    if edgeitems is not None:
        _OPTS["edgeitems"] = edgeitems
    if linewidth is not None:
        _OPTS["linewidth"] = linewidth
    _OPTS["sci_mode"] = sci_mode


def get_printoptions():
    """Return a copy of the current printing options."""
    return dict(_OPTS)


class _Formatter:
    """Chooses one notation and one width for all values of a tensor."""

    def __init__(self, array):
        self.floating_dtype = array.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        values = array.reshape(-1)

        if not self.floating_dtype:
            for value in values.tolist():
                self.max_width = max(self.max_width, len(str(value)))
        else:
            nonzero_finite = values[np.isfinite(values) & (values != 0)]
            if nonzero_finite.size == 0:
                # No number to measure: keep the defaults (even sci_mode's).
                return

            # Like torch, measure magnitudes in float64.
            magnitudes = np.abs(nonzero_finite).astype(np.float64)
            smallest = float(magnitudes.min())
            largest = float(magnitudes.max())
            precision = _OPTS["precision"]

            self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
            if _OPTS["sci_mode"] is None:
                self.sci_mode = (
                    largest / smallest > 1000.0
                    or largest > 1.0e8
                    or smallest < 1.0e-4
                )
            else:
                self.sci_mode = _OPTS["sci_mode"]

            for value in nonzero_finite.astype(np.float64).tolist():
                if self.sci_mode:
                    width = len(f"{value:.{precision}e}")
                elif self.int_mode:
                    # All values are whole numbers: "3." instead of "3.0000".
                    width = len(f"{value:.0f}") + 1
                else:
                    width = len(f"{value:.{precision}f}")
                self.max_width = max(self.max_width, width)

    def format(self, value):
        """Format one Python number, right-aligned to the common width."""
        precision = _OPTS["precision"]
        if self.floating_dtype:
            if self.sci_mode:
                text = f"{value:{self.max_width}.{precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{precision}f}"
        else:
            text = str(value)
        return text.rjust(self.max_width)


def _vector_str(array, indent, summarize, formatter):
    """Format a 1-D array: padded values, wrapped to fit ``linewidth``."""
    element_length = formatter.max_width + 2  # the value plus ", "
    elements_per_line = max(
        1, int(math.floor((_OPTS["linewidth"] - indent) / element_length))
    )
    edgeitems = _OPTS["edgeitems"]

    if summarize and not edgeitems:  # nothing to show but the ellipsis
        data = ["..."]
    elif summarize and len(array) > 2 * edgeitems:
        data = (
            [formatter.format(value) for value in array[:edgeitems].tolist()]
            + [" ..."]
            + [formatter.format(value) for value in array[-edgeitems:].tolist()]
        )
    else:
        data = [formatter.format(value) for value in array.tolist()]

    lines = [
        ", ".join(data[i : i + elements_per_line])
        for i in range(0, len(data), elements_per_line)
    ]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(array, indent, summarize, formatter):
    """Format an array of any rank by recursing over its first dimension."""
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, formatter)

    edgeitems = _OPTS["edgeitems"]
    if summarize and len(array) > 2 * edgeitems:
        slices = (
            [
                _tensor_str_with_formatter(array[i], indent + 1, summarize, formatter)
                for i in range(edgeitems)
            ]
            + ["..."]
            + [
                _tensor_str_with_formatter(array[i], indent + 1, summarize, formatter)
                for i in range(len(array) - edgeitems, len(array))
            ]
        )
    else:
        slices = [
            _tensor_str_with_formatter(array[i], indent + 1, summarize, formatter)
            for i in range(len(array))
        ]

    # A 2-D tensor puts rows on consecutive lines; each extra dimension adds
    # one blank line between its slices.
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _summarized_data(array):
    """Keep only the values a summarized print shows, so the formatter ignores the rest."""
    edgeitems = _OPTS["edgeitems"]
    if array.ndim == 0:
        return array
    if array.ndim == 1:
        if len(array) > 2 * edgeitems:
            return np.concatenate((array[:edgeitems], array[-edgeitems:]))
        return array
    if not edgeitems:
        return np.empty((0,) * array.ndim, dtype=array.dtype)
    if len(array) > 2 * edgeitems:
        start = [array[i] for i in range(edgeitems)]
        end = [array[i] for i in range(len(array) - edgeitems, len(array))]
        return np.stack([_summarized_data(x) for x in start + end])
    return np.stack([_summarized_data(x) for x in array])


def _tensor_str(array, indent):
    """Format the values of a non-empty array (the part between the brackets)."""
    summarize = array.size > _OPTS["threshold"]
    formatter = _Formatter(_summarized_data(array) if summarize else array)
    return _tensor_str_with_formatter(array, indent, summarize, formatter)


def _add_suffixes(tensor_str, suffixes, indent):
    """Append ", suffix" items, moving one to a new line when it would pass linewidth."""
    parts = [tensor_str]
    # torch's own arithmetic: this counts two more characters than the last line has.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > _OPTS["linewidth"]:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def format_tensor(array, suffixes=(), prefix="tensor("):
    """Return torch's repr for a tensor whose values are ``array``.

    torch's own suffixes come first (``size=...`` for empty tensors that are
    not 1-D or when ``edgeitems`` is 0, then ``dtype=...`` when the dtype is
    not implied), followed by
    the caller's ``suffixes`` such as ``"requires_grad=True"``.
    """
    array = np.asarray(array)
    indent = len(prefix)
    all_suffixes = []
    if array.size == 0:
        # Explicitly print the shape if it is not (0,), to match NumPy.
        if array.ndim != 1:
            all_suffixes.append(f"size={tuple(array.shape)}")
        # No values to tell ints from floats, so only float32 goes unnamed.
        if array.dtype != np.float32:
            all_suffixes.append("dtype=" + _TORCH_DTYPE_NAMES[array.dtype])
        tensor_str = "[]"
    else:
        if not _OPTS["edgeitems"]:  # the values print as "[...]", so show the shape
            all_suffixes.append(f"size={tuple(array.shape)}")
        if array.dtype not in _IMPLIED_DTYPES:
            all_suffixes.append("dtype=" + _TORCH_DTYPE_NAMES[array.dtype])
        tensor_str = _tensor_str(array, indent)
    all_suffixes.extend(suffixes)
    return _add_suffixes(prefix + tensor_str, all_suffixes, indent)
