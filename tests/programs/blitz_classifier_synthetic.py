# Source: after the PyTorch "60 Minute Blitz" page "Training a Classifier" (CIFAR-10), on seeded synthetic 3x16x16 images instead of a download.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

classes = ("plane", "car", "bird")


def make_images(n, generator):
    """Class k: a bright square in corner k, plus noise."""
    labels = torch.randint(0, 3, (n,), generator=generator)
    images = 0.3 * torch.randn(n, 3, 16, 16, generator=generator)
    for i, k in enumerate(labels.tolist()):
        r, c = [(0, 0), (0, 8), (8, 0)][k]
        images[i, :, r:r + 8, c:c + 8] += 1.0
    return images, labels


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 8, 3)
        self.fc1 = nn.Linear(8 * 2 * 2, 32)
        self.fc2 = nn.Linear(32, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(42)
    trainset = TensorDataset(*make_images(96, g))
    testset = TensorDataset(*make_images(48, g))
    trainloader = DataLoader(trainset, batch_size=8, shuffle=True)
    testloader = DataLoader(testset, batch_size=8, shuffle=False)

    net = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(3):
        running_loss = 0.0
        for i, data in enumerate(trainloader, 0):
            inputs, labels = data
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            if i % 6 == 5:
                print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 6:.3f}")
                running_loss = 0.0
    print("Finished Training")

    correct = 0
    total = 0
    with torch.no_grad():
        for images, labels in testloader:
            outputs = net(images)
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
    print(f"Accuracy of the network on the {total} test images: {100 * correct // total} %")
    print("GroundTruth: ", " ".join(f"{classes[j]:5s}" for j in labels[:4]))


if __name__ == "__main__":
    main()
