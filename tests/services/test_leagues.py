"""Leagues: teams are unordered pairs, seasons draw fixtures, games are played, results flow."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from factories import entry, record

from scorer.scoring import Rejected
from scorer.services import games, hands, leagues
from scorer.services.errors import Conflict, NotFound

TEAMS = [("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")]


@pytest.fixture
def club(session) -> int:
    league = leagues.create_league(session, "Thursday club", 100)
    for first, second in TEAMS:
        leagues.register_team(session, league.id, first, second)
    return league.id


def play(session, game_id: int, home_wins: bool, points: int = 100) -> None:
    """One hand that ends the fixture: a home player (seat 0) or an away one (seat 1) goes out."""
    if home_wins:
        record(session, game_id, 0, {1: points, 3: 0})
    else:
        record(session, game_id, 1, {0: points, 2: 0})


def test_a_team_is_an_unordered_pair_registered_once(session, club):
    with pytest.raises(Rejected) as refused:
        leagues.register_team(session, club, "bob", "ANN")
    assert refused.value.problems[0].message == "Bob and Ann are already registered, as Ann & Bob."
    with pytest.raises(Rejected) as refused:
        leagues.register_team(session, club, "Ann", "Ivy")
    assert refused.value.problems[0].message == "Ann already plays for Ann & Bob."
    with pytest.raises(Rejected) as refused:
        leagues.register_team(session, club, "Ivy", "ivy")
    assert refused.value.problems[0].message == "A team is two different players."
    team = leagues.register_team(session, club, "Jon", "Ivy", "  The   Jokers ")
    assert team.name == "The Jokers"
    assert team.first_player_id < team.second_player_id
    assert len(leagues.load_league(session, club).teams) == 5


def test_a_league_needs_a_name_and_a_sensible_target(session):
    with pytest.raises(Rejected) as refused:
        leagues.create_league(session, " ", 0, "knockout")
    assert [p.field for p in refused.value.problems] == ["name", "target", "format"]


@pytest.mark.parametrize("legs", [1, 2])
def test_a_season_draws_every_pair_of_teams_legs_times(session, club, legs):
    season = leagues.add_season(session, club, legs)
    view = leagues.load_season(session, club, season.number)
    met = Counter(
        frozenset((f.fixture.home_team_id, f.fixture.away_team_id)) for f in view.fixtures
    )
    team_ids = [team.id for team in leagues.load_league(session, club).teams]
    assert met == {frozenset(pair): legs for pair in combinations(team_ids, 2)}
    assert len(view.rounds) == 3 * legs
    assert {f.state for f in view.fixtures} == {"waiting"}
    assert [row.played for row in view.table] == [0, 0, 0, 0]


def test_a_season_needs_two_teams(session):
    league = leagues.create_league(session, "Empty", 100)
    with pytest.raises(Rejected):
        leagues.add_season(session, league.id, 1)


def test_starting_a_fixture_seats_the_teams_opposite_and_only_once(session, club):
    leagues.add_season(session, club, 1)
    fixture = leagues.load_season(session, club, 1).fixtures[0].fixture
    game = leagues.start_fixture(session, fixture.id)
    view = games.load_game(session, game.id)
    home = leagues.team_name(fixture.home).split(" & ")
    away = leagues.team_name(fixture.away).split(" & ")
    assert view.game.mode == "partners" and view.game.target == 100
    assert view.names == (home[0], away[0], home[1], away[1])
    assert leagues.start_fixture(session, fixture.id).id == game.id
    with pytest.raises(NotFound):
        leagues.start_fixture(session, 9999)


def test_results_flow_into_the_table_and_follow_edits(session, club):
    leagues.add_season(session, club, 1)
    fixtures = [item.fixture for item in leagues.load_season(session, club, 1).fixtures]
    ids = [leagues.start_fixture(session, f.id).id for f in fixtures]
    # Every home team wins its first two fixtures with 100; the last round goes to the away teams
    # with 150.
    for game_id in ids[:4]:
        play(session, game_id, home_wins=True)
    for game_id in ids[4:]:
        play(session, game_id, home_wins=False, points=150)
    view = leagues.load_season(session, club, 1)
    assert view.played == 6
    expected: dict[int, list[int]] = {}
    for fixture in fixtures:
        home_won = fixture.round < 3
        home_points, away_points = (100, 0) if home_won else (0, 150)
        for team, scored, conceded, won in (
            (fixture.home_team_id, home_points, away_points, home_won),
            (fixture.away_team_id, away_points, home_points, not home_won),
        ):
            row = expected.setdefault(team, [0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += won
            row[2] += not won
            row[3] += scored
            row[4] += conceded
    found = {
        r.entrant: [r.played, r.won, r.lost, r.points_for, r.points_against] for r in view.table
    }
    assert found == expected
    assert [r.won for r in view.table] == sorted((r.won for r in view.table), reverse=True)

    # An edit that gives the first fixture to the away team moves the table with it.
    hands.edit_hand(session, ids[0], 1, entry(1, {0: 100, 2: 0}))
    after = {r.entrant: r for r in leagues.load_season(session, club, 1).table}
    assert after[fixtures[0].home_team_id].won == expected[fixtures[0].home_team_id][1] - 1
    assert after[fixtures[0].away_team_id].won == expected[fixtures[0].away_team_id][1] + 1
    # Undoing the last hand makes it a game in progress again: it leaves the table.
    hands.undo_last_hand(session, ids[0], 1)
    view = leagues.load_season(session, club, 1)
    assert view.fixtures[0].state == "playing" and view.played == 5


def test_the_eight_player_format_rotates_partners_and_totals_players(session):
    league = leagues.create_league(session, "Eights", 50, "rotation")
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    with pytest.raises(Rejected):
        leagues.add_rotation_season(session, league.id, names[:7])
    with pytest.raises(Conflict):
        leagues.register_team(session, league.id, "Ann", "Bob")
    season = leagues.add_rotation_season(session, league.id, names)
    view = leagues.load_season(session, league.id, season.number)
    assert len(view.rounds) == 7 and len(view.fixtures) == 14
    partners = Counter()
    for item in view.fixtures:
        for team in (item.fixture.home, item.fixture.away):
            partners[frozenset((team.first_player.name, team.second_player.name))] += 1
    assert partners == {frozenset(pair): 1 for pair in combinations(names, 2)}
    # Round 1 played: both tables won at home, with 50 points each over their 2 hands.
    for item in view.rounds[0][1]:
        game = leagues.start_fixture(session, item.fixture.id)
        play(session, game.id, home_wins=True, points=25)
        play(session, game.id, home_wins=True, points=25)
    table = leagues.load_season(session, league.id, season.number).table
    assert [(row.played, row.won, row.points_for, row.points_against) for row in table] == [
        (1, 1, 50, 0)
    ] * 4 + [(1, 0, 0, 50)] * 4
    # The same players again: a second season, the same 28 pairs.
    leagues.add_rotation_season(session, league.id, list(reversed(names)))
    assert len(leagues.load_league(session, league.id).teams) == 28


def test_a_league_name_with_a_nul_is_refused_before_it_reaches_the_database(session):
    with pytest.raises(Rejected, match="League names cannot contain control characters"):
        leagues.create_league(session, "Club\x00", 500)


@pytest.fixture
def eights(session) -> tuple[int, list]:
    """A rotation league's first season, its fixtures in order."""
    league = leagues.create_league(session, "Eights", 50, "rotation")
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    season = leagues.add_rotation_season(session, league.id, names)
    view = leagues.load_season(session, league.id, season.number)
    return league.id, [item.fixture for item in view.fixtures]


