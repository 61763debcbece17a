# Source: after the d2l.ai chapter "Weight Decay": a high-dimensional linear regression, an L2 penalty by hand, then weight_decay in an SGD parameter group.
import torch
from torch import nn
from torch.utils import data

n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
torch.manual_seed(0)
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


train_data = synthetic_data(true_w, true_b, n_train)
test_data = synthetic_data(true_w, true_b, n_test)
train_iter = data.DataLoader(data.TensorDataset(*train_data), batch_size, shuffle=True)


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    num_epochs, lr = 30, 0.003
    for epoch in range(num_epochs):
        for X, y in train_iter:
            l = (X @ w + b - y) ** 2 / 2 + lambd * l2_penalty(w)
            l.sum().backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= lr * param.grad / batch_size
                    param.grad.zero_()
    test_l = ((test_data[0] @ w + b - test_data[1]) ** 2 / 2).mean()
    print(f"lambda={lambd}: L2 norm of w: {torch.norm(w).item():.4f}, test loss {test_l.item():.4f}")


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction="none")
    trainer = torch.optim.SGD([{"params": net[0].weight, "weight_decay": wd}, {"params": net[0].bias}], lr=0.003)
    for epoch in range(30):
        for X, y in train_iter:
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
    print(f"wd={wd}: L2 norm of w: {net[0].weight.norm().item():.4f}")


train(lambd=0)
train(lambd=3)
train_concise(0)
train_concise(3)
