"""The merge form refuses what is not another player's id with a message, never a 500."""

from __future__ import annotations

import pytest
from document import error_for, parse
from factories import make_game

from scorer.extensions import db


@pytest.fixture
def two_players(app) -> None:
    with app.app_context():
        make_game(db.session, ["Ann", "Bob"])
        make_game(db.session, ["Cat", "Dan"])


@pytest.mark.parametrize("other", ["0", "abc", "", "1", "99", "1e3", "9" * 5000])
def test_a_choice_that_is_not_another_player_is_a_form_error(client, rows, two_players, other):
    response = client.post("/players/1/merge", data={"other": other})
    assert response.status_code == 422
    assert "Choose the other entry." in error_for(parse(response), "other")
    assert rows("players") == 4


def test_a_missing_choice_is_a_form_error(client, rows, two_players):
    response = client.post("/players/1/merge", data={})
    assert response.status_code == 422
    assert error_for(parse(response), "other")
    assert rows("players") == 4


def test_another_player_is_merged(client, rows, two_players):
    assert client.post("/players/1/merge", data={"other": "3"}).status_code == 303
    assert rows("players") == 3
