"""Challenge UNO (docs/rules.md#challenge-uno-elimination): points count against you, up to
elimination."""

import pytest

from scorer.scoring import (
    Count,
    Hand,
    Mode,
    Rejected,
    Rules,
    dealers_ahead,
    hand_problems,
    play,
    replay,
)


def cards(*tokens: str) -> Count:
    return Count(cards=tokens)


def total(points: int) -> Count:
    return Count(points=points)


def challenge(players: int = 4, target: int = 100, **kwargs) -> Rules:
    return Rules(Mode.CHALLENGE, players, target, **kwargs)


def scores(state) -> list[int]:
    return [side.score for side in state.sides]


def eliminated(state) -> list[int | None]:
    return [side.eliminated_in for side in state.sides]


def test_everyone_else_adds_their_own_cards():
    hand = Hand(0, {1: cards("3", "skip"), 2: cards("wild", "draw2"), 3: cards("8")})
    state = replay(challenge(target=500), [hand])
    [result] = state.hands
    assert dict(result.counted) == {1: 23, 2: 70, 3: 8}
    assert result.gain is None
    assert scores(state) == [0, 23, 70, 8]
    assert [side.to_target for side in state.sides] == [500, 477, 430, 492]
    assert [side.hands_won for side in state.sides] == [1, 0, 0, 0]


def test_the_player_who_went_out_adds_nothing():
    hands = [
        Hand(1, {0: total(40), 2: total(5), 3: total(1)}),
        Hand(0, {1: total(30), 2: total(0), 3: total(2)}),
    ]
    state = replay(challenge(target=500), hands)
    assert scores(state) == [40, 30, 5, 3]


@pytest.mark.parametrize(("points", "out"), [(99, False), (100, True), (140, True)])
def test_reaching_the_target_eliminates(points, out):
    state = replay(challenge(), [Hand(0, {1: total(points), 2: total(0), 3: total(0)})])
    assert state.sides[1].eliminated is out
    assert state.hands[0].eliminated == ((1,) if out else ())
    assert eliminated(state) == [None, 1 if out else None, None, None]
    assert state.in_play(1) is not out
    assert not state.finished


def test_eliminated_over_several_hands():
    hands = [
        Hand(0, {1: total(60), 2: total(10), 3: total(0)}),
        Hand(2, {0: total(0), 1: total(39), 3: total(0)}),  # seat 1 on 99
        Hand(3, {0: total(0), 1: total(1), 2: total(0)}),  # seat 1 on 100: out in hand 3
    ]
    state = replay(challenge(), hands)
    assert scores(state) == [0, 100, 10, 0]
    assert eliminated(state) == [None, 3, None, None]
    assert [result.eliminated for result in state.hands] == [(), (), (1,)]


def test_two_eliminated_in_one_hand():
    state = replay(challenge(), [Hand(2, {0: total(100), 1: total(50), 3: total(120)})])
    assert eliminated(state) == [1, None, None, 1]
    assert state.hands[0].eliminated == (0, 3)
    assert not state.finished


def test_eliminated_players_are_not_counted_and_cannot_go_out():
    state = replay(challenge(), [Hand(0, {1: total(100), 2: total(0), 3: total(0)})])
    assert state.counted_seats(0) == (2, 3)
    assert state.counted_seats(2) == (0, 3)

    went_out = hand_problems(state, Hand(1, {0: total(0), 2: total(0), 3: total(0)}))
    assert [p.field for p in went_out] == ["went_out"]

    counted = hand_problems(state, Hand(0, {1: total(0), 2: total(0), 3: total(0)}))
    assert [(p.field, p.seat) for p in counted] == [("count", 1)]

    assert hand_problems(state, Hand(0, {2: total(0), 3: total(0)})) == []


@pytest.mark.parametrize("went_out", [0, 1])
def test_last_two_whoever_reaches_the_target_loses(went_out):
    other = 1 - went_out
    hands = [
        Hand(2, {0: total(50), 1: total(50), 3: total(100)}),  # seat 3 out
        Hand(0, {1: total(10), 2: total(100)}),  # seat 2 out; 0 and 1 left
        Hand(went_out, {other: total(50)}),  # 0 would reach 100, 1 would reach 110
    ]
    state = replay(challenge(), hands)
    assert eliminated(state)[other] == 3
    assert eliminated(state)[went_out] is None
    assert state.winner == went_out
    assert state.finished
    assert state.ranking()[0].index == went_out


def test_two_players_head_to_head():
    rules = challenge(2)
    state = replay(rules, [Hand(0, {1: total(60)}), Hand(1, {0: total(99)})])
    assert not state.finished
    state = play(state, Hand(1, {0: total(1)}))
    assert scores(state) == [100, 60]
    assert state.winner == 1
    assert hand_problems(state, Hand(1, {0: total(1)}))[0].field == "hand"


