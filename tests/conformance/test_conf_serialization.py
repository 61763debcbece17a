"""``torch.save`` / ``torch.load`` round trips: values, dtypes, ``requires_grad`` as torch keeps it, Parameters,
shared views, containers, a model's state_dict loaded into a fresh model, and the ``weights_only`` refusal.
(The files themselves differ: each library reads back only its own.)"""
import pytest

pytest.importorskip("torch")

CASES = {
    "tensors-and-containers": """
        import io, collections
        def round_trip(obj, **kw):
            buffer = io.BytesIO()
            torch.save(obj, buffer)
            buffer.seek(0)
            return torch.load(buffer, **kw)
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * 2
        y.sum().backward()
        for t in (x, y, x.grad, torch.tensor(3.5, dtype=torch.float64), torch.arange(6).reshape(2, 3).t(),
                  torch.tensor([True, False]), torch.tensor([0.1, 0.2], dtype=torch.float16), torch.zeros(0, 3)):
            u = round_trip(t)
            print(u, u.dtype, u.shape, u.requires_grad, u.is_leaf, u.grad_fn, u.grad, u.is_contiguous())
        p = round_trip(torch.nn.Parameter(torch.ones(2)))
        q = round_trip(torch.nn.Parameter(torch.ones(2), requires_grad=False))
        print(type(p).__name__, repr(p), repr(q))
        base = torch.arange(6.)
        a, b, c = round_trip([base, base[2:5], base.view(2, 3)[:, 1]])
        a[3] = -1.
        print(a, b, c)
        import copy
        same = copy.copy(base)  # a shallow copy shares the data, as in torch
        same[0] = 7.
        print(base, copy.deepcopy(base).add_(1), base)
        d = round_trip({"w": x, "n": 3, "s": "text", "f": 0.5, "t": (1, [2, torch.ones(1)]),
                        "od": collections.OrderedDict(k=torch.zeros(1)), "dt": torch.int32, "size": torch.Size([2])})
        print(d, type(d["od"]).__name__, d["w"] is x)
        x.register_hook(lambda g: g)
        print(round_trip(x))
    """,
    "state-dict-into-a-fresh-model": """
        import io, os, tempfile
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
        x = torch.randn(5, 3)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "model.pt")
            torch.save(model.state_dict(), path)
            state = torch.load(path, weights_only=True)
        print(type(state).__name__, list(state), state["0.bias"])
        fresh = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
        print(torch.equal(fresh(x), model(x)))
        print(fresh.load_state_dict(state))
        print(torch.equal(fresh(x), model(x)), fresh[0].weight.requires_grad, type(fresh[0].weight).__name__)
        state["2.bias"] += 1  # the loaded tensors are copies: the model's own weights are unchanged
        print(model[2].bias, fresh[2].bias)
        opt = torch.optim.SGD(fresh.parameters(), lr=0.1)
        loss = fresh(x).pow(2).mean()
        loss.backward()
        opt.step()
        print(round(loss.item(), 5), fresh[2].bias)
    """,
    "weights-only-refuses-other-classes": """
        import io, fractions
        def saved(obj):
            buffer = io.BytesIO()
            torch.save(obj, buffer)
            buffer.seek(0)
            return buffer
        with expect(): torch.load(saved({"x": fractions.Fraction(1, 3)}))
        with expect(): torch.load(saved([len]))
        with expect(): torch.load(saved(slice(1, 2)), weights_only=True)
        print(torch.load(saved({"x": fractions.Fraction(1, 3)}), weights_only=False))
        print(torch.load(saved({1, 2}), map_location="cpu"), torch.load(saved(1 + 2j), map_location=torch.device("cpu")))
        with expect(): torch.load(saved(1), pickle_module=__import__("pickle"), weights_only=True)
        with expect(): torch.load("no/such/file.pt")
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_serialization(conform, name):
    conform(CASES[name])
