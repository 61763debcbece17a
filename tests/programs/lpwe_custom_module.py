# Source: after the PyTorch tutorial "Learning PyTorch with Examples" (custom nn Modules): a Polynomial3 module and SGD.
import math

import torch


class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3"


def main():
    torch.manual_seed(5)
    x = torch.linspace(-math.pi, math.pi, 2000)
    y = torch.sin(x)
    model = Polynomial3()
    print([name for name, _ in model.named_parameters()])
    criterion = torch.nn.MSELoss(reduction="sum")
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
    for t in range(600):
        loss = criterion(model(x), y)
        if t % 150 == 149:
            print(t, f"{loss.item():.3f}")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"Result: {model.string()}")


if __name__ == "__main__":
    main()
