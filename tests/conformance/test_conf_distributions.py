"""``torch.distributions``: Normal, Categorical, Bernoulli, Uniform as a policy-gradient or VAE lesson uses them.
Run in torch and autograd_tutor: samples after ``manual_seed`` (the same numbers), log_prob / entropy / mean /
stddev and their graphs and gradients, reprs, and the errors of argument validation."""
import pytest

torch = pytest.importorskip("torch")

SAMPLES = """
D = torch.distributions  # a program's `from torch.distributions import ...` would import real torch in both runs
Normal, Categorical, Bernoulli, Uniform = D.Normal, D.Categorical, D.Bernoulli, D.Uniform
torch.manual_seed(0)
n = Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
print(n, n.sample(), n.sample((3,)), n.rsample(), n.batch_shape, n.event_shape, n.has_rsample)
print(n.sample((40,)).mean(0))
c = Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))
print(c.sample(), c.sample((4,)), c.sample((2, 3)), c.enumerate_support())
c2 = Categorical(logits=torch.tensor([[1., 2., 3.], [0., 0., 0.]]))
print(c2.sample(), c2.sample((5,)), c2.batch_shape, c2.param_shape, c2.enumerate_support(), c2.enumerate_support(False))
b = Bernoulli(probs=torch.tensor([0.3, 0.9]))
print(b.sample(), b.sample((3,)), Bernoulli(0.5).sample((6,)))
u = Uniform(torch.tensor([0., -1.]), torch.tensor([2., 1.]))
print(u, u.sample(), u.rsample((2,)), Uniform(0., 2.).sample((3,)))
print(Normal(torch.zeros(3, dtype=torch.float64), 1.).sample(), Normal(0., 1.).sample((20,)))
"""

STATS = """
D = torch.distributions  # a program's `from torch.distributions import ...` would import real torch in both runs
Normal, Categorical, Bernoulli, Uniform = D.Normal, D.Categorical, D.Bernoulli, D.Uniform
n = Normal(0., 1.)
print(n, n.mean, n.stddev, n.variance, n.loc, n.scale, n.mode, n.batch_shape, n.event_shape)
print(n.log_prob(torch.tensor([0.5, 1.])), n.entropy(), n.cdf(torch.tensor(0.3)), n.perplexity())
c = Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))
print(c, c.probs, c.logits, c.entropy(), c.log_prob(torch.tensor(2)), c.log_prob(torch.tensor([0, 1, 2, 2])), c.mode)
print(c.mean, c.variance, c.support, c.arg_constraints)
c2 = Categorical(logits=torch.tensor([[1., 2., 3.], [0., 0., 0.]]))
print(c2, c2.logits, c2.probs, c2, c2.entropy(), c2.log_prob(torch.tensor([2, 0])), c2.log_prob(torch.tensor([[1], [2]])))
b = Bernoulli(probs=torch.tensor([0.3, 0.9]))
print(b, b.log_prob(torch.tensor([1., 0.])), b.entropy(), b.mean, b.variance, b.stddev, b.logits, b.param_shape)
print(Bernoulli(logits=torch.tensor(0.)), Bernoulli(logits=torch.tensor([-2., 3.])).probs, Bernoulli(probs=0.3))
u = Uniform(0., 2.)
print(u, u.log_prob(torch.tensor([1., 1.5])), u.entropy(), u.mean, u.stddev, u.variance, u.cdf(torch.tensor([0.5, 1.5])), u.support)
print(Normal(torch.tensor([0., 1.]), 2.), Normal(torch.tensor([0.]), torch.tensor([1.])), Normal(0., torch.ones(2, 3)).batch_shape)
print(Normal(0., 1., validate_args=False).log_prob(torch.tensor(2.)), Categorical(logits=torch.zeros(2)).probs)
print(torch.distributions.constraints.positive, torch.distributions.constraints.simplex, torch.distributions.constraints.real_vector)
print(torch.distributions.constraints.unit_interval.check(torch.tensor([0., 0.5, 1.5])), torch.distributions.Distribution._validate_args)
"""

