"""The old home of AvgPool2d, Conv1d, Conv2d, MaxPool1d, MaxPool2d: they live in ``nn/modules`` now (torch's layout); this name is kept
so that imports written before still work."""
from .modules import AvgPool2d, Conv1d, Conv2d, MaxPool1d, MaxPool2d

__all__ = ["AvgPool2d", "Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d"]
