"""Adaptive pooling (avg and max, 1d and 2d, output size 1 as torch's mean), avg_pool1d, the pad and
cosine-similarity modules, Tensor.unfold, and small activations and losses, run in torch and autograd_tutor:
values, gradients, grad_fn names, graphs, saved fields, printed results and errors."""
import pytest

from test_conf_ops import LEAVES, PROGRAM

torch = pytest.importorskip("torch")

F = "torch.nn.functional."
NN = "torch.nn."
IMG = "torch.arange(70.).reshape(2, 5, 7).sin().requires_grad_()"  # a (C, H, W) image, not in LEAVES

OPS = [
    # adaptive pooling: size 1 is a mean, others AdaptiveAvgPool2DBackward0 with uneven windows
    F + "adaptive_avg_pool2d(t3, 1)", F + "adaptive_avg_pool2d(t3, (1, 1))", F + "adaptive_avg_pool2d(t3, (2, 2))",
    F + "adaptive_avg_pool2d(t3[None], (1, 2))", F + "adaptive_avg_pool2d(t3, (None, 2))",
    F + "adaptive_avg_pool2d(t3, (3, None))", F + "adaptive_avg_pool2d(t3, 4)", F + "adaptive_avg_pool2d(m, 1)",
    F + f"adaptive_avg_pool2d({IMG}, (3, 4))", F + f"adaptive_avg_pool2d({IMG}[None], 2)",
    F + "adaptive_avg_pool2d(u, (None, 1))", F + "adaptive_avg_pool2d(t3, 0)", F + "adaptive_max_pool2d(t3, 0)",
    F + "adaptive_avg_pool1d(m, 2)", F + "adaptive_avg_pool1d(m, 1)", F + "adaptive_avg_pool1d(t3, [2])",
    F + f"adaptive_avg_pool1d({IMG}, 3)",
    F + "adaptive_max_pool2d(t3, 2)", F + "adaptive_max_pool2d(t3, 1)", F + f"adaptive_max_pool2d({IMG}, (3, None))",
    F + f"adaptive_max_pool2d({IMG}[None], (2, 3), True)[0]", F + "adaptive_max_pool1d(m, 2)",
    F + f"adaptive_max_pool1d({IMG}, 3, return_indices=True)[0]",
    NN + "AdaptiveAvgPool2d((1, 1))(t3[None])", NN + "AdaptiveAvgPool2d((None, 2))(t3)", NN + "AdaptiveAvgPool1d(2)(m)",
    NN + "AdaptiveMaxPool2d(2)(t3)", NN + "AdaptiveMaxPool1d(2, True)(m)[0]",
    # avg_pool1d, pads, cosine similarity
    F + "avg_pool1d(m, 2)", F + "avg_pool1d(t3, 2, 1)", F + "avg_pool1d(t3, 3, 2, 1)",
    F + "avg_pool1d(t3, 2, 2, 1, True, False)", F + f"avg_pool1d({IMG}, [3], [2])", NN + "AvgPool1d(2, 1)(m)",
    NN + "ZeroPad2d(1)(t3)", NN + "ZeroPad2d((1, 0, 2, 0))(m)", NN + "ConstantPad2d((1, 1, 0, 1), 2.5)(t3)",
    NN + "ConstantPad1d(2, -1.)(m)", NN + "ZeroPad1d((0, 2))(v)", NN + "CosineSimilarity()(m, m.flip(1))",
    NN + "CosineSimilarity(dim=0, eps=1e-6)(v, v * 2)",
    # unfold
    "m.unfold(1, 2, 1)", "m.unfold(0, 2, 1)", "m.unfold(-1, 3, 1)", "t3.unfold(2, 2, 2)", "t3.unfold(1, 1, 3)",
    "v.unfold(0, 2, 1).sum(1)", "s.unfold(0, 1, 1)", "m.unfold(1, 2, 1) * 2", "x.unfold(0, 1, 1)",
    # activations (relu6 is hardtanh, selu an elu with a scale)
    F + "relu6(m * 3)", F + "hardtanh(m)", F + "hardtanh(m, -2., 2.)", F + "relu6(m.clone(), inplace=True)",
    F + "hardtanh(m * 1, inplace=True)", F + "hardtanh_(m * 1, -0.5, 0.5)", F + "relu6(m.double())",
    NN + "ReLU6()(m * 2)", NN + "Hardtanh(-2, 2)(m)", NN + "ReLU6(True)(m + 1)",
    F + "logsigmoid(m)", F + "logsigmoid(m * 40)", NN + "LogSigmoid()(t3 - 5)",
    F + "selu(m)", F + "selu(m * 1, True)", F + "selu_(m * 1)", NN + "SELU()(v - 2)",
    F + "mish(m)", F + "mish(m * 1, inplace=True)", NN + "Mish()(t3 - 6)", F + "mish(m * 100)",
    # losses
    F + "huber_loss(m, k[:1])", F + "huber_loss(m, m.flip(1) * 0.5, delta=0.5)", F + "huber_loss(x, w, reduction='sum')",
    F + "huber_loss(m, m * 0, reduction='none', delta=2.)", F + "huber_loss(x, k, weight=k)",
    F + "huber_loss(x, k, weight=k, reduction='sum')", F + "huber_loss(x, k, weight=k, reduction='none')",
    NN + "HuberLoss(delta=0.5)(m, m.detach() * 2)", NN + "HuberLoss('sum', 3.)(x, w)",
    F + "kl_div(m, m.detach().softmax(1))", F + "kl_div(m.log_softmax(1), v.detach().softmax(0).expand(2, 3), reduction='batchmean')",
    F + "kl_div(m, m.softmax(1), reduction='sum')", F + "kl_div(x, w.softmax(0), reduction='none')",
    F + "kl_div(x, w.log_softmax(0), log_target=True)", F + "kl_div(m, m.detach() * 0.1, reduction='batchmean', log_target=True)",
    F + "kl_div(s, s.detach().sigmoid(), reduction='batchmean')", F + "kl_div(x, k, size_average=False)",
    NN + "KLDivLoss(reduction='batchmean')(m.log_softmax(1), b.detach().sigmoid() * 0.5)",
    NN + "KLDivLoss(reduction='sum', log_target=True)(x, w)",
    # fused updates and blending
    "torch.addcmul(x, x, w)", "torch.addcmul(x, w, k, value=0.5)", "x.addcmul(k, w, value=2)", "torch.addcmul(m, v, b)",
    "torch.addcdiv(x, x, w)", "torch.addcdiv(x, k, w, value=-1.5)", "x.addcdiv(w, k)", "torch.addcdiv(m, b, v + 5)",
    "x.clone().addcmul_(x, w, value=2)", "m.clone().addcmul_(v, k[:1])", "x.clone().addcdiv_(k, w * w + 1, value=-0.1)",
    "torch.lerp(x, w, 0.3)", "torch.lerp(x, w, 0.7)", "x.lerp(w, 2)", "torch.lerp(x, k, w.sigmoid())",
    "torch.lerp(m, v, b.sigmoid())", "x.clone().lerp_(w, 0.5)", "x.clone().lerp_(k, x.sigmoid())", "x.lerp(k, k / 4)",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


SAVED = LEAVES + """
F = torch.nn.functional
for e in ["F.adaptive_avg_pool2d(t3, 1)", "F.adaptive_avg_pool2d(t3, (2, 2))", "F.adaptive_avg_pool1d(m, 1)",
          "F.adaptive_avg_pool1d(m, 2)", "F.adaptive_max_pool2d(t3, 2)", "F.adaptive_max_pool1d(m, 2)",
          "F.avg_pool1d(m, 2)", "F.avg_pool1d(t3, 3, 2, 1, True, False)", "F.avg_pool2d(t3, 2)",
          "m.unfold(1, 2, 1)", "m.unfold(-1, 3, 2)", "s.unfold(-1, 1, 1)", "F.relu6(m)", "F.hardtanh(m)",
          "F.hardtanh_(m * 1)", "torch.nn.ReLU6()(m)", "F.logsigmoid(m)", "F.selu(m)", "F.selu(m * 1, True)",
          "F.mish(m)", "F.huber_loss(m, m * 2, delta=0.5)", "F.huber_loss(x, w, reduction='none')",
          "torch.addcmul(x, x, w)", "torch.addcmul(x, k, w, value=0.5)", "torch.addcdiv(x, x, k)",
          "torch.addcdiv(x, k, w, value=2)", "torch.addcdiv(x, x, w)", "torch.lerp(x, w, 0.5)",
          "torch.lerp(x, w, k / 4)", "F.kl_div(x, k, reduction='batchmean')", "F.kl_div(x, w.softmax(0))"]:
    y = eval(e)
    n = y.grad_fn
    while n is not None:
        names = [a for a in dir(n) if a.startswith("_saved_")]
        print(e, n.name(), [(a, getattr(n, a)) for a in names if not isinstance(getattr(n, a), torch.Tensor)])
        print("  tensors", [(a, tuple(getattr(n, a).shape), getattr(n, a).dtype) for a in names
                            if isinstance(getattr(n, a), torch.Tensor)])
        n = n.next_functions[0][0] if n.next_functions and n.next_functions[0][0] is not None else None
"""


def test_saved_fields(conform):
    """The ``_saved_*`` fields of each node of the new operations, down to the leaf."""
    conform(SAVED)


PRINTED = """
F = torch.nn.functional
x = torch.arange(35.).reshape(1, 5, 7)
print(F.adaptive_avg_pool2d(x, (2, 3)), F.adaptive_avg_pool2d(x, (3, None)))
print(F.adaptive_max_pool2d(x, (2, 3), return_indices=True))
print(F.adaptive_max_pool1d(x, 3, True))
print(F.avg_pool1d(torch.arange(10).reshape(2, 5), 2), F.adaptive_avg_pool2d(x[:, :0], 1))
print(torch.nn.AdaptiveAvgPool2d((2, 3)), torch.nn.AdaptiveAvgPool2d((None, 3)), torch.nn.AdaptiveAvgPool1d(3))
print(torch.nn.AdaptiveMaxPool2d(2, True), torch.nn.AdaptiveMaxPool1d(2), torch.nn.AvgPool1d(3, 2, 1, True))
print(torch.nn.ZeroPad2d(2), torch.nn.ZeroPad2d((1, 2, 0, 1)), torch.nn.ConstantPad2d(1, 3.5))
print(torch.nn.ConstantPad1d(2, 1.), torch.nn.ZeroPad1d(2), torch.nn.CosineSimilarity(0))
print(torch.nn.AvgPool1d(3).stride, torch.nn.ZeroPad2d(2).padding, torch.nn.ConstantPad2d(1, 3).value)
print(torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten()))
z = torch.zeros(5)
w = z.unfold(0, 2, 2)
w[1, 0] = 7.
print(z, w, w.is_contiguous(), w.stride(), w._base is z)
print(torch.arange(6).unfold(0, 2, 1), torch.tensor(2.).unfold(0, 0, 1))
print(torch.nn.ReLU6(), torch.nn.ReLU6(True), torch.nn.Hardtanh(), torch.nn.Hardtanh(-2, 2, True))
print(torch.nn.LogSigmoid(), torch.nn.SELU(True), torch.nn.Mish(), torch.nn.HuberLoss('sum', 2.))
print(torch.nn.KLDivLoss(reduction='batchmean', log_target=True).log_target, torch.nn.HuberLoss().delta)
print(torch.nn.Hardtanh().min_val, torch.nn.ReLU6().max_val, torch.nn.KLDivLoss().reduction)
F = torch.nn.functional
print(F.hardtanh(torch.tensor([1, 5, -2]), 0, 3), F.relu6(torch.tensor([1, 8, -2])))
print(torch.addcmul(torch.tensor([1, 2]), torch.tensor([1, 2]), torch.tensor([1, 2]), value=2))
print(torch.addcdiv(torch.tensor([1., 2.]), torch.tensor([1, 2]), torch.tensor([0., 4.])))
print(torch.lerp(torch.zeros(3), torch.ones(3), torch.tensor([0., 0.5, 1.])))
p = torch.zeros(2)
with torch.no_grad():
    p.addcdiv_(torch.ones(2), torch.tensor([2., 4.]), value=-0.1)
    p.addcmul_(p, p, value=10)
    p.lerp_(torch.ones(2), 0.1)
print(p)
print(F.kl_div(torch.tensor([[0., 0.]]), torch.tensor([[0., 1.]]), reduction='sum'))
"""


def test_printed(conform):
    conform(PRINTED)


ERRORS = [
    F + "adaptive_avg_pool2d(t3, (1, 2, 3))", F + "adaptive_avg_pool2d(v, 2)", F + "adaptive_avg_pool2d(v, 1)",
    F + "adaptive_avg_pool2d(m, 2)", F + "adaptive_avg_pool2d(m, (2, 2))", F + "adaptive_avg_pool2d(t3, -1)",
    F + "adaptive_avg_pool2d(t3, (2, -1))", F + "adaptive_avg_pool2d(t3, 2.5)", F + "adaptive_avg_pool2d(t3, None)",
    F + "adaptive_avg_pool2d(t3.long(), 2)", F + "adaptive_avg_pool2d(t3.long(), 1)",
    F + "adaptive_avg_pool2d(t3[:, :0], 2)", F + "adaptive_avg_pool2d(t3, [2])",
    F + "adaptive_avg_pool1d(t3[None], 2)", F + "adaptive_avg_pool1d(v, 2)", F + "adaptive_avg_pool1d(m, (2, 3))",
    F + "adaptive_avg_pool1d(m, 2.5)", F + "adaptive_avg_pool1d(m, None)", F + "adaptive_avg_pool1d(m, -1)",
    F + "adaptive_max_pool2d(t3.long(), 2)", F + "adaptive_max_pool2d(t3, (1, 2, 3))", F + "adaptive_max_pool2d(v, 2)",
    F + "adaptive_max_pool2d(t3, -1)", F + "adaptive_max_pool2d(t3[:, :0], 2)", F + "adaptive_max_pool1d(t3[None], 2)",
    F + "avg_pool1d(v, 2)", F + "avg_pool1d(m, 0)", F + "avg_pool1d(m, 2, 0)", F + "avg_pool1d(m, 2, padding=2)",
    F + "avg_pool1d(m, 9)", F + "avg_pool1d(m, (2, 2))", F + "avg_pool1d(m, 2.5)", F + "avg_pool1d(m, 2, padding=-1)",
    F + "avg_pool1d(m, 2, (1, 1))", NN + "ConstantPad2d(1, 3.5)(v)", NN + "ZeroPad2d(1)(s)",
    "m.unfold(2, 2, 1)", "m.unfold(1, 4, 1)", "m.unfold(1, 2, 0)", "m.unfold(1, -1, 1)", "m.unfold(1, 2, -1)",
    "m.unfold(1, -1, 0)", "s.unfold(1, 1, 1)", "s.unfold(0, 2, 1)",
    F + "hardtanh(m, 2., 1.)", F + "hardtanh(m > 0)", F + "relu6(m > 0)", F + "logsigmoid(torch.tensor([1, 2]))",
    F + "mish(torch.tensor([1, 2]))", F + "selu(torch.tensor([1, 2]))", NN + "Hardtanh(2, 1)",
    F + "huber_loss(x, w, delta=0.)", F + "huber_loss(x, w, delta=-1.)", F + "huber_loss(x, w, reduction='foo')",
    F + "huber_loss(torch.tensor([1, 2]), torch.tensor([1, 2]))", F + "huber_loss(x, v)", F + "huber_loss(x, w, weight=v)",
    F + "huber_loss(x, w, weight=k, reduction='foo')", F + "huber_loss(x, m)",
    F + "kl_div(x, w, reduction='foo')", F + "kl_div(x, v)", F + "kl_div(x, torch.tensor([1, 2]), reduction='sum')",
    "torch.addcdiv(torch.tensor([1, 2]), torch.tensor([1, 2]), torch.tensor([1, 2]))", "torch.addcmul(x, x, v)",
    "x.clone().addcmul_(x, m)", "torch.addcmul(x, x, 2.)", "torch.addcdiv(x, 1., w)",
    "torch.lerp(x, w.double(), 0.5)", "torch.lerp(x, v, 0.5)", "torch.lerp(x, w, w.double())",
    "torch.lerp(torch.tensor([1, 2]), torch.tensor([3, 4]), 0.5)", "x.clone().lerp_(m, 0.5)",
    "torch.lerp(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([1, 2]))",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_error(conform, expr):
    conform(LEAVES + f"with expect():\n    print({expr})\n")


HIGHER = LEAVES + """
for e in ["m.unfold(1, 2, 1) ** 2", "t3.unfold(2, 2, 1) ** 3", "torch.addcmul(m, m, m * 2, value=0.5)",
          "torch.lerp(m, m ** 2, 0.3)", "torch.lerp(m, m * 3, m.sigmoid())", "m.addcmul(m, m)"]:
    y = eval(e).sum()
    (g,) = torch.autograd.grad(y, [m, t3][e.startswith("t3")], create_graph=True)
    print(e, g, g.grad_fn.name() if g.grad_fn else None)
    (gg,) = torch.autograd.grad(g.sum(), [m, t3][e.startswith("t3")], allow_unused=True)
    print(gg)
"""


def test_second_order(conform):
    """Second derivatives through unfold (UnfoldBackwardBackward0), and through the fused updates and lerp, whose
    gradients are products recorded as such."""
    conform(HIGHER)
