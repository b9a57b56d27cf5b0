"""The name and number limits every door shares: forms, services, the API and a restore."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorer import field_rules
from scorer.scoring import MAX_TARGET, setup_problems


@pytest.mark.parametrize(
    ("rule", "name", "problem"),
    [
        (field_rules.PLAYER_NAME, "  Ann  ", None),
        (field_rules.PLAYER_NAME, "x" * 40, None),
        (field_rules.PLAYER_NAME, " ", "Type a name."),
        (field_rules.PLAYER_NAME, "x" * 41, "Names are at most 40 characters."),
        (field_rules.PLAYER_NAME, "A\x07b", "Names cannot contain control characters."),
        (field_rules.TEAM_NAME, "", None),
        (field_rules.TEAM_NAME, "x" * 60, None),
        (field_rules.TEAM_NAME, "x" * 61, "Team names are at most 60 characters."),
        (field_rules.TEAM_NAME, "Re\x00ds", "Team names cannot contain control characters."),
        (field_rules.LEAGUE_NAME, "", "Type a name for the league."),
        (field_rules.LEAGUE_NAME, "Club\x1b", "League names cannot contain control characters."),
        (field_rules.LEAGUE_NAME, "\ud800", "League names cannot contain control characters."),
        (field_rules.USER_NAME, "x" * 41, "User names are at most 40 characters."),
    ],
)
def test_each_kind_of_name_has_one_rule_in_one_wording(rule, name, problem):
    assert rule.problem(name) == problem


def test_a_name_is_measured_once_cleaned():
    assert field_rules.clean_name("  Zoe \t  Ann ") == "Zoe Ann"
    assert field_rules.clean_name("Zoe\u0308") == "Zoë"  # NFC: one character, not two
    assert field_rules.PLAYER_NAME.problem("  " + "x" * 40 + "  ") is None


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (0, "The target must be a whole number of points above 0."),
        (-1, "The target must be a whole number of points above 0."),
        (True, "The target must be a whole number of points above 0."),
        (2.0, "The target must be a whole number of points above 0."),
        ("500", "The target must be a whole number of points above 0."),
        (None, "The target must be a whole number of points above 0."),
        (MAX_TARGET + 1, "The target can be at most 100,000 points."),
    ],
)
def test_a_target_outside_its_bounds_is_refused(target, message):
    assert field_rules.target_problem(target) == message


@pytest.mark.parametrize("target", [0, MAX_TARGET + 1])
def test_a_target_is_refused_in_the_rules_own_words(target):
    [problem] = setup_problems("standard", 2, target, 0)
    assert problem.message == field_rules.target_problem(target)


@pytest.mark.parametrize("target", [1, 500, MAX_TARGET])
def test_a_target_within_its_bounds_is_taken(target):
    assert field_rules.target_problem(target) is None


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        (1, True),
        (field_rules.ID_MAX, True),
        (0, False),
        (field_rules.ID_MAX + 1, False),
        (True, False),
    ],
)
def test_an_id_fits_an_integer_column(value, valid):
    assert field_rules.is_id(value) is valid


def test_the_field_rules_import_nothing_from_flask_or_the_database():
    tree = ast.parse(Path(field_rules.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        f"{'.' * node.level}{node.module or ''}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert imported <= {
        "__future__",
        "unicodedata",
        "collections.abc",
        "dataclasses",
        ".scoring",
        ".scoring.words",
    }
