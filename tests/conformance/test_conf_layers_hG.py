"""nn.PReLU / F.prelu, nn.GroupNorm / F.group_norm, nn.ConvTranspose1d / nn.ConvTranspose2d and their functionals,
nn.Upsample / F.interpolate (nearest, linear, bilinear, align_corners, size and scale_factor),
nn.MultiheadAttention / F.multi_head_attention_forward and nn.TransformerEncoderLayer / nn.TransformerEncoder, run in
torch and autograd_tutor: reprs, parameter names, shapes and initial values after torch.manual_seed, outputs and the
gradients of the input and of every parameter (values to float32 tolerance: torch's kernels sum in their own order),
grad_fn names, what the nodes save, whole graphs where torch records the same nodes, and torch's errors word for
word."""
import pytest

torch = pytest.importorskip("torch")

MODULE = """
torch.manual_seed(0)
m = torch.nn.{ctor}
print(m)
for name, p in m.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
    val(p)
x = (torch.arange(float({numel})).reshape({shape}) % 7 - 3).div(4).requires_grad_()
out = m(x{extra})
outs = out if isinstance(out, tuple) else (out,)
for o in outs:
    if o is not None:
        print(tuple(o.shape), o.dtype, o.grad_fn.name())
        val(o)
outs[0].mul(torch.arange(float(outs[0].numel())).reshape(outs[0].shape).cos()).sum().backward()
val(x.grad)
for name, p in m.named_parameters():
    print(name, p.grad is None)
    if p.grad is not None:
        val(p.grad)
"""

# (constructor, input shape, extra forward arguments)
CASES = [
    ("PReLU()", (2, 3, 4), ""),
    ("PReLU(3, init=0.1)", (2, 3, 4), ""),
    ("PReLU(3)", (2, 3), ""),
    ("PReLU()", (5,), ""),
    ("GroupNorm(2, 4)", (2, 4, 3, 3), ""),
    ("GroupNorm(1, 4, eps=1e-3)", (3, 4, 5), ""),
    ("GroupNorm(4, 4, affine=False)", (2, 4, 3), ""),
    ("GroupNorm(2, 6, bias=False)", (2, 6, 2, 2), ""),
    ("ConvTranspose2d(3, 2, 3)", (2, 3, 4, 4), ""),
    ("ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1)", (2, 3, 3, 4), ""),
    ("ConvTranspose2d(4, 6, (3, 2), stride=(1, 2), groups=2, dilation=2)", (2, 4, 3, 3), ""),
    ("ConvTranspose2d(3, 2, 4, stride=2, padding=1, bias=False)", (3, 3, 3), ""),
    ("ConvTranspose2d(3, 2, 3, stride=2)", (1, 3, 3, 3), ", output_size=[8, 8]"),
    ("ConvTranspose1d(2, 3, 4, stride=2, padding=1)", (2, 2, 5), ""),
    ("ConvTranspose1d(2, 4, 3, groups=2, output_padding=1, stride=2)", (2, 5), ""),
    ("Upsample(scale_factor=2)", (2, 2, 3, 3), ""),
    ("Upsample(size=(5, 7))", (1, 2, 3, 4), ""),
    ("Upsample(scale_factor=1.5, mode='bilinear')", (1, 2, 3, 4), ""),
    ("Upsample(scale_factor=2, mode='bilinear', align_corners=True)", (1, 2, 3, 3), ""),
    ("Upsample(size=(2, 9), mode='bilinear')", (1, 2, 3, 4), ""),
    ("Upsample(scale_factor=3, mode='linear')", (2, 2, 4), ""),
    ("UpsamplingNearest2d(scale_factor=2)", (1, 1, 2, 3), ""),
    ("UpsamplingBilinear2d(size=5)", (1, 2, 3, 3), ""),
    ("MultiheadAttention(4, 2)", (3, 2, 4), ", x, x"),
    ("MultiheadAttention(4, 2, batch_first=True)", (2, 3, 4), ", x, x, average_attn_weights=False"),
    ("MultiheadAttention(4, 2)", (3, 2, 4), ", x, x, need_weights=False"),
    ("MultiheadAttention(4, 1, bias=False)", (3, 4), ", x, x"),
    ("MultiheadAttention(4, 2)", (3, 2, 4), ", x, x, attn_mask=torch.ones(3, 3).triu(1).bool()"),
    ("MultiheadAttention(4, 2)", (3, 2, 4), ", x, x, attn_mask=torch.ones(3, 3).triu(1).bool(), need_weights=False"),
    ("MultiheadAttention(4, 2)", (3, 2, 4), ", x, x, key_padding_mask=torch.tensor([[False, False, True], [False, True, "
     "True]])"),
    ("MultiheadAttention(4, 2)", (3, 2, 4), ", x, x, attn_mask=torch.arange(9.).reshape(3, 3) / 9, "
     "key_padding_mask=torch.tensor([[0., 0., -1e9], [0., 0., 0.]])"),
    ("MultiheadAttention(4, 2)", (3, 2, 4), ", x[:2], x[:2]"),
    ("MultiheadAttention(4, 2, kdim=3, vdim=5)", (3, 2, 4), ", torch.ones(5, 2, 3) / 3, torch.ones(5, 2, 5) / -4"),
    ("MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)", (3, 2, 4), ", x, x"),
    ("TransformerEncoderLayer(4, 2, 6, dropout=0.0)", (3, 2, 4), ""),
    ("TransformerEncoderLayer(4, 2, 6)", (3, 2, 4), ""),
    ("TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation='gelu', batch_first=True, norm_first=True)",
     (2, 3, 4), ", src_mask=torch.full((3, 3), float('-inf')).triu(1)"),
    ("TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True)", (2, 3, 4),
     ", src_key_padding_mask=torch.tensor([[False, False, True], [False, False, False]])"),
]


