"""Scorer links: in owner mode, whoever holds a game's link records its hands and nothing else."""

from __future__ import annotations

import re

import segno
import sqlalchemy as sa
from document import parse
from factories import hand_form
from flask import Flask
from flask.testing import FlaskClient

from scorer.extensions import db
from scorer.models import ScorerLink

# The test client keeps cookies per host, so every request goes to the one it signed in on.
BASE = "http://localhost"


def make_link(organiser: FlaskClient, game_id: int) -> str:
    """Make the game's scorer link on its share page; gives the link's path."""
    response = organiser.post(f"/games/{game_id}/scorer-link")
    assert response.status_code == 201
    url = parse(response).by_id("scorer-link").attrs["href"]
    assert url.startswith(f"{BASE}/games/{game_id}/score/")
    return url.removeprefix(BASE)


def table_with(app: Flask, path: str) -> FlaskClient:
    """A phone at the table that opened the scorer link."""
    table = app.test_client()
    opened = table.get(path)
    assert opened.status_code == 303
    assert opened.headers["Location"] == path.split("/score/")[0]
    return table


def test_the_holder_records_edits_undoes_and_syncs_that_games_hands(app, organiser, new_game, rows):
    game_id = new_game(["Ann", "Bob"])
    table = table_with(app, make_link(organiser, game_id))
    page = table.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="hand-form"' in page
    # The pad, not the menu: starting a game still needs a signed-in user.
    assert 'href="/games/new"' not in page

    assert table.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 12}, 1)).status_code == 303
    assert 'id="edit-hand-1"' in table.get(f"/games/{game_id}").get_data(as_text=True)
    assert table.get(f"/games/{game_id}/hands/1/edit").status_code == 200
    edited = table.post(f"/games/{game_id}/hands/1/edit", data=hand_form(0, {1: 20}, 1))
    assert edited.status_code == 303
    assert table.get(f"/games/{game_id}/hands/1/undo").status_code == 200
    assert table.post(f"/games/{game_id}/hands/1/undo").status_code == 303
    assert rows("hands") == 0
    key = parse(table.get(f"/games/{game_id}")).value("game_key")
    synced = table.post(
        f"/games/{game_id}/hands/1/sync", data=hand_form(1, {0: 7}, 1) | {"game_key": key}
    )
    assert synced.status_code == 200
    assert rows("hands") == 1


def test_the_holder_can_do_nothing_else(app, organiser, new_game, rows):
    game_id, other_id = new_game(["Ann", "Bob"]), new_game(["Cat", "Dan"])
    table = table_with(app, make_link(organiser, game_id))
    assert 'id="hand-form"' not in table.get(f"/games/{other_id}").get_data(as_text=True)
    refused = [
        table.post(f"/games/{other_id}/hands", data=hand_form(0, {1: 12}, 1)),
        table.post(f"/games/{other_id}/hands/1/sync", data=hand_form(0, {1: 12}, 1)),
        table.get("/games/new"),
        table.post("/games/new", data={"action": "start"}),
        table.post(f"/games/{game_id}/rematch"),
        table.post(f"/games/{game_id}/scorer-link"),
        table.post(f"/games/{game_id}/scorer-link/revoke"),
        table.post("/leagues/new", data={}),
        table.post("/api/v1/games", json={"mode": "standard", "players": ["Eve", "Fay"]}),
    ]
    assert [response.status_code for response in refused] == [401] * len(refused)
    assert rows("hands") == 0
    assert rows("games") == 2
    assert rows("scorer_links") == 1


def test_a_revoked_link_stops_working_for_every_phone_that_opened_it(app, organiser, new_game):
    game_id = new_game(["Ann", "Bob"])
    path = make_link(organiser, game_id)
    table = table_with(app, path)
    share = organiser.get(f"/games/{game_id}/share")
    assert parse(share).by_id("revoke-scorer-link") is not None
    assert organiser.post(f"/games/{game_id}/scorer-link/revoke").status_code == 303

    assert 'id="hand-form"' not in table.get(f"/games/{game_id}").get_data(as_text=True)
    response = table.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 12}, 1))
    assert response.status_code == 401
    reopened = app.test_client().get(path)
    assert reopened.status_code == 404
    assert "no longer works" in reopened.get_data(as_text=True)


def test_a_new_link_replaces_the_old_one(app, organiser, new_game):
    game_id = new_game(["Ann", "Bob"])
    old = make_link(organiser, game_id)
    table = table_with(app, old)
    new = make_link(organiser, game_id)
    assert new != old
    assert app.test_client().get(old).status_code == 404
    assert table.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 12}, 1)).status_code == 401
    fresh = table_with(app, new)
    assert fresh.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 12}, 1)).status_code == 303


def test_the_link_stops_working_when_the_game_ends(app, organiser, new_game, play):
    game_id = new_game(["Ann", "Bob"], target=100)
    path = make_link(organiser, game_id)
    table = table_with(app, path)
    play(game_id, 0, {1: 150})
    assert table.post(f"/games/{game_id}/hands/1/undo").status_code == 401
    assert app.test_client().get(path).status_code == 404
    over = organiser.post(f"/games/{game_id}/scorer-link")
    assert over.status_code == 409
    section = parse(organiser.get(f"/games/{game_id}/share")).find("section", class_="scorer-link")
    assert "This game is over" in section.text
    assert section.find("form") is None


