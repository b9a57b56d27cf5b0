"""POST /api/v1/games and GET /api/v1/games/{id}: starting a game and reading its document."""

from __future__ import annotations

import json

import pytest


def test_start_a_game_answers_201_with_the_document_and_its_address(api):
    response = api.post(
        "/api/v1/games", json={"mode": "standard", "target": 300, "players": ["Ann", "Bob", "Cat"]}
    )
    assert response.status_code == 201
    game = response.json
    assert response.headers["Location"] == f"/api/v1/games/{game['id']}"
    assert game["mode"] == "standard"
    assert game["target"] == 300
    assert game["status"] == "in_progress"
    assert game["winner"] is None
    assert game["dealer"] == "Ann"
    assert game["hand_count"] == 0
    assert game["hands"] == []
    assert game["teams"] == []
    assert [(p["name"], p["seat"], p["score"], p["to_target"]) for p in game["players"]] == [
        ("Ann", 0, 0, 300),
        ("Bob", 1, 0, 300),
        ("Cat", 2, 0, 300),
    ]
    assert all(p["eliminated"] is False and p["team"] is None for p in game["players"])
    assert api.get(response.headers["Location"]).json == game


def test_target_and_first_dealer_default_to_500_and_the_first_seat(api):
    game = api.start(["Ann", "Bob"])
    assert game["target"] == 500
    assert game["dealer"] == "Ann"


def test_first_dealer_is_a_seat_index(api):
    assert api.start(["Ann", "Bob", "Cat"], first_dealer=2)["dealer"] == "Cat"


def test_names_join_the_roster_once_ignoring_case(api):
    first = api.start(["Ann", "Bob"])
    second = api.start(["  bob ", "Cat"])
    assert second["players"][0]["id"] == first["players"][1]["id"]
    assert second["players"][0]["name"] == "Bob"
    roster = api.get("/api/v1/players").json["players"]
    assert sorted(player["name"] for player in roster) == ["Ann", "Bob", "Cat"]


def test_a_partners_game_has_teams_seated_opposite(api):
    game = api.start(["Ann", "Bob", "Cat", "Dan"], mode="partners", teams=["Reds", ""])
    assert game["teams"] == [
        {"name": "Reds", "players": ["Ann", "Cat"], "score": 0, "to_target": 500},
        {"name": "Bob & Dan", "players": ["Bob", "Dan"], "score": 0, "to_target": 500},
    ]
    assert [player["team"] for player in game["players"]] == [
        "Reds",
        "Bob & Dan",
        "Reds",
        "Bob & Dan",
    ]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"mode": "standard", "teams": ["Reds"]}, "Only a Partners game has teams to name."),
        ({"mode": "challenge", "teams": [""]}, "Only a Partners game has teams to name."),
        (
            {"mode": "partners", "players": ["A", "B", "C", "D"], "teams": ["R", "B", "G"]},
            "4 players make 2 teams: give at most 2 team names.",
        ),
    ],
)
def test_team_names_that_name_no_team_are_refused(api, fields, message):
    response = api.post("/api/v1/games", json={"players": ["Ann", "Bob"], **fields})
    assert response.status_code == 422
    assert response.json == {"errors": {"teams": [message]}}
    assert api.get("/api/v1/players").json["players"] == []


def test_fewer_team_names_than_teams_leave_the_rest_named_after_their_players(api):
    game = api.start(["Ann", "Bob", "Cat", "Dan"], mode="partners", teams=["Reds"])
    assert [team["name"] for team in game["teams"]] == ["Reds", "Bob & Dan"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"players": ["Ann"]}, "players"),
        ({"players": [f"P{n}" for n in range(11)]}, "players"),
        ({"players": ["Ann", "ann"]}, "players"),
        ({"players": ["Ann", "   "]}, "players"),
        ({"players": ["Ann", "x" * 41]}, "players"),
        ({"mode": "speed"}, "mode"),
        ({"mode": "partners"}, "players"),
        ({"target": 0}, "target"),
        ({"target": -5}, "target"),
        ({"first_dealer": 3}, "first_dealer"),
        ({"first_dealer": -1}, "first_dealer"),
        (
            {"mode": "partners", "players": ["A", "B", "C", "D"], "teams": ["x" * 61]},
            "teams",
        ),
    ],
)
def test_the_rules_refuse_a_setup_with_422_by_field(api, fields, field):
    body = {"mode": "standard", "players": ["Ann", "Bob", "Cat"], **fields}
    response = api.post("/api/v1/games", json=body)
    assert response.status_code == 422
    assert list(response.json["errors"]) == [field]
    assert all(isinstance(message, str) for message in response.json["errors"][field])
    assert api.get("/api/v1/players").json == {"players": [], "next": None}


