# Source: after Harvard NLP's "The Annotated Transformer" (attention with a padding mask and a subsequent-position mask written with masked_fill) and Shazeer's "GLU Variants Improve Transformer" (a GLU feed-forward), in a tiny self-attention block trained for a few steps.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def subsequent_mask(size):
    return torch.triu(torch.ones(1, size, size), diagonal=1) == 0


def attention(query, key, value, mask=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores.masked_fill_(mask == 0, -1e9)
    p_attn = scores.softmax(dim=-1)
    return torch.matmul(p_attn, value), p_attn


class Block(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.ff_in = nn.Linear(d_model, 2 * d_ff)
        self.glu = nn.GLU(dim=-1)
        self.ff_out = nn.Linear(d_ff, d_model)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, mask):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        attended, self.attn = attention(q, k, v, mask)
        x = self.norm(x + attended)
        return x + self.ff_out(self.glu(self.ff_in(x)))


print(subsequent_mask(4).int())
torch.manual_seed(0)
tokens = torch.tensor([[3, 1, 4, 1, 5, 0], [2, 7, 1, 8, 0, 0]])
pad = 0
src_mask = (tokens != pad).unsqueeze(-2)
mask = src_mask & subsequent_mask(tokens.size(-1))
print(mask[1].int())

embed = nn.Embedding(10, 8, padding_idx=pad)
block = Block(8, 16)
head = nn.Linear(8, 10)
params = list(embed.parameters()) + list(block.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=0.01)
targets = torch.roll(tokens, -1, dims=1)
for step in range(6):
    logits = head(block(embed(tokens), mask))
    loss = F.cross_entropy(logits.view(-1, 10), targets.view(-1), ignore_index=pad)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
print("attention of the second sequence, last real token:", block.attn[1, 3].detach().round(decimals=3))
print("weight on padded or future positions:", block.attn[1][~mask[1]].abs().max().item())
print(block.glu, F.glu(torch.tensor([[1.0, 2.0, 0.0, 100.0]])))
