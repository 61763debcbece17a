"""Saved dims and the other non-tensor ``_saved_*`` values, node by node, as torch shows them.

torch saves a dim as it was given and shows a negative one as an unsigned 64-bit number (``x.sum(-1)`` saves
``dim=(18446744073709551615,)``), an int dim of sum/mean/amax... as a tuple, slices as start/end/step (an open
end as 2**63 - 1). Each expression runs with a positive and a negative dim where it takes one; the program
prints every ``_saved_*`` value that is not a tensor and the names of the saved tensors, the gradients of the
leaves (computed from the normalised dims the backward formulas use), and the values again after backward
has freed the saved tensors (values that are not tensors stay).
"""
import pytest

torch = pytest.importorskip("torch")

LEAVES = """
x = torch.arange(24.).reshape(2, 3, 4).sin().requires_grad_()
m = torch.tensor([[1., -2., 3.], [0.5, 4., -1.]], requires_grad=True)
u = torch.ones(1, 3, 1, requires_grad=True)
q = torch.arange(9.).reshape(3, 3).cos().requires_grad_()
e = torch.tensor([2., 0., 1.], requires_grad=True)
idx = torch.tensor([[[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 1, 1]]] * 2)
"""

PROGRAM = LEAVES + """
y = {expr}
y = y[0] if isinstance(y, tuple) else y
n = y.grad_fn
names = [a for a in dir(n) if a.startswith("_saved_")]
def values():
    return [(a, getattr(n, a)) for a in names if not isinstance(getattr(n, a), torch.Tensor)]
print(type(n).__name__, n.name(), values())
print("tensors", [a for a in names if isinstance(getattr(n, a), torch.Tensor)])
y.backward(torch.arange(1., y.numel() + 1).reshape(y.shape))
for leaf in (x, m, u, q, e):
    if leaf.grad is not None:
        val(leaf.grad)
print(values())
"""

