"""What older lessons use, run in torch and in autograd_tutor: ``torch.autograd.Variable`` (the pre-0.4 wrapper, a
no-op), the legacy constructor ``torch.Tensor(...)`` and the typed ``torch.FloatTensor`` & co, and ``nn.Dropout2d`` (channel dropout): values, masks
after the same seed, gradients, graphs, warnings and errors compared."""
import pytest

pytest.importorskip("torch")

VARIABLE = {
    "wraps-and-detaches": """
        Variable = torch.autograd.Variable
        t = torch.ones(2)
        v = Variable(t)
        print(v, v.requires_grad, v.is_leaf, v is t)
        v.add_(1)
        print(t, t._version, v._version)
        x = Variable(torch.tensor([1., 2.]), requires_grad=True)
        y = (x * x).sum()
        y.backward()
        print(x, x.grad, y.grad_fn)
        z = Variable(x * 2)
        print(z, z.grad_fn, z.requires_grad)
        print(Variable(), Variable(data=torch.zeros(1), requires_grad=True))
        print(type(Variable(torch.nn.Parameter(torch.ones(1)))).__name__)
    """,
    "isinstance-every-tensor": """
        Variable = torch.autograd.Variable
        print(isinstance(torch.zeros(1), Variable), isinstance(3.0, Variable), issubclass(torch.Tensor, Variable))
        print(torch.autograd.Variable.__name__)
    """,
    "volatile-warns": """
        v = torch.autograd.Variable(torch.ones(1), volatile=True)
        print(v)
        print(torch.autograd.Variable(torch.ones(1), False, True))
    """,
    "errors": """
        Variable = torch.autograd.Variable
        with expect(): Variable([1., 2.])
        with expect(): Variable(3)
        with expect(): Variable(torch.ones(1), foo=1)
        with expect(): Variable(torch.ones(1), 1, 2, 3, 4, 5)
        with expect(): Variable(torch.ones(2, dtype=torch.long), requires_grad=True)
        print(Variable(torch.ones(2, dtype=torch.long)))
    """,
}

TYPED = {
    "data-shapes-and-empty": """
        print(torch.FloatTensor([[1, 2], [3, 4]]), torch.LongTensor([1.7, -1.7]), torch.FloatTensor([True, False]))
        print(torch.FloatTensor((2, 3)), torch.FloatTensor(), torch.LongTensor())
        print(torch.FloatTensor(2, 3).shape, torch.FloatTensor(torch.Size([4])).shape, torch.IntTensor(0))
        print(torch.DoubleTensor([1]).dtype, torch.HalfTensor([1]).dtype, torch.IntTensor([1]).dtype,
              torch.ShortTensor([1]).dtype, torch.CharTensor([1]).dtype, torch.ByteTensor([1]).dtype,
              torch.BoolTensor([1, 0]), torch.FloatTensor([1.], device="cpu"))
        print(torch.FloatTensor(torch.ones(2, 2).numpy()))
    """,
    "from-a-tensor-shares-data": """
        t = torch.tensor([1., 2.])
        a = torch.FloatTensor(t)
        a.add_(1)
        print(t, a is t, a.requires_grad)
    """,
    "isinstance-by-dtype": """
        t = torch.tensor([1., 2.])
        print(isinstance(t, torch.FloatTensor), isinstance(t, torch.LongTensor),
              isinstance(torch.nn.Parameter(t), torch.FloatTensor), isinstance(t.long(), torch.LongTensor))
        print(torch.FloatTensor, torch.LongTensor.__name__, torch.FloatTensor.dtype, torch.DoubleTensor.is_cuda)
        print(type(torch.FloatTensor([1.])).__name__)
    """,
    "errors": """
        with expect(): torch.FloatTensor(torch.tensor([1, 2]))
        with expect(): torch.LongTensor(torch.tensor([1., 2.]))
        with expect(): torch.FloatTensor(3.5)
        with expect(): torch.FloatTensor(2, "a")
        with expect(): torch.FloatTensor(-1)
        with expect(): torch.FloatTensor([1.], dtype=torch.float64)
        with expect(): torch.FloatTensor([1.], requires_grad=True)
    """,
}

