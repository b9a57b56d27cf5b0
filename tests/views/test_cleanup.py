"""The game page's quiet options: abandon, resume, delete after asking, and who may use them."""

from __future__ import annotations

import pytest
from document import parse
from factories import hand_form
from flask import Flask

from scorer.extensions import db, rate_limiter
from scorer.services.accounts import add_user

PASSWORD = "correct horse battery"


@pytest.fixture
def owner(app: Flask) -> None:
    with app.app_context():
        rate_limiter.reset()
        add_user(db.session, "Owner", PASSWORD)


def test_abandon_and_resume_from_the_game_page(client, new_game, play):
    game_id = new_game(["Ann", "Bob"], target=100)
    play(game_id, 0, {1: 30})
    page = parse(client.get(f"/games/{game_id}"))
    options = page.by_id("game-options")
    assert options.tag == "details"
    assert options.by_id("abandon-game") is not None
    # Kept away from the pad and its Save button.
    assert page.by_id("hand-form").by_id("abandon-game") is None

    response = client.post(f"/games/{game_id}/abandon")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    page = parse(client.get(f"/games/{game_id}"))
    assert page.by_id("hand-form") is None
    assert page.by_id("resume-game") is not None
    assert page.by_id("abandon-game") is None
    refused = client.post(f"/games/{game_id}/hands", data=hand_form(1, {0: 20}, 2))
    assert refused.status_code == 409

    home = parse(client.get("/"))
    assert home.by_id("abandoned-title") is not None
    assert "No game in progress." in home.text

    assert client.post(f"/games/{game_id}/resume").status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    assert page.by_id("hand-form") is not None
    assert parse(client.get("/")).by_id("abandoned-title") is None


def test_delete_asks_first_then_deletes_and_goes_home(client, new_game, play, rows):
    game_id = new_game(["Ann", "Bob"], target=100)
    play(game_id, 0, {1: 120})
    link = parse(client.get(f"/games/{game_id}")).by_id("delete-game")
    assert link.attrs["href"] == f"/games/{game_id}/delete"

    confirm = client.get(link.attrs["href"])
    assert confirm.status_code == 200
    form = parse(confirm).by_id("confirm-delete")
    assert form is not None
    assert rows("games") == 1
    assert rows("game_results") == 2

    response = client.post(f"/games/{game_id}/delete")
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert rows("games") == 0
    assert rows("game_results") == 0
    assert client.get(f"/games/{game_id}").status_code == 404
    assert client.get("/standings/").status_code == 200


def test_in_owner_mode_only_signed_in_users_abandon_or_delete(app, owner, new_game, rows):
    game_id = new_game(["Ann", "Bob"])
    visitor = app.test_client()
    assert parse(visitor.get(f"/games/{game_id}")).by_id("game-options") is None
    assert visitor.get(f"/games/{game_id}/delete").status_code == 401
    assert visitor.post(f"/games/{game_id}/delete").status_code == 401
    assert visitor.post(f"/games/{game_id}/abandon").status_code == 401
    assert rows("games") == 1

    user = app.test_client()
    user.post("/login", data={"name": "Owner", "password": PASSWORD, "next": "/"})
    assert user.post(f"/games/{game_id}/delete").status_code == 303
    assert rows("games") == 0


def test_a_scorer_link_does_not_open_delete_or_abandon(app, owner, new_game, rows):
    game_id = new_game(["Ann", "Bob"])
    organiser = app.test_client()
    organiser.post("/login", data={"name": "Owner", "password": PASSWORD, "next": "/"})
    made = parse(organiser.post(f"/games/{game_id}/scorer-link"))
    path = made.by_id("scorer-link").attrs["href"].removeprefix("http://localhost")
    table = app.test_client()
    assert table.get(path).status_code == 303
    assert table.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 10}, 1)).status_code == 303

    assert parse(table.get(f"/games/{game_id}")).by_id("game-options") is None
    assert table.get(f"/games/{game_id}/delete").status_code == 401
    assert table.post(f"/games/{game_id}/delete").status_code == 401
    assert table.post(f"/games/{game_id}/abandon").status_code == 401
    assert rows("games") == 1


def test_the_home_lists_tell_games_apart_by_when_they_were_played(client, new_game, play):
    first = new_game(["Ann", "Bob"], target=100)
    new_game(["Ann", "Bob"], target=100)
    play(first, 0, {1: 120})
    home = parse(client.get("/"))
    times = home.find_all("time")
    assert len(times) == 2
    for time in times:
        assert time.attrs["datetime"].endswith("Z")
        assert "UTC" in time.text


def test_a_rename_shows_in_the_game_page_and_its_chart_at_a_new_address(client, new_game, play):
    game_id = new_game(["Ann", "Bob"], target=500)
    play(game_id, 0, {1: 30})

    def chart_address() -> str:
        page = parse(client.get(f"/games/{game_id}"))
        return page.by_id("chart").find("img").attrs["src"]

    before = chart_address()
    assert b"Ann" in client.get(before).data
    assert client.post("/players/1/rename", data={"name": "Annabel"}).status_code == 303

    after = chart_address()
    # A phone that cached the chart at the old address fetches the new one, with the new legend.
    assert after != before
    assert b"Annabel" in client.get(after).data
    assert "Annabel" in parse(client.get(f"/games/{game_id}")).by_id("scoreboard").text
