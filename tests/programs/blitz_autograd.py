# Source: after the PyTorch "60 Minute Blitz" page "A Gentle Introduction to torch.autograd": Q = 3a^3 - b^2 and frozen parameters.
import torch
from torch import nn, optim

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)
print(Q.grad_fn, [type(f[0]).__name__ for f in Q.grad_fn.next_functions])

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")

# fine-tuning: freeze a small "pretrained" body, replace its head
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 10))
for param in model.parameters():
    param.requires_grad = False
model[2] = nn.Linear(16, 4)
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
print([n for n, p in model.named_parameters() if p.requires_grad])
out = model(torch.randn(3, 8)).sum()
out.backward()
print(model[0].weight.grad, model[2].bias.grad)
optimizer.step()
print(model[2].bias)
