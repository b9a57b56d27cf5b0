"""Recording (POST), editing (PUT) and undoing (DELETE) hands through the API."""

from __future__ import annotations

import pytest
from factories import record
from flask import Flask

from scorer.extensions import db
from scorer.services import games as game_service


def hands_path(game: dict, number: int | None = None) -> str:
    path = f"/api/v1/games/{game['id']}/hands"
    return path if number is None else f"{path}/{number}"


# Recording ----------------------------------------------------------------------------------------


def test_record_a_hand_by_cards_and_by_points(api):
    game = api.start(["Ann", "Bob", "Cat"])
    response = api.post(hands_path(game), json=api.body(game, 0, {1: ["7", "draw2"], 2: 12}))
    assert response.status_code == 201
    game = response.json
    assert game["hands"] == [
        {"number": 1, "went_out": "Ann", "counts": {"Bob": 27, "Cat": 12}, "points": 39}
    ]
    assert game["hand_count"] == 1
    assert game["dealer"] == "Bob"
    assert game["players"][0]["score"] == 39
    assert game["players"][0]["to_target"] == 461


def test_every_card_name_scores_its_value(api):
    game = api.start(["Ann", "Bob"])
    cards = ["0", "9", "skip", "reverse", "draw2", "wild", "wild4", "blank", "20", "50"]
    game = api.hand(game, 0, {1: cards})
    assert game["hands"][0]["points"] == 9 + 20 * 3 + 50 * 3 + 20 + 50


def test_hands_without_a_number_take_the_next_one(api):
    game = api.start(["Ann", "Bob"])
    api.hand(game, 0, {1: 5})
    game = api.hand(game, 1, {0: 6})
    assert [hand["number"] for hand in game["hands"]] == [1, 2]


def test_a_hand_with_the_next_number_is_recorded(api):
    game = api.start(["Ann", "Bob"])
    response = api.post(hands_path(game), json=api.body(game, 0, {1: 5}, number=1))
    assert response.status_code == 201


@pytest.mark.parametrize("number", [1, 3, 2**31 - 1])
def test_a_hand_number_that_is_not_next_is_a_conflict(api, number):
    game = api.hand(api.start(["Ann", "Bob"]), 0, {1: 5})
    response = api.post(hands_path(game), json=api.body(game, 1, {0: 7}, number=number))
    assert response.status_code == 409
    assert response.json["message"]
    # The answer carries the game as it stands, so the client can show what was recorded.
    assert response.json["game"] == game


def test_a_hand_recorded_by_someone_else_meanwhile_is_a_conflict(app: Flask, api, monkeypatch):
    """Two phones save without a number; the second is told, and nothing is saved twice."""
    game = api.start(["Ann", "Bob"])
    load_game = game_service.load_game

    def load_then_lose_the_race(session, game_id):
        view = load_game(session, game_id)
        monkeypatch.setattr(game_service, "load_game", load_game)
        record(session, game_id, 1, {0: 9}, number=1)
        return view

    monkeypatch.setattr(game_service, "load_game", load_then_lose_the_race)
    response = api.post(hands_path(game), json=api.body(game, 0, {1: 5}))
    assert response.status_code == 409
    assert response.json["game"]["hands"][0]["went_out"] == "Bob"
    assert api.get(f"/api/v1/games/{game['id']}").json["hand_count"] == 1


def test_no_hand_can_be_recorded_once_the_game_is_over(api):
    game = api.hand(api.start(["Ann", "Bob"], target=50), 0, {1: 60})
    assert game["status"] == "finished"
    response = api.post(hands_path(game), json=api.body(game, 1, {0: 5}))
    assert response.status_code == 409
    assert response.json["message"] == "This game is over; no more hands can be recorded."


