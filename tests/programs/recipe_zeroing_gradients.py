# Source: after the PyTorch recipe "Zeroing out gradients in PyTorch": gradients accumulate until zero_grad, and set_to_none.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
optimizer = optim.SGD(net.parameters(), lr=0.01)
x = torch.randn(5, 4)
target = torch.randn(5, 1)
criterion = nn.MSELoss()

loss = criterion(net(x), target)
loss.backward()
first = net[0].bias.grad.clone()
loss = criterion(net(x), target)
loss.backward()
print("accumulated twice:", torch.allclose(net[0].bias.grad, 2 * first))

optimizer.zero_grad(set_to_none=False)
print("after zero_grad(set_to_none=False):", net[0].bias.grad)
optimizer.zero_grad()
print("after zero_grad():", net[0].bias.grad)

for epoch in range(3):
    running_loss = 0.0
    for i in range(4):
        optimizer.zero_grad()
        loss = criterion(net(x), target)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print(f"[{epoch + 1}] loss: {running_loss / 4:.5f}")

net.zero_grad()
print([p.grad for p in net.parameters()])
