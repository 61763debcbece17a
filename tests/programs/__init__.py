# A package, so that pytest imports the conftest.py beside it as ``programs.conftest`` and not as a second
# top-level ``conftest`` (the conformance harnesses find themselves under that name).