@pytest.mark.parametrize(
    ("went_out", "counts", "seat", "message"),
    [
        (0, {1: 5}, 2, "Count this hand or type its total."),
        (0, {1: 5, 2: 5, 0: 5}, 0, "The player who went out has no cards to count."),
        (0, {1: ["7", "bogus"], 2: 1}, 1, "Not a card: bogus."),
        (0, {1: -1, 2: 1}, 1, "A total cannot be negative."),
        (0, {1: 5000, 2: 1}, 1, "5000 is more than a whole deck holds"),
        (
            0,
            {1: ["wild4"] * 3, 2: ["wild4"] * 2},
            1,
            "5 Wild Draw Fours counted, but the deck has only 4.",
        ),
    ],
)
def test_the_rules_refuse_a_count_under_its_player_id(api, went_out, counts, seat, message):
    game = api.start(["Ann", "Bob", "Cat"])
    response = api.post(hands_path(game), json=api.body(game, went_out, counts))
    assert response.status_code == 422
    [problem] = response.json["errors"][f"counts.{api.ids(game)[seat]}"]
    assert problem.startswith(message)
    assert api.get(f"/api/v1/games/{game['id']}").json["hand_count"] == 0


@pytest.mark.parametrize(
    "count",
    [{"cards": ["7"], "points": 7}, {}],
)
def test_a_count_needs_the_cards_or_a_total_not_both(api, count):
    game = api.start(["Ann", "Bob"])
    bob = api.ids(game)[1]
    body = {"went_out": api.ids(game)[0], "counts": {str(bob): count}}
    response = api.post(hands_path(game), json=body)
    assert response.status_code == 422
    assert response.json == {"errors": {f"counts.{bob}": ["Give either the cards or a total."]}}


def test_a_partner_of_who_went_out_is_not_counted(api):
    game = api.start(["Ann", "Bob", "Cat", "Dan"], mode="partners")
    response = api.post(hands_path(game), json=api.body(game, 0, {1: 5, 2: 5, 3: 5}))
    assert response.status_code == 422
    cat = api.ids(game)[2]
    assert response.json["errors"] == {
        f"counts.{cat}": ["A partner of the player who went out: their cards are not counted."]
    }


def test_who_went_out_is_required(api):
    game = api.start(["Ann", "Bob"])
    bob = api.ids(game)[1]
    response = api.post(hands_path(game), json={"counts": {str(bob): {"points": 5}}})
    assert response.status_code == 422
    assert response.json == {"errors": {"went_out": ["Tap who went out."]}}


def test_an_eliminated_player_cannot_go_out(api):
    game = api.start(["Ann", "Bob", "Cat"], mode="challenge", target=50)
    game = api.hand(game, 0, {1: 60, 2: 5})
    response = api.post(hands_path(game), json=api.body(game, 1, {0: 5, 2: 5}))
    assert response.status_code == 422
    assert response.json["errors"] == {
        "went_out": ["That player is out of the game and cannot go out."]
    }


def test_players_of_other_games_are_refused_by_id(api):
    game = api.start(["Ann", "Bob"])
    other = api.start(["Cat", "Dan"])
    ann, bob = api.ids(game)
    cat = api.ids(other)[0]
    body = {"went_out": cat, "counts": {str(bob): {"points": 5}, str(cat): {"points": 5}}}
    response = api.post(hands_path(game), json=body)
    assert response.status_code == 422
    assert response.json["errors"] == {
        "went_out": [f"Player {cat} does not play in this game."],
        f"counts.{cat}": [f"Player {cat} does not play in this game."],
    }


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"went_out": "1"}, "went_out"),
        ({"went_out": 1.0}, "went_out"),
        ({"went_out": True}, "went_out"),
        ({"counts": []}, "counts"),
        ({"counts": "Bob: 5"}, "counts"),
        ({"counts": {"abc": {"points": 5}}}, "counts.abc"),
        ({"counts": {"02": {"points": 5}}}, "counts.02"),
        ({"counts": {"0": {"points": 5}}}, "counts.0"),
        ({"counts": {"BOB": 5}}, "counts.BOB"),
        ({"counts": {"BOB": {"cards": "7 skip"}}}, "counts.BOB"),
        ({"counts": {"BOB": {"cards": [7]}}}, "counts.BOB"),
        ({"counts": {"BOB": {"points": "37"}}}, "counts.BOB"),
        ({"counts": {"BOB": {"points": 3.5}}}, "counts.BOB"),
        ({"counts": {"BOB": {"points": False}}}, "counts.BOB"),
        ({"counts": {"BOB": {"points": 5, "colour": "red"}}}, "counts.BOB"),
        ({"number": "2"}, "number"),
        ({"number": 0}, "number"),
        ({"number": 2**31}, "number"),
        ({"last_card": "wild4"}, "last_card"),
    ],
)
def test_wrong_types_are_422_not_500(api, change, field):
    game = api.start(["Ann", "Bob"])
    ann, bob = api.ids(game)
    body = {"went_out": ann, "counts": {str(bob): {"points": 5}}, **change}
    if "counts" in change:
        body["counts"] = _with_bob(change["counts"], bob)
    response = api.post(hands_path(game), json=body)
    assert response.status_code == 422
    assert field.replace("BOB", str(bob)) in response.json["errors"]


