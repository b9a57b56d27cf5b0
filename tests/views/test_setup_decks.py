"""Choosing the deck on the setup form, without JavaScript: one line that opens the choice."""

import pytest
from document import HTMX, error_for, parse

from scorer.extensions import db
from scorer.services import games

URL = "/games/new"


def setup_data(names=(), action="start", new_name="") -> dict:
    """The setup form as a page from before decks posted it: players, settings and the tap."""
    data = {f"players-{seat}": name for seat, name in enumerate(names)}
    return data | {
        "action": action,
        "mode": "standard",
        "target": "500",
        "first_dealer": "0",
        "new_name": new_name,
    }


def checked(page, name: str) -> str | None:
    """The value of the checked radio named `name`."""
    for node in page.find_all("input", name=name):
        if "checked" in node.attrs:
            return node.attrs["value"]
    return None


def deck_data(copies="1", blanks="4", blank_value="50", **setup) -> dict:
    return setup_data(**setup) | {
        "deck_copies": copies,
        "deck_blanks": blanks,
        "blank_value": blank_value,
    }


def started_deck(app, response) -> tuple[int, int, int]:
    assert response.status_code == 303, response.get_data(as_text=True)
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        game = games.load_game(db.session, game_id).game
        return game.deck_copies, game.blanks, game.blank_value


def test_the_deck_is_one_closed_line_showing_the_default_deck(client):
    page = parse(client.get(URL))
    (choice,) = page.find_all("details", class_="deck-choice")
    assert "open" not in choice.attrs
    summary = choice.find("summary").text
    assert " ".join(summary.split()) == "Deck: retail 112 cards, blanks worth 50 Change"
    assert checked(choice, "deck_blanks") == "4"
    assert checked(choice, "deck_copies") == "1"
    assert choice.find("input", name="blank_value").attrs["value"] == "50"
    # Start game comes after it: the deck does not stand between the players and starting.
    assert page.find("button", value="start") is not None


@pytest.mark.parametrize(
    ("choice", "stored"),
    [
        ({}, (1, 4, 50)),
        ({"blanks": "0"}, (1, 0, 50)),
        ({"copies": "2", "blanks": "0"}, (2, 0, 50)),
        ({"copies": "2", "blank_value": "100"}, (2, 4, 100)),
        ({"blank_value": "0"}, (1, 4, 0)),
        # An emptied box keeps the default value rather than stopping the start.
        ({"blank_value": ""}, (1, 4, 50)),
    ],
)
def test_start_plays_the_chosen_deck(client, app, choice, stored):
    response = client.post(URL, data=deck_data(names=["Ann", "Bob"], **choice))
    assert started_deck(app, response) == stored


def test_a_page_from_before_decks_starts_with_the_default_deck(client, app):
    response = client.post(URL, data=setup_data(["Ann", "Bob"]))
    assert started_deck(app, response) == (1, 4, 50)


@pytest.mark.parametrize(
    ("choice", "field", "message"),
    [
        ({"copies": "3"}, "deck_copies", "Play with one deck or two shuffled together."),
        ({"blanks": "2"}, "deck_blanks", "A deck has 0 or 4 blank cards."),
        ({"blank_value": "501"}, "blank_value", "A blank card scores 0 to 500 points."),
        ({"blank_value": "-1"}, "blank_value", "A blank card scores 0 to 500 points."),
        ({"blank_value": "ten"}, "blank_value", "Type the points a blank card scores, 0 to 500."),
        ({"copies": "two"}, "deck_copies", "Invalid Choice"),
    ],
)
def test_a_deck_the_rules_refuse_opens_the_choice_with_its_error(
    client, rows, choice, field, message
):
    response = client.post(URL, data=deck_data(names=["Ann", "Bob"], **choice))
    assert response.status_code == 422
    page = parse(response)
    assert "open" in page.find("details", class_="deck-choice").attrs
    assert message in error_for(page, field)
    assert rows("games") == 0


def test_a_setup_tap_keeps_the_deck_and_the_line_follows_it(client):
    data = deck_data(copies="2", blanks="0", names=["Ann"], action="add", new_name="Bob")
    page = parse(client.post(URL, data=data, headers=HTMX))
    assert checked(page, "deck_copies") == "2"
    assert checked(page, "deck_blanks") == "0"
    summary = page.find("details", class_="deck-choice").find("summary").text
    assert "two classic decks, 216 cards" in summary
