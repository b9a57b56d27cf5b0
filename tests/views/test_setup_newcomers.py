"""Game setup asks before seating a new name that resembles roster names: "Anne" beside the
roster's Ann is more often Ann than a new player."""

from __future__ import annotations

import pytest
from document import HTMX, parse
from factories import make_game

from scorer.extensions import db
from scorer.services import games

URL = "/games/new"


def setup_data(names=(), action="add", new_name=""):
    data = {f"players-{seat}": name for seat, name in enumerate(names)}
    return data | {"action": action, "mode": "standard", "target": "500", "new_name": new_name}


def seats(page) -> list[str]:
    return [
        node.attrs["value"]
        for node in page.find_all("input")
        if node.attrs["name"].startswith("players-")
    ]


def suggestions(page) -> list[str]:
    return [button.text for button in page.find(class_="suggestions").find_all("button")]


@pytest.fixture
def roster(app, rows):
    """Ann, Bob and Zoë on the roster, from a game they played."""
    with app.app_context():
        make_game(db.session, ["Ann", "Bob", "Zoë"])
    return rows


@pytest.mark.parametrize("action", ["add", "start"])
def test_a_new_name_like_a_roster_name_is_asked_about_and_nothing_is_seated(client, roster, action):
    response = client.post(URL, data=setup_data(["Bob", "Cat"], action, new_name="Anne"))
    assert response.status_code == 200
    page = parse(response)
    assert page.by_id("new-player-title").text == "Add new player Anne?"
    assert suggestions(page) == ["Ann"]
    assert page.by_id("confirm-new-player").text == "Add new player Anne"
    assert seats(page) == ["Bob", "Cat"]
    assert page.value("new_name") == "Anne"
    assert roster("players") == 3 and roster("games") == 1


def test_picking_the_roster_name_seats_that_player(client, roster):
    page = parse(client.post(URL, data=setup_data(["Bob"], new_name="Anne")))
    [pick] = page.find(class_="suggestions").find_all("button")
    response = client.post(URL, data=setup_data(["Bob"], pick.attrs["value"], new_name="Anne"))
    page = parse(response)
    assert seats(page) == ["Bob", "Ann"]
    assert page.by_id("new-player-title") is None
    assert page.value("new_name") == ""


def test_confirming_seats_the_new_name_and_start_adds_it_to_the_roster(client, app, roster):
    page = parse(client.post(URL, data=setup_data(["Bob"], new_name="Anne")))
    confirm = page.by_id("confirm-new-player").attrs["value"]
    page = parse(client.post(URL, data=setup_data(["Bob"], confirm, new_name="Anne")))
    assert seats(page) == ["Bob", "Anne"]
    response = client.post(URL, data=setup_data(["Bob", "Anne"], "start"))
    assert response.status_code == 303
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert games.load_game(db.session, game_id).names == ("Bob", "Anne")
    assert roster("players") == 4


@pytest.mark.parametrize(
    ("typed", "resembles"),
    [("Annn", ["Ann"]), ("ann lee", ["Ann"]), ("Zoe", ["Zoë"]), ("Bobb", ["Bob"])],
)
def test_the_question_lists_the_roster_names_it_resembles(client, roster, typed, resembles):
    page = parse(client.post(URL, data=setup_data([], new_name=typed)))
    assert suggestions(page) == resembles


@pytest.mark.parametrize(
    ("seated", "typed"),
    [
        ([], "Gus"),  # new, and like nobody
        ([], "ANN"),  # on the roster
        (["Ann"], "Anne"),  # the one it resembles already plays: another person
    ],
)
def test_other_names_are_seated_without_a_question(client, roster, seated, typed):
    page = parse(client.post(URL, data=setup_data(seated, new_name=typed)))
    assert page.by_id("new-player-title") is None
    assert len(seats(page)) == len(seated) + 1


def test_a_name_seated_twice_is_refused_not_asked_about(client, roster):
    response = client.post(URL, data=setup_data(["Anne"], new_name="anne"))
    assert response.status_code == 422
    assert parse(response).by_id("new-player-title") is None


def test_htmx_gets_the_question_in_the_setup_form(client, roster):
    response = client.post(URL, data=setup_data(["Bob"], new_name="Anne"), headers=HTMX)
    assert response.status_code == 200
    page = parse(response)
    assert page.find("form", id="setup").find(id="new-player") is not None
    assert page.find("html") is None


@pytest.mark.parametrize("typed", ["Dan", "Eve", "Bo Lee"])
def test_a_name_sharing_only_a_few_letters_is_seated_without_a_question(client, app, typed):
    with app.app_context():
        make_game(db.session, ["Ann", "Ann Lee", "Eva"])
    page = parse(client.post(URL, data=setup_data([], new_name=typed)))
    assert page.by_id("new-player-title") is None
    assert seats(page) == [typed]
