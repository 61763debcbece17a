"""Devices: ``torch.device``, ``torch.cuda`` and ``torch.backends``, so that the device lines of lesson code run.

autograd_tutor computes on the CPU only, like a CPU-only build of torch: ``torch.cuda.is_available()`` is
False, so the usual ``device = "cuda" if torch.cuda.is_available() else "cpu"`` picks the CPU, and asking for
another device raises the error such a torch build raises.

>>> import autograd_tutor as torch
>>> device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
>>> device, torch.ones(2, device=device).to(device).device
(device(type='cpu'), device(type='cpu'))
"""
from __future__ import annotations

import re
from types import SimpleNamespace

__all__ = ["device", "cuda", "backends", "check_cpu", "set_default_device"]

_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
          "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class device:
    """Where a tensor lives: ``device("cpu")``, ``device("cuda:0")`` or ``device("cuda", 0)``."""
    __module__ = "autograd_tutor"  # its public name, as torch's torch.device

    def __init__(self, type, index=None) -> None:
        if isinstance(type, device):
            type, index = type.type, type.index
        text = str(type)
        kind = re.match(r"[a-z_]*", text).group()
        if kind not in _TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of device string: {text}")
        rest = text[len(kind):]
        if rest:
            if not re.fullmatch(r":\d+", rest):
                raise RuntimeError(f"Invalid device string: '{text}'")
            index = int(rest[1:])
        self.type = kind
        self.index = index

    def __repr__(self) -> str:
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = device("cpu")


def check_cpu(where) -> None:
    """Accept None or the CPU; for any other device raise what a CPU-only torch raises."""
    if where is None:
        return
    kind = device(where).type
    if kind == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if kind != "cpu":
        raise RuntimeError(f"PyTorch is not linked with support for {kind} devices")


def _no_gpu() -> bool:
    return False


def _seeded(seed) -> None:
    """``torch.cuda.manual_seed``: nothing to seed without a GPU (torch does nothing either)."""


def _needs_gpu(*args, **kwargs):
    """What a CPU-only torch raises for anything that needs a GPU (``torch.cuda.synchronize()``...)."""
    check_cpu("cuda")


def set_default_device(where) -> None:
    """``torch.set_default_device``: only the CPU exists here."""
    check_cpu(where)


#: ``torch.cuda``: no GPU here.
cuda = SimpleNamespace(is_available=_no_gpu, device_count=lambda: 0, manual_seed=_seeded, manual_seed_all=_seeded,
                       is_initialized=_no_gpu, current_device=_needs_gpu, get_device_name=_needs_gpu,
                       synchronize=_needs_gpu, empty_cache=lambda: None)
#: ``torch.backends``: the flags lessons set or read (they change nothing on the CPU).
backends = SimpleNamespace(mps=SimpleNamespace(is_available=_no_gpu, is_built=_no_gpu),
                           cuda=SimpleNamespace(is_built=_no_gpu),
                           cudnn=SimpleNamespace(deterministic=False, benchmark=False, enabled=True,
                                                 is_available=_no_gpu))
