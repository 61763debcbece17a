# Source: after the PyTorch DCGAN tutorial (a generator of ConvTranspose2d / BatchNorm2d / ReLU / Tanh, a discriminator of strided Conv2d / LeakyReLU, weights drawn from N(0, 0.02), BCELoss, Adam with beta1 0.5), shrunk to 16x16 synthetic images.
import torch
import torch.nn as nn

nz, ngf, ndf, nc = 8, 4, 4, 1  # latent size, generator and discriminator widths, image channels


def weights_init(m):
    # the tutorial's custom init: every conv (and transposed conv) from N(0, 0.02), BatchNorm around 1
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            # z: (nz, 1, 1) -> (ngf * 4, 4, 4)
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            # -> (ngf * 2, 8, 8)
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            # -> (nc, 16, 16)
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),  # -> 8x8
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),  # -> 4x4
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),  # -> 1x1
            nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input)


def real_batch(n, generator):
    # "real" images: a bright disc at a random place on a dark background, in [-1, 1]
    ys, xs = torch.meshgrid(torch.arange(16.), torch.arange(16.), indexing="ij")
    centres = torch.randint(4, 12, (n, 2), generator=generator).float()
    d2 = (ys - centres[:, 0].view(n, 1, 1)) ** 2 + (xs - centres[:, 1].view(n, 1, 1)) ** 2
    return (torch.exp(-d2 / 8.0) * 2 - 1).unsqueeze(1)


torch.manual_seed(999)
netG = Generator()
netG.apply(weights_init)
print(netG)
netD = Discriminator()
netD.apply(weights_init)
print(netD)
print("generator parameters:", sum(p.numel() for p in netG.parameters()))

criterion = nn.BCELoss()
fixed_noise = torch.randn(4, nz, 1, 1)
real_label, fake_label = 1.0, 0.0
optimizerD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))

data = torch.Generator().manual_seed(0)
for iteration in range(6):
    real = real_batch(8, data)
    b_size = real.size(0)
    # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
    netD.zero_grad()
    label = torch.full((b_size,), real_label, dtype=torch.float)
    output = netD(real).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    noise = torch.randn(b_size, nz, 1, 1)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optimizerD.step()
    # (2) update G: maximize log(D(G(z)))
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optimizerG.step()
    print(f"[{iteration}/6] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f} "
          f"D(x): {D_x:.4f} D(G(z)): {D_G_z1:.4f} / {D_G_z2:.4f}")

with torch.no_grad():
    samples = netG(fixed_noise).detach()
print(samples.shape, f"{samples.min().item():.3f} {samples.max().item():.3f}")
print(samples[0, 0, 6:10, 6:10])
