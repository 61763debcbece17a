"""Jupyter widgets (anywidget): import them from here, e.g. ``from autograd_tutor.widgets import GraphWidget``.

``import autograd_tutor`` never imports this package, so the engine stays light without Jupyter.
"""
from .graph import GraphWidget, show, watch
from .predict import Predict
from .quiz import QuizWidget
from .retain_graph import RetainGraphDemo

__all__ = ["GraphWidget", "show", "watch", "Predict", "QuizWidget", "RetainGraphDemo"]
