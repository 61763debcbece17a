"""The old import path of ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential: they live in
``nn/modules/container.py`` now, torch's layout; this module is kept so that imports written before still work.
"""
from .modules.container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential

__all__ = ["ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"]
