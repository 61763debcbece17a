"""Exercises whose answer the engine checks, each drawn with the one problem it found marked.

* :func:`check_graph` - does your code build the target's graph? (lesson 1: define-by-run)
* :func:`check_branches` - does your ``f`` build the graph asked for, for each kind of input? (lesson 1)
* :func:`check_first_none` - did you find, with ``print``, the first variable whose ``grad_fn`` is None? (lesson 1)
* :func:`check_tracking` - do the tensors you train get a gradient, and the data not? (lesson 2)
* :func:`check_grad_read` - does your step read ``.grad`` only after ``backward()`` filled it? (lesson 2)
* :func:`check_retained` - does your step keep an intermediate's gradient and run backward twice? (lesson 4)
* :func:`check_hook` - does your tensor hook clip each gradient to [-1, 1]? (lesson 5)
* :func:`check_listener` - does your event listener count the gradients flowing into each node? (lesson 5)
* :func:`check_kernel_grad` - is your convolution kernel's gradient, by hand, autograd's? (lesson 7)

Each returns a result that prints as one line (``ok``, ``verdict``) and displays, in a notebook, as the verdict
over a drawing of your graph. Bad input (a non-tensor) raises a ``TypeError`` saying what to pass.
:func:`autograd_tutor.exercise.check_backward` (lesson 3) checks the backward of your own ``Function``.
"""
from .grad_fn import FirstNoneCheck, check_first_none
from .grad_read import GradReadCheck, check_grad_read
from .graphs import BranchCheck, GraphCheck, check_branches, check_graph
from .hooks import HookCheck, ListenerCheck, check_hook, check_listener
from .kernel_grad import KernelCheck, check_kernel_grad
from .retained import RetainCheck, check_retained
from .tracking import TrackingCheck, check_tracking

__all__ = ["check_graph", "check_branches", "check_tracking", "check_retained", "GraphCheck", "BranchCheck",
           "TrackingCheck", "RetainCheck", "check_hook", "check_listener", "check_kernel_grad", "HookCheck",
           "ListenerCheck", "KernelCheck", "check_first_none", "FirstNoneCheck", "check_grad_read", "GradReadCheck"]
