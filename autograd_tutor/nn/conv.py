"""The old import path of AvgPool2d, Conv1d, Conv2d, MaxPool1d, MaxPool2d: they live in ``nn/modules`` now, torch's
layout; this module is kept so that imports written before still work.
"""
from .modules import AvgPool2d, Conv1d, Conv2d, MaxPool1d, MaxPool2d

__all__ = ["AvgPool2d", "Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d"]
