"""Printed forms: ``repr``, ``str`` and ``format`` of tensors, nodes, sizes, dtypes and return types."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "reference-reprs": """
        a = torch.tensor(3., requires_grad=True)
        b = torch.tensor(4., requires_grad=True)
        d = a * b + a
        print(repr(d)); print(str(d)); print(repr(a)); print(f"{d}"); print(f"{a}")
        print(repr(torch.tensor([2., 3.], requires_grad=True)))
        print(repr(torch.tensor([2., 3.])))
        print(repr(torch.tensor(2.5)))
        print(repr(torch.tensor([1.5, 2.0, 3.25])))
        print(repr(torch.tensor(0.1)))
        print(repr(torch.tensor([0.1, 123.456])))
        print(repr(torch.tensor(1e-5)), repr(torch.tensor([1e-5, 1.0])), repr(torch.tensor(123456789.)))
        print(repr(torch.tensor(3)), repr(torch.tensor([1, 2])))
        print(repr(torch.ones(2, 2, requires_grad=True)))
        print(repr((torch.ones(2, 2, requires_grad=True) * 3).sum()))
        print(repr(torch.ones(2, 3, requires_grad=True) @ torch.ones(3, 2)))
        print(repr(torch.tensor([2., 3.], requires_grad=True).detach()))
        print(repr(torch.tensor(float('nan'))), repr(torch.tensor(float('inf'))), repr(torch.tensor(-0.)))
        print(repr(torch.tensor([True, False])))
        print(repr(torch.tensor([], requires_grad=True)))
        print(repr(torch.tensor(3., dtype=torch.float64, requires_grad=True)))
        print(repr(torch.tensor(3., dtype=torch.float64) * torch.tensor(2., dtype=torch.float64, requires_grad=True)))
    """,
    "matrices-and-3d": """
        x = torch.arange(24.).reshape(2, 3, 4)
        print(x); print(x.requires_grad_()); print(x * 1.5); print(x[0] - 10)
        print(torch.tensor([[1e-8, 1.], [100., -3.]]))
        print(torch.tensor([[0.001, 1000.], [-2.5, 3.]], dtype=torch.float64))
        print(torch.tensor([[1, -20], [300, 4]]))
        print(torch.tensor([[True], [False]]))
        print(torch.zeros(2, 0), torch.zeros(0, 3, dtype=torch.int64), torch.ones(1, 1, 1))
    """,
    "dtype-suffixes": """
        for dt in [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.int16, torch.uint8,
                   torch.int8]:
            print(repr(torch.ones(2, dtype=dt)), repr(torch.zeros((), dtype=dt)), repr(torch.ones(0, dtype=dt)))
        x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
        print(x, x * 2, x.sum(), x.float())
    """,
    "summarized": """
        print(torch.arange(1001.))
        print(torch.arange(2000).reshape(2, 1000))
        print(torch.arange(3000.).reshape(10, 300) / 7)
        print(torch.ones(1001, requires_grad=True) * 2)
    """,
    "wide-rows-wrap": """
        print(torch.arange(30.) / 3)
        print(torch.arange(40) * 1000)
        print(torch.linspace(-1, 1, 17))
        print(torch.tensor([1e10, 1.]), torch.tensor([1e-10, 1.]), torch.tensor([12345.678, 0.001]))
    """,
    "sizes-dtypes-return-types": """
        x = torch.tensor([[1., 5., 2.], [7., 0., 3.]], requires_grad=True)
        print(x.shape, repr(x.shape), str(x.size()), x.dtype, repr(x.dtype), str(torch.int64), torch.Size([]))
        r = x.max(1)
        print(r)
        print(repr(r.values), r.indices, r[0], r[1])
        v, i = x.min(dim=0, keepdim=True)
        print(v, i)
        print(torch.max(x, 0))
        print(type(r).__name__, isinstance(r, tuple), len(r))
    """,
    "node-reprs": """
        x = torch.tensor(3., requires_grad=True)
        y = x * 2
        print(repr(y.grad_fn))
        print(str(y.grad_fn))
        print(y.grad_fn.name(), type(y.grad_fn).__name__)
        print(isinstance(y.grad_fn, torch.autograd.graph.Node))
        acc = y.grad_fn.next_functions[0][0]
        print(repr(acc), acc.name(), type(acc).__name__, isinstance(acc, torch.autograd.graph.Node))
        print(y.grad_fn.metadata)
        print(y.grad_fn.next_functions)
        print(f"{y.grad_fn}")
    """,
    "format-specs": """
        t = torch.tensor(2.5, requires_grad=True)
        u = torch.tensor(7.)
        i = torch.tensor(3)
        print(f"{t}", f"{u}", f"{i}", f"{t:.3f}", f"{u:6.1f}|", f"{i:03d}", f"{t:e}", "{:.2f}".format(u))
        print(f"{u * 2}", f"{(u * 2).item()}", f"{torch.tensor(0.1)}", f"{torch.tensor(1e-5)}", f"{torch.tensor(True)}")
        print(f"{torch.tensor([1., 2.])}", f"{torch.tensor([1, 2], dtype=torch.int32)}")
    """,
    "grad-and-leaf-prints": """
        x = torch.tensor([1., 2.], requires_grad=True)
        y = (x ** 2).sum()
        y.backward()
        print(x, x.grad, y, x.data, x.detach(), x.grad.requires_grad)
        print([x, x.grad])
        print((x, y))
        print({"x": x})
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_repr(conform, name):
    conform(CASES[name])
