"""The static SVG's geometry holds on random graphs, not only on the suite's (tests/viz_suite.py measures it).

Hypothesis draws op mixes (:func:`viz_suite.op_mix`: fan-in, fan-out, reuse ``x * x``, views, constants, Python
numbers, ``detach``/``no_grad`` cuts, multi-output ``unbind``/``split``, a shared ``nn.Linear``, grouped as module
calls or not) of 0 to 45 ops; each drawing must have no edge through a node, no text overflowing its box, no
overlapping texts, nothing outside the viewBox and module frames that keep clear of other nodes. Crossings are
compared to Graphviz ``dot`` by ``benchmarks/viz.py`` (dot is not a test dependency).
"""
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
import viz_suite  # noqa: E402

from autograd_tutor.viz import to_svg  # noqa: E402

CHOICE = st.tuples(st.integers(0, viz_suite.OP_KINDS - 1), st.integers(0, 999), st.integers(0, 999))


def assert_clean(model):
    counts = viz_suite.measure_svg(to_svg(model))
    details = counts.pop("details")
    broken = {k: counts[k] for k in ("through_nodes", "overflows", "overlaps", "outside", "frames_cut",
                                     "frames_crossed") if counts[k]}
    assert not broken, (broken, details["overflows"][:5], details["overlaps"][:5])


@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(CHOICE, max_size=45), st.booleans())
def test_random_graphs_draw_cleanly(choices, grouped):
    assert_clean(viz_suite.op_mix_model(choices, grouped))


def test_the_random_graphs_have_every_kind_of_op():
    """Not blind: one mix of every op kind draws its cuts, its multi-output ops and its module group."""
    choices = [(k, k, k + 1) for k in range(viz_suite.OP_KINDS)]
    model = viz_suite.op_mix_model(choices, grouped=True)
    svg = to_svg(model)
    for name in ("UnbindBackward0", "SplitWithSizesBackward0", "ViewBackward0", "StackBackward0", "CatBackward0"):
        assert name in svg or name.replace("Backward0", "") in svg, name
    assert model.snapshot().get("groups")
    assert_clean(model)
