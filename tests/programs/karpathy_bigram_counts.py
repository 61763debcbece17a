# Source: after Karpathy's lecture "makemore part 1" (bigrams): count character pairs, normalise rows, sample names, the negative log likelihood.
import torch

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail", "ella", "liam", "noah", "oliver", "elijah", "james", "lucas", "mason", "ethan", "logan", "aiden", "jack", "leo", "owen", "ezra", "nora", "zoe", "luna", "hazel", "ruby", "ivy", "yusuf", "kai", "quinn", "xavier", "violet", "willow", "jude", "felix", "theo"]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
print(V, "characters")

N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N[0])
print(N.sum().item(), N.max().item())

P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P[0].sum().item(), P.shape)

g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))

log_likelihood = 0.0
n = 0
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        prob = P[stoi[ch1], stoi[ch2]]
        log_likelihood += torch.log(prob)
        n += 1
print(f"{log_likelihood=}")
nll = -log_likelihood
print(f"{nll/n}")
