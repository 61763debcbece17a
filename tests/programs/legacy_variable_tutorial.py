# Source: after pre-0.4 PyTorch tutorials still read today (e.g. Morvan Zhou's PyTorch-Tutorial, "Variable"): Variable, FloatTensor, .data.
import torch
from torch.autograd import Variable

tensor = torch.FloatTensor([[1, 2], [3, 4]])
variable = Variable(tensor, requires_grad=True)
print(tensor)
print(variable)

t_out = torch.mean(tensor * tensor)
v_out = torch.mean(variable * variable)
print(t_out)
print(v_out)
v_out.backward()
print(variable.grad)
print(variable.data)
print(variable.data.numpy())

labels = torch.LongTensor([0, 2, 1])
print(labels, labels.dtype)
empty = torch.FloatTensor(2, 3).zero_()
print(empty)
print(isinstance(tensor, Variable), type(variable) is type(tensor))
