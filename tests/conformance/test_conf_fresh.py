"""What a fresh interpreter shows under Python's default warning filters: the same program run with
``python -c`` against torch and against autograd_tutor must write the same stdout and stderr (after
replacing the module path in warning locations). This covers the warnings torch issues once per process and
the ``<string>:5: UserWarning: ...`` lines of the non-leaf ``.grad`` warning."""
import re
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")

PROGRAMS = {
    "non-leaf-grad-warning-default-filters": """
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        y.backward()
        print(y.grad)
        print(y.grad)
        for i in range(2):
            print(y.grad)
    """,
    "create-graph-warns-once": """
        x = torch.tensor(2., requires_grad=True)
        for i in range(3):
            (x ** 2).backward(create_graph=True)
            print(i, x.grad)
    """,
    "float-of-requires-grad-and-T-warn": """
        t = torch.tensor(2.5, requires_grad=True)
        print(float(t))
        print(float(t))
        v = torch.tensor([1., 2.], requires_grad=True)
        print(v.T)
        print(torch.tensor(v))
    """,
    "zero-dim-H-mT-mH-warn-once": """
        s = torch.tensor(1.5, requires_grad=True)
        for i in range(2):
            print(i, s.H is s, s.mT is s, s.mH is s)
    """,
    "conv-same-even-kernel-warns-once": """
        for i in range(2):
            y = torch.nn.functional.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2), padding='same')
            print(i, y.shape, y.sum())
    """,
    "anomaly-mode-warnings": """
        class expect:
            def __enter__(self): return self
            def __exit__(self, t, e, tb):
                print(f"-> {t.__name__}: {e}", flush=True); return True
        torch.autograd.set_detect_anomaly(True)
        x = torch.tensor(0., requires_grad=True)
        y = x.sqrt() * 0.
        with expect(): y.backward()
        torch.autograd.set_detect_anomaly(False)
        with torch.autograd.detect_anomaly():
            x2 = torch.tensor([1., 2.], requires_grad=True)
            e = x2.exp()
            e.add_(1)
            with expect(): e.sum().backward()
    """,
}

# A warning raised inside the library shows a library file and line, then that source line indented; both
# differ between the libraries. Lines of the program itself (``<string>:5:``) are compared as they are. A
# message of several lines (anomaly mode's forward traceback: "  File ..." lines, then " (Triggered ...") is
# kept whole.
LIBRARY_WARNING = re.compile(r"^\S+\.py:\d+: (\w+Warning: .*\n(?:(?:  File | \(Triggered).*\n)*)(?:  .*\n)?",
                             re.MULTILINE)


def _sections(module: str) -> dict:
    """Run all programs in one fresh interpreter (they use different warnings); split its output by program."""
    code = f"import sys\nimport {module} as torch\n"
    for name, program in PROGRAMS.items():
        code += f"print('### {name}'); print('### {name}', file=sys.stderr)\n" + textwrap.dedent(program)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    stderr = LIBRARY_WARNING.sub(r"<library>: \1", done.stderr)
    out = {}
    for stream in (done.stdout, stderr):
        for part in stream.split("### ")[1:]:
            name, _, text = part.partition("\n")
            out[name] = out.get(name, "") + text + "--- stderr\n"
    return out


@pytest.fixture(scope="module")
def transcripts() -> tuple:
    return _sections("torch"), _sections("autograd_tutor")


@pytest.mark.parametrize("name", PROGRAMS)
def test_fresh_interpreter(transcripts, name):
    expected, actual = transcripts
    assert actual[name] == expected[name]