def test_the_rules_messages_are_the_same_as_on_the_setup_page(api):
    response = api.post("/api/v1/games", json={"mode": "standard", "players": ["Ann"]})
    assert response.json == {"errors": {"players": ["A game needs 2 to 10 players."]}}


def test_every_problem_is_reported_at_once(api):
    body = {"mode": "speed", "players": ["Ann"], "target": 0, "first_dealer": 4}
    response = api.post("/api/v1/games", json=body)
    assert response.status_code == 422
    assert set(response.json["errors"]) == {"mode", "players", "target", "first_dealer"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"mode": "standard", "players": ["Ann", "Bob"], "target": "abc"}, "target"),
        ({"mode": "standard", "players": ["Ann", "Bob"], "target": "500"}, "target"),
        ({"mode": "standard", "players": ["Ann", "Bob"], "target": 2.5}, "target"),
        ({"mode": "standard", "players": ["Ann", "Bob"], "target": True}, "target"),
        ({"mode": "standard", "players": ["Ann", "Bob"], "target": 2**31}, "target"),
        ({"mode": "standard", "players": ["Ann", "Bob"], "target": 10**40}, "target"),
        ({"mode": "standard", "players": "Ann, Bob"}, "players"),
        ({"mode": "standard", "players": {"Ann": 1}}, "players"),
        ({"mode": "standard", "players": ["Ann", 7]}, "players"),
        ({"mode": "standard", "players": ["Ann", None]}, "players"),
        ({"mode": "standard", "players": ["Ann", "B\x00b"]}, "players"),
        ({"mode": "standard", "players": ["Ann", "\ud800"]}, "players"),
        ({"mode": 1, "players": ["Ann", "Bob"]}, "mode"),
        ({"mode": ["standard"], "players": ["Ann", "Bob"]}, "mode"),
        ({"mode": "standard", "players": ["Ann", "Bob"], "first_dealer": "0"}, "first_dealer"),
        ({"mode": "standard", "players": ["Ann", "Bob"], "first_dealer": 0.0}, "first_dealer"),
        ({"mode": "partners", "players": ["A", "B", "C", "D"], "teams": "Reds"}, "teams"),
        ({"mode": "partners", "players": ["A", "B", "C", "D"], "teams": [1]}, "teams"),
        ({"mode": "standard", "players": ["Ann", "Bob"], "colour": "red"}, "colour"),
        ({"players": ["Ann", "Bob"]}, "mode"),
        ({"mode": "standard"}, "players"),
        ([], "body"),
        ("standard", "body"),
        (None, "body"),
        (500, "body"),
    ],
)
def test_wrong_types_are_422_not_500(api, body, field):
    response = api.post("/api/v1/games", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 422
    assert field in response.json["errors"]
    assert api.get("/api/v1/players").json == {"players": [], "next": None}


def test_a_lone_surrogate_in_raw_json_is_refused(api):
    raw = '{"mode": "standard", "players": ["Ann", "\\udc00"]}'
    response = api.post("/api/v1/games", data=raw, content_type="application/json")
    assert response.status_code == 422
    assert "players" in response.json["errors"]


def test_get_an_unknown_game_is_404_json(api):
    response = api.get("/api/v1/games/999")
    assert response.status_code == 404
    assert response.json == {"message": "There is no such game."}


@pytest.mark.parametrize("game_id", ["0", "-1", "abc", "1.5", str(2**31), str(10**30)])
def test_a_game_id_that_cannot_be_one_is_404_json(api, game_id):
    response = api.get(f"/api/v1/games/{game_id}")
    assert response.status_code == 404
    assert "message" in response.json


def test_a_finished_standard_game_names_its_winner(api):
    game = api.start(["Ann", "Bob", "Cat"], target=100, first_dealer=1)
    game = api.hand(game, 2, {0: ["wild", "7"], 1: 10})
    assert game["hands"] == [
        {"number": 1, "went_out": "Cat", "counts": {"Ann": 57, "Bob": 10}, "points": 67}
    ]
    assert game["dealer"] == "Cat"
    game = api.hand(game, 2, {0: 40, 1: 3})
    assert game["status"] == "finished"
    assert game["winner"] == {"name": "Cat", "players": ["Cat"]}
    assert game["hand_count"] == 2
    cat = game["players"][2]
    # 110 points against a target of 100: the distance stops at 0.
    assert (cat["score"], cat["to_target"]) == (110, 0)
    assert api.get(f"/api/v1/games/{game['id']}").json == game


def test_a_partners_hand_counts_only_the_opponents_and_scores_the_team(api):
    game = api.start(["Ann", "Bob", "Cat", "Dan"], mode="partners", target=200)
    game = api.hand(game, 0, {1: 30, 3: ["skip", "5"]})
    assert game["hands"][0]["counts"] == {"Bob": 30, "Dan": 25}
    assert game["hands"][0]["points"] == 55
    scores = {player["name"]: player["score"] for player in game["players"]}
    assert scores == {"Ann": 55, "Bob": 0, "Cat": 55, "Dan": 0}
    assert game["teams"][0] == {
        "name": "Ann & Cat",
        "players": ["Ann", "Cat"],
        "score": 55,
        "to_target": 145,
    }
    game = api.hand(game, 2, {1: 100, 3: 100})
    assert game["winner"] == {"name": "Ann & Cat", "players": ["Ann", "Cat"]}


def test_a_challenge_game_counts_against_each_player_and_eliminates(api):
    game = api.start(["Ann", "Bob", "Cat"], mode="challenge", target=100)
    game = api.hand(game, 0, {1: 120, 2: 30})
    assert game["hands"][0]["points"] is None
    assert game["hands"][0]["counts"] == {"Bob": 120, "Cat": 30}
    bob = game["players"][1]
    assert (bob["score"], bob["to_target"], bob["eliminated"]) == (120, 0, True)
    assert game["status"] == "in_progress"
    game = api.hand(game, 0, {2: 80})
    assert game["status"] == "finished"
    assert game["winner"] == {"name": "Ann", "players": ["Ann"]}


def test_reading_a_game_takes_the_same_queries_however_many_hands(api, count_queries):
    game = api.start(["Ann", "Bob", "Cat"])
    game = api.hand(game, 0, {1: 5, 2: ["3", "skip"]})
    path = f"/api/v1/games/{game['id']}"
    with count_queries() as before:
        api.get(path)
    for _ in range(4):
        game = api.hand(game, 0, {1: 5, 2: ["3", "skip"]})
    with count_queries() as after:
        api.get(path)
    assert len(after) == len(before)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"players": ["Ann", "B\x07b"]}, "players", "Names cannot contain control characters."),
        ({"players": ["Ann", "x" * 41]}, "players", "Names are at most 40 characters."),
        (
            {"mode": "partners", "players": ["A", "B", "C", "D"], "teams": ["Re\x1bds"]},
            "teams",
            "Team names cannot contain control characters.",
        ),
        ({"target": 100_001}, "target", "The target can be at most 100,000 points."),
    ],
)
def test_names_and_bounds_are_refused_in_the_setup_pages_words(api, fields, field, message):
    body = {"mode": "standard", "players": ["Ann", "Bob"], **fields}
    response = api.post("/api/v1/games", json=body)
    assert response.status_code == 422
    assert response.json == {"errors": {field: [message]}}


