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
import warnings
from collections import defaultdict
from itertools import chain

import numpy as np

from ..autograd.fma import fma

from ..autograd.grad_mode import enable_grad
from ..autograd.tensor import Tensor
from ..nn.modules.module import _typename, reset_grads

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "Rprop",
           "lr_scheduler"]


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
            grad = _fma(p._data, p._data.dtype.type(decay), grad)
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


def _not_negative(*named) -> None:
    """torch's checks of hyperparameters, in its order: each ``(what, value)`` must be at least 0 (nan is not),
    else ``ValueError("Invalid <what>: <value>")``."""
    for what, value in named:
        if not 0.0 <= value:
            raise ValueError(f"Invalid {what}: {value}")


def _check_fused(foreach, fused, differentiable) -> None:
    if differentiable:
        raise NotImplementedError("autograd_tutor's optimizers update parameters outside the graph; "
                                  "differentiable=True is not supported")
    if fused and foreach:
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _fma(a, b, c) -> np.ndarray:
    """``a * b + c`` rounded once in the arrays' dtype, as torch's kernels compute ``add`` with ``alpha``,
    ``addcmul`` and ``lerp`` (see :func:`~autograd_tutor.autograd.fma.fma`)."""
    return fma(a, b, c, np.result_type(a, b, c))


def _lerp_(avg: np.ndarray, target: np.ndarray, weight) -> None:
    """``avg.lerp_(target, weight)``: avg + weight (target - avg), with torch's two formulas for small and large
    weights."""
    if abs(weight) < 0.5:
        avg[...] = _fma(weight, target - avg, avg)
    else:
        avg[...] = _fma(avg - target, 1 - weight, target)


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
                buf._data[...] = _fma(grad, scalar(1 - group["dampening"]), buf._data * scalar(momentum))
                self._changed(buf)
            grad = _fma(buf._data, scalar(momentum), grad) if group["nesterov"] else buf._data
        p._data[...] = _fma(grad, scalar(-group["lr"]), p._data)
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
        _not_negative(("learning rate", lr), ("epsilon value", eps))
        for i, beta in enumerate(betas[:2]):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        _not_negative(("weight_decay value", weight_decay))
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
        _lerp_(m, grad, scalar(1 - beta1))
        v[...] = _fma(scalar(1 - beta2) * grad, grad, v * scalar(beta2))
        step = float(state["step"]._data)
        step_size = lr / (1 - beta1 ** step)
        root_correction = (1 - beta2 ** step) ** 0.5
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]._data
            np.maximum(vmax, v, out=vmax)
            v = vmax
        denom = np.sqrt(v) / scalar(root_correction) + scalar(group["eps"])
        data += scalar(-step_size) * m / denom
        self._changed(p, *state.values())


