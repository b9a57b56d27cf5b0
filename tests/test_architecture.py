"""The shape of the code: the modules of `scorer` import each other without a cycle, and each layer
imports only what is below it (services from neither the doors nor the request, rules from no
service); every blueprint is registered in one place.

Every import counts, wherever it is written: at the top, inside a function, or under TYPE_CHECKING,
since each one ties the two modules together for whoever changes either.
"""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import scorer
from scorer import create_app

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


BABEL_WORDS = {"gettext", "ngettext", "pgettext", "lazy_gettext", "lazy_ngettext", "get_locale"}


def test_services_reach_neither_up_into_the_doors_nor_into_the_request():
    """Services are the use cases every door calls (pages, API, commands): none of them imports a
    view, form or the API, nor anything of the request's (request, session, g); the accounts
    service reads only the app's configured password hash."""
    graph = import_graph()
    doors = ("scorer.views", "scorer.forms", "scorer.api", "scorer.access", "scorer.cli")
    for name, targets in graph.items():
        if name.startswith("scorer.services."):
            assert not [target for target in targets if target.startswith(doors)], name
    for path in (ROOT / "services").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == "flask_babel":
                # Their words are in the reader's language; the request stays out of reach.
                assert {alias.name for alias in node.names} <= BABEL_WORDS, path.name
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("flask"):
                assert {alias.name for alias in node.names} <= {"current_app"}, path.name


def test_the_field_rules_and_the_forms_take_no_rule_from_a_service():
    """The name and number rules are shared by the forms, the API and a restore: they live in
    field_rules, which needs no service, and the forms read them from there, not through one."""
    graph = import_graph()
    # The rules' words module is how the field rules say their sentences in the reader's language.
    assert graph["scorer.field_rules"] <= {"scorer.scoring", "scorer.scoring.words"}
    for name in ("scorer.forms.games", "scorer.forms.players", "scorer.forms.auth"):
        assert not [target for target in graph[name] if target.startswith("scorer.services")]


def test_the_request_guards_take_accounts_and_scorer_links_from_their_services():
    graph = import_graph()
    assert {"scorer.services.accounts", "scorer.services.scorer_links"} <= graph["scorer.access"]
    assert "scorer.access" not in graph["scorer.services.accounts"]
    assert "scorer.access" not in graph["scorer.services.scorer_links"]


def test_every_blueprint_is_registered_in_one_place(tmp_path):
    calls = [
        path.relative_to(ROOT.parent).as_posix()
        for path in ROOT.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Attribute) and node.attr == "register_blueprint"
    ]
    assert calls == ["scorer/__init__.py"]
    defined = {
        module_name(path, ROOT)
        for path in ROOT.rglob("*.py")
        if re.search(r"^bp = Blueprint\(", path.read_text(), re.MULTILINE)
    }
    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/a"})
    registered = {blueprint.import_name for blueprint in app.blueprints.values()}
    assert registered == defined


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
