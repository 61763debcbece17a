"""Lesson 7's exercise: the gradient of a convolution's kernel, by hand, checked against autograd.

A kernel weight is used at every output position, so its gradient is a fan-in sum over the positions: with
``g = grad_output`` (the gradient arriving at the output),

    dL/dw[p, q] = sum over i, j of g[i, j] * image[i + p, j + q]

:func:`check_kernel_grad` calls *your* ``kernel_grad(image, grad_output)`` (NumPy arrays; it returns the
kernel's gradient) on two cases, a 4x4 image with a 2x2 kernel and a 5x5 image with a 3x3 kernel, each with a
``grad_output`` that is not all ones, and compares it with the ``.grad`` autograd gives the kernel of
``F.conv2d`` after ``y.backward(grad_output)``. Displayed, the result is a heatmap of the kernel: each entry
ticked or marked with what autograd got and what you got.

>>> import numpy as np
>>> def kernel_grad(image, grad_output):
...     k = image.shape[0] - grad_output.shape[0] + 1
...     return sum(grad_output[i, j] * image[i:i + k, j:j + k]
...                for i in range(grad_output.shape[0]) for j in range(grad_output.shape[1]))
>>> check_kernel_grad(kernel_grad).ok
True
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from ..autograd.tensor import Tensor
from ..nn import functional as F
from ..quiz.generate import values_text
from .hooks import _html, _your_error

__all__ = ["check_kernel_grad", "KernelCheck"]

#: The two cases checked, as (image, grad_output): small integers, so that the sums read easily.
CASES = (
    (np.arange(16.0).reshape(4, 4), np.array([[1.0, 0.0, -1.0], [2.0, 1.0, 0.0], [0.0, 0.5, 1.0]])),
    (np.array([[1.0, 0.0, 2.0, -1.0, 3.0], [0.0, 1.0, 1.0, 2.0, 0.0], [2.0, -2.0, 0.0, 1.0, 1.0],
               [1.0, 3.0, -1.0, 0.0, 2.0], [0.0, 1.0, 2.0, 1.0, -1.0]]),
     np.array([[1.0, -1.0, 0.0], [0.5, 2.0, 1.0], [0.0, 1.0, -2.0]])),
)


@dataclass(frozen=True)
class KernelCheck:
    """What :func:`check_kernel_grad` found for the first case that is wrong (else the first): the image,
    ``grad_output``, the kernel's gradient from autograd (``expected``) and yours (``got``, None if there is
    none), ``wrong`` (a boolean grid), and ``mistake`` (one sentence, "" when the values tell it all)."""
    image: np.ndarray
    grad_output: np.ndarray
    expected: np.ndarray
    got: Optional[np.ndarray]
    mistake: str = ""

    @property
    def wrong(self) -> np.ndarray:
        if self.got is None or self.got.shape != self.expected.shape:
            return np.ones(self.expected.shape, dtype=bool)
        return ~np.isclose(self.got, self.expected, rtol=1e-4, atol=1e-5)

    @property
    def ok(self) -> bool:
        return not self.mistake and not self.wrong.any()

    @property
    def verdict(self) -> str:
        if self.ok:
            return ("Every kernel entry matches autograd's w.grad, on both images. Each entry is a sum "
                    f"over {self.grad_output.size} positions: the fan-in of a shared weight. Next: add the bias's "
                    "gradient, the sum of grad_output.")
        if self.mistake:
            return self.mistake
        cells = [f"[{p}, {q}]" for p, q in zip(*np.nonzero(self.wrong))]
        return (f"Entries {', '.join(cells)} of your kernel gradient differ from autograd's (the marked cells): "
                "for entry [p, q], add grad_output[i, j] * image[i + p, j + q] over every position (i, j).")

    def __str__(self) -> str:
        lines = [f"check_kernel_grad: {'right' if self.ok else 'not yet'}: {self.verdict}",
                 f"  autograd's w.grad: {values_text(self.expected, most=9)}",
                 f"  yours:             {'(none)' if self.got is None else values_text(self.got, most=9)}"]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        (k, _), (n, _) = self.expected.shape, self.image.shape
        return _html(self.ok, "Check of your kernel gradient", self.verdict, _heatmap(self),
                     f"Each cell is one entry of the {k}\u00d7{k} kernel's gradient, for a {n}\u00d7{n} image: "
                     "autograd's value, then yours; the darker a wrong cell, the further off it is.", _GRID_STYLE)


def check_kernel_grad(kernel_grad: Callable) -> KernelCheck:
    """Call ``kernel_grad(image, grad_output)`` on each case of :data:`CASES` and compare what it returns with
    the kernel's ``.grad`` from autograd; the result names the first mistake, or says it is right."""
    if not callable(kernel_grad):
        raise TypeError("check_kernel_grad expects your function kernel_grad(image, grad_output) itself (not "
                        f"its result), got {type(kernel_grad).__name__}")
    first = None
    for n, (image, g) in enumerate(CASES):
        expected = _autograd_kernel_grad(image, g)
        try:
            returned = kernel_grad(image.copy(), g.copy())
        except Exception as exc:
            said = "" if n == 0 else " (for the 5x5 image: take the sizes from the arrays' shapes)"
            return KernelCheck(image, g, expected, None, _your_error(exc, kernel_grad) + said)
        got, problem = _as_grid(returned, expected.shape)
        check = KernelCheck(image, g, expected, got, problem or _known_mistake(got, expected, image, g))
        if not check.ok:
            if n > 0 and (not check.mistake or got is not None and got.shape != expected.shape):
                check = KernelCheck(image, g, expected, got, (
                    "Right for the 4x4 image with a 2x2 kernel, but not for a 5x5 image with a 3x3 kernel (the "
                    "marked cells): take the sizes from the arrays' shapes (kernel size = image size - "
                    "grad_output size + 1), not fixed numbers."))
            return check
        first = first or check
    return first


