# Source: after NumPy-to-PyTorch cheat sheets used in courses: the numpy-style keywords torch accepts (axis=, keepdims=) and conversions.
import numpy as np
import torch

a = np.arange(12, dtype=np.float32).reshape(3, 4)
t = torch.from_numpy(a)
print(t.sum(axis=0))
print(t.mean(axis=1, keepdims=True))
print(torch.cumsum(t, axis=0))
print(t.max(axis=1))
print(torch.sum(t, axis=1, keepdims=True))
print(np.allclose(t.std(axis=0).numpy(), a.std(axis=0, ddof=1)))
print(torch.argmax(t, axis=1))
print(t.numpy().dtype, torch.tensor(a).dtype, torch.as_tensor(a.astype(np.float64)).dtype)
