"""The operations, one module per family: each a ``Function`` subclass named as torch names its node
(``MulBackward0`` is in ``arithmetic.py``, ``SumBackward0`` in ``reductions.py``), ``forward`` and ``backward``
side by side with the math in the docstring. Tensor methods (``autograd/methods/``) and the torch-level
functions call them; ``Function.apply`` (``autograd/function.py``) records the node.

| module | holds |
|---|---|
| ``arithmetic`` | ``+ - * /``, powers, remainders, ``addcmul`` / ``addcdiv`` / ``lerp`` / ``xlogy`` |
| ``elementwise`` | ``exp``, ``log``, ``tanh``, ``sigmoid``, ``relu``, ``sqrt``, trigonometry, rounding, ``clamp`` |
| ``selection`` | ``where``, and the masked gradient of every piecewise operation |
| ``reductions`` | ``sum``, ``mean``, ``max`` / ``min``, ``prod``, norms, ``var`` / ``std`` (and ``_mean``), cumulative ops |
| ``linalg`` | ``mm``, ``mv``, ``dot``, ``bmm``, ``addmm``, ``diag``, ``trace``, ``tril`` / ``triu``, ``cdist``, ``bilinear``, ``block_diag`` |
| ``shape`` | views and joins: ``view``, ``permute``, ``squeeze``, ``expand``, ``cat``, ``split``, ``unfold``, ``rot90`` |
| ``copies`` | ``clone``, ``copy_``, ``to(dtype)``, ``zero_``, ``fill_`` |
| ``indexing`` | ``x[key]``, ``x[key] = v``, ``gather`` / ``scatter``, ``index_*``, ``masked_*`` |
| ``views`` | in-place changes of a view, recorded on its base (``CopySlices``); ``AsStridedBackward0`` |
| ``sorting`` | ``sort``, ``topk``, ``unique`` |
| ``sampling`` | random fills in place (their gradient is zero) |
| ``activations`` | ``softmax``, ``leaky_relu``, ``gelu``, ``silu``, ``softplus``, ``elu``, ``hardtanh``, ``mish``, ``prelu`` |
| ``losses`` | ``mse_loss``, ``nll_loss``, binary cross entropy, ``smooth_l1_loss``, ``huber_loss`` |
| ``normalization`` | ``layer_norm``, ``batch_norm``, ``group_norm`` |
| ``embedding`` | ``embedding`` |
| ``convolution``, ``pooling``, ``padding`` | ``conv1d`` / ``conv2d`` and their transposes; max, average, adaptive pooling; ``F.pad`` |
| ``upsampling`` | ``interpolate``: nearest and (bi)linear |
| ``backward_formulas`` | the nodes torch records for backward formulas under ``create_graph=True`` |
| ``numerics`` | what they share: dtype promotion, torch's memory layout and rounding, gradient helpers |
"""
