"""``torch.optim.lr_scheduler``: change each parameter group's ``lr`` as the epochs go by.

A scheduler remembers each group's starting rate (``initial_lr``, ``base_lrs``) and, at every ``step()``,
writes the next rate into ``optimizer.param_groups[i]["lr"]``. Call it once per epoch, *after*
``optimizer.step()`` (torch warns otherwise); ``get_last_lr()`` gives the rates it wrote last.

>>> import autograd_tutor as torch
>>> w = torch.zeros(1, requires_grad=True)
>>> opt = torch.optim.SGD([w], lr=1.0)
>>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
>>> for epoch in range(5):
...     opt.step()
...     sched.step()
...     print(epoch, sched.get_last_lr())
0 [1.0]
1 [0.5]
2 [0.5]
3 [0.25]
4 [0.25]
"""
from __future__ import annotations

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from functools import wraps
from weakref import ref

from . import Optimizer

__all__ = ["LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
           "ExponentialLR", "PolynomialLR", "CosineAnnealingLR", "SequentialLR", "OneCycleLR", "ReduceLROnPlateau",
           "CosineAnnealingWarmRestarts", "CyclicLR", "ChainedScheduler"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. Please "
    "use `scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. Please open an issue if you are "
    "unable to replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")


class LRScheduler:
    """Base class: ``step()`` moves ``last_epoch`` on by one and writes ``get_lr()`` into the groups' ``lr``."""

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from "
                        "a checkpoint but haven't properly loaded the optimizer state\n2. You're using "
                        "last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _track_step_calls(optimizer)
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()  # the first step sets the starting rates
        finally:
            self._is_initial = False

    def state_dict(self) -> dict:
        """Every attribute but the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list:
        """The learning rates the last ``step()`` wrote, one per parameter group."""
        return self._last_lr

    def get_lr(self) -> list:
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Move to the next epoch and set each group's ``lr`` (call it after ``optimizer.step()``)."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn("Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                              "initialization. Please, make sure to call `optimizer.step()` before "
                              "`lr_scheduler.step()`. See more details at "
                              "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                              UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 "
                              "and later, you should call them in the opposite order: `optimizer.step()` before "
                              "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the "
                              "first value of the learning rate schedule. See more details at "
                              "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                              UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _initial_step(self) -> None:
        """Set the starting rates again, as at construction (SequentialLR does so for its first scheduler)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def _update_lr(self, epoch: int | None = None) -> None:
        """Write the next rates (``get_lr()``), or the closed-form rates of epoch ``epoch``, into the groups."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _warn_if_called_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=3)

    def _current_lrs(self) -> list:
        return [group["lr"] for group in self.optimizer.param_groups]


def _check_optimizer(optimizer) -> None:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")


def _track_step_calls(opt: Optimizer) -> None:
    """Wrap ``opt.step`` (once) so that it notes it ran: ``scheduler.step()`` warns when it comes first."""
    if hasattr(opt.step, "_wrapped_by_lr_sched"):
        return
    opt_ref, func = ref(opt), opt.step.__func__

    @wraps(func)
    def wrapper(*args, **kwargs):
        opt = opt_ref()
        opt._opt_called = True
        return func.__get__(opt, opt.__class__)(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    opt.step = wrapper


def _lambdas_per_group(optimizer: Optimizer, lr_lambda) -> list:
    """One function for each parameter group: ``lr_lambda`` for all, or the list given (one per group)."""
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
    return list(lr_lambda)


class LambdaLR(LRScheduler):
    """``lr = base_lr * lr_lambda(epoch)``, one function for all groups or one per group."""

    def __init__(self, optimizer: Optimizer, lr_lambda, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas_per_group(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict:
        """As the base class, with ``lr_lambdas`` as the ``__dict__`` of callable objects (None for functions)."""
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas
        for fn, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class StepLR(LRScheduler):
    """``lr = base_lr * gamma ** (epoch // step_size)``: multiply by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """``lr = base_lr * gamma ** (number of milestones reached)``: multiply by ``gamma`` at each milestone."""

    def __init__(self, optimizer: Optimizer, milestones, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self.last_epoch not in self.milestones:
            return self._current_lrs()
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch] for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """``lr = base_lr * gamma ** epoch``: multiply by ``gamma`` every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """``lr = eta_min + (base_lr - eta_min) (1 + cos(pi epoch / T_max)) / 2``, computed step by step as torch
    does (each rate from the previous one), so a rate changed by hand carries on."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        eta_min, t, t_max = self.eta_min, self.last_epoch, self.T_max
        if self._is_initial:
            return self._current_lrs()
        if self._step_count == 1 and t > 0:
            return [eta_min + (base_lr - eta_min) * (1 + math.cos(t * math.pi / t_max)) / 2
                    for base_lr in self.base_lrs]
        if (t - 1 - t_max) % (2 * t_max) == 0:
            return [group["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base_lr, group in zip(self.base_lrs, self.optimizer.param_groups)]
        return [(1 + math.cos(math.pi * t / t_max)) / (1 + math.cos(math.pi * (t - 1) / t_max))
                * (group["lr"] - eta_min) + eta_min for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        cosine = 1 + math.cos(math.pi * self.last_epoch / self.T_max)
        return [self.eta_min + (base_lr - self.eta_min) * cosine / 2 for base_lr in self.base_lrs]


class MultiplicativeLR(LRScheduler):
    """``lr = previous lr * lr_lambda(epoch)``: the factor multiplies the rate of the epoch before, where LambdaLR
    multiplies the starting rate.

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = MultiplicativeLR(opt, lambda epoch: 0.5)
    >>> opt.step(); sched.step(); opt.step(); sched.step(); sched.get_last_lr()
    [0.25]
    """

    def __init__(self, optimizer: Optimizer, lr_lambda, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas_per_group(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    state_dict = LambdaLR.state_dict
    load_state_dict = LambdaLR.load_state_dict

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [group["lr"] * fn(self.last_epoch) for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups)]


class ConstantLR(LRScheduler):
    """``lr = base_lr * factor`` for the first ``total_iters`` epochs, then ``base_lr``: a constant warm-up.

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = ConstantLR(opt, factor=0.5, total_iters=1)
    >>> print(sched.get_last_lr()); opt.step(); sched.step(); print(sched.get_last_lr())
    [0.5]
    [1.0]
    """

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return self._current_lrs()
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """``lr = base_lr * (start_factor + (end_factor - start_factor) * min(epoch, total_iters) / total_iters)``:
    a linear warm-up, computed step by step from the previous rate as torch does.

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = LinearLR(opt, start_factor=0.5, total_iters=2)
    >>> for _ in range(3):
    ...     print(sched.get_last_lr()); opt.step(); sched.step()
    [0.5]
    [0.75]
    [1.0]
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        change = self.end_factor - self.start_factor
        ratio = 1.0 + change / (self.total_iters * self.start_factor + (self.last_epoch - 1) * change)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters) for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """``lr = base_lr * (1 - min(epoch, total_iters) / total_iters) ** power``: decays to 0 at ``total_iters``.

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = PolynomialLR(opt, total_iters=4, power=1.0)
    >>> opt.step(); sched.step(); sched.get_last_lr()
    [0.75]
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        decay = ((1.0 - self.last_epoch / self.total_iters)
                 / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [group["lr"] * decay for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for base_lr in self.base_lrs]


class SequentialLR(LRScheduler):
    """Run ``schedulers[0]`` until ``milestones[0]``, then ``schedulers[1]`` (restarted at its epoch 0), and so
    on: e.g. a LinearLR warm-up followed by a cosine decay.

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> warm, decay = ConstantLR(opt, factor=0.5, total_iters=2), ExponentialLR(opt, gamma=0.5)
    >>> sched = SequentialLR(opt, [warm, decay], milestones=[2])
    >>> for _ in range(4):
    ...     print(sched.get_last_lr()); opt.step(); sched.step()
    [0.5]
    [0.5]
    [1.0]
    [0.5]
    """

    def __init__(self, optimizer: Optimizer, schedulers: list, milestones: list, last_epoch: int = -1) -> None:
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
        _check_schedulers(name, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             f"number of milestone points, but got number of schedulers {len(schedulers)} and the "
                             f"number of milestones to be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # undo what the schedulers' construction did to the rates
            group["lr"] = group["initial_lr"]
        self._recursive_undo(self)
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def _recursive_undo(self, scheduler) -> None:
        if hasattr(scheduler, "_schedulers"):
            for inner in scheduler._schedulers:
                self._recursive_undo(inner)
        elif hasattr(scheduler, "last_epoch"):
            scheduler.last_epoch -= 1

    def step(self) -> None:
        """Step the scheduler of this epoch; at a milestone, start the next one at its epoch 0."""
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self) -> dict:
        """As the base class, with each scheduler's own state dict under ``_schedulers``."""
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        schedulers = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        state_dict["_schedulers"] = schedulers
        for scheduler, saved in zip(self._schedulers, schedulers):
            scheduler.load_state_dict(saved)


def _check_schedulers(name: str, optimizer: Optimizer, schedulers) -> None:
    """What SequentialLR and ChainedScheduler ask of the schedulers they run, in torch's words."""
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {i} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(f"{name} does not support `ReduceLROnPlateau` scheduler as it requires additional "
                             "kwargs to be specified when calling `step`, but got one at index "
                             f"{i} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(f"{name} expects all schedulers to belong to the same optimizer, but got scheduler "
                             f"{type(scheduler).__name__} at index {i} has {scheduler.optimizer}, which is "
                             f"different from {type(optimizer).__name__}.")


def _per_group(name: str, optimizer: Optimizer, value) -> list:
    """One value per parameter group: ``value`` repeated, or a list or tuple of the right length."""
    if not isinstance(value, (list, tuple)):
        return [value] * len(optimizer.param_groups)
    if len(value) != len(optimizer.param_groups):
        raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has {len(value)} "
                         f"values, param_groups has {len(optimizer.param_groups)}.")
    return list(value)


class OneCycleLR(LRScheduler):
    """The 1cycle policy, stepped once per *batch*: the rate climbs from ``max_lr / div_factor`` to ``max_lr``
    over the first ``pct_start`` of ``total_steps``, then anneals (cosine or linear) down to
    ``initial_lr / final_div_factor``; momentum (or Adam's beta1) moves the opposite way, between
    ``max_momentum`` and ``base_momentum``. ``three_phase`` comes back down to the starting rate symmetrically
    before the final annealing. Between phase ends s0 < s1 at step t the value is
    ``anneal(start, end, (t - s0) / (s1 - s0))``, cosine: ``end + (start - end) (1 + cos(pi pct)) / 2``.

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    >>> sched = OneCycleLR(opt, max_lr=1.0, total_steps=10)
    >>> lrs = [round(sched.get_last_lr()[0], 4)]
    >>> for _ in range(9):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(round(sched.get_last_lr()[0], 4))
    >>> lrs                             # up from 1/25 to 1 at step 0.3 * 10 - 1 = 2, then down to 1/25/1e4
    [0.04, 0.52, 1.0, 0.9505, 0.8117, 0.6113, 0.3887, 0.1883, 0.0495, 0.0]
    """

    def __init__(self, optimizer: Optimizer, max_lr, total_steps: int | None = None, epochs: int | None = None,
                 steps_per_epoch: int | None = None, pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum=0.85, max_momentum=0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False, last_epoch: int = -1) -> None:
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        up = float(pct_start * self.total_steps) - 1
        # each phase: its last step, and the group keys of the rate and momentum it goes from and to
        if three_phase:
            phases = [(up, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                      (float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr", "base_momentum",
                       "max_momentum"),
                      (self.total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
        else:
            phases = [(up, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                      (self.total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]
        keys = ("end_step", "start_lr", "end_lr", "start_momentum", "end_momentum")
        self._schedule_phases = [dict(zip(keys, phase)) for phase in phases]  # torch's state_dict entry
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        if last_epoch == -1:
            for group, top in zip(optimizer.param_groups, _per_group("max_lr", optimizer, max_lr)):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            tops = _per_group("max_momentum", optimizer, max_momentum)
            bases = _per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for top, base, group in zip(tops, bases, optimizer.param_groups):
                    self._set_momentum(group, top)
                    group["max_momentum"] = top
                    group["base_momentum"] = base
        super().__init__(optimizer, last_epoch)

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end = phase["end_step"]
                if step <= end or i == len(self._schedule_phases) - 1:
                    pct = (step - start) / (end - start)
                    lrs.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        momentum = self._anneal(group[phase["start_momentum"]], group[phase["end_momentum"]], pct)
                        self._set_momentum(group, momentum)
                    break
                start = end
        return lrs


class ReduceLROnPlateau(LRScheduler):
    """Multiply the rates by ``factor`` once the watched metric (``step(val_loss)``) has not improved for more
    than ``patience`` epochs in a row, then wait ``cooldown`` epochs before counting again; never below
    ``min_lr``, and not at all when the change would be at most ``eps``.

    "Improved" in mode "min" with threshold_mode "rel": ``metric < best * (1 - threshold)``; "abs":
    ``metric < best - threshold``; mode "max" mirrors both.

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = ReduceLROnPlateau(opt, patience=1)
    >>> for loss in [3.0, 2.0, 2.0, 2.0, 2.5, 1.0]:
    ...     sched.step(loss)
    ...     print(sched.get_last_lr(), sched.num_bad_epochs)
    [1.0] 0
    [1.0] 0
    [1.0] 1
    [0.1] 0
    [0.1] 1
    [0.1] 0
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr=0,
                 eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = self._current_lrs()
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics, epoch: int | None = None) -> None:
        """Count the epoch as good or bad by ``metrics`` (a number or a 0-dim tensor); reduce the rates if due."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = self._current_lrs()

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(f"The number of param groups in the `optimizer` ({len(groups)}) differs from when "
                                   f"`ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due to a new "
                                   "param group being added to the optimizer. Please modify the `min_lrs` field to "
                                   "match the length of the `optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old = float(group["lr"])
            new = max(old * self.factor, min_lr)
            if old - new > self.eps:
                group["lr"] = new

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def _is_better(self, a: float, best: float) -> bool:
        if self.mode == "min":
            return a < best * (1.0 - self.threshold) if self.threshold_mode == "rel" else a < best - self.threshold
        return a > best * (self.threshold + 1.0) if self.threshold_mode == "rel" else a > best + self.threshold

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing that restarts: within a run of ``T_i`` epochs,
    ``lr = eta_min + (base_lr - eta_min) (1 + cos(pi T_cur / T_i)) / 2``; then ``T_cur`` goes back to 0 and the
    next run lasts ``T_i * T_mult`` epochs (SGDR). ``step(epoch)`` may take a fractional epoch (a batch's place).

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
    >>> lrs = []
    >>> for _ in range(7):
    ...     lrs.append(round(sched.get_last_lr()[0], 3)); opt.step(); sched.step()
    >>> lrs                                         # runs of 2, then 4 epochs
    [1.0, 0.5, 1.0, 0.854, 0.5, 0.146, 1.0]
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}")
        self.T_0, self.T_i, self.T_mult, self.eta_min, self.T_cur = T_0, T_0, T_mult, eta_min, last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        cosine = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return [self.eta_min + (base_lr - self.eta_min) * cosine / 2 for base_lr in self.base_lrs]

    def step(self, epoch=None) -> None:
        """The next epoch (a restart when a run is over), or the place of ``epoch`` in its run."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:  # the run that epoch falls in: T_0 (T_mult^n - 1) / (T_mult - 1) epochs came before it
                n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i = self.T_0
            self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = self._current_lrs()


class CyclicLR(LRScheduler):
    """The rate goes up from ``base_lr`` to ``max_lr`` in ``step_size_up`` steps (batches) and back down in
    ``step_size_down``, again and again; momentum (or Adam's beta1) goes the other way. In cycle ``c``, at
    ``x`` of the way (0..1): ``lr = base_lr + (max_lr - base_lr) * h(x) * scale``, ``h`` the triangle, and
    ``scale`` 1 (``triangular``), ``1 / 2^(c - 1)`` (``triangular2``) or ``gamma^step`` (``exp_range``).

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0, momentum=0.9)
    >>> sched = CyclicLR(opt, base_lr=0.1, max_lr=0.5, step_size_up=2)
    >>> lrs = []
    >>> for _ in range(6):
    ...     lrs.append(round(sched.get_last_lr()[0], 3)); opt.step(); sched.step()
    >>> lrs
    [0.1, 0.3, 0.5, 0.3, 0.1, 0.3]
    """

    def __init__(self, optimizer: Optimizer, base_lr, max_lr, step_size_up: int = 2000, step_size_down=None,
                 mode: str = "triangular", gamma: float = 1.0, scale_fn=None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum=0.8, max_momentum=0.9, last_epoch: int = -1) -> None:
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma = mode, gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            self.max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            if last_epoch == -1:
                for top, base, group in zip(self.max_momentums, self.base_momentums, optimizer.param_groups):
                    self._set_momentum(group, top)
                    group["max_momentum"] = top
                    group["base_momentum"] = base
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    _set_momentum = OneCycleLR._set_momentum

    def _init_scale_fn(self) -> None:
        """The built-in scale of ``mode`` (each forces its ``scale_mode``), unless a ``scale_fn`` was given."""
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref, self.scale_mode = (lambda x: 1.0), "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref, self.scale_mode = (lambda x: 1 / (2.0 ** (x - 1))), "cycle"
        elif self.mode == "exp_range":
            gamma = self.gamma
            self._scale_fn_ref, self.scale_mode = (lambda x: gamma ** x), "iterations"

    def scale_fn(self, x) -> float:
        """The amplitude's scale at cycle (or step) ``x``."""
        fn = self._scale_fn_custom if self._scale_fn_custom is not None else self._scale_fn_ref
        return fn(x)

    def get_lr(self) -> list:
        self._warn_if_called_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base_lr + (max_lr - base_lr) * scale_factor * scale for base_lr, max_lr in zip(self.base_lrs,
                                                                                              self.max_lrs)]
        if self.cycle_momentum:
            for group, base, top in zip(self.optimizer.param_groups, self.base_momentums, self.max_momentums):
                self._set_momentum(group, top - (top - base) * scale_factor * scale)
        return lrs

    def state_dict(self) -> dict:
        """As the base class, without the built-in scale; a custom one only as its attributes (a callable
        object's ``__dict__``; a plain function is not saved)."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class ChainedScheduler(LRScheduler):
    """Step several schedulers of one optimizer together, each ``step()`` of every one in turn, so their
    factors multiply (e.g. a ConstantLR warm-up and an ExponentialLR decay at once).

    >>> import autograd_tutor as torch
    >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = ChainedScheduler([ConstantLR(opt, factor=0.5, total_iters=2), ExponentialLR(opt, gamma=0.5)])
    >>> for _ in range(4):
    ...     print(sched.get_last_lr()); opt.step(); sched.step()
    [0.5]
    [0.25]
    [0.25]
    [0.125]
    """

    def __init__(self, schedulers, optimizer: Optimizer | None = None) -> None:
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler to be chained, but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_schedulers(name, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = [group["lr"] for group in self._schedulers[-1].optimizer.param_groups]

    def step(self) -> None:
        """One step of each scheduler, in order."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = [group["lr"] for group in self._schedulers[-1].optimizer.param_groups]

    state_dict = SequentialLR.state_dict
    load_state_dict = SequentialLR.load_state_dict
