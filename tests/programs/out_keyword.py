# Source: after the PyTorch "Tensors" tutorial and docs examples that write results into a preallocated tensor with out=.
import torch

torch.manual_seed(0)
a = torch.ones(2, 3)
b = torch.full((2, 3), 2.0)
result = torch.empty(2, 3)
torch.add(a, b, out=result)
print(result)
torch.mul(a, b, out=result)
print(result)
m = torch.empty(2, 2)
torch.matmul(a, b.T, out=m)
print(m)
r = torch.empty(3)
torch.rand(3, out=r)
print(r)
print(torch.sum(a))
