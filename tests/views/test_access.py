"""Owner mode: once an account exists, only signed-in users (or API tokens) change anything."""

from __future__ import annotations

import pytest
from factories import hand_form
from flask import Flask
from flask.testing import FlaskClient

from scorer import create_app
from scorer.cli import main
from scorer.extensions import db, rate_limiter
from scorer.services.accounts import add_user, authenticate, issue_token

PASSWORD = "correct horse battery"


@pytest.fixture
def owner(app: Flask) -> str:
    """Turn on owner mode with one account; yields its name."""
    with app.app_context():
        add_user(db.session, "Owner", PASSWORD)
    return "Owner"


@pytest.fixture(autouse=True)
def fresh_limits(app: Flask):
    with app.app_context():
        rate_limiter.reset()
    yield


def sign_in(client: FlaskClient, name: str = "Owner", password: str = PASSWORD):
    return client.post("/login", data={"name": name, "password": password, "next": "/"})


def test_without_an_owner_anyone_may_keep_score(client, new_game, rows):
    game_id = new_game(["Ann", "Bob"])
    response = client.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 12}, 1))
    assert response.status_code == 303
    assert rows("hands") == 1


def test_in_owner_mode_a_visitor_can_read_but_not_write(client, owner, new_game, play, rows):
    game_id = new_game(["Ann", "Bob"])
    play(game_id, 0, {1: 12})
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="hand-form"' not in html
    assert "Only signed-in users can record hands" in html
    assert 'id="edit-hand-1"' not in html
    assert 'id="undo-hand-1"' not in html
    for write_page in (
        "/games/new",
        f"/games/{game_id}/hands/1/edit",
        f"/games/{game_id}/hands/1/undo",
    ):
        assert client.get(write_page).status_code == 401

    response = client.post(f"/games/{game_id}/hands", data=hand_form(1, {0: 12}, 2))
    assert response.status_code == 401
    assert "Only signed-in users" in response.get_data(as_text=True)
    assert rows("hands") == 1
    assert client.post(f"/games/{game_id}/hands/1/undo").status_code == 401
    assert client.post("/games/new", data={"action": "start"}).status_code == 401
    assert rows("hands") == 1
    assert rows("games") == 1


def test_an_htmx_write_from_a_visitor_is_sent_to_sign_in(client, owner, new_game, rows):
    game_id = new_game(["Ann", "Bob"])
    response = client.post(
        f"/games/{game_id}/hands", data=hand_form(0, {1: 12}, 1), headers={"HX-Request": "true"}
    )
    assert response.status_code == 401
    assert response.headers["HX-Redirect"].startswith("/login?next=")
    assert rows("hands") == 0


def test_a_signed_in_user_keeps_score_and_signing_out_ends_it(client, owner, new_game, rows):
    game_id = new_game(["Ann", "Bob"])
    response = sign_in(client)
    assert response.status_code == 303
    assert 'id="hand-form"' in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert client.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 12}, 1)).status_code == 303
    assert rows("hands") == 1

    assert client.post("/logout").status_code == 303
    assert client.post(f"/games/{game_id}/hands", data=hand_form(1, {0: 3}, 2)).status_code == 401
    assert rows("hands") == 1


def test_a_wrong_password_is_refused_next_to_the_field(client, owner):
    response = sign_in(client, password="wrong password")
    assert response.status_code == 422
    assert "do not match" in response.get_data(as_text=True)
    assert client.post("/games/new", data={"action": ""}).status_code == 401


def test_signing_in_only_follows_links_within_the_site(client, owner):
    response = client.post(
        "/login", data={"name": "Owner", "password": PASSWORD, "next": "https://evil.example/"}
    )
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_password_guessing_is_slowed_down(client, owner):
    statuses = [sign_in(client, password=f"guess {n}").status_code for n in range(12)]
    assert statuses[:10] == [422] * 10
    assert statuses[10:] == [429, 429]
    # Even the right password waits until the minute is over.
    assert sign_in(client).status_code == 429


def test_passwords_are_stored_hashed_with_the_configured_method(app, owner):
    from scorer.models import User

    with app.app_context():
        user = db.session.query(User).one()
        assert PASSWORD not in user.password_hash
        method = app.config["PASSWORD_HASH_METHOD"]
        assert user.password_hash.startswith(f"{method}$")


def test_a_server_hashes_passwords_with_scrypt(databases, tmp_path):
    """The tests configure a cheap method; the app's own default is scrypt."""
    url = databases.fresh("sqlite", tmp_path)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test secret"})
    assert app.config["PASSWORD_HASH_METHOD"] == "scrypt"
    with app.app_context():
        user = add_user(db.session, "Owner", PASSWORD)
        assert user.password_hash.startswith("scrypt:")
        assert authenticate(db.session, "Owner", PASSWORD) == user
        assert authenticate(db.session, "Owner", "wrong horse battery") is None
        db.session.remove()
        db.engine.dispose()


def test_api_writes_need_a_token_in_owner_mode(app, client, owner, rows):
    body = {"mode": "standard", "players": ["Ann", "Bob"]}
    refused = client.post("/api/v1/games", json=body)
    assert refused.status_code == 401
    assert refused.is_json
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    assert (
        client.post(
            "/api/v1/games", json=body, headers={"Authorization": "Bearer not-a-token"}
        ).status_code
        == 401
    )
    assert rows("games") == 0

    with app.app_context():
        from scorer.models import User

        token = issue_token(db.session, db.session.query(User).one(), "test")
    created = client.post("/api/v1/games", json=body, headers={"Authorization": f"Bearer {token}"})
    assert created.status_code == 201
    assert client.get(created.headers["Location"]).status_code == 200
    assert rows("games") == 1


def test_session_cookie_is_http_only_lax_and_secure_over_https(app, owner):
    plain = app.test_client().post(
        "/login", data={"name": "Owner", "password": PASSWORD, "next": "/"}
    )
    cookie = plain.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie

    secure = app.test_client().post(
        "/login",
        data={"name": "Owner", "password": PASSWORD, "next": "/"},
        base_url="https://scores.example",
    )
    assert "Secure" in secure.headers["Set-Cookie"]


def test_users_can_be_added_and_given_tokens_from_the_command_line(app, rows):
    runner = app.test_cli_runner()
    added = runner.invoke(main, ["users", "add", "Owner", "--password", PASSWORD])
    assert added.exit_code == 0, added.output
    assert "Added Owner" in added.output
    too_short = runner.invoke(main, ["users", "add", "Other", "--password", "short"])
    assert too_short.exit_code != 0
    assert "at least 8 characters" in too_short.output
    token = runner.invoke(main, ["users", "token", "Owner", "--label", "bot"])
    assert token.exit_code == 0
    assert len(token.output.strip()) >= 40
    assert rows("users") == 1
    assert rows("api_tokens") == 1
