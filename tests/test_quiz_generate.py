"""Questions generated from a live graph: every key is checked against an oracle that runs the same code afresh
and asks the library itself (our engine's real backward, and real PyTorch where it is installed)."""
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import autograd_tutor
from autograd_tutor.quiz import quiz_from
from autograd_tutor.quiz.facts import GraphFacts
from strategies import programs

PRE = "x = torch.tensor(2.0, requires_grad=True)\nw = torch.tensor(3.0, requires_grad=True)\n"
SCENARIOS = {
    "chain": "z = w * x\nloss = (z + 1) ** 2",
    "untracked input": "c = torch.tensor(5.0)\nz = w * x\nloss = z * c + x",
    "detach": "z = w * x\nd = z.detach()\nloss = z * d + w",
    "no_grad": "with torch.no_grad():\n    s = w * 2\nz = w * x\nloss = z * s",
    "retain_grad": "z = w * x\nz.retain_grad()\nh = z.exp()\nloss = h * w",
    "input used twice": "y = x * x\nloss = y * x",
    "vectors": ("v = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)\nm = v * v\n"
                "loss = m.sum() + (v * w).mean()"),
    "nothing saved": "loss = x + w + 1",
    "tanh chain": "a = x * 2\nb = a.tanh()\nloss = b * w",
    "non-scalar root": "v = torch.tensor([1.0, 2.0], requires_grad=True)\nloss = v * w",
    "named tensor off the graph": "z = w * x\nother = w * 7\nloss = z.sum()",
    "after backward": "z = w * x\nloss = z * 2\nloss.backward()",
    "after backward, nothing saved": "z = w + x\nloss = z.sum()\nloss.backward()",
    "part freed earlier": "y = x + 1\ny.backward()\nz = y * w\nloss = z",
    "changed in place": "z = w * x\nloss = z * w\nwith torch.no_grad():\n    w.add_(1)",
    "linear layer": ("lin = torch.nn.Linear(2, 1)\nwith torch.no_grad():\n"
                     "    lin.weight.copy_(torch.tensor([[0.5, -1.0]]))\n    lin.bias.fill_(0.25)\n"
                     "inp = torch.tensor([[1.0, 2.0]])\nout = lin(inp)\nloss = (out * x).sum()"),
    "detach of a leaf, reused": "xd = x.detach()\nloss = (x * xd) * w",
}


@pytest.fixture(params=["engine", "torch"])
def oracle(request):
    if request.param == "torch":
        return pytest.importorskip("torch")
    return autograd_tutor


def run(source: str, lib) -> dict:
    ns = {"torch": lib}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(PRE + source, ns)
    return ns


def lookup(ns: dict, name: str):
    obj = ns[name.split(".")[0]]
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def category(t) -> str:
    return "nonleaf" if not t.is_leaf else "leaf_grad" if t.requires_grad else "leaf_nograd"


