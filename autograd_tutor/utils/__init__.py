"""``torch.utils``: for now, ``data`` (datasets, samplers and the ``DataLoader``)."""
from . import data

__all__ = ["data"]
