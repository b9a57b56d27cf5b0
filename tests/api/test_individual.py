"""Individual play through the API: four players, twelve hands, head-to-head points, shared wins."""

import pytest

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def start(api) -> dict:
    return api.start(NAMES, mode="individual")


def others(went_out: int, *points: int) -> dict[int, int]:
    return dict(zip([seat for seat in range(4) if seat != went_out], points, strict=True))


@pytest.mark.parametrize("players", [3, 5])
def test_individual_play_needs_exactly_four_players(api, players):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"][:players]
    response = api.post("/api/v1/games", json={"mode": "individual", "players": names})
    assert response.status_code == 422
    assert response.json["errors"]["players"] == ["Individual play is for exactly 4 players."]


def test_each_player_gains_hands_won_and_points_against_each_other_player(api):
    game = start(api)
    assert game["mode"] == "individual" and game["hand_limit"] == 12
    ann, bob, cat, dan = ids = api.ids(game)
    assert all(p["hands_won"] == 0 for p in game["players"])
    assert game["players"][0]["against"] == {str(bob): 0, str(cat): 0, str(dan): 0}
    game = api.hand(game, 0, others(0, 5, ["skip", "7"], 50))
    game = api.hand(game, 2, others(2, 3, 4, 0))
    players = {p["name"]: p for p in game["players"]}
    assert players["Ann"]["against"] == {str(bob): 5, str(cat): 27, str(dan): 50}
    assert players["Cat"]["against"] == {str(ann): 3, str(bob): 4, str(dan): 0}
    assert players["Bob"]["against"] == {str(ann): 0, str(cat): 0, str(dan): 0}
    assert [players[name]["hands_won"] for name in NAMES] == [1, 0, 1, 0]
    assert [players[name]["score"] for name in NAMES] == [82, 0, 7, 0]
    assert len(ids) == 4


def test_other_modes_keep_their_fields_and_have_no_head_to_head(api):
    game = api.start(["Ann", "Bob", "Cat"])
    game = api.hand(game, 1, {0: 10, 2: 5})
    assert [p["hands_won"] for p in game["players"]] == [0, 1, 0]
    assert all(p["against"] is None for p in game["players"])
    assert game["hand_limit"] is None and game["shared"] == []


def test_the_most_hands_won_wins_and_a_thirteenth_hand_is_a_conflict(api):
    game = start(api)
    for went_out in [1, 1, 1, 1, 0, 0, 0, 2, 2, 2, 3, 3]:
        game = api.hand(game, went_out, others(went_out, 1, 1, 100 if went_out == 0 else 1))
    assert game["status"] == "finished"
    assert game["winner"] == {"name": "Bob", "players": ["Bob"]}
    assert game["shared"] == []
    response = api.post(
        f"/api/v1/games/{game['id']}/hands", json=api.body(game, 0, others(0, 1, 1, 1))
    )
    assert response.status_code == 409
    assert response.json["game"]["hand_count"] == 12


def test_a_win_level_on_hands_and_points_is_shared(api):
    game = start(api)
    for went_out in [0, 1] * 4 + [2, 2, 3, 3]:
        game = api.hand(game, went_out, others(went_out, 1, 1, 1))
    assert game["status"] == "finished"
    assert game["winner"] is None
    assert game["shared"] == [
        {"name": "Ann", "players": ["Ann"]},
        {"name": "Bob", "players": ["Bob"]},
    ]
    assert api.get(f"/api/v1/games/{game['id']}").json == game
