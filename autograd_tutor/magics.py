"""The IPython extension: ``%load_ext autograd_tutor``.

* ``%%autograd`` runs the cell, then shows the graph it built, with the backward replay when the cell called
  ``backward()``: ``%%autograd --max-nodes 200`` sets the node budget.
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


@magics_class
class AutogradMagics(Magics):
    """``%%autograd`` and ``%autograd_quiz``."""

    @cell_magic
    def autograd(self, line: str, cell: str) -> None:
        """Run the cell, then display a GraphWidget of what it built and backpropagated."""
        from IPython.display import display

        from .widgets import watch
        options = _cell_options(line)
        with watch(max_nodes=options.max_nodes, title=options.title) as graph:
            self.shell.run_cell(cell, store_history=False)
        display(graph)

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