def _autograd_kernel_grad(image: np.ndarray, g: np.ndarray) -> np.ndarray:
    """The kernel's ``.grad`` after ``conv2d(image, kernel).backward(g)``, computed by the engine."""
    k = image.shape[0] - g.shape[0] + 1
    x = Tensor._make(image[None, None].astype(np.float64))
    w = Tensor._make(np.ones((1, 1, k, k))).requires_grad_()
    F.conv2d(x, w).backward(Tensor._make(g[None, None].astype(np.float64)))
    return w.grad.numpy()[0, 0].copy()


def _as_grid(returned, shape: tuple):
    """Your result as a float array, or None and the sentence that says what is wrong with it."""
    if returned is None:
        return None, (f"Your function returned None: return the kernel's gradient, an array of the kernel's "
                      f"shape {shape}.")
    if isinstance(returned, Tensor):
        returned = returned.detach().numpy()
    try:
        got = np.asarray(returned, dtype=np.float64)
    except (TypeError, ValueError):
        return None, f"Your function returned {type(returned).__name__}: return a NumPy array of shape {shape}."
    if got.shape != shape:
        return got, (f"Your function returned shape {got.shape}, but the kernel is {shape}: one gradient per "
                     "kernel entry (kernel size = image size - grad_output size + 1).")
    return got, ""


def _known_mistake(got: np.ndarray, expected: np.ndarray, image: np.ndarray, g: np.ndarray) -> str:
    """The sentences for the usual slips, recognised by recomputing them."""
    close = lambda a: np.allclose(got, a, rtol=1e-4, atol=1e-5)  # noqa: E731
    if close(expected):
        return ""
    if close(_autograd_kernel_grad(image, np.ones_like(g))):
        return ("You added up the patches, but each position's patch counts as much as the gradient arriving "
                "there: multiply the patch at (i, j) by grad_output[i, j].")
    if close(expected.T):
        return "Rows and columns are swapped: entry [p, q] pairs with image[i + p, j + q] (p moves down the rows)."
    if close(expected[::-1, ::-1]):
        return ("Your kernel gradient is flipped: conv2d slides the kernel without flipping it, so entry [p, q] "
                "meets image[i + p, j + q], not image[i - p, j - q].")
    return ""


def _heatmap(check: KernelCheck) -> str:
    """The kernel's gradient as a grid: per cell autograd's value and yours; wrong cells shaded by how far
    off they are."""
    rows, cols = check.expected.shape
    wide, tall, pad = 136, 100, 10
    w, h = pad * 2 + cols * wide, pad * 2 + rows * tall
    got = check.got if check.got is not None and check.got.shape == check.expected.shape else None
    scale = float(np.abs(check.expected).max()) or 1.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="{html.escape(check.verdict, quote=True)}">']
    for p in range(rows):
        for q in range(cols):
            x, y = pad + q * wide, pad + p * tall
            bad = bool(check.wrong[p, q])
            tone = "is-wrong" if bad else "is-right"
            off = 1.0 if got is None else min(1.0, abs(got[p, q] - check.expected[p, q]) / scale)
            mine = "?" if got is None else values_text(got[p, q] + 0.0)
            parts.append(
                f'<rect class="cell {tone}" x="{x + 2}" y="{y + 2}" width="{wide - 4}" height="{tall - 4}" rx="6" '
                f'style="fill-opacity:{0.12 + 0.33 * off * bad:.2f}"/>'
                f'<text x="{x + 10}" y="{y + 24}">[{p}, {q}] {"&#10007;" if bad else "&#10003;"}</text>'
                f'<text x="{x + 10}" y="{y + 52}">autograd {values_text(check.expected[p, q] + 0.0)}</text>'
                f'<text class="{tone}" x="{x + 10}" y="{y + 78}">yours {mine}</text>')
    parts.append("</svg>")
    return "".join(parts)


_GRID_STYLE = """<style>
.agt-check rect.cell.is-right { fill: var(--c-good); stroke: var(--c-good); stroke-width: 2; }
.agt-check rect.cell.is-wrong { fill: var(--c-bad); stroke: var(--c-bad); stroke-width: 3; stroke-dasharray: 7 4; }
</style>"""
