"""``torch.optim``: update parameters from their gradients, step after step.

An optimizer holds *parameter groups* (the tensors plus their settings: ``lr``, ``momentum``...) and a
per-parameter ``state`` (momentum buffers, running averages). ``step()`` changes each parameter that has a
``.grad`` in place, outside the graph, exactly as torch's single-tensor (for-loop) implementation does;
``zero_grad()`` resets the gradients to None before the next backward.

>>> import autograd_tutor as torch
>>> w = torch.tensor([1.0, -2.0], requires_grad=True)
>>> opt = torch.optim.SGD([w], lr=0.1)
>>> (w ** 2).sum().backward()      # dL/dw = 2w = [2, -4]
>>> opt.step(); w                  # w - 0.1 * grad
tensor([ 0.8000, -1.6000], requires_grad=True)
>>> opt.zero_grad(); print(w.grad)
None
"""
from __future__ import annotations

import copy
import math
import warnings
from collections import defaultdict
from itertools import chain

import numpy as np

from .autograd.grad_mode import enable_grad
from .autograd.tensor import Tensor
from .nn.module import _typename, reset_grads

__all__ = ["Optimizer", "SGD", "Adam"]


class _RequiredParameter:
    """Marks a default that every parameter group must give (torch's ``optim.optimizer.required``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Base class: parameter groups, per-parameter state, ``zero_grad``, ``state_dict`` and torch's repr.

    ``params`` is an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts (one per group, with a
    ``"params"`` entry and settings that override ``defaults``).
    """

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + _typename(params))
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list = []
        param_groups = list(params)
        if not param_groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own settings (the missing ones taken from ``defaults``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        else:
            params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]
        param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          UserWarning, stacklevel=3)
        for group in self.param_groups:
            if ("param_names" in param_group) != ("param_names" in group):
                kind = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {kind} to the optimizer")
        taken = {id(p) for group in self.param_groups for p in group["params"]}
        if taken & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors: to None (the default), or to zeros."""
        reset_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        """Update the parameters once; ``closure`` (re-evaluating the loss, returned) is optional."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    self._update(p, group)
        return loss

    def _update(self, p: Tensor, group: dict) -> None:
        raise NotImplementedError

    @staticmethod
    def _gradient(p: Tensor, group: dict) -> np.ndarray:
        """The gradient to descend: -grad when maximizing, plus the L2 term ``weight_decay * p``."""
        grad = p.grad._data
        if group["maximize"]:
            grad = -grad
        decay = group["weight_decay"]
        if decay != 0 and not group.get("decoupled_weight_decay", False):
            grad = grad + p._data.dtype.type(decay) * p._data
        return grad

    @staticmethod
    def _changed(*tensors: Tensor) -> None:
        """Record an in-place change (what ``p.add_`` does): saved copies of these tensors are now stale."""
        for t in tensors:
            t._vbox[0] += 1

    def state_dict(self) -> dict:
        """The optimizer's settings and state, with each parameter replaced by its index (0, 1, ...)."""
        index, groups = {}, []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            ids = list(range(len(index), len(index) + len(group["params"])))
            index.update({id(p): i for p, i in zip(group["params"], ids)})
            packed["params"] = ids
            groups.append(packed)
        state = {index[id(p)] if isinstance(p, Tensor) else p: v for p, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore settings and state saved by :meth:`state_dict` (the parameters stay this optimizer's)."""
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = dict(zip(chain.from_iterable(s["params"] for s in saved_groups),
                          chain.from_iterable(g["params"] for g in self.param_groups)))
        state: defaultdict = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                param = id_map[key]
                state[param] = {name: v.to(param.dtype) if name != "step" and isinstance(v, Tensor)
                                and param.is_floating_point() else v for name, v in value.items()}
            else:
                state[key] = value
        for group, saved in zip(self.param_groups, saved_groups):
            saved["params"] = group["params"]
        self.state = state
        self.param_groups = saved_groups


def _check_fused(foreach, fused, differentiable) -> None:
    if differentiable:
        raise NotImplementedError("autograd_tutor's optimizers update parameters outside the graph; "
                                  "differentiable=True is not supported")
    if fused and foreach:
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


class SGD(Optimizer):
    """Stochastic gradient descent, optionally with momentum, as torch computes it::

        g = grad + weight_decay * p
        b = g (first step), else momentum * b + (1 - dampening) * g
        g = g + momentum * b (nesterov), else b
        p = p - lr * g

    ``foreach`` and ``fused`` are accepted for compatibility; they pick the same arithmetic here.
    """

    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False, foreach=None,
                 differentiable: bool = False, fused=None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
                    "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        _check_fused(foreach, fused, differentiable)
        super().__init__(params, defaults)

    def _update(self, p: Tensor, group: dict) -> None:
        scalar = p._data.dtype.type
        grad = self._gradient(p, group)
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[p]
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = Tensor._make(grad.copy())
            else:
                buf._data *= scalar(momentum)
                buf._data += scalar(1 - group["dampening"]) * grad
                self._changed(buf)
            grad = grad + scalar(momentum) * buf._data if group["nesterov"] else buf._data
        p._data += scalar(-group["lr"]) * grad
        self._changed(p)


class Adam(Optimizer):
    """Adam: steps scaled by running averages of the gradient and of its square, as torch computes it::

        g = grad + weight_decay * p               (or p *= 1 - lr * weight_decay, if decoupled)
        m = m + (1 - beta1) (g - m);   v = beta2 v + (1 - beta2) g^2;   t = t + 1
        p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)

    (``amsgrad`` uses the largest v seen so far.) ``foreach``, ``fused`` and ``capturable`` are accepted for
    compatibility; they pick the same arithmetic here.
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach=None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused=None,
                 decoupled_weight_decay: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        _check_fused(foreach, fused, differentiable)
        super().__init__(params, defaults)

    def _update(self, p: Tensor, group: dict) -> None:
        data = p._data
        scalar = data.dtype.type
        state = self.state[p]
        if not state:
            state["step"] = Tensor._make(np.array(0.0, np.float32))
            state["exp_avg"] = Tensor._make(np.zeros_like(data))
            state["exp_avg_sq"] = Tensor._make(np.zeros_like(data))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = Tensor._make(np.zeros_like(data))
        beta1, beta2 = group["betas"]
        lr, decay = group["lr"], group["weight_decay"]
        state["step"]._data += 1
        if decay != 0 and group["decoupled_weight_decay"]:
            data *= scalar(1 - lr * decay)
        grad = self._gradient(p, group)
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        weight = scalar(1 - beta1)  # torch's lerp, with its two formulas for small and large weights
        if abs(weight) < 0.5:
            m += weight * (grad - m)
        else:
            m[...] = grad - (grad - m) * (1 - weight)
        v *= scalar(beta2)
        v += scalar(1 - beta2) * grad * grad
        step = float(state["step"]._data)
        step_size = lr / (1 - beta1 ** step)
        root_correction = math.sqrt(1 - beta2 ** step)
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]._data
            np.maximum(vmax, v, out=vmax)
            v = vmax
        denom = np.sqrt(v) / scalar(root_correction) + scalar(group["eps"])
        data += scalar(-step_size) * m / denom
        self._changed(p, *state.values())
