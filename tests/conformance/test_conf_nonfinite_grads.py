"""Gradients at nan, inf, -inf, 0., -0., 1. and -1., op by op, as torch gives them.

Every differentiable elementwise operation, binary operation and reduction runs at each special value, in float32
and float64, and prints its result and its inputs' gradients. The elementwise ones run twice: on 7 values, which
torch's CPU kernels take one at a time, and on 35 (and 49), most of which they take in vectors (where torch's
scalar and vector formulas disagree, at relu6's nan for example, its answer depends on the position, and so
does ours). The binary ones run on every pair of special values.
"""
import textwrap

import pytest

torch = pytest.importorskip("torch")

PRELUDE = """
import warnings
# autograd_tutor silences NumPy's warnings for inf and nan raised in its own lines, as torch computes them silently;
# the harness shows every warning, so the program asks for the same filter
warnings.filterwarnings("ignore", message="(overflow|invalid value|divide by zero) encountered", category=RuntimeWarning)
F = torch.nn.functional
nan, inf = float("nan"), float("inf")
V = [nan, inf, -inf, 0., -0., 1., -1.]
DTYPES = (torch.float32, torch.float64)


def report(name, dtype, run, *values):
    try:
        out, grads = run()
        print(name, dtype, *values, out, *grads)
    except Exception as e:
        print(name, dtype, *values, "->", type(e).__name__, e)


def unary(name, f):
    for dtype in DTYPES:
        for values in (V, V * 5):
            def run():
                x = torch.tensor(values, dtype=dtype, requires_grad=True)
                y = f(x)
                y.backward(torch.ones_like(y))
                return y.detach(), (x.grad,)
            report(name, dtype, run, len(values))


def binary(name, f):
    pairs = [(a, b) for a in V for b in V]
    for dtype in DTYPES:
        for chunk in [pairs] + [pairs[i:i + 7] for i in range(0, 49, 7)]:  # all 49, then 7 at a time
            def run():
                x = torch.tensor([a for a, _ in chunk], dtype=dtype, requires_grad=True)
                y = torch.tensor([b for _, b in chunk], dtype=dtype, requires_grad=True)
                z = f(x, y)
                z.backward(torch.ones_like(z))
                return z.detach(), (x.grad, y.grad)
            report(name, dtype, run, len(chunk))


def reduction(name, f):
    for dtype in DTYPES:
        for v in (nan, inf, -inf, 0., 1., -1.):
            for values in ([v, 2., -1.], [2., v, v], [v, nan, 1.], [v, inf, 0.], [1., -1., v], [v, -inf, 2.],
                           [0., v, 0.]):
                def run():
                    x = torch.tensor(values, dtype=dtype, requires_grad=True)
                    y = f(x)
                    y.backward(torch.ones_like(y))
                    return y.detach(), (x.grad,)
                report(name, dtype, run, values)


w = lambda x: torch.tensor([1., 2., 3.], dtype=x.dtype)  # weights, so that each output's gradient is told apart
"""

