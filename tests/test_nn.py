"""nn without torch: Parameter, Module bookkeeping, layers, losses, init; gradients against central differences.

The comparisons with torch itself live in ``tests/conformance_nn``."""
import collections
import copy
import math
import pickle
import warnings

import numpy as np
import pytest

import autograd_tutor as torch
from autograd_tutor import events, nn
from autograd_tutor.nn import functional as F

RNG = np.random.default_rng(0)


def leaf(shape, scale=1.0, dtype=np.float64):
    return torch.tensor((RNG.standard_normal(shape) * scale).astype(dtype), requires_grad=True)


def numeric_grad(f, t: torch.Tensor, eps=1e-6) -> np.ndarray:
    """Central differences of the scalar ``f()`` with respect to each entry of ``t`` (changed in place)."""
    grad = np.zeros_like(t._data)
    for i in np.ndindex(t._data.shape):
        old = t._data[i]
        t._data[i] = old + eps
        up = f().item()
        t._data[i] = old - eps
        down = f().item()
        t._data[i] = old
        grad[i] = (up - down) / (2 * eps)
    return grad


def check_grads(f, *tensors):
    """The analytic gradients of ``f()`` (a scalar) match central differences for every tensor given."""
    for t in tensors:
        t.grad = None
    f().backward()
    for t in tensors:
        np.testing.assert_allclose(t.grad._data, numeric_grad(f, t), rtol=1e-5, atol=1e-7)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 3), nn.Tanh())
        self.head = nn.Linear(3, 1)
        self.scale = nn.Parameter(torch.tensor([2.]))
        self.register_buffer("seen", torch.zeros(1))
        self.register_buffer("scratch", torch.zeros(1), persistent=False)

    def forward(self, x):
        return self.head(self.body(x)) * self.scale


# ---------------------------------------------------------------- Parameter

def test_parameter_is_a_leaf_tensor_that_prints_its_kind():
    p = nn.Parameter(torch.tensor([1., 2.]))
    assert repr(p) == str(p) == f"{p}" == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    assert isinstance(p, torch.Tensor) and type(p).__name__ == "Parameter"
    assert p.is_leaf and p.requires_grad and p.grad_fn is None
    q = nn.Parameter(torch.tensor(3.), requires_grad=False)
    assert repr(q) == "Parameter containing:\ntensor(3.)" and not q.requires_grad
    assert repr(nn.Parameter()) == "Parameter containing:\ntensor([], requires_grad=True)"


def test_what_is_computed_from_a_parameter_is_a_plain_tensor():
    p = nn.Parameter(torch.tensor([1., 2.]))
    for t in (p * 2, p.detach(), p.data, p[0], p.clone()):
        assert type(t) is torch.Tensor
    (p * 2).sum().backward()
    assert p.grad.tolist() == [2., 2.]
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        p.add_(1)


def test_parameter_shares_data_and_version_with_the_tensor_it_wraps():
    t = torch.tensor([1., 2.])
    p = nn.Parameter(t)
    with torch.no_grad():
        p.add_(1)
    assert t.tolist() == [2., 3.] and t._version == p._version == 1
    made = nn.Parameter(torch.ones(2, requires_grad=True) * 2)
    assert made.is_leaf and made.requires_grad
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        nn.Parameter(torch.tensor([1, 2]))
    assert nn.Parameter(torch.tensor([1, 2]), requires_grad=False).dtype == torch.int64


def test_parameter_survives_deepcopy_and_pickle():
    p = nn.Parameter(torch.tensor([1., 2.]))
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is nn.Parameter and q.requires_grad and q.tolist() == [1., 2.]
        assert q._data is not p._data


def test_making_a_parameter_is_announced_as_a_leaf():
    with events.record(kinds=["tensor_created"]) as trace:
        p = nn.Parameter(torch.zeros(2, 3))
    created = [e for e in trace if e.tensor_id == p._id]
    assert len(created) == 1 and created[0].is_leaf and created[0].requires_grad and created[0].shape == (2, 3)


# ---------------------------------------------------------------- Module bookkeeping

