# Source: after the PyTorch tutorial "Learning PyTorch with Examples" (optim): the same model trained with RMSprop.
import math

import torch

torch.manual_seed(4)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))

model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
print(optimizer)

for t in range(500):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, round(loss.item(), 2))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

w = model[0].weight.detach()
print("weights:", [round(v, 3) for v in w.flatten().tolist()], "bias:", round(model[0].bias.item(), 3))
