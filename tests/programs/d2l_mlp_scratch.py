# Source: after the d2l.ai chapter "Implementation of Multilayer Perceptrons from Scratch": relu via torch.max, nn.Parameter weights, torch.optim.SGD.
import torch
from torch import nn

torch.manual_seed(0)
num_inputs, num_outputs, num_hiddens = 16, 3, 32
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)
    return H @ W2 + b2


print(relu(torch.tensor([-1.0, 0.0, 2.0])))
labels = torch.randint(0, 3, (240,))
features = torch.randn(240, 4, 4) + labels.reshape(-1, 1, 1).float()
loss = nn.CrossEntropyLoss(reduction="none")
num_epochs, lr = 6, 0.1
updater = torch.optim.SGD(params, lr=lr)
for epoch in range(num_epochs):
    for i in range(0, 240, 24):
        X, y = features[i:i + 24], labels[i:i + 24]
        l = loss(net(X), y)
        updater.zero_grad()
        l.mean().backward()
        updater.step()
    with torch.no_grad():
        acc = (net(features).argmax(1) == labels).float().mean()
        print(f"epoch {epoch + 1}: loss {loss(net(features), labels).mean().item():.5f} acc {acc.item():.3f}")
