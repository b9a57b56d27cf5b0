"""Properties of whole games, over games generated hand by hand (hypothesis).

Expected values are worked out here from docs/rules.md (card values, who sits with whom), not taken
from the module under test; the module is only asked which seats to count, to build valid hands.
"""

from functools import reduce

from hypothesis import event, given, settings
from hypothesis import strategies as st

from scorer.scoring import (
    Count,
    Deck,
    Hand,
    Mode,
    Rejected,
    Rules,
    hand_problems,
    new_game,
    play,
    replay,
)

SETTINGS = settings(max_examples=40, deadline=None)

POINTS = {
    **{str(digit): digit for digit in range(10)},
    **dict.fromkeys(["skip", "reverse", "draw2", "20"], 20),
    **dict.fromkeys(["wild", "wild4", "50"], 50),
}
TALLY_PAD = {"skip": "20", "reverse": "20", "draw2": "20", "wild": "50", "wild4": "50"}


def value(count: Count, deck: Deck) -> int:
    """Points of one count, from the docs/rules.md table."""
    if count.points is not None:
        return count.points
    return sum(deck.blank_value if card == "blank" else POINTS[card] for card in count.cards)


def whole_deck(deck: Deck) -> list[str]:
    colour = ["0"] + [str(digit) for digit in range(1, 10)] * 2 + ["skip", "reverse", "draw2"] * 2
    return (colour * 4 + ["wild"] * 4 + ["wild4"] * 4 + ["blank"] * deck.blanks) * deck.copies


