# Source: after the d2l.ai chapter "Concise Implementation of Softmax Regression": nn.Flatten + nn.Linear, init via net.apply, CrossEntropyLoss(reduction='none').
import torch
from torch import nn

torch.manual_seed(0)
protos = torch.randn(5, 6, 6)
labels = torch.randint(0, 5, (200,))
images = protos[labels] + 0.8 * torch.randn(200, 6, 6)

net = nn.Sequential(nn.Flatten(), nn.Linear(36, 5))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.1)


def evaluate_accuracy(net, X, y):
    net.eval()
    with torch.no_grad():
        return (net(X).argmax(dim=1) == y).float().mean().item()


for epoch in range(4):
    net.train()
    total, count = 0.0, 0
    for i in range(0, 200, 20):
        X, y = images[i:i + 20], labels[i:i + 20]
        l = loss(net(X), y)
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
        total += l.sum().item()
        count += l.numel()
    print(f"epoch {epoch + 1}: train loss {total / count:.4f}, acc {evaluate_accuracy(net, images, labels):.3f}")
print(net[1].weight.shape, net[1].bias.grad.shape)