def test_a_game_of_a_number_of_hands_ends_after_its_last(api):
    game = api.start(["Ann", "Bob", "Cat"], hand_limit=2, target=10)
    assert game["hand_limit"] == 2
    # Past the target after one hand, but a game of two hands goes on.
    game = api.hand(game, 0, {1: 20, 2: 0})
    assert game["status"] == "in_progress"
    game = api.hand(game, 1, {0: 5, 2: 0})
    assert game["status"] == "finished"
    assert game["winner"]["name"] == "Ann"


def test_a_challenge_game_of_one_hand_is_won_by_the_fewest_points(api):
    game = api.start(["Ann", "Bob", "Cat"], mode="challenge", hand_limit=1)
    game = api.hand(game, 0, {1: 9, 2: 4})
    assert (game["status"], game["winner"]["name"]) == ("finished", "Ann")


@pytest.mark.parametrize("hand_limit", [0, 51, -3])
def test_a_hand_limit_out_of_range_is_refused_in_the_setup_pages_words(api, hand_limit):
    body = {"mode": "standard", "players": ["Ann", "Bob"], "hand_limit": hand_limit}
    response = api.post("/api/v1/games", json=body)
    assert response.status_code == 422
    assert response.json["errors"] == {"hand_limit": ["A game can last 1 to 50 hands."]}