CASES = {
    "the-issue": """
        x = torch.tensor([nan, -1., 2.], requires_grad=True)
        torch.relu(x).sum().backward(); print(x.grad)           # relu lets the gradient through at nan
        x.grad = None; x.abs().sum().backward(); print(x.grad)  # |x|: sgn(nan) is 0
        x.grad = None; x.max().backward(); print(x.grad)        # max/min send it to the nan
        x.grad = None; x.min().backward(); print(x.grad)
        y = torch.tensor([-inf, -0., 4.], requires_grad=True)
        (y ** 0.5).sum().backward(); print(y.grad)              # 0.5 * y ** -0.5: nan at -inf, -inf at -0.
        a, b = torch.tensor([nan, 1.], requires_grad=True), torch.tensor([1., nan], requires_grad=True)
        torch.maximum(a, b).sum().backward(); print(a.grad, b.grad)
    """,
    "elementwise": """
        for name in ["exp", "log", "tanh", "sigmoid", "relu", "sqrt", "abs", "sin", "cos", "sign", "round", "floor",
                     "ceil", "log1p", "expm1", "rsqrt", "log2", "log10", "tan", "atan", "asin", "acos", "sinh", "cosh",
                     "erf", "trunc", "frac", "neg", "reciprocal", "square"]:
            unary(name, getattr(torch, name))
        unary("clamp", lambda x: x.clamp(-0.5, 0.5))
        unary("clamp_min", lambda x: x.clamp(min=0))
        unary("clamp_max", lambda x: x.clamp(max=0))
        unary("clamp nan", lambda x: x.clamp(min=nan))
        unary("atan2(x, 1)", lambda x: torch.atan2(x, torch.ones_like(x)))
        unary("atan2(1, x)", lambda x: torch.atan2(torch.ones_like(x), x))
    """,
    "powers-and-arithmetic": """
        for e in (0.5, 2, 0, -1, 3, -0.5, 1, -2, 1.5, inf, nan):
            unary(f"x ** {e}", lambda x: x ** e)
        for c in (2, 0, -2, 1):
            unary(f"{c} ** x", lambda x: c ** x)
        unary("x * 2", lambda x: x * 2)
        unary("x * inf", lambda x: x * inf)
        unary("x * 0", lambda x: x * 0)
        unary("x / 2", lambda x: x / 2)
        unary("x / 0", lambda x: x / 0)
        unary("2 / x", lambda x: 2 / x)
        unary("x + 1", lambda x: x + 1)
        unary("1 - x", lambda x: 1 - x)
        unary("x % 1.5", lambda x: x % 1.5)
        unary("fmod", lambda x: torch.fmod(x, 1.5))
    """,
    "activations": """
        for name in ["leaky_relu", "elu", "silu", "softplus", "hardtanh", "relu6", "logsigmoid", "mish", "selu"]:
            unary(name, getattr(F, name))
        unary("softplus beta=2", lambda x: F.softplus(x, beta=2, threshold=5))
        unary("elu alpha=2", lambda x: F.elu(x, alpha=2.))
        unary("max_pool1d", lambda x: F.max_pool1d(x.view(1, 1, -1), 1).view(-1))
    """,
    "binary": """
        binary("add", lambda x, y: x + y)
        binary("sub", lambda x, y: x - y)
        binary("mul", lambda x, y: x * y)
        binary("div", lambda x, y: x / y)
        binary("pow", lambda x, y: x ** y)
        binary("atan2", torch.atan2)
        binary("maximum", torch.maximum)
        binary("minimum", torch.minimum)
        binary("remainder", torch.remainder)
        binary("fmod", torch.fmod)
        binary("xlogy", torch.xlogy)
        binary("lerp", lambda x, y: torch.lerp(x, y, 0.5))
        binary("lerp weight", lambda x, y: torch.lerp(x, torch.ones_like(x), y))
        binary("addcmul", lambda x, y: torch.addcmul(x, x, y))
        binary("addcdiv", lambda x, y: torch.addcdiv(torch.ones_like(x), x, y))
        binary("clamp min", lambda x, y: x.clamp(min=y))
        binary("clamp max", lambda x, y: x.clamp(max=y))
        binary("clamp both", lambda x, y: x.clamp(min=y, max=y + 1))
        binary("where", lambda x, y: torch.where(x > y, x, y))
        binary("hypot", lambda x, y: (x * x + y * y).sqrt())
        binary("leaky_relu times", lambda x, y: F.leaky_relu(x, 0.1) * y)
    """,
    "losses": """
        binary("mse", lambda x, y: F.mse_loss(x, y, reduction="none"))
        binary("l1", lambda x, y: F.l1_loss(x, y, reduction="none"))
        binary("smooth_l1", lambda x, y: F.smooth_l1_loss(x, y, reduction="none"))
        binary("huber", lambda x, y: F.huber_loss(x, y, reduction="none"))
        binary("bce with logits", lambda x, y: F.binary_cross_entropy_with_logits(x, y, reduction="none"))
        binary("kl_div", lambda x, y: F.kl_div(x, y, reduction="none"))
        binary("kl_div log_target", lambda x, y: F.kl_div(x, y, reduction="none", log_target=True))
        reduction("mse mean", lambda x: F.mse_loss(x, torch.zeros_like(x)))
        reduction("bce", lambda x: F.binary_cross_entropy(x.clamp(0, 1), torch.tensor([0., 1., .5], dtype=x.dtype)))
        reduction("cross_entropy", lambda x: F.cross_entropy(x.view(1, 3), torch.tensor([1])))
        reduction("label smoothing", lambda x: F.cross_entropy(x.view(1, 3), torch.tensor([0]), label_smoothing=0.1))
        reduction("nll", lambda x: F.nll_loss(x.view(1, 3), torch.tensor([0])))
    """,
    "sums-products-and-extremes": """
        reduction("sum", lambda x: x.sum())
        reduction("mean", lambda x: x.mean())
        reduction("nansum", lambda x: x.nansum())
        reduction("nanmean", lambda x: x.nanmean())
        reduction("prod", lambda x: x.prod())
        reduction("prod(0)", lambda x: x.prod(0))
        reduction("max", lambda x: x.max())
        reduction("min", lambda x: x.min())
        reduction("max(0)", lambda x: x.max(0).values)
        reduction("min(0)", lambda x: x.min(0).values)
        reduction("max keepdim", lambda x: x.view(1, 3).max(1, keepdim=True).values)
        reduction("amax", lambda x: x.amax())
        reduction("amin", lambda x: x.amin())
        reduction("amax(0)", lambda x: x.amax(0))
        reduction("gather argmax", lambda x: x.gather(0, x.argmax(0, keepdim=True)))
        reduction("median", lambda x: x.median())
        reduction("median(0)", lambda x: x.median(0).values)
        reduction("sort", lambda x: x.sort().values * w(x))
        reduction("msort", lambda x: torch.msort(x) * w(x))
        reduction("topk", lambda x: x.topk(2).values * torch.tensor([1., 2.], dtype=x.dtype))
        reduction("max_pool", lambda x: F.max_pool1d(x.view(1, 1, 3), 2, 1))
        reduction("adaptive_max_pool", lambda x: F.adaptive_max_pool1d(x.view(1, 1, 3), 1))
        reduction("avg_pool", lambda x: F.avg_pool1d(x.view(1, 1, 3), 2, 1))
    """,
    "norms-and-statistics": """
        for p in (2, 1, inf, -inf, 0, 3, 0.5, 1.5):
            reduction(f"norm {p}", lambda x: x.norm(p))
        reduction("vector_norm", lambda x: torch.linalg.vector_norm(x))
        reduction("x / norm", lambda x: x / x.norm())
        reduction("logsumexp", lambda x: x.logsumexp(0))
        reduction("var", lambda x: x.var())
        reduction("std", lambda x: x.std())
        reduction("var(0)", lambda x: x.var(0))
        reduction("std(0)", lambda x: x.std(0))
        reduction("normalize", lambda x: F.normalize(x, dim=0) * w(x))
        reduction("cosine_similarity", lambda x: F.cosine_similarity(x, w(x), dim=0))
        reduction("cdist", lambda x: torch.cdist(x.view(1, 3), torch.zeros(1, 3, dtype=x.dtype)))
    """,
    "softmax": """
        reduction("softmax", lambda x: x.softmax(0) * w(x))
        reduction("log_softmax", lambda x: x.log_softmax(0) * w(x))  # float64 at 0, 0, 0 follows the processor
    """,
    "running-reductions-and-products": """
        reduction("cumsum", lambda x: x.cumsum(0))
        reduction("cumprod", lambda x: x.cumprod(0))
        reduction("logcumsumexp", lambda x: x.logcumsumexp(0))
        reduction("cummax", lambda x: x.cummax(0).values)
        reduction("cummin", lambda x: x.cummin(0).values)
        reduction("dot", lambda x: x.dot(torch.tensor([1., 2., 0.], dtype=x.dtype)))
        reduction("dot self", lambda x: x.dot(x))
        reduction("mv", lambda x: torch.ones(2, 3, dtype=x.dtype) @ x)
        reduction("outer", lambda x: torch.outer(x, x))
        reduction("clamp tensor min", lambda x: x.clamp(min=torch.zeros(3, dtype=x.dtype)))
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_gradients_at_special_values(conform, name):
    conform(PRELUDE + textwrap.dedent(CASES[name]))
