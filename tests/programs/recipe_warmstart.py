# Source: after the PyTorch recipe "Warmstarting model using parameters from a different model": load_state_dict(strict=False) and what it reports.
import io

import torch
import torch.nn as nn


class NetA(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(torch.relu(self.fc1(x)))


torch.manual_seed(0)
netA = NetA()
buffer = io.BytesIO()
torch.save(netA.state_dict(), buffer)
buffer.seek(0)
netB = NetB()
result = netB.load_state_dict(torch.load(buffer, weights_only=True), strict=False)
print(result)
print(result.missing_keys, result.unexpected_keys)
print(torch.equal(netA.fc1.weight, netB.fc1.weight))
try:
    netB.load_state_dict(netA.state_dict())
except RuntimeError as e:
    print("RuntimeError:", e)
