# Source: after Tim Rocktäschel's post "Einsum is all you need: Einstein summation in deep learning" (rockt.ai/2018/04/30/einsum): transpose, sums, matrix-vector and matrix products, dot, outer, batch products and a bilinear form written with torch.einsum, each checked against the plain operation, and a gradient through one.
import torch

a = torch.arange(6).reshape(2, 3)
print(torch.einsum("ij->ji", a))            # transpose
print(torch.einsum("ij->", a))              # sum of everything
print(torch.einsum("ij->j", a))             # column sums
print(torch.einsum("ij->i", a))             # row sums
b = torch.arange(3)
print(torch.einsum("ik,k->i", a, b))        # matrix-vector product
c = torch.arange(15).reshape(3, 5)
print(torch.einsum("ik,kj->ij", a, c))      # matrix product
print(torch.einsum("i,i->", b, b))          # dot product
print(torch.einsum("ij,ij->", a, a))        # dot product of matrices
print(torch.einsum("ij,ij->ij", a, a))      # Hadamard product
print(torch.einsum("i,j->ij", torch.arange(3), torch.arange(3, 7)))  # outer product

torch.manual_seed(0)
x = torch.randn(3, 2, 5)
y = torch.randn(3, 5, 3)
print(torch.einsum("ijk,ikl->ijl", x, y).shape, torch.allclose(torch.einsum("ijk,ikl->ijl", x, y), torch.bmm(x, y)))
t = torch.randn(2, 3, 5, 7)
u = torch.randn(11, 13, 3, 17, 5)
print(torch.einsum("pqrs,tuqvr->pstuv", t, u).shape)  # tensor contraction
l, A, r = torch.randn(2, 5), torch.randn(3, 5, 4), torch.randn(2, 4)
print(torch.einsum("bn,anm,bm->ba", l, A, r).shape)   # bilinear transformation
by_hand = torch.stack([torch.stack([l[b] @ A[a] @ r[b] for a in range(3)]) for b in range(2)])
print(torch.allclose(torch.einsum("bn,anm,bm->ba", l, A, r), by_hand, atol=1e-5))
print(torch.einsum("ii->i", torch.arange(9.).reshape(3, 3)), torch.einsum("ii", torch.arange(9.).reshape(3, 3)))
print(torch.einsum("...ij->...ji", torch.randn(2, 3, 4)).shape, torch.einsum(torch.ones(2), [0], torch.ones(2), [0], []))

# attention scores, the post's last example, with gradients
torch.manual_seed(1)
Y = torch.randn(4, 6, 8, requires_grad=True)   # batch, length, hidden
W = torch.randn(8, 8, requires_grad=True)
h = torch.randn(4, 8)
scores = torch.einsum("bik,kl,bl->bi", Y, W, h)
alpha = torch.softmax(scores, dim=-1)
summary = torch.einsum("bi,bik->bk", alpha, Y)
print(scores.shape, alpha.sum(-1), summary.shape)
summary.pow(2).sum().backward()
print(Y.grad.shape, W.grad.norm() > 0, round(float(W.grad.abs().sum()), 2))
print(scores.grad_fn.name(), summary.grad_fn.name())
