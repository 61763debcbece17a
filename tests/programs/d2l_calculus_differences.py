# Source: after the d2l.ai chapters "Calculus" (the difference quotient shrinking to the derivative) and "Data Preprocessing", with the PyTorch docs' examples of diff, meshgrid, std_mean / var_mean and bucketize.
import torch


def f(x):
    return 3 * x ** 2 - 4 * x


# The difference quotient of f at x = 1 tends to f'(1) = 2 as h shrinks.
for h in [0.1, 0.01, 0.001]:
    xs = torch.tensor([1.0, 1.0 + h])
    quotient = torch.diff(f(xs)) / h
    print(f"h={h:.3f}, numerical limit={quotient.item():.5f}")

# Slopes between neighbouring grid points against autograd's derivative at each point.
x = torch.linspace(0, 2, 11, requires_grad=True)
y = f(x)
y.sum().backward()
slopes = torch.diff(y.detach()) / torch.diff(x.detach())
midpoints = (x.detach()[1:] + x.detach()[:-1]) / 2
print("slopes:", slopes)
print("autograd:", x.grad)
print("slope at the midpoint is f'(midpoint):", torch.allclose(slopes, 6 * midpoints - 4, atol=1e-4))
print("second differences / h^2:", torch.diff(y.detach(), n=2) / 0.2 ** 2)
print("with the ends padded:", torch.diff(y.detach()[:4], prepend=torch.zeros(1), append=torch.ones(1)))

# A loss surface evaluated on a grid of two weights: the lowest point.
w1, w2 = torch.meshgrid(torch.linspace(-1, 1, 5), torch.linspace(-2, 2, 5), indexing="ij")
loss = (w1 - 0.5) ** 2 + 0.5 * (w2 + 1) ** 2
best = loss.argmin()
print(w1.shape, w1.flatten()[best].item(), w2.flatten()[best].item(), loss.min().item())
xs_plot, ys_plot = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print(xs_plot, ys_plot, sep="\n")

# Standardizing features: spread and mean of each column in one call.
torch.manual_seed(0)
X = torch.randn(100, 3) * torch.tensor([1.0, 5.0, 0.1]) + torch.tensor([0.0, 10.0, -2.0])
std, mean = torch.std_mean(X, dim=0)
print("mean:", mean)
print("std:", std)
Z = (X - mean) / std
var, m = torch.var_mean(Z, dim=0, correction=0)
print("after:", var, bool(m.abs().max() < 1e-5))

# Binning ages into groups by their boundaries.
ages = torch.tensor([3, 17, 25, 42, 67, 18, 80, 5, 12])
edges = torch.tensor([12, 18, 65])
groups = torch.bucketize(ages, edges, right=True)
print(groups, [int((groups == k).sum()) for k in range(len(edges) + 1)])
print(torch.searchsorted(edges, torch.tensor([12, 13, 70])))