@pytest.mark.parametrize("ctor,shape,extra", CASES, ids=[f"{c}-{s}-{bool(e)}" for c, s, e in CASES])
def test_module(conform, ctor, shape, extra):
    numel = 1
    for d in shape:
        numel *= d
    conform(MODULE.format(ctor=ctor, shape=shape, numel=numel, extra=extra))


def test_encoder(conform):
    """nn.TransformerEncoder: deep copies of the layer, the final norm, the warning about torch's nested-tensor
    fast path, and three SGD steps (not Adam: the key bias gets a gradient of rounding noise only, since adding a
    constant to all of a query's scores changes no softmax, and Adam would scale that noise up to full steps)."""
    conform("""
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0)
enc = torch.nn.TransformerEncoder(layer, 2, norm=torch.nn.LayerNorm(4))
print(enc)
print([n for n, _ in enc.named_parameters()])
print(torch.equal(enc.layers[0].linear1.weight, enc.layers[1].linear1.weight))
torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 1, 6, batch_first=True), 1)
torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 6, batch_first=True), 1)
opt = torch.optim.SGD(enc.parameters(), lr=0.1, momentum=0.9)
x = (torch.arange(24.).reshape(3, 2, 4) % 5 - 2) / 3
target = x.flip(0).cos()
for step in range(3):
    opt.zero_grad()
    loss = (enc(x, mask=torch.full((3, 3), float('-inf')).triu(1)) - target).pow(2).mean()
    loss.backward()
    opt.step()
    val(loss)
val(*enc.parameters())
""")


FUNCTIONAL = """
torch.manual_seed(0)
F = torch.nn.functional
x = (torch.arange(float({numel})).reshape({shape}) % 7 - 3).div(4).requires_grad_()
w = torch.randn({wshape}).requires_grad_()
y = F.{call}
print(tuple(y.shape), y.grad_fn.name())
print(sorted((k, v) for k, v in ((a, getattr(y.grad_fn, a)) for a in dir(y.grad_fn) if a.startswith('_saved_'))
             if not isinstance(v, torch.Tensor)))
val(y)
y.mul(torch.arange(float(y.numel())).reshape(y.shape).sin()).sum().backward()
val(x.grad, w.grad)
"""

FUNCTIONALS = [
    ("prelu(x, w)", (2, 3, 4), "3"),
    ("prelu(x, w)", (2, 3), "1"),
    ("prelu(x, w.reshape(()))", (2, 3), "1"),
    ("group_norm(x, 2, w, w * 2)", (2, 4, 3), "4"),
    ("conv_transpose2d(x, w, stride=2, padding=1, output_padding=1)", (2, 2, 3, 3), "2, 3, 3, 3"),
    ("conv_transpose2d(x, w, w[0, :, 0, 0], groups=2, dilation=(1, 2))", (1, 4, 3, 3), "4, 2, 2, 2"),
    ("conv_transpose1d(x, w, stride=3)", (2, 2, 4), "2, 1, 2"),
    ("interpolate(x * w, scale_factor=2)", (1, 2, 2, 3), "1"),
    ("interpolate(x * w, scale_factor=(0.5, 2.5), mode='bilinear')", (1, 2, 4, 3), "1"),
    ("interpolate(x * w, size=4, mode='bilinear', align_corners=True)", (1, 2, 3, 3), "1"),
    ("interpolate(x * w, size=6, mode='linear')", (1, 2, 4), "1"),
    ("interpolate(x * w, scale_factor=1.6)", (1, 2, 5), "1"),
]


