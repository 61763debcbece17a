# Source: after the CS231n assignment "two-layer neural net": forward scores, softmax loss with L2, the backward pass by hand, checked against autograd.
import torch


def init_params(input_size, hidden_size, output_size, std=1e-1):
    torch.manual_seed(0)
    return {"W1": std * torch.randn(input_size, hidden_size, dtype=torch.float64),
            "b1": torch.zeros(hidden_size, dtype=torch.float64),
            "W2": std * torch.randn(hidden_size, output_size, dtype=torch.float64),
            "b2": torch.zeros(output_size, dtype=torch.float64)}


def loss_and_grads(params, X, y, reg):
    W1, b1, W2, b2 = params["W1"], params["b1"], params["W2"], params["b2"]
    N = X.shape[0]
    hidden = torch.clamp(X @ W1 + b1, min=0)
    scores = hidden @ W2 + b2
    shifted = scores - scores.max(dim=1, keepdim=True).values
    probs = torch.exp(shifted)
    probs /= probs.sum(dim=1, keepdim=True)
    loss = -torch.log(probs[torch.arange(N), y]).sum() / N + reg * ((W1 * W1).sum() + (W2 * W2).sum())
    dscores = probs.clone()
    dscores[torch.arange(N), y] -= 1
    dscores /= N
    grads = {"W2": hidden.T @ dscores + 2 * reg * W2, "b2": dscores.sum(dim=0)}
    dhidden = dscores @ W2.T
    dhidden[hidden <= 0] = 0
    grads["W1"] = X.T @ dhidden + 2 * reg * W1
    grads["b1"] = dhidden.sum(dim=0)
    return loss, grads


params = init_params(4, 10, 3)
torch.manual_seed(1)
X = 10 * torch.randn(5, 4, dtype=torch.float64)
y = torch.tensor([0, 1, 2, 2, 1])
loss, grads = loss_and_grads(params, X, y, reg=0.05)
print(f"loss: {loss.item():.8f}")

leaves = {k: v.clone().requires_grad_(True) for k, v in params.items()}
auto_loss, _ = loss_and_grads(leaves, X, y, reg=0.05)
auto_loss.backward()
for name in sorted(grads):
    err = ((grads[name] - leaves[name].grad).abs().max() / leaves[name].grad.abs().max()).item()
    print(f"{name} max relative error < 1e-10: {err < 1e-10}")

for step in range(100):
    loss, grads = loss_and_grads(params, X, y, reg=1e-3)
    for k in params:
        params[k] -= 0.1 * grads[k]
    if step % 25 == 0:
        print(step, f"{loss.item():.6f}")
print("final", f"{loss.item():.6f}")
