"""The old home of SELU, Hardtanh, HuberLoss, KLDivLoss, LogSigmoid, Mish, ReLU6: they live in ``nn/modules`` now (torch's layout); this name is kept
so that imports written before still work."""
from .modules import Hardtanh, HuberLoss, KLDivLoss, LogSigmoid, Mish, ReLU6, SELU

__all__ = ["SELU", "Hardtanh", "HuberLoss", "KLDivLoss", "LogSigmoid", "Mish", "ReLU6"]