GRADS = """
D = torch.distributions
Normal, Categorical, Bernoulli = D.Normal, D.Categorical, D.Bernoulli
torch.manual_seed(1)
mu = torch.tensor([0.5, -1.], requires_grad=True)
sigma = torch.tensor([1., 2.], requires_grad=True)
z = Normal(mu, sigma).rsample((5,))
print(z)
graph(z)
z.sum().backward()
print(mu.grad, sigma.grad)
lp = Normal(mu, sigma).log_prob(torch.tensor([0., 1.]))
graph(lp)
lp.sum().backward()
print(mu.grad, sigma.grad)
ent = Normal(mu, sigma).entropy()
graph(ent)
logits = torch.tensor([[0.2, -0.4, 1.0], [1.5, 0., -1.]], requires_grad=True)
dist = Categorical(logits=logits)
action = dist.sample()
lp = dist.log_prob(action)
graph(lp)
(-lp * torch.tensor([1., -2.])).sum().backward(retain_graph=True)
print(action, lp, logits.grad)
h = dist.entropy()
graph(h)
h.sum().backward()
print(logits.grad)
p = torch.tensor([0.2, 0.7], requires_grad=True)
dist = Categorical(probs=p)
lp = dist.log_prob(torch.tensor(1))
graph(lp)
lp.backward()
print(p.grad)
q = torch.tensor([0.25, 0.5], requires_grad=True)
bl = Bernoulli(probs=q).log_prob(torch.tensor([1., 0.]))
graph(bl)
bl.sum().backward()
print(q.grad, Bernoulli(logits=q).entropy())
"""

ERRORS = """
D = torch.distributions  # a program's `from torch.distributions import ...` would import real torch in both runs
Normal, Categorical, Bernoulli, Uniform = D.Normal, D.Categorical, D.Bernoulli, D.Uniform
with expect(): Normal(0., -1.)
with expect(): Normal(torch.tensor([0.]), torch.tensor([-1.]))
with expect(): Normal(torch.tensor([0., 1.]), torch.tensor([1., 0.]))
with expect(): Normal(float('nan'), 1.)
with expect(): Categorical(torch.tensor([0.5, -1.]))
with expect(): Categorical(torch.tensor(1.))
with expect(): Categorical(logits=torch.tensor(1.))
with expect(): Categorical(torch.ones(2), torch.ones(2))
with expect(): Categorical(logits=torch.tensor([0., float('nan')]))
with expect(): Bernoulli(torch.tensor([1.5]))
with expect(): Bernoulli()
with expect(): Bernoulli(probs=0.3).log_prob(torch.tensor(0.5))
with expect(): Normal(0., 1.).log_prob(1.)
with expect(): Uniform(2., 1.)
with expect(): Uniform(0., 1.).log_prob(torch.tensor(2.))
with expect(): Categorical(torch.ones(3)).log_prob(torch.tensor(3))
with expect(): Normal(torch.zeros(2), 1.).log_prob(torch.zeros(3))
with expect(): Normal(0., 'a')
print(Normal(0., -1., validate_args=False).scale, Categorical(torch.tensor([1., 3.]), validate_args=False).probs)
"""


@pytest.mark.parametrize("program", [SAMPLES, STATS, GRADS, ERRORS], ids=["samples", "stats", "grads", "errors"])
def test_distributions(conform, program):
    conform(program)


KL = """
D = torch.distributions
Normal, Categorical, Bernoulli, Uniform, kl = D.Normal, D.Categorical, D.Bernoulli, D.Uniform, D.kl_divergence
mu = torch.tensor([0.5, -1.], requires_grad=True)
log_sigma = torch.tensor([0.1, -0.3], requires_grad=True)
k = kl(Normal(mu, log_sigma.exp()), Normal(0., 1.))   # a VAE's KL term
print(k, D.kl.kl_divergence is kl); k.sum().backward(); print(mu.grad, log_sigma.grad)
logits = torch.tensor([[1., 2., 0.], [0., 0., 0.]], requires_grad=True)
k = kl(Categorical(logits=logits), Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))); print(k)
k.sum().backward(); print(logits.grad)
print(kl(Categorical(probs=torch.tensor([0.5, 0.5, 0.])), Categorical(probs=torch.tensor([0.5, 0., 0.5]))),
      kl(Categorical(probs=torch.tensor([0.5, 0.5, 0.])), Categorical(probs=torch.tensor([0.5, 0.25, 0.25]))))
p = torch.tensor([0.3, 0., 1., 0.5], requires_grad=True)
k = kl(Bernoulli(probs=p), Bernoulli(probs=torch.tensor([0.5, 0.5, 0.5, 0.]))); print(k)
print(kl(Uniform(0., 1.), Uniform(-1., 2.)), kl(Uniform(0., 3.), Uniform(-1., 2.)), kl(Uniform(0., 1.), Normal(0., 1.)))
with expect():
    kl(Normal(0., 1.), Uniform(0., 1.))
@D.kl.register_kl(Uniform, Uniform)
def mine(p, q):
    return torch.tensor(42.)
print(kl(Uniform(0., 1.), Uniform(-1., 2.)))
"""


def test_kl_divergence(conform):
    conform(KL)
