"""The standard game (docs/rules.md#standard-game), and checks every hand gets whatever the mode."""

import pytest

from scorer.scoring import (
    Count,
    Deck,
    Hand,
    Mode,
    Rejected,
    Rules,
    dealers_ahead,
    hand_problems,
    new_game,
    play,
    replay,
)


def cards(*tokens: str) -> Count:
    return Count(cards=tokens)


def total(points: int) -> Count:
    return Count(points=points)


def standard(players: int = 4, target: int = 500, **kwargs) -> Rules:
    return Rules(Mode.STANDARD, players, target, **kwargs)


# Seat 0 went out; seat 1 holds 3 + Skip (23), seat 2 Wild + Draw Two (70), seat 3 an 8 (8): 101.
REFERENCE = Hand(0, {1: cards("3", "skip"), 2: cards("wild", "draw2"), 3: cards("8")})


def problems_at(state, hand):
    return {(p.field, p.seat) for p in hand_problems(state, hand)}


def test_reference_hand():
    state = replay(standard(), [REFERENCE])
    [result] = state.hands
    assert result.went_out == 0
    assert dict(result.counted) == {1: 23, 2: 70, 3: 8}
    assert result.gain == 101
    assert [side.score for side in state.sides] == [101, 0, 0, 0]
    assert [side.hands_won for side in state.sides] == [1, 0, 0, 0]
    assert [side.to_target for side in state.sides] == [399, 500, 500, 500]
    assert result.eliminated == ()
    assert not state.finished


def test_typed_totals_score_like_counted_cards():
    typed = Hand(0, {1: total(23), 2: total(70), 3: cards("8")})
    assert replay(standard(), [typed]).sides == replay(standard(), [REFERENCE]).sides


def test_nobody_but_the_player_who_went_out_scores():
    state = replay(standard(), [Hand(2, {0: cards("wild4"), 1: cards("9"), 3: cards()})])
    assert [side.score for side in state.sides] == [0, 0, 59, 0]


def test_totals_accumulate():
    hands = [
        REFERENCE,  # seat 0: +101
        Hand(2, {0: total(10), 1: cards("5"), 3: cards("0")}),  # seat 2: +15
        Hand(0, {1: cards("reverse"), 2: cards("9", "9"), 3: cards("2")}),  # seat 0: +40
        Hand(3, {0: cards(), 1: cards(), 2: cards("1")}),  # seat 3: +1
    ]
    state = replay(standard(), hands)
    assert [side.score for side in state.sides] == [141, 0, 15, 1]
    assert [side.hands_won for side in state.sides] == [2, 0, 1, 1]
    assert [result.gain for result in state.hands] == [101, 15, 40, 1]
    assert state.next_hand_number == 5
    assert [side.index for side in state.ranking()] == [0, 2, 3, 1]


@pytest.mark.parametrize(("points", "finished"), [(99, False), (100, True), (101, True)])
def test_reaching_the_target_wins(points, finished):
    state = replay(standard(3, target=100), [Hand(1, {0: total(points), 2: total(0)})])
    assert state.finished is finished
    assert state.winner == (1 if finished else None)
    assert state.sides[1].to_target == max(0, 100 - points)


def test_first_to_target_wins():
    hands = [
        Hand(0, {1: total(90)}),  # 90 - 0
        Hand(1, {0: total(60)}),  # 90 - 60
        Hand(1, {0: total(45)}),  # 90 - 105: seat 1 reaches 100 first
    ]
    state = replay(standard(2, target=100), hands)
    assert state.winner == 1
    assert [side.score for side in state.sides] == [90, 105]
    assert state.ranking()[0].index == 1


def test_no_hand_after_the_game_is_over():
    rules = standard(2, target=50)
    over = replay(rules, [Hand(0, {1: cards("wild")})])
    assert over.winner == 0
    late = Hand(1, {0: cards("5")})
    [problem] = hand_problems(over, late, 2)
    assert problem.hand == 2
    with pytest.raises(Rejected) as caught:
        replay(rules, [Hand(0, {1: cards("wild")}), late])
    assert [p.hand for p in caught.value.problems] == [2]


