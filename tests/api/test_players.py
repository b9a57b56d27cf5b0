"""GET /api/v1/players and /api/v1/players/{id}: the roster with games played and won."""

from __future__ import annotations


def test_the_roster_starts_empty(api):
    response = api.get("/api/v1/players")
    assert response.status_code == 200
    assert response.json == {"players": []}


def test_games_and_wins_per_player(api):
    first = api.start(["Ann", "Bob", "Cat"], target=50)
    api.hand(first, 1, {0: 60, 2: 1})
    api.start(["Bob", "Dan"])
    roster = {player["name"]: player for player in api.get("/api/v1/players").json["players"]}
    assert {name: (p["games"], p["wins"]) for name, p in roster.items()} == {
        "Ann": (1, 0),
        "Bob": (2, 1),
        "Cat": (1, 0),
        "Dan": (1, 0),
    }
    ids = api.ids(first)
    assert [roster[name]["id"] for name in ("Ann", "Bob", "Cat")] == ids


def test_the_roster_lists_the_most_often_seated_first(api):
    api.start(["Cat", "Bob"])
    api.start(["Bob", "Ann"])
    names = [player["name"] for player in api.get("/api/v1/players").json["players"]]
    assert names[0] == "Bob"
    assert sorted(names[1:]) == ["Ann", "Cat"]


def test_both_partners_win_a_partners_game(api):
    game = api.start(["Ann", "Bob", "Cat", "Dan"], mode="partners", target=50)
    api.hand(game, 3, {0: 30, 2: 30})
    wins = {p["name"]: p["wins"] for p in api.get("/api/v1/players").json["players"]}
    assert wins == {"Ann": 0, "Bob": 1, "Cat": 0, "Dan": 1}


def test_the_last_standing_wins_a_challenge_game(api):
    game = api.start(["Ann", "Bob", "Cat"], mode="challenge", target=50)
    api.hand(game, 2, {0: 60, 1: 70})
    wins = {p["name"]: p["wins"] for p in api.get("/api/v1/players").json["players"]}
    assert wins == {"Ann": 0, "Bob": 0, "Cat": 1}


def test_an_undone_winning_hand_takes_the_win_back(api):
    game = api.start(["Ann", "Bob"], target=50)
    api.hand(game, 0, {1: 60})
    ann = api.ids(game)[0]
    assert api.get(f"/api/v1/players/{ann}").json["wins"] == 1
    api.delete(f"/api/v1/games/{game['id']}/hands/1")
    assert api.get(f"/api/v1/players/{ann}").json["wins"] == 0


def test_one_player(api):
    game = api.start(["Ann", "Bob"], target=50)
    api.hand(game, 0, {1: 60})
    api.start(["Ann", "Cat"])
    ann = api.ids(game)[0]
    response = api.get(f"/api/v1/players/{ann}")
    assert response.status_code == 200
    assert response.json == {"id": ann, "name": "Ann", "games": 2, "wins": 1}


def test_an_unknown_player_is_404_json(api):
    response = api.get("/api/v1/players/999")
    assert response.status_code == 404
    assert response.json == {"message": "There is no such player."}
    assert api.get("/api/v1/players/0").status_code == 404
    assert api.get(f"/api/v1/players/{2**40}").status_code == 404


def test_the_roster_takes_the_same_queries_however_many_games(api, count_queries):
    game = api.start(["Ann", "Bob"], target=20)
    api.hand(game, 0, {1: 30})
    with count_queries() as before:
        api.get("/api/v1/players")
    for _ in range(3):
        game = api.start(["Ann", "Cat", "Dan"], target=20)
        api.hand(game, 2, {0: 30, 1: 1})
    with count_queries() as after:
        api.get("/api/v1/players")
    assert len(after) == len(before)
