"""The rule that judges us by torch's kernels (``kernels.py``): its workers, its record, its tolerance."""
import json
import sys

import pytest

torch = pytest.importorskip("torch")
kernels = sys.modules["conformance_kernels"]  # loaded by conftest.py
RECORD = json.loads(kernels.RECORD.read_text())


def test_workers_run_torch_under_the_settings_this_processor_has():
    variants = kernels.live_variants("print(torch.tensor([1., 2.]).sum())")
    assert variants and set(variants) <= set(kernels.SETTINGS)
    assert {text for text, _ in variants.values()} == {"tensor(3.)\n"}


@pytest.mark.parametrize("key", sorted(RECORD), ids=[RECORD[k]["case"].partition("::")[2] for k in sorted(RECORD)])
def test_what_x86_torch_printed_accepts_ours_alone(harness, key, monkeypatch):
    """On a processor with none of the x86 kernels (an ARM laptop), the recorded transcripts alone decide, as the
    harness takes them there: the last recording's kernel settings, and every processor's MKL transcripts (the
    recording machine's own among them, since MKL's sums follow the maker). Ours must be one of them."""
    import autograd_tutor
    entry = RECORD[key]
    assert kernels.case_key(entry["program"]) == key
    ours, values = harness.transcript(autograd_tutor, entry["program"])
    measured = kernels.recorded(entry["program"]).values()
    monkeypatch.setattr(kernels, "processor", lambda: "an ARM laptop nobody measured")
    assert kernels.spread_accepts(ours, [text for text, _ in measured] + kernels.elsewhere(entry["program"]))
    assert not all(harness.values_differ(values, theirs) for _, theirs in measured)


def test_the_spread_is_measured_not_assumed():
    lines = ["loss 0.5000001", "loss 0.5000003"]
    assert kernels.spread_accepts("loss 0.5000004", lines)  # inside the spread taken once more
    assert not kernels.spread_accepts("loss 0.5000006", lines)
    assert not kernels.spread_accepts("loss 0.5000002", lines[:1])  # one kernel measured: exact
    assert not kernels.spread_accepts("grad 0.5000002", lines)  # the words must be torch's
    assert not kernels.spread_accepts("loss 0.5000002 1", ["loss 0.5000001 2", "loss 0.5000003 2"])
    assert kernels.spread_accepts("gelu nan", ["gelu inf", "gelu nan"])
    assert not kernels.spread_accepts("gelu -inf", ["gelu inf", "gelu nan"])


def test_mkl_calls_are_seen_at_the_dispatcher_forward_and_backward():
    """Recording keeps the transcripts of the cases whose torch side calls MKL: they are the ones whose sums
    follow the processor's maker."""
    x = torch.ones(2, 3, requires_grad=True)
    assert kernels.calls_mkl(torch, lambda: x @ torch.ones(3, 2))
    assert kernels.calls_mkl(torch, lambda: torch.nn.functional.linear(x, torch.ones(4, 3)).sum().backward())
    assert kernels.calls_mkl(torch, lambda: x.tanh())
    assert not kernels.calls_mkl(torch, lambda: (x * 2).sum().backward())


def test_what_torch_printed_on_other_processors_counts_here_only(tmp_path, monkeypatch):
    program = "print(torch.ones(2, 3) @ torch.ones(3, 1))"
    record = tmp_path / "torch_elsewhere.json"
    record.write_text(json.dumps({"AMD EPYC": {kernels.case_key(program): ["tensor([[3.], [3.]])\n"]}}))
    monkeypatch.setattr(kernels, "ELSEWHERE", record)
    monkeypatch.setattr(kernels, "processor", lambda: "AMD EPYC")
    assert kernels.elsewhere(program) == []  # this processor's torch runs live
    monkeypatch.setattr(kernels, "processor", lambda: "Intel(R) Xeon(R)")
    assert kernels.elsewhere(program) == ["tensor([[3.], [3.]])\n"]
    assert kernels.elsewhere(program + " ") == []  # an edited case is measured again