def _with_bob(counts, bob: int):
    if isinstance(counts, dict):
        return {key.replace("BOB", str(bob)): value for key, value in counts.items()}
    return counts


def test_a_hand_body_must_be_an_object(api):
    game = api.start(["Ann", "Bob"])
    response = api.post(hands_path(game), json=[1, 2])
    assert response.status_code == 422
    assert response.json == {"errors": {"body": ["Send a JSON object."]}}


def test_a_hand_for_an_unknown_game_is_404(api):
    response = api.post("/api/v1/games/999/hands", json={"went_out": 1, "counts": {}})
    assert response.status_code == 404


def test_recording_takes_the_same_queries_however_many_hands(api, count_queries):
    game = api.hand(api.start(["Ann", "Bob", "Cat"]), 0, {1: 5, 2: 5})
    with count_queries() as before:
        game = api.hand(game, 1, {0: 5, 2: ["1"]})
    for _ in range(3):
        game = api.hand(game, 1, {0: 5, 2: ["1"]})
    with count_queries() as after:
        api.hand(game, 1, {0: 5, 2: ["1"]})
    assert len(after) == len(before)


# Editing ------------------------------------------------------------------------------------------


def test_edit_a_hand_recomputes_the_game(api):
    game = api.start(["Ann", "Bob", "Cat"])
    game = api.hand(game, 0, {1: 10, 2: 10})
    game = api.hand(game, 1, {0: 5, 2: 5})
    response = api.put(hands_path(game, 1), json=api.body(game, 2, {0: ["wild"], 1: 1}))
    assert response.status_code == 200
    edited = response.json
    assert edited["hands"][0] == {
        "number": 1,
        "went_out": "Cat",
        "counts": {"Ann": 50, "Bob": 1},
        "points": 51,
    }
    assert [player["score"] for player in edited["players"]] == [0, 10, 51]
    assert api.get(f"/api/v1/games/{game['id']}").json == edited


def test_an_edit_is_refused_by_field_like_a_new_hand(api):
    game = api.hand(api.start(["Ann", "Bob", "Cat"]), 0, {1: 10, 2: 10})
    cat = api.ids(game)[2]
    response = api.put(hands_path(game, 1), json=api.body(game, 0, {1: 10}))
    assert response.status_code == 422
    assert response.json == {"errors": {f"counts.{cat}": ["Count this hand or type its total."]}}


def test_an_edit_that_a_later_hand_no_longer_fits_is_refused(api):
    game = api.start(["Ann", "Bob", "Cat"], mode="challenge", target=100)
    game = api.hand(game, 0, {1: 50, 2: 10})
    game = api.hand(game, 1, {0: 10, 2: 10})
    # Bob would be out after hand 1, so he could not have gone out in hand 2.
    response = api.put(hands_path(game, 1), json=api.body(game, 0, {1: 150, 2: 10}))
    assert response.status_code == 422
    assert response.json == {
        "errors": {
            "hand": [
                "Hand 2 would no longer fit: That player is out of the game and cannot go out."
            ]
        }
    }
    assert api.get(f"/api/v1/games/{game['id']}").json == game