def backward(ns: dict, lib, names) -> None:
    """Clear the .grad of every named tensor, then run the root's backward as the question phrases it."""
    loss = ns["loss"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            t = lookup(ns, name)
            if t.requires_grad:
                t.grad = None
        loss.backward() if loss.numel() == 1 else loss.backward(lib.ones_like(loss))


def grad_at(t, index: str) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = t.grad
    return float(g.detach().reshape(-1)[0]) if index else float(g)


def raises(fn) -> bool:
    try:
        fn()
    except RuntimeError:
        return True
    return False


def count_paths(root, target) -> int:
    """Paths from ``root.grad_fn`` to the node of ``target`` in the library's own graph."""
    def is_target(node):
        if target.grad_fn is not None:
            return node is target.grad_fn
        return getattr(node, "variable", None) is target

    memo = {}

    def paths(node):
        if node not in memo:
            memo[node] = int(is_target(node)) + sum(paths(n) for n, _ in node.next_functions if n is not None)
        return memo[node]
    return paths(root.grad_fn)


def oracle_answer(q, build, lib):
    """The right answer to ``q``, found by running the code afresh in ``lib`` and asking the tensors."""
    ns = build(lib)
    names = [c.strip("`") for c in q.choices]
    # a result the program gave no name is an operation's output: never a leaf, and its .grad is not kept
    named = [i for i, c in enumerate(q.choices) if not c.startswith("the unnamed ")]
    if q.id == "leaves":
        return [i for i in named if lookup(ns, names[i]).is_leaf]
    if q.id == "grad-fn":
        return lookup(ns, re.search(r"`(\S+?)\.grad_fn`", q.prompt).group(1)).grad_fn.name()
    if q.id == "gets-grad":
        backward(ns, lib, [names[i] for i in named])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [i for i in named if lookup(ns, names[i]).grad is not None]
    if q.id in ("grad-value", "retain-grad"):
        name, index = re.search(r"add(?:s)? into `(\S+?)\.grad(\[[0-9, ]+\])?`", q.prompt).groups()
        target = lookup(ns, name)
        if q.id == "retain-grad":
            target.retain_grad()
        backward(ns, lib, [n for n in ns if not n.startswith("_") and hasattr(ns[n], "grad_fn")])
        return grad_at(target, index)
    if q.id == "second-backward":
        if q.prompt.startswith("What happens if you call"):
            return 0 if raises(lambda: backward(ns, lib, [])) else 1
        backward(ns, lib, [])
        return 0 if raises(lambda: backward(ns, lib, [])) else 1
    if q.id == "paths":
        return count_paths(ns["loss"], lookup(ns, re.search(r"back to `(\S+?)`", q.prompt).group(1)))
    if q.id == "classify":
        return {n["id"]: category(lookup(ns, n["label"])) for n in q.diagram["nodes"] if n["classify"]}
    raise AssertionError(q.id)


def wrong(q, right):
    """An answer that differs from ``right``."""
    if q.kind == "multiple":
        return sorted(set(right) ^ {0}) or [1]
    if q.kind == "single":
        return 1 - right
    if q.kind == "numeric":
        return str(right + 0.1 * max(1.0, abs(right)))
    if q.kind == "text":
        return right + "x"
    flip = dict(right)
    first = next(iter(flip))
    flip[first] = "leaf_nograd" if flip[first] != "leaf_nograd" else "nonleaf"
    return flip


def check_quiz_against(quiz, build, lib):
    for q in quiz.questions:
        right = oracle_answer(q, build, lib)
        answer = repr(right) if q.kind == "numeric" else right
        assert q.check(answer)[0], f"{q.id}: the oracle says {right!r}; the generated key disagrees"
        assert not q.check(wrong(q, right))[0], f"{q.id}: the key also accepts a wrong answer"


@pytest.mark.parametrize("name", SCENARIOS)
def test_generated_keys_agree_with_the_oracle(name, oracle):
    source = SCENARIOS[name]
    ns = run(source, autograd_tutor)
    quiz = quiz_from(ns["loss"], names=ns)
    assert len(quiz) >= 5
    check_quiz_against(quiz, lambda lib: run(source, lib), oracle)


def test_which_questions_each_situation_gets():
    every = ["leaves", "grad-fn", "gets-grad", "grad-value", "second-backward", "paths", "retain-grad", "classify"]
    ns = run(SCENARIOS["tanh chain"], autograd_tutor)
    assert [q.id for q in quiz_from(ns["loss"], names=ns)] == every
    ns = run(SCENARIOS["after backward"], autograd_tutor)
    ids = [q.id for q in quiz_from(ns["loss"], names=ns).questions]
    assert "gets-grad" not in ids and "grad-value" not in ids and "retain-grad" not in ids
    ns = run(SCENARIOS["chain"] + "\nx.register_hook(lambda g: g * 2)", autograd_tutor)
    quiz = quiz_from(ns["loss"], names=ns)
    assert "grad-value" not in [q.id for q in quiz.questions]  # hooks change gradients: no numeric key then
    check_quiz_against(quiz, lambda lib: run(SCENARIOS["chain"] + "\nx.register_hook(lambda g: g * 2)", lib),
                       autograd_tutor)


def test_questions_use_the_callers_names():
    weight = autograd_tutor.tensor(3.0, requires_grad=True)
    inputs = autograd_tutor.tensor(2.0, requires_grad=True)
    product = weight * inputs
    total = product * product
    quiz = quiz_from(total)
    text = str(quiz)
    for name in ("weight", "inputs", "product", "total"):
        assert f"`{name}`" in text
    assert quiz.title == "Your graph: total"


def test_second_backward_key_follows_saved_tensors():
    ns = run("loss = x + w", autograd_tutor)
    f = GraphFacts(ns["loss"], ns)
    assert (f.saved_nodes, f.second_backward_raises, f.backward_error) == ([], False, None)
    ns = run("loss = (x * w).exp()", autograd_tutor)
    f = GraphFacts(ns["loss"], ns)
    assert f.second_backward_raises and [n for n, _ in f.saved_nodes] == ["ExpBackward0", "MulBackward0"]
    ns = run("loss = x * w\nloss.backward()", autograd_tutor)
    f = GraphFacts(ns["loss"], ns)
    assert f.backward_error.startswith("Trying to backward through the graph a second time")


def test_quiz_from_leaves_the_graph_and_grads_untouched():
    """Generating keys runs no real backward: no .grad written, nothing freed, no event emitted."""
    from autograd_tutor import events
    ns = run("z = w * x\nz.retain_grad()\nloss = z * z", autograd_tutor)
    with events.record() as trace:
        quiz = quiz_from(ns["loss"], names=ns)
    assert list(trace) == []
    assert ns["x"].grad is None and ns["w"].grad is None and ns["z"].grad is None
    assert ns["loss"].grad_fn.saved_summary()
    ns["loss"].backward()
    assert quiz.check("grad-value", str(ns["x"].grad.item())).correct


def test_quiz_from_refuses_a_tensor_without_a_graph():
    with pytest.raises(ValueError, match="no grad_fn.*does not require grad"):
        quiz_from(autograd_tutor.tensor(1.0))
    leaf = autograd_tutor.tensor(1.0, requires_grad=True)
    with pytest.raises(ValueError, match="a leaf you created"):
        quiz_from(leaf)
    with pytest.raises(TypeError, match="expects a Tensor"):
        quiz_from(3.0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_generated_keys_on_random_programs_agree_with_the_engine(program):
    ts, loss, values = program.run(autograd_tutor)

    def build(lib):
        ts, loss, values = program.run(lib)
        return {**{f"v{i}": t for i, t in enumerate(ts + values)}, "loss": loss, "torch": lib}
    ns = build(autograd_tutor)
    check_quiz_against(quiz_from(ns["loss"], names=ns), build, autograd_tutor)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_graph_gradients_on_random_programs_agree_with_torch(program):
    torch = pytest.importorskip("torch")

    def build(lib):
        ts, loss, values = program.run(lib)
        return {**{f"v{i}": t for i, t in enumerate(ts + values)}, "loss": loss, "torch": lib}
    ns = build(autograd_tutor)
    facts = GraphFacts(ns["loss"], ns)
    ref = build(torch)
    ref["loss"].backward()
    for i, leaf in enumerate(program.leaves):
        ours = facts.gradient(facts.fact(ns[f"v{i}"]))
        expected = ref[f"v{i}"].grad
        if ours is None:
            assert expected is None or not expected.abs().sum()
        else:
            np.testing.assert_allclose(ours, expected.numpy(), rtol=1e-6, atol=1e-9)
    check_quiz_against(quiz_from(ns["loss"], names=ns), build, torch)


@pytest.mark.parametrize("factor, typed", [(1.0049, "1.00"), (123.456, "123"), (-0.0123456, "-0.0123"),
                                           (0.33333333, "1/3"), (2.5e-4, "0")])
def test_numbers_rounded_to_three_significant_digits_pass(factor, typed):
    x = autograd_tutor.tensor(2.0, requires_grad=True)
    loss = x * factor
    quiz = quiz_from(loss, names={"x": x, "loss": loss})
    assert quiz.check("grad-value", typed).correct


def test_untracked_inputs_made_before_the_leaves_are_still_offered():
    ns = run("", autograd_tutor)  # x, w
    c = autograd_tutor.tensor(5.0)
    x = autograd_tutor.tensor(2.0, requires_grad=True)
    loss = x * c                      # MulBackward0 saves c: it belongs with this graph
    f = GraphFacts(loss, {"c": c, "x": x, "loss": loss, "w": ns["w"]})
    assert [t.name for t in f.tensors] == ["x", "loss", "c"]  # w was made earlier and is unrelated


# ---------------------------------------------------------------- gradients that are nan or infinite

def _gradient_questions(quiz):
    return [q for q in quiz if q.id in ("grad-value", "retain-grad")]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy on sqrt(-1), 0 * inf
@pytest.mark.parametrize("start, typed, wrong", [(0.0, "inf", "-inf"), (-1.0, "NaN", "inf")])
def test_a_non_finite_gradient_is_asked_only_with_a_way_to_answer_it(start, typed, wrong):
    x = autograd_tutor.tensor(start, requires_grad=True)
    loss = x.sqrt() * 2
    quiz = quiz_from(loss, names={"x": x, "loss": loss})
    q = quiz["grad-value"]
    assert "type nan, inf or -inf" in q.prompt
    assert not quiz.check(q.id, wrong).correct and not quiz.check(q.id, "5").correct
    assert quiz.check(q.id, typed).correct


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy on sqrt(-1), 0 * inf
def test_a_finite_gradient_is_asked_about_before_a_non_finite_one():
    x = autograd_tutor.tensor(0.0, requires_grad=True)   # d(sqrt x)/dx = inf at 0
    w = autograd_tutor.tensor(3.0, requires_grad=True)
    loss = x.sqrt() + w * 2
    quiz = quiz_from(loss, names={"x": x, "w": w, "loss": loss})
    assert "∂loss/∂w" in quiz["grad-value"].prompt and "nan" not in quiz["grad-value"].prompt
    assert quiz.check("grad-value", "2").correct


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy on sqrt(-1), 0 * inf
def test_every_generated_numeric_question_has_an_answer_that_can_be_typed():
    """Over graphs whose gradients are finite, infinite and nan: a question whose answer is not finite says
    so and takes nan, inf or -inf; any other refuses those words as answers of the wrong form."""
    from autograd_tutor.quiz.keys import InvalidAnswer
    seen = set()
    for start in (-1.0, 0.0, 4.0):
        x = autograd_tutor.tensor(start, requires_grad=True)
        z = x.sqrt()
        loss = z * z.log()
        for q in _gradient_questions(quiz_from(loss, names={"x": x, "z": z, "loss": loss})):
            if "type nan" in q.prompt:
                assert any(q.check(a)[0] for a in ("nan", "inf", "-inf")), q.prompt
                seen.add("non-finite")
            else:
                with pytest.raises(InvalidAnswer):
                    q.check("nan")
                seen.add("finite")
    assert seen == {"finite", "non-finite"}


def test_a_graph_with_two_names_still_offers_four_choices_its_unnamed_results_among_them():
    x = autograd_tutor.tensor(1.0, requires_grad=True)
    total = x * 2 + x * 3 + x.exp()
    quiz = quiz_from(total, {"x": x, "total": total})
    for qid in ("leaves", "gets-grad"):
        assert quiz[qid].choices == ("`x`", "`total`", "the unnamed `MulBackward0` result #1",
                                     "the unnamed `AddBackward0` result")
    assert quiz.check("leaves", [0]).correct and quiz.check("gets-grad", [0]).correct
    assert ("The gradients of `total`, the unnamed `MulBackward0` result #1 and the unnamed `AddBackward0` result "
            "pass through") in quiz["gets-grad"].explanation
