"""Nothing handed on: a deleted row's id names no later row, a removed account's cookie signs in as
nobody, and a phone's queued hand lands in the game it was counted for or nowhere."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from document import parse
from factories import hand_form
from flask import Flask
from flask.testing import FlaskClient

from scorer.cli import main
from scorer.extensions import db
from scorer.models import Game, User

PASSWORD = "correct horse battery"


def pad_fields(client: FlaskClient, game_id: int) -> dict[str, str]:
    """The hidden fields the game page's pad posts with every hand, as a phone keeps them."""
    form = parse(client.get(f"/games/{game_id}")).by_id("hand-form")
    assert form is not None
    key = form.value("game_key")
    assert key is not None
    return {"number": form.value("number") or "", "game_key": key}


def queued_hand(client: FlaskClient, game_id: int) -> dict[str, str]:
    """Hand 1 as a phone offline keeps it: Ann went out, Bob holds 10."""
    return pad_fields(client, game_id) | hand_form(0, {1: 10}, 1)


def hands_of(app: Flask, game_id: int) -> int:
    with app.app_context():
        query = sa.text("SELECT count(*) FROM hands WHERE game_id = :game")
        return db.session.scalar(query, {"game": game_id})


def test_a_deleted_games_queued_hand_lands_in_no_later_game(app, client, new_game):
    new_game(["Ann", "Bob"])
    game_id = new_game(["Ann", "Bob"])
    kept = queued_hand(client, game_id)
    assert kept["game_key"]

    assert client.post(f"/games/{game_id}/delete").status_code == 303
    later = new_game(["Cat", "Dan"])
    assert later > game_id

    sent = client.post(f"/games/{game_id}/hands/1/sync", data=kept)
    assert sent.status_code == 404
    assert sent.json["status"] == "refused"
    assert "no longer on the scorer" in sent.json["message"]
    assert hands_of(app, later) == 0
    # A share link or a bookmark of the deleted game opens nothing.
    for page in ("", "/share", "/qr.svg"):
        assert client.get(f"/games/{game_id}{page}").status_code == 404


def test_a_hand_counted_for_one_game_is_refused_by_another(app, client, new_game):
    """The key holds even where an id would be shared (as SQLite did before AUTOINCREMENT)."""
    first = new_game(["Ann", "Bob"])
    other = new_game(["Cat", "Dan"])
    sent = client.post(f"/games/{other}/hands/1/sync", data=queued_hand(client, first))
    assert sent.status_code == 409
    assert sent.json == {
        "status": "refused",
        "message": "This hand was counted for another game, which is no longer on the scorer. "
        "It was not added to this one.",
    }
    assert hands_of(app, other) == 0
    # Its own game takes it.
    sent = client.post(f"/games/{first}/hands/1/sync", data=queued_hand(client, first))
    assert sent.json["status"] == "stored"


def test_a_hand_queued_before_keys_is_taken_only_by_a_game_from_before_keys(app, client, new_game):
    old, new = new_game(["Ann", "Bob"]), new_game(["Cat", "Dan"])
    with app.app_context():
        db.session.execute(sa.update(Game).where(Game.id == old).values(sync_key=None))
        db.session.commit()
    assert pad_fields(client, old)["game_key"] == ""
    keyless = hand_form(0, {1: 10}, 1)

    refused = client.post(f"/games/{new}/hands/1/sync", data=keyless)
    assert refused.status_code == 409 and refused.json["status"] == "refused"
    assert client.post(f"/games/{old}/hands/1/sync", data=keyless).json["status"] == "stored"
    assert (hands_of(app, old), hands_of(app, new)) == (1, 0)


def test_ids_are_never_handed_on(app, new_game, session):
    ids = [new_game(2) for _ in range(3)]
    session.execute(sa.delete(Game).where(Game.id == ids[-1]))
    session.commit()
    assert new_game(2) == ids[-1] + 1


def sign_in(app: Flask, name: str) -> FlaskClient:
    client = app.test_client()
    response = client.post("/login", data={"name": name, "password": PASSWORD, "next": "/"})
    assert response.status_code == 303
    return client


def test_a_removed_users_cookie_never_signs_in_as_the_next_account(app):
    runner = app.test_cli_runner()
    added = runner.invoke(main, ["users", "add", "mallory", "--password", PASSWORD])
    assert added.exit_code == 0, added.output
    mallory = sign_in(app, "mallory")
    assert "Sign out mallory" in mallory.get("/").get_data(as_text=True)

    assert runner.invoke(main, ["users", "remove", "mallory", "--yes"]).exit_code == 0
    assert runner.invoke(main, ["users", "add", "carol", "--password", PASSWORD]).exit_code == 0

    page = mallory.get("/").get_data(as_text=True)
    assert "Sign out" not in page
    assert mallory.get("/games/new").status_code == 401
    assert mallory.post("/games/new", data={"action": "start"}).status_code == 401
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0
        # Nor is carol given mallory's id.
        assert db.session.scalar(sa.select(User.id).where(User.name == "carol")) == 2
    assert "Sign out carol" in sign_in(app, "carol").get("/").get_data(as_text=True)


@pytest.mark.parametrize("change", ["passwd", "logout"])
def test_a_new_password_or_a_sign_out_gives_the_account_a_new_session_key(app, change):
    runner = app.test_cli_runner()
    runner.invoke(main, ["users", "add", "carol", "--password", PASSWORD])
    with app.app_context():
        before = db.session.scalar(sa.select(User.session_key))
    client = sign_in(app, "carol")
    with client.session_transaction() as cookie:
        assert cookie["_user_id"] == before
    if change == "passwd":
        new_password = ["users", "passwd", "carol", "--password", "another good one"]
        assert runner.invoke(main, new_password).exit_code == 0
    else:
        client.post("/logout")
    with app.app_context():
        after = db.session.scalar(sa.select(User.session_key))
    assert after != before and len(after) >= 32
    assert client.get("/games/new").status_code == 401


def test_a_cookie_naming_an_account_by_id_signs_in_as_nobody(app, client):
    app.test_cli_runner().invoke(main, ["users", "add", "carol", "--password", PASSWORD])
    for old in ("1", "1:0"):
        with client.session_transaction() as cookie:
            cookie["_user_id"] = old
            cookie["_fresh"] = True
        assert client.get("/games/new").status_code == 401
