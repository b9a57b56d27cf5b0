"""GET /api/v1/players and /api/v1/players/{id}: the roster with games played and won."""

from __future__ import annotations


def test_the_roster_starts_empty(api):
    response = api.get("/api/v1/players")
    assert response.status_code == 200
    assert response.json == {"players": [], "next": None}


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


def test_the_roster_lists_players_by_name_ignoring_case(api):
    api.start(["cat", "Bob"])
    api.start(["Bob", "Ann"])
    names = [player["name"] for player in api.get("/api/v1/players").json["players"]]
    assert names == ["Ann", "Bob", "cat"]


def pages_of(api, limit: int, **query: str) -> list[list[str]]:
    """Every page of the roster, `limit` at a time, following `next` to the end."""
    found, cursor = [], None
    while True:
        params = {"limit": str(limit), **query} | ({"cursor": cursor} if cursor else {})
        response = api.get("/api/v1/players", query_string=params)
        assert response.status_code == 200
        found.append([player["name"] for player in response.json["players"]])
        cursor = response.json["next"]
        if cursor is None:
            return found


def test_the_roster_comes_a_page_at_a_time(api):
    api.start(["Eve", "Dan", "Cat", "Bob", "Ann"])
    assert pages_of(api, 2) == [["Ann", "Bob"], ["Cat", "Dan"], ["Eve"]]


def test_paging_neither_repeats_nor_skips_a_player_added_or_removed_meanwhile(api):
    api.start(["Ann", "Bob", "Dan", "Eve"])
    first = api.get("/api/v1/players", query_string={"limit": "2"}).json
    assert [player["name"] for player in first["players"]] == ["Ann", "Bob"]
    # Aaron sorts before the place reached and Cat after it: only Cat is still to come.
    api.start(["Aaron", "Cat"])
    second = api.get("/api/v1/players", query_string={"limit": "2", "cursor": first["next"]})
    assert [player["name"] for player in second.json["players"]] == ["Cat", "Dan"]
    third = api.get("/api/v1/players", query_string={"limit": "2", "cursor": second.json["next"]})
    assert [player["name"] for player in third.json["players"]] == ["Eve"]
    assert third.json["next"] is None


def test_a_search_finds_names_containing_it_ignoring_case_and_is_paged_too(api):
    api.start(["Annie", "Bob", "JoANN", "Dan", "Hanna"])
    assert pages_of(api, 2, q="ann") == [["Annie", "Hanna"], ["JoANN"]]
    assert pages_of(api, 2, q="ＡＮＮ") == [["Annie", "Hanna"], ["JoANN"]]
    assert pages_of(api, 5, q="%") == [[]]
    assert pages_of(api, 5, q="ann\x00") == [["Annie", "Hanna", "JoANN"]]


def test_a_limit_is_capped_and_a_bad_limit_or_cursor_is_422(api):
    api.start(["Ann", "Bob"])
    assert len(api.get("/api/v1/players", query_string={"limit": "100000"}).json["players"]) == 2
    for limit in ("0", "-1", "two", "1.5", "９"):
        response = api.get("/api/v1/players", query_string={"limit": limit})
        assert response.status_code == 422
        assert list(response.json["errors"]) == ["limit"]
    games = api.get("/api/v1/games", query_string={"limit": "1"}).json
    for cursor in ("nonsense", "!!!", games["next"] or "WyJnYW1lcyIsMV0"):
        response = api.get("/api/v1/players", query_string={"cursor": cursor})
        assert response.status_code == 422
        assert "first page" in response.json["errors"]["cursor"][0]


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


def test_the_roster_takes_the_same_queries_however_many_players(api, count_queries):
    api.start(["Ann", "Bob"])
    with count_queries() as before:
        api.get("/api/v1/players")
    for first in range(0, 9, 3):
        api.start([f"P{first}", f"P{first + 1}", f"P{first + 2}"])
    with count_queries() as after:
        api.get("/api/v1/players")
    assert len(after) == len(before)


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
