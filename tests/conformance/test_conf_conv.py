"""F.conv1d / F.conv2d / nn.Conv1d / nn.Conv2d, F.max_pool1d / F.max_pool2d / F.avg_pool2d and their modules,
run in torch and autograd_tutor: values, gradients, grad_fn names, whole graphs (unbatched inputs go through
UnsqueezeBackward0 and SqueezeBackward1, padding='same' with an even kernel through ConstantPadNdBackward0),
what the nodes save, module reprs and initial weights, errors word for word, and a tiny CNN trained for three
SGD steps. The leaves hold quarters, so that every sum is exact in float32 and prints identically."""
import pytest

torch = pytest.importorskip("torch")

LEAVES = """
F = torch.nn.functional
def grid(*shape, mod=7):
    n = 1
    for d in shape:
        n *= d
    return ((torch.arange(float(n)) * 5 % mod - mod // 2) / 4).reshape(shape).requires_grad_()
img = grid(2, 2, 5, 5)
ker = grid(3, 2, 3, 3, mod=5)
bias = grid(3, mod=3)
seq = grid(2, 2, 7)
ker1 = grid(3, 2, 2, mod=5)
"""

PROGRAM = LEAVES + """
show = print if {exact} else val  # random weights: values compared to float32 tolerance, not printed
y = {expr}
show(y)
print(type(y.grad_fn).__name__, y.grad_fn.name(), y.dtype, y.shape)
graph(y)
val(y)
y.backward(torch.arange(1., y.numel() + 1).reshape(y.shape) % 4)
for name in ("img", "ker", "bias", "seq", "ker1"):
    g = globals()[name].grad
    print(name, g is None)
    if g is not None:
        show(g)
        val(g)
with expect():
    y.backward(torch.ones(y.shape))
"""

