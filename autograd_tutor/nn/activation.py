"""The old import path of Hardtanh, HuberLoss, KLDivLoss, LogSigmoid, Mish, ReLU6, SELU: they live in ``nn/modules``
now, torch's layout; this module is kept so that imports written before still work.
"""
from .modules import Hardtanh, HuberLoss, KLDivLoss, LogSigmoid, Mish, ReLU6, SELU

__all__ = ["Hardtanh", "HuberLoss", "KLDivLoss", "LogSigmoid", "Mish", "ReLU6", "SELU"]
