"""Anomaly detection: the switches, the forward traceback warned before a backward error, the nan check and the
anomaly-mode hint of the in-place error. The programs run from one file, ``<case>``, so the recorded forward
stacks (the harness's frames, then the program's) are the same text in both libraries."""
import pytest

pytest.importorskip("torch")

CASES = {
    "switches-and-context-managers": """
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
        print(torch.autograd.set_detect_anomaly(True))
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
        torch.autograd.set_detect_anomaly(False, check_nan=False)
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
        with torch.autograd.set_detect_anomaly(True):
            print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
        d = torch.autograd.detect_anomaly(check_nan=False)
        print(torch.is_anomaly_enabled())
        with d:
            print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
        torch.set_anomaly_enabled(False)
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
        print(torch.autograd.detect_anomaly, torch.autograd.set_detect_anomaly)
        with expect(): torch.autograd.set_detect_anomaly("yes")
        with expect(): torch.set_anomaly_enabled(True, 1)
    """,
    "nan-check-names-the-node-and-output": """
        def f(x):
            return x.sqrt() * 0.
        with torch.autograd.set_detect_anomaly(True):
            x = torch.tensor(0., requires_grad=True)
            y = f(x)
            with expect(): y.backward()
            p, q = torch.tensor(0., requires_grad=True), torch.tensor(0., requires_grad=True)
            with expect(): (p / q).backward()
            print(p.grad, q.grad)
            u = torch.tensor([1.], requires_grad=True)
            with expect(): (u * 2).backward(torch.tensor([float("nan")]))
            with expect(): torch.autograd.grad(f(x), x)
            with expect(): torch.autograd.grad(f(x), x, create_graph=True)
            w = torch.tensor(float("inf"), requires_grad=True)
            with expect(): (u * w).sum().backward(torch.tensor(0.))
        with torch.autograd.set_detect_anomaly(True, check_nan=False):
            z = torch.tensor(0., requires_grad=True)
            (z.sqrt() * 0.).backward()
            print(z.grad)
        x.grad = None
        f(x).backward()
        print(x.grad)
    """,
    "inplace-error-under-anomaly-mode": """
        with torch.autograd.detect_anomaly():
            x = torch.tensor([1., 2.], requires_grad=True)
            e = x.exp()
            e.add_(1)
            with expect(): e.sum().backward()
        a = torch.tensor([1., 2.], requires_grad=True)
        m = a * a
        a2 = a.detach()
        with torch.no_grad():
            a.mul_(2)
        with expect(): m.sum().backward()
        with torch.autograd.set_detect_anomaly(True):  # the node was made with anomaly mode off
            with expect(): m.sum().backward()
    """,
    "hooks-raising-under-anomaly-mode": """
        torch.autograd.set_detect_anomaly(True, check_nan=False)
        a = torch.tensor(1., requires_grad=True)
        def boom(g):
            raise ValueError("boom")
        h = a.register_hook(boom)
        b = a * 2
        with expect(): b.backward()
        h.remove()
        c = b.exp()
        c.grad_fn.register_prehook(lambda go: 1 / 0)
        with expect(): c.backward()
        s = torch.tensor([1., 2.], requires_grad=True).split(1)
        t = s[0] * s[1]
        t.backward()
        with expect(): t.backward()  # the split node runs first again, and finds its saved tensors freed
        torch.autograd.set_detect_anomaly(False)
        with expect(): t.backward()
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_anomaly(conform, name):
    conform(CASES[name])
