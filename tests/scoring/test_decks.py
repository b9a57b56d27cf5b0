"""The decks a game can choose (docs/rules.md#the-deck): classic 108, retail 112, or two together.

Limits and sizes are worked out here from docs/rules.md's description of one deck; the module is
only asked whether a deck is allowed and what it refuses.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.scoring import (
    DEFAULT_DECK,
    Count,
    Deck,
    Hand,
    Mode,
    Rules,
    deck_overflows,
    deck_problems,
    hand_problems,
    new_game,
    play,
)

SETTINGS = settings(max_examples=60, deadline=None)
POINTS = {
    **{str(digit): digit for digit in range(10)},
    **dict.fromkeys(["skip", "reverse", "draw2", "20"], 20),
    **dict.fromkeys(["wild", "wild4", "50"], 50),
}


def one_deck(blanks: int) -> Counter:
    """One deck's cards by kind, from docs/rules.md: per colour one 0, two each of 1-9, two of each
    action card; 4 Wild, 4 Wild Draw Four; and the retail deck's blanks."""
    cards: Counter = Counter()
    for _colour in range(4):
        cards["0"] += 1
        for card in [str(digit) for digit in range(1, 10)] + ["skip", "reverse", "draw2"]:
            cards[card] += 2
    cards.update({"wild": 4, "wild4": 4, "blank": blanks})
    return cards


def whole(deck: Deck) -> list[str]:
    cards = one_deck(deck.blanks)
    return sorted(cards.elements()) * deck.copies


decks = st.builds(
    Deck,
    copies=st.sampled_from([1, 2]),
    blanks=st.sampled_from([0, 4]),
    blank_value=st.integers(0, 500),
)


# --- Which decks a game may choose ------------------------------------------------------------


@given(copies=st.integers(-3, 5), blanks=st.integers(-3, 8), blank_value=st.integers(-600, 600))
@SETTINGS
def test_a_deck_is_allowed_exactly_within_its_bounds(copies, blanks, blank_value):
    problems = deck_problems(Deck(copies, blanks, blank_value))
    wrong = {
        "deck.copies": copies not in (1, 2),
        "deck.blanks": blanks not in (0, 4),
        "deck.blank_value": not 0 <= blank_value <= 500,
    }
    assert [problem.field for problem in problems] == [key for key, bad in wrong.items() if bad]


@pytest.mark.parametrize(
    "deck", [Deck(copies=True), Deck(blanks=4.0), Deck(blank_value="50"), Deck(copies=1.5)]
)
def test_only_whole_numbers_make_a_deck(deck):
    assert deck_problems(deck) != []


def test_the_default_deck_is_todays_retail_deck():
    assert Deck(copies=1, blanks=4, blank_value=50) == DEFAULT_DECK
    assert Rules(Mode.STANDARD, 2).deck == DEFAULT_DECK


@pytest.mark.parametrize(
    ("deck", "cards", "points", "name"),
    [
        (Deck(blanks=0), 108, 1240, "classic 108 cards"),
        (Deck(), 112, 1440, "retail 112 cards, blanks worth 50"),
        (Deck(blank_value=0), 112, 1240, "retail 112 cards, blanks worth 0"),
        (Deck(copies=2, blanks=0), 216, 2480, "two classic decks, 216 cards"),
        (
            Deck(copies=2, blank_value=500),
            224,
            6480,
            "two retail decks, 224 cards, blanks worth 500",
        ),
    ],
)
def test_each_deck_has_its_size_maximum_and_name(deck, cards, points, name):
    assert deck.cards == len(whole(deck)) == cards
    assert deck.max_points == points
    assert deck.name == name


# --- Deck limits follow copies and blanks ------------------------------------------------------


@given(deck=decks, data=st.data())
@SETTINGS
def test_any_part_of_the_deck_spread_over_hands_fits(deck, data):
    cards = whole(deck)
    taken = data.draw(st.lists(st.sampled_from(range(len(cards))), unique=True, max_size=60))
    seats = data.draw(st.lists(st.integers(0, 3), min_size=len(taken), max_size=len(taken)))
    hands: dict[int, list[str]] = {}
    for index, seat in zip(taken, seats, strict=True):
        hands.setdefault(seat, []).append(cards[index])
    assert deck_overflows(hands, deck) == []


