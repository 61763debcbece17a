# Source: after the d2l.ai chapter "Dropout": dropout_layer from scratch with a mask from torch.rand, then nn.Dropout in train and eval mode.
import torch
from torch import nn


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


torch.manual_seed(0)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))

dropout1, dropout2 = 0.2, 0.5
net = nn.Sequential(nn.Flatten(),
                    nn.Linear(12, 32), nn.ReLU(), nn.Dropout(dropout1),
                    nn.Linear(32, 16), nn.ReLU(), nn.Dropout(dropout2),
                    nn.Linear(16, 3))
features = torch.randn(90, 12)
labels = (features[:, 0] > 0).long() + (features[:, 1] > 0).long()
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
loss = nn.CrossEntropyLoss()
for epoch in range(5):
    net.train()
    l = loss(net(features), labels)
    trainer.zero_grad()
    l.backward()
    trainer.step()
    net.eval()
    with torch.no_grad():
        acc = (net(features).argmax(1) == labels).float().mean().item()
    print(f"epoch {epoch + 1}: train loss {l.item():.4f}, eval acc {acc:.3f}")
print(net.training, net[3])
