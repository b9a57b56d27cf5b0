"""An id no column can hold is no row's: every address with one answers 404, on every database."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorer.field_rules import ID_MAX
from scorer.routing import at_most

TOO_LARGE = (ID_MAX + 1, 2**63, 10**30)


def addresses_with_ids(app: Flask, number: int) -> list[tuple[str, str, str]]:
    """(method, address, blueprint) for every rule and method with an `int` in its address."""
    found = []
    for rule in app.url_map.iter_rules():
        converters = {
            name: type(converter).__name__ for name, converter in rule._converters.items()
        }
        if not any("Integer" in kind for kind in converters.values()):
            continue
        address = re.sub(
            r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>",
            lambda part: str(number) if "int" in (part.group(1) or "") else "x",
            rule.rule,
        )
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((method, address, rule.endpoint.partition(".")[0]))
    return found


def test_every_blueprint_has_addresses_with_ids(app):
    blueprints = {blueprint for _m, _a, blueprint in addresses_with_ids(app, 1)}
    assert {"games", "hands", "sync", "players", "leagues", "charts", "api"} <= blueprints


@pytest.mark.parametrize("number", TOO_LARGE)
def test_an_id_out_of_range_is_not_found_on_every_route(app, client, new_game, number):
    new_game(2)
    answers = {
        (method, address): client.open(address, method=method)
        for method, address, _blueprint in addresses_with_ids(app, number)
    }
    assert {key: answer.status_code for key, answer in answers.items()} == dict.fromkeys(
        answers, 404
    )
    for (_method, address), answer in answers.items():
        if address.startswith("/api/"):
            assert answer.is_json, address


def test_the_largest_id_a_column_holds_is_looked_up(client):
    assert client.get(f"/games/{ID_MAX}").status_code == 404
    assert client.get(f"/api/v1/games/{ID_MAX}").json == {"message": "There is no such game."}


@pytest.mark.parametrize("limit", [1, 9, 10, 305, 1000, ID_MAX, 2**63 - 1])
def test_the_pattern_matches_exactly_the_numbers_up_to_its_limit(limit):
    pattern = re.compile(at_most(limit))
    numbers = [*range(1100), limit - 1, limit, limit + 1, limit * 10, 10 ** len(str(limit))]
    numbers += [int(str(limit)[:-1] + str(digit)) for digit in range(10) if limit >= 10]
    assert [n for n in numbers if pattern.fullmatch(str(n))] == [n for n in numbers if n <= limit]
    assert pattern.fullmatch("007") is None
