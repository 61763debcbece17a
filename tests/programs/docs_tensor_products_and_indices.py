# Source: after the PyTorch reference pages for torch.kron, torch.tensordot, torch.div (rounding_mode) and torch.nan_to_num, and the nn.Module docs' get_submodule / get_parameter: a 2-D Gaussian filter as a Kronecker product, a batched contraction with tensordot checked against einsum, flat indices turned into (row, column), and a log that produces -inf cleaned for printing.
import torch
from torch import nn

# the reference examples
mat1 = torch.eye(2)
mat2 = torch.ones(2, 2)
print(torch.kron(mat1, mat2))
a = torch.arange(60.).reshape(3, 4, 5)
b = torch.arange(24.).reshape(4, 3, 2)
print(torch.tensordot(a, b, dims=([1, 0], [0, 1])))
print(torch.tensordot(torch.arange(6.).reshape(2, 3), torch.arange(12.).reshape(3, 4), dims=1))

# a separable 5x5 blur: the outer product of a 1-D kernel with itself, as kron of a column and a row
g = torch.exp(-torch.arange(-2., 3.) ** 2 / 2)
g = g / g.sum()
blur = torch.kron(g.view(5, 1), g.view(1, 5))
print(blur.sum().item(), torch.allclose(blur, torch.outer(g, g)))

# a learnable bilinear score x^T W y over a batch, by tensordot, with gradients
torch.manual_seed(0)
W = torch.randn(3, 4, requires_grad=True)
xs, ys = torch.randn(5, 3), torch.randn(5, 4)
scores = (torch.tensordot(xs, W, dims=1) * ys).sum(1)
print(scores.shape, torch.allclose(scores, torch.einsum("bi,ij,bj->b", xs, W, ys)))
scores.sum().backward()
print(W.grad.shape, torch.allclose(W.grad, xs.t() @ ys))

# flat argmax of a grid back to (row, column)
grid = torch.tensor([[0.1, 0.7, 0.2], [0.9, 0.3, 0.4]])
flat = grid.flatten().topk(3).indices
rows = torch.div(flat, grid.size(1), rounding_mode="floor")
cols = flat % grid.size(1)
print(flat.tolist(), rows.tolist(), cols.tolist())
print(torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"), torch.div(torch.tensor([-7., 7.]), 2, rounding_mode="floor"))

# log-probabilities with zeros in them
probs = torch.tensor([0.5, 0.25, 0.25, 0.0])
logp = probs.log()
print(logp, torch.isinf(logp).sum().item(), torch.nan_to_num(logp, neginf=-100.0))
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf"), 1.0])))

# reaching into a model by dotted name
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)))
print(model.get_submodule("2.0"))
print(model.get_parameter("2.0.bias").shape, model.get_buffer("2.1.running_var"))
try:
    model.get_submodule("2.5")
except AttributeError as err:
    print("AttributeError:", err)
