# Source: after PyTorch's "Per-sample-gradients" tutorial (torch.func: functional_call, grad, vmap) and the torch.func whirlwind tour (vjp, jvp, jacrev, hessian), on a small CNN and random 8x8 images.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

torch.manual_seed(0)


class TinyCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.fc = nn.Linear(4 * 3 * 3, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return F.log_softmax(self.fc(torch.flatten(x, 1)), dim=1)


model = TinyCNN()
data = torch.randn(8, 1, 8, 8)
targets = torch.randint(0, 3, (8,))

# The slow way: one backward pass per sample.
def loop_grads(sample, target):
    model.zero_grad()
    F.nll_loss(model(sample.unsqueeze(0)), target.unsqueeze(0)).backward()
    return [p.grad.detach().clone() for p in model.parameters()]

by_loop = [torch.stack(g) for g in zip(*[loop_grads(data[i], targets[i]) for i in range(8)])]
print("per-sample gradient shapes:", [tuple(g.shape) for g in by_loop])

# The functional way: the model as a function of its parameters, differentiated, mapped over the batch.
params = {name: p.detach() for name, p in model.named_parameters()}
buffers = {name: b.detach() for name, b in model.named_buffers()}

def compute_loss(params, buffers, sample, target):
    prediction = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.nll_loss(prediction, target.unsqueeze(0))

per_sample = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
for (name, g), slow in zip(per_sample.items(), by_loop):
    print(f"{name:12s} {str(tuple(g.shape)):16s} matches the loop: {torch.allclose(g, slow, atol=3e-6)}")
norms = torch.stack([g.flatten(1).norm(dim=1) for g in per_sample.values()]).sum(0)
print("samples with the largest gradient:", norms.argsort(descending=True)[:3].tolist())

# Clipping each sample's gradient before averaging (the step of differentially private SGD).
scale = (1.0 / norms).clamp(max=1.0)
clipped = {name: (g * scale.view(-1, *[1] * (g.dim() - 1))).mean(0) for name, g in per_sample.items()}
print("clipped mean gradient norms:", [round(v.norm().item(), 3) for v in clipped.values()])

# Whirlwind tour of the other transforms on f(x) = sin(x) * x.
f = lambda x: torch.sin(x) * x
x = torch.tensor([0.0, 1.0, 2.0])
out, vjp_fn = vjp(f, x)
print("f(x):", out, " v^T J:", vjp_fn(torch.ones(3))[0])
print("J v:", jvp(f, (x,), (torch.ones(3),))[1])
print("jacrev == jacfwd:", torch.allclose(jacrev(f)(x), jacfwd(f)(x)))
print("diagonal of the Hessian of sum f:", torch.diagonal(hessian(lambda t: f(t).sum())(x)))
print("second derivative by grad(grad):", [round(grad(grad(lambda t: f(t)))(t).item(), 4) for t in x])