def test_attributes_register_parameters_buffers_and_children_with_dotted_names():
    net = TinyNet()
    assert [n for n, _ in net.named_parameters()] == ["scale", "body.0.weight", "body.0.bias", "head.weight",
                                                      "head.bias"]
    assert [n for n, _ in net.named_parameters(prefix="m", recurse=False)] == ["m.scale"]
    assert [n for n, _ in net.named_modules()] == ["", "body", "body.0", "body.1", "head"]
    assert [n for n, _ in net.named_children()] == ["body", "head"]
    assert [n for n, _ in net.named_buffers()] == ["seen", "scratch"]
    assert list(net.state_dict()) == ["scale", "seen", "body.0.weight", "body.0.bias", "head.weight", "head.bias"]
    assert net.head is net._modules["head"] and net.scale is net._parameters["scale"]
    assert {"scale", "seen", "body", "head"} <= set(dir(net))
    with pytest.raises(AttributeError, match="'TinyNet' object has no attribute 'tail'"):
        net.tail


def test_reassigning_and_deleting_registered_attributes():
    net = TinyNet()
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter 'scale' \(torch.nn.Parameter "
                                        r"or None expected\)"):
        net.scale = torch.ones(1)
    with pytest.raises(TypeError, match="cannot assign 'int' as child module 'head'"):
        net.head = 3
    with pytest.raises(TypeError, match="cannot assign 'str' as buffer 'seen'"):
        net.seen = "x"
    net.scale = None
    net.seen = torch.ones(1)
    assert "scale" not in [n for n, _ in net.named_parameters()] and net.state_dict()["seen"].item() == 1
    net.extra = nn.Parameter(torch.zeros(1))
    del net.body
    assert [n for n, _ in net.named_parameters()] == ["extra", "head.weight", "head.bias"]
    net.head = nn.ReLU()
    net.plain = 3
    assert net.plain == 3 and "plain" not in net._parameters


