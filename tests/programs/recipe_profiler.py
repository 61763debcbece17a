# Source: after the PyTorch recipe "PyTorch Profiler" (profile, record_function, key_averages().table): which operators a forward pass ran.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
x = torch.randn(4, 8)
with torch.autograd.profiler.profile() as prof:
    with torch.autograd.profiler.record_function("model_inference"):
        model(x)
averages = prof.key_averages()
names = {e.key for e in averages}
print("model_inference" in names, "aten::linear" in names, "aten::relu" in names)
print("linear calls:", sum(e.count for e in averages if e.key == "aten::linear"))
table = averages.table(sort_by="cpu_time_total", row_limit=5)
print(table.splitlines()[1].split()[:4])
