"""The backward engine: order, depth, fan-in, retain_graph, higher order, inputs, hooks, grad mode, versions.

Most tests take ``lib``: they run once with autograd_tutor and once with real torch (skipped when torch is
absent), so every literal expectation below is also checked to be what torch does.
"""
import subprocess
import sys
import textwrap
import warnings

import pytest

import autograd_tutor
from autograd_tutor.autograd.function import FREED_MESSAGE

VERSION_MESSAGE = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
                   "[torch.FloatTensor [2]], which is output 0 of {op}, is at version 1; expected version 0 instead. "
                   "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
                   "torch.autograd.set_detect_anomaly(True, check_nan=False).")


@pytest.fixture(params=["autograd_tutor", "torch"])
def lib(request):
    return autograd_tutor if request.param == "autograd_tutor" else pytest.importorskip("torch")


def label_nodes(tensors: dict, order: list) -> None:
    """Record each labelled tensor's grad_fn in ``order`` when it runs (a node prehook)."""
    for name, t in tensors.items():
        t.grad_fn.register_prehook(lambda grad_outputs, name=name: order.append(name))


# ---------------------------------------------------------------- order

def test_each_node_runs_once_after_all_its_gradients_arrived(lib):
    x = lib.tensor(2.0, requires_grad=True)
    a = x * 2
    b = x * 3
    c = a * b
    d = c + a  # a feeds c and d: it must wait for both
    order = []
    label_nodes({"a": a, "b": b, "c": c, "d": d}, order)
    d.backward()
    assert order == ["d", "c", "b", "a"]  # b and a are ready together: b was created last
    assert x.grad.item() == 2 * 6 + 3 * 4 + 2  # d = 6x^2 + 2x


def test_among_ready_nodes_the_one_created_last_runs_first(lib):
    x = lib.tensor(0.5, requires_grad=True)
    w = lib.tensor(1.5, requires_grad=True)
    p = x * 2
    q = p.exp()
    r = q.sin()    # the long branch, created first
    s = x * 3      # the short branch, created later
    out = r + s + w
    order = []
    label_nodes({"p": p, "q": q, "r": r, "s": s, "out": out}, order)
    w.register_hook(lambda g: order.append("w"))  # w's AccumulateGrad runs as soon as it is ready
    x.register_hook(lambda g: order.append("x"))
    out.backward()
    # A queue (breadth first) would run r before s; a plain stack would not wait for p's second gradient.
    assert order == ["out", "w", "s", "r", "q", "p", "x"]


def test_a_chain_of_100_000_ops_needs_no_recursion():
    x = autograd_tutor.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(50_000):
        y = y * 1.0
        y = y + 1.0
    y.backward()
    assert x.grad.item() == 1.0 and y.item() == 50_001.0
    del y  # freeing the chain must not recurse either


def test_fan_in_sums_every_path(lib):
    x = lib.tensor(3.0, requires_grad=True)
    y = x * x + x * x * x + x
    z = sum(x * i for i in range(10))
    (y + z).backward()
    assert x.grad.item() == 2 * 3 + 3 * 9 + 1 + 45


def test_the_same_tensor_twice_in_one_op_has_two_edges(lib):
    x = lib.tensor(3.0, requires_grad=True)
    y = x * x
    (e0, n0), (e1, n1) = y.grad_fn.next_functions
    assert e0 is e1 and (n0, n1) == (0, 0)
    y.backward()
    assert x.grad.item() == 6.0


# ---------------------------------------------------------------- retain_graph, saved tensors

