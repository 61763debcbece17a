"""Distance and margin losses (issue 14: metric-learning and ranking lessons), and the likelihood losses:
``F.pairwise_distance``, ``triplet_margin_loss``, ``margin_ranking_loss``, ``hinge_embedding_loss``,
``cosine_embedding_loss``, ``soft_margin_loss``, ``multilabel_soft_margin_loss``, ``gaussian_nll_loss``,
``poisson_nll_loss`` and their modules. Run in torch and autograd_tutor: values, gradients, graphs (torch's C++
composites record AddBackward1 for ``t + number``), reprs and errors."""
import pytest

from test_conf_ops import LEAVES, PROGRAM

torch = pytest.importorskip("torch")

F = "torch.nn.functional."
Y = "torch.tensor([1., -1.])"

OPS = [
    F + "pairwise_distance(m, m.flip(0))", F + "pairwise_distance(m, v)", F + "pairwise_distance(x, w, p=1)",
    F + "pairwise_distance(m, v * 2, keepdim=True)", F + "pairwise_distance(t3, m, p=3., eps=0.1)",
    F + "triplet_margin_loss(m, m * 2, m.flip(1))", F + "triplet_margin_loss(m, v, m.flip(0), margin=2., swap=True)",
    F + "triplet_margin_loss(m, m + 1, v, p=1, reduction='none')", F + "triplet_margin_loss(m, v, m, reduction='sum')",
    F + f"margin_ranking_loss(x, w, {Y})", F + f"margin_ranking_loss(x, w, {Y}, margin=0.5, reduction='none')",
    F + "margin_ranking_loss(m, m.flip(1), torch.ones(2, 3), margin=1., reduction='sum')",
    F + f"hinge_embedding_loss(x, {Y})", F + f"hinge_embedding_loss(x * 0.1, {Y}, margin=2., reduction='none')",
    F + "hinge_embedding_loss(m, torch.tensor([[1., -1., 1.], [-1., -1., 1.]]), reduction='sum')",
    F + f"cosine_embedding_loss(m.t(), m.t().flip(0), torch.tensor([1., -1., 1.]))",
    F + f"cosine_embedding_loss(m, m * v, {Y}, margin=-0.5, reduction='none')",
    F + "cosine_embedding_loss(v, v.flip(0), torch.tensor(-1.))",
    F + f"soft_margin_loss(x, {Y})", F + "soft_margin_loss(m, torch.tensor([1., -1., 1.]), reduction='none')",
    F + "soft_margin_loss(t3 * 0.1, torch.ones(1), reduction='sum')",
    F + "multilabel_soft_margin_loss(m, torch.tensor([[1., 0., 1.], [0., 0., 1.]]))",
    F + "multilabel_soft_margin_loss(m, torch.tensor([[1., 0., 1.], [0., 0., 1.]]), weight=v, reduction='none')",
    F + "gaussian_nll_loss(m, m.flip(0), m.abs() + 0.5)", F + "gaussian_nll_loss(m, m * 2, v.abs(), full=True)",
    F + "gaussian_nll_loss(m, m * 2, b.abs(), reduction='sum')", F + "gaussian_nll_loss(x, w, 0.5, reduction='none')",
    F + "gaussian_nll_loss(m, m * 2, x.abs())", F + "gaussian_nll_loss(m, m + 1, torch.zeros(2, 3))",
    F + "poisson_nll_loss(m, m.abs())", F + "poisson_nll_loss(m.abs(), torch.tensor([0., 1., 3.]), log_input=False)",
    F + "poisson_nll_loss(m, torch.tensor([0., 2., 3.]), full=True, reduction='sum')",
    F + "poisson_nll_loss(v, torch.tensor([1., 5., 2.]), log_input=False, full=True, reduction='none')",
    "torch.nn.PairwiseDistance(p=1.)(m, v)", "torch.nn.TripletMarginLoss(margin=0.5, swap=True)(m, v, m.flip(1))",
    f"torch.nn.MarginRankingLoss(0.2)(x, w, {Y})", f"torch.nn.HingeEmbeddingLoss(0.5, reduction='sum')(x, {Y})",
    f"torch.nn.CosineEmbeddingLoss(0.1)(m, m.flip(1), {Y})", f"torch.nn.SoftMarginLoss(reduction='none')(x, {Y})",
    "torch.nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1., 2., 0.5]))(m, torch.tensor([[1., 0., 1.], [0., 0., 1.]]))",
    "torch.nn.GaussianNLLLoss(full=True, eps=0.1)(m, m.flip(1), m.abs())", "torch.nn.PoissonNLLLoss(full=True)(v, v.abs() * 2)",
]


