"""Reading request bodies: types only, every problem at once; the rules are left to scoring."""

from __future__ import annotations

import pytest

from scorer import scoring
from scorer.api import schemas
from scorer.api.openapi import OPENAPI


def test_a_new_game_takes_its_defaults():
    game = schemas.game_input({"mode": "standard", "players": ["Ann", "Bob"]})
    assert game == schemas.GameInput("standard", ["Ann", "Bob"], 500, 0, [])


def test_a_new_game_is_not_judged_by_the_rules_here():
    # One player, an unknown mode and a dealer off the table are the rules' to refuse.
    game = schemas.game_input({"mode": "speed", "players": ["Ann"], "first_dealer": 7})
    assert (game.mode, game.players, game.first_dealer) == ("speed", ["Ann"], 7)


def test_every_type_error_is_collected():
    with pytest.raises(schemas.Invalid) as raised:
        schemas.game_input({"mode": 3, "players": "Ann", "target": "x", "extra": 1})
    assert set(raised.value.errors) == {"mode", "players", "target", "extra"}


def test_a_body_that_is_not_an_object_is_one_error():
    with pytest.raises(schemas.Invalid) as raised:
        schemas.game_input(["Ann", "Bob"])
    assert raised.value.errors == {"body": ["Send a JSON object."]}


def test_a_hand_reads_counts_by_player_id():
    hand = schemas.hand_input(
        {"went_out": 4, "counts": {"7": {"cards": ["7", "skip"]}, "9": {"points": 12}}}
    )
    assert hand == schemas.HandInput(
        4, {7: scoring.Count(cards=("7", "skip")), 9: scoring.Count(points=12)}, None
    )


def test_a_count_with_both_or_neither_is_passed_on_for_the_rules_to_refuse():
    hand = schemas.hand_input({"went_out": 4, "counts": {"7": {}, "8": {"cards": [], "points": 0}}})
    assert hand.counts == {7: scoring.Count(), 8: scoring.Count(cards=(), points=0)}


@pytest.mark.parametrize("key", ["07", "+7", " 7", "7.0", "٧", "0", str(2**31)])
def test_only_the_plain_spelling_of_a_player_id_is_a_key(key):
    with pytest.raises(schemas.Invalid) as raised:
        schemas.hand_input({"went_out": 4, "counts": {key: {"points": 1}}})
    assert list(raised.value.errors) == [f"counts.{key}"]


def test_the_documented_bodies_are_the_declared_ones():
    # The OpenAPI document is generated from the declarations the reader checks with.
    components = OPENAPI["components"]["schemas"]
    assert set(components["NewGame"]["properties"]) == {
        "mode",
        "players",
        "target",
        "first_dealer",
        "teams",
        "deck",
        "hand_limit",
    }
    assert components["NewGame"]["required"] == ["mode", "players"]
    assert components["NewGame"]["additionalProperties"] is False
    assert set(components["HandInput"]["properties"]) == {"went_out", "counts", "number"}
    assert components["HandInput"]["properties"]["counts"]["additionalProperties"] == {
        "$ref": "#/components/schemas/Count"
    }
    assert set(components["Count"]["properties"]) == {"cards", "points"}


def test_a_nested_type_error_is_reported_under_its_count():
    with pytest.raises(schemas.Invalid) as raised:
        schemas.hand_input({"went_out": 4, "counts": {"7": {"points": "5", "colour": "red"}}})
    assert raised.value.errors == {
        "counts.7": ['"points": Must be a whole number.', '"colour": Unknown field.']
    }
