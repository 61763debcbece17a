"""BatchNorm1d, BatchNorm2d and F.batch_norm, run in torch and in autograd_tutor: the same reprs, state_dict keys,
graphs (one NativeBatchNormBackward0 in training and in eval, for 2-D, 3-D and 4-D inputs), running statistics,
outputs and gradients (to float32 tolerance), and the same errors."""
import pytest
from nn_programs import SET_WEIGHTS

pytest.importorskip("torch")

CASES = {
    "training and eval": """
torch.manual_seed(0)
for bn, shape in [(nn.BatchNorm1d(3), (4, 3)), (nn.BatchNorm1d(3, momentum=0.3), (2, 3, 5)),
                  (nn.BatchNorm2d(3), (2, 3, 4, 4)), (nn.BatchNorm1d(3, momentum=None), (5, 3)),
                  (nn.BatchNorm1d(3, affine=False), (4, 3, 2)),
                  (nn.BatchNorm2d(3, track_running_stats=False, eps=1e-3), (3, 3, 2, 2)),
                  (nn.BatchNorm1d(3, bias=False), (6, 3))]:
    print(bn)
    with torch.no_grad():
        for p in bn.parameters():
            p.copy_(torch.rand(p.shape) + 0.5)
    for step in range(3):
        x = (torch.randn(*shape) * 2 + 1).requires_grad_()
        y = bn(x)
        graph(y)
        (y * torch.randn(*shape)).sum().backward()
        val(y, x.grad, *[p.grad for p in bn.parameters()])
        bn.zero_grad()
        print(bn.num_batches_tracked, [k for k in bn.state_dict()])
        val(*bn.buffers())
    bn.eval()
    x = torch.randn(*shape, requires_grad=True)
    y = bn(x)
    g = y.grad_fn
    print(g.name(), g._saved_training, g._saved_eps, g._saved_result1, g._saved_running_mean is bn.running_mean)
    (y * torch.randn(*shape)).sum().backward()
    val(y, x.grad, *[p.grad for p in bn.parameters()])
    print(bn.num_batches_tracked)
    with torch.no_grad():
        print(bn(x).grad_fn, bn.train()(x).requires_grad)
x = torch.randn(4, 3, requires_grad=True)
y = F.batch_norm(x, None, None, training=True)
val(y, y.grad_fn._saved_result1, y.grad_fn._saved_result2)
y.sum().backward(retain_graph=True)
val(x.grad)
y.sum().backward()
with expect(): y.sum().backward()
with expect(): y.grad_fn._saved_input
print(y.grad_fn._saved_eps, y.grad_fn._saved_training, y.grad_fn._saved_weight)
bn = nn.BatchNorm1d(3)
sd = bn.state_dict()
print(sd)
bn(torch.randn(4, 3))
print(nn.BatchNorm1d(3).load_state_dict(bn.state_dict()))
print(nn.BatchNorm1d(3).double().running_var.dtype, bn.to(torch.float64).num_batches_tracked.dtype)
empty = F.batch_norm(torch.zeros(0, 3), torch.zeros(3), torch.ones(3), torch.ones(3, requires_grad=True),
                     torch.zeros(3, requires_grad=True), training=True)
print(empty)
graph(empty)
print(nn.BatchNorm1d(2)(torch.tensor([[1., 2.], [3., 5.]]).half()))
""",
    "errors": """
x = torch.randn(4, 3)
with expect(): nn.BatchNorm1d(4)(x)
with expect(): nn.BatchNorm1d(4).eval()(x)
print(nn.BatchNorm1d(4, affine=False, track_running_stats=False)(x).shape)
with expect(): F.batch_norm(x, None, None)
with expect(): F.batch_norm(x, torch.zeros(3), None)
with expect(): F.batch_norm(torch.randn(3), None, None, training=True)
with expect(): F.batch_norm(x, None, None, training=True, eps=0)
with expect(): F.batch_norm(x, torch.zeros(3), torch.ones(3), eps=-1)
with expect(): F.batch_norm(x, torch.zeros(3), torch.ones(3), momentum=None)
with expect(): F.batch_norm(x, torch.zeros(4), torch.ones(3), torch.ones(5))
with expect(): F.batch_norm(x, torch.zeros(3), torch.ones(3), torch.ones(4))
with expect(): F.batch_norm(x, torch.zeros(3), torch.ones(3), torch.ones(3), torch.ones(2))
with expect(): nn.BatchNorm1d(3)(x.double())
with expect(): nn.BatchNorm1d(3).double()(x)
with expect(): nn.BatchNorm1d(3)(torch.ones(4, 3, dtype=torch.long))
with expect(): nn.BatchNorm1d(3)(torch.randn(1, 3))
with expect(): nn.BatchNorm1d(3)(torch.randn(1, 3, 1))
with expect(): nn.BatchNorm2d(3)(torch.randn(1, 3, 1, 1))
print(nn.BatchNorm1d(3)(torch.randn(1, 3, 2)).shape, nn.BatchNorm1d(3).eval()(torch.randn(1, 3)).shape)
with expect(): nn.BatchNorm1d(3)(torch.randn(2, 3, 2, 2))
with expect(): nn.BatchNorm2d(3)(x)
with expect(): nn.BatchNorm1d(3)(torch.randn(3))
""",
    "state_dict without num_batches_tracked": """
bn = nn.BatchNorm1d(2)
sd = {"weight": torch.ones(2), "bias": torch.zeros(2), "running_mean": torch.ones(2), "running_var": torch.ones(2)}
with expect(): print(bn.load_state_dict(sd))
print(sorted(sd), bn.running_mean)
sd2 = bn.state_dict()
del sd2["num_batches_tracked"]
with expect(): print(bn.load_state_dict(sd2))
with expect(): print(nn.BatchNorm1d(2, track_running_stats=False).load_state_dict(sd))
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
s3 = {k: v for k, v in m.state_dict().items() if "num_batches" not in k}
with expect(): print(m.load_state_dict(s3))
print(m.state_dict()._metadata, m[1].state_dict(prefix="x.")._metadata)
""",
}


@pytest.mark.parametrize("name", CASES)
def test_batchnorm_program(conform, name):
    conform(SET_WEIGHTS + CASES[name])