F = "F."
OPS = [
    # conv2d: bias or not, stride, padding, dilation, groups, 'same'/'valid', unbatched, a weight without grad
    F + "conv2d(img, ker)", F + "conv2d(img, ker, bias)", F + "conv2d(img, ker, bias, stride=2)",
    F + "conv2d(img, ker, padding=1)", F + "conv2d(img, ker, bias, padding=(2, 0), stride=(1, 2))",
    F + "conv2d(img, ker, dilation=2)", F + "conv2d(img, ker, bias, padding=2, dilation=(2, 1), stride=3)",
    F + "conv2d(img, ker[:2, :1], groups=2)",
    F + "conv2d(img, ker[:, :1, :2].repeat(2, 1, 1, 1), bias.repeat(2), groups=2)",
    F + "conv2d(img, ker, padding='same')", F + "conv2d(img, ker, bias, padding='valid')",
    F + "conv2d(img, ker[:, :, :2, :2], padding='same')", F + "conv2d(img, ker[:, :, :2], padding='same', dilation=2)",
    F + "conv2d(img, ker[:, :, :2], padding='same', dilation=(1, 2))", F + "conv2d(img[0], ker, bias)",
    F + "conv2d(img[1], ker, padding='same')", F + "conv2d(img, ker.detach(), bias)", F + "conv2d(img.detach(), ker)",
    F + "conv2d(img.detach(), ker.detach(), bias)", F + "conv2d(img.double(), ker.double(), bias.double())",
    F + "conv2d(img, ker, stride=[2])", F + "conv2d(img, ker, padding=[1])", F + "conv2d(img * 2, ker[:1], bias[:1])",
    F + "conv2d(img[:, :, 1:, ::2], ker[:, :, :2, :1])", F + "conv2d(img.transpose(2, 3), ker)",
    F + "conv2d(img, ker[:, :, :1, :1])", F + "conv2d(img[:0], ker)", F + "conv2d(img, ker, bias).relu().sum()",
    # conv1d
    F + "conv1d(seq, ker1)", F + "conv1d(seq, ker1, bias, stride=2, padding=1)", F + "conv1d(seq, ker1, dilation=3)",
    F + "conv1d(seq, ker1, padding='same')", F + "conv1d(seq[0], ker1, bias)",
    F + "conv1d(seq, ker1[:2, :1], groups=2)",
    F + "conv1d(seq, ker1, padding='valid')", F + "conv1d(seq, ker1[:, :, :1], padding='same')",
    # max_pool2d / max_pool1d
    F + "max_pool2d(img, 2)", F + "max_pool2d(img, 3, stride=1)", F + "max_pool2d(img, 2, stride=1, padding=1)",
    F + "max_pool2d(img, (2, 3), stride=(1, 2))", F + "max_pool2d(img, 2, ceil_mode=True)",
    F + "max_pool2d(img, 2, dilation=2)", F + "max_pool2d(img, 3, 2, 1, ceil_mode=True)", F + "max_pool2d(img[0], 2)",
    F + "max_pool2d(img * 0, 2)", F + "max_pool2d(img.double(), 2, stride=[])",
    F + "max_pool2d(img, 2, return_indices=True)[0]",
    F + "max_pool1d(seq, 2)", F + "max_pool1d(seq, 3, stride=1, padding=1)", F + "max_pool1d(seq[1], 2)",
    F + "max_pool1d(seq, 2, ceil_mode=True, dilation=2)", "torch.nn.MaxPool2d(2, 1)(img)", "torch.nn.MaxPool1d(3)(seq)",
    # avg_pool2d
    F + "avg_pool2d(img, 2)", F + "avg_pool2d(img, 3, stride=1)", F + "avg_pool2d(img, 2, padding=1)",
    F + "avg_pool2d(img, 3, 2, 1, count_include_pad=False)", F + "avg_pool2d(img, 2, ceil_mode=True)",
    F + "avg_pool2d(img, 3, 2, 1, ceil_mode=True)",
    F + "avg_pool2d(img, 3, 2, 1, ceil_mode=True, count_include_pad=False)",
    F + "avg_pool2d(img, 2, divisor_override=3)", F + "avg_pool2d(img[1], (2, 3), stride=(1, 2))",
    "torch.nn.AvgPool2d(2, padding=1)(img)",
    # a small stack
    F + "max_pool2d(F.conv2d(img, ker, bias, padding=1).relu(), 2).flatten(1)",
    "torch.nn.Flatten()(" + F + "avg_pool2d(F.conv2d(img, ker), 2))",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform("torch.manual_seed(0)\n" + PROGRAM.format(expr=expr, exact=True))


MODULES = ["torch.nn.Conv2d(2, 3, 3)(img)", "torch.nn.Conv2d(2, 4, 2, stride=2, padding=1, bias=False)(img)",
           "torch.nn.Conv2d(2, 2, (3, 1), groups=2, dilation=2)(img[0])",
           "torch.nn.Conv1d(2, 3, 3, padding='same')(seq)",
           "torch.nn.Conv2d(2, 3, 2, padding='same')(img)"]


@pytest.mark.parametrize("expr", MODULES)
def test_module(conform, expr):
    """Modules with their own weights (nn.init draws them from the seeded generator, identically in both)."""
    conform("torch.manual_seed(0)\n" + PROGRAM.format(expr=expr, exact=False))


SAVED = LEAVES + """
w = torch.nn.Conv2d(2, 3, 2, bias=False).weight
for e in ["F.conv2d(img, ker, bias)", "F.conv2d(img, ker, stride=2, padding=(1, 0), dilation=(1, 2))",
          "F.conv2d(img, ker[:, :1], groups=2)", "F.conv2d(img, ker, padding='same')",
          "F.conv2d(img, w, padding='same')",
          "F.conv2d(img, ker, padding='valid')", "F.conv1d(seq, ker1, bias, padding='same')", "F.conv1d(seq, ker1)",
          "F.conv1d(seq, ker1, padding='valid')", "F.conv2d(img, ker, stride=[2], padding=[1], dilation=(1,))",
          "F.max_pool2d(img, 2)", "F.max_pool2d(img, 3, 1, 1, 1, True)",
          "torch.nn.MaxPool2d(2)(img)", "F.avg_pool2d(img, 2)", "F.avg_pool2d(img, 2, 1, 1, True, False, 2)",
          "torch.nn.AvgPool2d((1, 2))(img)"]:
    y = eval(e)
    n = y.grad_fn
    names = [a for a in dir(n) if a.startswith("_saved_")]
    print(e, n.name(), [(a, getattr(n, a)) for a in names if not isinstance(getattr(n, a), torch.Tensor)])
    print("  tensors", [(a, getattr(n, a)) for a in names if isinstance(getattr(n, a), torch.Tensor)])
    print("  is", [(a, getattr(n, a) is v) for a in names for v in (img, ker, w) if getattr(n, a) is v])
    y.sum().backward()
    for a in names:
        with expect():
            getattr(n, a)
"""


def test_saved(conform):
    """What each node keeps: the input and weight tensors (the leaves themselves), strides, paddings as torch
    records them ('valid' as (0,)), the max-pool indices as result1; reading a tensor after backward raises."""
    conform("torch.manual_seed(0)\n" + SAVED)


CASES = {
    "modules": """
        torch.manual_seed(0)
        nn = torch.nn
        c = nn.Conv2d(1, 2, 3)
        print(c)
        print(c.weight, c.bias)
        print([(n, p.shape) for n, p in c.named_parameters()])
        c1 = nn.Conv1d(3, 4, 2, stride=2, groups=1)
        print(c1, c1.weight, c1.bias)
        for m in [nn.Conv1d(2, 3, 2), nn.Conv2d(2, 4, (3, 2), stride=2, padding=1, dilation=2, groups=2, bias=False),
                  nn.Conv2d(1, 1, 3, padding='same'), nn.Conv2d(1, 1, 3, padding='valid'), nn.Conv2d(3, 6, 1, groups=3),
                  nn.Conv1d(1, 1, 5, padding=2, dilation=1), nn.MaxPool2d(2), nn.AvgPool2d(2), nn.MaxPool1d(3),
                  nn.MaxPool2d((2, 3), stride=1, padding=1, dilation=1, return_indices=True, ceil_mode=True),
                  nn.AvgPool2d(3, 1, 1, ceil_mode=True, count_include_pad=False), nn.Flatten()]:
            print(m, [tuple(p.shape) for p in m.parameters()])
        print(c.in_channels, c.out_channels, c.kernel_size, c.stride, c.padding, c.dilation, c.groups, c.transposed,
              c.output_padding, c.padding_mode)
        print(nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8, 3)))
        for e in ["nn.Conv2d(3, 2, 3, groups=2)", "nn.Conv2d(4, 3, 3, groups=2)", "nn.Conv2d(3, 2, 3, groups=0)",
                  "nn.Conv2d(3, 2, 3, padding='same', stride=2)", "nn.Conv2d(3, 2, 3, padding='foo')"]:
            with expect(): eval(e)
    """,
    "indices": """
        x = torch.tensor([[[1., 5., 2., 2.], [3., 0., 2., 7.], [4., 4., 1., 1.]]], requires_grad=True)
        y, i = torch.nn.functional.max_pool2d(x, 2, stride=1, return_indices=True)
        print(y, i, i.dtype, i.requires_grad)
        y.sum().backward()
        print(x.grad)
        y, i = torch.nn.functional.max_pool1d(x, 2, return_indices=True)
        print(y, i)
        y, i = torch.nn.MaxPool2d(2, padding=1, return_indices=True)(x)
        print(y, i)
        print(torch.nn.functional.max_pool2d(torch.tensor([[[1, 5], [3, 2]]]), 2))
        print(torch.nn.functional.avg_pool2d(torch.arange(16).reshape(1, 4, 4), 2, padding=1))
        print(torch.nn.functional.avg_pool2d(torch.arange(-8, 8).reshape(1, 4, 4), 3, 1))
    """,
    "same-warning": """
        x = torch.ones(1, 1, 4, 4, requires_grad=True)
        y = torch.nn.functional.conv2d(x, torch.ones(1, 1, 2, 2), padding='same')
        print(y)
        graph(y)
        y.backward(torch.ones(y.shape))
        print(x.grad)
        print(y.grad_fn.next_functions[0][0]._saved_pad)
    """,
    "tiny-cnn": """
        torch.manual_seed(0)
        nn = torch.nn
        model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 3 * 3, 3))
        x = torch.randn(8, 1, 8, 8)
        target = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(3):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), target)
            loss.backward()
            opt.step()
            print(step, f"{loss.item():.4f}")
        graph(loss)
        print(model[0].weight.grad.shape, f"{model[0].weight.grad.abs().sum().item():.4f}")
        val(model[0].weight, model[0].bias, model[4].weight, model[4].bias)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_case(conform, name):
    conform(CASES[name])


ERRORS = [
    # conv2d / conv1d: rank, weight, groups, channels, bias, kernel too large, params, padding strings, dtypes
    "F.conv2d(torch.randn(1, 4, 5, 5), w)", "F.conv2d(torch.randn(4, 5, 5), w)", "F.conv2d(torch.randn(5, 5), w)",
    "F.conv2d(torch.randn(1, 1, 3, 5, 5), w)", "F.conv2d(torch.randn(1, 3, 2, 2), w)",
    "F.conv2d(x, torch.randn(2, 3, 3))",
    "F.conv2d(x, w, torch.randn(3))", "F.conv2d(x, w, stride=0)", "F.conv2d(x, w, padding=-1)",
    "F.conv2d(x, w, dilation=0)",
    "F.conv2d(x, w, groups=2)", "F.conv2d(x, torch.randn(2, 1, 3, 3), groups=3)", "F.conv2d(x, w, padding='foo')",
    "F.conv2d(x, w, padding='same', stride=2)", "F.conv2d(x, w, stride=(1, 1, 1))", "F.conv2d(x, w, padding=(1, 2, 3))",
    "F.conv1d(torch.randn(2, 3, 5), torch.randn(2, 3, 7))", "F.conv2d(x.double(), w)", "F.conv2d(x, w, groups=0)",
    "F.conv1d(torch.randn(5), torch.randn(1, 1, 2))", "F.conv2d(torch.randn(1, 3, 0, 5), w)",
    "F.conv2d(x, torch.randn(0, 3, 3, 3))", "F.conv2d(x, w, stride=[])", "F.conv2d(x, w, bias=torch.randn(2, 1))",
    "F.conv2d(x, w, torch.randn(2).double())", "F.conv2d(torch.randn(5, 5), w, padding='foo')",
    "F.conv2d(x, w, stride=0, padding=-1)", "F.conv2d(x, w, stride=0, dilation=0)",
    "F.conv2d(x, w, stride=0, groups=0)",
    "F.conv2d(x, torch.randn(2, 3), stride=0, groups=0)", "F.conv2d(x, torch.randn(2, 3, 3, 3, 3))",
    "F.conv2d(x, torch.randn(2, 3, 3, 3, 3), stride=(1, 1, 1), padding=(0, 0, 0), dilation=(1, 1, 1))",
    "F.conv2d(torch.randn(1, 4, 2, 2), w, torch.ones(3))", "F.conv2d(torch.randn(1, 3, 2, 2), w, torch.ones(3))",
    "F.conv2d(torch.randn(1, 3, 2, 2).double(), w)", "F.conv2d(x, w, torch.ones(2, dtype=torch.long))",
    "F.conv2d(x.double(), w, torch.ones(2))", "F.conv2d(x, torch.randn(3, 3, 3, 3), groups=2)",
    "F.conv2d(x, w, padding='same', stride=2, dilation=0)", "F.conv2d(x, w, padding='same', dilation=0)",
    "F.conv2d(x, w, padding='valid', stride=0)", "F.conv1d(torch.randn(1, 3, 5), torch.randn(2, 3, 2, 2))",
    "torch.nn.Conv2d(3, 2, 3)(torch.randn(1, 4, 5, 5))", "torch.nn.Conv2d(3, 2, 3)(torch.randn(3, 5))",
    # pooling
    "F.max_pool2d(x, 7)", "F.max_pool2d(x, 2, padding=2)", "F.max_pool2d(torch.randn(5, 5), 2)",
    "F.max_pool2d(torch.randn(2, 1, 1, 5, 5), 2)", "F.max_pool2d(x, 0)", "F.max_pool2d(x, 2, stride=0)",
    "F.avg_pool2d(x, 7)", "F.avg_pool2d(x, 2, padding=2)", "F.avg_pool2d(torch.randn(5, 5), 2)", "F.avg_pool2d(x, 0)",
    "F.max_pool2d(x, (2, 2, 2))", "F.max_pool1d(torch.randn(5), 2)", "F.max_pool1d(x, 2)", "F.max_pool2d(x, [])",
    "F.max_pool2d(x, 2.5)", "F.max_pool2d(torch.randn(5, 5, requires_grad=True), 2)",
    "F.max_pool2d(torch.randn(1, 0, 5, 5), 2)",
    "F.max_pool2d(x, 2, padding=-1)", "F.max_pool2d(x, 2, dilation=0)", "F.max_pool2d(x, -1)",
    "F.max_pool2d(x, 2, stride=-1)",
    "F.max_pool2d(x, 2, stride=(1, 1, 1))", "F.max_pool2d(x, 2, padding=(1, 1, 1))",
    "F.max_pool2d(x, 2, dilation=(1, 1, 1))",
    "F.max_pool2d(x.requires_grad_(), 7)", "F.avg_pool2d(torch.randn(2, 1, 1, 5, 5), 2)",
    "F.avg_pool2d(x, 2, divisor_override=0)",
    "F.avg_pool2d(x, (2, 2, 2))", "F.avg_pool2d(x, 2, stride=(1, 1, 1))", "F.avg_pool2d(x, 2, padding=(1, 1, 1))",
    "F.avg_pool2d(x, -1)", "F.avg_pool2d(x, 2, padding=-1)", "F.avg_pool2d(torch.randn(1, 0, 5, 5), 2)",
    "F.avg_pool2d(x, 2.5)",
    "F.avg_pool2d(x, 2, 0)", "F.avg_pool2d(torch.randn(5), 2)", "F.max_pool1d(torch.randn(2, 3, 5), 2, padding=2)",
    "F.max_pool1d(torch.randn(2, 3, 5), 6)", "F.max_pool1d(torch.randn(2, 3, 5), (2, 2))",
    "F.max_pool1d(torch.randn(2, 3, 5), 0)",
    "F.max_pool1d(torch.randn(2, 3, 5, requires_grad=True), 6)", "F.max_pool1d(torch.randn(2, 3, 5), 2, stride=0)",
    "F.max_pool1d(torch.randn(2, 3, 5), 2, padding=-1)", "F.max_pool1d(torch.randn(2, 3, 5), 2, dilation=0)",
    "F.max_pool1d(torch.randn(2, 3, 5), 2, stride=(1, 1))", "torch.nn.MaxPool2d(3)(torch.randn(1, 2, 2))",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_error(conform, expr):
    conform(f"""
        F = torch.nn.functional
        x, w = torch.randn(1, 3, 5, 5), torch.randn(2, 3, 3, 3)
        with expect():
            y = {expr}
            print(y.shape)
    """)


def test_conv_output_is_laid_out_as_torch(conform):
    """A conv's output is contiguous NCHW, as torch's: ``x.view(x.size(0), -1)`` right after it works (a corpus
    program, a tiny CNN after a course notebook, stopped there)."""
    conform("""
        torch.manual_seed(0)
        for conv, x in ((torch.nn.Conv2d(3, 4, 3, padding=1), torch.randn(2, 3, 8, 8)),
                        (torch.nn.Conv2d(4, 6, 3, stride=2, groups=2), torch.randn(1, 4, 7, 7)),
                        (torch.nn.Conv1d(3, 5, 2), torch.randn(2, 3, 6))):
            y = conv(x)
            print(y.stride(), y.is_contiguous(), y.view(y.size(0), -1).shape)
    """)
