"""``nn.RNN``, ``nn.LSTM``, ``nn.GRU`` and their one-step ``...Cell`` forms, composed of recorded ops (linear,
sigmoid, tanh, unsafe_chunk, stack), so gradients flow through every time step and the drawing shows them.

One step of each, with x the input and h (c) the state:
  RNN:  h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)
  LSTM: i, f, g, o = unsafe_chunk(x W_ih^T + b_ih + h W_hh^T + b_hh, 4); c' = s(f) c + s(i) tanh(g); h' = s(o) tanh(c')
  GRU:  r, z = s(...), n = tanh(x_n + r * h_n); h' = (1 - z) n + z h = (h - n) z + n
All weights start uniform in [-1/sqrt(hidden_size), 1/sqrt(hidden_size)], drawn in registration order as in torch.

>>> import autograd_tutor as torch
>>> lstm = torch.nn.LSTM(3, 4, num_layers=2)
>>> out, (h, c) = lstm(torch.zeros(5, 2, 3))
>>> out.shape, h.shape, c.shape
(torch.Size([5, 2, 4]), torch.Size([2, 2, 4]), torch.Size([2, 2, 4]))
"""
from __future__ import annotations

import math

from ...autograd.factories import empty, zeros
from ...autograd.tensor import Tensor
from ...ops import cat, stack
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _rnn_step(nonlinearity):
    act = F.tanh if nonlinearity == "tanh" else F.relu

    def step(x_proj, state, w_hh, b_hh):
        return act(F.linear(state, w_hh, b_hh) + x_proj)
    return step


def _lstm_step(x_proj, state, w_hh, b_hh):
    h, c = state
    i, f, g, o = (x_proj + F.linear(h, w_hh, b_hh)).unsafe_chunk(4, 1)
    c = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
    return F.sigmoid(o) * F.tanh(c), c


def _gru_step(x_proj, h, w_hh, b_hh):
    x_r, x_z, x_n = x_proj.unsafe_chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).unsafe_chunk(3, 1)
    r, z = F.sigmoid(h_r + x_r), F.sigmoid(h_z + x_z)
    n = F.tanh(x_n + h_n * r)
    return (h - n) * z + n  # = (1 - z) n + z h, in torch's order


def _reset(module: Module) -> None:
    stdv = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -stdv, stdv)


