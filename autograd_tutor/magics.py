"""The IPython extension: ``%load_ext autograd_tutor``.

* ``%%autograd`` runs the cell, then shows the graph it built, with the backward replay when the cell called
  ``backward()``: ``%%autograd --max-nodes 200`` sets the node budget.
* ``%%side_by_side NAME ...`` runs the cell (a program that says ``import torch``) twice: under real PyTorch in a
  separate process and under autograd_tutor here, with the kernel's variables ``NAME ...`` copied into both, and
  shows the two outputs side by side with the differing lines marked (``--python PATH`` picks the torch
  interpreter). The kernel never imports torch; where torch is absent, one line says so.
* ``%autograd_quiz NAME`` shows the quiz of a bank (``%autograd_quiz lesson1``); without a name it lists the banks.

Loading the extension imports the widgets (ipywidgets, anywidget); ``import autograd_tutor`` alone never does.
"""
from __future__ import annotations

import argparse
import shlex

from IPython.core.magic import Magics, cell_magic, line_magic, magics_class

__all__ = ["AutogradMagics", "load_ipython_extension"]


def _cell_options(line: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="%%autograd", add_help=False)
    parser.add_argument("--max-nodes", type=int, default=400)
    parser.add_argument("--title", default=None)
    try:
        return parser.parse_args(shlex.split(line))
    except SystemExit:
        raise ValueError(f"%%autograd: could not read options {line!r}; use e.g. %%autograd --max-nodes 200 "
                         "--title 'My graph'") from None


def _side_by_side_options(line: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="%%side_by_side", add_help=False)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--python", default=None)
    parser.add_argument("--timeout", type=float, default=300)
    try:
        return parser.parse_args(shlex.split(line))
    except SystemExit:
        raise ValueError(f"%%side_by_side: could not read options {line!r}; use e.g. %%side_by_side points labels "
                         "--python /path/to/python") from None


@magics_class
class AutogradMagics(Magics):
    """``%%autograd``, ``%%side_by_side`` and ``%autograd_quiz``."""

    @cell_magic
    def autograd(self, line: str, cell: str) -> None:
        """Run the cell, then display a GraphWidget of what it built and backpropagated."""
        from IPython.display import display

        from .widgets import watch
        options = _cell_options(line)
        with watch(max_nodes=options.max_nodes, title=options.title) as graph:
            self.shell.run_cell(cell, store_history=False)
        display(graph)

    @cell_magic
    def side_by_side(self, line: str, cell: str):
        """Run the cell under torch (another process) and autograd_tutor (here); return the comparison."""
        from .side_by_side import side_by_side
        options = _side_by_side_options(line)
        missing = [name for name in options.names if name not in self.shell.user_ns]
        if missing:
            raise NameError(f"%%side_by_side: name {missing[0]!r} is not defined in this kernel; list the variables "
                            "the cell reads after %%side_by_side")
        shared = {name: self.shell.user_ns[name] for name in options.names}
        return side_by_side(cell, shared, python=options.python, timeout=options.timeout)

    @line_magic
    def autograd_quiz(self, line: str):
        """Return the QuizWidget of the bank named on the line (``%autograd_quiz lesson1``)."""
        from .quiz import bank_names
        from .widgets import QuizWidget
        name = line.strip()
        if not name:
            print("Quiz banks:", ", ".join(bank_names()))
            return None
        return QuizWidget.from_bank(name)


def load_ipython_extension(ipython) -> None:
    """Called by ``%load_ext autograd_tutor``."""
    ipython.register_magics(AutogradMagics)