class AdamW(Adam):
    """Adam with decoupled weight decay: ``p *= 1 - lr * weight_decay`` before the Adam step, the decay kept out
    of the running averages (torch's ``Adam(..., decoupled_weight_decay=True)``, with ``weight_decay=0.01``)."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False, foreach=None,
                 capturable: bool = False, differentiable: bool = False, fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


class RMSprop(Optimizer):
    """RMSprop: divide each step by a running root mean square of the gradient, as torch computes it::

        g = grad + weight_decay * p;   v = alpha v + (1 - alpha) g^2
        avg = sqrt(v - gbar^2) + eps, with gbar = gbar + (1 - alpha) (g - gbar) (centered), else sqrt(v) + eps
        b = momentum b + g / avg;  p = p - lr b    (momentum > 0),  else  p = p - lr g / avg
    """

    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8, weight_decay: float = 0,
                 momentum: float = 0, centered: bool = False, capturable: bool = False, foreach=None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        _not_negative(("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                      ("weight_decay value", weight_decay), ("alpha value", alpha))
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        _check_fused(foreach, None, differentiable)
        super().__init__(params, defaults)

    def _update(self, p: Tensor, group: dict) -> None:
        data = p._data
        scalar = data.dtype.type
        state = self.state[p]
        if not state:
            state["step"] = Tensor._make(np.array(0.0, np.float32))
            state["square_avg"] = Tensor._make(np.zeros_like(data))
            if group["momentum"] > 0:
                state["momentum_buffer"] = Tensor._make(np.zeros_like(data))
            if group["centered"]:
                state["grad_avg"] = Tensor._make(np.zeros_like(data))
        alpha = group["alpha"]
        grad = self._gradient(p, group)
        state["step"]._data += 1
        v = state["square_avg"]._data
        v[...] = _fma(scalar(1 - alpha) * grad, grad, v * scalar(alpha))
        if group["centered"]:
            gbar = state["grad_avg"]._data
            _lerp_(gbar, grad, scalar(1 - alpha))
            avg = np.sqrt(_fma(-gbar, gbar, v))
        else:
            avg = np.sqrt(v)
        avg += scalar(group["eps"])
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]._data
            buf *= scalar(group["momentum"])
            buf += grad / avg
            data[...] = _fma(buf, scalar(-group["lr"]), data)
        else:
            data += scalar(-group["lr"]) * grad / avg
        self._changed(p, *state.values())


class Adagrad(Optimizer):
    """Adagrad: each coordinate's step shrinks with the sum of its squared gradients, as torch computes it::

        g = grad + weight_decay * p;   s = s + g^2;   t = t + 1
        p = p - lr / (1 + (t - 1) lr_decay) * g / (sqrt(s) + eps)

    The state (``step`` and ``sum``, filled with ``initial_accumulator_value``) exists from the start.
    """

    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach=None, *, maximize: bool = False,
                 differentiable: bool = False, fused=None) -> None:
        _not_negative(("learning rate", lr), ("lr_decay value", lr_decay), ("weight_decay value", weight_decay),
                      ("initial_accumulator_value value", initial_accumulator_value), ("epsilon value", eps))
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        _check_fused(foreach, fused, differentiable)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, initial_accumulator_value)

    def _init_state(self, p: Tensor, value: float) -> None:
        self.state[p]["step"] = Tensor._make(np.array(0.0, np.float32))
        self.state[p]["sum"] = Tensor._make(np.full_like(p._data, value))

    def _update(self, p: Tensor, group: dict) -> None:
        data = p._data
        scalar = data.dtype.type
        if not self.state[p]:  # a parameter added later by add_param_group
            self._init_state(p, self.defaults["initial_accumulator_value"])
        state = self.state[p]
        state["step"]._data += 1
        step = float(state["step"]._data)
        grad = self._gradient(p, group)
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]._data
        total[...] = _fma(grad, grad, total)
        data += scalar(-clr) * grad / (np.sqrt(total) + scalar(group["eps"]))
        self._changed(p, *state.values())


def _check_betas(lr, eps, betas, weight_decay) -> None:
    """The checks the Adam family shares, in torch's order and words."""
    _not_negative(("learning rate", lr), ("epsilon value", eps))
    for i, beta in enumerate(betas[:2]):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
    _not_negative(("weight_decay value", weight_decay))


def _stepped(state: dict, data: np.ndarray, *names: str, **numbers: float) -> dict:
    """The state of one parameter, one step further: made on its first step (``step`` 0, then each of
    ``numbers``, both float32 0-dim tensors as torch keeps them, then one zero buffer per name), then ``step`` + 1."""
    if not state:
        state["step"] = Tensor._make(np.array(0.0, np.float32))
        for name, value in numbers.items():
            state[name] = Tensor._make(np.array(value, np.float32))
        for name in names:
            state[name] = Tensor._make(np.zeros_like(data))
    state["step"]._data += 1
    return state


def _decay_decoupled(p: Tensor, group: dict) -> None:
    """``p *= 1 - lr * weight_decay`` when the decay is decoupled (AdamW-style), before the step."""
    if group["weight_decay"] != 0 and group["decoupled_weight_decay"]:
        p._data *= p._data.dtype.type(1 - group["lr"] * group["weight_decay"])


