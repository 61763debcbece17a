# Source: after the PyTorch data API reference (torch.utils.data: WeightedRandomSampler, SubsetRandomSampler, ConcatDataset) and the common recipe for an imbalanced classification set: weights of 1 / class count so a batch sees both classes equally, a validation split by SubsetRandomSampler, two datasets joined by ConcatDataset.
import torch
from torch import nn
from torch.utils.data import (ConcatDataset, DataLoader, SubsetRandomSampler, TensorDataset,
                              WeightedRandomSampler)

torch.manual_seed(1)
common = TensorDataset(torch.randn(90, 2) + torch.tensor([1.0, 1.0]), torch.zeros(90, dtype=torch.long))
rare = TensorDataset(torch.randn(10, 2) - torch.tensor([1.0, 1.0]), torch.ones(10, dtype=torch.long))
data = ConcatDataset([common, rare])
print("samples:", len(data), "cumulative sizes:", data.cumulative_sizes, "last label:", data[-1][1].item())

labels = torch.cat([common.tensors[1], rare.tensors[1]])
counts = torch.bincount(labels)
sample_weights = (1.0 / counts.float())[labels]
print("class counts:", counts.tolist(), "weight of a rare sample / a common one:",
      round((sample_weights[-1] / sample_weights[0]).item(), 3))

sampler = WeightedRandomSampler(sample_weights, num_samples=len(data), replacement=True)
loader = DataLoader(data, batch_size=20, sampler=sampler)
seen = torch.zeros(2, dtype=torch.long)
for xb, yb in loader:
    seen += torch.bincount(yb, minlength=2)
print("labels drawn by the weighted sampler:", seen.tolist())

indices = torch.randperm(len(data)).tolist()
train_idx, val_idx = indices[:80], indices[80:]
train_loader = DataLoader(data, batch_size=16, sampler=SubsetRandomSampler(train_idx))
val_loader = DataLoader(data, batch_size=20, sampler=SubsetRandomSampler(val_idx))
print("batches:", len(train_loader), len(val_loader))

model = nn.Linear(2, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss(weight=(counts.sum() / counts.float()) / 2)
for epoch in range(4):
    total = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    with torch.no_grad():
        correct = sum((model(xb).argmax(1) == yb).sum().item() for xb, yb in val_loader)
    print(f"epoch {epoch}: train loss {total / len(train_idx):.4f}, val accuracy {correct}/{len(val_idx)}")