def test_registration_errors_use_torchs_words():
    m = nn.Module()
    with pytest.raises(KeyError, match='contain "."'):
        m.register_parameter("a.b", None)
    with pytest.raises(KeyError, match="attribute 'training' already exists"):
        m.register_parameter("training", None)
    with pytest.raises(TypeError, match=r"\(torch.nn.Parameter or None required\)"):
        m.register_parameter("w", torch.zeros(1))
    with pytest.raises(KeyError, match='contain ".", got: a.b'):
        m.add_module("a.b", nn.ReLU())
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        m.add_module("x", 3)

    class Forgot(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(torch.zeros(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__\(\) call"):
        Forgot()
    with pytest.raises(NotImplementedError, match='Module \\[Module\\] is missing the required "forward" function'):
        m(1)


def test_a_shared_module_is_listed_once_but_saved_under_each_name():
    shared = nn.Linear(1, 1)
    seq = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(seq.parameters())) == 2 and len(list(seq.modules())) == 3
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias"]
    assert list(seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_repr_prints_the_tree_like_torch():
    assert repr(TinyNet()) == (
        "TinyNet(\n"
        "  (body): Sequential(\n"
        "    (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "    (1): Tanh()\n"
        "  )\n"
        "  (head): Linear(in_features=3, out_features=1, bias=True)\n"
        ")")

    class TwoLines(nn.Module):
        def extra_repr(self):
            return "a=1\nb=2"

    assert repr(TwoLines()) == "TwoLines(\n  a=1\n  b=2\n)"
    assert repr(nn.Sequential()) == "Sequential()"
    assert [repr(m) for m in (nn.ReLU(inplace=True), nn.Softmax(), nn.LogSoftmax(1), nn.Flatten(), nn.Identity(4),
                              nn.Linear(3, 2, bias=False), nn.CrossEntropyLoss(reduction="sum"))] == [
        "ReLU(inplace=True)", "Softmax(dim=None)", "LogSoftmax(dim=1)", "Flatten(start_dim=1, end_dim=-1)",
        "Identity()", "Linear(in_features=3, out_features=2, bias=False)", "CrossEntropyLoss()"]


def test_train_eval_and_requires_grad_reach_every_module():
    net = TinyNet()
    assert net.eval() is net and not any(m.training for m in net.modules())
    assert net.train() is net and all(m.training for m in net.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("no")
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters()) and not net(torch.ones(1, 2)).requires_grad
    visited = []
    assert net.apply(lambda m: visited.append(type(m).__name__)) is net
    assert visited == ["Linear", "Tanh", "Sequential", "Linear", "TinyNet"]


def test_zero_grad_sets_gradients_to_none_or_to_zeros():
    net = TinyNet()
    assert all(p.grad is None for p in net.parameters())
    net(torch.ones(4, 2)).sum().backward()
    first = net.head.bias.grad.item()
    net(torch.ones(4, 2)).sum().backward()
    assert net.head.bias.grad.item() == pytest.approx(2 * first)  # gradients accumulate until reset
    net.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad._data.any() for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_to_converts_floating_parameters_buffers_and_grads():
    net = TinyNet()
    net(torch.ones(1, 2)).sum().backward()
    assert net.to("cpu") is net and net.cpu() is net
    net.double()
    assert {p.dtype for p in net.parameters()} == {torch.float64} and net.seen.dtype == torch.float64
    assert net.head.weight.grad.dtype == torch.float64 and type(net.head.weight) is nn.Parameter
    assert net(torch.ones(1, 2, dtype=torch.float64)).dtype == torch.float64
    assert net.float().head.bias.dtype == torch.float32


def test_state_dict_is_detached_and_load_state_dict_copies_in_place():
    net, other = TinyNet(), TinyNet()
    state = net.state_dict()
    assert all(type(t) is torch.Tensor and not t.requires_grad for t in state.values())
    assert state["head.weight"]._data is net.head.weight._data  # shares memory, as in torch
    assert net.state_dict(keep_vars=True)["head.weight"] is net.head.weight
    weight, version = other.head.weight, other.head.weight._version
    assert repr(other.load_state_dict(state)) == "<All keys matched successfully>"
    assert other.head.weight is weight and weight._version == version + 1
    assert np.array_equal(weight._data, net.head.weight._data) and weight._data is not net.head.weight._data


def test_load_state_dict_reports_what_does_not_fit():
    net = TinyNet()
    state = net.state_dict()
    del state["head.bias"]
    state["body.0.weight"] = torch.zeros(5, 2)
    state["bogus"] = torch.zeros(1)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(state)
    assert str(info.value) == (
        'Error(s) in loading state_dict for TinyNet:\n\tMissing key(s) in state_dict: "head.bias". \n\t'
        'Unexpected key(s) in state_dict: "bogus". \n\tsize mismatch for body.0.weight: copying a param with shape '
        "torch.Size([5, 2]) from checkpoint, the shape in current model is torch.Size([3, 2]).")
    del state["body.0.weight"]
    result = net.load_state_dict(state, strict=False)
    assert result.missing_keys == ["body.0.weight", "head.bias"] and result.unexpected_keys == ["bogus"]
    assert repr(result) == "_IncompatibleKeys(missing_keys=['body.0.weight', 'head.bias'], unexpected_keys=['bogus'])"


def test_load_state_dict_with_assign_replaces_the_parameters():
    net = nn.Linear(2, 1)
    new = {"weight": torch.ones(1, 2), "bias": torch.zeros(1)}
    net.load_state_dict(new, assign=True)
    assert type(net.weight) is nn.Parameter and net.weight.requires_grad and net.weight.tolist() == [[1., 1.]]


def test_sequential_indexing_and_editing():
    seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Tanh())
    assert isinstance(seq[-1], nn.Tanh) and len(seq) == 3 and [type(m) for m in seq][1] is nn.ReLU
    assert repr(seq[1:]) == "Sequential(\n  (1): ReLU()\n  (2): Tanh()\n)"  # a slice keeps the names
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    seq[1] = nn.Sigmoid()
    del seq[0]
    assert [n for n, _ in seq.named_children()] == ["0", "1"] and isinstance(seq[0], nn.Sigmoid)
    assert seq.append(nn.Identity()) is seq and len(seq) == 3
    x = torch.tensor([[-1., 2.]])
    assert torch.allclose(seq(x), x.sigmoid().tanh())
    named = nn.Sequential(collections.OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())]))
    assert [n for n, _ in named.named_parameters()] == ["fc.weight", "fc.bias"] and isinstance(named.act, nn.ReLU)


