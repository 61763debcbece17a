"""RMSprop, AdamW, Adagrad, Adadelta, Adamax, NAdam, RAdam, Rprop, the learning-rate schedulers (OneCycleLR, ReduceLROnPlateau, CosineAnnealingWarmRestarts, CyclicLR and
ChainedScheduler too) and gradient
clipping, run in torch and in autograd_tutor: the same reprs, state_dict keys, learning rates, warnings and errors,
and the same losses and weights after 10 steps from ``torch.manual_seed`` (float32 tolerance: torch's CPU ``sqrt``
is not correctly rounded)."""
import textwrap

import pytest

torch = pytest.importorskip("torch")

SETUP = """
nn, F = torch.nn, torch.nn.functional
def make(seed=0):
    torch.manual_seed(seed)
    net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    return net, torch.randn(16, 3), torch.randn(16, 1)
def train(opt_fn, steps=10, sched_fn=None, clip=None):
    net, x, y = make()
    opt = opt_fn(net.parameters())
    sched = sched_fn(opt) if sched_fn else None
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(net(x), y)
        loss.backward()
        if clip is not None:
            val(clip(net.parameters()))
        opt.step()
        if sched:
            sched.step()
            print(sched.last_epoch, sched.get_last_lr(), [g["lr"] for g in opt.param_groups])
        val(loss)
    for p in net.parameters():
        val(p)
    print(round(loss.item(), 4), sorted(opt.state_dict()["state"][0]))
    return opt
"""

