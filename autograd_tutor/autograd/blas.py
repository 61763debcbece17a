"""Matrix products added in torch's order, where that order was measured.

torch hands a float32 matrix product to its BLAS (MKL). For two families of shapes its result is each entry's K
products, each rounded to float32, added one after another from the first, with no fused multiply-add:

    z[i, j] = ((a[i, 0] b[0, j] + a[i, 1] b[1, j]) + a[i, 2] b[2, j]) + ...

* short products, of at most ``SHORT`` terms, at most ``NARROW`` columns wide, any number of rows, any layouts:
  ``nn.Linear(3, 1)`` on a batch; of 4 terms too, except a row-major ``a`` times a column-major ``b`` (``x @ W.t()``,
  ``nn.Linear(4, n)``), which MKL adds in two lanes for 4 or 8 columns (the even terms, the odd terms, then the
  two: ``(p0 + p2) + (p1 + p3)``), in sequence for 1 row or at most 3 columns, and otherwise in an order not
  reproduced here;
* one row times a row-major matrix of at most ``WIDE`` columns and ``LONG`` terms: the weight gradient of a
  ``Linear`` with one output, ``grad.t() @ input``.

These orders were measured on an AMD EPYC (AVX-512), where MKL gives the same bits under torch's default, avx2 and
avx512 settings (``tests/conformance/test_conf_matmul_bits.py`` pins them). MKL picks its code by the processor's
maker too: on an Intel processor torch may add otherwise, and the test suite accepts there what torch printed on
the AMD (``tests/conformance/torch_elsewhere.json``). Elsewhere MKL blocks and fuses its sums in ways not
reproduced here, and NumPy's product (OpenBLAS) is used: it can differ from torch's in the last bit.

>>> import numpy as np
>>> a, b = np.float32([[0.1, 0.2, 0.3]]), np.float32([[1.], [1.], [1.]])
>>> float(matmul(a, b)[0, 0]), float((a[0, 0] + a[0, 1]) + a[0, 2])
(0.6000000238418579, 0.6000000238418579)
"""
from __future__ import annotations

import numpy as np

__all__ = ["matmul"]

#: the bounds of the shapes measured (see the module docstring)
SHORT, NARROW = 4, 8
WIDE, LONG = 64, 10_000

_FLOAT32 = np.dtype(np.float32)


def _row_major(m: np.ndarray) -> bool:
    return m.strides[1] == m.itemsize


def _column_major(m: np.ndarray) -> bool:
    return m.strides[0] == m.itemsize


def in_torch_order(a: np.ndarray, b: np.ndarray) -> bool:
    """Is ``a @ b`` one of the products whose order of additions was measured (see the module docstring)?"""
    if a.dtype != _FLOAT32 or b.dtype != _FLOAT32:
        return False
    (rows, terms), columns = a.shape, b.shape[1]
    if terms == SHORT and _row_major(a) and _column_major(b) and not _row_major(b) and rows > 1:
        return columns <= 3 or columns in (4, 8)  # (5 to 7 columns: another order, not measured)
    if terms <= SHORT and columns <= NARROW:
        return True
    return rows == 1 and columns <= WIDE and terms <= LONG and (_row_major(b) or not _column_major(b))


def matmul(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """``a @ b`` (plus ``bias``, broadcast over the rows, as ``addmm``) for two matrices: torch's bits where its
    order is known (``in_torch_order``), else NumPy's. Each sum starts from 0, or from the bias where MKL starts
    from it: when ``b`` is row-major (for one column and many rows: when ``a`` is column-major); else the bias is
    added last."""
    rows, terms = a.shape
    if rows > 1 and terms > SHORT or not in_torch_order(a, b):  # (the first test: a layer's usual product, quickly)
        return a.dot(b) if bias is None else a.dot(b) + bias
    # an operand neither row- nor column-major (an expanded gradient, a strided view) is copied first, row-major
    a, b = (m if _row_major(m) or _column_major(m) else np.ascontiguousarray(m) for m in (a, b))
    rows, columns = a.shape[0], b.shape[1]
    lanes = 2 if a.shape[1] == SHORT and columns > 3 and rows > 1 and not _row_major(b) and _row_major(a) else 1
    first = bias is not None and lanes == 1 and (_column_major(a) if columns == 1 < rows else _row_major(b))
    start = bias if first else _FLOAT32.type(0)
    with np.errstate(invalid="ignore", over="ignore"):  # inf * 0 is nan, as in torch, without NumPy's warning
        if rows == 1:  # one row: its K products as a (K, N) array, added down the columns one by one
            products = np.concatenate([np.broadcast_to(start, (1, columns)), a[0][:, None] * b])
            total = np.add.accumulate(products, axis=0)[-1:]
        elif lanes == 2:  # the even terms and the odd terms, each in sequence, then the two lanes
            even = a[:, 0:1] * b[0:1] + a[:, 2:3] * b[2:3]
            total = even + (a[:, 1:2] * b[1:2] + a[:, 3:4] * b[3:4])
        else:
            total = np.broadcast_to(start, (rows, columns))
            for k in range(a.shape[1]):
                total = total + a[:, k:k + 1] * b[k:k + 1]
        return total + bias if bias is not None and not first else total.copy() if a.shape[1] == 0 else total
