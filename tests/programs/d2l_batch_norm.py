# Source: after the d2l.ai chapter "Batch Normalization": batch_norm from scratch (batch statistics while training, moving averages while predicting), a BatchNorm module holding gamma / beta and the moving statistics, then nn.BatchNorm1d in an MLP trained on synthetic data and evaluated under no_grad.
import torch
from torch import nn


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        # prediction mode: the moving statistics
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.register_buffer("moving_mean", torch.zeros(shape))
        self.register_buffer("moving_var", torch.ones(shape))

    def forward(self, X):
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1)
        return Y


torch.manual_seed(0)
X = torch.randn(16, 4) * 3 + 1
bn = BatchNorm(4, num_dims=2)
Y = bn(X)
print(Y.mean(0).abs().max().item() < 1e-5, Y.var(0, unbiased=False).round(decimals=3))
print(bn.moving_mean.round(decimals=4), [name for name, _ in bn.named_buffers()], len(list(bn.parameters())))
with torch.no_grad():
    print(bn(X)[:2].round(decimals=4))
images = torch.randn(2, 3, 4, 4)
print(BatchNorm(3, num_dims=4)(images).mean(dim=(0, 2, 3)).abs().max().item() < 1e-5)

# the same with nn.BatchNorm1d, between the layers of a small classifier
features = torch.randn(256, 6)
labels = ((features[:, 0] * features[:, 1] > 0).long() + (features[:, 2] > 1).long())
train_X, train_y, test_X, test_y = features[:192], labels[:192], features[192:], labels[192:]
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(6, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 16), nn.BatchNorm1d(16), nn.ReLU(),
                    nn.Linear(16, 3))
print(net[1], net[1].running_mean.shape, net[1].num_batches_tracked)
loss = nn.CrossEntropyLoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.3)
for epoch in range(8):
    net.train()
    for i in range(0, 192, 32):
        l = loss(net(train_X[i:i + 32]), train_y[i:i + 32])
        trainer.zero_grad()
        l.backward()
        trainer.step()
    net.eval()
    with torch.no_grad():
        logits = net(test_X)
        accuracy = (logits.argmax(dim=1) == test_y).float().mean().item()
    print(f"epoch {epoch + 1}, loss {l.item():.4f}, test accuracy {accuracy:.3f}")
print(net[1].num_batches_tracked, net[1].running_var[:3].round(decimals=3), net[4].running_mean.abs().max() > 0)
print(net[1].weight.grad is not None, net[1].bias.shape, list(net.state_dict())[:5])
