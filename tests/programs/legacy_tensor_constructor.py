# Source: after older course notebooks that build tensors with the legacy torch.Tensor(...) constructor and typed tensors.
import torch

a = torch.Tensor([[1, 2], [3, 4]])
print(a, a.dtype)
b = torch.Tensor(2, 3).fill_(0.5)
print(b)
c = torch.Tensor()
print(c, c.shape)
idx = torch.LongTensor([1, 0])
print(a[idx])
mask = torch.BoolTensor([True, False])
print(a[mask])
d = torch.DoubleTensor([1.5, 2.5])
print(d, d.dtype)
print(a.type(), d.type(), idx.type())
print(a.new_tensor([9.0]), torch.IntTensor([3, 4]).dtype)
