# Source: after course notebooks training an MLP with Adam on the two-moons toy set (made here with torch ops, seeded), with train/eval functions.
import math

import torch
from torch import nn


def make_moons(n, noise, generator):
    t = torch.rand(n, generator=generator) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], dim=1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], dim=1)
    labels = torch.randint(0, 2, (n,), generator=generator)
    points = torch.where(labels.unsqueeze(1) == 0, upper, lower)
    return points + noise * torch.randn(n, 2, generator=generator), labels


class MLP(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    X, y = make_moons(256, 0.1, g)
    model = MLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    for step in range(200):
        idx = torch.randint(0, 256, (64,), generator=g)
        loss = loss_fn(model(X[idx]), y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"step {step:3d} loss {loss.item():.4f}")
    with torch.no_grad():
        acc = (model(X).argmax(1) == y).float().mean().item()
    print(f"train accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
