# Source: after beginner tutorials that print types and attributes to show what a tensor is (type(x), isinstance, x.type()).
import torch

x = torch.tensor([1.0, 2.0])
print(type(x))
print(isinstance(x, torch.Tensor))
print(x.type(), x.dtype, x.shape, type(x.shape))
p = torch.nn.Parameter(torch.zeros(2))
print(type(p))
print(type(torch.nn.Linear(2, 2)))
print(type(x.sum().item()), type(x.tolist()))
