"""The short cuts of the training loops' hot paths (issue 14) against torch: a lone slice ``x[a:b]`` (its bounds
ints or tensors, its errors), a select's shown index, ``stack`` along any dim, ``nn.Linear``'s addmm (its saved
fields, with and without a bias gradient), a module's forward hooks, and a bias's gradient summed over a batch."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "a-lone-slice-as-torch-records-it": """
        x = torch.arange(10.).requires_grad_()
        i, j = torch.tensor(2), torch.tensor(7)
        for piece in (x[1:4], x[-3:], x[:], x[::3], x[i:j], x[i:i + 3], x[8:20], x[5:2], x[:-1]):
            print(piece, piece.grad_fn._saved_start, piece.grad_fn._saved_end, piece.grad_fn._saved_step,
                  piece._base is x, piece.is_contiguous())
        (x[1:4].sum() + x[::3].sum() * 2 + x[i:i + 3].sum() * 3).backward()
        print(x.grad)
        with torch.no_grad():
            y = x[2:5]
            print(y, y.requires_grad, y.grad_fn, y._base is x)
        with expect():
            torch.tensor(3.)[1:2]
        with expect():
            x[::0]
        with expect():
            x[::-1]
        with expect():
            x[torch.tensor(1.5):3]
        m = torch.arange(12.).reshape(3, 4)
        print(m[1:], m[1:][:, 1:3], m[:, 1:3].grad_fn)
    """,
    "a-select-shows-the-index-as-written": """
        x = torch.randn(3, 4, generator=torch.Generator().manual_seed(0), requires_grad=True)
        for y in (x[:, 1], x[:, -1], x[-2], x[2], x[1, -3]):
            print(y.grad_fn, y.grad_fn._saved_index, y.grad_fn._saved_dim, y.grad_fn._saved_self_sym_sizes)
            print(sorted(a for a in dir(y.grad_fn) if a.startswith("_saved_")))
        (x[:, -1] * 2 + x[:, 1]).sum().backward()
        print(x.grad)
    """,
    "stack-along-each-dim": """
        g = torch.Generator().manual_seed(1)
        parts = [torch.randn(2, 3, generator=g, requires_grad=True) for _ in range(4)]
        for dim in (0, 1, 2, -1, -3):
            s = torch.stack(parts, dim=dim)
            print(dim, s.shape, s.is_contiguous(), s.stride(), s.grad_fn, s.grad_fn._saved_dim)
            val(s)
        w = torch.arange(24.).reshape(4, 2, 3)
        (torch.stack(parts, dim=1) * w.transpose(0, 1)).sum().backward()
        print([p.grad for p in parts])
        print(torch.stack([torch.tensor([1, 2]), torch.tensor([3, 4])]), torch.stack([torch.tensor(True)] * 3))
        print(torch.stack([torch.tensor([1., 2.]), torch.tensor([3, 4])], dim=1))
        with expect():
            torch.stack([torch.ones(2), torch.ones(3)])
    """,
    "linear-addmm-saves-what-torch-saves": """
        torch.manual_seed(0)
        lin = torch.nn.Linear(3, 2)
        x = torch.randn(4, 3)
        xg = torch.randn(4, 3, requires_grad=True)
        for inp in (x, xg):
            y = lin(inp)
            fn = y.grad_fn
            print(fn, fn._saved_alpha, fn._saved_beta, fn._saved_mat1_sym_sizes, fn._saved_mat1_sym_strides,
                  fn._saved_mat2_sym_sizes, fn._saved_mat2_sym_strides, fn._saved_mat1 is inp, fn._saved_mat2)
            print(sorted(a for a in dir(fn) if a.startswith("_saved_")))
        lin.weight.requires_grad_(False)
        y = lin(xg)
        print(y.grad_fn._saved_mat1, y.grad_fn._saved_mat2, y.grad_fn._saved_mat1_sym_strides,
              y.grad_fn._saved_mat2_sym_strides)
        y.sum().backward()
        print(xg.grad, lin.bias.grad, lin.weight.grad)
        with expect():
            torch.addmm(torch.ones(3), torch.ones(2, 2), torch.ones(2, 2))
        print(torch.addmm(torch.ones(2, 1), torch.ones(2, 2), torch.ones(2, 2)))
    """,
    "a-bias-gradient-summed-over-the-batch": """
        g = torch.Generator().manual_seed(2)
        for rows in (1, 3, 8, 20, 70):
            b = torch.randn(5, generator=g, requires_grad=True)
            h = torch.randn(rows, 5, generator=g)
            (h + b).mul(h).sum().backward()
            print(rows, b.grad)
            one = torch.randn(1, generator=g, requires_grad=True)
            (h + one).mul(h).sum().backward()
            print(one.grad)
        c = torch.randn(4, 5, generator=g, requires_grad=True)
        (torch.randn(3, 4, 5, generator=g) * (c + 0)).sum().backward()
        print(c.grad)
    """,
    "module-forward-hooks-still-run": """
        lin = torch.nn.Linear(2, 2)
        x = torch.ones(1, 2)
        calls = []
        h1 = lin.register_forward_pre_hook(lambda m, args: calls.append("pre") or (args[0] * 2,))
        y1 = lin(x)
        h2 = lin.register_forward_hook(lambda m, args, out: calls.append("post") or out * 0)
        y2 = lin(x)
        h1.remove()
        y3 = lin(x)
        h2.remove()
        y4 = lin(x)
        print(calls, y2, y3, torch.equal(y4, lin(x)), torch.equal(y1, lin(x * 2)))
        with expect():
            lin.missing
        print(lin.weight.shape, lin.bias.shape, type(lin).__name__)
    """,
    "cross-entropy-with-every-sample-counted-and-its-divisions": """
        # the fast path (no class weights, no sample ignored) beside the masked ones, each to the last bit
        torch.manual_seed(0)
        x = (torch.randn(32, 27) * 3).requires_grad_()
        y = torch.randint(0, 27, (32,))
        w = torch.rand(27)
        for kwargs in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"ignore_index": int(y[0])},
                       {"weight": w}, {"weight": w, "ignore_index": int(y[1])}, {"label_smoothing": 0.2}):
            x.grad = None
            loss = torch.nn.functional.cross_entropy(x, y, **kwargs)
            loss.sum().backward()
            print(list(kwargs), f"{loss.detach().sum().item():.4f}", x.grad[0], loss.grad_fn._saved_total_weight)
        # a total weight of 0 (every sample ignored, or weighted 0) and of inf: nan and inf without a warning
        for target, weight in ((torch.full((4,), -100), None), (torch.zeros(4, dtype=torch.long), torch.zeros(3)),
                               (torch.zeros(4, dtype=torch.long), torch.tensor([float("inf"), 1., 1.]))):
            z = torch.randn(4, 3, requires_grad=True)
            loss = torch.nn.functional.cross_entropy(z, target, weight=weight)
            loss.backward()
            print(loss, z.grad, loss.grad_fn._saved_total_weight)
        logp = torch.randn(0, 3).log_softmax(1)
        print(torch.nn.functional.nll_loss(logp, torch.zeros(0, dtype=torch.long)))
        for target, ignored in (([0, 4, 1], -100), ([0, -1, 2], -100), ([-100, 5, 1], -100), ([-100, 2, 3], -100),
                                ([-100, 1, 5], 5), ([-3, 1, 2], -3), ([1, 1, 1], 1)):
            with expect():  # out of bounds (negative too), unless ignored
                print(torch.nn.functional.cross_entropy(torch.ones(3, 4), torch.tensor(target), ignore_index=ignored))
        big = torch.tensor([[3e38, -3e38, 0.], [float("-inf")] * 3, [float("nan"), 0., 1.]])
        print(big.log_softmax(1), big.softmax(1))
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_fast_paths(conform, name):
    conform(CASES[name])