@given(deck=decks, card=st.sampled_from(sorted(set(POINTS) - {"20", "50"}) + ["blank"]))
@SETTINGS
def test_one_card_more_than_the_deck_has_is_refused(deck, card):
    cards = whole(deck) + [card]
    limit = Counter(whole(deck))[card]
    hands = {1: cards[::2], 2: cards[1::2]}
    overflows = deck_overflows(hands, deck)
    kinds = {overflow.kind: overflow for overflow in overflows}
    assert overflows
    assert all(overflow.counted == overflow.limit + 1 for overflow in overflows)
    named = [overflow for overflow in overflows if overflow.limit == limit]
    assert named, kinds
    if limit == 0:
        assert named[0].message == "This game's deck has no blank cards."


@given(deck=decks, extra=st.integers(0, 2))
@SETTINGS
def test_the_pads_plus_50_holds_8_per_copy_and_blanks_are_counted_apart(deck, extra):
    hands = {1: ["50"] * (8 * deck.copies), 2: ["blank"] * (deck.blanks * deck.copies + extra)}
    kinds = [overflow.kind for overflow in deck_overflows(hands, deck)]
    assert kinds == (["blank cards"] if extra else [])
    hands[1].append("wild")
    assert "50-point wild cards" in [overflow.kind for overflow in deck_overflows(hands, deck)]


# --- A hand in a game with each deck ------------------------------------------------------------


@given(deck=decks)
@SETTINGS
def test_the_whole_deck_in_the_others_hands_is_the_most_a_hand_can_score(deck):
    rules = Rules(Mode.STANDARD, 3, target=100_000, deck=deck)
    state = new_game(rules)
    cards = whole(deck)
    hand = Hand(0, {1: Count(cards=tuple(cards[::2])), 2: Count(cards=tuple(cards[1::2]))})
    assert hand_problems(state, hand) == []
    expected = sum(deck.blank_value if card == "blank" else POINTS[card] for card in cards)
    assert play(state, hand).sides[0].score == expected == deck.max_points

    typed = Hand(0, {1: Count(points=deck.max_points), 2: Count(points=1)})
    messages = [problem.message for problem in hand_problems(state, typed)]
    assert messages == [
        f"These hands add up to {deck.max_points + 1}, more than a whole deck holds "
        f"({deck.max_points})."
    ]


@given(deck=decks, blanks=st.integers(1, 3))
@SETTINGS
def test_a_blank_scores_the_games_value(deck, blanks):
    state = new_game(Rules(Mode.CHALLENGE, 2, deck=deck))
    hand = Hand(0, {1: Count(cards=("blank",) * blanks + ("7",))})
    problems = hand_problems(state, hand)
    if deck.blanks:
        assert problems == []
        assert play(state, hand).sides[1].score == blanks * deck.blank_value + 7
    else:
        assert [problem.message for problem in problems] == ["This game's deck has no blank cards."]


# --- The last card played is one of the deck's --------------------------------------------------


@given(deck=decks, last=st.sampled_from(["draw2", "wild4"]), data=st.data())
@SETTINGS
def test_the_deck_less_the_last_card_fits_and_one_more_of_its_kind_is_refused(deck, last, data):
    rules = Rules(Mode.STANDARD, 3, target=100_000, deck=deck)
    cards = whole(deck)
    cards.remove(last)
    kept = data.draw(st.lists(st.sampled_from(range(len(cards))), unique=True, max_size=60))
    part = [cards[index] for index in kept]
    fits = Hand(0, {1: Count(cards=tuple(part[::2])), 2: Count(cards=tuple(part[1::2]))}, last)
    assert hand_problems(new_game(rules), fits) == []
    everything = Hand(0, {1: Count(cards=tuple(cards)), 2: Count(cards=(last,))}, last)
    problems = hand_problems(new_game(rules), everything)
    assert problems
    assert {problem.deck.pile for problem in problems if problem.deck} == {1}
    assert all(problem.deck and problem.deck.counted > problem.deck.room for problem in problems)


def test_four_wild_draw_fours_in_the_hands_and_one_played_last_are_refused():
    rules = Rules(Mode.STANDARD, 3)
    hand = Hand(0, {1: Count(cards=("wild4",) * 2), 2: Count(cards=("wild4",) * 2)}, "wild4")
    problems = hand_problems(new_game(rules), hand)
    assert [(p.seat, p.deck.kind if p.deck else None) for p in problems] == [
        (1, "Wild Draw Fours"),
        (2, "Wild Draw Fours"),
    ]
    assert hand_problems(new_game(rules), Hand(0, hand.counts)) == []