def test_backward_twice_through_a_node_that_saved_nothing_accumulates(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x + 1
    y.backward()
    y.backward()
    assert x.grad.item() == 2.0


def test_backward_twice_through_a_node_that_saved_raises_torchs_message(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x * 2
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == FREED_MESSAGE
    assert x.grad.item() == 2.0


def test_grads_changed_before_the_failing_node_stay_changed(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    y = a * a + b
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()
    assert (a.grad.item(), b.grad.item()) == (4.0, 2.0)  # b's AccumulateGrad ran before MulBackward0 failed


def test_retain_graph_allows_a_second_backward(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x ** 3
    y.backward(retain_graph=True)
    assert x.grad.item() == 12.0
    y.backward()
    assert x.grad.item() == 24.0


def test_reading_a_freed_saved_tensor_raises(lib):
    x = lib.tensor(2.0, requires_grad=True)
    w = lib.tensor(5.0, requires_grad=True)
    y = x * w
    assert y.grad_fn._saved_self.item() == 2.0 and y.grad_fn._saved_other.item() == 5.0
    y.backward(retain_graph=True)
    assert y.grad_fn._saved_self.item() == 2.0
    y.backward()
    for name in ("_saved_self", "_saved_other"):
        with pytest.raises(RuntimeError) as info:
            getattr(y.grad_fn, name)
        assert str(info.value) == FREED_MESSAGE
    z = x ** 2
    z.backward()
    assert z.grad_fn._saved_exponent == 2  # numbers survive the release, only tensors are freed


# ---------------------------------------------------------------- higher order, grad(), inputs=

def test_create_graph_differentiates_again(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x ** 3
    (g1,) = lib.autograd.grad(y, x, create_graph=True)
    (g2,) = lib.autograd.grad(g1, x, create_graph=True)
    (g3,) = lib.autograd.grad(g2, x)
    assert (g1.item(), g2.item(), g3.item()) == (12.0, 12.0, 6.0)  # 3x^2, 6x, 6
    assert g1.requires_grad and g2.requires_grad and not g3.requires_grad
    assert x.grad is None  # grad() leaves .grad alone


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")  # once per process, as torch
def test_backward_with_create_graph_makes_a_differentiable_grad(lib):
    x = lib.tensor(2.0, requires_grad=True)
    (x ** 3).backward(create_graph=True)
    g = x.grad
    assert g.item() == 12.0 and g.requires_grad
    x.grad = None
    g.backward()
    assert x.grad.item() == 12.0


def test_grad_with_respect_to_a_non_leaf_and_a_leaf(lib):
    x = lib.tensor(2.0, requires_grad=True)
    h = x * 3
    out = h ** 2
    gh, gx = lib.autograd.grad(out, [h, x])
    assert (gh.item(), gx.item()) == (12.0, 36.0)
    assert x.grad is None


def test_grad_of_an_unused_input(lib):
    x = lib.tensor(2.0, requires_grad=True)
    u = lib.tensor(1.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="^The differentiated Tensor at index 1 appears to not have been used in the "
                                           "graph. Set allow_unused=True if this is the desired behavior.$"):
        lib.autograd.grad(x * 2, [x, u])
    assert lib.autograd.grad(x * 2, [x, u], allow_unused=True)[1] is None
    assert lib.autograd.grad(x * 2, [x, u], materialize_grads=True)[1].item() == 0.0


def test_backward_inputs_fill_only_those_grads(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    (a * b).backward(inputs=[a])
    assert (a.grad.item(), b.grad) == (3.0, None)
    h = a * b
    with pytest.warns(UserWarning, match="The .grad attribute of a Tensor that is not a leaf Tensor"):
        assert h.grad is None
    (h * h).backward(inputs=[h])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a non-leaf whose .grad was filled reads without the warning
        assert h.grad.item() == 12.0 and a.grad.item() == 3.0
    with pytest.raises(RuntimeError, match="^`inputs` argument to `backward\\(\\)` cannot be empty.$"):
        (a * b).backward(inputs=[])


def test_autograd_backward_of_several_roots(lib):
    a = lib.tensor(2.0, requires_grad=True)
    lib.autograd.backward([a * 2, a * a], [lib.tensor(1.0), lib.tensor(10.0)])
    assert a.grad.item() == 2 + 40


# ---------------------------------------------------------------- hooks

def test_hooks_order_and_return_values(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x * 3
    seen = []
    y.register_hook(lambda g: seen.append(("tensor 1", g.item())) or g * 10)  # replaces the gradient
    y.register_hook(lambda g: seen.append(("tensor 2", g.item())))            # sees the replacement
    y.retain_grad()                                                             # keeps the replacement
    y.grad_fn.register_prehook(lambda go: seen.append(("prehook", go[0].item())))
    y.grad_fn.register_hook(lambda gi, go: seen.append(("posthook", gi[0].item(), go[0].item())) or (gi[0] + 1, gi[1]))
    x.register_hook(lambda g: seen.append(("leaf", g.item())) or g * 2)
    x.register_post_accumulate_grad_hook(lambda t: seen.append(("post accumulate", t.grad.item())))
    y.backward()
    assert seen == [("tensor 1", 1.0), ("tensor 2", 10.0), ("prehook", 10.0), ("posthook", 30.0, 10.0),
                    ("leaf", 31.0), ("post accumulate", 62.0)]
    assert (y.grad.item(), x.grad.item()) == (10.0, 62.0)


def test_removed_hooks_do_not_run(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x * 3
    seen = []
    handles = [y.register_hook(lambda g: seen.append("tensor")),
               y.grad_fn.register_prehook(lambda go: seen.append("prehook")),
               y.grad_fn.register_hook(lambda gi, go: seen.append("posthook")),
               x.register_hook(lambda g: seen.append("leaf"))]
    for handle in handles:
        handle.remove()
    y.backward()
    assert seen == [] and x.grad.item() == 3.0


def test_a_prehook_may_replace_the_incoming_gradient(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x * 3
    y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 2,))
    y.backward()
    assert x.grad.item() == 6.0


@pytest.mark.parametrize("kind, hook, error, message", [
    ("pre", lambda go: (go[0], go[0]), RuntimeError,
     "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)"),
    ("pre", lambda go: [go[0]], TypeError, "expected tuple, but hook returned 'list'"),
    ("post", lambda gi, go: (gi[0],), RuntimeError,
     "hook '<lambda>' has returned an incorrect number of values (got 1, but expected 2)"),
    ("post", lambda gi, go: gi[0], TypeError, "expected tuple, but hook returned 'Tensor'"),
    ("post", lambda gi, go: (3, None), TypeError, "expected Variable, but hook returned 'int'"),
])
def test_node_hooks_must_return_a_tuple_of_the_right_length(lib, kind, hook, error, message):
    x = lib.tensor(2.0, requires_grad=True)
    y = x * 3
    (y.grad_fn.register_prehook if kind == "pre" else y.grad_fn.register_hook)(hook)
    with pytest.raises(error) as info:
        y.backward()
    assert str(info.value) == message


def test_a_hook_that_changes_the_shape_is_refused(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2

    def bad(g):
        return g.sum()

    y.register_hook(bad)
    with pytest.raises(RuntimeError, match="^hook 'bad' has changed the size of value$"):
        y.sum().backward()


# ---------------------------------------------------------------- grad mode

def test_grad_mode_context_managers(lib):
    x = lib.tensor(1.0, requires_grad=True)
    with lib.no_grad():
        assert not (x * 2).requires_grad and not lib.is_grad_enabled()
        with lib.enable_grad():
            assert (x * 2).requires_grad and lib.is_grad_enabled()
        assert not lib.is_grad_enabled()
    with lib.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    with lib.inference_mode():
        y = x * 2
        assert not y.requires_grad and lib.is_inference_mode_enabled()
    with lib.inference_mode(False):
        assert (x * 2).requires_grad and not lib.is_inference_mode_enabled()
    assert y.is_inference() and lib.is_grad_enabled() and not lib.is_inference_mode_enabled()


def test_set_grad_enabled_as_a_function(lib):
    x = lib.tensor(1.0, requires_grad=True)
    lib.set_grad_enabled(False)
    try:
        assert not (x * 2).requires_grad
    finally:
        lib.set_grad_enabled(True)
    assert (x * 2).requires_grad


def test_grad_mode_decorators(lib):
    x = lib.tensor(1.0, requires_grad=True)

    def double(t):
        return t * 2, lib.is_grad_enabled()

    # Decorating changes nothing by itself; each call runs in its mode and restores the caller's.
    plain = lib.no_grad(double)
    called = lib.no_grad()(double)
    off = lib.set_grad_enabled(False)(double)
    inference = lib.inference_mode()(double)
    assert lib.is_grad_enabled()
    for f in (plain, called, off, inference):
        y, enabled = f(x)
        assert not y.requires_grad and not enabled and lib.is_grad_enabled()
    with lib.no_grad():
        y, enabled = lib.enable_grad()(double)(x)
        assert y.requires_grad and enabled and not lib.is_grad_enabled()
    assert plain.__name__ == "double"


def test_backward_runs_inside_no_grad(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x * x
    with lib.no_grad():
        y.backward()
    assert x.grad.item() == 4.0


# ---------------------------------------------------------------- in place and versions

def test_in_place_on_a_leaf_that_requires_grad_raises(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used in an in-place "
                                           "operation.$"):
        a.add_(1)
    with lib.no_grad():
        a.add_(1)
    assert a.tolist() == [2.0, 3.0]


@pytest.mark.parametrize("op, make, modify", [
    ("Mul", lambda a: a * 1, lambda b: b.mul_(2)),  # b * b saved b, then mul_ changed it (and its grad_fn)
    ("Add", lambda a: a.exp(), lambda b: b.add_(1)),
    ("torch::autograd::CopySlices", lambda a: a.tanh(), lambda b: b.__setitem__(0, 5.0)),
])
def test_a_saved_tensor_modified_in_place_names_the_forward_op(lib, op, make, modify):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = make(a)
    c = b * b
    modify(b)
    assert b._version == 1
    with pytest.raises(RuntimeError) as info:
        c.sum().backward()
    assert str(info.value) == VERSION_MESSAGE.format(op=op)


def test_a_saved_output_modified_in_place_names_its_node(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    c = a.exp()  # exp saves its result
    c.zero_()
    with pytest.raises(RuntimeError) as info:
        c.sum().backward()
    assert str(info.value) == VERSION_MESSAGE.format(op="Exp")


def test_in_place_on_a_tensor_nobody_saved_is_fine(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2  # saves the 2, not a
    c = b + 1  # saves nothing
    b.add_(1)
    c.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0] and b._version == 1


def test_grads_never_alias_each_other_or_the_callers_arrays():
    """The engine takes over a gradient array only when nothing else refers to it (as torch steals a grad)."""
    import numpy as np

    import autograd_tutor as at
    x, y = at.ones(3, requires_grad=True), at.ones(3, requires_grad=True)
    ((x + y) * 2).sum().backward()  # AddBackward0 sends the very same array to x and to y
    assert not np.shares_memory(x.grad._data, y.grad._data)
    x.grad.add_(1)
    assert y.grad.tolist() == [2.0, 2.0, 2.0]

    given = at.ones(3)
    u, v = at.ones(3, requires_grad=True), at.ones(3, requires_grad=True)
    (u + v).backward(given)  # the caller's gradient tensor must stay the caller's
    assert not np.shares_memory(u.grad._data, given._data) and not np.shares_memory(v.grad._data, given._data)

    kept = []
    w = at.ones(2, 2, requires_grad=True)
    w.register_hook(lambda g: kept.append(g * 1) or kept[-1])  # a hook that keeps what it returns
    (at.ones(2, 2) @ w).sum().backward()
    assert not np.shares_memory(w.grad._data, kept[0]._data)
    w.grad.zero_()
    assert kept[0].tolist() == [[2.0, 2.0], [2.0, 2.0]]


@pytest.mark.parametrize("program, printed", [
    ("torch.tensor([1000., 1.]).exp()", "tensor([   inf, 2.7183])"),
    ("torch.tensor([-1000., 5.]).sigmoid()", "tensor([0.0000, 0.9933])"),
    ("torch.tensor(100.).exp()", "tensor(inf)"),
    ("torch.tensor([0.]) ** -1", "tensor([inf])"),
    ("torch.tensor([]).mean()", "tensor(nan)"),
    ("0 / torch.tensor([0., 1.], requires_grad=True)", "tensor([nan, 0.], grad_fn=<MulBackward0>)"),
    ("where_grad(torch)", "tensor([0.3679,    nan, 0.5000])"),
    ("divide_by_zero_grad(torch)", "tensor([inf, inf])")])
def test_overflow_and_division_by_zero_give_inf_without_a_warning(lib, program, printed):
    """torch never warns about floating-point overflow, 0 / 0 or log(0), in forward or backward; NumPy does
    unless told not to."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scope = {"torch": lib, "where_grad": where_grad, "divide_by_zero_grad": divide_by_zero_grad}
        assert repr(eval(program, scope)) == printed


def where_grad(torch):
    """The classic pitfall: the untaken branch's gradient (log at 0: 0 * inf) still makes a nan."""
    x = torch.tensor([-1., 0., 2.], requires_grad=True)
    torch.where(x > 0, x.log(), x.exp()).sum().backward()
    return x.grad


def divide_by_zero_grad(torch):
    x = torch.tensor([0., 2.], requires_grad=True)
    (x / torch.tensor([[0.], [1.]])).sum().backward()
    return x.grad


def test_an_update_under_no_grad_writes_in_place_with_the_version_bumped_and_no_warning():
    torch = autograd_tutor
    w = torch.tensor([3.0, 2.0], requires_grad=True)
    storage = w._data
    with torch.no_grad():
        w -= 0.5 * torch.tensor([2.0, 2.0])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            w /= torch.tensor([0.0, 1.0])  # inf, silently, as torch
    assert w._data is storage and w._version == 2 and w.tolist() == [float("inf"), 1.0]
    assert w.dtype == torch.float32 and w.requires_grad and w.grad_fn is None


def test_set_default_device_accepts_only_the_cpu():
    torch = autograd_tutor
    torch.set_default_device("cpu")
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.set_default_device("cuda")


def test_inf_and_nan_come_without_numpy_warnings_as_in_torch():
    """torch overflows to inf and divides 0 by 0 into nan silently; NumPy would warn from our lines. A fresh
    interpreter with every warning shown (``-W default``), so no earlier warning hides one."""
    program = textwrap.dedent("""
        import numpy as np
        import autograd_tutor as torch
        x = torch.tensor([1e30, 2.], requires_grad=True)
        print(x * x, x ** 2)
        with torch.no_grad():
            w = torch.tensor([3e38, 0.])
            w += w
            w.div_(0)
        print(w)
        np.float32(1e30) * np.float32(1e30)   # the learner's own NumPy code still warns
    """)
    done = subprocess.run([sys.executable, "-W", "default", "-c", program], capture_output=True, text=True,
                          check=True)
    assert done.stdout == ("tensor([inf, 4.], grad_fn=<MulBackward0>) tensor([inf, 4.], grad_fn=<PowBackward0>)\n"
                           "tensor([inf, nan])\n")
    assert done.stderr.count("RuntimeWarning") == 1 and "<string>" in done.stderr, done.stderr
