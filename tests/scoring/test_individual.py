"""Four-player individual play and games of fixed length (docs/rules.md,
"Individual play" and "Game length")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.scoring import (
    INDIVIDUAL_HANDS,
    Count,
    Hand,
    Mode,
    Rejected,
    Rules,
    head_to_head,
    new_game,
    play,
    replay,
)
from scorer.scoring.standings import places, seat_results

SETTINGS = settings(max_examples=40, deadline=None)


def individual() -> Rules:
    return Rules(Mode.INDIVIDUAL, 4)


def hand(went_out: int, points: dict[int, int]) -> Hand:
    return Hand(went_out, {seat: Count(points=value) for seat, value in points.items()})


def others(went_out: int, *points: int) -> Hand:
    """A hand of four players: `points` for the other seats in seat order."""
    seats = [seat for seat in range(4) if seat != went_out]
    return hand(went_out, dict(zip(seats, points, strict=True)))


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_individual_play_is_for_four_players_exactly(players):
    with pytest.raises(Rejected) as error:
        Rules(Mode.INDIVIDUAL, players)
    assert error.value.problems[0].field == "players"


def test_individual_play_lasts_twelve_hands():
    assert individual().hands == INDIVIDUAL_HANDS == 12
    assert Rules("individual", 4).mode is Mode.INDIVIDUAL


def test_who_goes_out_scores_each_other_players_cards_against_that_player():
    state = replay(individual(), [others(0, 5, 20, 50), others(2, 7, 0, 3), others(0, 1, 1, 1)])
    table = head_to_head(state)
    assert table[0] == (0, 6, 21, 51)
    assert table[2] == (7, 0, 0, 3)
    assert table[1] == table[3] == (0, 0, 0, 0)
    assert [side.score for side in state.sides] == [78, 0, 10, 0]
    assert [side.hands_won for side in state.sides] == [2, 0, 1, 0]


def test_the_game_ends_after_twelve_hands_and_a_thirteenth_is_refused():
    hands = [others(seat % 4, 1, 1, 1) for seat in range(11)]
    state = replay(individual(), hands)
    assert not state.finished
    state = play(state, others(3, 1, 1, 1))
    assert state.finished
    with pytest.raises(Rejected, match="already over"):
        replay(individual(), [*hands, others(3, 1, 1, 1), others(0, 1, 1, 1)])


def test_the_target_does_not_end_individual_play():
    state = replay(Rules(Mode.INDIVIDUAL, 4, target=10), [others(0, 50, 50, 50)])
    assert not state.finished


def test_most_hands_won_wins_even_with_fewer_points():
    # Seat 1 wins 4 small hands; seat 0 wins 3 huge ones; seats 2 and 3 win 3 and 2.
    hands = (
        [others(1, 1, 1, 1)] * 4
        + [others(0, 100, 100, 100)] * 3
        + [others(2, 1, 1, 1)] * 3
        + [others(3, 1, 1, 1)] * 2
    )
    state = replay(individual(), hands)
    assert state.winner == 1
    assert state.shared == ()
    assert [side.index for side in state.ranking()] == [1, 0, 2, 3]
    assert places(state) == (2, 1, 3, 4)


def test_level_on_hands_the_most_points_decide():
    hands = [others(0, 10, 10, 10), others(1, 1, 1, 1)] * 3 + [others(2, 1, 1, 1)] * 3
    hands += [others(3, 1, 1, 1)] * 3
    state = replay(individual(), hands)
    assert state.winner == 0


def test_level_on_hands_and_points_the_win_is_shared():
    hands = [others(0, 1, 1, 1), others(1, 1, 1, 1)] * 4 + [others(2, 5, 0, 0)] * 2
    hands += [others(3, 0, 0, 0)] * 2
    state = replay(individual(), hands)
    assert state.finished
    assert state.winner is None
    assert state.shared == state.winners == (0, 1)
    results = seat_results(state)
    assert [result.won for result in results] == [True, True, False, False]
    assert [result.place for result in results] == [1, 1, 3, 4]


def test_fixed_length_partners_game_ends_after_its_hands_whatever_the_target():
    rules = Rules(Mode.PARTNERS, 4, target=10, hands=2)
    state = play(new_game(rules), others(0, 30, 0, 40))
    # Side 0 passed the target but a game of fixed length goes on.
    assert not state.finished
    state = play(state, others(1, 5, 0, 1))
    assert state.finished and state.winner == 0


def test_fixed_length_game_level_at_the_end_is_shared():
    rules = Rules(Mode.STANDARD, 3, hands=2)
    state = replay(rules, [hand(0, {1: 9, 2: 0}), hand(1, {0: 0, 2: 9})])
    assert state.winner is None and state.shared == (0, 1)
    assert places(state) == (1, 1, 3)


@pytest.mark.parametrize("hands", [0, -1, True, 51, 2.0])
def test_a_hand_limit_must_be_a_sensible_number(hands):
    with pytest.raises(Rejected) as error:
        Rules(Mode.STANDARD, 4, hands=hands)
    assert error.value.problems[0].field == "hands"
    assert error.value.problems[0].message == "A game can last 1 to 50 hands."


def test_a_single_hand_game_is_won_by_who_went_out():
    state = play(new_game(Rules(Mode.STANDARD, 3, hands=1)), hand(2, {0: 5, 1: 0}))
    assert state.finished and state.winner == 2


def test_a_single_hand_game_where_nobody_scores_is_shared_by_all():
    state = play(new_game(Rules(Mode.STANDARD, 3, hands=1)), hand(2, {0: 0, 1: 0}))
    assert state.shared == (0, 1, 2)


def test_a_fixed_length_challenge_game_is_won_by_the_fewest_points_still_in():
    rules = Rules(Mode.CHALLENGE, 4, target=100, hands=2)
    # Bob reaches the target and is out; after two hands Ann has the fewest points of the rest.
    state = play(new_game(rules), others(0, 100, 3, 4))
    assert not state.finished and state.sides[1].eliminated
    state = play(state, hand(3, {0: 5, 2: 7}))
    assert [side.score for side in state.sides] == [5, 100, 10, 4]
    assert state.winner == 3
    assert places(state) == (2, 4, 3, 1)


def test_a_fixed_length_challenge_game_ends_early_when_one_player_is_left():
    rules = Rules(Mode.CHALLENGE, 3, target=50, hands=10)
    state = play(new_game(rules), hand(0, {1: 60, 2: 70}))
    assert state.finished and state.winner == 0
    assert len(state.hands) == 1


def test_a_fixed_length_challenge_game_level_at_the_fewest_is_shared():
    rules = Rules(Mode.CHALLENGE, 3, hands=1)
    state = play(new_game(rules), hand(0, {1: 0, 2: 9}))
    assert state.shared == (0, 1)


# Properties ---------------------------------------------------------------------------------------

POINTS = st.integers(min_value=0, max_value=120)
ANY_LENGTH = st.integers(min_value=0, max_value=INDIVIDUAL_HANDS)


@st.composite
def individual_hands(draw, length=ANY_LENGTH):
    return [
        others(draw(st.integers(0, 3)), draw(POINTS), draw(POINTS), draw(POINTS))
        for _ in range(draw(length))
    ]


@SETTINGS
@given(individual_hands())
def test_head_to_head_rows_sum_to_each_players_total(hands):
    state = replay(individual(), hands)
    table = head_to_head(state)
    for seat in range(4):
        assert table[seat][seat] == 0
        assert sum(table[seat]) == state.sides[seat].score
    # Every point counted in a hand lands in exactly one cell.
    counted = sum(sum(result.counted.values()) for result in state.hands)
    assert sum(map(sum, table)) == counted


@SETTINGS
@given(individual_hands(length=st.just(INDIVIDUAL_HANDS)))
def test_the_winners_have_most_hands_then_most_points(hands):
    state = replay(individual(), hands)
    assert state.finished
    won = [sum(1 for h in hands if h.went_out == seat) for seat in range(4)]
    points = [
        sum(sum(c.points for c in h.counts.values()) for h in hands if h.went_out == seat)
        for seat in range(4)
    ]
    best = max(zip(won, points, strict=True))
    expected = tuple(seat for seat in range(4) if (won[seat], points[seat]) == best)
    assert state.winners == expected
    assert (state.winner is None) == (len(expected) > 1)
    assert state.shared == (expected if len(expected) > 1 else ())
    results = seat_results(state)
    assert {result.seat for result in results if result.won} == set(expected)
    assert all(result.place == 1 for result in results if result.won)
    assert all(result.place > 1 for result in results if not result.won)


@SETTINGS
@given(
    st.integers(1, 6),
    st.lists(st.tuples(st.integers(0, 3), st.lists(POINTS, min_size=3, max_size=3)), max_size=8),
    st.sampled_from([Mode.STANDARD, Mode.PARTNERS, Mode.CHALLENGE]),
)
def test_a_game_of_n_hands_ends_after_hand_n_with_the_best_side_winning(limit, played, mode):
    # Challenge UNO: a target out of reach, so only the hands end the game.
    rules = Rules(mode, 4, target=100_000, hands=limit)
    state = new_game(rules)
    for number, (seat, points) in enumerate(played, start=1):
        if number > limit:
            break
        state = play(state, others(seat, *points))
        assert state.finished == (number == limit)
    if not state.finished:
        return
    scores = [side.score for side in state.sides]
    best = min(scores) if mode is Mode.CHALLENGE else max(scores)
    assert state.winners == tuple(side for side, score in enumerate(scores) if score == best)


@SETTINGS
@given(st.integers(1, 6), st.lists(st.integers(0, 3), min_size=0, max_size=8))
def test_a_fixed_length_game_ends_exactly_after_its_hands(limit, went_out):
    rules = Rules(Mode.STANDARD, 4, target=1, hands=limit)
    state = new_game(rules)
    for number, seat in enumerate(went_out, start=1):
        if number > limit:
            break
        state = play(state, others(seat, 10, 10, 10))
        assert state.finished == (number == limit)
