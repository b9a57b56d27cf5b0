"""The JSON endpoints (the phone's queue sending hands, and the API) answer every error in JSON: a
body too large, a refused CSRF token, a sign-in needed, not only the refusals of the rules."""

from __future__ import annotations

import json

import pytest
from conftest import make_app
from factories import hand_form
from flask import Flask
from flask.testing import FlaskClient

from scorer.extensions import db
from scorer.services.accounts import add_user

# Past the app's MAX_CONTENT_LENGTH (64 KB).
TOO_LARGE = "x" * 70_000
PASSWORD = "correct horse battery"


@pytest.fixture
def guarded(app: Flask):
    """The same app and database with CSRF protection on, as in production."""
    secured = make_app(app.config["SQLALCHEMY_DATABASE_URI"], WTF_CSRF_ENABLED=True)
    yield secured.test_client()
    with secured.app_context():
        db.session.remove()
        db.engine.dispose()


def sync(client: FlaskClient, game_id: int, data: dict):
    return client.post(f"/games/{game_id}/hands/1/sync", data=data)


@pytest.mark.parametrize("csrf", [False, True])
def test_a_hand_too_large_is_refused_in_json(client, guarded, new_game, csrf):
    game_id = new_game(2)
    sender = guarded if csrf else client
    response = sync(sender, game_id, hand_form(0, {1: 10}, 1) | {"counts-1-cards": TOO_LARGE})
    assert response.status_code == 413
    # Refused for good: the phone shows it for the table to drop, rather than sending it again.
    assert response.json == {
        "status": "refused",
        "message": "This hand is too large for the scorer to take.",
    }


def test_a_refused_csrf_token_is_said_in_json_and_leaves_the_hand_to_be_sent_again(
    guarded, new_game
):
    game_id = new_game(2)
    response = sync(guarded, game_id, hand_form(0, {1: 10}, 1))
    assert response.status_code == 400
    # No status: the phone fetches a fresh token and sends the hand again.
    assert response.json == {"message": "The CSRF token is missing."}


def test_a_send_that_needs_a_sign_in_is_said_in_json(app, client, new_game):
    game_id = new_game(2)
    with app.app_context():
        add_user(db.session, "Owner", PASSWORD)
    response = sync(client, game_id, hand_form(0, {1: 10}, 1))
    assert response.status_code == 401
    assert response.json == {"message": "Only signed-in users can change scores on this server."}


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/games/1/hands"])
def test_an_api_body_too_large_is_413_in_json(guarded, new_game, path):
    new_game(2)
    body = json.dumps({"mode": "standard", "players": ["Ann", TOO_LARGE]})
    response = guarded.post(path, data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.json == {"message": "The body is too large."}
