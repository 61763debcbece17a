# Source: after the PyTorch optim docs' "How to adjust learning rate" and the LinearLR / SequentialLR / ConstantLR / PolynomialLR / MultiplicativeLR reference pages: a linear warm-up chained into a cosine decay with SequentialLR, then the other schedulers side by side on a small regression.
import torch
from torch import nn
from torch.optim.lr_scheduler import (ConstantLR, CosineAnnealingLR, LinearLR, MultiplicativeLR, PolynomialLR,
                                      SequentialLR)

torch.manual_seed(0)
X = torch.randn(32, 4)
y = X @ torch.tensor([[0.5], [-1.0], [2.0], [0.0]]) + 0.1 * torch.randn(32, 1)

model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)
warmup = LinearLR(optimizer, start_factor=0.1, end_factor=1.0, total_iters=3)
decay = CosineAnnealingLR(optimizer, T_max=7, eta_min=0.01)
scheduler = SequentialLR(optimizer, schedulers=[warmup, decay], milestones=[3])

for epoch in range(10):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}, next lr {scheduler.get_last_lr()[0]:.5f}")

print("warm-up scheduler's epoch:", warmup.last_epoch, "decay's epoch:", decay.last_epoch)
print("state keys:", sorted(scheduler.state_dict()))


def schedule(make, epochs=6):
    opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
    sched = make(opt)
    rates = []
    for _ in range(epochs):
        rates.append(round(sched.get_last_lr()[0], 6))
        opt.step()
        sched.step()
    return rates


print("ConstantLR      ", schedule(lambda o: ConstantLR(o, factor=0.5, total_iters=2)))
print("LinearLR        ", schedule(lambda o: LinearLR(o, start_factor=0.25, total_iters=4)))
print("PolynomialLR    ", schedule(lambda o: PolynomialLR(o, total_iters=5, power=2.0)))
print("MultiplicativeLR", schedule(lambda o: MultiplicativeLR(o, lr_lambda=lambda epoch: 0.9)))
