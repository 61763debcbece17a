# Source: after "tensor operations tour" course notebooks (linear algebra and bit ops): cross, svd, histogram, bitwise_xor, unsqueeze_.
import torch

torch.manual_seed(0)
u = torch.tensor([1.0, 0.0, 0.0])
v = torch.tensor([0.0, 1.0, 0.0])
print(torch.cross(u, v, dim=0))
print(torch.linalg.cross(u, v))

A = torch.tensor([[3.0, 0.0], [4.0, 5.0]])
U, S, V = torch.svd(A)
print(S)
print(torch.allclose(U @ torch.diag(S) @ V.T, A, atol=1e-6))

x = torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5])
hist = torch.histogram(x, bins=4, range=(0.0, 4.0))
print(hist.hist, hist.bin_edges)
print(torch.bitwise_xor(torch.tensor([5, 3]), torch.tensor([1, 1])))
w = torch.ones(3)
w.unsqueeze_(0)
print(w.shape)
print(x[range(1, 3)])