@pytest.mark.parametrize("expr", OPS)
def test_op(conform, expr):
    conform(PROGRAM.format(expr=expr))


PRINTED = LEAVES + """
F, nn = torch.nn.functional, torch.nn
print(nn.PairwiseDistance(), nn.PairwiseDistance(p=1, eps=0.1, keepdim=True).norm, nn.TripletMarginLoss(margin=2.),
      nn.MarginRankingLoss(0.5), nn.HingeEmbeddingLoss(), nn.CosineEmbeddingLoss(), nn.SoftMarginLoss(),
      nn.MultiLabelSoftMarginLoss(weight=torch.ones(3)), nn.GaussianNLLLoss(full=True), nn.PoissonNLLLoss())
print(nn.TripletMarginLoss().margin, nn.TripletMarginLoss().p, nn.HingeEmbeddingLoss().margin, nn.PoissonNLLLoss().eps,
      nn.GaussianNLLLoss().eps, nn.MarginRankingLoss().margin, nn.MultiLabelSoftMarginLoss().weight)
print(F.pairwise_distance(torch.ones(3), torch.ones(3)), F.pairwise_distance(torch.ones(2, 3), torch.ones(3), keepdim=True))
y = F.soft_margin_loss(m, torch.ones(3))
print(y.grad_fn._saved_reduction, y.grad_fn._saved_target, F.pairwise_distance(m, v).grad_fn._saved_p,
      F.pairwise_distance(m, v).grad_fn._saved_dim, F.pairwise_distance(m, v, keepdim=True).grad_fn._saved_keepdim)
with expect(): F.margin_ranking_loss(x, w, torch.ones(2, 1))
with expect(): F.margin_ranking_loss(x, v, torch.ones(2))
with expect(): F.margin_ranking_loss(x, w, torch.ones(2), reduction='avg')
with expect(): F.soft_margin_loss(x, w)
with expect(): F.soft_margin_loss(x, torch.ones(3))
with expect(): F.soft_margin_loss(x, torch.ones(2), reduction='x')
with expect(): F.cosine_embedding_loss(m, m, torch.ones(2, 1))
with expect(): F.cosine_embedding_loss(m, m, torch.ones(()))
with expect(): F.cosine_embedding_loss(v, v, torch.ones(3))
with expect(): F.triplet_margin_loss(m, m, m, margin=0.)
with expect(): F.triplet_margin_loss(m, m, v)
with expect(): F.pairwise_distance(m, torch.ones(2))
with expect(): F.gaussian_nll_loss(m, m, -1.)
with expect(): F.gaussian_nll_loss(m, m, -torch.ones(2, 3))
with expect(): F.gaussian_nll_loss(m, m, torch.ones(3, 2))
with expect(): F.gaussian_nll_loss(m, m, 1)
with expect(): F.gaussian_nll_loss(m, m, torch.ones(2, 3), reduction='avg')
with expect(): F.poisson_nll_loss(m, m, reduction='avg')
with expect(): F.multilabel_soft_margin_loss(m, m, reduction='avg')
with expect(): nn.TripletMarginLoss(margin=-1.)
print(F.hinge_embedding_loss(x, torch.tensor([1, -1])), F.margin_ranking_loss(x, w, torch.tensor([1, -1])))
print(F.margin_ranking_loss(x, w, torch.ones(2), size_average=False), F.soft_margin_loss(x, torch.ones(2), reduce=False))
with torch.no_grad():
    print(F.soft_margin_loss(x, w))
"""


def test_printed(conform):
    conform(PRINTED)