class Adadelta(Optimizer):
    """Adadelta: steps in the units of the parameter, a running RMS of past steps over a running RMS of
    gradients, as torch computes it::

        g = grad + weight_decay * p;   v = rho v + (1 - rho) g^2
        d = sqrt(u + eps) / sqrt(v + eps) * g;   u = rho u + (1 - rho) d^2;   p = p - lr d
    """

    def __init__(self, params, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6, weight_decay: float = 0,
                 foreach=None, *, capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _not_negative(("learning rate", lr))
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _not_negative(("epsilon value", eps), ("weight_decay value", weight_decay))
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        _check_fused(foreach, None, differentiable)
        super().__init__(params, defaults)

    def _update(self, p: Tensor, group: dict) -> None:
        scalar = p._data.dtype.type
        state = _stepped(self.state[p], p._data, "square_avg", "acc_delta")
        grad = self._gradient(p, group)
        rho, eps = scalar(group["rho"]), scalar(group["eps"])
        v, u = state["square_avg"]._data, state["acc_delta"]._data
        v[...] = _fma(scalar(1 - group["rho"]) * grad, grad, v * rho)
        delta = np.sqrt(u + eps) / np.sqrt(v + eps) * grad
        u[...] = _fma(scalar(1 - group["rho"]) * delta, delta, u * rho)
        p._data[...] = _fma(delta, scalar(-group["lr"]), p._data)
        self._changed(p, *state.values())


class Adamax(Optimizer):
    """Adamax: Adam with the infinity norm, a running maximum of |g| in place of the RMS, as torch computes it::

        g = grad + weight_decay * p;   m = m + (1 - beta1) (g - m);   u = max(beta2 u, |g| + eps)
        p = p - lr / (1 - beta1^t) * m / u
    """

    def __init__(self, params, lr: float = 2e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach=None, *, maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        _check_betas(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        _check_fused(foreach, None, differentiable)
        super().__init__(params, defaults)

    def _update(self, p: Tensor, group: dict) -> None:
        scalar = p._data.dtype.type
        state = _stepped(self.state[p], p._data, "exp_avg", "exp_inf")
        beta1, beta2 = group["betas"]
        grad = self._gradient(p, group)
        m, u = state["exp_avg"]._data, state["exp_inf"]._data
        _lerp_(m, grad, scalar(1 - beta1))
        np.maximum(u * scalar(beta2), np.abs(grad) + scalar(group["eps"]), out=u)
        clr = group["lr"] / (1 - beta1 ** float(state["step"]._data))
        p._data += scalar(-clr) * m / u
        self._changed(p, *state.values())


class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum, its momentum warmed up by ``mu_t = beta1 (1 - 0.5 * 0.96^(t psi))``
    (psi = ``momentum_decay``), as torch computes it::

        m = m + (1 - beta1) (g - m);   v = beta2 v + (1 - beta2) g^2;   P = P * mu_t
        denom = sqrt(v / (1 - beta2^t)) + eps
        p = p - lr (1 - mu_t) / (1 - P) * g / denom - lr mu_{t+1} / (1 - P mu_{t+1}) * m / denom
    """

    def __init__(self, params, lr: float = 2e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3, decoupled_weight_decay: bool = False, *,
                 foreach=None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_betas(lr, eps, betas, weight_decay)
        _not_negative(("momentum_decay value", momentum_decay))
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        _check_fused(foreach, None, differentiable)
        super().__init__(params, defaults)

    def _update(self, p: Tensor, group: dict) -> None:
        scalar = p._data.dtype.type
        state = _stepped(self.state[p], p._data, "exp_avg", "exp_avg_sq", mu_product=1.0)
        beta1, beta2 = group["betas"]
        lr, psi = group["lr"], group["momentum_decay"]
        step = float(state["step"]._data)
        _decay_decoupled(p, group)
        grad = self._gradient(p, group)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * psi))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * psi))
        product = state["mu_product"]._data
        product[...] = product * np.float32(mu)  # a float32 tensor, as in torch
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        _lerp_(m, grad, scalar(1 - beta1))
        v[...] = _fma(scalar(1 - beta2) * grad, grad, v * scalar(beta2))
        denom = np.sqrt(v / scalar(1 - beta2 ** step)) + scalar(group["eps"])
        product = float(product)
        p._data += scalar(-lr * (1.0 - mu) / (1.0 - product)) * grad / denom
        p._data += scalar(-lr * mu_next / (1.0 - product * mu_next)) * m / denom
        self._changed(p, *state.values())


class RAdam(Optimizer):
    """RAdam: Adam whose adaptive step is switched on, and rectified, once the variance of its running average
    is tractable (rho_t > 5), as torch computes it::

        rho_inf = 2 / (1 - beta2) - 1;   rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
        r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
        p = p - lr m / (1 - beta1^t) * sqrt(1 - beta2^t) / (sqrt(v) + eps) * r_t    (rho_t > 5)
        p = p - lr m / (1 - beta1^t)                                                  (otherwise: SGD with momentum)
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *, foreach=None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False) -> None:
        _check_betas(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        _check_fused(foreach, None, differentiable)
        super().__init__(params, defaults)

    def _update(self, p: Tensor, group: dict) -> None:
        scalar = p._data.dtype.type
        state = _stepped(self.state[p], p._data, "exp_avg", "exp_avg_sq")
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        step = float(state["step"]._data)
        _decay_decoupled(p, group)
        grad = self._gradient(p, group)
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        _lerp_(m, grad, scalar(1 - beta1))
        v[...] = _fma(scalar(1 - beta2) * grad, grad, v * scalar(beta2))
        correction2 = 1 - beta2 ** step
        corrected = m / scalar(1 - beta1 ** step)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive = scalar(1) / (np.sqrt(v) + scalar(group["eps"])) * scalar(correction2 ** 0.5)  # torch's x / t
            p._data -= corrected * scalar(lr) * adaptive * scalar(rect)
        else:
            p._data -= corrected * scalar(lr)
        self._changed(p, *state.values())


class Rprop(Optimizer):
    """Rprop: only the sign of the gradient counts; each coordinate's step grows by ``etas[1]`` while the sign
    stays, shrinks by ``etas[0]`` when it flips (and that step is skipped), within ``step_sizes``::

        s = clamp(s * (etaplus if g g_prev > 0, etaminus if < 0, else 1), min, max)
        g = 0 where the sign flipped;   p = p - sign(g) s;   g_prev = g
    """

    def __init__(self, params, lr: float = 1e-2, etas: tuple = (0.5, 1.2), step_sizes: tuple = (1e-6, 50), *,
                 capturable: bool = False, foreach=None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _not_negative(("learning rate", lr))
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        _check_fused(foreach, None, differentiable)
        super().__init__(params, defaults)

    def _update(self, p: Tensor, group: dict) -> None:
        scalar = p._data.dtype.type
        state = _stepped(self.state[p], p._data, "prev", "step_size")
        if state["step"]._data == 1:
            state["step_size"]._data[...] = group["lr"]
        grad = -p.grad._data if group["maximize"] else p.grad._data.copy()
        prev, size = state["prev"]._data, state["step_size"]._data
        etaminus, etaplus = group["etas"]
        sign = np.sign(grad * prev)
        factor = np.where(sign > 0, scalar(etaplus), np.where(sign < 0, scalar(etaminus), scalar(1)))
        low, high = group["step_sizes"]
        np.clip(size * factor, scalar(low), scalar(high), out=size)
        grad[sign < 0] = 0
        p._data[...] = _fma(-np.sign(grad), size, p._data)
        prev[...] = grad
        self._changed(p, *state.values())


from . import lr_scheduler  # noqa: E402  (it needs Optimizer)
