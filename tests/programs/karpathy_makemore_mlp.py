# Source: after Karpathy's lecture "makemore part 2" (MLP, Bengio et al. 2003): an embedding table C, a tanh hidden layer, minibatches, sampling.
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail", "ella", "liam", "noah", "oliver", "elijah", "james", "lucas", "mason", "ethan", "logan", "aiden", "jack", "leo", "owen", "ezra", "nora", "zoe", "luna", "hazel", "ruby", "ivy", "yusuf", "kai", "quinn", "xavier", "violet", "willow", "jude", "felix", "theo"]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


Xtr, Ytr = build_dataset(words[:32])
Xdev, Ydev = build_dataset(words[32:])

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((V, 2), generator=g)
W1 = torch.randn((6, 50), generator=g)
b1 = torch.randn(50, generator=g)
W2 = torch.randn((50, V), generator=g)
b2 = torch.randn(V, generator=g)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True


def loss_of(X, Y):
    emb = C[X]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    return F.cross_entropy(logits, Y)


def main():
    for i in range(300):
        ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
        loss = loss_of(Xtr[ix], Ytr[ix])
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = 0.1 if i < 200 else 0.01
        for p in parameters:
            p.data += -lr * p.grad
        if i % 100 == 0:
            print(i, f"{loss.item():.4f}")
    with torch.no_grad():
        print("train", f"{loss_of(Xtr, Ytr).item():.4f}", "dev", f"{loss_of(Xdev, Ydev).item():.4f}")

    for _ in range(5):
        out = []
        context = [0] * block_size
        while True:
            emb = C[torch.tensor([context])]
            h = torch.tanh(emb.view(1, -1) @ W1 + b1)
            logits = h @ W2 + b2
            probs = F.softmax(logits, dim=1)
            ix = torch.multinomial(probs, num_samples=1, generator=g).item()
            context = context[1:] + [ix]
            out.append(ix)
            if ix == 0 or len(out) > 12:
                break
        print("".join(itos[i] for i in out))


if __name__ == "__main__":
    main()
