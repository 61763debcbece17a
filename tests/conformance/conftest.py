"""The conformance harness: run one program text against torch and against autograd_tutor, compare transcripts.

A case is a small Python program that uses the name ``torch``. :func:`run` executes it twice, once with
``torch`` bound to real PyTorch and once to ``autograd_tutor``, and records a *transcript*:

* everything the program prints (``print`` is captured; tensor reprs, ``f"{t}"``, node reprs ...);
* every warning, inline where it happened, as ``[Category] message``;
* ``with expect(): stmt`` prints ``-> ExcType: message`` or ``-> (no exception)``, and swallows the error;
* an exception that escapes the program ends the transcript with ``!! ExcType: message``.

Object addresses (``0x7f...``) are replaced by ``0x?`` before the transcripts are compared character for
character. A stack printed in a warning (anomaly mode's forward traceback) keeps only the program's frames
(``File "<case>"``): the harness's own frames above them differ between the two runs. Helpers available to
every program:

* ``expect()``: see above.
* ``val(*tensors)``: prints each tensor's dtype and shape and records its values; the two runs' values must
  agree with ``np.allclose`` (float32 tolerances, NaNs equal), so results that differ in the last bit pass.
* ``graph(t)``: prints the whole backward graph below ``t`` (or below a node): each node once, numbered in
  depth-first order, with ``type(node).__name__``, ``node.name()``, its ``next_functions`` as
  ``(#k, input_nr)`` or ``(None, 0)``, and for an AccumulateGrad the name of its ``.variable``, found among the
  program's variables by identity. Shared nodes (the same AccumulateGrad reached twice) print as the same number.
* ``name_of(obj)``: the program variable that *is* ``obj``.

Torch's own transcript depends on the processor's kernels (softmax's last bits, gelu's erf, ``randn``'s
vector path): where ours differs from this processor's torch, :func:`run` asks ``kernels.py`` what torch
prints under its other kernel settings and accepts ours if it is one of them (see that module for the rule).
"""
from __future__ import annotations

import difflib
import importlib.util
import pathlib
import re
import sys
import textwrap
import types
import warnings

import numpy as np
import pytest

ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
FILE_FRAME = re.compile(r'  File "[^<"][^"]*", line \d+, in .*\n(?:    .*\n)?')


class _Expect:
    def __init__(self, write) -> None:
        self.write = write

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb) -> bool:
        if kind is None:
            self.write("-> (no exception)\n")
            return False
        if not issubclass(kind, Exception):
            return False
        self.write(f"-> {kind.__name__}: {exc}\n")
        return True


def _transcript(module, program: str) -> tuple[str, list]:
    """Run ``program`` with ``torch`` = ``module``; return its normalised transcript and recorded values."""
    out: list[str] = []
    values: list = []
    env: dict = {}

    def write(text: str) -> None:
        out.append(text)

    def _print(*args, sep=" ", end="\n", file=None, flush=False) -> None:
        write(sep.join(str(a) for a in args) + end)

    def name_of(obj) -> str:
        for k, v in env.items():
            if v is obj and not k.startswith("_"):
                return k
        return "?"

    def val(*tensors) -> None:
        for t in tensors:
            arr = np.array(t.detach().numpy(), copy=True)
            values.append(arr)
            write(f"val {t.dtype} {tuple(t.shape)}\n")

    def graph(root) -> None:
        node = root.grad_fn if isinstance(root, module.Tensor) else root
        if node is None:
            write("graph: no grad_fn\n")
            return
        ids: dict = {}
        order: list = []
        stack = [node]
        while stack:  # depth-first, children in next_functions order
            n = stack.pop()
            if id(n) in ids:
                continue
            ids[id(n)] = len(order)
            order.append(n)
            stack.extend(c for c, _ in reversed(n.next_functions) if c is not None and id(c) not in ids)
        for i, n in enumerate(order):
            edges = ", ".join("(None, 0)" if c is None else f"(#{ids[id(c)]}, {nr})" for c, nr in n.next_functions)
            extra = f" variable={name_of(n.variable)}" if hasattr(n, "variable") else ""
            write(f"#{i} {type(n).__name__} {n.name()} [{edges}]{extra}\n")

    env.update(torch=module, np=np, print=_print, expect=lambda: _Expect(write), val=val, graph=graph,
               name_of=name_of, __name__="__conformance__")
    was_enabled = module.is_grad_enabled()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = lambda message, category, *a, **k: write(
                f"[{category.__name__}] {FILE_FRAME.sub('', str(message))}\n")
            exec(compile(textwrap.dedent(program), "<case>", "exec"), env)
    except Exception as exc:  # the transcript records it; both runs must fail the same way
        write(f"!! {type(exc).__name__}: {exc}\n")
    finally:
        module.set_grad_enabled(was_enabled)
    return ADDRESS.sub("0x?", "".join(out)), values


