"""Grad modes: no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode, as context managers
and decorators (section 9 of the reference)."""
import pytest

torch = pytest.importorskip("torch")

CASES = {
    "enable-grad-inside-inference-mode-records-nothing": """
        with torch.no_grad():
            with torch.inference_mode():
                with torch.enable_grad():
                    x = torch.tensor(1.0, requires_grad=True)
                    y = x * 2
                    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled(), y.requires_grad, y.grad_fn)
        print(type(torch.no_grad()), type(torch.inference_mode()))
    """,
    "a-mode-decorating-a-generator-holds-while-it-runs": """
        @torch.no_grad()
        def gen(x):
            yield x * 2, torch.is_grad_enabled()
            yield x * 3, torch.is_grad_enabled()
            return 5
        g = gen(torch.tensor(1., requires_grad=True))
        y, on = next(g)
        print(y.requires_grad, on, torch.is_grad_enabled())
        print(list(g))
        @torch.enable_grad()
        def g2():
            yield torch.is_grad_enabled()
        with torch.no_grad():
            print(list(g2()))
    """,
    "inference-mode-false-turns-it-off-again": """
        with torch.inference_mode():
            with torch.inference_mode(False):
                print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
            print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        with torch.no_grad():
            with torch.inference_mode(False):
                print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    """,
    "no-grad-context-and-enable-grad-inside": """
        x = torch.tensor(2., requires_grad=True)
        print(torch.is_grad_enabled())
        with torch.no_grad():
            print(torch.is_grad_enabled())
            y = x * 2
            print(y.requires_grad, y.grad_fn, y.is_leaf)
            with torch.enable_grad():
                print(torch.is_grad_enabled())
                z = x * 2
                print(z.requires_grad, z.grad_fn)
            w = torch.tensor(1., requires_grad=True)
            print(w.requires_grad, w.is_leaf)
        print(torch.is_grad_enabled())
    """,
    "no-grad-decorators": """
        x = torch.tensor(2., requires_grad=True)
        @torch.no_grad()
        def f(t):
            return t * 2, torch.is_grad_enabled()
        print(f(x))
        @torch.no_grad
        def g(t):
            return t * 2
        print(g(x), torch.is_grad_enabled())
        print(f.__name__, g.__name__)
        print(torch.no_grad().__enter__())
        torch.set_grad_enabled(True)
    """,
    "enable-grad-decorator": """
        x = torch.tensor(2., requires_grad=True)
        @torch.enable_grad()
        def f(t):
            return t * 2
        @torch.enable_grad
        def g(t):
            return t * 3
        with torch.no_grad():
            print(f(x), g(x), torch.is_grad_enabled())
        print(torch.is_grad_enabled())
    """,
    "set-grad-enabled": """
        x = torch.tensor(2., requires_grad=True)
        with torch.set_grad_enabled(False):
            print(torch.is_grad_enabled(), (x * 2).requires_grad)
        print(torch.is_grad_enabled())
        torch.set_grad_enabled(False)
        print(torch.is_grad_enabled(), (x * 2).requires_grad)
        torch.set_grad_enabled(True)
        print(torch.is_grad_enabled(), (x * 2).requires_grad)
        with torch.no_grad():
            with torch.set_grad_enabled(True):
                print(torch.is_grad_enabled(), (x * 2).grad_fn is not None)
            print(torch.is_grad_enabled())
    """,
    "set-grad-enabled-decorator": """
        x = torch.tensor(2., requires_grad=True)
        @torch.set_grad_enabled(False)
        def f(t):
            return t * 2, torch.is_grad_enabled()
        print(torch.is_grad_enabled())
        print(f(x), torch.is_grad_enabled())
    """,
    "restored-after-exception": """
        try:
            with torch.no_grad():
                raise ValueError("boom")
        except ValueError:
            pass
        print(torch.is_grad_enabled())
        @torch.no_grad()
        def bad():
            raise KeyError("k")
        with expect(): bad()
        print(torch.is_grad_enabled())
        try:
            with torch.inference_mode():
                raise ValueError
        except ValueError:
            pass
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    """,
    "nested-modes": """
        x = torch.tensor(1., requires_grad=True)
        with torch.no_grad():
            with torch.no_grad():
                print(torch.is_grad_enabled())
            print(torch.is_grad_enabled())
            with torch.enable_grad():
                with torch.no_grad():
                    print(torch.is_grad_enabled())
                print(torch.is_grad_enabled(), (x + 1).grad_fn is not None)
        print(torch.is_grad_enabled())
    """,
    "backward-inside-no-grad": """
        x = torch.tensor(2., requires_grad=True)
        y = x ** 2
        with torch.no_grad():
            y.backward()
        print(x.grad)
        z = x * x
        with torch.no_grad():
            print(torch.autograd.grad(z, x))
        with torch.no_grad():
            w = x * x
        with expect(): torch.autograd.grad(w, x)
    """,
    "optimizer-step-pattern": """
        w = torch.tensor([1., 2.], requires_grad=True)
        for step in range(3):
            loss = ((w * 3 - 1) ** 2).sum()
            loss.backward()
            with torch.no_grad():
                w -= 0.01 * w.grad
            w.grad.zero_()
            print(step, loss, w, w.is_leaf, w.requires_grad, w.grad_fn)
    """,
    "inference-mode": """
        x = torch.tensor(2., requires_grad=True)
        with torch.inference_mode():
            y = x * 2
            print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        print(y.requires_grad, y.is_inference(), x.is_inference(), y)
        with expect(): (y * x).backward()
        with expect(): y.requires_grad_()
        with expect(): y.add_(1)
        print(torch.is_inference_mode_enabled())
        z = y.clone()
        print(z.is_inference())
    """,
    "inference-mode-decorator-and-false": """
        x = torch.tensor(2., requires_grad=True)
        @torch.inference_mode()
        def f(t):
            return t * 2
        r = f(x)
        print(r, r.requires_grad, r.is_inference())
        with torch.inference_mode(False):
            s = x * 2
            print(s, torch.is_inference_mode_enabled(), s.is_inference())
        with torch.inference_mode(mode=True):
            t = torch.ones(2)
        print(t.is_inference(), torch.ones(2).is_inference())
    """,
    "inference-tensor-in-no-grad-is-fine": """
        with torch.inference_mode():
            y = torch.ones(2)
        with torch.no_grad():
            print(y * 2)
        x = torch.tensor([1., 2.], requires_grad=True)
        print((x + y).requires_grad)
        with expect(): (x * y).sum().backward()
    """,
    "grad-mode-in-hooks-during-backward": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        y.register_hook(lambda g: print("hook sees grad enabled:", torch.is_grad_enabled()))
        y.backward()
        z = x * 3
        z.register_hook(lambda g: print("with create_graph:", torch.is_grad_enabled()))
        torch.autograd.grad(z, x, create_graph=True)
        print(torch.is_grad_enabled())
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_modes(conform, name):
    conform(CASES[name])
