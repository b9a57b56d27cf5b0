"""Sending a hand a phone kept while offline: stored once, replayed safely, conflicts shown."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from conftest import make_app
from document import parse
from factories import hand_form

from scorer.extensions import db
from scorer.models import Game
from scorer.services.accounts import add_user

PASSWORD = "correct horse battery"


def game_key(client, game_id: int) -> str:
    """The key the game's page gives its pad (none for a missing game)."""
    with client.application.app_context():
        return db.session.scalar(sa.select(Game.sync_key).where(Game.id == game_id)) or ""


def sync(client, game_id: int, number: int, data: dict, **headers):
    data = {"game_key": game_key(client, game_id)} | data
    return client.post(f"/games/{game_id}/hands/{number}/sync", data=data, headers=headers)


def stored_hands(state_of, game_id: int) -> list[tuple[int, dict[int, int]]]:
    """Who went out and what was counted, hand by hand, as the database has it."""
    return [(hand.went_out, dict(hand.counted)) for hand in state_of(game_id).hands]


def test_a_waiting_hand_is_stored(client, new_game, state_of):
    game_id = new_game(3)
    response = sync(client, game_id, 1, hand_form(0, {1: 10, 2: ["5", "20"]}, 1))
    assert response.status_code == 200
    assert response.json == {"status": "stored", "already": False}
    assert stored_hands(state_of, game_id) == [(0, {1: 10, 2: 25})]


def test_sending_the_same_hand_again_stores_it_once(client, new_game, state_of):
    game_id = new_game(3)
    data = hand_form(0, {1: 10, 2: ["5", "20"]}, 1)
    assert sync(client, game_id, 1, data).json["already"] is False
    again = sync(client, game_id, 1, data)
    assert again.status_code == 200
    assert again.json == {"status": "stored", "already": True}
    assert stored_hands(state_of, game_id) == [(0, {1: 10, 2: 25})]


def test_the_address_names_the_hand_whatever_number_the_body_holds(client, new_game, state_of):
    game_id = new_game(2)
    response = sync(client, game_id, 1, hand_form(0, {1: 10}, 7))
    assert response.json["status"] == "stored"
    assert len(state_of(game_id).hands) == 1


def test_another_phones_hand_under_that_number_is_a_conflict_with_both_versions(
    client, new_game, play, state_of
):
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 1, {0: 30, 2: 12})
    response = sync(client, game_id, 1, hand_form(0, {1: 10, 2: ["5", "20"]}, 1))
    assert response.status_code == 409
    answer = response.json
    assert answer["status"] == "conflict"
    assert answer["theirs"] == {"brief": "Bob +42", "detail": "Bob went out · Ann 30 · Cat 12"}
    assert answer["ours"] == {"brief": "Ann +35", "detail": "Ann went out · Bob 10 · Cat 25"}
    # Nothing changed: theirs stays until the table chooses.
    assert stored_hands(state_of, game_id) == [(1, {0: 30, 2: 12})]


def test_replace_makes_ours_an_edit_of_their_hand(client, new_game, play, state_of):
    game_id = new_game(3)
    play(game_id, 1, {0: 30, 2: 12})
    play(game_id, 2, {0: 5, 1: 6})
    data = hand_form(0, {1: 10, 2: 25}, 1) | {"replace": "1"}
    response = sync(client, game_id, 1, data)
    assert response.status_code == 200
    assert response.json == {"status": "replaced"}
    assert stored_hands(state_of, game_id) == [(0, {1: 10, 2: 25}), (2, {0: 5, 1: 6})]


def test_replace_of_a_hand_not_stored_yet_records_it(client, new_game, state_of):
    game_id = new_game(2)
    response = sync(client, game_id, 1, hand_form(0, {1: 10}, 1) | {"replace": "1"})
    assert response.json == {"status": "stored", "already": False}
    assert stored_hands(state_of, game_id) == [(0, {1: 10})]


def test_a_hand_that_breaks_the_rules_is_invalid_and_changes_nothing(
    client, new_game, play, state_of
):
    game_id = new_game(2)
    play(game_id, 0, {1: 10})
    before = state_of(game_id)
    for data in (
        hand_form(None, {1: 10}, 2),  # nobody went out
        hand_form(0, {1: ["9"] * 9}, 2),  # more nines than the deck holds
        hand_form(0, {}, 2) | {"counts-1-points": "lots"},
    ):
        response = sync(client, game_id, 2, data)
        assert response.status_code == 422, data
        assert response.json["status"] == "invalid"
        assert response.json["errors"] and all(response.json["errors"])
    assert state_of(game_id) == before


