"""ModuleList, ModuleDict, ParameterList and ParameterDict, run in torch and in autograd_tutor: the same reprs
(ModuleList's runs of equal children collapsed), registered names, state_dict keys, modes, dtypes and errors."""
import pytest
from nn_programs import SET_WEIGHTS

pytest.importorskip("torch")

CASES = {
    "containers": """
import collections
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
        self.heads = nn.ModuleDict({"b": nn.Linear(2, 1), "a": nn.Linear(2, 3)})
        self.scales = nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(1), requires_grad=False)])
        self.extra = nn.ParameterDict({"z": torch.ones(1), "y": torch.zeros(2, 2)})
    def forward(self, x):
        for b in self.blocks:
            x = torch.tanh(b(x)) * self.scales[0]
        return self.heads["a"](x).sum() + self.heads["b"](x).sum() * self.extra["z"]
n = set_weights(Net())
print(n)
print([k for k, _ in n.named_parameters()])
print(list(n.state_dict()))
print([k for k, _ in n.named_modules()])
print(n.scales[1].requires_grad, type(n.extra["y"]).__name__, n.extra["y"].requires_grad)
out = n(torch.ones(3, 2))
out.sum().backward()
print(out.grad_fn.name(), n.scales[0].grad is not None, n.extra["y"].grad, n.extra["z"].grad is not None)
val(out, *[p.grad for p in n.parameters() if p.grad is not None])
n.eval()
print(n.training, n.blocks.training, n.blocks[1].training, n.heads["a"].training)
n.train()
print(n.blocks[0].training)
n.double()
print(n.blocks[0].weight.dtype, n.scales[0].dtype, n.extra["y"].dtype)
n2 = Net()
print(n2.load_state_dict(n.state_dict()), n2.blocks[1].weight.dtype)
ml = nn.ModuleList()
ml.append(nn.ReLU()).append(nn.Tanh())
ml.extend([nn.ReLU(), nn.ReLU()])
ml += [nn.Sigmoid()]
ml.insert(1, nn.ReLU())
print(ml, len(ml))
print(ml[-1], ml[::2], ml[1:3])
ml[0] = nn.Tanh()
del ml[1]
print(ml)
del ml[1:3]
print(ml, ml.pop(0), len(ml))
print(ml + nn.ModuleList([nn.Tanh()]))
with expect(): ml[10]
with expect(): ml[-10]
with expect(): ml.extend(3)
with expect(): ml.extend(torch.ones(2))
with expect(): ml.append(3)
with expect(): ml(torch.ones(1))
with expect(): nn.ModuleList([nn.ReLU(), 1])
md = nn.ModuleDict([("x", nn.ReLU()), ("w", nn.Tanh())])
md["v"] = nn.Sigmoid()
md.update(collections.OrderedDict(u=nn.Identity()))
print(md, list(md), list(md.keys()), [type(v).__name__ for v in md.values()], "x" in md, len(md))
print(md.pop("x"), list(md.items())[0][0])
del md["w"]
print(md)
with expect(): md["q"]
with expect(): md.update(3)
with expect(): md.update([("a", nn.ReLU(), 3)])
with expect(): md.update([3])
with expect(): md["a.b"] = nn.ReLU()
md.clear()
print(md, len(md))
pl = nn.ParameterList([torch.zeros(2, 3), torch.tensor(1.)])
pl.append(torch.ones(4, dtype=torch.float64)).append("hello")
pl.extend([nn.Parameter(torch.ones(1))])
print(pl, len(pl), [type(p).__name__ for p in pl])
print(pl[1:3], pl[-1])
pl[0] = torch.ones(1)
print(pl[0], [k for k, _ in pl.named_parameters()])
with expect(): pl[9]
with expect(): pl.extend(torch.ones(2))
with expect(): pl()
pd = nn.ParameterDict(collections.OrderedDict(b=torch.ones(1), a=torch.zeros(1)))
pd["c"] = torch.ones(2, 2)
pd.update([("d", "text")])
print(pd, list(pd), len(pd), "a" in pd, pd.get("zz"), pd.get("a"))
print(list(pd.keys()), [type(v).__name__ for v in pd.values()], [k for k, _ in pd.items()])
print(pd.pop("b"), list(pd))
del pd["a"]
print(pd, list(pd.state_dict()))
with expect(): pd[1]
with expect(): pd["missing"]
with expect(): pd.update(5)
with expect(): pd(1)
pd.clear()
print(pd, len(pd))
""",
    "sequential slicing and repr": """
s = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.ReLU())
print(s, s[1:], s[::2], type(s[1:]).__name__)
s.extend(nn.Sequential(nn.Tanh()))
del s[0]
print(s, len(s))
""",
}


@pytest.mark.parametrize("name", CASES)
def test_container_program(conform, name):
    conform(SET_WEIGHTS + CASES[name])
