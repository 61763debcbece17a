# Source: after Karpathy's lecture "makemore part 1" (the neural-net bigram): one-hot inputs, a 27x27 weight matrix, softmax by hand, gradient descent.
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail", "ella", "liam", "noah", "oliver", "elijah", "james", "lucas", "mason", "ethan", "logan", "aiden", "jack", "leo", "owen", "ezra", "nora", "zoe", "luna", "hazel", "ruby", "ivy", "yusuf", "kai", "quinn", "xavier", "violet", "willow", "jude", "felix", "theo"]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
V = len(stoi)

xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print("number of examples:", num)

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((V, V), generator=g, requires_grad=True)
xenc = F.one_hot(xs, num_classes=V).float()
print(xenc.shape, xenc.dtype)

for k in range(30):
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
    if k % 10 == 0:
        print(k, loss.item())
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad
print("final", loss.item())
