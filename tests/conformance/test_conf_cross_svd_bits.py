"""Functions of the tensor tours, run in torch and in autograd_tutor: ``cross`` / ``linalg.cross``, ``svd`` /
``linalg.svd`` / ``linalg.svdvals`` (values that do not depend on LAPACK's choice of signs), ``histogram``, the
bitwise operations and the in-place shape methods (``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``)."""
import pytest

pytest.importorskip("torch")

CASES = {
    "cross": """
        a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        b = torch.tensor([[0., 1., 0.], [1., 0., 2.]], requires_grad=True)
        c = torch.cross(a, b)
        print(c, torch.cross(a, b, dim=1), a.cross(b, dim=1), torch.linalg.cross(a, b))
        graph(c)
        d = torch.linalg.cross(a, b[:1])
        print(d)
        d.sum().backward()
        print(a.grad, b.grad)
        print(torch.cross(torch.ones(3, 2), torch.ones(3, 2)), torch.cross(a.detach().long(), b.detach().long(), dim=1))
        print(torch.linalg.cross(torch.tensor([1., 0., 0.]), torch.tensor([0., 1., 0.]), dim=0))
    """,
    "cross-errors": """
        a = torch.ones(2, 3)
        with expect(): torch.linalg.cross(a, a[0])
        with expect(): torch.cross(torch.ones(3, 2), torch.ones(3, 2), dim=1)
        with expect(): torch.linalg.cross(a[:, :2], a[:, :2])
        with expect(): torch.linalg.cross(a.long(), a)
        with expect(): torch.linalg.cross(a.double(), a)
        with expect(): torch.cross(torch.ones(2, 2), torch.ones(2, 2))
        with expect(): torch.linalg.cross(torch.ones(2, 3), torch.ones(4, 3))
        with expect(): torch.linalg.cross(a, a, dim=5)
    """,
    "svd-values-and-graph": """
        A = torch.tensor([[3., 0.], [4., 5.]], requires_grad=True)
        U, S, V = torch.svd(A)
        print(S, torch.allclose(U @ torch.diag(S) @ V.T, A, atol=1e-6))
        print(type(U.grad_fn).__name__, S.grad_fn is U.grad_fn, S.output_nr, type(V.grad_fn).__name__)
        print(V.grad_fn.next_functions[0][1], U.shape, V.shape)
        r = torch.linalg.svd(A)
        print(r.S, type(r.Vh.grad_fn).__name__, r.Vh.output_nr, torch.linalg.svdvals(A))
        print(torch.linalg.svd(A, full_matrices=False).S)
        S.sum().backward()
        val(A.grad)
        U, S, V = torch.svd(A, compute_uv=False)
        print(U, V, S)
    """,
    "svd-gradients": """
        torch.manual_seed(0)
        for shape in [(3, 3), (4, 2), (2, 5)]:
            A = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
            U, S, Vh = torch.linalg.svd(A, full_matrices=False)
            W = torch.arange(float(A.numel()), dtype=torch.float64).reshape(shape)
            ((U * S) @ Vh * W).sum().backward()
            val(A.grad)
            A.grad = None
            U, S, Vh = torch.linalg.svd(A, full_matrices=False)
            (U[:, :1] @ Vh[:1] * W).sum().backward()
            val(A.grad)
            A.grad = None
            U, S, V = torch.svd(A, some=False)
            (S ** 2).sum().backward()
            val(A.grad)
            print(U.shape, V.shape)
    """,
    "svd-errors": """
        with expect(): torch.svd(torch.ones(3))
        with expect(): torch.svd(torch.ones(3, 3).long())
        with expect(): torch.linalg.svd(torch.ones(3, dtype=torch.float64))
    """,
    "histogram": """
        x = torch.tensor([1., 2., 1., 4., 2.5])
        print(torch.histogram(x, bins=4, range=(0., 4.)), torch.histogram(x, bins=3))
        h = torch.histogram(x, torch.tensor([0., 1., 3., 5.]))
        print(h.hist, h.bin_edges, x.histogram(2))
        print(torch.histogram(x, bins=4, weight=torch.ones(5) * 2, density=True))
        print(torch.histogram(torch.tensor([2., 2.]), 2), torch.histogram(torch.tensor([0., 5., 9., 10.]), 3, range=(0., 10.)))
        print(torch.histogram(torch.tensor([1., 5.]), torch.tensor([3., 1.])), torch.histogram(torch.tensor([1., 5.], dtype=torch.float64), 2))
        print(torch.histogram(torch.tensor([1., 5.]), 2, range=(0, 1)), torch.histogram(torch.tensor([]), 2))
        print(torch.histogram(torch.tensor([1., 5.], requires_grad=True), 2))
        with expect(): torch.histogram(torch.tensor([1., 5., 9.]), 2, range=(3., 1.))
        with expect(): torch.histogram(torch.tensor([1., 5., 9.]), 0)
        with expect(): torch.histogram(torch.tensor([1., 5.]), 2, weight=torch.tensor([1.]))
        with expect(): torch.histogram(torch.tensor([1, 5]), 2)
        with expect(): torch.histogram(torch.tensor([1., float("nan")]), 2)
    """,
    "bitwise": """
        i = torch.tensor([5, 3])
        b = torch.tensor([True, False])
        print(torch.bitwise_xor(i, torch.tensor([1, 1])), torch.bitwise_xor(i, 1), torch.bitwise_xor(3, i))
        print(torch.bitwise_and(i, torch.tensor([1, 1])), torch.bitwise_or(i, torch.tensor([1, 1])), torch.bitwise_and(i, b))
        print(torch.bitwise_not(i), torch.bitwise_not(b), i.bitwise_not(), i.bitwise_xor(i))
        print(i ^ torch.tensor([1, 1]), b ^ torch.tensor([True, True]), 1 ^ i, 3 & i, i | b, b & True, b ^ 1)
        print(torch.bitwise_xor(i, torch.tensor([1], dtype=torch.int32)).dtype,
              torch.bitwise_xor(torch.tensor([1], dtype=torch.int32), 2).dtype)
        j = torch.tensor([5, 3])
        print(j.bitwise_and_(1), j, j._version)
        j ^= 1
        print(j, j._version)
        f = torch.tensor([1., 2.])
        with expect(): f & f
        with expect(): f ^ f
        with expect(): f | 1
        with expect(): i ^ 1.5
        with expect(): torch.bitwise_not(f)
        with expect(): ~f
        with expect(): torch.tensor([1, 2]) ^ torch.tensor([1, 2, 3])
    """,
    "shape-in-place": """
        w = torch.ones(3)
        print(w.unsqueeze_(0) is w, w.shape, w._version)
        a = torch.ones(2, 1, 3, requires_grad=True)
        for op in ["squeeze_(1)", "squeeze_()", "squeeze_((1,))", "unsqueeze_(0)", "transpose_(0, 2)"]:
            y = a * 1
            r = eval("y." + op)
            print(op, r is y, type(y.grad_fn).__name__, y.shape, y._version, y.is_contiguous())
        y = (a * 1).squeeze()
        y.t_()
        print(type(y.grad_fn).__name__, y.shape)
        graph(y)
        (y * torch.arange(6.).reshape(3, 2)).sum().backward()
        print(a.grad)
        z = torch.arange(6.).reshape(2, 3)
        v = z[0]
        v.unsqueeze_(0)
        print(v, v._base is z, v.shape, torch.ones(3).t_())
        with expect(): a.unsqueeze_(0)
        with expect(): torch.ones(2, 3, 4).t_()
        with expect(): torch.ones(3).squeeze_(5)
        with expect(): torch.ones(3).transpose_(0, 3)
        with torch.no_grad():
            print(a.unsqueeze_(0).shape, a.is_leaf)
    """,
}


@pytest.mark.parametrize("name", CASES)
def test_tour_functions(conform, name):
    conform(CASES[name])
