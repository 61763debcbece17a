# Source: after the PyTorch tutorial "Datasets & DataLoaders" (pytorch.org/tutorials/beginner/basics/data_tutorial.html): a Dataset subclass with __len__ / __getitem__ and a transform, random_split with a seeded generator, DataLoader batches and shuffling, then a model evaluated under no_grad.
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, random_split


class RingsDataset(Dataset):
    """Points on two noisy rings: label 0 for the inner ring, 1 for the outer one."""

    def __init__(self, n, transform=None, target_transform=None, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, 2, (n,), generator=g)
        radius = 1.0 + 1.5 * self.labels.float() + 0.2 * torch.randn(n, generator=g)
        angle = 2 * torch.pi * torch.rand(n, generator=g)
        self.points = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        point, label = self.points[idx], self.labels[idx]
        if self.transform:
            point = self.transform(point)
        if self.target_transform:
            label = self.target_transform(label)
        return point, label


def with_radius(point):
    """A transform: the point's distance from the centre as a third feature."""
    return torch.cat([point, point.norm().unsqueeze(0)])


data = RingsDataset(200, transform=with_radius)
print(len(data), data[0][0].shape, data[0][1], type(data[3][1]).__name__)
train_data, test_data = random_split(data, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
print(len(train_data), len(test_data), train_data.indices[:5])

train_loader = DataLoader(train_data, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(1))
test_loader = DataLoader(test_data, batch_size=16)
features, labels = next(iter(train_loader))
print(f"Feature batch shape: {features.size()}")
print(f"Labels batch shape: {labels.size()}", labels[:8])
print(len(train_loader), len(test_loader), [len(y) for _, y in test_loader])

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)


def evaluate(loader):
    model.eval()
    correct, total, loss = 0, 0, 0.0
    with torch.no_grad():
        for X, y in loader:
            pred = model(X)
            loss += loss_fn(pred, y).item() * len(y)
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
            total += len(y)
    return correct / total, loss / total


for epoch in range(8):
    model.train()
    for batch, (X, y) in enumerate(train_loader):
        loss = loss_fn(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    accuracy, test_loss = evaluate(test_loader)
    print(f"epoch {epoch}: accuracy {100 * accuracy:>0.1f}%, test loss {test_loss:>8f}")