def test_an_edit_after_which_the_game_ended_earlier_is_refused(api):
    game = api.start(["Ann", "Bob"], target=100)
    game = api.hand(game, 0, {1: 50})
    game = api.hand(game, 1, {0: 10})
    response = api.put(hands_path(game, 1), json=api.body(game, 0, {1: 120}))
    assert response.status_code == 422
    assert response.json == {
        "errors": {"hand": ["Hand 2 would no longer fit: The game was already over."]}
    }


def test_an_edit_may_leave_out_the_number_or_repeat_it(api):
    game = api.hand(api.start(["Ann", "Bob"]), 0, {1: 10})
    response = api.put(hands_path(game, 1), json=api.body(game, 0, {1: 20}, number=1))
    assert response.status_code == 200
    response = api.put(hands_path(game, 1), json=api.body(game, 0, {1: 20}, number=2))
    assert response.status_code == 422
    assert list(response.json["errors"]) == ["number"]


def test_an_edit_of_a_finished_game_can_reopen_it(api):
    game = api.hand(api.start(["Ann", "Bob"], target=50), 0, {1: 60})
    assert game["status"] == "finished"
    game = api.put(hands_path(game, 1), json=api.body(game, 0, {1: 10})).json
    assert game["status"] == "in_progress"
    assert game["winner"] is None


@pytest.mark.parametrize("number", [2, 99])
def test_editing_a_hand_that_does_not_exist_is_404(api, number):
    game = api.hand(api.start(["Ann", "Bob"]), 0, {1: 10})
    response = api.put(hands_path(game, number), json=api.body(game, 0, {1: 20}))
    assert response.status_code == 404
    assert response.json == {"message": f"This game has no hand {number}."}


def test_editing_a_hand_of_an_unknown_game_is_404(api):
    response = api.put("/api/v1/games/999/hands/1", json={"went_out": 1, "counts": {}})
    assert response.status_code == 404


def test_an_edit_must_be_json(api):
    game = api.hand(api.start(["Ann", "Bob"]), 0, {1: 10})
    response = api.put(hands_path(game, 1), data={"went_out": "1"})
    assert response.status_code == 415


# Undoing ------------------------------------------------------------------------------------------


def test_undo_the_last_hand(api):
    game = api.start(["Ann", "Bob"], target=50)
    first = api.hand(game, 0, {1: 10})
    finished = api.hand(first, 1, {0: 60})
    assert finished["status"] == "finished"
    response = api.delete(hands_path(game, 2))
    assert response.status_code == 200
    assert response.json == first
    assert api.get(f"/api/v1/games/{game['id']}").json == first


def test_only_the_last_hand_can_be_undone(api):
    game = api.start(["Ann", "Bob"])
    game = api.hand(api.hand(game, 0, {1: 10}), 1, {0: 10})
    response = api.delete(hands_path(game, 1))
    assert response.status_code == 409
    assert response.json["message"] == (
        "Hand 1 is no longer the last hand; only the last can be undone."
    )
    assert response.json["game"] == game


def test_undoing_an_unknown_hand_or_game_is_404(api):
    game = api.hand(api.start(["Ann", "Bob"]), 0, {1: 10})
    response = api.delete(hands_path(game, 2))
    assert response.status_code == 404
    assert response.json == {"message": "This game has no hand 2."}
    assert api.delete("/api/v1/games/999/hands/1").status_code == 404


def test_the_html_page_shows_what_the_api_recorded(app: Flask, api, client):
    game = api.hand(api.start(["Ann", "Bob"]), 0, {1: ["wild4", "3"]})
    with app.app_context():
        view = game_service.load_game(db.session, game["id"])
        assert view.state.sides[0].score == 53
    page = client.get(f"/games/{game['id']}")
    assert page.status_code == 200
    assert "53" in page.get_data(as_text=True)
