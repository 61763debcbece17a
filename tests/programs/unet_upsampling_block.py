# Source: after widely used U-Net implementations (the "Parts of the U-Net model" style: DoubleConv, Down = MaxPool2d + DoubleConv, Up = bilinear nn.Upsample or ConvTranspose2d, padded and concatenated with the skip connection), trained on synthetic square masks; one block uses GroupNorm and PReLU instead of BatchNorm and ReLU.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DoubleConv(nn.Module):
    """(convolution => norm => activation) * 2"""

    def __init__(self, in_channels, out_channels, mid_channels=None, group_norm=False):
        super().__init__()
        mid_channels = mid_channels or out_channels

        def norm(c):
            return nn.GroupNorm(2, c) if group_norm else nn.BatchNorm2d(c)

        def act(c):
            return nn.PReLU(c) if group_norm else nn.ReLU(inplace=True)

        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, padding=1, bias=False), norm(mid_channels),
            act(mid_channels),
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, padding=1, bias=False), norm(out_channels),
            act(out_channels),
        )

    def forward(self, x):
        return self.double_conv(x)


class Down(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.maxpool_conv = nn.Sequential(nn.MaxPool2d(2), DoubleConv(in_channels, out_channels))

    def forward(self, x):
        return self.maxpool_conv(x)


class Up(nn.Module):
    """Upscale, pad to the skip connection's size, concatenate, then DoubleConv."""

    def __init__(self, in_channels, out_channels, bilinear=True):
        super().__init__()
        if bilinear:
            self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
            self.conv = DoubleConv(in_channels, out_channels, in_channels // 2, group_norm=True)
        else:
            self.up = nn.ConvTranspose2d(in_channels, in_channels // 2, kernel_size=2, stride=2)
            self.conv = DoubleConv(in_channels, out_channels)

    def forward(self, x1, x2):
        x1 = self.up(x1)
        diffY = x2.size()[2] - x1.size()[2]
        diffX = x2.size()[3] - x1.size()[3]
        x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
        return self.conv(torch.cat([x2, x1], dim=1))


class TinyUNet(nn.Module):
    def __init__(self, n_channels=1, n_classes=1):
        super().__init__()
        self.inc = DoubleConv(n_channels, 4)
        self.down1 = Down(4, 8)
        self.down2 = Down(8, 8)
        self.up1 = Up(16, 8, bilinear=True)
        self.up2 = Up(8, 4, bilinear=False)
        self.outc = nn.Conv2d(4, n_classes, kernel_size=1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x = self.up1(x3, x2)
        x = self.up2(x, x1)
        return self.outc(x)


def squares(n, generator):
    # images with one bright square (plus noise) and its mask as the target
    images = 0.3 * torch.randn(n, 1, 12, 12, generator=generator)
    masks = torch.zeros(n, 1, 12, 12)
    corners = torch.randint(0, 8, (n, 2), generator=generator)
    for i in range(n):
        r, c = corners[i].tolist()
        masks[i, 0, r:r + 4, c:c + 4] = 1.0
    return images + masks, masks


torch.manual_seed(0)
model = TinyUNet()
print(model.up1)
print(model.up2.up)
print("parameters:", sum(p.numel() for p in model.parameters()))
x, target = squares(8, torch.Generator().manual_seed(1))
print("upsampled:", F.interpolate(x[:1, :, :3, :3], scale_factor=2, mode="nearest")[0, 0, :2])
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
criterion = nn.BCEWithLogitsLoss()
for step in range(10):
    model.train()
    optimizer.zero_grad()
    logits = model(x)
    loss = criterion(logits, target)
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        pred = logits > 0
        inter = (pred & (target > 0.5)).sum().item()
        union = (pred | (target > 0.5)).sum().item()
    print(f"step {step}: loss {loss.item():.4f} IoU {inter / max(union, 1):.3f}")
model.eval()
with torch.no_grad():
    probs = torch.sigmoid(model(x[:1]))
print(probs.shape, probs[0, 0, 4:8, 4:8].round(decimals=2))
