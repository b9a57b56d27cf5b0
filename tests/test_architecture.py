"""The shape of the code: the modules of `scorer` import each other without a cycle.

Every import counts, wherever it is written: at the top, inside a function, or under TYPE_CHECKING,
since each one ties the two modules together for whoever changes either.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import scorer

ROOT = Path(scorer.__file__).parent


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of the package under `root`, with the package's own modules it imports."""
    paths = {module_name(path, root): path for path in root.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            graph[name].update(t for t in _imported(node, package, paths) if t != name)
    return graph


def _imported(node: ast.AST, package: str, known: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [_known(alias.name, known) for alias in node.names if _known(alias.name, known)]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    found = []
    for alias in node.names:
        # `from . import games` imports the module games; `from .games import load_game` the
        # module that holds load_game.
        target = _known(f"{source}.{alias.name}", known) or _known(source, known)
        if target:
            found.append(target)
    return found


def _known(name: str, known: dict[str, Path]) -> str | None:
    return name if name in known else None


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of imports, as the modules along it, or [] when there is none."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        return list(error.args[1])
    return []


def test_the_modules_of_scorer_import_each_other_without_a_cycle():
    graph = import_graph()
    assert "scorer.services.games" in graph["scorer.services.hands"]
    assert cycle(graph) == []


def test_the_read_model_is_a_leaf_of_the_services():
    graph = import_graph()
    services = {
        target
        for target in graph["scorer.services.snapshots"]
        if target.startswith("scorer.services.")
    }
    assert services <= {"scorer.services.errors"}


def test_access_does_not_reach_into_the_views():
    graph = import_graph()
    assert not any(target.startswith("scorer.views") for target in graph["scorer.access"])


def test_a_cycle_through_an_import_in_a_function_or_under_type_checking_is_found(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from .b import g\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"
    )
    (package / "c.py").write_text("import pkg.a\n")
    graph = import_graph(package)
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.c": {"pkg.a"}}
    assert sorted(set(cycle(graph))) == ["pkg.a", "pkg.b"]
