# Source: after the PyTorch tutorial "Learning PyTorch with Examples" (Tensors and autograd): the cubic fit with loss.backward().
import math

import torch

torch.manual_seed(1)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

a = torch.randn((), requires_grad=True)
b = torch.randn((), requires_grad=True)
c = torch.randn((), requires_grad=True)
d = torch.randn((), requires_grad=True)
print("a:", a)

learning_rate = 1e-6
for t in range(400):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    # update outside the graph, then forget the gradients
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print("loss grad_fn:", loss.grad_fn)
print(f"Result: y = {a.item():.6f} + {b.item():.6f} x + {c.item():.6f} x^2 + {d.item():.6f} x^3")
