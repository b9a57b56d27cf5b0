"""Game setup (docs/rules.md#players-seats-and-the-deal): what setup_problems and Rules refuse."""

import pytest

from scorer.scoring import (
    DEFAULT_TARGET,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Mode,
    Rejected,
    Rules,
    setup_problems,
)


def test_player_limits_are_the_documented_ones():
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 10)
    assert DEFAULT_TARGET == 500


@pytest.mark.parametrize("mode", list(Mode) + ["standard", "partners", "challenge"])
def test_a_good_setup_has_no_problems(mode):
    assert setup_problems(mode, 4, 500, 3) == []


@pytest.mark.parametrize("players", [2, 3, 10])
@pytest.mark.parametrize("mode", [Mode.STANDARD, Mode.CHALLENGE])
def test_two_to_ten_players(mode, players):
    assert setup_problems(mode, players, 500, players - 1) == []
    assert Rules(mode, players).players == players


@pytest.mark.parametrize(
    ("mode", "players", "target", "first_dealer", "fields"),
    [
        (Mode.STANDARD, 1, 500, 0, ["players"]),
        (Mode.CHALLENGE, 11, 500, 0, ["players"]),
        (Mode.STANDARD, 4, 0, 0, ["target"]),
        (Mode.STANDARD, 4, -100, 0, ["target"]),
        (Mode.STANDARD, 4, 2.5, 0, ["target"]),
        (Mode.STANDARD, 4, 500.0, 0, ["target"]),
        (Mode.STANDARD, 4, "500", 0, ["target"]),
        (Mode.STANDARD, 4, None, 0, ["target"]),
        (Mode.STANDARD, 4, True, 0, ["target"]),
        (Mode.STANDARD, 4, 100_001, 0, ["target"]),
        (Mode.STANDARD, 4, 500, -1, ["first_dealer"]),
        (Mode.STANDARD, 4, 500, 4, ["first_dealer"]),
        (Mode.PARTNERS, 4, 500, 9, ["first_dealer"]),
        ("solo", 4, 500, 0, ["mode"]),
        ("", 4, 500, 0, ["mode"]),
        ("Standard", 4, 500, 0, ["mode"]),
        (Mode.PARTNERS, 3, 500, 0, ["players"]),
        (Mode.PARTNERS, 2, 500, 0, ["players"]),
        ("bogus", 1, 0, 3, ["mode", "players", "target", "first_dealer"]),
    ],
)
def test_bad_setup(mode, players, target, first_dealer, fields):
    problems = setup_problems(mode, players, target, first_dealer)
    assert [p.field for p in problems] == fields
    assert all(p.message for p in problems)
    with pytest.raises(Rejected) as caught:
        Rules(mode, players, target, first_dealer)
    assert caught.value.problems == tuple(problems)


def test_rules_defaults():
    rules = Rules(Mode.STANDARD, 3)
    assert (rules.target, rules.first_dealer) == (500, 0)
    assert rules.deck.max_points == 1440


def test_the_largest_target_is_accepted():
    assert Rules(Mode.STANDARD, 2, target=100_000).target == 100_000
