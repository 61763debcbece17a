"""``torch.nn.modules``: the layers, one module per family as in torch (``linear``, ``conv``, ``activation``,
``loss``, ``normalization``, ``batchnorm``, ``pooling``, ``padding``, ``container``, ``dropout``, ``sparse``, ...).
``module.py`` holds ``Module``, the base of them all; each layer calls its ``nn.functional`` face.

>>> import autograd_tutor as torch
>>> from autograd_tutor import nn
>>> model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
>>> model
Sequential(
  (0): Linear(in_features=2, out_features=16, bias=True)
  (1): Tanh()
  (2): Linear(in_features=16, out_features=1, bias=True)
)
>>> model(torch.zeros(5, 2)).shape, [name for name, _ in model.named_parameters()]
(torch.Size([5, 1]), ['0.weight', '0.bias', '2.weight', '2.bias'])
"""
from .activation import (ELU, GELU, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, Mish, ReLU, ReLU6, SELU, Sigmoid, SiLU,
                         Softmax, Softplus, Tanh)
from .activation import GLU, Hardshrink, Hardsigmoid, Hardswish, PReLU, Softmin, Softshrink, Softsign, Tanhshrink, Threshold
from .attention import MultiheadAttention
from .batchnorm import BatchNorm1d, BatchNorm2d
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from .distance import CosineSimilarity, PairwiseDistance
from .dropout import Dropout, Dropout2d
from .flatten import Flatten, Unflatten
from .linear import Bilinear, Identity, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .loss import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, MarginRankingLoss, MultiLabelSoftMarginLoss,
                   PoissonNLLLoss, SoftMarginLoss, TripletMarginLoss)
from .module import Module
from .normalization import GroupNorm, LayerNorm, RMSNorm
from .padding import ConstantPad1d, ConstantPad2d, ZeroPad1d, ZeroPad2d
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d, AvgPool2d,
                      MaxPool1d, MaxPool2d)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell
from .sparse import Embedding, EmbeddingBag
from .transformer import TransformerEncoder, TransformerEncoderLayer
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

__all__ = ["ReLU", "LeakyReLU", "GELU", "SiLU", "Softplus", "ELU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax",
           "Hardtanh", "ReLU6", "LogSigmoid", "SELU", "Mish", "BatchNorm1d", "BatchNorm2d", "Sequential", "ModuleList",
           "ModuleDict", "ParameterList", "ParameterDict", "Conv1d", "Conv2d", "CosineSimilarity", "Dropout", "Dropout2d", "Flatten",
           "Unflatten", "Identity", "Linear", "Bilinear", "MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss",
           "L1Loss", "SmoothL1Loss", "HuberLoss", "KLDivLoss", "Module", "LayerNorm", "ConstantPad2d", "ConstantPad1d",
           "ZeroPad2d", "ZeroPad1d", "MaxPool2d", "MaxPool1d", "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveAvgPool1d",
           "AdaptiveMaxPool2d", "AdaptiveMaxPool1d", "AvgPool1d", "Embedding", "EmbeddingBag", "Softmin", "Softsign",
           "Tanhshrink", "Softshrink", "Hardshrink", "Threshold", "GLU", "Hardsigmoid", "Hardswish",
           "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell", "RMSNorm", "PReLU", "GroupNorm", "ConvTranspose1d",
           "ConvTranspose2d", "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "MultiheadAttention", "TransformerEncoderLayer",
           "TransformerEncoder", "PairwiseDistance", "GaussianNLLLoss", "PoissonNLLLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
           "CosineEmbeddingLoss", "TripletMarginLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss"]
