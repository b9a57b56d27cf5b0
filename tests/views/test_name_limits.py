"""Name boxes take as many characters as the server keeps; pages state no limit of their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from document import parse
from factories import make_game

from scorer.extensions import db
from scorer.limits import NAME_MAX_LENGTH, TEAM_NAME_MAX_LENGTH
from scorer.scoring import MAX_PLAYERS, MIN_PLAYERS
from scorer.services import leagues

TEMPLATES = Path(__file__).parents[2] / "templates"


@pytest.fixture
def places(app):
    """A player to rename, a league of teams and a rotation league."""
    with app.app_context():
        make_game(db.session, ["Ann", "Bob"])
        teams = leagues.create_league(db.session, "Club", 500).id
        rotation = leagues.create_league(db.session, "Eights", 500, format="rotation").id
        db.session.remove()
    return {"teams": teams, "rotation": rotation}


def seated(names: list[str], mode: str = "standard") -> dict[str, str]:
    """A setup post that only shows the form again, with `names` seated in `mode`."""
    return {f"players-{seat}": name for seat, name in enumerate(names)} | {"mode": mode}


def maxlengths(page, *names: str) -> dict[str, str | None]:
    """The maxlength of each text input named `names`, as the browser will enforce it."""
    found = {}
    for name in names:
        node = page.find("input", name=name)
        assert node is not None, name
        found[name] = node.attrs.get("maxlength")
    return found


def test_the_new_player_box_takes_as_many_characters_as_a_name_may_have(client):
    page = parse(client.get("/games/new"))
    assert maxlengths(page, "new_name") == {"new_name": str(NAME_MAX_LENGTH)}


def test_a_partners_team_name_box_takes_as_many_characters_as_a_team_name_may_have(client):
    page = parse(client.post("/games/new", data=seated(["Ann", "Bob", "Cat", "Dan"], "partners")))
    limit = str(TEAM_NAME_MAX_LENGTH)
    assert maxlengths(page, "teams-0", "teams-1") == {"teams-0": limit, "teams-1": limit}


def test_the_rename_box_takes_as_many_characters_as_a_name_may_have(client, places):
    page = parse(client.get("/players/1/rename"))
    assert maxlengths(page, "name") == {"name": str(NAME_MAX_LENGTH)}


def test_the_league_name_box_takes_as_many_characters_as_a_league_name_may_have(client):
    page = parse(client.get("/leagues/new"))
    assert maxlengths(page, "name") == {"name": str(TEAM_NAME_MAX_LENGTH)}


def test_registering_a_team_takes_player_names_and_a_team_name_of_their_own_lengths(client, places):
    page = parse(client.get(f"/leagues/{places['teams']}"))
    assert maxlengths(page, "first", "second", "name") == {
        "first": str(NAME_MAX_LENGTH),
        "second": str(NAME_MAX_LENGTH),
        "name": str(TEAM_NAME_MAX_LENGTH),
    }


def test_a_rotation_season_takes_eight_player_names(client, places):
    page = parse(client.get(f"/leagues/{places['rotation']}"))
    names = [f"players-{i}" for i in range(8)]
    assert set(maxlengths(page, *names).values()) == {str(NAME_MAX_LENGTH)}


def test_the_player_count_and_hint_come_from_the_rules(client):
    page = parse(client.get("/games/new"))
    assert page.find(id="players-title").text == f"Players 0 of {MAX_PLAYERS}"
    assert f"Add {MIN_PLAYERS} to {MAX_PLAYERS} players" in page.find("form").text


@pytest.mark.parametrize(
    ("names", "letters"),
    [
        (["Ann", "Bob", "Cat", "Dan"], ["A", "B", "A", "B"]),
        ([f"P{i}" for i in range(10)], list("ABCDEABCDE")),
        # Not a Partners seating: no teams yet.
        (["Ann", "Bob"], []),
        (["Ann", "Bob", "Cat"], []),
    ],
)
def test_partners_seats_show_the_team_they_play_for(client, names, letters):
    page = parse(client.post("/games/new", data=seated(names, "partners")))
    shown = [node.text for node in page.find_all("span", class_="team")]
    assert shown == [f"Team {letter}" for letter in letters]
    boxes = [node.attrs["name"] for node in page.find_all("input")]
    boxes = [name for name in boxes if name.startswith("teams-")]
    assert boxes == [f"teams-{i}" for i in range(len(set(letters)))]


# What templates used to say for themselves, out of step with the code: a name's length (two
# digits or more; a points box may hold its own few), the number of players, the teams' letters.
RESTATED = re.compile(r"maxlength=\W?\d{2,}|\bof 10\b|\b2 to 10\b|\"ABCDE\"")


def test_no_template_restates_a_limit_the_code_owns():
    found = {
        f"{path.relative_to(TEMPLATES)}: {match.group()}"
        for path in TEMPLATES.rglob("*.html")
        for match in RESTATED.finditer(path.read_text())
    }
    assert found == set()
