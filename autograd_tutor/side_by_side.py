"""Run one cell under real PyTorch (in a separate process) and under autograd_tutor (here), and compare.

The cell is a complete program that says ``import torch``: here that import gives autograd_tutor, in the other
process (``python``, by default this interpreter) real torch, so the learner's kernel never loads torch's few
hundred MB. Both runs start from a fresh namespace holding only the ``shared`` values (plain Python and NumPy,
copied by pickle), and both print into a string: the comparison shows the two outputs line by line, side by
side, with every line that differs marked ``≠``. Where torch is not installed, one line says so.

>>> result = side_by_side("import torch\\nprint(torch.tensor([1.0, 2.0]) * scale)", {"scale": 3.0})
>>> result.ours
'tensor([3., 6.])\\n'
>>> result.theirs in ('tensor([3., 6.])\\n', None)     # None where torch is not installed
True
"""
from __future__ import annotations

import builtins
import contextlib
import html
import importlib
import io
import pickle
import subprocess
import sys
import traceback

__all__ = ["SideBySide", "side_by_side"]

FILENAME = "<side_by_side cell>"

# Runs in the torch process: read (cell, shared) as a pickle on stdin, write (torch version, output) on stdout.
_RUNNER = r"""
import contextlib, importlib.util, io, pickle, sys, traceback
cell, shared = pickle.load(sys.stdin.buffer)
if importlib.util.find_spec("torch") is None:
    sys.exit(3)
import torch
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
    try:
        exec(compile(cell, "<side_by_side cell>", "exec"), {"__name__": "__main__", **shared})
    except Exception as error:
        print(traceback.format_exception_only(type(error), error)[-1], end="")
# str(): torch's version object would make the kernel import torch to unpickle it
sys.stdout.buffer.write(pickle.dumps((str(torch.__version__), out.getvalue())))
"""


def _torch_as_autograd_tutor(name, globals=None, locals=None, fromlist=(), level=0):
    """``__import__`` for the cell run here: ``torch`` and ``torch.<sub>`` are autograd_tutor's."""
    if level == 0 and (name == "torch" or name.startswith("torch.")):
        name = "autograd_tutor" + name[len("torch"):]
    return importlib.__import__(name, globals, locals, fromlist, level)


def _run(cell: str, namespace: dict) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            exec(compile(cell, FILENAME, "exec"), namespace)
        except Exception as error:
            print(traceback.format_exception_only(type(error), error)[-1], end="")
    return out.getvalue()


def _payload(cell: str, shared: dict) -> bytes:
    for name, value in shared.items():
        if type(value).__module__.startswith("autograd_tutor"):
            raise TypeError(f"side_by_side: {name!r} is an autograd_tutor {type(value).__name__}, which the torch "
                            f"process cannot read; share plain data instead (e.g. {name}.detach().numpy()) and "
                            "build the tensor inside the cell")
    try:
        return pickle.dumps((cell, shared))
    except Exception as error:
        raise TypeError(f"side_by_side: the shared values must be plain Python or NumPy data that pickle can copy "
                        f"({error})") from None


class SideBySide:
    """The two outputs of one cell: ``ours`` (autograd_tutor), ``theirs`` (torch, or None with a ``note``)."""

    def __init__(self, ours: str, theirs: str | None, torch_version: str | None = None, note: str = "") -> None:
        self.ours, self.theirs, self.torch_version, self.note = ours, theirs, torch_version, note

    def rows(self) -> list[tuple[bool, str, str]]:
        """``(same, our line, torch's line)`` for each line, the shorter output padded with ``""``."""
        ours, theirs = self.ours.splitlines(), (self.theirs or "").splitlines()
        ours += [""] * (len(theirs) - len(ours))
        theirs += [""] * (len(ours) - len(theirs))
        return [(a == b, a, b) for a, b in zip(ours, theirs)]

    @property
    def differing(self) -> int:
        return sum(not same for same, _, _ in self.rows())

    def summary(self) -> str:
        if self.theirs is None:
            return self.note
        rows = self.rows()
        if not self.differing:
            return "the one line agrees" if len(rows) == 1 else f"all {len(rows)} lines agree"
        return f"{self.differing} of {len(rows)} lines differ (marked ≠)"

    def __repr__(self) -> str:
        if self.theirs is None:
            return f"autograd_tutor (this kernel):\n{self.ours}{self.note}"
        width = max([len("autograd_tutor (this kernel)")] + [len(a) for _, a, _ in self.rows()])
        lines = [f"  {'autograd_tutor (this kernel)':<{width}} | torch {self.torch_version} (separate process)"]
        lines += [f"{'  ' if same else '≠ '}{a:<{width}} | {b}" for same, a, b in self.rows()]
        return "\n".join(lines + [self.summary()])

    def _repr_html_(self) -> str:
        pre = "<pre style='margin:0'>{}</pre>"
        if self.theirs is None:
            return pre.format(html.escape(self.ours)) + f"<p><em>{html.escape(self.note)}</em></p>"
        cells = "".join(
            f"<tr{'' if same else ' class=differs style=background:#fde0c8;color:#222'}><td>{'' if same else '≠'}</td>"
            f"<td>{pre.format(html.escape(a))}</td><td>{pre.format(html.escape(b))}</td></tr>"
            for same, a, b in self.rows())
        return (f"<table class='side-by-side'><thead><tr><th></th><th>autograd_tutor (this kernel)</th>"
                f"<th>torch {html.escape(self.torch_version)} (separate process)</th></tr></thead>"
                f"<tbody>{cells}</tbody></table><p>{html.escape(self.summary())}</p>")


def side_by_side(cell: str, shared: dict | None = None, python: str | None = None,
                 timeout: float = 300) -> SideBySide:
    """Run ``cell`` here with ``import torch`` giving autograd_tutor, and under real torch with ``python``."""
    shared = dict(shared or {})
    payload = _payload(cell, shared)
    builtins_here = dict(vars(builtins), __import__=_torch_as_autograd_tutor)
    ours = _run(cell, {"__name__": "__main__", "__builtins__": builtins_here, **pickle.loads(payload)[1]})
    python = python or sys.executable
    try:
        done = subprocess.run([python, "-c", _RUNNER], input=payload, capture_output=True, timeout=timeout)
    except FileNotFoundError:
        return SideBySide(ours, None, note=f"No Python at {python}: only autograd_tutor's output is shown.")
    except OSError as error:          # e.g. in JupyterLite, where no process can be started
        return SideBySide(ours, None, note=f"No separate process can be started here ({error.strerror}): only "
                                           "autograd_tutor's output is shown.")
    except subprocess.TimeoutExpired:
        return SideBySide(ours, None, note=f"The torch run took longer than {timeout:g} s and was stopped.")
    if done.returncode == 3:
        return SideBySide(ours, None, note="PyTorch is not installed here, so only autograd_tutor's output is "
                                           "shown (pip install torch to compare side by side).")
    if done.returncode != 0:
        last = (done.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        return SideBySide(ours, None, note=f"The torch process failed: {last}")
    version, theirs = pickle.loads(done.stdout)
    return SideBySide(ours, theirs, torch_version=version)
