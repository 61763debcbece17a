# Source: after metric-learning tutorials (siamese networks with a contrastive loss, FaceNet-style triplet loss with
# nn.TripletMarginLoss, ranking losses): a tiny embedding network learns to pull points of the same cluster
# together and push other clusters away, written in our own words on synthetic clusters.
import torch
from torch import nn
import torch.nn.functional as F


def clusters(generator):
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.5]])
    labels = torch.arange(3).repeat_interleave(20)
    points = centers[labels] + 0.6 * torch.randn(60, 2, generator=generator)
    return points, labels


def triplets(labels, generator):
    """For each point, another of its cluster (positive) and one of another cluster (negative)."""
    n = len(labels)
    pos, neg = [], []
    for i in range(n):
        same = (labels == labels[i]).nonzero().flatten()
        other = (labels != labels[i]).nonzero().flatten()
        pos.append(same[torch.randint(len(same), (1,), generator=generator)].item())
        neg.append(other[torch.randint(len(other), (1,), generator=generator)].item())
    return torch.tensor(pos), torch.tensor(neg)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    points, labels = clusters(g)
    # no bias on the last layer: distances ignore a shift of every embedding, so its gradient would be pure rounding
    # noise, which Adam scales up to full steps (torch's own noise depends on the processor)
    embed = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 4, bias=False))
    criterion = nn.TripletMarginLoss(margin=1.0)
    opt = torch.optim.Adam(embed.parameters(), lr=0.01)
    print(criterion, nn.PairwiseDistance())
    for epoch in range(40):
        pos, neg = triplets(labels, g)
        z = embed(points)
        loss = criterion(z, z[pos], z[neg])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            print(f"epoch {epoch:2d} triplet loss {loss.item():.4f}")
    with torch.no_grad():
        z = embed(points)
        d = F.pairwise_distance(z[:20].mean(0, keepdim=True), z[20:40].mean(0, keepdim=True))
        print("distance between cluster means:", round(d.item(), 3))
        same = F.pairwise_distance(z[0:10], z[10:20]).mean()
        print("mean distance within cluster 0:", round(same.item(), 3))

    # the same pairs scored by a contrastive (cosine embedding) loss and a ranking loss
    y = torch.where(labels[:30] == labels[30:], 1.0, -1.0)
    z = embed(points)
    cos_loss = nn.CosineEmbeddingLoss(margin=0.2)(z[:30], z[30:], y)
    cos_loss.backward()
    print("cosine embedding loss:", round(cos_loss.item(), 4), cos_loss.grad_fn.name())
    near = -F.pairwise_distance(z[:20], z[20:40])
    far = -F.pairwise_distance(z[:20], z[40:])
    rank = nn.MarginRankingLoss(margin=0.5)(near, far, torch.ones(20))
    print("ranking loss:", round(rank.item(), 4), rank.grad_fn.next_functions[0][0].name())
    hinge = F.hinge_embedding_loss(F.pairwise_distance(z[:30], z[30:]), y, margin=2.0)
    print("hinge embedding loss:", round(hinge.item(), 4))


if __name__ == "__main__":
    main()
