"""Places, each seat's part in a game, score lines, streaks and the nemesis, against hand counts."""

import pytest

from scorer.scoring import Count, Hand, Mode, Rules, replay
from scorer.scoring.standings import (
    Rivalry,
    competition_ranks,
    nemesis,
    places,
    score_lines,
    seat_results,
    streaks,
)


def hand(went_out: int, **points: int) -> Hand:
    return Hand(went_out, {int(seat[1:]): Count(points=value) for seat, value in points.items()})


def test_competition_ranks_share_a_place_and_skip_the_next():
    assert competition_ranks([(0, -5), (1, -3), (1, -3), (1, -1)]) == (1, 2, 2, 4)


def test_standard_places_winner_first_then_by_score_with_ties():
    # Ann 60 then 50 (110, wins); Bob and Dan never score; Cat scores 20 once.
    state = replay(
        Rules(Mode.STANDARD, 4, target=100),
        [hand(2, s0=5, s1=5, s3=10), hand(0, s1=20, s2=20, s3=20), hand(0, s1=25, s2=25, s3=0)],
    )
    assert [side.score for side in state.sides] == [110, 0, 20, 0]
    assert places(state) == (1, 3, 2, 3)


def test_partners_places_per_team_and_every_seat_gets_its_teams_place():
    # Seats 0 and 2 against 1 and 3. Seat 2 goes out with 120: their team wins.
    state = replay(Rules(Mode.PARTNERS, 4, target=100), [hand(2, s1=70, s3=50)])
    assert places(state) == (1, 2)
    results = seat_results(state)
    assert [(r.side, r.place, r.won, r.score) for r in results] == [
        (0, 1, True, 120),
        (1, 2, False, 0),
        (0, 1, True, 120),
        (1, 2, False, 0),
    ]
    # Only the partner who went out won the hand and scored its points.
    assert [(r.hands_won, r.points_won, r.biggest_hand) for r in results] == [
        (0, 0, 0),
        (0, 0, 0),
        (1, 120, 120),
        (0, 0, 0),
    ]


def test_challenge_places_by_elimination_order_sharing_a_hand():
    # Target 50. Hand 1: Bob 60 is out. Hand 2: Cat 55 and Dan 50 go out together; Ann survives.
    state = replay(
        Rules(Mode.CHALLENGE, 4, target=50),
        [hand(0, s1=60, s2=5, s3=0), hand(0, s2=50, s3=50)],
    )
    assert state.winner == 0
    assert places(state) == (1, 4, 2, 2)
    results = seat_results(state)
    assert [r.won for r in results] == [True, False, False, False]
    # Nobody scores points in Challenge; going out still counts as a hand won.
    assert [(r.hands_won, r.points_won) for r in results] == [(2, 0), (0, 0), (0, 0), (0, 0)]
    assert [r.score for r in results] == [0, 60, 55, 50]


def test_an_unfinished_game_has_no_places():
    state = replay(Rules(Mode.STANDARD, 2, target=100), [hand(0, s1=10)])
    with pytest.raises(ValueError):
        places(state)


def test_biggest_hand_and_points_won_add_up_per_seat():
    state = replay(
        Rules(Mode.STANDARD, 3, target=200),
        [hand(0, s1=40, s2=30), hand(1, s0=90, s2=0), hand(0, s1=80, s2=60)],
    )
    results = seat_results(state)
    assert [(r.hands_won, r.points_won, r.biggest_hand) for r in results] == [
        (2, 210, 140),
        (1, 90, 90),
        (0, 0, 0),
    ]


def test_score_lines_start_at_zero_and_follow_every_hand():
    standard = replay(
        Rules(Mode.STANDARD, 3, target=200), [hand(0, s1=40, s2=30), hand(1, s0=90, s2=0)]
    )
    assert score_lines(standard) == ((0, 70, 70), (0, 0, 90), (0, 0, 0))
    challenge = replay(
        Rules(Mode.CHALLENGE, 3, target=100), [hand(0, s1=40, s2=30), hand(1, s0=90, s2=5)]
    )
    assert score_lines(challenge) == ((0, 0, 90), (0, 40, 40), (0, 30, 35))
    partners = replay(Rules(Mode.PARTNERS, 4, target=500), [hand(3, s0=10, s2=15)])
    assert score_lines(partners) == ((0, 0), (0, 25))


@pytest.mark.parametrize(
    ("wins", "expected"),
    [
        ([], (0, 0)),
        ([False, False], (0, 0)),
        ([True, True, False, True], (1, 2)),
        ([True, False, True, True, True], (3, 3)),
        ([True, True, True, False], (0, 3)),
    ],
)
def test_streaks_current_and_longest(wins, expected):
    assert streaks(wins) == expected


def test_nemesis_beats_most_often_then_most_often_in_proportion():
    rivals = [Rivalry(2, 10, 5, 4), Rivalry(3, 5, 1, 4), Rivalry(4, 3, 3, 0)]
    assert nemesis(rivals).opponent == 3
    assert nemesis([Rivalry(4, 3, 3, 0)]) is None
    assert nemesis([]) is None
