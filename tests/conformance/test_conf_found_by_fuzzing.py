"""Cases a differential fuzzer found (torch and autograd_tutor disagreed), each kept once it was fixed."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "an-index-out-of-range-names-its-position-in-the-key": """
        x = torch.zeros(2, 3, 1)
        for key in ["x[0, 1, 1]", "x[..., 5]", "x[0, ..., 5]", "x[None, None, 0, 0, 7]", "x[0, None, 5]",
                    "x[True, 0, 9]", "x[..., None, 2]", "x[0, 1:2, 3]", "x[5]", "x[0][0, 2]"]:
            with expect(): eval(key)
    """,
    "remainder-floor-divide-and-clamp-nodes": """
        x = torch.tensor([1., -2., 3.5], requires_grad=True)
        z = x // 2
        print(z, z.grad_fn.name(), [(f.name(), n) for f, n in z.grad_fn.next_functions])
        with expect(): z.sum().backward()
        w = torch.tensor([2., 3., -1.5], requires_grad=True)
        r = x % w
        graph(r)
        print(r, [k for k in dir(r.grad_fn) if k.startswith('_saved')])
        r.sum().backward()
        print(x.grad, w.grad, 7 % w, (7 % w).grad_fn.name())
        print(x.fmod(w), torch.fmod(x, 2).grad_fn.name(), torch.remainder(x, 2))
        x.grad = None
        lo, hi = torch.tensor(0., requires_grad=True), torch.tensor(2., requires_grad=True)
        c = x.clamp(lo, hi)
        graph(c)
        c.sum().backward()
        print(c, lo.grad, hi.grad, x.grad, x.clamp(min=lo).grad_fn.next_functions[2])
        print(x.clamp_min(lo).grad_fn.name(), x.clamp_max(hi).grad_fn.name())
        a, b = x.clamp_min(0), x.clamp_max(1)
        print(a, b, [k for k in dir(a.grad_fn) if k.startswith('_saved')], a.grad_fn._saved_min, b.grad_fn._saved_max)
        print(torch.clamp(torch.tensor([1, 5]), min=torch.tensor(2)), torch.clamp_min(x, 1.), torch.clamp_max(x, 1.))
        t = torch.tensor([5, -3])
        print(t % 3, t // 2, t % torch.tensor([2, 2]), 7 // torch.tensor(2.), torch.floor_divide(t, 2))
        print(-7 % torch.tensor(3))
    """,
    "pow-with-a-number-base-and-where-with-numbers": """
        x = torch.tensor([1., -2., 3.5], requires_grad=True)
        p = torch.pow(2, x)
        graph(p)
        print(p, torch.pow(x, 2).grad_fn.name())
        print(torch.where(x > 0, 1.0, -1.0), torch.where(x > 0, 1, 0), torch.where(x > 0, 1.0, 0).dtype)
        print(torch.where(x > 0), torch.where(x > 0, torch.tensor(1., dtype=torch.float64), 0.).dtype)
    """,
    "crashes-and-messages": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = x.clone()
        y[torch.tensor(0)] = -1
        print(y)
        y = x.clone()
        y[torch.tensor([0, 2])] = torch.tensor([5., 6.])
        print(y)
        v = torch.tensor([2.], requires_grad=True)
        s = v.var()
        s.backward()
        print(s, v.grad)
        n = torch.norm(torch.tensor([1., 0., 3.], requires_grad=True), 0)
        print(n, torch.norm(torch.tensor([1., -4., 3.]), float('inf')), torch.norm(torch.tensor([1., 0., 3.]), -1))
        with expect(): torch.cat([torch.ones(2), torch.tensor(1.)])
        with expect(): x.detach().clone()[5] = 1.
        with expect(): x.detach().clone()[1.5] = 1.
        with expect(): torch.ones(3).expand(2, 3).add_(1)
    """,
    "second-round": """
        F = torch.nn.functional
        x = torch.ones(2)
        print(x.is_cuda, x.get_device(), x.is_cpu, torch.nn.Linear(1, 1).cpu())
        with expect(): torch.nn.Linear(1, 1).cuda()
        with expect(): torch.cuda.current_device()
        with expect(): torch.cuda.synchronize()
        with expect(): torch.tensor([5, -5]) // torch.tensor([0, 2])
        with expect(): torch.tensor([5, -5]) % torch.tensor([0, 2])
        with expect(): torch.softmax(torch.tensor([1, 2]), 0)
        with expect(): torch.log_softmax(torch.tensor([1, 2]), 0)
        print(torch.softmax(torch.tensor([1., 2.]), 0, dtype=torch.float64), 7 % torch.tensor([0., 2.]))
        print(5 // torch.tensor([0., 2.]), torch.softmax(torch.tensor([[float('-inf'), float('-inf')]]), 1))
        x = torch.tensor([[1., 2., 3.], [0.5, 0.1, 2.]], requires_grad=True)
        F.cross_entropy(x, torch.tensor([1, 2]), ignore_index=1).backward()
        print(x.grad)
    """,
    "whole-tensor-writes-and-setitem-shapes": """
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        for key in [Ellipsis, slice(None), (slice(None),), 0, slice(1, None)]:
            for val in [5., torch.tensor(5.), torch.tensor([5.]), torch.tensor([4., 5., 6.]), torch.tensor([[5.]])]:
                y = x.clone()
                with expect():
                    y[key] = val
                    print(repr(key), y)
                    graph(y)
        y = x.clone()
        with expect(): y[:] = torch.tensor([4., 5.])
        w = torch.tensor(2., requires_grad=True)
        z = x.detach().clone()
        z[...] = w
        z.sum().backward()
        print(z, w.grad)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_found_by_fuzzing(conform, name):
    conform(CASES[name])