# ---------------------------------------------------------------- Linear and init

def test_linear_starts_uniform_within_one_over_sqrt_fan_in():
    torch.manual_seed(0)
    layer = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    for p in (layer.weight, layer.bias):
        assert type(p) is nn.Parameter and p.dtype == torch.float32
        assert np.abs(p._data).max() <= bound and np.abs(p._data).max() > 0.95 * bound
    assert abs(layer.weight._data.std() - bound / math.sqrt(3)) < 0.01 * bound  # std of U(-b, b) is b / sqrt(3)
    torch.manual_seed(0)
    assert np.array_equal(nn.Linear(400, 300).weight._data, layer.weight._data)
    assert nn.Linear(3, 2, bias=False).bias is None
    assert nn.Linear(3, 2, dtype=torch.float64).weight.dtype == torch.float64


def test_linear_computes_x_wt_plus_b_with_torchs_graph_nodes():
    layer = nn.Linear(3, 2)
    w, b = layer.weight._data, layer.bias._data
    cases = {(4, 3): "AddmmBackward0", (3,): "ViewBackward0", (2, 4, 3): "ViewBackward0"}
    for shape, name in cases.items():
        x = torch.tensor(RNG.standard_normal(shape).astype(np.float32))
        y = layer(x)
        assert y.grad_fn.name() == name and y.shape == (*shape[:-1], 2)
        np.testing.assert_allclose(y._data, x._data @ w.T + b, rtol=1e-6, atol=1e-6)  # another order of sums
    x = torch.tensor(RNG.standard_normal((4, 2, 3)).astype(np.float32)).transpose(0, 1)  # not contiguous
    assert layer(x).grad_fn.name() == "AddBackward0"
    nobias = nn.Linear(3, 2, bias=False)
    assert [nobias(torch.ones(*s)).grad_fn.name() for s in ((4, 3), (3,), (2, 4, 3))] == [
        "MmBackward0", "SqueezeBackward4", "UnsafeViewBackward0"]


def test_addmm_saves_what_its_backward_needs():
    layer = nn.Linear(3, 2)
    node = layer(torch.ones(4, 3)).grad_fn
    assert node.next_functions[1] == (None, 0) and node.next_functions[2][0].name() == "TBackward0"
    assert (node._saved_alpha, node._saved_beta, node._saved_mat1_sym_sizes, node._saved_mat2_sym_sizes) == (
        1, 1, (4, 3), (3, 2))
    assert node._saved_mat2 is None and node._saved_mat1_sym_strides == () and node._saved_mat2_sym_strides == (1, 3)
    assert node._saved_mat1.shape == (4, 3)
    node = layer(torch.ones(4, 3, requires_grad=True)).grad_fn
    assert node._saved_mat2.shape == (3, 2) and node._saved_mat1_sym_strides == (3, 1)


