"""Which round a league night is at, from the state of every fixture."""

from __future__ import annotations

from scorer.scoring.nights import BEFORE, BETWEEN, OVER, PLAYING, NightPhase, night_phase

W, P, D = "waiting", "playing", "played"


def test_before_the_first_round_nothing_has_started():
    assert night_phase({1: [W, W], 2: [W, W]}) == NightPhase(BEFORE, 1)


def test_a_round_is_being_played_once_one_table_starts_and_until_every_table_is_done():
    assert night_phase({1: [P, W], 2: [W, W]}) == NightPhase(PLAYING, 1)
    assert night_phase({1: [D, P], 2: [W, W]}) == NightPhase(PLAYING, 1)


def test_between_rounds_the_finished_round_and_the_next_one_are_named():
    assert night_phase({1: [D, D], 2: [W, W], 3: [W, W]}) == NightPhase(BETWEEN, 2, 1)


def test_a_table_that_went_on_to_the_next_round_early_starts_that_round():
    assert night_phase({1: [D, D], 2: [P, W]}) == NightPhase(PLAYING, 2)


def test_an_unfinished_table_keeps_its_round_on_the_board_whatever_started_after_it():
    assert night_phase({1: [D, P], 2: [P, W]}) == NightPhase(PLAYING, 1)


def test_rounds_are_taken_in_order_whatever_order_they_are_given_in():
    assert night_phase({3: [W], 1: [D], 2: [D]}) == NightPhase(BETWEEN, 3, 2)


def test_once_every_round_is_played_the_season_is_over_on_its_last_round():
    assert night_phase({1: [D, D], 2: [D, D]}) == NightPhase(OVER, 2, 2)
    assert night_phase({}) == NightPhase(OVER, None)
