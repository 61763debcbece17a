"""The old home of Module: they live in ``nn/modules/module`` now (torch's layout); this name is kept
so that imports written before still work."""
from .modules.module import Module

__all__ = ["Module"]
