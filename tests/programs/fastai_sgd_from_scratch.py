# Source: after the fast.ai book chapter "Under the Hood: Training a Digit Classifier" (a linear model trained by hand-written SGD with requires_grad_).
import torch


def init_params(size, std=1.0):
    return (torch.randn(size) * std).requires_grad_()


def linear1(xb):
    return xb @ weights + bias


def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets == 1, 1 - predictions, predictions).mean()


def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()
    return loss


def train_epoch(model, lr, params):
    for i in range(0, len(train_x), 32):
        xb, yb = train_x[i:i + 32], train_y[i:i + 32]
        calc_grad(xb, yb, model)
        for p in params:
            p.data -= p.grad * lr
            p.grad.zero_()


def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds > 0.5) == yb
    return correct.float().mean()


def validate_epoch(model):
    accs = [batch_accuracy(model(valid_x[i:i + 32]), valid_y[i:i + 32]) for i in range(0, len(valid_x), 32)]
    return round(torch.stack(accs).mean().item(), 4)


torch.manual_seed(42)
threes = torch.rand(96, 28 * 28) * 0.5 + torch.linspace(0, 0.5, 28 * 28)
sevens = torch.rand(96, 28 * 28) * 0.5 + torch.linspace(0.5, 0, 28 * 28)
x = torch.cat([threes, sevens])
y = torch.tensor([1] * 96 + [0] * 96).unsqueeze(1)
perm = torch.randperm(192)
x, y = x[perm], y[perm]
train_x, train_y, valid_x, valid_y = x[:160], y[:160], x[160:], y[160:]
print(train_x.shape, train_y.shape)

weights = init_params((28 * 28, 1))
bias = init_params(1)
print((train_x[0] * weights.T).sum() + bias)
params = weights, bias
for i in range(10):
    train_epoch(linear1, 1.0, params)
    print(validate_epoch(linear1), end=" ")
print()
