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
from .modules import (ELU, GELU, SELU, AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                      AvgPool1d, AvgPool2d, BatchNorm1d, BatchNorm2d, BCELoss, BCEWithLogitsLoss, Bilinear, ConstantPad1d,
                      ConstantPad2d, Conv1d, Conv2d, CosineSimilarity, CrossEntropyLoss, Dropout, Dropout2d, Embedding,
                      EmbeddingBag, Flatten, Hardtanh, HuberLoss, Identity, KLDivLoss, L1Loss, LayerNorm, LeakyReLU, Linear,
                      LogSigmoid, LogSoftmax, MaxPool1d, MaxPool2d, Mish, Module, ModuleDict, ModuleList, MSELoss,
                      NLLLoss, ParameterDict, ParameterList, ReLU, ReLU6, Sequential, Sigmoid, SiLU, SmoothL1Loss,
                      Softmax, Softplus, Tanh, Unflatten, ZeroPad1d, ZeroPad2d)
from .modules import GLU, Hardshrink, Hardsigmoid, Hardswish, Softmin, Softshrink, Softsign, Tanhshrink, Threshold
from .modules import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell, RMSNorm
from .modules import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, MarginRankingLoss,
                      MultiLabelSoftMarginLoss, PairwiseDistance, PoissonNLLLoss, SoftMarginLoss, TripletMarginLoss)
from .modules import MultiheadAttention, TransformerEncoder, TransformerEncoderLayer
from .modules import ConvTranspose1d, ConvTranspose2d, GroupNorm, PReLU, Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .parameter import Parameter

__all__ = ["Parameter", "Module", "Identity", "Linear", "Bilinear", "Flatten", "Unflatten", "Dropout", "Sequential", "ModuleList",
           "ModuleDict", "ParameterList", "ParameterDict", "ReLU", "LeakyReLU", "GELU", "SiLU", "Softplus", "ELU",
           "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss",
           "BCEWithLogitsLoss", "L1Loss", "SmoothL1Loss", "LayerNorm", "Embedding", "EmbeddingBag", "BatchNorm1d", "BatchNorm2d",
           "Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d", "ConstantPad1d", "ConstantPad2d", "ZeroPad1d",
           "ZeroPad2d", "CosineSimilarity", "Hardtanh", "ReLU6", "LogSigmoid", "SELU", "Mish", "HuberLoss",
           "KLDivLoss", "Dropout2d", "Softmin", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink", "Threshold", "GLU", "Hardsigmoid",
           "Hardswish", "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell", "RMSNorm", "PReLU", "GroupNorm",
           "ConvTranspose1d", "ConvTranspose2d", "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder", "functional", "init",
           "utils", "PairwiseDistance", "GaussianNLLLoss", "PoissonNLLLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
           "CosineEmbeddingLoss", "TripletMarginLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss"]
