# Source: after the PyTorch notes "Extending PyTorch" (custom autograd Function): exp and a clamp with mark_non_differentiable-free backward, gradcheck.
import torch
from torch.autograd import Function, gradcheck


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


torch.manual_seed(0)
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = Exp.apply(x)
print(y)
y.sum().backward()
print(x.grad)
print(y.grad_fn.name() if hasattr(y.grad_fn, "name") else y.grad_fn)

input = (torch.randn(20, 20, dtype=torch.double, requires_grad=True),
         torch.randn(30, 20, dtype=torch.double, requires_grad=True))
test = gradcheck(LinearFunction.apply, input, eps=1e-6, atol=1e-4)
print(test)
out = LinearFunction.apply(input[0], input[1])
print(out.shape, type(out.grad_fn).__name__)
