"""Every name box takes only names a person can see and tell apart: the roster's rename, the league
forms and the setup page share one rule (scorer.field_rules), so each says the same words."""

from __future__ import annotations

import pytest
from document import error_for, parse
from factories import make_game

from scorer.extensions import db
from scorer.models import Player
from scorer.services import leagues

UNSEEN = "Names need a letter, digit or sign that can be seen."
TURNED = "Names cannot contain characters that change the direction of text."


@pytest.fixture
def club(app) -> int:
    """Ann and Bob on the roster, and a league of teams with no team yet."""
    with app.app_context():
        make_game(db.session, ["Ann", "Bob"])
        return leagues.create_league(db.session, "Club", 500).id


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u200b", UNSEEN),
        ("\u115f\u1160", UNSEEN),
        ("\u2800", UNSEEN),
        ("\u0308", UNSEEN),
        ("Bob\u202egnp.exe", TURNED),
        ("\uff21\uff4e\uff4e", "Ann is already on the roster."),
        ("Ann\u200d", "Ann is already on the roster."),
    ],
)
def test_a_rename_to_a_name_nobody_can_see_or_tell_apart_is_refused(
    client, app, club, name, message
):
    response = client.post("/players/2/rename", data={"name": name})
    assert response.status_code == 422
    assert error_for(parse(response), "name").startswith(message)
    with app.app_context():
        assert db.session.get(Player, 2).name == "Bob"


def test_a_rename_is_stored_normalised(client, app, club):
    response = client.post("/players/2/rename", data={"name": "\uff22\uff45\uff4e\u200b"})
    assert response.status_code == 303
    with app.app_context():
        player = db.session.get(Player, 2)
        assert (player.name, player.name_key) == ("Ben", "ben")


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"first": "\u3164", "second": "Bob"}, "first", UNSEEN),
        ({"first": "Ann", "second": "\u2067Bob\u2069"}, "second", TURNED),
        (
            {"first": "Ann", "second": "\uff21\uff4e\uff4e"},
            "second",
            "A team is two different players.",
        ),
        (
            {"first": "Ann", "second": "Bob", "name": "\u200b\u200b"},
            "name",
            "Team names need a letter, digit or sign that can be seen.",
        ),
    ],
)
def test_a_league_team_with_such_a_name_is_refused(client, club, rows, data, field, message):
    response = client.post(f"/leagues/{club}/teams", data=data)
    assert response.status_code == 422
    assert error_for(parse(response), field) == message
    assert rows("league_teams") == 0


def test_a_league_team_of_roster_names_written_wide_or_with_invisible_characters_asks_nothing(
    client, club, rows
):
    data = {"first": "\uff21\uff4e\uff4e", "second": "B\u00adob"}
    assert client.post(f"/leagues/{club}/teams", data=data).status_code == 303
    assert rows("players") == 2
    assert rows("league_teams") == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u200b\u2060", "League names need a letter, digit or sign that can be seen."),
        ("Club\u202e", "League names cannot contain characters that change the direction of text."),
    ],
)
def test_a_league_name_nobody_can_see_is_refused(client, rows, name, message):
    response = client.post("/leagues/new", data={"name": name, "target": "500", "format": "teams"})
    assert response.status_code == 422
    assert error_for(parse(response), "name") == message
    assert rows("leagues") == 0
