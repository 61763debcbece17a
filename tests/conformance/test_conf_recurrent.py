"""nn.RNN / nn.LSTM / nn.GRU and nn.RNNCell / nn.LSTMCell / nn.GRUCell, run in torch and autograd_tutor: parameter
names, shapes and initial values after torch.manual_seed (drawn in torch's order), reprs, forward outputs and
states (batched, unbatched, batch_first, several layers, bidirectional, relu, no bias, given h0 / (h0, c0)),
the gradient of every parameter and of the input after backward, and torch's errors for wrong sizes word for
word. Values are compared to float32 tolerance (torch's BLAS sums may differ in the last bits)."""
import pytest

torch = pytest.importorskip("torch")

MODULE = """
torch.manual_seed(0)
m = torch.nn.{ctor}
print(m)
for name, p in m.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
    val(p)
x = (torch.arange(float({numel})).reshape({shape}) % 5 - 2).div(4).requires_grad_()
out = m(x{extra})
outs = out if isinstance(out, tuple) else (out,)
flat = []
for o in outs:
    flat += list(o) if isinstance(o, tuple) else [o]
for o in flat:
    print(tuple(o.shape), o.dtype, o.grad_fn is not None)
    val(o)
sum((o * (1 + k)).sum() for k, o in enumerate(flat)).backward()
val(x.grad)
for name, p in m.named_parameters():
    print(name, p.grad is None)
    val(p.grad)
"""

# (constructor, input shape, extra forward arguments)
CASES = [
    ("RNN(3, 4)", (5, 2, 3), ""),
    ("RNN(3, 4)", (5, 3), ""),
    ("RNN(3, 4, 2, nonlinearity='relu')", (4, 2, 3), ""),
    ("RNN(3, 4, batch_first=True, bias=False)", (2, 5, 3), ""),
    ("RNN(3, 4, num_layers=2, bidirectional=True)", (5, 2, 3), ""),
    ("RNN(3, 4)", (5, 2, 3), ", torch.ones(1, 2, 4) / 3"),
    ("RNN(3, 4)", (5, 3), ", torch.ones(1, 4) / 3"),
    ("LSTM(3, 4)", (5, 2, 3), ""),
    ("LSTM(3, 4)", (6, 3), ""),
    ("LSTM(3, 4, num_layers=2, batch_first=True)", (2, 5, 3), ""),
    ("LSTM(3, 4, bidirectional=True)", (5, 2, 3), ""),
    ("LSTM(3, 4, 2, bias=False, bidirectional=True, batch_first=True)", (2, 4, 3), ""),
    ("LSTM(3, 4)", (5, 2, 3), ", (torch.ones(1, 2, 4) / 3, torch.ones(1, 2, 4) / -2)"),
    ("GRU(3, 4)", (5, 2, 3), ""),
    ("GRU(3, 4)", (5, 3), ""),
    ("GRU(3, 4, num_layers=3, bidirectional=True)", (4, 2, 3), ""),
    ("GRU(3, 4, batch_first=True, bias=False)", (2, 5, 3), ", torch.ones(1, 2, 4) / 3"),
    ("RNNCell(3, 4)", (2, 3), ""),
    ("RNNCell(3, 4, nonlinearity='relu', bias=False)", (3,), ", torch.ones(4) / 3"),
    ("LSTMCell(3, 4)", (2, 3), ""),
    ("LSTMCell(3, 4)", (3,), ", (torch.ones(4) / 3, torch.ones(4) / -2)"),
    ("GRUCell(3, 4)", (2, 3), ""),
    ("GRUCell(3, 4, bias=False)", (2, 3), ", torch.ones(2, 4) / 3"),
]


@pytest.mark.parametrize("ctor,shape,extra", CASES, ids=[f"{c}-{s}-{bool(e)}" for c, s, e in CASES])
def test_module(conform, ctor, shape, extra):
    numel = 1
    for d in shape:
        numel *= d
    conform(MODULE.format(ctor=ctor, shape=shape, numel=numel, extra=extra))


REPRS = ["RNN(3, 4)", "RNN(3, 4, 2, nonlinearity='relu', dropout=0.5)", "LSTM(3, 4, bias=False, batch_first=True)",
         "GRU(3, 4, num_layers=2, bidirectional=True, dropout=0.25)", "RNNCell(3, 4, nonlinearity='relu')",
         "LSTMCell(3, 4, bias=False)", "GRUCell(3, 4)", "RNN(3, 4, 1, 'relu', False)"]


