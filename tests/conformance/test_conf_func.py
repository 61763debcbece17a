"""``torch.func`` (issue 14: the per-sample-gradient, Jacobian and Hessian tutorials): ``grad``, ``grad_and_value``,
``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian``, ``vmap`` and ``functional_call``, run in torch and in
autograd_tutor. Values go through ``val`` (torch batches the samples where we loop over them, so the last bits may
differ as they differ between torch's own kernels); structure, flags and every error message print exactly."""
import pytest

torch = pytest.importorskip("torch")

HEAD = """
grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call = (getattr(torch.func, name) for name in (
    "grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call"))
torch.manual_seed(0)
x = torch.randn(3)
W = torch.randn(2, 3)
"""

PROGRAMS = {
    "grad": HEAD + """
val(grad(lambda t: (t ** 3).sum())(x), grad(torch.sin)(torch.tensor(0.5)), grad(grad(torch.sin))(torch.tensor(1.)))
print(grad(grad(torch.sin))(torch.tensor(0.)), grad(lambda t: torch.tensor(1.))(x), grad(lambda t: (t * 0).sum())(x))
g0, g1 = grad(lambda a, b: (a * b.exp()).sum(), argnums=(0, 1))(x, x * 2)
val(g0, g1, grad(lambda a, b: (a * b).sum(), argnums=-1)(x, W[0]))
g = grad(lambda p, t: (torch.tanh(p["w"] @ t) * p["s"]).sum())({"w": W, "s": torch.tensor(2.)}, x)
print(sorted(g), type(g).__name__); val(g["w"], g["s"])
(g, aux) = grad(lambda t: ((t ** 2).sum(), {"mean": t.mean()}), has_aux=True)(x)
val(g, aux["mean"]); print(aux["mean"].requires_grad, g.requires_grad, g.grad_fn)
with expect():
    grad(lambda t: ((t ** 2).sum(), {"mean": t.mean(), "n": 3}), has_aux=True)(x)
out = grad_and_value(lambda t: (t ** 2).sum())(x); print(type(out).__name__, len(out)); val(*out)
(g, (value, aux)) = grad_and_value(lambda t: ((t ** 2).sum(), t.max()), has_aux=True)(x); val(g, value, aux)
""",
    "grad_through_the_learners_graph": HEAD + """
y = x.clone().requires_grad_()
g = grad(lambda t: (t ** 3).sum())(y)
print(g.requires_grad, g.grad_fn is not None)
g.sum().backward(); val(y.grad)
z = torch.tensor(0.7, requires_grad=True)
h = grad(grad(lambda t: t ** 4))(z); val(h); h.backward(); val(z.grad)
""",
    "vjp_and_jvp": HEAD + """
import warnings
with warnings.catch_warnings():  # torch's first jvp in a process warns that torch.jit.script is deprecated
    warnings.simplefilter("ignore")
    jvp(torch.sin, (x,), (x,))
out, vjp_fn = vjp(torch.sin, x); val(out, *vjp_fn(torch.ones(3))); print(type(vjp_fn(torch.ones(3))).__name__)
(o1, o2), fn = vjp(lambda a, b: (a * b, a + b), torch.ones(2), torch.ones(2) * 3)
val(o1, o2, *fn((torch.ones(2), torch.tensor([1., -1.]))))
out, fn, aux = vjp(lambda t: (t.exp(), t.sum()), x, has_aux=True); val(out, aux, *fn(x))
val(*jvp(torch.sin, (x,), (torch.ones(3),)))
val(*jvp(lambda a, b: (a * b).sum(), (x, x), (torch.ones(3), torch.zeros(3))))
val(*jvp(lambda t: torch.tanh(W @ t), (x,), (x.flip(0),)))
val(*jvp(lambda t: t * 0 + 1, (x,), (x,)))
out, tangent, aux = jvp(lambda t: (t ** 2, t.mean()), (x,), (torch.ones(3),), has_aux=True); val(out, tangent, aux)
""",
    "jacobians": HEAD + """
val(jacrev(torch.sin)(x), jacfwd(torch.sin)(x), jacrev(lambda t: W @ t)(x), jacfwd(lambda t: torch.tanh(W @ t))(x))
val(hessian(lambda t: (t ** 3).sum())(x), hessian(lambda t: (torch.tanh(W @ t) ** 2).sum())(x))
val(jacrev(lambda t: t.sum())(x), jacrev(lambda t: t.outer(t))(x), jacfwd(lambda t: t.outer(t))(x))
j = jacrev(lambda t: {"a": t * 2, "b": t.sum()})(torch.tensor([1., 2.])); print(sorted(j)); val(j["a"], j["b"])
a, b = jacfwd(lambda u, v: u * v, argnums=(0, 1))(x, x.exp()); val(a, b)
a, b = jacrev(lambda u, v: (u @ v).tanh(), argnums=(0, 1))(W, x); print(a.shape, b.shape); val(a, b)
j, aux = jacrev(lambda t: (t.exp(), t.sum()), has_aux=True)(x); val(j, aux)
val(jacrev(jacrev(lambda t: (t ** 3).sum()))(x), hessian(lambda a, b: (a * b * b).sum(), argnums=1)(x, x))
""",
    "vmap": HEAD + """
a, b = torch.randn(4, 3), torch.randn(4, 3)
val(vmap(torch.dot)(a, b), vmap(lambda r: r.max())(a), vmap(torch.mv, in_dims=(None, 0))(W, a))
o = vmap(torch.outer, in_dims=(0, None), out_dims=1)(a, torch.randn(2)); print(o.shape); val(o)
val(vmap(lambda t: t.sum(), in_dims=1)(a), vmap(vmap(torch.mul))(a, b), vmap(lambda d: d["u"] * d["k"])({"u": a, "k": b}))
val(vmap(torch.mul, in_dims=(0, None))(x, torch.tensor(10.)), vmap(lambda t: t * 2, in_dims=-1)(a))
s, m = vmap(lambda t: (t.sum(), t.mean()))(a); val(s, m)
s, c = vmap(lambda t, c: (t * c, c), in_dims=(0, None), out_dims=(0, None))(a, x); print(c is x); val(s)
print(vmap(lambda t: t.sum())(torch.randn(2, 3, requires_grad=True)).requires_grad)
val(vmap(jacrev(torch.sin))(a), vmap(grad(lambda t: (t ** 2).sum()))(a))
torch.manual_seed(0); val(vmap(lambda t: t + torch.randn(3), randomness="same")(torch.zeros(2, 3)))
torch.manual_seed(0); val(vmap(lambda t: t + torch.rand(3), randomness="different")(torch.zeros(2, 3)))
val(torch.randn(2))
""",
    "per_sample_gradients": """
grad, vmap, functional_call = torch.func.grad, torch.func.vmap, torch.func.functional_call
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
data, targets = torch.randn(5, 4), torch.randint(0, 3, (5,))
params = {k: v.detach() for k, v in model.named_parameters()}
def compute_loss(params, sample, target):
    out = functional_call(model, params, (sample.unsqueeze(0),))
    return torch.nn.functional.cross_entropy(out, target.unsqueeze(0))
per_sample = vmap(grad(compute_loss), in_dims=(None, 0, 0))(params, data, targets)
print({k: tuple(v.shape) for k, v in per_sample.items()})
val(*per_sample.values())
torch.nn.functional.cross_entropy(model(data), targets, reduction="sum").backward()
print([torch.allclose(p.grad, per_sample[k].sum(0), atol=1e-6) for k, p in model.named_parameters()])
""",
    "functional_call": HEAD + """
m = torch.nn.Linear(3, 2)
params = {k: v.detach() * 2 for k, v in m.named_parameters()}
val(functional_call(m, params, (x,)), functional_call(m, params, x), functional_call(m, {"bias": torch.zeros(2)}, x))
print(functional_call(m, params, (x,)).requires_grad, functional_call(m, {"bias": torch.zeros(2)}, x).requires_grad)
print(m.weight.requires_grad, type(m.weight).__name__, sorted(dict(m.named_parameters())))
bn = torch.nn.BatchNorm1d(3).eval()
val(functional_call(bn, ({}, {"running_mean": torch.ones(3), "running_var": torch.full((3,), 4.)}), (W,)))
print(bn.running_mean, bn.running_var)
tied = torch.nn.Sequential(torch.nn.Linear(3, 3, bias=False), torch.nn.Linear(3, 3, bias=False))
tied[1].weight = tied[0].weight
val(functional_call(tied, {"0.weight": torch.eye(3)}, (x,)), functional_call(tied, {"0.weight": torch.eye(3)}, (x,),
                                                                           tie_weights=False))
val(functional_call(m, params, kwargs={"input": x}))
""",
    "errors": HEAD + """
for call in [lambda: grad(lambda t: t * 2)(x), lambda: grad(lambda t: (t * 2).sum())(3.0),
             lambda: grad(lambda t: (t * 2).sum(), argnums=2)(x), lambda: grad(lambda t: ((t * 2).sum(), 1))(x),
             lambda: grad(lambda t: (t * 2).sum(), has_aux=True)(x), lambda: grad(lambda t: t.sum(), argnums=1.5)(x),
             lambda: grad(lambda t: t.sum())(), lambda: grad(lambda t: (t * 2).sum())(torch.tensor([1, 2])),
             lambda: vmap(lambda a, b: a + b)(torch.randn(2, 3), torch.randn(3, 3)),
             lambda: vmap(lambda t: 1.0)(torch.randn(2, 3)), lambda: vmap(lambda t: t + torch.randn(3))(W),
             lambda: vmap(lambda t: t, in_dims=1)(torch.randn(2)), lambda: vmap(lambda t: t, in_dims=(0, 0))(x),
             lambda: vmap(lambda t: t)(3.0), lambda: vmap(lambda t: t, in_dims=None)(x),
             lambda: vmap(lambda t: t, in_dims=(None,))(x), lambda: vmap(lambda t: t, randomness="foo")(x),
             lambda: vmap(lambda t, u: t, in_dims=(0, 1))(x, 3), lambda: vmap(lambda t: t * 0 + 1, out_dims=None)(W),
             lambda: vmap(lambda t: t, out_dims=3)(x), lambda: jacrev(lambda t: t.sum(), argnums=1)(x),
             lambda: jvp(torch.sin, x, (torch.ones(3),)), lambda: jvp(torch.sin, (x,), (torch.ones(2),)),
             lambda: vjp(lambda a, b: (a * b, a + b), x, x)[1](x),
             lambda: functional_call(torch.nn.Linear(3, 2), {"nope": x}, (x,), strict=True),
             lambda: functional_call(torch.nn.Linear(3, 2), ({"weight": W}, {"weight": W}), (x,))]:
    with expect():
        call()
val(torch.randn(3))
""",
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_func(conform, name):
    conform(PROGRAMS[name])