def test_a_rotation_fixture_ends_after_two_hands_not_at_the_target(session, eights):
    league_id, fixtures = eights
    game = leagues.start_fixture(session, fixtures[0].id)
    assert game.hand_limit == leagues.ROTATION_FIXTURE_HANDS == 2
    # 80 points is past the league's target of 50, but the fixture plays on.
    after_one = record(session, game.id, 0, {1: 80, 3: 0})
    assert not after_one.state.finished
    after_two = record(session, game.id, 1, {0: 10, 2: 10})
    assert after_two.state.finished and after_two.state.winner == 0
    assert leagues.load_season(session, league_id, 1).fixtures[0].state == "played"


def test_a_team_league_fixture_still_goes_to_the_target(session, club):
    season = leagues.add_season(session, club)
    fixture = leagues.load_season(session, club, season.number).fixtures[0].fixture
    game = leagues.start_fixture(session, fixture.id)
    assert game.hand_limit is None
    assert record(session, game.id, 0, {1: 100, 3: 0}).state.finished


def test_the_rotation_table_ranks_players_by_their_partnerships_points(session, eights):
    league_id, fixtures = eights
    first, second = fixtures[0], fixtures[1]
    # Table 1: the away pair wins the fixture 30 to 20; table 2: home wins 90 to 0.
    game = leagues.start_fixture(session, first.id)
    record(session, game.id, 0, {1: 20, 3: 0})
    record(session, game.id, 1, {0: 30, 2: 0})
    game = leagues.start_fixture(session, second.id)
    record(session, game.id, 0, {1: 45, 3: 0})
    record(session, game.id, 2, {1: 45, 3: 0})
    view = leagues.load_season(session, league_id, 1)
    points = {view.names[row.entrant]: row.points_for for row in view.table}
    expected = {}
    for fixture, home_points, away_points in ((first, 20, 30), (second, 90, 0)):
        for team, scored in ((fixture.home, home_points), (fixture.away, away_points)):
            for player in (team.first_player, team.second_player):
                expected[player.name] = scored
    assert points == expected
    assert [row.points_for for row in view.table] == [90, 90, 30, 30, 20, 20, 0, 0]


def test_a_rotation_fixture_level_after_two_hands_is_a_win_for_both_pairs(session, eights):
    league_id, fixtures = eights
    game = leagues.start_fixture(session, fixtures[0].id)
    record(session, game.id, 0, {1: 20, 3: 0})
    view = record(session, game.id, 1, {0: 20, 2: 0})
    assert view.state.winner is None and view.state.shared == (0, 1)
    table = leagues.load_season(session, league_id, 1).table
    assert [(row.played, row.won, row.points_for) for row in table] == [(1, 1, 20)] * 4
