"""The old import path of Module: they live in ``nn/modules/module.py`` now, torch's layout; this module is kept so
that imports written before still work.
"""
from .modules.module import Module

__all__ = ["Module"]
