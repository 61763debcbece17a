# Source: after PyTorch tutorials and forum recipes on hooks: forward hooks to capture activations, tensor hooks that change a gradient, handles removed.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
activations = {}


def save_activation(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()
    return hook


handles = [model[i].register_forward_hook(save_activation(f"layer{i}")) for i in range(3)]
pre = model[0].register_forward_pre_hook(lambda module, inputs: print("pre-hook sees", inputs[0].shape))
x = torch.randn(2, 3)
out = model(x)
print(sorted(activations))
print(activations["layer1"])
print(torch.equal(activations["layer2"], out.detach()))
for h in handles:
    h.remove()
pre.remove()
activations.clear()
model(x)
print("after remove:", activations)

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []
h = w.register_hook(lambda grad: seen.append(grad.clone()))
h2 = w.register_hook(lambda grad: grad * 2)
(w * w).sum().backward()
print(seen, w.grad)
h.remove()
h2.remove()
w.grad = None
(w * w).sum().backward()
print(w.grad)

y = w * 3
y.retain_grad()
y.register_hook(lambda g: print("grad reaching y:", g))
y.sum().backward()
print(y.grad, y.grad_fn)