def test_linear_errors_use_torchs_words():
    layer = nn.Linear(3, 2)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(4x2 and 3x2\)"):
        layer(torch.ones(4, 2))
    with pytest.raises(RuntimeError, match="both arguments to linear need to be at least 1D, but they are 0D and 2D"):
        layer(torch.tensor(1.))
    with pytest.raises(RuntimeError, match="mat1 and mat2 must have the same dtype, but got Double and Float"):
        layer(torch.ones(4, 3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: double != float"):
        nn.Linear(3, 2, bias=False)(torch.ones(4, 3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"The expanded size of the tensor \(2\) must match the existing size \(3\)"):
        F.linear(torch.ones(4, 3), torch.ones(2, 3), torch.ones(3))


def test_linear_gradients_match_central_differences():
    x, w, b = leaf((5, 3)), leaf((2, 3)), leaf((2,))
    check_grads(lambda: (F.linear(x, w, b) ** 2).sum(), x, w, b)
    v = leaf((3,))
    check_grads(lambda: F.linear(v, w, b).tanh().sum(), v, w, b)
    t = leaf((2, 2, 3))
    check_grads(lambda: (F.linear(t, w, b) * F.linear(t, w, b)).sum(), t, w, b)


def test_linear_twice_differentiable():
    x, w, b = leaf((4, 3)), leaf((2, 3)), leaf((2,))
    (gx,) = torch.autograd.grad((F.linear(x, w, b) ** 2).sum(), x, create_graph=True)

    def first_derivative_sum():
        (g,) = torch.autograd.grad((F.linear(x, w, b) ** 2).sum(), x, create_graph=True)
        return g.sum()

    gx.sum().backward()
    np.testing.assert_allclose(w.grad._data, numeric_grad(first_derivative_sum, w), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(b.grad._data, numeric_grad(first_derivative_sum, b), rtol=1e-5, atol=1e-7)


def test_init_functions_fill_in_place_with_the_right_spread():
    torch.manual_seed(1)
    w = torch.empty(200, 100)
    assert nn.init.kaiming_uniform_(w, a=math.sqrt(5)) is w and w._version == 1
    assert np.abs(w._data).max() <= 1 / 10
    nn.init.kaiming_uniform_(w, nonlinearity="relu", mode="fan_out")
    assert np.abs(w._data).max() <= math.sqrt(6 / 200)
    nn.init.xavier_uniform_(w)
    assert np.abs(w._data).max() <= math.sqrt(6 / 300)
    nn.init.kaiming_normal_(w, nonlinearity="relu")
    assert abs(w._data.std() - math.sqrt(2 / 100)) < 0.01
    nn.init.xavier_normal_(w, gain=2.)
    assert abs(w._data.std() - 2 * math.sqrt(2 / 300)) < 0.01
    assert nn.init.normal_(w, 3., 0.5)._data.mean() == pytest.approx(3., abs=0.02)
    assert nn.init.uniform_(w, 2., 3.)._data.min() >= 2.
    assert nn.init.constant_(w, 0.25)._data.max() == 0.25 and not nn.init.zeros_(w)._data.any()
    assert nn.init.ones_(w)._data.min() == 1 and w._version == 10
    with torch.no_grad():
        p = nn.Parameter(torch.empty(2, 2))
    assert nn.init.ones_(p).requires_grad and p.grad_fn is None


def test_init_gains_and_errors():
    gain = nn.init.calculate_gain
    assert (gain("linear"), gain("sigmoid"), gain("tanh"), gain("relu"), gain("selu")) == (
        1, 1, 5 / 3, math.sqrt(2), 3 / 4)
    assert gain("leaky_relu") == math.sqrt(2 / (1 + 0.01 ** 2)) and gain("leaky_relu", math.sqrt(5)) == math.sqrt(1 / 3)
    with pytest.raises(ValueError, match="Unsupported nonlinearity gelu"):
        gain("gelu")
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed for tensor with fewer than 2 dim"):
        nn.init.xavier_uniform_(torch.empty(3))
    with pytest.raises(ValueError, match=r"Mode fan_avg not supported, please use one of \['fan_in', 'fan_out'\]"):
        nn.init.kaiming_uniform_(torch.empty(3, 3), mode="fan_avg")
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        nn.init.kaiming_uniform_(torch.empty(0, 3))


# ---------------------------------------------------------------- activations

def test_activation_modules_and_functions():
    x = torch.tensor([[-1., 0., 2.], [3., -4., 0.5]], requires_grad=True)
    d = x._data
    expected = {nn.ReLU(): np.maximum(d, 0), nn.Tanh(): np.tanh(d), nn.Sigmoid(): 1 / (1 + np.exp(-d)),
                nn.Softmax(dim=1): np.exp(d) / np.exp(d).sum(1, keepdims=True), nn.Identity(): d,
                nn.LogSoftmax(dim=0): d - np.log(np.exp(d).sum(0, keepdims=True)), nn.Flatten(0): d.reshape(-1)}
    for module, want in expected.items():
        np.testing.assert_allclose(module(x)._data, want, rtol=1e-5)
    assert [f(x).grad_fn.name() for f in (F.relu, F.tanh, F.sigmoid, lambda t: F.softmax(t, 1),
                                          lambda t: F.log_softmax(t, 1))] == [
        "ReluBackward0", "TanhBackward0", "SigmoidBackward0", "SoftmaxBackward0", "LogSoftmaxBackward0"]
    assert F.softmax(x, 1, dtype=torch.float64).dtype == torch.float64


def test_softmax_without_dim_warns_and_picks_torchs_default():
    x = torch.tensor([[1., 2.], [3., 5.]])
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
        y = nn.Softmax()(x)
    assert torch.allclose(y, F.softmax(x, 1))
    with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
        assert torch.allclose(F.log_softmax(x[0]), F.log_softmax(x[0], 0))


def test_relu_in_place_overwrites_its_input_and_keeps_the_graph():
    x = torch.tensor([-1., 2.], requires_grad=True)
    h = x * 1
    out = nn.ReLU(inplace=True)(h)
    assert out is h and h.tolist() == [0., 2.] and h.grad_fn.name() == "ReluBackward0"
    out.sum().backward()
    assert x.grad.tolist() == [0., 1.]
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        F.relu(x, inplace=True)


# ---------------------------------------------------------------- losses

def test_mse_loss_values_and_reductions():
    x, y = torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 0.], [0., 4.]])
    assert F.mse_loss(x, y).item() == pytest.approx(13 / 4)
    assert F.mse_loss(x, y, reduction="sum").item() == 13
    assert F.mse_loss(x, y, reduction="none").tolist() == [[0., 4.], [9., 0.]]
    assert nn.MSELoss(reduction="sum")(x, y).item() == 13
    weight = torch.tensor([[1., 0.], [0.5, 1.]])
    assert F.mse_loss(x, y, weight=weight).item() == pytest.approx(4.5 / 2.5)
    with pytest.raises(ValueError, match="bad is not a valid value for reduction"):
        F.mse_loss(x, y, reduction="bad")
    with pytest.raises(ValueError, match="Weights and input must have the same size."):
        F.mse_loss(x, y, weight=torch.ones(2))


def test_mse_loss_node_and_gradients():
    x, t = leaf((3, 2)), leaf((3, 2))
    loss = F.mse_loss(x, t)
    assert loss.grad_fn.name() == "MseLossBackward0" and loss.grad_fn._saved_reduction == 1
    assert loss.grad_fn._saved_self is x and loss.grad_fn._saved_target is t
    for reduction in ("mean", "sum", "none"):
        check_grads(lambda: (F.mse_loss(x, t, reduction=reduction) * torch.tensor(2.)).sum(), x, t)
    (g,) = torch.autograd.grad(F.mse_loss(x, t), x, create_graph=True)
    (gg,) = torch.autograd.grad((g * g).sum(), t)
    np.testing.assert_allclose(gg._data, -2 * (2 / 6) ** 2 * (x._data - t._data), rtol=1e-6)  # d/dt sum(g^2)


def test_mse_loss_warns_when_shapes_differ_then_broadcasts():
    x = torch.zeros(4, 1, requires_grad=True)
    with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[4\]\)\) that is different to the "
                                         r"input size \(torch.Size\(\[4, 1\]\)\)"):
        loss = F.mse_loss(x, torch.arange(4.))
    assert loss.item() == pytest.approx(np.mean(np.arange(4.) ** 2))  # 4 x 4 pairs, not 4
    assert loss.grad_fn.next_functions[0][0].name() == "ExpandBackward0"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="The size of tensor a \\(3\\) must match the size of tensor b \\(4\\)"):
            F.mse_loss(torch.zeros(4, 3), torch.zeros(4))


