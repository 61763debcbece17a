# Source: after the PyTorch tutorial "Learning PyTorch with Examples" (Defining new autograd functions): y = a + b P3(c + d x).
import math

import torch


class LegendrePolynomial3(torch.autograd.Function):
    """P3(x) = (5x^3 - 3x) / 2, with its derivative 1.5 (5x^2 - 1) written by hand."""

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


torch.manual_seed(2)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

a = torch.full((), 0.0, requires_grad=True)
b = torch.full((), -1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True)
d = torch.full((), 0.3, requires_grad=True)

learning_rate = 5e-6
P3 = LegendrePolynomial3.apply
for t in range(300):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None

print("node:", y_pred.grad_fn.next_functions[1][0].next_functions[1][0])
print(f"Result: y = {a.item():.5f} + {b.item():.5f} * P3({c.item():.5f} + {d.item():.5f} x)")
