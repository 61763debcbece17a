# Source: after the MobileNetV3 paper (Howard et al., "Searching for MobileNetV3") as retold in the torchvision model code: a depthwise-separable block with Hardswish activations and a squeeze-and-excitation gate made with Hardsigmoid, trained a few steps on random images; then the hard activations against their smooth originals.
import torch
from torch import nn
import torch.nn.functional as F


class SqueezeExcitation(nn.Module):
    def __init__(self, channels, squeeze):
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(channels, squeeze, 1)
        self.fc2 = nn.Conv2d(squeeze, channels, 1)
        self.relu = nn.ReLU()
        self.scale_activation = nn.Hardsigmoid()

    def forward(self, x):
        scale = self.scale_activation(self.fc2(self.relu(self.fc1(self.avgpool(x)))))
        return scale * x


class Block(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.depthwise = nn.Conv2d(cin, cin, 3, padding=1, groups=cin)
        self.act = nn.Hardswish()
        self.se = SqueezeExcitation(cin, 4)
        self.pointwise = nn.Conv2d(cin, cout, 1)

    def forward(self, x):
        return self.pointwise(self.se(self.act(self.depthwise(x))))


x = torch.linspace(-4, 4, 9)
print("hardswish  ", F.hardswish(x))
print("x*sigmoid  ", (x * torch.sigmoid(x)).round(decimals=4))
print("hardsigmoid", F.hardsigmoid(x))
print("relu6(x+3)/6", F.relu6(x + 3) / 6)

torch.manual_seed(0)
model = nn.Sequential(Block(8, 16), nn.Hardswish(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 3))
print(model[0])
images = torch.randn(6, 8, 7, 7)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(5):
    loss = F.cross_entropy(model(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
gate = model[0].se.scale_activation(model[0].se.fc2(model[0].se.relu(model[0].se.fc1(images.mean((2, 3), keepdim=True)))))
print("gate range:", round(gate.min().item(), 4), round(gate.max().item(), 4))
t = torch.tensor([-3.0, 0.0, 3.0], requires_grad=True)
F.hardswish(t).sum().backward()
print("hardswish gradient at -3, 0, 3:", t.grad)
