# Source: after the optimization chapter of textbooks (d2l's Adagrad/RMSProp/Adadelta/Adam sections and the
# "gradient descent with Adadelta from scratch" style tutorials): the same regression trained by each of torch's
# optimizers from the same start, then a cosine schedule with warm restarts and a cyclic one, in our own words.
import torch
from torch import nn


def make_data():
    g = torch.Generator().manual_seed(1)
    X = torch.randn(64, 3, generator=g)
    true_w = torch.tensor([[2.0], [-3.4], [1.5]])
    y = X @ true_w + 4.2 + 0.01 * torch.randn(64, 1, generator=g)
    return X, y


def train(make_optimizer, epochs=30, make_scheduler=None):
    torch.manual_seed(0)
    net = nn.Linear(3, 1)
    X, y = make_data()
    opt = make_optimizer(net.parameters())
    sched = make_scheduler(opt) if make_scheduler else None
    losses, lrs = [], []
    for epoch in range(epochs):
        for i in range(0, 64, 16):
            loss = nn.functional.mse_loss(net(X[i:i + 16]), y[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if sched is not None:
            lrs.append(round(sched.get_last_lr()[0], 5))
            sched.step()
        losses.append(nn.functional.mse_loss(net(X), y).item())
    return losses, lrs


def main():
    optimizers = {
        "SGD": lambda ps: torch.optim.SGD(ps, lr=0.03),
        "Adagrad": lambda ps: torch.optim.Adagrad(ps, lr=0.5),
        "RMSprop": lambda ps: torch.optim.RMSprop(ps, lr=0.05, alpha=0.9),
        "Adadelta": lambda ps: torch.optim.Adadelta(ps, rho=0.9),
        "Adam": lambda ps: torch.optim.Adam(ps, lr=0.1),
        "Adamax": lambda ps: torch.optim.Adamax(ps, lr=0.2),
        "NAdam": lambda ps: torch.optim.NAdam(ps, lr=0.1),
        "RAdam": lambda ps: torch.optim.RAdam(ps, lr=0.1),
        "Rprop": lambda ps: torch.optim.Rprop(ps, lr=0.05),
    }
    for name, make in optimizers.items():
        losses, _ = train(make)
        print(f"{name:9s} epoch 1 {losses[0]:.3f}  epoch 10 {losses[9]:.3f}  epoch 30 {losses[-1]:.4f}")
    print(torch.optim.Adadelta(nn.Linear(1, 1).parameters()))

    losses, lrs = train(lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9), epochs=14,
                        make_scheduler=lambda opt: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2,
                                                                                                      T_mult=2))
    print("warm restarts:", lrs)
    print("loss after restarts:", round(losses[-1], 4))
    losses, lrs = train(lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9), epochs=12,
                        make_scheduler=lambda opt: torch.optim.lr_scheduler.CyclicLR(opt, 0.001, 0.05, step_size_up=3,
                                                                                     mode="triangular2"))
    print("cyclic:", lrs)
    print("loss after cycles:", round(losses[-1], 4))


if __name__ == "__main__":
    main()
