"""Name boxes take as many characters as the server keeps; pages state no limit of their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from document import error_for, parse
from factories import make_game

from scorer.extensions import db
from scorer.field_rules import NAME_MAX_LENGTH, TEAM_NAME_MAX_LENGTH
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


def limits_shown(page, *names: str) -> dict[str, str]:
    """The hint each text input named `names` is described by; asserts the browser will not cut
    what is typed or pasted there (no maxlength), so a name too long is refused, saying why."""
    found = {}
    for name in names:
        node = page.find("input", name=name)
        assert node is not None, name
        assert "maxlength" not in node.attrs, name
        hints = [page.by_id(ref) for ref in node.attrs.get("aria-describedby", "").split()]
        found[name] = " ".join(hint.text for hint in hints if hint is not None)
    return found


NAME_HINT = f"Up to {NAME_MAX_LENGTH} characters."
TEAM_HINT = f"Up to {TEAM_NAME_MAX_LENGTH} characters."


def test_the_new_player_box_shows_the_limit_of_a_name(client):
    page = parse(client.get("/games/new"))
    assert limits_shown(page, "new_name") == {"new_name": NAME_HINT}


def test_a_partners_team_name_box_shows_the_limit_of_a_team_name(client):
    page = parse(client.post("/games/new", data=seated(["Ann", "Bob", "Cat", "Dan"], "partners")))
    assert limits_shown(page, "teams-0", "teams-1") == {"teams-0": TEAM_HINT, "teams-1": TEAM_HINT}


def test_the_rename_box_shows_the_limit_of_a_name(client, places):
    page = parse(client.get("/players/1/rename"))
    assert limits_shown(page, "name") == {"name": NAME_HINT}


def test_the_league_name_box_shows_the_limit_of_a_league_name(client):
    page = parse(client.get("/leagues/new"))
    assert limits_shown(page, "name") == {"name": TEAM_HINT}


def test_registering_a_team_shows_the_limits_of_player_and_team_names(client, places):
    page = parse(client.get(f"/leagues/{places['teams']}"))
    assert limits_shown(page, "first", "second", "name") == {
        "first": NAME_HINT,
        "second": NAME_HINT,
        "name": TEAM_HINT,
    }


def test_a_rotation_season_shows_the_limit_of_its_eight_names(client, places):
    page = parse(client.get(f"/leagues/{places['rotation']}"))
    limits_shown(page, *[f"players-{i}" for i in range(8)])
    assert f"Names: Up to {NAME_MAX_LENGTH} characters." in page.find(id="season-form").text


LONG = "Maximiliana Alexandrovna Konstantinopoulou-Smythe"[:45] + "x" * 35  # 80 characters


def test_a_name_too_long_is_refused_next_to_each_box_and_kept_to_be_shortened(client, places):
    message = f"Names are at most {NAME_MAX_LENGTH} characters."
    response = client.post("/games/new", data=seated(["Ann"]) | {"action": "add", "new_name": LONG})
    assert response.status_code == 422
    page = parse(response)
    assert error_for(page, "new_name") == message
    assert page.value("new_name") == LONG

    response = client.post("/players/1/rename", data={"name": LONG})
    assert response.status_code == 422
    assert error_for(parse(response), "name") == message
    assert parse(response).value("name") == LONG

    response = client.post(
        f"/leagues/{places['teams']}/teams", data={"first": LONG, "second": "Bob"}
    )
    assert response.status_code == 422
    assert error_for(parse(response), "first") == message


def test_the_player_count_and_hint_come_from_the_rules(client):
    page = parse(client.get("/games/new"))
    assert page.find(id="players-title").text == f"Players 0 of {MAX_PLAYERS}"
    assert f"Add {MIN_PLAYERS} to {MAX_PLAYERS} players" in page.find("main").find("form").text


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
