"""The OpenAPI document: served, valid, complete, and true of the live app under generated requests.

The generated requests come from schemathesis, driven through Hypothesis inside a plain test, so
that they run on the `app` fixture (both databases). Schemathesis's own pytest integration
(`from_fixture`) is not used: it reaches into pytest internals that pytest 9 no longer has.
"""

from __future__ import annotations

import re

import pytest
import schemathesis
from factories import make_game, record
from flask import Flask
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorer.api.openapi import OPENAPI
from scorer.extensions import db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES = 150


def test_the_document_is_served(api):
    response = api.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.json == OPENAPI


def test_the_document_is_valid_openapi():
    schema = schemathesis.openapi.from_dict(OPENAPI)
    schema.validate()
    assert OPENAPI["openapi"].startswith("3.")


def test_every_api_route_is_documented_and_every_documented_operation_exists(app: Flask):
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
            routes |= {(path, method.lower()) for method in rule.methods - {"HEAD", "OPTIONS"}}
    documented = {
        (path, method)
        for path, item in OPENAPI["paths"].items()
        for method in item
        if method != "parameters"
    }
    assert routes == documented


def _seed(app: Flask) -> dict[str, int]:
    """A game in play and a finished one, so generated requests also reach real rows."""
    with app.app_context():
        playing = make_game(db.session, 4)
        record(db.session, playing, 0, {1: 5, 2: ["skip"], 3: 7})
        finished = make_game(db.session, 2, target=10)
        record(db.session, finished, 1, {0: 20})
        return {"playing": playing.id, "finished": finished.id}


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_generated_requests_get_documented_answers_and_never_a_5xx(app: Flask, mode):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    games = _seed(app)
    strategies = []
    for result in schema.get_all_operations():
        operation = result.ok()
        parameters = {param.name for param in operation.path_parameters}
        if mode is GenerationMode.NEGATIVE and not (parameters or operation.body):
            continue  # nothing in such a request can be made invalid
        strategies.append(operation.as_strategy(mode))
        if "game_id" in parameters:
            for game_id in games.values():
                fixed = {"game_id": game_id, **({"number": 1} if "number" in parameters else {})}
                strategies.append(operation.as_strategy(mode, path_parameters=fixed))

    @given(case=st.one_of(strategies))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def check(case):
        # Called through WSGI, nothing would undo the compression an HTTP client undoes itself.
        response = case.call(headers={"Accept-Encoding": "identity"})
        case.validate_response(response, checks=CHECKS)

    check()
