"""The scoring package is pure Python: no Flask, SQLAlchemy or WTForms (STYLE.md "Layout")."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scorer" / "scoring"
FORBIDDEN = {
    "flask",
    "flask_sqlalchemy",
    "flask_wtf",
    "flask_migrate",
    "sqlalchemy",
    "wtforms",
    "alembic",
    "werkzeug",
    "jinja2",
}

# scorer/__init__.py is the app factory and rightly imports Flask, so importing scorer.scoring the
# ordinary way loads Flask through the parent package. Stand in an empty parent to see what the
# scoring package itself pulls in.
PROBE = """
import json, sys, types
parent = types.ModuleType("scorer")
parent.__path__ = [sys.argv[1]]
sys.modules["scorer"] = parent
import scorer.scoring
print(json.dumps(sorted(sys.modules)))
"""


def loaded_by_importing_scoring() -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(PACKAGE.parent)],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parents[1],
    )
    return set(json.loads(done.stdout))


def test_importing_scoring_loads_no_web_or_database_library():
    loaded = loaded_by_importing_scoring()
    assert "scorer.scoring" in loaded
    assert "scorer.scoring.game" in loaded
    assert {name.split(".")[0] for name in loaded} & FORBIDDEN == set()


def imports_outside(source: str, package: str = "scorer.scoring") -> set[str]:
    """Modules a scoring source file imports that are third-party web/database code or the app."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level > 1:
                # `from .. import x` reaches out of the scoring package into the app.
                found.add("." * node.level + (node.module or ""))
                continue
            names = [node.module or ""] if node.level == 0 else []
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            in_package = name == package or name.startswith(package + ".")
            if top in FORBIDDEN or (top == "scorer" and not in_package):
                found.add(name)
    return found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("import flask", {"flask"}),
        ("from sqlalchemy.orm import Mapped", {"sqlalchemy.orm"}),
        ("def f():\n    import wtforms\n", {"wtforms"}),
        ("from .. import models", {".."}),
        ("from ..extensions import db", {"..extensions"}),
        ("from scorer.models import Game", {"scorer.models"}),
        ("from .cards import Deck\nimport dataclasses", set()),
        ("from scorer.scoring.cards import Deck", set()),
    ],
)
def test_import_scan_sees_forbidden_imports(source, found):
    assert imports_outside(source) == found


def test_no_scoring_module_imports_web_or_database_code():
    sources = sorted(PACKAGE.rglob("*.py"))
    assert {path.name for path in sources} >= {"__init__.py", "cards.py", "game.py"}
    offending = {
        str(path.relative_to(PACKAGE)): imports_outside(path.read_text())
        for path in sources
        if imports_outside(path.read_text())
    }
    assert offending == {}
