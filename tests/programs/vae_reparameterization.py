# Source: after PyTorch's examples/vae/main.py (reparameterize with torch.randn_like, BCE + KL loss) on tiny synthetic bar images, with torch.distributions.Normal for the same trick.
import torch
from torch import nn, optim
from torch.nn import functional as F
from torch.distributions import Normal


def bars(n, generator):
    """8x8 images with one horizontal or vertical bar, flattened to 64 pixels."""
    images = torch.zeros(n, 8, 8)
    where = torch.randint(0, 8, (n,), generator=generator)
    vertical = torch.rand(n, generator=generator) < 0.5
    for i in range(n):
        if vertical[i]:
            images[i, :, where[i]] = 1.0
        else:
            images[i, where[i], :] = 1.0
    return images.view(n, 64)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 2)
        self.fc22 = nn.Linear(32, 2)
        self.fc3 = nn.Linear(2, 32)
        self.fc4 = nn.Linear(32, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction='sum')
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


def main():
    torch.manual_seed(1)
    data = bars(96, torch.Generator().manual_seed(2))
    model = VAE()
    optimizer = optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(1, 6):
        model.train()
        train_loss = 0
        for i in range(0, 96, 16):
            batch = data[i:i + 16]
            optimizer.zero_grad()
            recon_batch, mu, logvar = model(batch)
            loss = loss_function(recon_batch, batch, mu, logvar)
            loss.backward()
            train_loss += loss.item()
            optimizer.step()
        print(f"====> Epoch: {epoch} Average loss: {train_loss / 96:.4f}")
    model.eval()
    with torch.no_grad():
        mu, logvar = model.encode(data[:4])
        print(mu, logvar.exp())
        sample = model.decode(torch.randn(2, 2))
        print(sample.view(2, 8, 8)[0, :2])
    # the same trick with torch.distributions: rsample keeps the graph, sample does not
    mu = torch.zeros(3, 2, requires_grad=True)
    q = Normal(mu, torch.ones(3, 2))
    z = q.rsample()
    print(q, z.requires_grad, q.sample().requires_grad, z.grad_fn)
    log_q = q.log_prob(z).sum()
    log_q.backward()
    print(log_q, mu.grad)


if __name__ == "__main__":
    main()