def test_legacy_reduction_flags_warn_and_translate():
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated, please use "
                                         "reduction='sum' instead."):
        assert nn.MSELoss(size_average=False).reduction == "sum"
    with pytest.warns(UserWarning, match="reduction='none'"):
        assert F.mse_loss(torch.ones(2), torch.zeros(2), reduce=False).tolist() == [1., 1.]


def test_cross_entropy_is_log_softmax_then_nll():
    logits = torch.tensor([[2., 0., 0.], [0., 1., 3.]], requires_grad=True)
    target = torch.tensor([0, 1])
    loss = F.cross_entropy(logits, target)
    logp = logits._data - np.log(np.exp(logits._data).sum(1, keepdims=True))
    assert loss.item() == pytest.approx(-(logp[0, 0] + logp[1, 1]) / 2, rel=1e-6)
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert [n.name() for n, _ in loss.grad_fn.next_functions] == ["LogSoftmaxBackward0"]
    node = loss.grad_fn
    assert node._saved_ignore_index == 2 ** 64 - 100 and node._saved_reduction == 1 and node._saved_weight is None
    assert node._saved_target is target and node._saved_total_weight.item() == 2
    loss.backward()
    softmax = np.exp(logp)
    np.testing.assert_allclose(logits.grad._data, (softmax - np.eye(3)[[0, 1]]) / 2, rtol=1e-6)
    assert torch.allclose(nn.CrossEntropyLoss()(logits, target), loss)
    assert F.nll_loss(logits.log_softmax(1), target).item() == pytest.approx(loss.item())


