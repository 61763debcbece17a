# Source: after Karpathy's lecture "The spelled-out intro to neural networks and backpropagation" (micrograd): the tanh neuron done again in torch.
import torch

x1 = torch.tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.tensor([-3.0]).double()
w1.requires_grad = True
w2 = torch.tensor([1.0]).double()
w2.requires_grad = True
b = torch.tensor([6.8813735870195432]).double()
b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)

print(o.data.item())
o.backward()
print("---")
print("x2", x2.grad.item())
print("w2", w2.grad.item())
print("x1", x1.grad.item())
print("w1", w1.grad.item())
print(o.grad_fn, n.grad_fn.next_functions[0][0])

# the same neuron as a tiny MLP trained on four points, the lecture's closing example
torch.manual_seed(1337)
xs = torch.tensor([[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]])
ys = torch.tensor([1.0, -1.0, -1.0, 1.0])
layers = [torch.nn.Linear(3, 4), torch.nn.Linear(4, 4), torch.nn.Linear(4, 1)]
params = [p for layer in layers for p in layer.parameters()]
print(sum(p.numel() for p in params))
for k in range(20):
    h = xs
    for layer in layers:
        h = torch.tanh(layer(h))
    ypred = h.squeeze(1)
    loss = ((ypred - ys) ** 2).sum()
    for p in params:
        p.grad = None
    loss.backward()
    for p in params:
        p.data += -0.1 * p.grad
    if k % 5 == 4:
        print(k, loss.item())
print([round(v, 4) for v in ypred.tolist()])