CASES = {
    "reprs and defaults": """
        net, _, _ = make()
        for opt in (torch.optim.RMSprop(net.parameters()), torch.optim.AdamW(net.parameters()),
                    torch.optim.Adagrad(net.parameters()),
                    torch.optim.RMSprop(net.parameters(), lr=0.1, momentum=0.9, centered=True, weight_decay=1e-3),
                    torch.optim.AdamW(net.parameters(), lr=0.01, betas=(0.8, 0.9), amsgrad=True),
                    torch.optim.Adagrad(net.parameters(), lr_decay=0.1, initial_accumulator_value=0.5)):
            print(opt)
            print(opt.state_dict()["param_groups"], len(opt.state))
        ada = torch.optim.Adagrad(net.parameters(), initial_accumulator_value=0.25)
        print(ada.state[net[0].bias]["step"], ada.state[net[0].bias]["sum"])
    """,
    "errors": """
        net, _, _ = make()
        p = net.parameters
        with expect(): torch.optim.RMSprop(p(), lr=-0.1)
        with expect(): torch.optim.RMSprop(p(), eps=-1.0)
        with expect(): torch.optim.RMSprop(p(), momentum=-0.5)
        with expect(): torch.optim.RMSprop(p(), weight_decay=-1)
        with expect(): torch.optim.RMSprop(p(), alpha=-0.9)
        with expect(): torch.optim.AdamW(p(), lr=-1e-3)
        with expect(): torch.optim.AdamW(p(), betas=(0.9, 1.0))
        with expect(): torch.optim.AdamW(p(), weight_decay=-0.01)
        with expect(): torch.optim.Adagrad(p(), lr=-0.01)
        with expect(): torch.optim.Adagrad(p(), lr_decay=-1)
        with expect(): torch.optim.Adagrad(p(), weight_decay=-1)
        with expect(): torch.optim.Adagrad(p(), initial_accumulator_value=-1)
        with expect(): torch.optim.Adagrad(p(), eps=-1.0)
        with expect(): torch.optim.RMSprop([], lr=0.1)
        with expect(): torch.optim.lr_scheduler.StepLR("sgd", 2)
        opt = torch.optim.SGD(p(), lr=0.1)
        with expect(): torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1.0, lambda e: 2.0])
        with expect(): torch.optim.lr_scheduler.StepLR(opt, 2, last_epoch=3)
        net[0].weight.grad = torch.full((8, 3), float("nan"))
        with expect(): nn.utils.clip_grad_norm_(p(), 1.0, error_if_nonfinite=True)
        with expect(): nn.utils.clip_grad_norm_(p(), 1.0, norm_type="inf", error_if_nonfinite=True)
        print(nn.utils.clip_grad_norm_(p(), 1.0))
    """,
    "rmsprop": """
        train(lambda ps: torch.optim.RMSprop(ps))
        train(lambda ps: torch.optim.RMSprop(ps, lr=0.005, momentum=0.9, weight_decay=0.01))
        train(lambda ps: torch.optim.RMSprop(ps, lr=0.01, alpha=0.9, centered=True))
        opt = train(lambda ps: torch.optim.RMSprop(ps, lr=0.01, momentum=0.5, centered=True, maximize=True), steps=4)
        print(opt.state[opt.param_groups[0]["params"][0]]["step"])
    """,
    "adamw and adam options": """
        train(lambda ps: torch.optim.AdamW(ps))
        train(lambda ps: torch.optim.AdamW(ps, lr=0.02, weight_decay=0.5, amsgrad=True))
        train(lambda ps: torch.optim.AdamW(ps, lr=0.01, betas=(0.5, 0.9), maximize=True), steps=4)
        train(lambda ps: torch.optim.Adam(ps, lr=0.02, weight_decay=0.1, amsgrad=True))
    """,
    "adagrad": """
        train(lambda ps: torch.optim.Adagrad(ps))
        train(lambda ps: torch.optim.Adagrad(ps, lr=0.1, lr_decay=0.05, weight_decay=0.01,
                                             initial_accumulator_value=0.1, eps=1e-6))
        net, x, y = make()
        opt = torch.optim.Adagrad(net[0].parameters(), lr=0.1)
        opt.add_param_group({"params": net[2].parameters(), "lr": 0.05})
        F.mse_loss(net(x), y).backward()
        opt.step()
        print(len(opt.state), opt.state[net[2].bias]["step"])
        val(net[2].weight, opt.state[net[2].weight]["sum"])
    """,
    "adadelta, adamax, nadam, radam, rprop: reprs, state and errors": """
        net, _, _ = make()
        p = net.parameters
        for opt in (torch.optim.Adadelta(p()), torch.optim.Adamax(p()), torch.optim.NAdam(p()), torch.optim.RAdam(p()),
                    torch.optim.Rprop(p()), torch.optim.NAdam(p(), lr=0.01, momentum_decay=0.01, decoupled_weight_decay=True),
                    torch.optim.Rprop(p(), lr=0.1, etas=(0.4, 1.1), step_sizes=(0.01, 1), maximize=True)):
            print(opt)
            print(opt.state_dict()["param_groups"], len(opt.state))
        with expect(): torch.optim.Adadelta(p(), lr=-1)
        with expect(): torch.optim.Adadelta(p(), rho=1.5)
        with expect(): torch.optim.Adadelta(p(), eps=-1.0)
        with expect(): torch.optim.Adadelta(p(), weight_decay=-1)
        with expect(): torch.optim.Adamax(p(), betas=(1.0, 0.9))
        with expect(): torch.optim.Adamax(p(), betas=(0.9, -0.1))
        with expect(): torch.optim.NAdam(p(), momentum_decay=-1)
        with expect(): torch.optim.NAdam(p(), eps=-1e-8)
        with expect(): torch.optim.RAdam(p(), weight_decay=-0.1)
        with expect(): torch.optim.Rprop(p(), etas=(1.5, 1.2))
        with expect(): torch.optim.Rprop(p(), etas=(0.5, 0.9))
        with expect(): torch.optim.Rprop(p(), lr=-0.1)
    """,
    "adadelta and adamax": """
        opt = train(lambda ps: torch.optim.Adadelta(ps))
        print(opt.state[opt.param_groups[0]["params"][0]]["step"])
        train(lambda ps: torch.optim.Adadelta(ps, lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1, maximize=True), steps=4)
        train(lambda ps: torch.optim.Adamax(ps))
        train(lambda ps: torch.optim.Adamax(ps, lr=0.05, betas=(0.5, 0.9), weight_decay=0.1))
    """,
    "nadam and radam": """
        opt = train(lambda ps: torch.optim.NAdam(ps))
        print(opt.state[opt.param_groups[0]["params"][0]]["mu_product"])
        train(lambda ps: torch.optim.NAdam(ps, lr=0.05, weight_decay=0.1, momentum_decay=0.01))
        train(lambda ps: torch.optim.NAdam(ps, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True))
        train(lambda ps: torch.optim.RAdam(ps), steps=12)  # rho_t > 5 from step 6: plain momentum steps before
        train(lambda ps: torch.optim.RAdam(ps, lr=0.05, betas=(0.8, 0.9), weight_decay=0.1))
        train(lambda ps: torch.optim.RAdam(ps, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True, maximize=True),
              steps=4)
    """,
    "rprop": """
        opt = train(lambda ps: torch.optim.Rprop(ps), steps=15)
        print(opt.state[opt.param_groups[0]["params"][0]]["step_size"])
        train(lambda ps: torch.optim.Rprop(ps, lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.1)), steps=15)
        train(lambda ps: torch.optim.Rprop(ps, maximize=True), steps=4)
        w = torch.nn.Parameter(torch.tensor([1., -2., 3.]))
        opt = torch.optim.Rprop([w], lr=0.5)
        for g in ([1., 1., -1.], [-1., 1., 0.], [1., 1., 2.], [0., -3., 2.]):  # sign flips skip a step and shrink it
            w.grad = torch.tensor(g)
            opt.step()
            print(w, opt.state[w]["step_size"], opt.state[w]["prev"])
    """,
    "step, exponential and multistep schedulers": """
        train(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9),
              sched_fn=lambda opt: torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5))
        train(lambda ps: torch.optim.Adam(ps, lr=0.05),
              sched_fn=lambda opt: torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9))
        train(lambda ps: torch.optim.RMSprop(ps, lr=0.01),
              sched_fn=lambda opt: torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 5, 5, 8], gamma=0.3))
    """,
    "cosine and lambda schedulers": """
        train(lambda ps: torch.optim.AdamW(ps, lr=0.03),
              sched_fn=lambda opt: torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.001))
        train(lambda ps: torch.optim.Adagrad(ps, lr=0.2),
              sched_fn=lambda opt: torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10))
        net, _, _ = make()
        groups = [{"params": net[0].parameters()}, {"params": net[2].parameters(), "lr": 0.5}]
        opt = torch.optim.SGD(groups, lr=0.1)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 0.9 ** e, lambda e: 1 / (e + 1)])
        print(sched.get_last_lr(), [g["initial_lr"] for g in opt.param_groups], sched.base_lrs)
        for epoch in range(5):
            opt.step()
            sched.step()
            print(epoch, sched.get_last_lr())
        print(sorted(sched.state_dict()), sched.state_dict()["lr_lambdas"], sched.last_epoch)
        print(opt)
    """,
    "warm restarts, cyclic and chained schedulers": """
        S = torch.optim.lr_scheduler
        train(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9),
              sched_fn=lambda opt: S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01))
        train(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9),
              sched_fn=lambda opt: S.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=2))
        train(lambda ps: torch.optim.Adam(ps, lr=0.01),
              sched_fn=lambda opt: S.CyclicLR(opt, 0.001, 0.05, step_size_up=2, mode="triangular2"))
        opt = train(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.5), steps=12,
                    sched_fn=lambda opt: S.CyclicLR(opt, 0.01, 0.1, 2, mode="exp_range", gamma=0.9))
        print([g["momentum"] for g in opt.param_groups], sorted(opt.param_groups[0]))
        train(lambda ps: torch.optim.RMSprop(ps, lr=0.01),
              sched_fn=lambda opt: S.CyclicLR(opt, 0.001, 0.01, 2, scale_fn=lambda x: 0.5 ** x, scale_mode="iterations",
                                              cycle_momentum=False))
        train(lambda ps: torch.optim.SGD(ps, lr=0.1),
              sched_fn=lambda opt: S.ChainedScheduler([S.ConstantLR(opt, factor=0.5, total_iters=3),
                                                       S.ExponentialLR(opt, gamma=0.8)]))
        net, _, _ = make()
        opt = torch.optim.SGD(net.parameters(), lr=1.0)
        warm = S.CosineAnnealingWarmRestarts(opt, T_0=4, T_mult=3)
        for epoch in (0.5, 1, 4, 5.5, 16, 17, 3):
            warm.step(epoch)
            print(epoch, warm.get_last_lr(), warm.T_cur, warm.T_i, warm.last_epoch)
        print(sorted(warm.state_dict()), warm._step_count)
        cyc = S.CyclicLR(torch.optim.SGD(net.parameters(), lr=1.0, momentum=0.9), [0.1], [1.0], step_size_up=4)
        print(sorted(cyc.state_dict()), cyc.state_dict()["_scale_fn_custom"], cyc.base_lrs, cyc.get_last_lr())
        chain = S.ChainedScheduler([S.StepLR(opt, 2), S.MultiStepLR(opt, [3])])
        print(sorted(chain.state_dict()), chain.get_last_lr(), isinstance(chain, S.LRScheduler))
        with expect(): S.CosineAnnealingWarmRestarts(opt, T_0=0)
        with expect(): S.CosineAnnealingWarmRestarts(opt, T_0=2.5)
        with expect(): S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0)
        with expect(): S.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="0")
        with expect(): warm.step(-1)
        with expect(): S.CyclicLR(opt, 0.1, 1.0, mode="square")
        with expect(): S.CyclicLR(opt, 0.1, 1.0)
        with expect(): S.CyclicLR(torch.optim.SGD(net.parameters(), lr=1.0, momentum=0.9), [0.1, 0.2], 1.0)
        with expect(): S.ChainedScheduler([])
        with expect(): S.ChainedScheduler([S.StepLR(opt, 2), S.ReduceLROnPlateau(opt)])
        with expect(): S.ChainedScheduler([S.StepLR(opt, 2), S.StepLR(torch.optim.SGD(net.parameters()), 2)])
    """,
    "scheduler state, warnings and closed forms": """
        net, _, _ = make()
        opt = torch.optim.SGD(net.parameters(), lr=1.0)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2)
        print(sched.state_dict())
        sched.step()  # before optimizer.step(): torch warns
        print(sched.get_last_lr())
        sched.get_lr()
        sched.step(5)
        print(sched.get_last_lr(), sched.last_epoch)
        exp = torch.optim.lr_scheduler.ExponentialLR(torch.optim.SGD(net.parameters(), lr=0.1), gamma=0.5)
        exp.step(3)
        print(exp.get_last_lr())
        opt2 = torch.optim.SGD(net.parameters(), lr=0.2)
        cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=3)
        lrs = []
        for _ in range(8):
            opt2.step()
            cos.step()
            lrs.append(cos.get_last_lr()[0])
        print(lrs)
        ms = torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD(net.parameters(), lr=1.0), [1, 3])
        ms.optimizer.step()
        ms.step(4)
        print(ms.get_last_lr(), sorted(ms.milestones.items()))
        resumed = torch.optim.lr_scheduler.StepLR(opt, step_size=2, last_epoch=6)
        print(resumed.get_last_lr(), resumed.base_lrs)
    """,
    "OneCycleLR over 30 steps, its momentum and errors": """
        OneCycleLR = torch.optim.lr_scheduler.OneCycleLR
        opt = train(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9), steps=30,
                    sched_fn=lambda opt: OneCycleLR(opt, max_lr=0.5, total_steps=30))
        print(opt, [g["momentum"] for g in opt.param_groups])
        opt = train(lambda ps: torch.optim.Adam(ps, lr=0.01), steps=30,
                    sched_fn=lambda opt: OneCycleLR(opt, max_lr=0.05, epochs=3, steps_per_epoch=10, pct_start=0.25,
                                                    anneal_strategy="linear", three_phase=True))
        print(opt.param_groups[0]["betas"], sorted(opt.param_groups[0]))
        net, _, _ = make()
        groups = [{"params": net[0].parameters()}, {"params": net[2].parameters(), "lr": 0.5}]
        opt = torch.optim.SGD(groups, lr=0.1, momentum=0.5)
        sched = OneCycleLR(opt, max_lr=[1.0, 0.2], total_steps=12, base_momentum=[0.8, 0.7], max_momentum=0.9,
                           div_factor=10.0, final_div_factor=100.0, pct_start=0.5)
        print(sched.get_last_lr(), sched.base_lrs, [g["momentum"] for g in opt.param_groups])
        for _ in range(12):
            opt.step()
            sched.step()
            print(sched.last_epoch, [round(v, 6) for v in sched.get_last_lr()],
                  [round(g["momentum"], 6) for g in opt.param_groups])
        with expect(): sched.step()
        print(sorted(sched.state_dict()))
        with expect(): sched.get_lr()
        with expect(): OneCycleLR(opt, max_lr=1.0)
        with expect(): OneCycleLR(opt, max_lr=1.0, total_steps=0)
        with expect(): OneCycleLR(opt, max_lr=1.0, epochs=2.0, steps_per_epoch=3)
        with expect(): OneCycleLR(opt, max_lr=1.0, epochs=2, steps_per_epoch=0)
        with expect(): OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=1)
        with expect(): OneCycleLR(opt, max_lr=1.0, total_steps=10, anneal_strategy="exp")
        with expect(): OneCycleLR(opt, max_lr=[1.0], total_steps=10)
        with expect(): OneCycleLR(torch.optim.Adagrad(net.parameters()), max_lr=1.0, total_steps=10)
        with expect(): OneCycleLR(net, max_lr=1.0, total_steps=10)
        adagrad = torch.optim.Adagrad(net.parameters())
        print(OneCycleLR(adagrad, max_lr=1.0, total_steps=10, cycle_momentum=False).get_last_lr())
    """,
    "ReduceLROnPlateau over 30 epochs, modes and errors": """
        Plateau = torch.optim.lr_scheduler.ReduceLROnPlateau
        net, x, y = make()
        opt = torch.optim.SGD(net.parameters(), lr=0.5)
        sched = Plateau(opt, patience=2, factor=0.5, min_lr=0.05, cooldown=1)
        print(sched.get_last_lr(), sched.last_epoch, sched.best, sorted(sched.state_dict()),
              isinstance(sched, torch.optim.lr_scheduler.LRScheduler))
        metrics = [1.0, 0.9, 0.95, 0.9, 0.91, 0.92] + [0.8] * 9 + [0.79999] + [0.7] * 14
        for m in metrics:
            opt.zero_grad()
            loss = F.mse_loss(net(x), y)
            loss.backward()
            opt.step()
            sched.step(torch.tensor(m))
            print(sched.last_epoch, sched.get_last_lr(), sched.best, sched.num_bad_epochs, sched.cooldown_counter)
            val(loss)
        for mode, threshold_mode in [("max", "rel"), ("max", "abs"), ("min", "abs")]:
            groups = [{"params": net[0].parameters()}, {"params": net[2].parameters(), "lr": 0.01}]
            opt = torch.optim.SGD(groups, lr=1.0)
            sched = Plateau(opt, mode=mode, threshold=0.1, threshold_mode=threshold_mode, patience=0, min_lr=[0.2, 0.0],
                            eps=0.005)
            for m in [1.0, 1.05, 1.2, 0.5, 1.21, 1.4, 1.3, 0.2, 0.0, 0.0]:
                sched.step(m)
                print(mode, threshold_mode, sched.get_last_lr(), sched.best, sched.num_bad_epochs)
        state = sched.state_dict()
        print(sorted(state))
        sched.step(3, epoch=20)
        print(sched.last_epoch)
        other = Plateau(opt)
        other.load_state_dict(state)
        print(other.mode, other.threshold, other.mode_worse, other.best, other.last_epoch)
        opt.add_param_group({"params": [nn.Parameter(torch.zeros(1))]})
        with expect(): [sched.step(5.0) for _ in range(3)]
        sched2 = Plateau(opt, patience=0, min_lr=0.001)
        opt.add_param_group({"params": [nn.Parameter(torch.zeros(1))], "lr": 1.0})
        sched2.step(1.0); sched2.step(2.0)
        print(sched2.get_last_lr(), sched2.min_lrs)
        with expect(): Plateau(opt, factor=1.0)
        with expect(): Plateau(opt, mode="avg")
        with expect(): Plateau(opt, threshold_mode="pct")
        with expect(): Plateau(opt, min_lr=[0.1])
        with expect(): Plateau(net)
        with expect(): sched.get_lr()
    """,
    "clip_grad_norm_ and clip_grad_value_": """
        clip_grad_norm_, clip_grad_value_ = torch.nn.utils.clip_grad_norm_, torch.nn.utils.clip_grad_value_
        def grads():
            net, x, y = make()
            (F.mse_loss(net(x), y) * 50).backward()
            return net
        net = grads()
        total = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
        print(type(total).__name__, total.dtype, total.shape, total.requires_grad, total.grad_fn)
        val(total, *[p.grad for p in net.parameters()])
        print(round(total.item(), 3), round(sum(p.grad.norm() ** 2 for p in net.parameters()).sqrt().item(), 4))
        for norm_type in (1, 3.0, float("inf")):
            net = grads()
            val(clip_grad_norm_(net.parameters(), 0.5, norm_type=norm_type), *[p.grad for p in net.parameters()])
        net = grads()
        print(clip_grad_norm_(net[0].weight, 1e6) is not None)  # a single tensor; a large max_norm changes nothing
        val(net[0].weight.grad)
        print(clip_value := clip_grad_value_(net.parameters(), 0.05))
        print(net[2].bias.grad, net[0].weight.grad.abs().max())
        print(clip_grad_norm_([], 1.0), clip_grad_norm_((p for p in []), 1.0))
        print(clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0))
        train(lambda ps: torch.optim.SGD(ps, lr=0.5, momentum=0.9),
              clip=lambda ps: torch.nn.utils.clip_grad_norm_(ps, 0.3))
        train(lambda ps: torch.optim.Adam(ps, lr=0.05), clip=lambda ps: clip_grad_value_(ps, 0.1) or torch.zeros(1))
    """,
    "parameters_to_vector and vector_to_parameters": """
        torch.manual_seed(0)
        net = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1, bias=False))
        v = nn.utils.parameters_to_vector(net.parameters())
        print(v, v.grad_fn, v.shape)
        (v ** 2).sum().backward()
        print(net[0].weight.grad, net[2].weight.grad)
        nn.utils.vector_to_parameters(torch.arange(11.), net.parameters())
        print(list(net.parameters()), net[0].weight.is_leaf, net[0].weight.requires_grad)
        w = torch.arange(20.)
        nn.utils.vector_to_parameters(w, net.parameters())
        w[0] = 100
        print(net[0].weight)
        with expect(): nn.utils.vector_to_parameters([1., 2.], net.parameters())
        with expect(): nn.utils.vector_to_parameters(torch.zeros(3), net.parameters())
        with expect(): nn.utils.parameters_to_vector([])
        print(nn.utils.parameters_to_vector([torch.ones(2, 2), torch.zeros(1, dtype=torch.float64)]))
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_optim_more(conform, name):
    conform(SETUP + textwrap.dedent(CASES[name]))


def test_import_paths():
    """``from ... import`` works like torch's (the programs above cannot test it: they import the real torch)."""
    import autograd_tutor
    from autograd_tutor.nn.utils import clip_grad_norm_
    from autograd_tutor.optim.lr_scheduler import CosineAnnealingLR, StepLR
    assert autograd_tutor.nn.utils.clip_grad_norm_ is clip_grad_norm_
    assert autograd_tutor.optim.lr_scheduler.StepLR is StepLR and CosineAnnealingLR.__name__ == "CosineAnnealingLR"


def test_sgd_to_the_last_bit(conform):
    """SGD with momentum and weight decay equals torch's float32 bits. Its update is fused multiply-adds under
    torch's avx2 and avx512 kernels and separate roundings under its default ones: ours must be one of them."""
    conform("""
        rng = np.random.default_rng(0)
        start, grads = rng.standard_normal((37, 5), np.float32), rng.standard_normal((6, 37, 5), np.float32)
        p = torch.nn.Parameter(torch.tensor(start.copy()))
        opt = torch.optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True)
        for g in grads:
            p.grad = torch.tensor(g.copy())
            opt.step()
        print(p.detach().numpy().view(np.uint32).ravel().tolist())
    """)
