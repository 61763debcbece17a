"""``torch.nn.utils.rnn.pad_sequence``: sequences of different lengths as one padded batch for a recurrent layer.

The batch is (longest length, number of sequences, *features), or batch first; each sequence is copied into its
column and the rest holds ``padding_value``. The copies are in-place changes of slices, recorded as in torch
(``CopySlices``), so the gradient of the padded batch flows back to each sequence.

>>> import autograd_tutor as torch
>>> pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])], batch_first=True)
tensor([[1, 2, 3],
        [4, 0, 0]])
"""
from __future__ import annotations

from ...autograd.factories import full

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0, padding_side: str = "right"):
    """Stack ``sequences`` (each (length, *features)) into one tensor padded to the longest length, on the
    right (the default) or the left."""
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(s.shape[0] for s in sequences)
    first = sequences[0]
    shape = (len(sequences), longest) if batch_first else (longest, len(sequences))
    out = full(shape + tuple(first.shape[1:]), padding_value, dtype=first.dtype)
    for i, s in enumerate(sequences):
        start = longest - s.shape[0] if padding_side == "left" else 0
        out.select(0 if batch_first else 1, i).narrow(0, start, s.shape[0]).copy_(s)
    return out
