"""Ratings are OpenSkill's Plackett–Luce model, called exactly as openskill would be by hand."""

import pytest
from openskill.models import PlackettLuce

from scorer.scoring.ratings import NEWCOMER, Outcome, Rating, rate


def direct(teams, ranks):
    model = PlackettLuce()
    rated = model.rate(
        [[model.create_rating([r.mu, r.sigma]) for r in team] for team in teams], ranks=ranks
    )
    return [[Rating(r.mu, r.sigma) for r in team] for team in rated]


def test_a_newcomer_is_rated_zero():
    assert NEWCOMER.mu == 25 and NEWCOMER.sigma == pytest.approx(25 / 3)
    assert NEWCOMER.ordinal == pytest.approx(0)


def test_free_for_all_with_a_tie_matches_openskill():
    prior = {"ann": Rating(30, 5), "bob": Rating(22, 7)}
    after = rate(prior, Outcome((("ann",), ("bob",), ("cat",), ("dan",)), (1, 2, 2, 4)))
    expected = direct([[prior["ann"]], [prior["bob"]], [NEWCOMER], [NEWCOMER]], [1, 2, 2, 4])
    assert [after[p] for p in ("ann", "bob", "cat", "dan")] == [team[0] for team in expected]
    assert after["ann"].mu > 30 and after["dan"].mu < 25


def test_teams_match_openskill_and_partners_move_together():
    prior = {1: Rating(28, 6), 3: Rating(24, 8)}
    after = rate(prior, Outcome(((1, 3), (2, 4)), (1, 2)))
    expected = direct([[prior[1], prior[3]], [NEWCOMER, NEWCOMER]], [1, 2])
    assert [after[1], after[3]] == expected[0]
    assert [after[2], after[4]] == expected[1]
