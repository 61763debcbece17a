"""F.cross_entropy, F.nll_loss, nn.CrossEntropyLoss and nn.NLLLoss on (N, C, d1, d2, ...) inputs, in torch and
autograd_tutor: NllLoss2DBackward0 for 4-D inputs, a view to (N, C, 1, d1 * d2 * ...) around it for the other
ranks, the values, gradients, saved attributes and torch's errors for shapes that do not fit."""
import pytest

torch = pytest.importorskip("torch")

SHAPES = [(2, 3, 4), (2, 3, 2, 2), (2, 3, 2, 1, 2), (2, 3, 1), (1, 3, 2, 2, 1, 2), (3, 4, 5, 6), (2, 2, 17, 3)]

KWARGS = ["", "reduction='sum'", "reduction='none'", "weight=w", "weight=w, reduction='sum'",
          "weight=w, reduction='none'", "ignore_index=1", "ignore_index=1, weight=w, reduction='none'",
          "label_smoothing=0.2", "label_smoothing=0.1, weight=w", "label_smoothing=0.3, reduction='sum'",
          "label_smoothing=0.1, weight=w, ignore_index=0, reduction='none'"]

PROGRAM = """
F = torch.nn.functional
shape = {shape!r}
x = ((torch.arange(float(torch.Size(shape).numel())) * 13 % 11) * 0.25 - 1.2).reshape(shape).requires_grad_()
t = (torch.arange(torch.Size(shape).numel() // shape[1]) * 7 % shape[1]).reshape(shape[:1] + shape[2:])
t.view(-1)[3] = -100
w = torch.arange(1., shape[1] + 1) / 4
for fn in (F.cross_entropy, F.nll_loss):
    if fn is F.nll_loss and "label_smoothing" in {kwargs!r}:
        continue
    target = t.clamp(min=0) if "ignore_index" in {kwargs!r} else t
    out = fn(x, target, {kwargs})
    print(fn.__name__, out.shape, repr(out.item()) if fn is F.nll_loss and out.dim() == 0 else "")
    graph(out)
    node = out.grad_fn
    while node is not None and not node.name().startswith("NllLoss"):
        node = node.next_functions[0][0]
    if node is not None:
        print(node._saved_self.shape, node._saved_target.shape, node._saved_total_weight, node._saved_reduction,
              node._saved_ignore_index, node._saved_weight)
    (out * (torch.arange(float(out.numel())).reshape(out.shape) + 1)).sum().backward()
    val(out, x.grad)
    x.grad = None
"""