class RNNBase(Module):
    """The stack of layers shared by RNN, LSTM and GRU: parameters ``weight_ih_l{k}``, ``weight_hh_l{k}``,
    ``bias_ih_l{k}``, ``bias_hh_l{k}`` (with ``_reverse`` for the backward direction), and the loop over time."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None) -> None:
        super().__init__()
        if not isinstance(dropout, (int, float)) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout, self.bidirectional = bias, batch_first, float(dropout), bidirectional
        self.proj_size = 0
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        for layer in range(num_layers):
            for suffix in ["", "_reverse"][:directions]:
                width = input_size if layer == 0 else hidden_size * directions
                shapes = [("weight_ih", (gate_size, width)), ("weight_hh", (gate_size, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                for name, shape in shapes:
                    setattr(self, f"{name}_l{layer}{suffix}", Parameter(empty(*shape, dtype=dtype, device=device)))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in registration order."""
        _reset(self)

    def _weights(self, layer, suffix):
        names = ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]
        return [getattr(self, f"{n}_l{layer}{suffix}", None) for n in names]

    def _step(self):
        return {"RNN_TANH": _rnn_step("tanh"), "RNN_RELU": _rnn_step("relu"), "LSTM": _lstm_step,
                "GRU": _gru_step}[self.mode]

    def _check(self, input, hx, expected):
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")
        states = hx if isinstance(hx, tuple) else (hx,)
        messages = ["Expected hidden[0] size {}, got {}", "Expected hidden[1] size {}, got {}"]
        for state, msg in zip(states, messages if self.mode == "LSTM" else ["Expected hidden size {}, got {}"]):
            if tuple(state.shape) != expected:
                raise RuntimeError(msg.format(expected, list(state.shape)))

    def forward(self, input: Tensor, hx=None):
        name = {"LSTM": "LSTM", "GRU": "GRU"}.get(self.mode, "RNN")
        if input.dim() not in (2, 3):
            tail = " tensor" if name == "RNN" else ""
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tail} instead")
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        directions = 2 if self.bidirectional else 1
        batch = input.size(0) if self.batch_first else input.size(1)
        states = hx if isinstance(hx, tuple) else (hx,)
        want = 3 if batched else 2
        kind = "batched 3-D" if batched else "unbatched 2-D"
        if hx is not None and any(state.dim() != want for state in states):
            if self.mode == "LSTM":
                raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but got "
                                   f"({states[0].dim()}-D, {states[1].dim()}-D) tensors")
            raise RuntimeError(f"For {kind} input, hx should also be {want}-D but got {states[0].dim()}-D tensor")
        if hx is None:
            zero = zeros(self.num_layers * directions, batch, self.hidden_size, dtype=input.dtype)
            states = (zero, zero) if self.mode == "LSTM" else (zero,)
        elif not batched:
            states = tuple(s.unsqueeze(1) for s in states)
        self._check(input, states if self.mode == "LSTM" else states[0],
                    (self.num_layers * directions, batch, self.hidden_size))
        x = input.transpose(0, 1) if self.batch_first else input
        step, finals = self._step(), []
        layers = [s.unbind(0) for s in states]  # one state per layer and direction, as torch splits them
        for layer in range(self.num_layers):
            outs = []
            for d, suffix in enumerate(["", "_reverse"][:directions]):
                k = layer * directions + d
                state = tuple(s[k] for s in layers) if self.mode == "LSTM" else layers[0][k]
                w_ih, w_hh, b_ih, b_hh = self._weights(layer, suffix)
                x_proj, seq = F.linear(x, w_ih, b_ih).unbind(0), []  # all time steps' inputs at once
                for t in (range(x.size(0)) if d == 0 else reversed(range(x.size(0)))):
                    state = step(x_proj[t], state, w_hh, b_hh)
                    seq.append(state[0] if self.mode == "LSTM" else state)
                outs.append(stack(seq if d == 0 else seq[::-1]))
                finals.append(state)
            x = outs[0] if directions == 1 else cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        output = x.transpose_(0, 1) if self.batch_first else x
        if self.mode == "LSTM":
            h_n, c_n = stack([f[0] for f in finals]), stack([f[1] for f in finals])
            if not batched:
                return output.squeeze(0 if self.batch_first else 1), (h_n.squeeze(1), c_n.squeeze(1))
            return output, (h_n, c_n)
        h_n = stack(finals)
        if not batched:
            return output.squeeze(0 if self.batch_first else 1), h_n.squeeze(1)
        return output, h_n

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu), layer over layer.

    >>> import autograd_tutor as torch
    >>> out, h = torch.nn.RNN(3, 4)(torch.zeros(5, 3))
    >>> out.shape, h.shape
    (torch.Size([5, 4]), torch.Size([1, 4]))
    """

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)


class LSTM(RNNBase):
    """Long short-term memory: four gates (input, forget, cell, output) per step; returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    """Gated recurrent unit: reset and update gates per step; returns (output, h_n)."""

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


class RNNCellBase(Module):
    """One time step: parameters ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(empty(num_chunks * hidden_size, input_size, dtype=dtype, device=device))
        self.weight_hh = Parameter(empty(num_chunks * hidden_size, hidden_size, dtype=dtype, device=device))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, dtype=dtype, device=device))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, dtype=dtype, device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in registration order."""
        _reset(self)

    def _run(self, name, step, input, hx, pair=False):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        states = hx if isinstance(hx, tuple) else (hx,)
        for k, state in enumerate(states if hx is not None else ()):
            if state.dim() not in (1, 2):
                which = f"hx[{k}]" if pair else "hidden"
                raise ValueError(f"{name}: Expected {which} to be 1D or 2D, got {state.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zero = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            states = (zero, zero) if pair else (zero,)
        elif not batched:
            states = tuple(s.unsqueeze(0) for s in states)
        x_proj = F.linear(input, self.weight_ih, self.bias_ih)
        out = step(x_proj, states if pair else states[0], self.weight_hh, self.bias_hh)
        if not batched:
            out = tuple(o.squeeze(0) for o in out) if pair else out.squeeze(0)
        return out

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(RNNCellBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx=None) -> Tensor:
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return self._run("RNNCell", _rnn_step(self.nonlinearity), input, hx)


class LSTMCell(RNNCellBase):
    """One LSTM step; returns (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx=None):
        return self._run("LSTMCell", _lstm_step, input, hx, pair=True)


class GRUCell(RNNCellBase):
    """One GRU step; returns h'."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx=None) -> Tensor:
        return self._run("GRUCell", _gru_step, input, hx)
