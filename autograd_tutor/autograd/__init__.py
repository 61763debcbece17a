"""``torch.autograd``: the engine's public face (``backward``, ``grad``, ``graph``, ``Function``, grad modes).

>>> import autograd_tutor as torch
>>> x = torch.tensor(3., requires_grad=True)
>>> torch.autograd.grad(x * x, x)
(tensor(6.),)
"""
import warnings

from . import methods  # noqa: F401  (attaches the Tensor methods, family by family, before anything uses them)
from . import anomaly_mode, functional, graph, profiler
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .custom import Function
from .engine import backward, grad
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .gradcheck import gradcheck  # as in torch, the function hides its module (GradcheckError lives there)
from .variable import Variable  # the pre-0.4 wrapper, a no-op as in torch

__all__ = ["Function", "backward", "grad", "graph", "functional", "gradcheck", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "detect_anomaly", "set_detect_anomaly", "Variable", "profiler"]

# torch computes inf and nan silently, NumPy warns ("overflow encountered in multiply"): silence those warnings
# where the engine's own lines raise them, so that `x * x` of a huge x prints what torch prints. A learner's own
# NumPy code still warns.
warnings.filterwarnings("ignore", message="(overflow|invalid value|divide by zero|underflow) encountered",
                        category=RuntimeWarning, module=r"autograd_tutor\.")
