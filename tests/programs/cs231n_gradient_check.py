# Source: after the CS231n notes and assignment helpers (gradient_check.py): centred-difference numeric gradients against analytic ones, relative error.
import torch


def eval_numerical_gradient(f, x, h=1e-5):
    """Centred differences, one coordinate at a time (x is changed in place and restored)."""
    grad = torch.zeros_like(x)
    flat, gflat = x.view(-1), grad.view(-1)
    for i in range(flat.numel()):
        old = flat[i].item()
        flat[i] = old + h
        fxph = f(x)
        flat[i] = old - h
        fxmh = f(x)
        flat[i] = old
        gflat[i] = (fxph - fxmh) / (2 * h)
    return grad


def rel_error(x, y):
    return (torch.abs(x - y) / torch.clamp(torch.abs(x) + torch.abs(y), min=1e-8)).max().item()


def softmax_loss(W, X, y, reg):
    scores = X @ W
    scores = scores - scores.max(dim=1, keepdim=True).values
    log_probs = scores - torch.log(torch.exp(scores).sum(dim=1, keepdim=True))
    return -log_probs[torch.arange(X.shape[0]), y].mean() + reg * (W * W).sum()


torch.manual_seed(0)
X = torch.randn(10, 5, dtype=torch.float64)
y = torch.randint(0, 3, (10,))
W = 0.01 * torch.randn(5, 3, dtype=torch.float64)

loss = softmax_loss(W, X, y, 0.0)
print(f"loss: {loss.item():.6f}  (about -log(0.1) = {-torch.log(torch.tensor(1 / 3.0)).item():.6f} for 3 classes)")

Wg = W.clone().requires_grad_(True)
softmax_loss(Wg, X, y, 0.1).backward()
num_grad = eval_numerical_gradient(lambda w: softmax_loss(w, X, y, 0.1).item(), W.clone())
err = rel_error(num_grad, Wg.grad)
print("max relative error below 1e-7:", err < 1e-7)
for i in range(3):
    r, c = i, i
    print(f"numerical: {num_grad[r, c].item():f} analytic: {Wg.grad[r, c].item():f}")
print(torch.autograd.gradcheck(lambda w: softmax_loss(w, X, y, 0.1), (Wg,)))
