"""Errors under /api/ are JSON with the right status, never an HTML page or a 500 for bad input."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from conftest import make_app
from flask import Flask

from scorer.extensions import db
from scorer.languages import babel
from scorer.services import games as game_service
from scorer.services.accounts import add_user

GAME = {"mode": "standard", "players": ["Ann", "Bob"]}


@pytest.mark.parametrize(
    "path", ["/api/v1/nothing", "/api/v1/games/1/hands/1/more", "/api/v2/games", "/api", "/api/"]
)
def test_an_unknown_api_address_is_404_json(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert "openapi.json" in response.json["message"]


def test_pages_outside_the_api_keep_their_html_errors(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    response = client.get("/games/999")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PATCH", "/api/v1/games/1", {"GET"}),
        ("DELETE", "/api/v1/games/1", {"GET"}),
        ("DELETE", "/api/v1/games", {"GET", "POST"}),
        ("PUT", "/api/v1/games/1/hands", {"POST"}),
        ("POST", "/api/v1/games/1/hands/1", {"PUT", "DELETE"}),
        ("GET", "/api/v1/games/1/hands/1", {"PUT", "DELETE"}),
        ("POST", "/api/v1/players", {"GET"}),
        ("DELETE", "/api/v1/players/1", {"GET"}),
        ("POST", "/api/v1/openapi.json", {"GET"}),
    ],
)
def test_a_wrong_method_is_405_json_with_allow(api, method, path, allowed):
    response = api.open(method, path)
    assert response.status_code == 405
    assert response.json["message"]
    assert allowed <= {part.strip() for part in response.headers["Allow"].split(",")}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"data": {"mode": "standard", "players": ["Ann", "Bob"]}},
        {"data": '{"mode": "standard"}', "content_type": "text/plain"},
        {"data": '{"mode": "standard"}', "content_type": "application/x-www-form-urlencoded"},
        {},
    ],
)
def test_a_write_that_is_not_json_is_415(api, kwargs):
    response = api.post("/api/v1/games", **kwargs)
    assert response.status_code == 415
    assert "application/json" in response.json["message"]
    assert api.get("/api/v1/players").json == {"players": [], "next": None}


def test_a_json_content_type_with_a_charset_is_json(api):
    raw = '{"mode": "standard", "players": ["Ann", "Bob"]}'
    response = api.post("/api/v1/games", data=raw, content_type="application/json; charset=utf-8")
    assert response.status_code == 201


@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b'{"mode": }', b"{'mode': 'standard'}", b"\xff\xfe", b"[" * 5000 + b"]" * 5000],
)
def test_malformed_json_is_400_json(api, raw):
    response = api.post("/api/v1/games", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json == {"message": "The body is not valid JSON."}


def test_a_body_too_large_is_413_json(api):
    raw = '{"mode": "standard", "players": ["' + "x" * 70_000 + '"]}'
    response = api.post("/api/v1/games", data=raw, content_type="application/json")
    assert response.status_code == 413
    assert response.json["message"]


def test_not_a_number_is_a_type_error(api):
    raw = '{"mode": "standard", "players": ["Ann", "Bob"], "target": NaN}'
    response = api.post("/api/v1/games", data=raw, content_type="application/json")
    assert response.status_code == 422
    assert list(response.json["errors"]) == ["target"]


def test_a_server_error_is_json_without_details(app: Flask, api, monkeypatch):
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def broken(*_args, **_kwargs):
        raise RuntimeError("secret detail")

    monkeypatch.setattr(game_service, "load_game", broken)
    response = api.client.get("/api/v1/games/1")
    assert response.status_code == 500
    assert response.mimetype == "application/json"
    assert response.json == {"message": "Something went wrong on the server."}


def test_the_api_needs_no_csrf_token_while_the_html_forms_do(app: Flask, api, client):
    app.config["WTF_CSRF_ENABLED"] = True
    assert client.post("/games/new", data={"action": "start"}).status_code == 400
    response = api.post("/api/v1/games", json=GAME)
    assert response.status_code == 201
    hands = f"/api/v1/games/{response.json['id']}/hands"
    assert api.post(hands, json=api.body(response.json, 0, {1: 5})).status_code == 201
    assert api.delete(f"{hands}/1").status_code == 200


def test_responses_carry_the_security_headers(api):
    response = api.get("/api/v1/players")
    assert response.headers["X-Content-Type-Options"] == "nosniff"


UNKNOWN = ["/api/v1/nothing", "/api/v1/games/1/more", "/api/v2/games", "/api", "/api/v1/games/"]


@pytest.fixture
def owner(app: Flask) -> None:
    with app.app_context():
        add_user(db.session, "Owner", "a long password")


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("path", UNKNOWN)
@pytest.mark.parametrize("mode", ["open", "owner"])
def test_a_write_to_an_unknown_api_address_is_404_json_in_every_mode(
    request, api, method, path, mode
):
    if mode == "owner":
        request.getfixturevalue("owner")
    response = api.open(method, path, json={})
    assert response.status_code == 404
    assert "openapi.json" in response.json["message"]


@pytest.mark.parametrize(
    ("method", "path"),
    [("PATCH", "/api/v1/games/1"), ("POST", "/api/v1/players"), ("DELETE", "/api/v1/players/1")],
)
def test_a_wrong_method_without_a_token_in_owner_mode_is_405_json(api, owner, method, path):
    response = api.open(method, path, json={})
    assert response.status_code == 405
    assert response.headers["Allow"]


def test_a_write_to_a_real_api_address_still_needs_a_token_in_owner_mode(api, owner):
    response = api.post("/api/v1/games", json=GAME)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.fresh_database
def test_messages_follow_the_requests_language_and_codes_stay(app, tmp_path):
    """A message is for a person: it is said in the language the request asks for (here from a
    catalog of one sentence), while the fields and the status stay the API's own."""
    catalog = Catalog(locale="de")
    catalog.add("There is no such game.", "Dieses Spiel gibt es nicht.")
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.mo").open("wb") as file:
        write_mo(file, catalog)
    german = make_app(
        app.config["SQLALCHEMY_DATABASE_URI"], BABEL_TRANSLATION_DIRECTORIES=str(tmp_path)
    )
    client = german.test_client()
    # Flask-Babel keeps catalogs by language for the whole process, whatever the app: this test's
    # German is read afresh, and forgotten after it.
    kept = babel.domain_instance.cache
    kept.clear()
    try:
        answer = client.get("/api/v1/games/999", headers={"Accept-Language": "de-DE, en;q=0.5"})
        assert answer.status_code == 404
        assert answer.json == {"message": "Dieses Spiel gibt es nicht."}
        assert client.get("/api/v1/games/999").json == {"message": "There is no such game."}
    finally:
        kept.clear()
        with german.app_context():
            db.session.remove()
            db.engine.dispose()
