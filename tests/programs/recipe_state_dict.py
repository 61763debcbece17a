# Source: after the PyTorch recipes "What is a state_dict?" and "Saving and loading models": model and optimizer state_dicts, a checkpoint round trip.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        return self.fc2(F.relu(self.fc1(x)))


torch.manual_seed(0)
net = Net()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
print("Model's state_dict:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

x = torch.randn(2, 3, 32, 32)
loss = net(x).pow(2).mean()
loss.backward()
optimizer.step()
print("momentum buffers:", len(optimizer.state_dict()["state"]))

buffer = io.BytesIO()
torch.save({"epoch": 1, "model_state_dict": net.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(), "loss": loss.item()}, buffer)
buffer.seek(0)
model = Net()
opt2 = optim.SGD(model.parameters(), lr=0.5)
checkpoint = torch.load(buffer, weights_only=True)
model.load_state_dict(checkpoint["model_state_dict"])
opt2.load_state_dict(checkpoint["optimizer_state_dict"])
print(checkpoint["epoch"], round(checkpoint["loss"], 5), opt2.param_groups[0]["lr"])
model.eval()
print(torch.equal(model(x), net(x)))
