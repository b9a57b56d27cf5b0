"""A league's teams and fixtures on its pages: renaming and removing teams, asking before a new
player joins, fixture games that name their place in the league, and a rematch that goes on to the
next fixture."""

from __future__ import annotations

import re

import pytest
from document import parse
from factories import hand_form
from flask import Flask

from scorer.extensions import db
from scorer.services import games, leagues


@pytest.fixture
def club(app: Flask) -> int:
    """A league of three teams with a season drawn; the roster is Ann, Bob, Cat, Dan, Eve, Fay."""
    with app.app_context():
        league = leagues.create_league(db.session, "Club", 50)
        for pair in (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay")):
            leagues.register_team(db.session, league.id, *pair)
        leagues.add_season(db.session, league.id)
        return league.id


def team_names(client, league: int) -> list[str]:
    page = parse(client.get(f"/leagues/{league}"))
    return [item.find("strong").text for item in page.find("ul", class_="team-list").find_all("li")]


def test_a_team_is_renamed_from_the_league_page(client, club):
    page = parse(client.get(f"/leagues/{club}"))
    form = page.find("form", action="/leagues/teams/1/rename")
    assert form is not None and form.find("input", name="team-1-name") is not None
    response = client.post("/leagues/teams/1/rename", data={"team-1-name": "The Aces"})
    assert response.status_code == 303
    assert team_names(client, club)[0] == "The Aces"

    refused = client.post("/leagues/teams/1/rename", data={"team-1-name": "x" * 61})
    assert refused.status_code == 422
    assert parse(refused).by_id("team-1-name-error") is not None
    assert team_names(client, club)[0] == "The Aces"


def test_only_a_team_that_has_not_played_can_be_removed(client, club, rows):
    season = parse(client.get(f"/leagues/{club}/seasons/1"))
    first_start = season.find("main").find_all("form")[0].attrs["action"]
    client.post(first_start)
    page = parse(client.get(f"/leagues/{club}"))
    removable = [
        form.attrs["action"] for form in page.find_all("form") if "remove" in form.attrs["action"]
    ]
    # The fixture started had two of the three teams: only the third may go.
    assert len(removable) == 1
    team_id = int(re.search(r"teams/(\d+)/", removable[0]).group(1))
    others = [number for number in (1, 2, 3) if number != team_id]

    assert client.post(f"/leagues/teams/{others[0]}/remove").status_code == 409
    response = client.post(removable[0])
    assert response.status_code == 303
    assert response.headers["Location"] == f"/leagues/{club}"
    assert len(team_names(client, club)) == 2
    assert rows("fixtures") == 1


def test_a_name_not_on_the_roster_is_asked_about_with_close_names(client, club, rows):
    players_before = rows("players")
    response = client.post(f"/leagues/{club}/teams", data={"first": "Annn", "second": "Gus"})
    assert response.status_code == 200
    page = parse(response)
    assert page.by_id("new-player-title").text == "Add new player Annn?"
    assert rows("players") == players_before
    assert rows("league_teams") == 3

    # One tap on a suggestion posts the team again with Ann in Annn's place.
    suggestion = page.find("ul", class_="suggestions").find("button")
    assert suggestion.text == "Ann"
    form = page.find("ul", class_="suggestions").find("form")
    carried = {node.attrs["name"]: node.attrs["value"] for node in form.find_all("input")}
    assert carried["first"] == "Ann" and carried["second"] == "Gus"

    # Confirming the new name asks about the next one, keeping the first answer.
    confirm = page.by_id("confirm-new-player")
    assert confirm.text == "Add new player Annn"
    data = {"first": "Annn", "second": "Gus", "new_player": "Annn"}
    page = parse(client.post(f"/leagues/{club}/teams", data=data))
    assert page.by_id("new-player-title").text == "Add new player Gus?"
    data["new_player"] = ["Annn", "Gus"]
    assert client.post(f"/leagues/{club}/teams", data=data).status_code == 303
    assert rows("players") == players_before + 2


def test_names_on_the_roster_register_without_a_question(client, club, app, rows):
    with app.app_context():
        games.create_game(db.session, "standard", ["Gus", "Hal"])
    response = client.post(f"/leagues/{club}/teams", data={"first": "gus", "second": "Hal"})
    assert response.status_code == 303
    assert rows("league_teams") == 4


def finish(client, game_url: str) -> None:
    """Home (seats 0 and 2) wins the fixture game in one hand."""
    response = client.post(f"{game_url}/hands", data=hand_form(0, {1: 60, 3: 0}, 1))
    assert response.status_code == 303


def test_a_fixture_game_names_its_place_and_its_rematch_is_the_next_fixture(client, club):
    season = parse(client.get(f"/leagues/{club}/seasons/1"))
    starts = [form.attrs["action"] for form in season.find("main").find_all("form")]
    game_url = client.post(starts[0]).headers["Location"]

    place = parse(client.get(game_url)).by_id("fixture-place")
    assert place.text.startswith("Club · Season 1 · round 1, table 1:")
    links = [link.attrs["href"] for link in place.find_all("a")]
    assert links == [f"/leagues/{club}", f"/leagues/{club}/seasons/1"]

    finish(client, game_url)
    page = parse(client.get(game_url))
    assert page.by_id("next-fixture") is not None
    assert "Rematch" not in page.by_id("result").text
    game_id = int(game_url.rsplit("/", 1)[1])
    response = client.post(f"/games/{game_id}/rematch")
    assert response.status_code == 303
    next_game = response.headers["Location"]
    assert next_game != game_url
    assert "round 2" in parse(client.get(next_game)).by_id("fixture-place").text

    # Once every fixture has started, the rematch goes back to the season.
    third = client.post(starts[2]).headers["Location"]
    finish(client, third)
    response = client.post(f"{third}/rematch")
    assert response.headers["Location"] == f"/leagues/{club}/seasons/1"


def test_a_casual_game_names_no_league_and_rematches_as_before(client, new_game, play):
    game_id = new_game(["Ann", "Bob"], target=50)
    play(game_id, 0, {1: 60})
    page = parse(client.get(f"/games/{game_id}"))
    assert page.by_id("fixture-place") is None
    assert page.by_id("next-fixture") is None
    response = client.post(f"/games/{game_id}/rematch")
    assert response.status_code == 303


def test_the_hand_that_ends_a_fixture_offers_the_next_fixture_in_place(client, club):
    season = parse(client.get(f"/leagues/{club}/seasons/1"))
    start = season.find("main").find_all("form")[0].attrs["action"]
    game_url = client.post(start).headers["Location"]
    response = client.post(
        f"{game_url}/hands", data=hand_form(0, {1: 60, 3: 0}, 1), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert parse(response).by_id("next-fixture") is not None


@pytest.mark.parametrize(
    ("typed", "resembles"), [("Anne", ["Ann"]), ("Ann Lee", ["Ann"]), ("fey", ["Fay"])]
)
def test_the_question_about_a_new_name_lists_the_roster_names_it_resembles(
    client, club, typed, resembles
):
    response = client.post(f"/leagues/{club}/teams", data={"first": "Gus", "second": typed})
    page = parse(response)
    # Gus resembles nobody: the question about him lists nobody.
    assert page.by_id("new-player-title").text == "Add new player Gus?"
    assert page.find("ul", class_="suggestions") is None
    data = {"first": "Gus", "second": typed, "new_player": "Gus"}
    page = parse(client.post(f"/leagues/{club}/teams", data=data))
    assert page.by_id("new-player-title").text == f"Add new player {typed}?"
    found = [button.text for button in page.find("ul", class_="suggestions").find_all("button")]
    assert found == resembles