_primed: set = set()


def _prime(module) -> None:
    """Use up the warnings both libraries give only once per process (``backward(create_graph=True)``,
    ``float()`` of a tensor that requires grad, ``.T`` of a vector, ``.H`` / ``.mT`` / ``.mH`` of a 0-D tensor, ``padding='same'`` with an even kernel), so
    that no transcript depends on which test ran first; test_conf_fresh.py checks them in fresh interpreters."""
    if module.__name__ not in _primed:
        _primed.add(module.__name__)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = module.tensor(1., requires_grad=True)
            (x * x).backward(create_graph=True)
            float(x)
            module.ones(2, requires_grad=True).T
            x.H, x.mT, x.mH
            module.nn.functional.conv2d(module.ones(1, 1, 2, 2), module.ones(1, 1, 2, 2), padding="same")


def _kernels():
    """``kernels.py`` beside this file, loaded once (both harness copies, this one and conformance_nn's, share it)."""
    if "conformance_kernels" not in sys.modules:
        spec = importlib.util.spec_from_file_location("conformance_kernels",
                                                      pathlib.Path(__file__).with_name("kernels.py"))
        sys.modules["conformance_kernels"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules["conformance_kernels"])
    return sys.modules["conformance_kernels"]


def run(program: str) -> None:
    """Assert that ``program`` behaves in autograd_tutor as in torch, on this processor or on another.

    Where the transcripts differ, torch's side is run again under its other kernel settings (``kernels.py``),
    and ours passes if it is what torch prints under one of them, or inside their measured spread."""
    torch = pytest.importorskip("torch")
    import autograd_tutor
    _prime(torch)
    _prime(autograd_tutor)
    expected, expected_values = _transcript(torch, program)
    actual, actual_values = _transcript(autograd_tutor, program)
    variants = {"this processor": (expected, expected_values)}
    if actual != expected or _values_differ(actual_values, expected_values) or kernels.RECORDING:
        variants.update(kernels.live_variants(program))
        mkl = kernels.RECORDING and kernels.calls_mkl(torch, lambda: _transcript(torch, program))
        kernels.note(program, variants, _values_differ, actual, mkl)
    measured = list(variants.values()) + list(kernels.recorded(program).values())
    if not kernels.spread_accepts(actual, [text for text, _ in measured] + kernels.elsewhere(program)):
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "torch",
                                            "autograd_tutor"))
        pytest.fail(f"transcripts differ (torch measured under: {', '.join(variants)}; recorded: "
                    f"{', '.join(kernels.recorded(program)) or 'none'}):\n{diff}", pytrace=False)
    failures = [_values_differ(actual_values, values) for _, values in measured]
    if all(failures):
        pytest.fail(failures[0], pytrace=False)


def _values_differ(actual: list, expected: list) -> str:
    """Why the values ``val()`` recorded differ (float32 tolerances, NaNs equal), or '' when they agree."""
    if len(actual) != len(expected):
        return f"{len(actual)} values recorded, torch recorded {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        if a.dtype != e.dtype or a.shape != e.shape:
            return f"val #{i}: {a.dtype}{a.shape} vs {e.dtype}{e.shape}"
        if not np.allclose(a, e, rtol=1e-5, atol=1e-6, equal_nan=True):
            return f"val #{i} differs:\n{a}\nvs torch\n{e}"
    return ""


kernels = _kernels()




@pytest.fixture
def harness():
    """The harness's own parts, for its tests (pytest may import this file under another name than ``conftest``)."""
    return types.SimpleNamespace(transcript=_transcript, values_differ=_values_differ)


@pytest.fixture
def conform():
    """The harness as a fixture: ``conform(program)``."""
    return run
