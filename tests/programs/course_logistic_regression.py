# Source: after classic course notebooks on logistic regression in PyTorch (a LogisticRegression nn.Module, BCELoss, SGD, accuracy), on seeded 2-D blobs.
import torch
import torch.nn as nn


class LogisticRegression(nn.Module):
    def __init__(self, n_features):
        super(LogisticRegression, self).__init__()
        self.linear = nn.Linear(n_features, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


def make_blobs(n, seed):
    torch.manual_seed(seed)
    half = n // 2
    a = torch.randn(half, 2) + torch.tensor([2.0, 2.0])
    b = torch.randn(n - half, 2) + torch.tensor([-2.0, -1.0])
    X = torch.cat([a, b])
    y = torch.cat([torch.ones(half), torch.zeros(n - half)]).view(-1, 1)
    perm = torch.randperm(n)
    return X[perm], y[perm]


def main():
    X, y = make_blobs(200, seed=0)
    X_train, y_train, X_test, y_test = X[:160], y[:160], X[160:], y[160:]
    mean, std = X_train.mean(0), X_train.std(0)
    X_train = (X_train - mean) / std
    X_test = (X_test - mean) / std

    model = LogisticRegression(2)
    criterion = nn.BCELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(100):
        y_pred = model(X_train)
        loss = criterion(y_pred, y_train)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if (epoch + 1) % 20 == 0:
            print(f"epoch: {epoch+1}, loss = {loss.item():.4f}")
    with torch.no_grad():
        y_predicted_cls = model(X_test).round()
        acc = y_predicted_cls.eq(y_test).sum() / float(y_test.shape[0])
        print(f"accuracy: {acc.item():.4f}")
    print(model.linear.weight.shape, model.linear.bias.shape)


if __name__ == "__main__":
    main()