def partner(rules: Rules, seat: int) -> int:
    return (seat + rules.players // 2) % rules.players


def team(rules: Rules, seat: int) -> set[int]:
    return {seat, partner(rules, seat)} if rules.mode is Mode.PARTNERS else {seat}


def side_index(rules: Rules, seat: int) -> int:
    return min(team(rules, seat))


decks = st.builds(
    Deck,
    copies=st.integers(1, 2),
    blanks=st.integers(0, 4),
    blank_value=st.integers(0, 100),
)


@st.composite
def rules_for(draw, modes=tuple(Mode)):
    mode = draw(st.sampled_from(modes))
    if mode is Mode.PARTNERS:
        players = draw(st.sampled_from([4, 6, 8, 10]))
    elif mode is Mode.INDIVIDUAL:
        players = 4
    else:
        players = draw(st.integers(2, 10))
    return Rules(
        mode,
        players,
        target=draw(st.integers(1, 400)),
        first_dealer=draw(st.integers(0, players - 1)),
        deck=draw(decks),
        # Played to the target, or for a number of hands (individual play: 12 unless told).
        hands=draw(st.one_of(st.none(), st.integers(1, 8))),
    )


@st.composite
def counts_for(draw, seats, deck, big=False):
    """Counts for `seats` dealt from one shuffled deck, as cards, tally-pad tokens or totals.

    With `big`, typed totals range up to an equal share of the whole deck, to end games sooner.
    """
    pile = draw(st.permutations(whole_deck(deck)))
    counts = {}
    for seat in seats:
        size = draw(st.integers(0, 8))
        held, pile = list(pile[:size]), pile[size:]
        how = draw(st.sampled_from(["cards", "pad", "total"]))
        if how == "pad":
            held = [TALLY_PAD.get(card, card) for card in held]
        if how == "total" and big:
            counts[seat] = Count(points=draw(st.integers(0, deck.max_points // len(seats))))
        elif how == "total":
            counts[seat] = Count(points=value(Count(cards=tuple(held)), deck))
        else:
            counts[seat] = Count(cards=tuple(held))
    return counts


@st.composite
def next_hand(draw, state, big=False):
    in_play = [seat for seat in range(state.rules.players) if state.in_play(seat)]
    went_out = draw(st.sampled_from(in_play))
    counts = draw(counts_for(state.counted_seats(went_out), state.rules.deck, big))
    return Hand(went_out, counts)


@st.composite
def games(draw, modes=tuple(Mode), min_hands=0, max_hands=12):
    """(rules, hands) of a game played for a while, possibly to its end."""
    rules = draw(rules_for(modes))
    state = new_game(rules)
    hands = []
    for _ in range(draw(st.integers(min_hands, max_hands))):
        if state.finished:
            break
        hand = draw(next_hand(state))
        hands.append(hand)
        state = play(state, hand)
    return rules, hands


def states_of(rules, hands):
    """The state before the first hand and after each one."""
    states = [new_game(rules)]
    for number, hand in enumerate(hands, start=1):
        assert hand_problems(states[-1], hand, number) == []
        states.append(play(states[-1], hand))
    return states


@SETTINGS
@given(games())
def test_generated_hands_are_accepted(game):
    rules, hands = game
    state = replay(rules, hands)
    assert len(state.hands) == len(hands)
    assert [result.number for result in state.hands] == list(range(1, len(hands) + 1))


@SETTINGS
@given(games(modes=(Mode.STANDARD,)))
def test_standard_winner_gains_the_sum_counted(game):
    rules, hands = game
    state = replay(rules, hands)
    for hand, result in zip(hands, state.hands, strict=True):
        others = set(range(rules.players)) - {hand.went_out}
        assert set(result.counted) == others
        expected = {seat: value(hand.counts[seat], rules.deck) for seat in others}
        assert dict(result.counted) == expected
        assert result.gain == sum(expected.values())


@SETTINGS
@given(games(modes=(Mode.PARTNERS,)))
def test_partners_gain_the_opponents_total(game):
    rules, hands = game
    state = replay(rules, hands)
    for hand, result in zip(hands, state.hands, strict=True):
        opponents = set(range(rules.players)) - team(rules, hand.went_out)
        assert set(result.counted) == opponents
        assert result.gain == sum(value(hand.counts[seat], rules.deck) for seat in opponents)


@SETTINGS
@given(games())
def test_a_sides_score_is_the_sum_of_its_gains(game):
    rules, hands = game
    state = replay(rules, hands)
    for side in state.sides:
        seats = set(side.seats)
        assert seats == team(rules, side.seats[0])
        if rules.mode is Mode.CHALLENGE:
            expected = sum(
                value(hand.counts[seat], rules.deck)
                for hand in hands
                for seat in seats
                if seat in hand.counts
            )
        else:
            expected = sum(
                sum(value(count, rules.deck) for count in hand.counts.values())
                for hand in hands
                if hand.went_out in seats
            )
        assert side.score == expected
        assert side.hands_won == sum(hand.went_out in seats for hand in hands)
        assert side.to_target == max(0, rules.target - side.score)


@SETTINGS
@given(games(modes=(Mode.STANDARD, Mode.PARTNERS)))
def test_standard_game_is_over_exactly_when_a_side_reaches_the_target(game):
    rules, hands = game
    for number, state in enumerate(states_of(rules, hands)):
        if rules.hands is not None:
            # A game of a number of hands ends after its last, whatever the scores.
            assert state.finished == (number == rules.hands)
            continue
        reached = [side.index for side in state.sides if side.score >= rules.target]
        assert state.finished == bool(reached)
        if reached:
            # Only the side that went out scores, so the game stops at the first to get there.
            assert reached == [state.winner]
            assert state.winner == side_index(rules, hands[number - 1].went_out)
            assert state.ranking()[0].index == state.winner


@SETTINGS
@given(games(modes=(Mode.STANDARD, Mode.PARTNERS)))
def test_standard_deal_goes_round_the_table(game):
    rules, hands = game
    state = replay(rules, hands)
    for number, result in enumerate(state.hands):
        assert result.dealer == (rules.first_dealer + number) % rules.players
    assert state.dealer == (rules.first_dealer + len(hands)) % rules.players


@SETTINGS
@given(games(modes=(Mode.CHALLENGE,), max_hands=16))
def test_challenge_eliminations(game):
    rules, hands = game
    states = states_of(rules, hands)
    for hand, before, after in zip(hands, states[:-1], states[1:], strict=True):
        result = after.hands[-1]
        out_before = {side.index for side in before.sides if side.eliminated}
        assert before.in_play(hand.went_out)
        assert set(result.counted) == set(range(rules.players)) - out_before - {hand.went_out}
        # The player who went out never gains and is never eliminated.
        assert after.sides[hand.went_out].score == before.sides[hand.went_out].score
        assert not after.sides[hand.went_out].eliminated
        assert hand.went_out not in result.eliminated
        # Eliminations stand; new ones are exactly those who reached the target this hand.
        for old, new in zip(before.sides, after.sides, strict=True):
            if old.eliminated:
                assert new.eliminated_in == old.eliminated_in
                assert new.score == old.score
            assert new.eliminated == (new.score >= rules.target)
        assert set(result.eliminated) == {
            side.index for side in after.sides if side.eliminated_in == result.number
        }
        # The dealer is always someone still playing.
        assert before.in_play(result.dealer)
        assert after.in_play(after.dealer)
    for number, state in enumerate(states):
        standing = [side.index for side in state.sides if not side.eliminated]
        # A game of a number of hands also ends after its last, with more than one still in.
        assert state.finished == (len(standing) == 1 or number == rules.hands)
        if len(standing) == 1:
            assert state.winner == standing[0]
        if state.finished:
            assert set(state.winners) <= set(standing)
            assert state.ranking()[0].index in state.winners


@SETTINGS
@given(games())
def test_replay_is_playing_the_hands_in_turn(game):
    rules, hands = game
    assert replay(rules, hands) == reduce(play, hands, new_game(rules))


@SETTINGS
@given(games())
def test_replay_without_checks_gives_the_same_state_for_valid_hands(game):
    rules, hands = game
    assert replay(rules, hands, check=False) == replay(rules, hands)


@SETTINGS
@given(games())
def test_typed_totals_score_like_the_cards(game):
    rules, hands = game
    typed = [
        Hand(
            hand.went_out,
            {seat: Count(points=value(count, rules.deck)) for seat, count in hand.counts.items()},
        )
        for hand in hands
    ]
    assert replay(rules, typed).sides == replay(rules, hands).sides


@SETTINGS
@given(games(min_hands=3, max_hands=10), st.data())
def test_editing_a_hand_then_replaying_is_playing_the_edited_hands_afresh(game, data):
    rules, hands = game
    k = data.draw(st.integers(0, len(hands) - 1), label="k")
    before_k = replay(rules, hands[:k])
    edited = [*hands[:k], data.draw(next_hand(before_k, big=True), label="edit"), *hands[k + 1 :]]

    # Play the edited list from scratch, hand by hand, stopping at the first that no longer fits.
    state, first_bad = new_game(rules), None
    for number, hand in enumerate(edited, start=1):
        if hand_problems(state, hand, number):
            first_bad = number
            break
        state = play(state, hand)

    event("edit fits" if first_bad is None else "edit spoils a later hand")
    if first_bad is None:
        after = replay(rules, edited)
        assert after == state
        assert after.hands[:k] == replay(rules, hands).hands[:k]
        return
    try:
        replay(rules, edited)
    except Rejected as rejected:
        numbers = [problem.hand for problem in rejected.problems]
    else:
        raise AssertionError("an edit that makes a later hand impossible was accepted")
    # The edited hand itself fits; the first hand named is the first that no longer does.
    assert first_bad > k + 1
    assert min(numbers) == first_bad
    if rules.mode is not Mode.CHALLENGE:
        # Outside Challenge an edit can only spoil later hands by ending the game sooner.
        assert state.finished
