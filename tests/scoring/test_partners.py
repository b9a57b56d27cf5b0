"""Partners (docs/rules.md#partners): seat i plays with seat i + n/2; a team scores its
opponents."""

import pytest

from scorer.scoring import Count, Hand, Mode, Rejected, Rules, hand_problems, new_game, replay


def cards(*tokens: str) -> Count:
    return Count(cards=tokens)


def total(points: int) -> Count:
    return Count(points=points)


def partners(players: int = 4, target: int = 500, **kwargs) -> Rules:
    return Rules(Mode.PARTNERS, players, target, **kwargs)


@pytest.mark.parametrize(
    ("players", "sides"),
    [
        (4, ((0, 2), (1, 3))),
        (6, ((0, 3), (1, 4), (2, 5))),
        (8, ((0, 4), (1, 5), (2, 6), (3, 7))),
        (10, ((0, 5), (1, 6), (2, 7), (3, 8), (4, 9))),
    ],
)
def test_partners_sit_opposite(players, sides):
    rules = partners(players)
    assert rules.sides == sides
    for index, seats in enumerate(sides):
        for seat in seats:
            assert rules.side_of(seat) == index
    assert tuple(side.seats for side in new_game(rules).sides) == sides


@pytest.mark.parametrize("players", [2, 3, 5, 7, 9, 11, 1])
def test_partners_need_an_even_number_from_four(players):
    with pytest.raises(Rejected) as caught:
        partners(players)
    assert [p.field for p in caught.value.problems] == ["players"]


@pytest.mark.parametrize("went_out", [0, 2])
def test_team_scores_the_opponents_cards(went_out):
    # Seats 1 and 3 are the opponents of 0 and 2: 3 + Skip = 23, Wild + Draw Two = 70.
    hand = Hand(went_out, {1: cards("3", "skip"), 3: cards("wild", "draw2")})
    state = replay(partners(), [hand])
    [result] = state.hands
    assert dict(result.counted) == {1: 23, 3: 70}
    assert result.gain == 93
    assert [side.score for side in state.sides] == [93, 0]
    assert [side.hands_won for side in state.sides] == [1, 0]
    assert state.side_of(went_out).index == 0


@pytest.mark.parametrize(("went_out", "partner"), [(0, 2), (2, 0), (1, 3), (3, 1)])
def test_partners_cards_are_refused(went_out, partner):
    opponents = [seat for seat in range(4) if seat not in (went_out, partner)]
    counts = {seat: total(10) for seat in opponents}
    assert new_game(partners()).counted_seats(went_out) == tuple(opponents)
    assert hand_problems(new_game(partners()), Hand(went_out, counts)) == []

    problems = hand_problems(new_game(partners()), Hand(went_out, {**counts, partner: total(40)}))
    assert [(p.field, p.seat) for p in problems] == [("count", partner)]


def test_a_missing_opponent_count_is_refused():
    problems = hand_problems(new_game(partners()), Hand(1, {0: total(5)}))
    assert [(p.field, p.seat) for p in problems] == [("count", 2)]


def test_six_players_team_scores_every_other_team():
    # Seat 4 is side 1 with seat 1; seats 0, 3 (side 0) and 2, 5 (side 2) are counted.
    hand = Hand(4, {0: total(10), 3: cards("9"), 2: cards("wild4"), 5: cards()})
    state = replay(partners(6), [hand])
    assert dict(state.hands[0].counted) == {0: 10, 2: 50, 3: 9, 5: 0}
    assert [side.score for side in state.sides] == [0, 69, 0]
    problems = hand_problems(new_game(partners(6)), Hand(4, {**hand.counts, 1: total(0)}))
    assert [(p.field, p.seat) for p in problems] == [("count", 1)]


def test_team_scores_accumulate_and_first_team_to_target_wins():
    hands = [
        Hand(0, {1: total(60), 3: total(30)}),  # side 0: 90
        Hand(3, {0: total(50), 2: total(40)}),  # side 1: 90
        Hand(1, {0: total(5), 2: total(4)}),  # side 1: 99
        Hand(2, {1: total(9), 3: total(1)}),  # side 0: 100, reaches the target
    ]
    state = replay(partners(target=100), hands)
    assert [side.score for side in state.sides] == [100, 99]
    assert [side.hands_won for side in state.sides] == [2, 2]
    assert state.winner == 0
    assert [side.index for side in state.ranking()] == [0, 1]
    with pytest.raises(Rejected) as caught:
        replay(partners(target=100), [*hands, Hand(1, {0: total(1), 2: total(1)})])
    assert [p.hand for p in caught.value.problems] == [5]


def test_deal_passes_round_all_seats():
    rules = partners(first_dealer=3)
    hands = [Hand(0, {1: total(1), 3: total(1)})] * 5
    state = replay(rules, hands)
    assert [result.dealer for result in state.hands] == [3, 0, 1, 2, 3]
    assert state.dealer == 0


def test_partners_given_as_text():
    # A mode read back from storage as plain text must still seat partners opposite.
    rules = Rules("partners", 4)
    assert rules.sides == ((0, 2), (1, 3))
    state = replay(rules, [Hand(2, {1: total(10), 3: total(5)})])
    assert [side.score for side in state.sides] == [15, 0]
