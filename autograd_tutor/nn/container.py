"""The old home of ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential: they live in ``nn/modules/container`` now (torch's layout); this name is kept
so that imports written before still work."""
from .modules.container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential

__all__ = ["ModuleDict", "ModuleList", "ParameterDict", "ParameterList", "Sequential"]
