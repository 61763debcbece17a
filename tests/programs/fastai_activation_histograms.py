# Source: after fast.ai's "Practical Deep Learning for Coders" part 2 (the ActivationStats / "colorful dimension" notebook): forward hooks record each layer's mean, std and torch.histc of |activations| during training, to see how many activations are near zero; a non-finite loss is caught with torch.isfinite.
import torch
from torch import nn

torch.manual_seed(42)
X = torch.randn(256, 10)
labels = (X[:, 0] * X[:, 1] > 0).long()

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
stats = {i: {"means": [], "stds": [], "hists": []} for i in (1, 3)}


def make_hook(i):
    def hook(module, inputs, output):
        acts = output.detach()
        stats[i]["means"].append(acts.mean().item())
        stats[i]["stds"].append(acts.std().item())
        stats[i]["hists"].append(acts.abs().histc(bins=8, min=0, max=4))
    return hook


handles = [model[i].register_forward_hook(make_hook(i)) for i in stats]
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
for step in range(12):
    idx = torch.randint(0, 256, (64,))
    loss = nn.functional.cross_entropy(model(X[idx]), labels[idx])
    if not torch.isfinite(loss):
        print("stopping: the loss is", loss.item())
        break
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")
for handle in handles:
    handle.remove()

for i, s in stats.items():
    print(f"layer {i}: mean {s['means'][0]:.3f} -> {s['means'][-1]:.3f}, std {s['stds'][0]:.3f} -> {s['stds'][-1]:.3f}")
    hist = torch.stack(s["hists"])
    print("  first histogram", hist[0].tolist())
    print("  last histogram ", hist[-1].tolist())
    print("  share of activations in the lowest bin:", (hist[:, 0] / hist.sum(1)).mul(100).round().tolist())

print(torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3))
weights = model[0].weight.detach()
print("weight histogram:", torch.histc(weights, bins=5).tolist(), "range", round(weights.min().item(), 4),
      round(weights.max().item(), 4))
