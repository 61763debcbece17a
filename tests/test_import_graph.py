"""The package's modules import one another one way only: no cycle at import time.

The graph is read from the source, not from ``sys.modules``: every module-level ``import`` and ``from ... import``
(also ``from . import x`` and the other relative forms) of every module under ``autograd_tutor/`` is an edge from
the importing module to the imported one. Importing a package runs its ``__init__``, so ``from .a.b import c``
leads to ``a``, ``a.b`` and (if it is a module) ``a.b.c``. Imports inside functions run later, on a call: they are
the documented way to break a genuinely late binding and are not edges here. A module's edge to the package
containing it is not counted (Python finishes the package's ``__init__`` around it; it is how every package's
modules reach their siblings).
"""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "autograd_tutor"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> nx.DiGraph:
    """Modules as nodes, an edge ``a -> b`` where ``a`` imports ``b`` at module level (top-level statements,
    including those under a module-level ``if``/``try``)."""
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(files)
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in _module_level(tree.body):
            for target in _targets(node, package):
                for m in _with_parents(target):
                    if m in files and m != name and not name.startswith(m + "."):
                        graph.add_edge(name, m)
    return graph


def _module_level(body: list):
    """The statements that run at import time: top level, and inside top-level if / try / with blocks."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    yield from _module_level(child.body if isinstance(child, ast.ExceptHandler) else [child])


def _targets(node, package: str) -> list:
    """The absolute names an import statement loads: ``import a.b`` -> a.b; ``from .x import y`` -> pkg.x and
    pkg.x.y (the latter counts only if it is a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = package.split(".")
        base = base[:len(base) - (node.level - 1)]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module
    return [module] + [f"{module}.{alias.name}" for alias in node.names]


def _with_parents(name: str) -> list:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def test_the_graph_is_read_from_the_source():
    graph = import_graph()
    assert graph.has_edge("autograd_tutor.autograd.engine", "autograd_tutor.events")
    assert graph.number_of_nodes() > 50


def test_no_import_cycle_among_the_package_modules():
    cycles = [c + c[:1] for c in nx.simple_cycles(import_graph())]
    assert not cycles, "import cycles at module level:\n" + "\n".join(" -> ".join(c) for c in cycles[:20])


def test_a_cycle_is_found():
    """The check itself: a graph with a loop reports it (so that the test above can fail)."""
    graph = import_graph()
    graph.add_edge("autograd_tutor.autograd.tensor", "autograd_tutor.autograd.ops.arithmetic")
    assert any("autograd_tutor.autograd.tensor" in c for c in nx.simple_cycles(graph))


def test_the_layers_run_one_way():
    """events <- engine core <- operations <- tensor methods <- nn, optim: no layer reaches one above it."""
    graph = import_graph()
    below = {"autograd_tutor.events": ("autograd_tutor.autograd",),
             "autograd_tutor.autograd.tensor": ("autograd_tutor.autograd.ops", "autograd_tutor.autograd.methods"),
             "autograd_tutor.autograd.function": ("autograd_tutor.autograd.ops", "autograd_tutor.autograd.methods"),
             "autograd_tutor.autograd.ops": ("autograd_tutor.autograd.methods", "autograd_tutor.nn"),
             "autograd_tutor.autograd.methods": ("autograd_tutor.nn", "autograd_tutor.optim")}
    for module, above in below.items():
        reached = set().union(*(nx.descendants(graph, m) for m in graph if m == module or m.startswith(module + ".")))
        assert not {m for m in reached if m.startswith(above)}, (module, sorted(m for m in reached if m.startswith(above)))


def test_the_engine_does_not_reach_the_drawing_or_the_widgets():
    reached = nx.descendants(import_graph(), "autograd_tutor.autograd")
    assert not {m for m in reached if m.startswith(("autograd_tutor.viz", "autograd_tutor.widgets",
                                                      "autograd_tutor.quiz"))}
