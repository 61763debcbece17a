# Source: after character-level language-model course notebooks (char-RNN style, hand-written RNN cell with nn.Embedding and Adam) on a sentence typed here.
import torch
import torch.nn as nn
import torch.nn.functional as F

text = ("the quick brown fox jumps over the lazy dog. a lazy dog sleeps all day while the fox runs. "
        "the dog and the fox are friends, and they play in the sun.")
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text])
print(len(text), "characters,", len(chars), "distinct")


class CharRNN(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.Wxh = nn.Linear(hidden, hidden)
        self.Whh = nn.Linear(hidden, hidden, bias=False)
        self.out = nn.Linear(hidden, vocab)
        self.hidden = hidden

    def forward(self, idx, h=None):
        B, T = idx.shape
        h = torch.zeros(B, self.hidden) if h is None else h
        x = self.embed(idx)
        logits = []
        for t in range(T):
            h = torch.tanh(self.Wxh(x[:, t]) + self.Whh(h))
            logits.append(self.out(h))
        return torch.stack(logits, dim=1), h


def get_batch(block, batch, generator):
    ix = torch.randint(0, len(data) - block - 1, (batch,), generator=generator)
    x = torch.stack([data[i:i + block] for i in ix])
    y = torch.stack([data[i + 1:i + block + 1] for i in ix])
    return x, y


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = CharRNN(len(chars), 32)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(60):
        x, y = get_batch(16, 8, g)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.view(-1, len(chars)), y.view(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step % 20 == 0:
            print(f"step {step}: loss {loss.item():.4f}")
    print(f"final loss {loss.item():.4f}")
    with torch.no_grad():
        idx = torch.tensor([[stoi["t"]]])
        h, out = None, "t"
        for _ in range(30):
            logits, h = model(idx, h)
            idx = logits[:, -1].argmax(-1, keepdim=True)
            out += itos[idx.item()]
        print(repr(out))


if __name__ == "__main__":
    main()