def test_the_player_who_went_out_is_never_eliminated():
    # Seat 0 sits on 99 and goes out: whatever the others hold, seat 0 stays in.
    rules = challenge(3)
    state = replay(rules, [Hand(1, {0: total(99), 2: total(0)})])
    state = play(state, Hand(0, {1: total(100), 2: total(100)}))
    assert eliminated(state) == [None, 2, 2]
    assert state.winner == 0
    assert state.sides[0].score == 99


def test_deal_skips_eliminated_seats():
    rules = challenge(4, first_dealer=0)
    hands = [
        Hand(0, {1: total(100), 2: total(0), 3: total(0)}),  # dealer 0; seat 1 out
        Hand(0, {2: total(0), 3: total(0)}),  # dealer 2
        Hand(2, {0: total(0), 3: total(100)}),  # dealer 3; seat 3 out
        Hand(0, {2: total(1)}),  # dealer 0 (3 is out, but 0 is next anyway)
        Hand(0, {2: total(1)}),  # dealer 2
    ]
    state = replay(rules, hands)
    assert [result.dealer for result in state.hands] == [0, 2, 3, 0, 2]
    assert state.dealer == 0


def test_the_deal_passes_on_from_an_eliminated_dealer():
    rules = challenge(4, first_dealer=2)
    # Dealer 2 is eliminated in hand 1 along with seat 3; the deal goes to seat 0.
    state = replay(rules, [Hand(1, {0: total(0), 2: total(100), 3: total(100)})])
    assert state.hands[0].dealer == 2
    assert state.dealer == 0
    state = play(state, Hand(1, {0: total(5)}))
    assert state.hands[1].dealer == 0
    assert state.dealer == 1


def test_ranking_survivors_by_fewest_points_then_latest_eliminated():
    hands = [
        Hand(0, {1: total(100), 2: total(20), 3: total(30), 4: total(10)}),  # 1 out in hand 1
        Hand(2, {0: total(40), 3: total(75), 4: total(5)}),  # 3 out in hand 2 (105)
        Hand(0, {2: total(5), 4: total(10)}),
    ]
    state = replay(challenge(5), hands)
    assert scores(state) == [40, 100, 25, 105, 25]
    assert eliminated(state) == [None, 1, None, 2, None]
    ranking = [side.index for side in state.ranking()]
    # Survivors 2 and 4 tie on 25; either order will do, then 0 (40), then 3 (hand 2), then 1.
    assert set(ranking[:2]) == {2, 4}
    assert ranking[2:] == [0, 3, 1]


def test_ranking_eliminated_later_ranks_higher_whatever_the_points():
    hands = [
        Hand(0, {1: total(200), 2: total(0)}),  # 1 out in hand 1 with 200
        Hand(0, {2: total(100)}),  # 2 out in hand 2 with 100: 0 wins
    ]
    state = replay(challenge(3), hands)
    assert [side.index for side in state.ranking()] == [0, 2, 1]


def test_an_edit_that_eliminates_someone_counted_later_is_rejected():
    rules = challenge(3)
    hands = [
        Hand(0, {1: total(50), 2: total(10)}),
        Hand(2, {0: total(20), 1: total(30)}),
        Hand(0, {1: total(10), 2: total(10)}),
    ]
    assert replay(rules, hands).sides[1].score == 90
    edited = [Hand(0, {1: total(100), 2: total(10)}), *hands[1:]]
    with pytest.raises(Rejected) as caught:
        replay(rules, edited)
    named = {(p.hand, p.field, p.seat) for p in caught.value.problems}
    assert named == {(2, "count", 1), (3, "count", 1)}


def test_an_edit_that_eliminates_someone_who_went_out_later_is_rejected():
    rules = challenge(3)
    hands = [Hand(0, {1: total(50), 2: total(10)}), Hand(1, {0: total(20), 2: total(30)})]
    edited = [Hand(0, {1: total(120), 2: total(10)}), hands[1]]
    with pytest.raises(Rejected) as caught:
        replay(rules, edited)
    assert [(p.hand, p.field) for p in caught.value.problems] == [(2, "went_out")]


def test_an_edit_that_ends_the_game_rejects_the_hands_after():
    rules = challenge(2)
    hands = [Hand(0, {1: total(60)}), Hand(0, {1: total(30)})]
    assert not replay(rules, hands).finished
    with pytest.raises(Rejected) as caught:
        replay(rules, [Hand(0, {1: total(100)}), hands[1]])
    assert [p.hand for p in caught.value.problems] == [2]


def test_challenge_given_as_text():
    rules = Rules("challenge", 2, 100)
    state = replay(rules, [Hand(0, {1: total(100)})])
    assert state.winner == 0
    assert state.sides[1].eliminated


def test_only_the_next_dealer_is_known_ahead_since_a_hand_may_eliminate_a_player():
    state = replay(
        challenge(4, first_dealer=0), [Hand(0, {1: total(100), 2: total(0), 3: total(0)})]
    )
    # Seat 1 is out: seat 2 deals; after that a hand may put out anyone.
    assert dealers_ahead(state, 3) == (2, None, None)
