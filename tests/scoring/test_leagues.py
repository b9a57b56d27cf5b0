"""Fixtures meet as often as asked; the eight-player rotation pairs everyone once; tables rank."""

from collections import Counter
from itertools import combinations

import pytest

from scorer.scoring.leagues import (
    FixtureResult,
    individual_table,
    league_table,
    rotation,
    round_robin,
)


@pytest.mark.parametrize("teams", [2, 3, 4, 5, 6, 7, 8, 11, 12])
@pytest.mark.parametrize("legs", [1, 2])
def test_every_pair_meets_the_asked_number_of_times(teams, legs):
    rounds = round_robin(list(range(teams)), legs)
    met = Counter(frozenset(fixture) for fixtures in rounds for fixture in fixtures)
    assert met == {frozenset(pair): legs for pair in combinations(range(teams), 2)}
    # Nobody plays twice in a round; with an even number of teams nobody sits out.
    for fixtures in rounds:
        playing = [team for fixture in fixtures for team in fixture]
        assert len(playing) == len(set(playing))
        assert len(fixtures) == teams // 2
    assert len(rounds) == legs * (teams - 1 if teams % 2 == 0 else teams)


def test_a_second_leg_swaps_home_and_away():
    rounds = round_robin(["A", "B", "C", "D"], legs=2)
    first, second = rounds[:3], rounds[3:]
    assert [[(away, home) for home, away in fixtures] for fixtures in first] == second
    homes = Counter(home for fixtures in rounds for home, _ in fixtures)
    assert set(homes.values()) == {3}


def test_round_robin_refuses_odd_requests():
    assert round_robin(["A"]) == []
    with pytest.raises(ValueError):
        round_robin(["A", "B"], legs=3)
    with pytest.raises(ValueError):
        round_robin(["A", "A"])


def test_the_eight_player_rotation_pairs_everyone_exactly_once():
    players = list("ABCDEFGH")
    rounds = rotation(players)
    assert len(rounds) == 7
    partnerships = Counter()
    for tables in rounds:
        assert len(tables) == 2
        seated = [player for table in tables for pair in table for player in pair]
        assert sorted(seated) == players  # everyone plays every round, at one table
        for table in tables:
            for pair in table:
                partnerships[frozenset(pair)] += 1
    assert partnerships == {frozenset(pair): 1 for pair in combinations(players, 2)}
    assert sum(partnerships.values()) == 28


def test_the_rotation_needs_eight_different_players():
    with pytest.raises(ValueError):
        rotation(list("ABCDEFG"))
    with pytest.raises(ValueError):
        rotation(list("ABCDEFGA"))


NAMES = {"A": "Aces", "B": "Bears", "C": "Cats", "D": "Dogs"}


def test_league_table_counts_and_ranks_by_wins():
    results = [
        FixtureResult("A", "B", 500, 320, True),
        FixtureResult("C", "D", 410, 505, False),
        FixtureResult("A", "C", 200, 510, False),
    ]
    table = league_table(list("ABCD"), results, NAMES)
    assert [
        (r.entrant, r.played, r.won, r.lost, r.points_for, r.points_against, r.difference)
        for r in table
    ] == [
        # A, C and D each won once. Among themselves C beat A and D beat C, so C and D (one win
        # each there) come before A (none); C has the better difference.
        ("C", 2, 1, 1, 920, 705, 215),
        ("D", 1, 1, 0, 505, 410, 95),
        ("A", 2, 1, 1, 700, 830, -130),
        ("B", 1, 0, 1, 320, 500, -180),
    ]
    assert table[0].win_rate == 0.5 and table[3].win_rate == 0.0


def test_level_teams_are_split_by_head_to_head_before_difference():
    # A and B both win twice. B has the better difference, but A beat B: A is above.
    results = [
        FixtureResult("A", "B", 500, 480, True),
        FixtureResult("B", "C", 500, 0, True),
        FixtureResult("B", "D", 500, 0, True),
        FixtureResult("A", "C", 500, 400, True),
        FixtureResult("C", "A", 500, 450, True),
        FixtureResult("D", "A", 510, 400, True),
    ]
    table = league_table(list("ABCD"), results, NAMES)
    assert [row.entrant for row in table][:2] == ["A", "B"]
    assert table[0].won == table[1].won == 2
    assert table[0].difference < table[1].difference


def test_level_teams_who_never_met_are_split_by_difference_then_points_then_name():
    results = [
        FixtureResult("A", "C", 500, 100, True),
        FixtureResult("B", "D", 500, 300, True),
    ]
    table = league_table(list("ABCD"), results, NAMES)
    assert [row.entrant for row in table] == ["A", "B", "D", "C"]
    same = [FixtureResult("B", "D", 500, 300, True), FixtureResult("A", "C", 500, 300, True)]
    assert [row.entrant for row in league_table(list("ABCD"), same, NAMES)] == list("ABCD")


def test_teams_that_have_not_played_are_in_the_table_with_nothing():
    table = league_table(["A", "B"], [], NAMES)
    assert [(row.entrant, row.played, row.win_rate) for row in table] == [
        ("A", 0, None),
        ("B", 0, None),
    ]


def test_individual_table_totals_each_players_games_as_partners():
    members = {"AB": ("a", "b"), "CD": ("c", "d"), "AC": ("a", "c"), "BD": ("b", "d")}
    results = [
        FixtureResult("AB", "CD", 500, 200, True),
        FixtureResult("AC", "BD", 150, 510, False),
    ]
    table = individual_table(results, members, {p: p for p in "abcd"})
    assert [(r.entrant, r.played, r.won, r.points_for, r.points_against) for r in table] == [
        ("b", 2, 2, 1010, 350),
        ("d", 2, 1, 710, 650),
        ("a", 2, 1, 650, 710),
        ("c", 2, 0, 350, 1010),
    ]