def test_cross_entropy_gradients_for_every_option():
    logits = leaf((5, 4))
    target = torch.tensor([0, 3, 1, 1, 2])
    weight = torch.tensor([1., 2., 0.5, 3.], dtype=torch.float64)
    probs = torch.tensor(RNG.dirichlet(np.ones(4), 5))
    options = [{}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": weight}, {"ignore_index": 1},
               {"weight": weight, "ignore_index": 3, "reduction": "sum"}, {"label_smoothing": 0.2},
               {"label_smoothing": 0.1, "weight": weight, "ignore_index": 0}]
    for kwargs in options:
        check_grads(lambda: F.cross_entropy(logits, target, **kwargs).sum(), logits)
    for kwargs in ({}, {"reduction": "none"}, {"weight": weight, "label_smoothing": 0.3}):
        check_grads(lambda: F.cross_entropy(logits, probs, **kwargs).sum(), logits)
    single = leaf((4,))
    check_grads(lambda: F.cross_entropy(single, torch.tensor(2)), single)


def test_cross_entropy_nodes_for_smoothing_and_probabilities():
    logits = leaf((3, 4))
    target = torch.tensor([0, 1, 2])
    smooth = F.cross_entropy(logits, target, label_smoothing=0.1)
    assert smooth.grad_fn.name() == "AddBackward0"
    assert [n.name() for n, _ in smooth.grad_fn.next_functions] == ["MulBackward1", "MulBackward1"]
    assert smooth.grad_fn.next_functions[0][0]._saved_other == pytest.approx(0.9)
    probs = F.softmax(leaf((3, 4)).detach(), 1)
    assert F.cross_entropy(logits, probs).grad_fn.name() == "DivBackward1"
    assert F.cross_entropy(logits, probs).grad_fn._saved_other == 3
    assert F.cross_entropy(logits, probs, reduction="sum").grad_fn.name() == "NegBackward0"
    manual = -(F.log_softmax(logits, 1) * probs).sum() / 3
    assert F.cross_entropy(logits, probs).item() == pytest.approx(manual.item())


