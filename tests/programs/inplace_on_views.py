# Source: after the autograd notes "In-place operations with autograd": in-place changes of a view of a tensor that requires grad.
import torch

x = torch.ones(2, 3, requires_grad=True)
y = x * 2
v = y[0]
v.mul_(3)
print(y)
print(y.grad_fn)
y.sum().backward()
print(x.grad)

w = torch.zeros(4, requires_grad=True)
z = w.clone()
z[1:3] += torch.tensor([1.0, 2.0])
print(z, z._version)
(z * z).sum().backward()
print(w.grad)
