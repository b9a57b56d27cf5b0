"""Game length in setup: to the target, or a number of hands, which the scoreboard counts down."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from document import HTMX, error_for, parse

from scorer.extensions import db
from scorer.models import Game

URL = "/games/new"
NAMES = ["Ann", "Bob", "Cat"]


def setup_data(mode="standard", length="hands", hands="3", target="500", names=NAMES) -> dict:
    data = {f"players-{seat}": name for seat, name in enumerate(names)}
    data.update(
        action="start", mode=mode, target=target, first_dealer="0", new_name="", length=length
    )
    if hands is not None:
        data["hands"] = hands
    return data


def started(app) -> list[tuple[str, int, int | None]]:
    with app.app_context():
        rows = db.session.execute(sa.select(Game.mode, Game.target, Game.hand_limit))
        return [tuple(row) for row in rows]


def test_a_new_game_is_played_to_the_target_unless_told(client):
    page = parse(client.get(URL))
    assert page.find("input", name="length", value="target").attrs.get("checked") is not None
    # The hands box is for a page without the script; with it, choosing redraws the form.
    assert page.find("noscript").find("input", id="hands") is not None
    assert page.find("input", id="target") is not None


def test_start_a_game_of_three_hands_and_the_scoreboard_counts_them_down(client, app, play):
    response = client.post(URL, data=setup_data())
    assert response.status_code == 303
    assert started(app) == [("standard", 500, 3)]
    page = parse(client.get(response.headers["Location"]))
    title = " ".join(page.find("h1").text.split())
    assert title == "Standard · 3 hands · 3 hands left"
    # No distance to a target that does not end the game, and no target line under the rows.
    assert "to go" not in page.find(class_="standings").text
    assert page.find("progress") is None


def test_one_hand_is_the_single_round_game(client, app, play):
    response = client.post(URL, data=setup_data(hands="1"))
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    page = parse(client.get(f"/games/{game_id}"))
    assert " ".join(page.find("h1").text.split()) == "Standard · 1 hand · 1 hand left"
    play(game_id, 2, {0: 5, 1: 0})
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(id="result-title").text == "🏆 Cat wins with 5!"


def test_a_challenge_game_of_hands_keeps_its_target_for_putting_players_out(client, app):
    response = client.post(URL, data=setup_data(mode="challenge", hands="5", target="200"))
    assert response.status_code == 303
    assert started(app) == [("challenge", 200, 5)]
    page = parse(client.get(response.headers["Location"]))
    assert " ".join(page.find("h1").text.split()) == "Challenge to 200 · 5 hands · 5 hands left"
    assert "200 left before out" in page.find(class_="standings").text


@pytest.mark.parametrize("hands", ["", "0", "51", "x", None])
def test_a_number_of_hands_out_of_range_is_refused_next_to_its_box(client, app, hands):
    response = client.post(URL, data=setup_data(hands=hands))
    assert response.status_code == 422
    page = parse(response)
    assert error_for(page, "hands") == "Type how many hands, 1 to 50."
    assert page.find("input", id="hands").attrs["aria-invalid"] == "true"
    assert started(app) == []


def test_the_hands_box_plays_no_part_in_a_game_to_the_target(client, app):
    response = client.post(URL, data=setup_data(length="target", hands="abc", target="300"))
    assert response.status_code == 303
    assert started(app) == [("standard", 300, None)]


def test_choosing_a_number_of_hands_redraws_the_form_with_its_box_and_no_target(client):
    data = setup_data() | {"action": ""}
    page = parse(client.post(URL, data=data, headers=HTMX))
    assert page.find("input", name="length", value="hands").attrs.get("checked") is not None
    assert page.find("input", id="hands").attrs["value"] == "3"
    assert page.find("noscript") is None
    # The target is kept, unseen, so choosing the target again brings it back.
    assert page.find("input", id="target") is None
    assert page.value("target") == "500"
    again = parse(client.post(URL, data=data | {"length": "target"}, headers=HTMX))
    assert again.value("target") == "500"


def test_an_unknown_length_is_refused(client, app):
    response = client.post(URL, data=setup_data(length="forever"))
    assert response.status_code == 422
    assert error_for(parse(response), "length") == "Choose to the target or a number of hands."
    assert started(app) == []


def test_undoing_the_last_hand_of_a_game_of_hands_reopens_it(client, app, play, state_of):
    response = client.post(URL, data=setup_data(hands="2"))
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    play(game_id, 0, {1: 5, 2: 5})
    play(game_id, 1, {0: 5, 2: 0})
    assert state_of(game_id).finished
    assert client.post(f"/games/{game_id}/hands/2/undo").status_code in (200, 303)
    assert not state_of(game_id).finished
    page = parse(client.get(f"/games/{game_id}"))
    assert "1 hand left" in page.find("h1").text
    assert page.find("form", id="hand-form") is not None


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("standard", "After the last hand the most points win."),
        ("partners", "reaching the target does not end it."),
        ("challenge", "the fewest points among the players still in win."),
    ],
)
def test_the_rules_page_says_how_a_game_of_hands_ends(client, mode, said):
    text = " ".join(parse(client.get(f"/rules/{mode}", follow_redirects=True)).text.split())
    assert "a number of hands, 1 to 50. One hand is the single-round game" in text
    assert said in text