def test_nll_loss_weights_and_ignored_targets():
    logp = torch.tensor([[-0.5, -1.0, -2.0], [-2.0, -0.1, -3.0], [-1.0, -1.0, -1.5]], requires_grad=True)
    target = torch.tensor([0, 1, 2])
    weight = torch.tensor([1., 2., 4.])
    loss = F.nll_loss(logp, target, weight=weight)
    assert loss.item() == pytest.approx((0.5 * 1 + 0.1 * 2 + 1.5 * 4) / 7)
    assert loss.grad_fn._saved_total_weight.item() == 7
    loss.backward()
    np.testing.assert_allclose(logp.grad._data, -np.diag([1., 2., 4.]) / 7)
    assert F.nll_loss(logp, target, ignore_index=1).item() == pytest.approx((0.5 + 1.5) / 2)
    assert F.nll_loss(logp, target, reduction="none").tolist() == pytest.approx([0.5, 0.1, 1.5])
    assert math.isnan(F.nll_loss(logp, torch.full((3,), -100)).item())  # nothing left to average
    assert F.nll_loss(logp, target.to(torch.uint8)).item() == pytest.approx(0.7)
    assert nn.NLLLoss(weight=weight)(logp, target).item() == pytest.approx(loss.item())
    assert list(nn.NLLLoss(weight=weight).state_dict()) == ["weight"] and not nn.NLLLoss().state_dict()


def test_loss_errors_use_torchs_words():
    x = torch.zeros(4, 3)
    cases = [
        (lambda: F.cross_entropy(x, torch.tensor([0, 1, 2])), ValueError,
         r"Expected input batch_size \(4\) to match target batch_size \(3\)\."),
        (lambda: F.cross_entropy(x, torch.tensor([0, 1, 2, 3])), IndexError, "Target 3 is out of bounds."),
        (lambda: F.cross_entropy(x, torch.tensor([0., 1, 2, 1])), RuntimeError,
         "expected target dtype to be Long or Byte, but got Float"),
        (lambda: F.cross_entropy(x, torch.zeros(4, 3, dtype=torch.int64)), RuntimeError,
         "Expected floating point type for target with class probabilities, got Long"),
        (lambda: F.cross_entropy(x, torch.tensor([0, 1, 2, 1]), label_smoothing=2.), RuntimeError,
         "label_smoothing must be between 0.0 and 1.0. Got: 2.0"),
        (lambda: F.cross_entropy(x[0], torch.tensor([1, 2])), ValueError,
         "For 1D input, 1D target must have size 1, but got target size: 2"),
        (lambda: F.nll_loss(x, torch.zeros(4, 3, dtype=torch.int64)), RuntimeError,
         "0D or 1D target tensor expected, multi-target not supported"),
        (lambda: F.nll_loss(x, torch.tensor([0, 1, 2, 1]), weight=torch.ones(2)), RuntimeError,
         r"weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: "
         r"\[2\]"),
        (lambda: F.nll_loss(torch.tensor(1.), torch.tensor(0)), ValueError, r"Expected 1 or more dimensions \(got 0\)"),
        (lambda: F.nll_loss(torch.zeros(2, 3, 4), torch.zeros(2, 5, dtype=torch.int64)), RuntimeError,
         r"Expected target size \[2, 4\], got \[2, 5\]"),
        (lambda: F.nll_loss(torch.zeros(2, 3, 4, 4), torch.zeros(2, 4, dtype=torch.int64)), RuntimeError,
         "only batches of spatial targets supported \\(3D tensors\\) but got targets of dimension: 2"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()


def test_loss_nodes_free_their_saved_tensors_after_backward():
    x = leaf((2, 3))
    loss = F.cross_entropy(x, torch.tensor([0, 2]))
    loss.backward(retain_graph=True)
    loss.backward()
    assert x.grad._data == pytest.approx(2 * numeric_grad(lambda: F.cross_entropy(x, torch.tensor([0, 2])), x))
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        loss.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        loss.grad_fn._saved_self
    assert loss.grad_fn._saved_reduction == 1  # plain values stay


def test_a_training_step_is_visible_in_the_event_stream_and_the_update_is_not():
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with events.record() as trace:
        loss = F.mse_loss(model(torch.ones(3, 2)), torch.zeros(3, 1))
        loss.backward()
    nodes = [e.name for e in trace.of("node_created")]
    assert nodes == ["TBackward0", "AddmmBackward0", "ReluBackward0", "TBackward0", "AddmmBackward0",
                     "MseLossBackward0"]
    assert len(trace.of("grad_accumulated")) == 4
    with events.record() as trace:
        opt.step()
        opt.zero_grad()
    assert list(trace) == []
