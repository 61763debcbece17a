"""The old import path of AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,
ConstantPad1d, ConstantPad2d, CosineSimilarity, ZeroPad1d, ZeroPad2d: they live in ``nn/modules`` now, torch's
layout; this module is kept so that imports written before still work.
"""
from .modules import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,
                      ConstantPad1d, ConstantPad2d, CosineSimilarity, ZeroPad1d, ZeroPad2d)

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d",
           "ConstantPad1d", "ConstantPad2d", "CosineSimilarity", "ZeroPad1d", "ZeroPad2d"]
