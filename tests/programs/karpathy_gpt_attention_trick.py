# Source: after Karpathy's lecture "Let's build GPT: from scratch, in code, spelled out" (the mathematical trick in self-attention, as retold at philippeadjiman.com/blog/2025/11/14/gpt-from-scratch-4-the-mathematical-trick-behind-self-attention): a running average of the past four ways (loops, a lower-triangular matmul, masked_fill + softmax, then one learned attention head).
import torch
import torch.nn as nn
from torch.nn import functional as F

torch.manual_seed(1337)
B, T, C = 4, 8, 2  # batch, time, channels
x = torch.randn(B, T, C)
print(x.shape)

# version 1: for every token, the mean of itself and the tokens before it, with two loops
xbow = torch.zeros((B, T, C))
for b in range(B):
    for t in range(T):
        xprev = x[b, :t + 1]  # (t+1, C)
        xbow[b, t] = torch.mean(xprev, 0)
print(x[0])
print(xbow[0])

# version 2: the same as one matrix product with a row-normalised lower-triangular matrix
wei = torch.tril(torch.ones(T, T))
wei = wei / wei.sum(1, keepdim=True)
xbow2 = wei @ x  # (T, T) @ (B, T, C) -> (B, T, C)
# (allclose's default atol of 1e-8 compares float32 last bits, which follow the processor's kernels: a looser one)
print(torch.allclose(xbow, xbow2, atol=1e-6), (xbow - xbow2).abs().max().item() < 1e-6)

# version 3: the weights as a softmax over affinities, the future masked to -inf
tril = torch.tril(torch.ones(T, T))
wei = torch.zeros((T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
print(wei[:3])
wei = F.softmax(wei, dim=-1)
print(wei[:3])
xbow3 = wei @ x
print(torch.allclose(xbow, xbow3, atol=1e-6))

# a small worked example of the trick on integers
torch.manual_seed(42)
a = torch.tril(torch.ones(3, 3))
a = a / torch.sum(a, 1, keepdim=True)
b = torch.randint(0, 10, (3, 2)).float()
print("a=", a, "b=", b, "c=", a @ b, sep="\n")

# version 4: self-attention, one head: data-dependent affinities from queries and keys
torch.manual_seed(1337)
B, T, C = 4, 8, 32
x = torch.randn(B, T, C)
head_size = 16
key = nn.Linear(C, head_size, bias=False)
query = nn.Linear(C, head_size, bias=False)
value = nn.Linear(C, head_size, bias=False)
k, q = key(x), query(x)  # (B, T, 16)
wei = q @ k.transpose(-2, -1) * head_size ** -0.5  # (B, T, T), scaled so the softmax stays soft
tril = torch.tril(torch.ones(T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
wei = F.softmax(wei, dim=-1)
out = wei @ value(x)
print(out.shape)
print(wei[0].round(decimals=4))
print(wei.sum(-1)[0], k.var().item() > 0.1, wei.var().item() < 1)
# the weights of the future are exactly zero, and each row still sums to one
print((wei[:, 0, 1:] == 0).all().item(), torch.where(wei[0] > 0.3, 1, 0).sum().item())

# gradients flow through the mask into the projections
out.sum().backward()
print(key.weight.grad.shape, query.weight.grad.abs().sum().item() > 0, value.weight.grad.norm().item() > 0)
