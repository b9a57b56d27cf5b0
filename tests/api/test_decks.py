"""The deck a game plays with, through the API: chosen on POST /api/v1/games, shown in the game."""

from __future__ import annotations

import pytest

from scorer.api.openapi import OPENAPI

RETAIL = {"copies": 1, "blanks": 4, "blank_value": 50}
CLASSIC = {"copies": 1, "blanks": 0, "blank_value": 50}


def test_a_game_without_a_deck_plays_the_retail_deck(api):
    assert api.start(2)["deck"] == RETAIL


@pytest.mark.parametrize(
    "deck",
    [
        CLASSIC,
        {"copies": 2, "blanks": 4, "blank_value": 0},
        {"copies": 2, "blanks": 0, "blank_value": 500},
        {"copies": 1, "blanks": 4, "blank_value": 25},
    ],
)
def test_the_game_document_returns_the_deck_it_was_given(api, deck):
    game = api.start(2, deck=deck)
    assert game["deck"] == deck
    assert api.get(f"/api/v1/games/{game['id']}").json["deck"] == deck


def test_fields_left_out_keep_the_default_decks(api):
    assert api.start(2, deck={"copies": 2})["deck"] == RETAIL | {"copies": 2}
    assert api.start(2, deck={})["deck"] == RETAIL


@pytest.mark.parametrize(
    ("deck", "errors"),
    [
        ({"copies": 3}, {"deck.copies": ["Play with one deck or two shuffled together."]}),
        ({"copies": 0}, {"deck.copies": ["Play with one deck or two shuffled together."]}),
        ({"blanks": 2}, {"deck.blanks": ["A deck has 0 or 4 blank cards."]}),
        ({"blank_value": 501}, {"deck.blank_value": ["A blank card scores 0 to 500 points."]}),
        ({"blank_value": -1}, {"deck.blank_value": ["A blank card scores 0 to 500 points."]}),
        ({"copies": "2"}, {"deck.copies": ["Must be a whole number."]}),
        ({"copies": True}, {"deck.copies": ["Must be a whole number."]}),
        ({"blank_value": 50.0}, {"deck.blank_value": ["Must be a whole number."]}),
        ({"colour": "red"}, {"deck.colour": ["Unknown field."]}),
        (None, {"deck": ["Must be an object."]}),
        ([1, 4, 50], {"deck": ["Must be an object."]}),
        ("classic", {"deck": ["Must be an object."]}),
        (
            {"copies": 9, "blanks": 9},
            {
                "deck.copies": ["Play with one deck or two shuffled together."],
                "deck.blanks": ["A deck has 0 or 4 blank cards."],
            },
        ),
    ],
)
def test_any_other_deck_is_refused_with_422_and_nothing_is_started(api, deck, errors):
    body = {"mode": "standard", "players": ["Ann", "Bob"], "deck": deck}
    response = api.post("/api/v1/games", json=body)
    assert response.status_code == 422
    assert response.json == {"errors": errors}
    assert api.get("/api/v1/players").json["players"] == []


def test_a_blank_scores_the_games_blank_value(api):
    game = api.start(2, deck={"blank_value": 25})
    after = api.hand(game, 0, {1: ["blank", "blank", "7"]})
    assert after["hands"][0]["points"] == 57


def test_a_classic_deck_has_no_blank_cards(api):
    game = api.start(2, deck=CLASSIC)
    path = f"/api/v1/games/{game['id']}/hands"
    response = api.post(path, json=api.body(game, 0, {1: ["blank"]}))
    assert response.status_code == 422
    bob = game["players"][1]["id"]
    assert response.json == {"errors": {f"counts.{bob}": ["This game's deck has no blank cards."]}}


@pytest.mark.parametrize(
    ("deck", "most"),
    [(CLASSIC, 1240), (RETAIL, 1440), ({"copies": 2, "blank_value": 500}, 2 * (1240 + 2000))],
)
def test_the_whole_deck_maximum_follows_the_deck(api, deck, most):
    game = api.start(2, deck=deck, target=100_000)
    path = f"/api/v1/games/{game['id']}/hands"
    response = api.post(path, json=api.body(game, 0, {1: most + 1}))
    assert response.status_code == 422
    assert f"more than a whole deck holds ({most})" in str(response.json)
    assert api.hand(game, 0, {1: most})["hands"][0]["points"] == most


@pytest.mark.parametrize(("copies", "wilds"), [(1, 8), (2, 16)])
def test_wild_limits_double_with_two_decks(api, copies, wilds):
    game = api.start(3, deck={"copies": copies})
    path = f"/api/v1/games/{game['id']}/hands"
    over = api.body(game, 0, {1: ["50"] * wilds, 2: ["wild"]})
    response = api.post(path, json=over)
    assert response.status_code == 422
    assert f"{wilds + 1} 50-point wild cards counted, but the deck has only {wilds}." in str(
        response.json
    )
    assert api.hand(game, 0, {1: ["50"] * wilds, 2: ["9"]})["hands"][0]["points"] == 50 * wilds + 9


def test_the_openapi_document_declares_the_deck_both_ways():
    components = OPENAPI["components"]["schemas"]
    body = components["DeckInput"]
    assert set(body["properties"]) == {"copies", "blanks", "blank_value"}
    assert body["properties"]["copies"]["enum"] == [1, 2]
    assert body["properties"]["blanks"]["enum"] == [0, 4]
    assert body["properties"]["blank_value"]["maximum"] == 500
    assert body["additionalProperties"] is False
    assert components["Game"]["properties"]["deck"] == {"$ref": "#/components/schemas/Deck"}