def test_every_hand_after_the_end_is_named():
    rules = standard(2, target=50)
    hands = [Hand(0, {1: total(50)}), Hand(1, {0: total(5)}), Hand(0, {1: total(5)})]
    with pytest.raises(Rejected) as caught:
        replay(rules, hands)
    assert [p.hand for p in caught.value.problems] == [2, 3]


@pytest.mark.parametrize("went_out", [5, -1, 2])
def test_a_hand_after_the_end_with_a_bad_seat_is_rejected_not_a_crash(went_out):
    rules = standard(2, target=50)
    with pytest.raises(Rejected) as caught:
        replay(rules, [Hand(0, {1: total(50)}), Hand(went_out, {})])
    assert {p.hand for p in caught.value.problems} == {2}


@pytest.mark.parametrize(("players", "first_dealer"), [(4, 0), (4, 2), (3, 2), (2, 1), (10, 7)])
def test_deal_passes_to_the_next_seat(players, first_dealer):
    rules = standard(players, first_dealer=first_dealer)
    state = new_game(rules)
    assert state.dealer == first_dealer
    dealers = []
    for number in range(1, 2 * players + 2):
        went_out = number % players
        counts = {seat: total(1) for seat in range(players) if seat != went_out}
        state = play(state, Hand(went_out, counts))
        dealers.append(state.hands[-1].dealer)
        assert state.dealer == (first_dealer + number) % players
    assert dealers == [(first_dealer + k) % players for k in range(2 * players + 1)]


@pytest.mark.parametrize(("players", "first_dealer", "played"), [(4, 0, 2), (3, 2, 0), (10, 7, 5)])
def test_the_dealers_ahead_are_the_ones_who_deal_those_hands(players, first_dealer, played):
    rules = standard(players, first_dealer=first_dealer)
    state = new_game(rules)
    hands = [
        Hand(number % players, {s: total(1) for s in range(players) if s != number % players})
        for number in range(played + 2 * players)
    ]
    for hand in hands[:played]:
        state = play(state, hand)
    ahead = dealers_ahead(state, 2 * players)
    later = state
    for hand in hands[played:]:
        later = play(later, hand)
    assert ahead == tuple(result.dealer for result in later.hands[played:])


def test_a_game_of_fixed_length_has_no_dealers_past_its_last_hand():
    state = replay(standard(3, hands=3), [Hand(0, {1: total(1), 2: total(1)})])
    assert dealers_ahead(state, 5) == (1, 2)
    state = replay(standard(3, hands=1), [Hand(0, {1: total(1), 2: total(1)})])
    assert dealers_ahead(state, 5) == ()


def test_two_players():
    state = replay(standard(2), [Hand(1, {0: cards("draw2", "7")}), Hand(0, {1: cards("2")})])
    assert [side.score for side in state.sides] == [2, 27]
    assert [side.seats for side in state.sides] == [(0,), (1,)]
    assert state.dealer == 0


@pytest.mark.parametrize(
    ("hand", "field", "seat"),
    [
        (Hand(0, {1: total(-1), 2: total(0), 3: total(0)}), "count", 1),
        (Hand(0, {1: total(0), 2: total(1441), 3: total(0)}), "count", 2),
        (Hand(0, {1: total(0), 2: total(0)}), "count", 3),
        (Hand(0, {0: total(0), 1: total(0), 2: total(0), 3: total(0)}), "count", 0),
        (Hand(0, {1: cards("3", "skp"), 2: total(0), 3: total(0)}), "count", 1),
        (Hand(0, {1: total(0), 2: total(0), 3: total(0), 4: total(0)}), "count", 4),
        (Hand(0, {1: Count(), 2: total(0), 3: total(0)}), "count", 1),
        (Hand(0, {1: Count(("5",), 5), 2: total(0), 3: total(0)}), "count", 1),
        (Hand(4, {}), "went_out", None),
        (Hand(-1, {}), "went_out", None),
    ],
    ids=[
        "negative total",
        "total above a whole deck",
        "missing count",
        "count for the player who went out",
        "unknown card",
        "no such seat",
        "neither cards nor total",
        "both cards and total",
        "went_out past the last seat",
        "went_out negative",
    ],
)
def test_bad_hand(hand, field, seat):
    state = new_game(standard())
    assert problems_at(state, hand) == {(field, seat)}
    with pytest.raises(Rejected) as caught:
        replay(standard(), [REFERENCE, hand])
    assert {(p.field, p.seat, p.hand) for p in caught.value.problems} == {(field, seat, 2)}


