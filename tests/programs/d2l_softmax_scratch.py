# Source: after the d2l.ai chapter "Implementation of Softmax Regression from Scratch", on seeded Gaussian blobs instead of Fashion-MNIST.
import torch


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


torch.manual_seed(0)
X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])
print(cross_entropy(y_hat, y))
print(accuracy(y_hat, y) / len(y))

num_inputs, num_outputs = 4, 3
centers = torch.tensor([[2.0, 0, 0, 0], [0, 2.0, 0, 0], [0, 0, 2.0, 0]])
labels = torch.randint(0, 3, (300,))
features = centers[labels] + torch.randn(300, 4)

W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
lr = 0.1
for epoch in range(5):
    for i in range(0, 300, 30):
        Xb, yb = features[i:i + 30], labels[i:i + 30]
        l = cross_entropy(net(Xb), yb)
        l.mean().backward()
        with torch.no_grad():
            W -= lr * W.grad
            b -= lr * b.grad
            W.grad.zero_()
            b.grad.zero_()
    with torch.no_grad():
        y_hat = net(features)
        print(f"epoch {epoch + 1}, loss {cross_entropy(y_hat, labels).mean():.4f}, "
              f"train acc {accuracy(y_hat, labels) / len(labels):.3f}")
