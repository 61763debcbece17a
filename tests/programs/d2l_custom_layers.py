# Source: after the d2l.ai chapters "Custom Layers" and "Layers and Modules": CenteredLayer, MyLinear with nn.Parameter, a hand-rolled Sequential.
import torch
import torch.nn.functional as F
from torch import nn


class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X):
        return X - X.mean()


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units,))

    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)


class MySequential(nn.Module):
    def __init__(self, *args):
        super().__init__()
        for idx, module in enumerate(args):
            self.add_module(str(idx), module)

    def forward(self, X):
        for module in self.children():
            X = module(X)
        return X


class FixedHiddenMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.rand_weight = torch.rand((20, 20), requires_grad=False)
        self.linear = nn.Linear(20, 20)

    def forward(self, X):
        X = self.linear(X)
        X = F.relu(torch.mm(X, self.rand_weight) + 1)
        X = self.linear(X)
        while X.abs().sum() > 1:
            X /= 2
        return X.sum()


torch.manual_seed(0)
layer = CenteredLayer()
print(layer(torch.tensor([1.0, 2, 3, 4, 5])))
net = nn.Sequential(nn.Linear(8, 128), CenteredLayer())
Y = net(torch.rand(4, 8))
print(f"{Y.mean().item():.1e}" if abs(Y.mean().item()) > 1e-6 else "mean ~ 0")

linear = MyLinear(5, 3)
print(linear.weight)
print(linear(torch.rand(2, 5)))
net = MySequential(MyLinear(64, 8), MyLinear(8, 1))
print(net(torch.rand(2, 64)))
print(net)
print(FixedHiddenMLP()(torch.rand(2, 20)))
