"""Signing in and out for real: sessions end on the server, the sign-in limit counts an address and
a name together, and an unknown name costs a password check like a known one."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.security import check_password_hash

from scorer.extensions import db, rate_limiter
from scorer.services.accounts import add_user, authenticate

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def accounts(app: Flask) -> None:
    with app.app_context():
        rate_limiter.reset()
        add_user(db.session, "Owner", PASSWORD)
        add_user(db.session, "Helper", PASSWORD)


def sign_in(
    client: FlaskClient, name: str = "Owner", password: str = PASSWORD, address: str = "10.0.0.1"
):
    return client.post(
        "/login",
        data={"name": name, "password": password, "next": "/"},
        environ_base={"REMOTE_ADDR": address},
    )


def may_write(client: FlaskClient) -> bool:
    return client.get("/games/new").status_code == 200


def session_cookie(client: FlaskClient) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def test_a_session_cookie_replayed_after_sign_out_is_refused(app, client):
    assert sign_in(client).status_code == 303
    copied = session_cookie(client)
    assert client.post("/logout").status_code == 303
    assert not may_write(client)

    thief = app.test_client()
    thief.set_cookie("session", copied)
    assert not may_write(thief)
    assert thief.post("/games/new", data={"action": "start"}).status_code == 401


def test_the_same_cookie_works_while_its_session_lasts(app, client):
    # The control for the test above: a copied cookie is a session until it is ended.
    sign_in(client)
    copy = app.test_client()
    copy.set_cookie("session", session_cookie(client))
    assert may_write(copy)


def test_signing_out_ends_only_that_users_sessions(app, client):
    sign_in(client)
    helper = app.test_client()
    sign_in(helper, "Helper")
    client.post("/logout")
    assert may_write(helper)
    # Signing in again starts a session that works.
    sign_in(client)
    assert may_write(client)


def test_a_session_from_before_generations_is_refused(app, client):
    # A cookie from before this release names the user by id alone.
    with client.session_transaction() as session:
        session["_user_id"] = "1"
        session["_fresh"] = True
    assert not may_write(client)


def test_the_sign_in_limit_counts_each_name_from_each_address(client):
    statuses = [sign_in(client, password=f"guess {n}").status_code for n in range(11)]
    assert statuses == [422] * 10 + [429]
    assert sign_in(client).status_code == 429
    # Someone else behind the same address (a proxy, a league venue's wifi) still signs in.
    assert sign_in(client, "Helper").status_code == 303
    # So does the owner from another address, and the name is the same however it is typed.
    assert sign_in(client, address="10.0.0.2").status_code == 303
    assert sign_in(client, " OWNER ", "guess", address="10.0.0.1").status_code == 429


def test_an_unknown_name_checks_a_password_like_a_known_one(app, monkeypatch):
    checked: list[str] = []
    real_check = check_password_hash

    def counting(stored: str, password: str) -> bool:
        checked.append(stored)
        return real_check(stored, password)

    monkeypatch.setattr("scorer.services.accounts.check_password_hash", counting)
    with app.app_context():
        assert authenticate(db.session, "Nobody", PASSWORD) is None
        assert len(checked) == 1
        # A hash made the way real passwords are, so the check costs the same.
        owner = authenticate(db.session, "Owner", PASSWORD)
        assert owner is not None
        assert checked[0].split("$")[0] == owner.password_hash.split("$")[0]
        assert authenticate(db.session, "Owner", "wrong password") is None
    assert len(checked) == 3
