# Source: after the PyTorch docs' nn.Bilinear example and image-augmentation tutorials: a bilinear pair scorer fitted by SGD, 90-degree rotations of a tiny image, and picking each row's top entries with take_along_dim.
import torch
import torch.nn as nn

torch.manual_seed(0)

# nn.Bilinear scores a pair (a, b) as a^T W b + bias, one score per output feature.
scorer = nn.Bilinear(4, 3, 1)
print(scorer)
print([(name, tuple(p.shape)) for name, p in scorer.named_parameters()])

# A hidden bilinear form to recover from examples.
true_W = torch.randn(1, 4, 3)
a, b = torch.randn(64, 4), torch.randn(64, 3)
target = torch.nn.functional.bilinear(a, b, true_W) + 0.5
optimizer = torch.optim.SGD(scorer.parameters(), lr=0.1)
for step in range(60):
    optimizer.zero_grad()
    loss = ((scorer(a, b) - target) ** 2).mean()
    loss.backward()
    optimizer.step()
    if step % 15 == 0:
        print(f"step {step:2d}: loss {loss.item():.4f}")
print(f"bias {scorer.bias.item():.3f}, weight error {(scorer.weight - true_W).abs().max().item():.3f}")

# Rotating a tiny image by quarter turns: four turns bring it back, and a turn moves the corners.
image = torch.arange(6.).reshape(2, 3)
print(torch.rot90(image))
print(image.rot90(-1))
print(torch.equal(image.rot90(4), image), torch.equal(image.rot90(2), image.flip(0, 1)))
batch = torch.arange(24.).reshape(2, 1, 3, 4)  # (N, C, H, W): rotate in the (H, W) plane
print(batch.rot90(1, dims=(2, 3)).shape)

# Rotations keep gradients flowing back to the pixels.
pixels = torch.ones(2, 2, requires_grad=True)
(torch.rot90(pixels) * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(pixels.grad)

# Each row's two largest scores, picked with the indices argsort gives.
scores = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.9]])
order = scores.argsort(dim=1, descending=True)
print(torch.take_along_dim(scores, order[:, :2], dim=1))
print(scores.H, scores.mT.shape)
print(torch.cumsum(torch.tensor([1, 2, 3]), dim=0, dtype=torch.float32))