@pytest.mark.parametrize("ctor", REPRS)
def test_repr(conform, ctor):
    conform(f"m = torch.nn.{ctor}\nprint(m)\nprint(repr(m))\nprint([n for n, _ in m.named_parameters()])")


ERRORS = [
    "torch.nn.RNN(3, 4)(torch.zeros(5, 2, 2))",
    "torch.nn.RNN(3, 4)(torch.zeros(5, 2, 3, 1))",
    "torch.nn.RNN(3, 4)(torch.zeros(5))",
    "torch.nn.RNN(3, 4)(torch.zeros(5, 2, 3), torch.zeros(1, 3, 4))",
    "torch.nn.RNN(3, 4)(torch.zeros(5, 2, 3), torch.zeros(2, 4))",
    "torch.nn.RNN(3, 4)(torch.zeros(5, 3), torch.zeros(1, 2, 4))",
    "torch.nn.GRU(3, 4, 2)(torch.zeros(5, 2, 3), torch.zeros(1, 2, 4))",
    "torch.nn.LSTM(3, 4)(torch.zeros(5, 2, 3), (torch.zeros(1, 3, 4), torch.zeros(1, 2, 4)))",
    "torch.nn.LSTM(3, 4)(torch.zeros(5, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 2, 5)))",
    "torch.nn.LSTM(3, 4)(torch.zeros(5, 2, 2))",
    "torch.nn.RNN(3, 4, nonlinearity='sigmoid')",
    "torch.nn.GRU(3, 4, proj_size=2)",
    "torch.nn.RNN(3, 0)",
    "torch.nn.LSTM(3, 4, 0)",
    "torch.nn.GRU(3, 4, dropout=1.5)",
    "torch.nn.RNNCell(3, 4)(torch.zeros(2, 3, 1))",
    "torch.nn.RNNCell(3, 4)(torch.zeros(2, 3), torch.zeros(1, 2, 4))",
    "torch.nn.LSTMCell(3, 4)(torch.zeros(2, 2, 3))",
    "torch.nn.GRUCell(3, 4)(torch.zeros(2, 3, 3))",
    "torch.nn.LSTMCell(3, 4)(torch.zeros(2, 3), (torch.zeros(2, 4), torch.zeros(1, 2, 4)))",
    "torch.nn.LSTM(3, 4)(torch.zeros(5, 3), (torch.zeros(1, 4), torch.zeros(1, 1, 4)))",
    "torch.nn.LSTM(3, 4)(torch.zeros(5, 2, 3), (torch.zeros(2, 4), torch.zeros(2, 4)))",
    "torch.nn.GRU(3, 4)(torch.zeros(5, 3), torch.zeros(1, 1, 4))",
    "torch.nn.GRU(3, 4)(torch.zeros(5,))",
    "torch.nn.LSTM(3, 4)(torch.zeros(5, 2, 3, 3))",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_error(conform, expr):
    conform(f"with expect():\n    {expr}")


@pytest.mark.parametrize("ctor", ["RNNCell(2, 3)", "RNNCell(2, 3, nonlinearity='relu')", "RNN(2, 3)",
                                  "RNN(2, 3, 2, bias=False, batch_first=True)"])
def test_graph(conform, ctor):
    """The cells and nn.RNN are built of the same recorded ops as torch's CPU path, so the graphs are the same."""
    conform(f"torch.manual_seed(0)\nm = torch.nn.{ctor}\nout = m(torch.ones(2, 2))\n"
            "graph(out[0] if isinstance(out, tuple) else out)")


@pytest.mark.parametrize("ctor,h", [("RNNCell(2, 3)", "(2, 3)"), ("RNN(2, 3)", "(1, 3)"), ("RNN(2, 3, 2)", "(2, 3)")])
def test_graph_given_state(conform, ctor, h):
    conform(f"torch.manual_seed(0)\nm = torch.nn.{ctor}\nh = torch.ones{h}.requires_grad_()\n"
            "out = m(torch.ones(2, 2), h)\ngraph(out[0] if isinstance(out, tuple) else out)")


def test_tagger_trains(conform):
    """An LSTM tagger (embedding, LSTM, linear, log_softmax, NLL) trained for three SGD steps."""
    conform("""
torch.manual_seed(0)
emb, lstm, head = torch.nn.Embedding(6, 3), torch.nn.LSTM(3, 4), torch.nn.Linear(4, 3)
params = list(emb.parameters()) + list(lstm.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=0.1)
words, tags = torch.tensor([0, 3, 5, 1, 2]), torch.tensor([0, 1, 2, 1, 0])
for step in range(3):
    opt.zero_grad()
    out, _ = lstm(emb(words).view(5, 1, -1))
    loss = torch.nn.functional.nll_loss(torch.log_softmax(head(out.view(5, -1)), dim=1), tags)
    loss.backward()
    opt.step()
    val(loss)
    print(step, round(loss.item(), 4))
for p in lstm.parameters():
    val(p)
""")


ATTENTION = """
torch.manual_seed(0)
q = torch.randn({q}).requires_grad_()
k = torch.randn({k}).requires_grad_()
v = torch.randn({v}).requires_grad_()
y = torch.nn.functional.scaled_dot_product_attention(q, k, v{extra})
print(y.shape, y.dtype, y.requires_grad)
val(y)
(y * torch.arange(1., y.numel() + 1).reshape(y.shape)).sum().backward()
val(q.grad, k.grad, v.grad)
"""

SDPA = [("2, 4, 3", "2, 4, 3", "2, 4, 3", ""), ("2, 4, 3", "2, 4, 3", "2, 4, 3", ", is_causal=True"),
        ("1, 2, 5, 4", "1, 2, 6, 4", "1, 2, 6, 3", ""), ("2, 4, 3", "2, 4, 3", "2, 4, 3", ", scale=0.3"),
        ("2, 4, 3", "2, 4, 3", "2, 4, 3", ", attn_mask=torch.ones(4, 4).tril().bool()"),
        ("2, 4, 3", "2, 4, 3", "2, 4, 3", ", attn_mask=torch.arange(16.).reshape(4, 4) / 8"),
        ("1, 4, 3, 2", "1, 2, 3, 2", "1, 2, 3, 2", ", enable_gqa=True"), ("4, 3", "4, 3", "4, 3", ", is_causal=True")]


@pytest.mark.parametrize("q,k,v,extra", SDPA)
def test_attention(conform, q, k, v, extra):
    """F.scaled_dot_product_attention: torch uses a fused CPU kernel, so values are compared to float32 tolerance."""
    conform(ATTENTION.format(q=q, k=k, v=v, extra=extra))


@pytest.mark.parametrize("args", ["(4,)", "(4,), w", "(3, 4), w2, eps=1e-3", "[4], eps=0.5"])
def test_rms_norm(conform, args):
    """F.rms_norm: torch's composite (Pow, Mean, Add, Rsqrt, Mul): values and gradients. (The graph is not compared:
    torch records the scalar eps add as AddBackward1, this engine as AddBackward0.)"""
    conform(f"""
torch.manual_seed(0)
x = torch.randn(2, 3, 4).requires_grad_()
w = torch.randn(4).requires_grad_()
w2 = torch.randn(3, 4).requires_grad_()
y = torch.nn.functional.rms_norm(x, {args})
val(y)
print(y.grad_fn.name())
(y * torch.arange(24.).reshape(2, 3, 4)).sum().backward()
val(x.grad)
print(w.grad is None, w2.grad is None)
if w.grad is not None:
    val(w.grad)
if w2.grad is not None:
    val(w2.grad)
""")


@pytest.mark.parametrize("ctor", ["RMSNorm(4)", "RMSNorm([3, 4], eps=1e-6)", "RMSNorm(4, elementwise_affine=False)"])
def test_rms_norm_module(conform, ctor):
    conform(f"""
m = torch.nn.{ctor}
print(m)
print([(n, tuple(p.shape)) for n, p in m.named_parameters()])
x = (torch.arange(24.).reshape(2, 3, 4) % 7 - 3).requires_grad_()
y = m(x)
val(y)
y.pow(2).sum().backward()
val(x.grad)
for n, p in m.named_parameters():
    val(p.grad)
""")
