"""``torch.nn``: parameters, modules, layers, activations and losses, to build and train small networks.

>>> import autograd_tutor as torch
>>> from autograd_tutor import nn
>>> _ = torch.manual_seed(0)
>>> model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))
>>> loss = nn.CrossEntropyLoss()(model(torch.randn(4, 2)), torch.tensor([0, 2, 1, 0]))
>>> loss.grad_fn.name()
'NllLossBackward0'
>>> loss.backward()
>>> [(name, p.grad.shape) for name, p in model.named_parameters()][:2]
[('0.weight', torch.Size([8, 2])), ('0.bias', torch.Size([8]))]
"""
from . import functional, init, utils
from .activation import SELU, Hardtanh, HuberLoss, KLDivLoss, LogSigmoid, Mish, ReLU6
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList
from .conv import AvgPool2d, Conv1d, Conv2d, MaxPool1d, MaxPool2d
from .dropout2d import Dropout2d
from .module import Module
from .modules import (ELU, GELU, BatchNorm1d, BatchNorm2d, BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Dropout,
                      Embedding, Flatten, Identity, L1Loss, LayerNorm, LeakyReLU, Linear, LogSoftmax, MSELoss,
                      NLLLoss, ReLU, Sequential, Sigmoid, SiLU, SmoothL1Loss, Softmax, Softplus, Tanh, Unflatten)
from .parameter import Parameter
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,
                      ConstantPad1d, ConstantPad2d, CosineSimilarity, ZeroPad1d, ZeroPad2d)

__all__ = ["Parameter", "Module", "Identity", "Linear", "Flatten", "Unflatten", "Dropout", "Sequential", "ModuleList",
           "ModuleDict", "ParameterList", "ParameterDict", "ReLU", "LeakyReLU", "GELU", "SiLU", "Softplus", "ELU",
           "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss",
           "BCEWithLogitsLoss", "L1Loss", "SmoothL1Loss", "LayerNorm", "Embedding", "BatchNorm1d", "BatchNorm2d",
           "Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d", "ConstantPad1d", "ConstantPad2d", "ZeroPad1d",
           "ZeroPad2d", "CosineSimilarity", "Hardtanh", "ReLU6", "LogSigmoid", "SELU", "Mish", "HuberLoss",
           "KLDivLoss", "Dropout2d", "functional", "init", "utils"]