def test_a_made_up_token_opens_nothing(app, organiser, new_game):
    game_id = new_game(["Ann", "Bob"])
    make_link(organiser, game_id)
    guess = app.test_client()
    assert guess.get(f"/games/{game_id}/score/not-the-token").status_code == 404
    assert guess.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 12}, 1)).status_code == 401


def test_a_link_for_one_game_does_not_open_another(app, organiser, new_game):
    game_id, other_id = new_game(["Ann", "Bob"]), new_game(["Cat", "Dan"])
    path = make_link(organiser, game_id)
    wrong = app.test_client()
    assert wrong.get(path.replace(f"/games/{game_id}/", f"/games/{other_id}/")).status_code == 404
    assert wrong.post(f"/games/{other_id}/hands", data=hand_form(0, {1: 12}, 1)).status_code == 401


def test_only_a_digest_of_the_token_is_stored(app, organiser, new_game):
    game_id = new_game(["Ann", "Bob"])
    token = make_link(organiser, game_id).rsplit("/", 1)[1]
    assert len(token) >= 40
    with app.app_context():
        digest = db.session.scalar(sa.select(ScorerLink.digest))
    assert token not in digest
    assert re.fullmatch("[0-9a-f]{64}", digest)


def test_the_share_page_shows_the_scorer_link_as_a_qr_code(organiser, new_game):
    game_id = new_game(["Ann", "Bob"])
    page = parse(organiser.post(f"/games/{game_id}/scorer-link"))
    url = page.by_id("scorer-link").attrs["href"]
    image = page.find("section", class_="scorer-link").find("img", class_="qr")
    # segno makes the same symbol from the same text, so compare with a code made here; a data
    # URI because the token is shown only on this page (the CSP allows data: images).
    expected = segno.make_qr(url, error="m").svg_data_uri(
        border=4, omitsize=True, dark="#000", light="#fff"
    )
    assert image.attrs["src"] == expected
    assert image.attrs["src"].startswith("data:image/svg+xml")
    # Shown once: the page opened again says a link is out, without the link.
    again = parse(organiser.get(f"/games/{game_id}/share"))
    assert again.by_id("scorer-link") is None
    assert "A scorer link for this game is out" in again.find("section", class_="scorer-link").text


def test_only_a_signed_in_user_sees_or_makes_scorer_links(app, organiser, new_game, rows):
    game_id = new_game(["Ann", "Bob"])
    assert parse(organiser.get(f"/games/{game_id}/share")).by_id("scorer-title") is not None
    visitor = app.test_client()
    assert parse(visitor.get(f"/games/{game_id}/share")).by_id("scorer-title") is None
    assert visitor.post(f"/games/{game_id}/scorer-link").status_code == 401
    assert rows("scorer_links") == 0


def test_without_an_owner_there_are_no_scorer_links(client, new_game, rows):
    game_id = new_game(["Ann", "Bob"])
    assert parse(client.get(f"/games/{game_id}/share")).by_id("scorer-title") is None
    assert client.post(f"/games/{game_id}/scorer-link").status_code == 403
    assert rows("scorer_links") == 0


def test_a_link_stays_ended_when_a_signed_in_user_undoes_the_final_hand(
    app, organiser, new_game, play, rows
):
    game_id = new_game(["Ann", "Bob"], target=100)
    path = make_link(organiser, game_id)
    table = table_with(app, path)
    play(game_id, 0, {1: 30})
    assert table.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 150}, 2)).status_code == 303
    # The game is over; its organiser undoes the final hand, and the game is in progress again.
    assert organiser.post(f"/games/{game_id}/hands/2/undo").status_code == 303
    assert rows("hands") == 1
    assert rows("scorer_links") == 0
    assert 'id="hand-form"' not in table.get(f"/games/{game_id}").get_data(as_text=True)
    refused = table.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 150}, 2))
    assert refused.status_code == 401
    assert app.test_client().get(path).status_code == 404
    assert rows("hands") == 1
    # A new link may be made for the game in progress.
    fresh = table_with(app, make_link(organiser, game_id))
    assert fresh.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 10}, 2)).status_code == 303


def test_the_holder_sees_undo_and_edit_for_a_hand_recorded_by_mistake(app, organiser, new_game):
    game_id = new_game(["Ann", "Bob", "Cat"], target=500)
    table = table_with(app, make_link(organiser, game_id))
    saved = table.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 12, 2: 3}, 1))
    assert saved.status_code == 303
    page = parse(table.get(saved.headers["Location"]))
    # The note of the hand just saved offers its undo, and the history edit and undo.
    assert page.by_id("undo-saved") is not None
    assert page.by_id("edit-hand-1") is not None and page.by_id("undo-hand-1") is not None
    edit = parse(table.get(f"/games/{game_id}/hands/1/edit"))
    assert edit.find("form", action=f"/games/{game_id}/hands/1/edit") is not None
    edited = table.post(f"/games/{game_id}/hands/1/edit", data=hand_form(1, {0: 5, 2: 3}, 1))
    assert edited.status_code == 303
    undone = table.post(
        f"/games/{game_id}/hands/1/undo", headers={"HX-Request": "true", "HX-Target": "game"}
    )
    assert undone.status_code == 200
    assert 'id="hand-form"' in undone.get_data(as_text=True)