@pytest.mark.parametrize("call,shape,wshape", FUNCTIONALS)
def test_functional(conform, call, shape, wshape):
    numel = 1
    for d in shape:
        numel *= d
    conform(FUNCTIONAL.format(call=call, shape=shape, numel=numel, wshape=wshape))


GRAPHS = ["F.prelu(x, w)", "F.group_norm(x, 2, w, w)", "F.conv_transpose2d(x, w.reshape(4, 1, 1, 1), w)",
          "F.interpolate(x * w.reshape(1, 4, 1, 1), scale_factor=2)",
          "F.interpolate(x, size=(3, 5), mode='bilinear')", "F.conv_transpose1d(x[0], w.reshape(4, 1, 1), stride=2)",
          "torch.baddbmm(w.reshape(1, 2, 2), x[0], x[1].transpose(1, 2))"]


@pytest.mark.parametrize("expr", GRAPHS)
def test_graph(conform, expr):
    conform(f"F = torch.nn.functional\nx = torch.ones(2, 4, 2, 2, requires_grad=True)\n"
            f"w = torch.ones(4, requires_grad=True)\ngraph({expr})")


@pytest.mark.parametrize("ctor,args", [("MultiheadAttention(4, 2)", "x, x, x"),
                                       ("MultiheadAttention(4, 2, batch_first=True)", "x, x, x, attn_mask=mask"),
                                       ("MultiheadAttention(4, 2)", "x, x[:2], x[:2]")])
def test_attention_graph(conform, ctor, args):
    """With need_weights (the default) attention is recorded op by op as torch's Python code records it, so the
    graphs are the same. (Without it torch calls its fused scaled_dot_product_attention, one node of its own,
    where this engine records the composition, so TransformerEncoderLayer's graph is not compared.)"""
    conform(f"torch.manual_seed(0)\nm = torch.nn.{ctor}\nx = torch.ones(3, 2, 4, requires_grad=True)\n"
            f"mask = torch.ones(3, 3).triu(1).bool()\nout = m({args})\ngraph(out[0] if isinstance(out, tuple) else out)")


