"""The account commands: `scorer users remove/passwd` and `scorer tokens list/revoke`."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorer.cli import main
from scorer.extensions import db, rate_limiter
from scorer.models import ApiToken, User
from scorer.services.accounts import add_user, issue_token

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new passphrase"


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    with app.app_context():
        rate_limiter.reset()
        add_user(db.session, "Owner", PASSWORD)
        add_user(db.session, "Helper", PASSWORD)
    return app.test_cli_runner()


def count(app: Flask, model) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(model))


def token_for(app: Flask, name: str, label: str) -> str:
    with app.app_context():
        user = db.session.scalar(sa.select(User).where(User.name == name))
        return issue_token(db.session, user, label)


def signed_in(app: Flask, name: str = "Owner", password: str = PASSWORD) -> FlaskClient:
    client = app.test_client()
    response = client.post("/login", data={"name": name, "password": password, "next": "/"})
    assert response.status_code == 303
    return client


def can_start_a_game(client: FlaskClient) -> bool:
    return client.get("/games/new").status_code == 200


def test_removing_a_user_asks_first(app, runner):
    token_for(app, "Helper", "bot")
    declined = runner.invoke(main, ["users", "remove", "Helper"], input="n\n")
    assert declined.exit_code != 0
    assert "Remove Helper and their 1 API token?" in declined.output
    assert count(app, User) == 2

    accepted = runner.invoke(main, ["users", "remove", "Helper"], input="y\n")
    assert accepted.exit_code == 0, accepted.output
    assert "Removed Helper" in accepted.output
    assert count(app, User) == 1
    assert count(app, ApiToken) == 0


def test_removing_a_user_with_yes_does_not_ask_and_their_sessions_end(app, runner):
    client = signed_in(app, "Helper")
    assert can_start_a_game(client)
    removed = runner.invoke(main, ["users", "remove", "Helper", "--yes"])
    assert removed.exit_code == 0, removed.output
    assert "Remove Helper" not in removed.output
    assert not can_start_a_game(client)


def test_removing_the_last_user_says_owner_mode_is_off(app, runner):
    runner.invoke(main, ["users", "remove", "Helper", "--yes"])
    last = runner.invoke(main, ["users", "remove", "Owner"], input="y\n")
    assert "No account will be left" in last.output
    assert "anyone who reaches the server can change scores again" in last.output
    assert count(app, User) == 0


def test_removing_an_unknown_user_fails(runner):
    result = runner.invoke(main, ["users", "remove", "Nobody", "--yes"])
    assert result.exit_code != 0
    assert "There is no user called Nobody." in result.output


def test_a_new_password_signs_in_and_ends_every_session(app, runner):
    phone, laptop = signed_in(app), signed_in(app)
    other_user = signed_in(app, "Helper")
    changed = runner.invoke(main, ["users", "passwd", "Owner"], input=f"{NEW_PASSWORD}\n" * 2)
    assert changed.exit_code == 0, changed.output
    assert "signed out everywhere" in changed.output

    assert not can_start_a_game(phone)
    assert not can_start_a_game(laptop)
    assert can_start_a_game(other_user)
    old = app.test_client().post("/login", data={"name": "Owner", "password": PASSWORD})
    assert old.status_code == 422
    assert can_start_a_game(signed_in(app, password=NEW_PASSWORD))


def test_a_new_password_must_be_long_enough(app, runner):
    result = runner.invoke(main, ["users", "passwd", "Owner", "--password", "short"])
    assert result.exit_code != 0
    assert "at least 8 characters" in result.output
    assert can_start_a_game(signed_in(app))


def test_tokens_are_listed_with_user_label_and_last_use(app, runner, client):
    token = token_for(app, "Owner", "league bot")
    token_for(app, "Helper", "")
    before = runner.invoke(main, ["tokens", "list"])
    assert before.exit_code == 0
    lines = before.output.splitlines()
    assert lines[0].split() == ["ID", "USER", "LABEL", "LAST", "USED", "(UTC)"]
    assert lines[1].split() == ["1", "Owner", "league", "bot", "never"]
    assert lines[2].split() == ["2", "Helper", "-", "never"]

    body = {"mode": "standard", "players": ["Ann", "Bob"]}
    created = client.post("/api/v1/games", json=body, headers={"Authorization": f"Bearer {token}"})
    assert created.status_code == 201
    after = runner.invoke(main, ["tokens", "list"]).output.splitlines()
    used = datetime.strptime(" ".join(after[1].split()[-2:]), "%Y-%m-%d %H:%M")
    now = datetime.now(UTC).replace(tzinfo=None)
    assert abs((now - used).total_seconds()) < 120
    assert after[2].split()[-1] == "never"


def test_a_token_is_written_down_as_used_at_most_once_a_minute(app, runner, client):
    token = token_for(app, "Owner", "bot")
    headers = {"Authorization": f"Bearer {token}"}
    body = {"mode": "standard", "players": ["Ann", "Bob"]}
    assert client.post("/api/v1/games", json=body, headers=headers).status_code == 201
    with app.app_context():
        first = db.session.scalar(sa.select(ApiToken.last_used_at))
    assert client.post("/api/v1/games", json=body, headers=headers).status_code == 201
    with app.app_context():
        assert db.session.scalar(sa.select(ApiToken.last_used_at)) == first
        # As if the last use were two minutes ago: the next one is written down.
        db.session.execute(sa.update(ApiToken).values(last_used_at=datetime(2026, 1, 1)))
        db.session.commit()
    assert client.post("/api/v1/games", json=body, headers=headers).status_code == 201
    with app.app_context():
        assert db.session.scalar(sa.select(ApiToken.last_used_at)) > datetime(2026, 1, 1)


def test_an_empty_token_list_says_so(runner):
    result = runner.invoke(main, ["tokens", "list"])
    assert result.exit_code == 0
    assert result.output.strip() == "No API tokens."


def test_a_revoked_token_stops_working(app, runner, client):
    token = token_for(app, "Owner", "bot")
    kept = token_for(app, "Owner", "other")
    revoked = runner.invoke(main, ["tokens", "revoke", "1"])
    assert revoked.exit_code == 0, revoked.output
    assert "Revoked token 1" in revoked.output
    body = {"mode": "standard", "players": ["Ann", "Bob"]}
    refused = client.post("/api/v1/games", json=body, headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 401
    allowed = client.post("/api/v1/games", json=body, headers={"Authorization": f"Bearer {kept}"})
    assert allowed.status_code == 201

    again = runner.invoke(main, ["tokens", "revoke", "1"])
    assert again.exit_code != 0
    assert "There is no API token with id 1." in again.output
