"""``torch.utils.data``: after the same seed, the same batches in the same order, epoch after epoch (and the
same random numbers after them), the same collated structures, splits, errors, and a training loop over a
DataLoader that prints torch's losses."""
import pytest

pytest.importorskip("torch")

CASES = {
    "shuffled-batches-follow-torchs-generator": """
        data = torch.utils.data
        torch.manual_seed(0)
        ds = data.TensorDataset(torch.arange(10.).reshape(10, 1), torch.arange(10))
        loader = data.DataLoader(ds, batch_size=3, shuffle=True)
        print(len(loader), type(iter(loader)).__name__, len(iter(loader)))
        for epoch in range(3):
            print(epoch, [y.tolist() for x, y in loader])
        print(torch.rand(2))  # each epoch drew from the default generator exactly as torch's did
        dropped = data.DataLoader(ds, batch_size=4, shuffle=True, drop_last=True)
        print(len(dropped), [y.tolist() for _, y in dropped])
        plain = data.DataLoader(ds, batch_size=4)
        print(len(plain), [y.tolist() for _, y in plain], torch.rand(1))  # even without shuffling
        g = torch.Generator().manual_seed(7)
        own = data.DataLoader(ds, batch_size=5, shuffle=True, generator=g)
        print([y.tolist() for _, y in own], [y.tolist() for _, y in own], torch.rand(1))
        it = iter(data.DataLoader(ds, batch_size=4, shuffle=True))
        print(torch.rand(1))  # the sampler's seed is drawn at the first batch, after this
        print([y.tolist() for _, y in it])
        x, y = next(iter(data.DataLoader(ds, batch_size=2, pin_memory=True, num_workers=0)))
        print(x, y)
        print(list(data.DataLoader([3, 1, 4, 1, 5], batch_size=None, shuffle=True)))  # samples, uncollated
        print(list(data.DataLoader(data.TensorDataset(torch.zeros(2), torch.ones(2)), batch_size=None)))
        print(list(data.DataLoader([(1, 2.0), {'a': np.ones(2)}], batch_size=None)), data.default_convert((3,)))
    """,
    "samplers": """
        data = torch.utils.data
        torch.manual_seed(1)
        print(list(data.SequentialSampler(range(4))), list(data.RandomSampler(range(6))))
        r = data.RandomSampler(range(5), replacement=True, num_samples=40)
        print(len(r), list(r))
        print(list(data.RandomSampler(range(4), num_samples=10)))
        print(list(data.BatchSampler(data.SequentialSampler(range(7)), 3, True)))
        print(len(data.BatchSampler(range(7), 3, False)), len(data.BatchSampler(range(7), 3, True)))
        batches = data.BatchSampler(data.RandomSampler(range(6)), 4, False)
        print([ds_batch for ds_batch in data.DataLoader(range(10, 16), batch_sampler=batches)])
        with expect(): data.BatchSampler(range(3), 0, False)
        with expect(): data.BatchSampler(range(3), 2, 1)
        with expect(): data.RandomSampler(range(3), replacement=1)
        with expect(): data.RandomSampler([], num_samples=None)
        with expect(): data.DataLoader(range(3), sampler=data.SequentialSampler(range(3)), shuffle=True)
        with expect(): data.DataLoader(range(3), batch_sampler=batches, batch_size=2)
        with expect(): data.DataLoader(range(3), batch_size=None, drop_last=True)
        with expect(): data.DataLoader(range(3), num_workers=-1)
    """,
    "default-collate-structures": """
        import collections
        data = torch.utils.data
        collate = data.default_collate
        print(collate([torch.tensor([1., 2.]), torch.tensor([3., 4.])]))
        print(collate([1, 2, 3]), collate([0.5, 1.5]), collate([True, False]), collate(["a", "b"]))
        print(collate([(torch.tensor(1.), 2), (torch.tensor(3.), 4)]))
        print(collate([{"x": torch.ones(2), "y": 1}, {"x": torch.zeros(2), "y": 2}]))
        print(collate([[1, 2.5], [3, 4.5]]), collate([("a", 1), ("b", 2)]))
        Point = collections.namedtuple("Point", "x y")
        print(collate([Point(1, torch.tensor(2.)), Point(3, torch.tensor(4.))]))
        print(collate([np.array([1., 2.]), np.array([3., 4.])]), collate([np.float32(1.5), np.float32(2.5)]))
        print(collate([np.int64(1), np.int64(2)]))
        w = torch.tensor([1., 2.], requires_grad=True)
        print(collate([w, w * 2]))
        with expect(): collate([[1, 2], [3]])
        with expect(): collate([object(), object()])
        with expect(): collate([np.array(["a"]), np.array(["b"])])
    """,
    "datasets-subsets-and-random-split": """
        data = torch.utils.data
        class Squares(data.Dataset):
            def __len__(self):
                return 7
            def __getitem__(self, i):
                return torch.tensor(float(i)), i * i
        ds = Squares()
        print(type(ds).__mro__[1], data.TensorDataset, data.Subset)
        torch.manual_seed(0)
        a, b = data.random_split(ds, [5, 2])
        print(a.indices, b.indices, len(a), a[0], b[[0, 1]] if False else b[1])
        a, b, c = data.random_split(range(10), [0.3, 0.3, 0.4], generator=torch.Generator().manual_seed(42))
        print(a.indices, b.indices, c.indices, list(c))
        print([s.indices for s in data.random_split(range(5), [0.5, 0.5])])
        print([s.indices for s in data.random_split(range(2), [0.1, 0.9])])
        print([s.indices for s in data.random_split(range(2), [0.2, 0.2, 0.6])])  # warns: an empty split
        with expect(): data.random_split(range(5), [2, 2])
        with expect(): data.random_split(range(5), [1.5, -0.5])
        sub = data.Subset(data.TensorDataset(torch.arange(6.)), [5, 0, 3])
        print(len(sub), sub[0], sub[[0, 2]], sub.dataset.tensors[0] is sub.dataset.tensors[0])
        print([x.tolist() for x, in data.DataLoader(sub, batch_size=2)])
        td = data.TensorDataset(torch.arange(6.).reshape(3, 2), torch.tensor([1, 0, 1]))
        print(len(td), td[1], td[1:])
        with expect(): data.TensorDataset(torch.ones(3), torch.ones(2))
        with expect(): data.Dataset()[0]
    """,
    "training-loop-over-a-dataloader": """
        data = torch.utils.data
        torch.manual_seed(0)
        x = torch.randn(40, 3)
        y = x @ torch.tensor([[1.], [-2.], [0.5]]) + 0.1 * torch.randn(40, 1)
        train, test = data.random_split(data.TensorDataset(x, y), [0.8, 0.2])
        loader = data.DataLoader(train, batch_size=8, shuffle=True)
        model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Dropout(0.1),
                                    torch.nn.Linear(8, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loss_fn = torch.nn.MSELoss()
        for epoch in range(4):
            model.train()
            losses = []
            for xb, yb in loader:
                opt.zero_grad()
                loss = loss_fn(model(xb), yb)
                loss.backward()
                opt.step()
                losses.append(round(loss.item(), 4))
            model.eval()
            with torch.no_grad():
                xt, yt = next(iter(data.DataLoader(test, batch_size=len(test))))
                print(epoch, losses, round(loss_fn(model(xt), yt).item(), 4))
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_data(conform, name):
    conform(CASES[name])