def test_unknown_cards_are_named():
    state = new_game(standard(2))
    [problem] = hand_problems(state, Hand(0, {1: cards("7", "skp", "wlid")}))
    assert "skp" in problem.message
    assert "wlid" in problem.message


def test_a_total_of_a_whole_deck_is_allowed():
    assert not hand_problems(new_game(standard(2)), Hand(0, {1: total(1440)}))


def test_counts_adding_up_to_more_than_the_deck_are_rejected():
    hand = Hand(0, {1: total(800), 2: total(641), 3: cards()})
    [problem] = hand_problems(new_game(standard()), hand)
    assert problem.field == "hand"
    assert problem.seat is None
    # Exactly a whole deck is fine; so is the same hand with two decks.
    assert not hand_problems(
        new_game(standard()), Hand(0, {1: total(800), 2: total(640), 3: cards()})
    )
    assert not hand_problems(new_game(standard(deck=Deck(copies=2))), hand)


def test_cards_and_totals_add_up_against_the_deck():
    # 8 wild cards (400) + 1041 typed = 1441.
    hand = Hand(0, {1: cards(*["wild"] * 4, *["wild4"] * 4), 2: total(1041), 3: cards()})
    assert {p.field for p in hand_problems(new_game(standard()), hand)} == {"hand"}


def test_deck_overflow_is_shown_at_every_seat_holding_that_kind():
    hand = Hand(0, {1: cards("0", "0", "7"), 2: cards("0", "0", "0"), 3: cards("7")})
    problems = hand_problems(new_game(standard()), hand, 4)
    assert {(p.field, p.seat, p.hand) for p in problems} == {("count", 1, 4), ("count", 2, 4)}
    assert all("4" in p.message and "5" in p.message for p in problems)


def test_deck_overflow_counts_the_game_deck():
    hand = Hand(0, {1: cards("wild", "wild", "wild"), 2: cards("wild", "wild"), 3: cards()})
    assert problems_at(new_game(standard()), hand) == {("count", 1), ("count", 2)}
    two_decks = standard(deck=Deck(copies=2))
    assert hand_problems(new_game(two_decks), hand) == []


def test_custom_blank_value_scores():
    rules = standard(2, deck=Deck(blank_value=10))
    state = replay(rules, [Hand(0, {1: cards("blank", "blank", "3")})])
    assert state.sides[0].score == 23


def test_replay_names_every_bad_hand():
    hands = [
        Hand(0, {0: total(3), 1: total(5), 2: total(0), 3: total(0)}),
        REFERENCE,
        Hand(1, {0: total(0), 2: cards("x"), 3: total(0)}),
    ]
    with pytest.raises(Rejected) as caught:
        replay(standard(), hands)
    assert [(p.hand, p.seat) for p in caught.value.problems] == [(1, 0), (3, 2)]
    assert isinstance(caught.value, ValueError)


def test_rules_accept_the_mode_as_text():
    # The mode may come from a database column or a form as plain text.
    rules = Rules("standard", 3)
    assert rules.mode is Mode.STANDARD
    state = replay(rules, [Hand(0, {1: total(7), 2: total(3)})])
    assert state.sides[0].score == 10
