"""The transcript harness of ``tests/conformance`` (one program text, run under torch and under
autograd_tutor, transcripts compared), offered here as the ``conform`` fixture for the nn and optim cases."""
import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location(
    "conformance_harness", pathlib.Path(__file__).resolve().parent.parent / "conformance" / "conftest.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)


@pytest.fixture
def conform():
    return harness.run