@pytest.mark.parametrize("kwargs", KWARGS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_losses_on_maps(conform, shape, kwargs):
    conform(PROGRAM.format(shape=shape, kwargs=kwargs))


MORE = {
    "modules-and-probabilities": """
        x = ((torch.arange(48.) * 0.71).cos()).reshape(2, 3, 2, 4).requires_grad_()
        t = torch.tensor([[[0, 1, 2, 1], [2, 2, 0, 1]], [[1, 0, 0, 2], [2, 1, 0, 0]]])
        for loss in (torch.nn.CrossEntropyLoss()(x, t),
                     torch.nn.CrossEntropyLoss(reduction="none")(x[:, :, 0], t[:, 0]),
                     torch.nn.NLLLoss(weight=torch.tensor([1., 2., 3.]))(x.log_softmax(1), t),
                     torch.nn.CrossEntropyLoss(ignore_index=2, label_smoothing=0.25)(x, t),
                     torch.nn.functional.cross_entropy(x, x.detach().softmax(1)),
                     torch.nn.functional.cross_entropy(x, x.detach().softmax(1), reduction="none", label_smoothing=0.1),
                     torch.nn.functional.cross_entropy(x[:, :, :, 0], x[:, :, :, 1].detach().softmax(1))):
            print(loss)
            graph(loss)
            loss.sum().backward()
            val(loss, x.grad)
            x.grad = None
    """,
    "strided-and-empty-inputs": """
        F = torch.nn.functional
        base = ((torch.arange(48.) * 0.3).sin()).reshape(2, 4, 2, 3).requires_grad_()
        t = torch.tensor([[[0, 1], [2, 1], [0, 0]], [[1, 2, 2], [0, 1, 2]]]).reshape(2, 3, 2)
        for x in (base.permute(0, 3, 1, 2)[:, :3], base.transpose(1, 3)[:, :, :, 0], base.reshape(2, 4, 6)[:, :3]):
            target = t if x.dim() == 4 else t.reshape(2, -1)[:, :x.shape[2]]
            for red in ("mean", "none"):
                out = F.cross_entropy(x, target, reduction=red)
                graph(out)
                out.sum().backward()
                val(out, base.grad)
                base.grad = None
        print(F.nll_loss(torch.randn(0, 3, 4), torch.zeros(0, 4, dtype=torch.long)),
              F.nll_loss(torch.zeros(0, 3, 4), torch.zeros(0, 4, dtype=torch.long), reduction="none"),
              F.nll_loss(torch.zeros(0, 3, 2, 2), torch.zeros(0, 2, 2, dtype=torch.long)),
              F.nll_loss(torch.zeros(2, 3, 0), torch.zeros(2, 0, dtype=torch.long), reduction="sum"),
              F.nll_loss(torch.zeros(2, 3, 2, 2).double(), torch.zeros(2, 2, 2, dtype=torch.long)),
              F.nll_loss(torch.zeros(2, 3, 2, 2).half(), torch.ones(2, 2, 2, dtype=torch.long)),
              F.nll_loss(torch.ones(2, 3, 2, 2), torch.zeros(2, 2, 2, dtype=torch.long), weight=torch.ones(1, 3)),
              F.nll_loss(torch.ones(2, 3, 2, 2), torch.full((2, 2, 2), -100)))
    """,
}


@pytest.mark.parametrize("name", MORE)
def test_losses_on_maps_more(conform, name):
    conform(MORE[name])


ERRORS = [
    "F.nll_loss(x4, torch.zeros(2, 4, dtype=L))", "F.nll_loss(x4, torch.zeros(2, 1, 2, 2, dtype=L))",
    "F.nll_loss(x4, torch.zeros(2, 2, 3, dtype=L))", "F.nll_loss(x4, torch.zeros(3, 2, 2, dtype=L))",
    "F.nll_loss(x4, torch.full((2, 2, 2), 3))", "F.nll_loss(x4, torch.full((2, 2, 2), -2))",
    "F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=L), weight=torch.ones(4))",
    "F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=L), weight=torch.ones(3, dtype=torch.double))",
    "F.nll_loss(x4, torch.zeros(2, 2, 2))", "F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=torch.int32))",
    "F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=torch.uint8))", "F.nll_loss(x3, torch.zeros(2, 5, dtype=L))",
    "F.nll_loss(x3, torch.zeros(2, dtype=L))", "F.nll_loss(x3, torch.zeros(2, 4, 1, dtype=L))",
    "F.nll_loss(x3, torch.zeros(3, 4, dtype=L))", "F.nll_loss(x3, torch.full((2, 4), 5))",
    "F.nll_loss(x3, torch.zeros(2, 4, dtype=L), weight=torch.ones(4))", "F.nll_loss(x3, torch.zeros(2, 4))",
    "F.nll_loss(x5, torch.zeros(2, 2, 2, dtype=L))", "F.nll_loss(x5, torch.zeros(2, 2, 1, 2))",
    "F.cross_entropy(x4, torch.zeros(2, 2, 3, dtype=L))", "F.cross_entropy(x3, torch.zeros(2, 5, dtype=L))",
    "F.cross_entropy(x3, torch.zeros(2, 5))", "F.cross_entropy(x4, torch.zeros(3, 2, 2, dtype=L))",
    "F.nll_loss(x4, torch.zeros(2, 4))", "F.nll_loss(x4, torch.zeros(2, 2, 3, dtype=L), weight=torch.ones(4))",
    "F.nll_loss(x4, torch.zeros(2, 2, 3, dtype=L), weight=torch.ones(3, dtype=torch.double))",
    "F.nll_loss(x4, torch.zeros(2, 2, 3))", "F.nll_loss(x4, torch.zeros(2, 2, 2), weight=torch.ones(4))",
    "F.nll_loss(x4, torch.full((2, 2, 2), 7, dtype=torch.uint8))", "F.nll_loss(x4, torch.tensor(0))",
    "F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=L), reduction='avg')",
    "F.cross_entropy(x4, torch.zeros(2, 3, 2, 2, dtype=L))",
    "F.nll_loss(torch.zeros(2, 3, 2, 2, dtype=L), torch.zeros(2, 2, 2, dtype=L))",
    "F.nll_loss(torch.zeros(2, 3, 2, 2, dtype=L), torch.zeros(2, 2, 2))",
    "F.nll_loss(torch.zeros(2, 3, 4, dtype=L), torch.zeros(2, 4, dtype=L))",
    "F.nll_loss(torch.zeros(2, 3, 2, 2, dtype=torch.bool), torch.zeros(2, 2, 2, dtype=L))",
    "F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=torch.uint8), weight=torch.ones(3, dtype=torch.double))",
    "torch.nn.CrossEntropyLoss()(x3, torch.zeros(2, 3, dtype=L))",
    "torch.nn.NLLLoss()(x5, torch.zeros(2, 2, 1, 3, dtype=L))",
]


@pytest.mark.parametrize("stmt", ERRORS)
def test_loss_on_maps_errors(conform, stmt):
    conform(f"""
        F, L = torch.nn.functional, torch.long
        x3, x4, x5 = torch.ones(2, 3, 4, requires_grad=True), torch.ones(2, 3, 2, 2), torch.ones(2, 3, 2, 1, 2)
        with expect():
            print({stmt})
    """)