def test_a_hand_limit_must_be_a_whole_number(api):
    response = api.post(
        "/api/v1/games", json={"mode": "standard", "players": ["Ann", "Bob"], "hand_limit": "3"}
    )
    assert response.status_code == 422
    assert list(response.json["errors"]) == ["hand_limit"]


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        (
            {"players": ["Ann", "\u200b\u200d"]},
            "players",
            "Names need a letter, digit or sign that can be seen.",
        ),
        (
            {"players": ["Ann", "\u3164"]},
            "players",
            "Names need a letter, digit or sign that can be seen.",
        ),
        (
            {"players": ["Ann", "\u2800"]},
            "players",
            "Names need a letter, digit or sign that can be seen.",
        ),
        (
            {"players": ["Ann", "\u0301"]},
            "players",
            "Names need a letter, digit or sign that can be seen.",
        ),
        (
            {"players": ["Ann", "Ann\u202egnp.exe"]},
            "players",
            "Names cannot contain characters that change the direction of text.",
        ),
        ({"players": ["Ann", "Ann\u200b"]}, "players", "Ann is already playing."),
        ({"players": ["Ann", "\uff21\uff4e\uff4e"]}, "players", "Ann is already playing."),
        (
            {"mode": "partners", "players": ["A", "B", "C", "D"], "teams": ["\u2066Reds"]},
            "teams",
            "Team names cannot contain characters that change the direction of text.",
        ),
        (
            {"mode": "partners", "players": ["A", "B", "C", "D"], "teams": ["\u200b"]},
            "teams",
            "Team names need a letter, digit or sign that can be seen.",
        ),
    ],
)
def test_names_with_nothing_to_see_or_that_turn_text_around_are_refused(
    api, fields, field, message
):
    body = {"mode": "standard", "players": ["Ann", "Bob"], **fields}
    response = api.post("/api/v1/games", json=body)
    assert response.status_code == 422
    assert response.json == {"errors": {field: [message]}}
    assert api.get("/api/v1/players").json["players"] == []


def test_a_name_differing_only_by_width_or_invisible_characters_is_the_roster_name(api):
    first = api.start(["Ann", "Bob"])
    again = api.start(["\uff21\uff4e\uff4e", "Bob\u200b"])
    assert [player["id"] for player in again["players"]] == [
        player["id"] for player in first["players"]
    ]
    assert [player["name"] for player in again["players"]] == ["Ann", "Bob"]
    new = api.start(["\uff23\uff41\uff54\u00ad", "Bob"])
    assert new["players"][0]["name"] == "Cat"


def test_the_games_list_is_paged_newest_first_and_stable_across_new_games(api):
    started = [api.start(["Ann", "Bob"]) for _ in range(3)]
    api.hand(started[0], 0, {1: 5})
    first = api.get("/api/v1/games", query_string={"limit": "2"}).json
    assert [game["id"] for game in first["games"]] == [started[2]["id"], started[1]["id"]]
    assert first["games"][0]["players"] == ["Ann", "Bob"]
    assert first["games"][0]["status"] == "in_progress"
    api.start(["Cat", "Dan"])  # newer: on no page still to come
    rest = api.get("/api/v1/games", query_string={"limit": "2", "cursor": first["next"]}).json
    assert [game["id"] for game in rest["games"]] == [started[0]["id"]]
    assert rest["games"][0]["hand_count"] == 1
    assert rest["next"] is None


def test_the_games_list_takes_the_same_queries_however_many_games(api, count_queries):
    api.start(["Ann", "Bob"])
    with count_queries() as before:
        api.get("/api/v1/games")
    for _ in range(4):
        game = api.start(["Cat", "Dan", "Eve"])
        api.hand(game, 0, {1: 5, 2: 7})
    with count_queries() as after:
        api.get("/api/v1/games")
    assert len(after) == len(before)
