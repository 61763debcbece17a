"""``nn.functional``: layers and losses as plain functions (``F.linear``, ``F.relu``, ``F.cross_entropy``...).

Modules call these; you can too. Each builds the same graph nodes as torch's: ``linear`` on a batch is one
``AddmmBackward0``, ``mse_loss`` one ``MseLossBackward0``, and ``cross_entropy`` is ``log_softmax`` followed
by ``nll_loss`` (``NllLossBackward0`` over ``LogSoftmaxBackward0``).

>>> import autograd_tutor as torch
>>> import autograd_tutor.nn.functional as F
>>> logits = torch.tensor([[2., 0., 0.]], requires_grad=True)
>>> loss = F.cross_entropy(logits, torch.tensor([0]))
>>> loss, loss.grad_fn.next_functions[0][0].name()
(tensor(0.2395, grad_fn=<NllLossBackward0>), 'LogSoftmaxBackward0')

The functions live by family in ``nn/_functional/`` (``activation.py``, ``loss.py``, ``conv.py``, ...), named as
``nn/modules/`` names the layers that call them; the nodes they record live in ``autograd/ops/``.
"""
from ._functional.activation import (elu, elu_, gelu, hardtanh, hardtanh_, leaky_relu, leaky_relu_, log_softmax,
                                     logsigmoid, mish, relu, relu6, relu_, selu, selu_, sigmoid, silu, softmax,
                                     softplus, tanh, prelu)
from ._functional.activation import (glu, hardshrink, hardsigmoid, hardswish, softmin, softshrink, softsign, tanhshrink, threshold,
                                     threshold_)
from ._functional.adaptive_pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d,
                                           adaptive_max_pool2d, avg_pool1d)
from ._functional.attention import multi_head_attention_forward, scaled_dot_product_attention
from ._functional.conv import conv1d, conv2d, conv_transpose1d, conv_transpose2d
from ._functional.distance import cosine_similarity, normalize
from ._functional.dropout import dropout, dropout2d
from ._functional.linear import bilinear, linear
from ._functional.loss import (binary_cross_entropy, binary_cross_entropy_with_logits, cross_entropy, huber_loss,
                               kl_div, l1_loss, mse_loss, nll_loss, smooth_l1_loss)
from ._functional.loss import gaussian_nll_loss, poisson_nll_loss
from ._functional.margin_losses import (cosine_embedding_loss, hinge_embedding_loss, margin_ranking_loss,
                                        multilabel_soft_margin_loss, pairwise_distance, soft_margin_loss,
                                        triplet_margin_loss)
from ._functional.normalization import batch_norm, group_norm, layer_norm, rms_norm
from ._functional.padding import pad
from ._functional.pooling import avg_pool2d, max_pool1d, max_pool2d
from ._functional.sparse import embedding, embedding_bag, one_hot
from ._functional.upsampling import interpolate, upsample

__all__ = ["linear", "bilinear", "dropout", "dropout2d", "relu", "relu_", "leaky_relu", "leaky_relu_", "gelu", "silu", "softplus", "elu", "elu_",
           "tanh", "sigmoid", "softmax", "log_softmax", "mse_loss", "nll_loss", "cross_entropy", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "l1_loss", "smooth_l1_loss", "one_hot", "layer_norm", "embedding", "embedding_bag",
           "batch_norm", "conv1d", "conv2d", "max_pool1d", "max_pool2d", "avg_pool2d", "pad", "normalize",
           "cosine_similarity", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "avg_pool1d", "relu6", "hardtanh", "hardtanh_", "logsigmoid", "selu", "selu_", "mish",
           "huber_loss", "kl_div", "softmin", "softsign", "tanhshrink", "softshrink", "hardshrink", "threshold", "threshold_", "glu",
           "hardsigmoid", "hardswish", "scaled_dot_product_attention", "rms_norm", "prelu", "group_norm",
           "conv_transpose1d", "conv_transpose2d", "interpolate", "upsample", "multi_head_attention_forward", "gaussian_nll_loss",
           "poisson_nll_loss", "pairwise_distance", "triplet_margin_loss", "margin_ranking_loss", "hinge_embedding_loss",
           "cosine_embedding_loss", "soft_margin_loss", "multilabel_soft_margin_loss"]