def test_a_replace_that_would_break_a_later_hand_is_invalid(client, new_game, play, state_of):
    game_id = new_game(2, mode="challenge", target=100)
    play(game_id, 0, {1: 90})
    play(game_id, 0, {1: 20})  # Bob is out of the game after hand 2
    before = state_of(game_id)
    assert before.finished
    response = sync(client, game_id, 1, hand_form(1, {0: 150}, 1) | {"replace": "1"})
    assert response.status_code == 422
    assert state_of(game_id) == before


def test_a_hand_ahead_of_the_game_is_refused(client, new_game, state_of):
    game_id = new_game(2)
    response = sync(client, game_id, 2, hand_form(0, {1: 10}, 2))
    assert response.status_code == 409
    assert response.json["status"] == "refused"
    assert "next hand is 1" in response.json["message"]
    assert state_of(game_id).hands == ()


def test_a_missing_game_is_not_found(client):
    assert sync(client, 999, 1, hand_form(0, {1: 10}, 1)).status_code == 404


@pytest.fixture
def guarded(app):
    """The same app and database with CSRF protection on, as in production."""
    secured = make_app(app.config["SQLALCHEMY_DATABASE_URI"], WTF_CSRF_ENABLED=True)
    yield secured.test_client()
    with secured.app_context():
        db.session.remove()
        db.engine.dispose()


def page_token(client, url: str) -> str:
    body = parse(client.get(url)).find("body")
    return json.loads(body.attrs["hx-headers"])["X-CSRFToken"]


def test_a_send_without_the_pages_token_is_refused(guarded, new_game, state_of):
    game_id = new_game(2)
    guarded.get(f"/games/{game_id}")
    assert sync(guarded, game_id, 1, hand_form(0, {1: 10}, 1)).status_code == 400
    assert (
        sync(guarded, game_id, 1, hand_form(0, {1: 10}, 1), **{"X-CSRFToken": "forged"}).status_code
        == 400
    )
    assert state_of(game_id).hands == ()


def test_a_send_with_the_pages_token_in_a_header_is_stored(guarded, new_game, state_of):
    game_id = new_game(2)
    token = page_token(guarded, f"/games/{game_id}")
    response = sync(guarded, game_id, 1, hand_form(0, {1: 10}, 1), **{"X-CSRFToken": token})
    assert response.json["status"] == "stored"
    assert len(state_of(game_id).hands) == 1


def test_in_owner_mode_a_visitor_cannot_send(app, client, new_game, state_of):
    game_id = new_game(2)
    with app.app_context():
        add_user(db.session, "Owner", PASSWORD)
    response = sync(client, game_id, 1, hand_form(0, {1: 10}, 1))
    assert response.status_code == 401
    assert state_of(game_id).hands == ()

    client.post("/login", data={"name": "Owner", "password": PASSWORD, "next": "/"})
    assert sync(client, game_id, 1, hand_form(0, {1: 10}, 1)).json["status"] == "stored"


@pytest.mark.parametrize("replace", [{"replace": "1"}, {}])
def test_a_send_to_an_abandoned_game_says_it_was_abandoned(
    client, new_game, play, state_of, replace
):
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 1, {0: 30, 2: 12})
    assert client.post(f"/games/{game_id}/abandon").status_code == 303
    response = sync(client, game_id, 1, hand_form(0, {1: 10, 2: 25}, 1) | replace)
    assert response.status_code == 409
    assert response.json == {
        "status": "refused",
        "message": "This game was abandoned; resume it to record hands again.",
    }
    assert stored_hands(state_of, game_id) == [(1, {0: 30, 2: 12})]


def test_a_hand_already_stored_in_an_abandoned_game_is_still_acknowledged(
    client, new_game, play, state_of
):
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 1, {0: 30, 2: 12})
    assert client.post(f"/games/{game_id}/abandon").status_code == 303
    response = sync(client, game_id, 1, hand_form(1, {0: 30, 2: 12}, 1))
    assert response.json == {"status": "stored", "already": True}
