"""Collected by pytest for the whole tree: ``--doctest-modules`` would import every module of the package, and
importing ``autograd_tutor.as_torch`` aliases ``import torch`` in the test process itself (its tests run it in
fresh processes: tests/test_as_torch.py)."""
collect_ignore = ["autograd_tutor/as_torch.py"]