ERRORS = [
    "F.prelu(torch.zeros(2, 3, 4), torch.ones(2))",
    "F.prelu(torch.zeros(2, 3, 4), torch.ones(3, 1))",
    "F.prelu(torch.tensor(3.), torch.ones(2))",
    "F.prelu(torch.zeros(3), torch.ones(3))",
    "F.group_norm(torch.zeros(2, 3, 4), 2)",
    "F.group_norm(torch.zeros(2, 4, 4), 2, torch.ones(3))",
    "F.group_norm(torch.zeros(1, 4), 4)",
    "F.group_norm(torch.zeros(4), 2)",
    "torch.nn.GroupNorm(3, 4)",
    "F.conv_transpose2d(torch.zeros(2, 4, 4, 4), torch.zeros(4, 2, 3, 3), stride=2, output_padding=2)",
    "F.conv_transpose1d(torch.zeros(2, 4, 4), torch.zeros(4, 2, 3), output_padding=1)",
    "F.conv_transpose2d(torch.zeros(2, 4, 4, 4), torch.zeros(3, 2, 3, 3))",
    "F.conv_transpose2d(torch.zeros(2, 4, 4, 4), torch.zeros(4, 2, 3, 3), torch.zeros(3))",
    "F.conv_transpose2d(torch.zeros(4, 4), torch.zeros(4, 2, 3, 3))",
    "F.conv_transpose2d(torch.zeros(2, 4, 4, 4), torch.zeros(4, 2, 3, 3), groups=3)",
    "torch.nn.ConvTranspose2d(4, 2, 3, padding_mode='reflect')",
    "F.conv_transpose2d(torch.zeros(1, 2, 3, 3), torch.zeros(2, 2, 3, 3), padding='same')",
    "F.conv_transpose2d(torch.zeros(1, 2, 3, 3), torch.zeros(2, 2, 3, 3), stride=0)",
    "F.conv_transpose2d(torch.zeros(1, 2, 3, 3), torch.zeros(2, 2, 3, 3), padding=-1)",
    "F.conv_transpose1d(torch.zeros(1, 2, 3), torch.zeros(2, 2, 3), dilation=0)",
    "F.conv_transpose2d(torch.zeros(1, 2, 3, 3), torch.zeros(2, 2, 3, 3), dilation=(1, 0))",
    "F.conv_transpose2d(torch.zeros(1, 2, 3, 3), torch.zeros(2, 2, 3, 3), stride=0, dilation=0)",
    "torch.nn.ConvTranspose2d(4, 2, 3, stride=2)(torch.zeros(1, 4, 4, 4), output_size=[12, 12])",
    "torch.nn.ConvTranspose2d(4, 2, 3, stride=2)(torch.zeros(1, 4, 4, 4), output_size=[1, 2, 3])",
    "F.interpolate(torch.zeros(1, 1, 2, 2), scale_factor=2, align_corners=True)",
    "F.interpolate(torch.zeros(1, 1, 2), scale_factor=2, mode='bilinear')",
    "F.interpolate(torch.zeros(1, 1, 2, 2), scale_factor=2, mode='linear')",
    "F.interpolate(torch.zeros(1, 1, 2, 2), size=(2, 3, 4))",
    "F.interpolate(torch.zeros(1, 1, 2, 2), scale_factor=(2, 3, 4))",
    "F.interpolate(torch.zeros(1, 1, 2, 2))",
    "F.interpolate(torch.zeros(1, 1, 2, 2), size=3, scale_factor=2)",
    "F.interpolate(torch.zeros(1, 1, 2, 2), size=0)",
    "F.interpolate(torch.zeros(2), size=3)",
    "F.interpolate(torch.zeros(1, 1, 2, 2), size=(2.0, 3))",
    "F.interpolate(torch.zeros(1, 1, 2, 2), size=3, recompute_scale_factor=True)",
    "torch.nn.MultiheadAttention(5, 2)",
    "torch.nn.MultiheadAttention(0, 2)",
    "m(x, x, x, attn_mask=torch.ones(2, 3).bool())",
    "m(x, x, x[:2])",
    "m(x, x, x, key_padding_mask=torch.ones(2, 3, 1).bool())",
    "m(x, x, x, attn_mask=torch.ones(3, 3, dtype=torch.long))",
    "m(x[0, 0], x, x)",
    "m(x, x, x, key_padding_mask=torch.ones(2, 2).bool())",
    "m(x, x, x, attn_mask=torch.ones(5, 3, 3))",
    "m(x, x, x, is_causal=True)",
    "torch.nn.TransformerEncoderLayer(4, 2, activation='tanh')",
    "torch.baddbmm(torch.zeros(2, 3, 3), torch.zeros(2, 3, 4), torch.zeros(2, 3, 3))",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_error(conform, expr):
    conform(f"F = torch.nn.functional\nm = torch.nn.MultiheadAttention(4, 2)\nx = torch.zeros(3, 2, 4)\n"
            f"with expect():\n    {expr}")


def test_mask_warning(conform):
    """A boolean key_padding_mask beside a float attn_mask: torch's deprecation warning, once."""
    conform("""
torch.manual_seed(0)
m = torch.nn.MultiheadAttention(4, 2)
x = torch.ones(3, 2, 4)
out, w = m(x, x, x, key_padding_mask=torch.tensor([[False, False, True], [False, False, False]]),
           attn_mask=torch.zeros(3, 3))
val(out, w)
""")


def test_dcgan_generator_trains(conform):
    """A tiny DCGAN-style generator (ConvTranspose2d, BatchNorm2d, ReLU, Tanh) and a U-Net-style upsampling block
    (Upsample, Conv2d, GroupNorm, PReLU), trained together for three SGD steps."""
    conform("""
torch.manual_seed(0)
nn = torch.nn
gen = nn.Sequential(nn.ConvTranspose2d(4, 6, 3, 1, 0, bias=False), nn.BatchNorm2d(6), nn.ReLU(True),
                    nn.ConvTranspose2d(6, 2, 4, 2, 1, bias=False), nn.Tanh())
up = nn.Sequential(nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False), nn.Conv2d(2, 4, 3, padding=1),
                   nn.GroupNorm(2, 4), nn.PReLU(4))
opt = torch.optim.SGD(list(gen.parameters()) + list(up.parameters()), lr=0.1, momentum=0.5)
z = torch.randn(2, 4, 1, 1)
for step in range(3):
    opt.zero_grad()
    img = gen(z)
    loss = up(img).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, tuple(img.shape))
    val(loss)
val(*gen.parameters(), *up.parameters())
""")
