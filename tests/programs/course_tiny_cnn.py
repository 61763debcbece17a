# Source: after course notebooks that train a tiny CNN (Conv2d, Dropout2d, MaxPool2d, Adam) on synthetic images: horizontal vs vertical bars.
import torch
import torch.nn as nn
import torch.nn.functional as F


def bars(n, generator):
    labels = torch.randint(0, 2, (n,), generator=generator)
    images = 0.2 * torch.randn(n, 1, 10, 10, generator=generator)
    pos = torch.randint(1, 9, (n,), generator=generator)
    for i in range(n):
        if labels[i] == 0:
            images[i, 0, pos[i], :] += 1.0
        else:
            images[i, 0, :, pos[i]] += 1.0
    return images, labels


class TinyCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.drop = nn.Dropout2d(0.25)
        self.fc = nn.Linear(8 * 3 * 3, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        x = self.drop(x)
        return self.fc(x.view(x.size(0), -1))


torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
X, y = bars(64, g)
model = TinyCNN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(8):
    model.train()
    optimizer.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(dim=1) == y).float().mean()
    print(f"epoch {epoch}: loss {loss.item():.4f} acc {acc.item():.3f}")