EXPRS = [
    # pooling: every field, None where not given
    "torch.nn.functional.avg_pool2d(x, 2)", "torch.nn.functional.avg_pool2d(x, 2, 1, 1, divisor_override=3)",
    "torch.nn.functional.max_pool2d(x, 2)",
    # reductions: dims saved as a tuple, as given
    "x.sum(1)", "x.sum(-1)", "x.sum((0, 2))", "x.sum((-1, 0))", "x.sum(-1, keepdim=True)", "x.sum([1])", "x.sum(())",
    "x.sum(dim=(2, -2))", "x[0, 0, 0].sum(-1)",
    "x.mean(1)", "x.mean(-1)", "x.mean((0, -1))", "x.mean(-2, True)", "x.mean([])",
    "x.prod(1)", "x.prod(-1)", "x.prod(-1, keepdim=True)", "x[0, 0].prod(0)",
    "x.max(1).values", "x.max(-1).values", "x.max(-2, keepdim=True).values", "x.min(1).values", "x.min(-1).values",
    "x.amax(1)", "x.amax(-1)", "x.amax((0, -1))", "x.amin(-2)", "x.amin((1, 2), True)", "x.amax()",
    "x.var(1)", "x.var(-1)", "x.var((0, -1), correction=0)", "x.std(1)", "x.std(-1, keepdim=True)", "x.var()",
    "x.std()", "x.var(unbiased=False)", "x.var(-1, False)", "x.std(unbiased=True)",
    "x.norm(dim=1)", "x.norm(dim=-1)", "x.norm(dim=(0, -1))", "x.norm(p=1, dim=-1)", "x.norm()", "x.norm(3, -1, True)",
    "x.norm(p=1.0, dim=1)", "x.norm(dim=[])", "x.norm(p=float('inf'), dim=-2)",
    "x.logsumexp(1)", "x.logsumexp(-1)", "x.logsumexp((0, -1))", "x.logsumexp(-1, True)",
    "x.median(1).values", "x.median(-1).values", "x.median(-1, True).values",
    # along one dim
    "x.cumsum(1)", "x.cumsum(-1)", "x.cumprod(1)", "x.cumprod(-1)",
    "x.softmax(1)", "x.softmax(-1)", "x.log_softmax(1)", "x.log_softmax(-1)",
    "torch.nn.functional.softmax(x, -2)", "torch.nn.functional.log_softmax(x, dim=0)", "x[0, 0, 0].softmax(-1)",
    "x.sort(1).values", "x.sort(-1).values", "x.sort(dim=-1, stable=True).values", "x.sort(-2, descending=True).values",
    "x.topk(2, 1).values", "x.topk(2, -1).values", "x.topk(2).values", "x.topk(1, -2, largest=False).values",
    "x.gather(1, idx[:, :2])", "x.gather(-1, idx)", "x.gather(-2, idx[:, :2])",
    "x.index_select(1, torch.tensor([0, 2]))", "x.index_select(-1, torch.tensor([1]))",
    "x.repeat_interleave(torch.tensor([1, 2, 0]), -2)", "x.repeat_interleave(torch.tensor([2]))",
    "x.repeat_interleave(2, -1)",
    # reorderings
    "x.flip(1)", "x.flip(-1)", "x.flip((0, -1))", "x.flip(-1, 0)",
    "x.roll(1, 1)", "x.roll(-1, -1)", "x.roll((1, -2), (0, -1))", "x.roll(2)",
    "x.permute(2, 0, 1)", "x.permute(-1, 0, -2)", "x.movedim(0, -1)", "x.movedim((0, 1), (-1, -2))",
    "x.transpose(0, 1)", "x.transpose(-1, 0)", "x.transpose(-1, -2)", "x.swapaxes(1, 2)", "x.mT", "m.t()", "m.T",
    # shapes
    "x.unsqueeze(1)", "x.unsqueeze(-1)", "x.unsqueeze(-2)", "x.unsqueeze(3)", "x[0, 0, 0].unsqueeze(-1)",
    "u.squeeze(0)", "u.squeeze(-1)", "u.squeeze((0, -1))", "u.squeeze()", "u.squeeze(1)", "u.squeeze((0, 2))",
    "e @ m.T.detach()", "x.flatten()", "x.flatten(1)", "x.flatten(0, -2)",
    "q.diagonal()", "q.diagonal(1)", "q.diagonal(-1)", "x.diagonal(0, 1, 2)", "x.diagonal(0, -1, -2)",
    "x.diagonal(1, -3, -1)", "e.diag(-1)", "q.diag(1)", "q.tril(-1)", "q.triu(1)",
    # pieces and joins
    "x.split(2, 1)", "x.split(2, -1)", "x.split([1, 3], -1)", "x.split([1, 2], 1)", "x.chunk(2, -1)", "x.chunk(3, 1)",
    "x.tensor_split(2, -1)", "x.tensor_split([1, 3], 1)[2]", "x.unbind(1)", "x.unbind(-1)",
    "torch.cat([x, x], 1)", "torch.cat([x, x], -1)", "torch.cat([x, x])", "torch.stack([x, x], 1)",
    "torch.stack([x, x], -1)", "torch.stack([x, x], dim=-4)", "torch.hstack([m, m])", "torch.vstack([m, m])",
    # select and slice
    "x.select(1, 0)", "x.select(-1, -1)", "x[:, 1]", "x[..., -1]", "x[1]", "x[-1]",
    "x.narrow(1, 0, 2)", "x.narrow(-1, 1, 2)", "x.narrow(-1, -2, 2)", "x[:, 1:]", "x[..., :-1]", "x[:, ::2]",
    "x[1:]", "x[:, -2:]", "x[:, -5:]", "x[:, :10]", "x[:, 1:-1:2]", "x[1:0]", "x[..., -4:3]", "x[0:1]",
    # other values that torch shows unsigned
    "torch.nn.functional.embedding(torch.tensor([1, 0]), m)",
    "torch.nn.functional.embedding(torch.tensor([1]), m, padding_idx=-2)",
]


@pytest.mark.parametrize("expr", EXPRS)
def test_saved_fields(conform, expr):
    conform(PROGRAM.format(expr=expr))


def test_saved_fields_of_second_order_nodes(conform):
    """A backward with create_graph after an op given a negative dim: the fields of every node below the
    gradient. Only these ops so far: the nodes other backward formulas record (SoftmaxBackwardDataBackward0,
    the unsqueeze of max/sum/mean/logsumexp, transpose, flip, select/slice/diagonal's BackwardBackward0 ...) get
    the normalised dim where torch passes on the dim as given."""
    conform(LEAVES + """
def fields(node, seen):
    if node is None or node in seen:
        return
    seen.add(node)
    print(" ", node.name(), [(a, getattr(node, a)) for a in dir(node) if a.startswith("_saved_")
                             and not isinstance(getattr(node, a), torch.Tensor)])
    for child, _ in node.next_functions:
        fields(child, seen)

for expr in [{exprs}]:
    y = eval(expr)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    val(g)
    print(expr)
    fields(g.grad_fn, set())
""".format(exprs=", ".join(repr(e) for e in SECOND_ORDER)))


SECOND_ORDER = ["x.amax(-1)", "x.squeeze(-1)", "torch.cat([x, x], -1)", "x.split(2, -1)[1]", "x.permute(-1, 0, 1)",
                "x.sum((0, -1))", "x.sum(-1, True)"]
