# Source: after the PyTorch optim docs' "How to adjust learning rate": StepLR and ExponentialLR stepped once per epoch after optimizer.step().
import torch
from torch import nn, optim
from torch.optim.lr_scheduler import ExponentialLR, StepLR

torch.manual_seed(0)
model = nn.Linear(3, 1)
optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = StepLR(optimizer, step_size=2, gamma=0.5)
X = torch.randn(16, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]])
for epoch in range(6):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(epoch, f"{loss.item():.5f}", scheduler.get_last_lr())

opt2 = optim.Adam(model.parameters(), lr=0.01)
sched2 = ExponentialLR(opt2, gamma=0.9)
for epoch in range(3):
    opt2.zero_grad()
    nn.functional.mse_loss(model(X), y).backward()
    opt2.step()
    sched2.step()
print([round(lr, 6) for lr in sched2.get_last_lr()], opt2.param_groups[0]["lr"])
print(scheduler.state_dict()["last_epoch"], scheduler.state_dict()["_last_lr"])