TENSOR = {
    "data-shapes-and-empty": """
        print(torch.Tensor([[1, 2], [3, 4]]), torch.Tensor([True, False]), torch.Tensor((2, 3)))
        print(torch.Tensor(), torch.Tensor().shape, torch.Tensor(0), torch.Tensor(2, 0))
        print(torch.Tensor(2, 3).shape, torch.Tensor(torch.Size([4])).shape, torch.Tensor(2, device="cpu").dtype)
        print(torch.Tensor(torch.ones(2, 2).numpy()), torch.Tensor([1.5]).double().dtype)
        b = torch.Tensor(2, 3).fill_(0.5)
        print(b, b.is_leaf, b.requires_grad)
        print(isinstance(b, torch.Tensor), isinstance(b, torch.FloatTensor), type(b).__name__)
    """,
    "from-a-tensor-is-an-alias": """
        t = torch.tensor([1., 2.])
        a = torch.Tensor(t)
        a.add_(1)
        print(t, a is t, a.requires_grad, t._version)
        i = torch.Tensor(torch.tensor([1, 2]))
        print(i, i.dtype)
        x = torch.tensor([1., 2.], requires_grad=True)
        y = torch.Tensor(x)
        print(y, y.is_leaf, y._base is x)
        graph(y)
        (y * y).sum().backward()
        print(x.grad)
        z = torch.FloatTensor(x)
        print(z, z._base is x)
    """,
    "requires-grad-afterwards": """
        x = torch.Tensor([-4.0]).double()
        x.requires_grad = True
        y = (2 * x + 2).relu() * x
        y.backward()
        print(y, x.grad)
    """,
    "errors": """
        with expect(): torch.Tensor(3.5)
        with expect(): torch.Tensor(-1)
        with expect(): torch.Tensor(2, "a")
        with expect(): torch.Tensor(3.5, 2)
        with expect(): torch.Tensor([1.], dtype=torch.float64)
        with expect(): torch.Tensor(2, 3, requires_grad=True)
        with expect(): torch.Tensor(foo=1)
        with expect(): torch.Tensor(torch.ones(1), foo=1)
        with expect(): torch.Tensor(2, 3, 4, foo=1)
        with expect(): torch.Tensor([1], [2])
    """,
}

DROPOUT2D = {
    "channels-drop-together": """
        torch.manual_seed(0)
        m = torch.nn.Dropout2d(0.4)
        print(m)
        x = torch.arange(48.).reshape(2, 3, 2, 4).requires_grad_()
        y = m(x)
        print(y)
        graph(y)
        y.sum().backward()
        print(x.grad)
        m.eval()
        print(m(x) is x)
    """,
    "p-edges-and-inplace": """
        torch.manual_seed(1)
        x = torch.randn(2, 2, 3, 3)
        print(torch.nn.Dropout2d(0.0)(x) is x, torch.nn.Dropout2d(1.0)(x))
        y = x.clone()
        out = torch.nn.Dropout2d(0.5, inplace=True)(y)
        print(out is y, y)
        print(torch.nn.Dropout2d(0.25, inplace=True))
    """,
    "three-d-input-warns": """
        torch.manual_seed(2)
        print(torch.nn.Dropout2d()(torch.ones(2, 3, 4)))
    """,
    "other-ranks-warn": """
        torch.manual_seed(3)
        print(torch.nn.Dropout2d()(torch.ones(2, 3)))
        with expect(): torch.nn.Dropout2d()(torch.ones(3))
    """,
    "errors": """
        with expect(): torch.nn.Dropout2d(1.5)
        with expect(): torch.nn.Dropout2d(-0.1)
    """,
}


@pytest.mark.parametrize("name", VARIABLE)
def test_variable(conform, name):
    conform(VARIABLE[name])


@pytest.mark.parametrize("name", TYPED)
def test_typed_constructors(conform, name):
    conform(TYPED[name])


@pytest.mark.parametrize("name", TENSOR)
def test_tensor_constructor(conform, name):
    conform(TENSOR[name])


@pytest.mark.parametrize("name", DROPOUT2D)
def test_dropout2d(conform, name):
    conform(DROPOUT2D[name])
