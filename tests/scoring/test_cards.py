"""Card values, deck sizes and deck limits, from docs/rules.md ("The deck", "Card values")."""

import pytest

from scorer.scoring import CARD_LABELS, CARD_TOKENS, Deck, deck_overflows


def full_deck(copies: int = 1, blanks: int = 4) -> list[str]:
    """Every card of `copies` decks, built from docs/rules.md's description, not from the module."""
    one_colour = (
        ["0"] + [str(digit) for digit in range(1, 10)] * 2 + ["skip", "reverse", "draw2"] * 2
    )
    one_copy = one_colour * 4 + ["wild"] * 4 + ["wild4"] * 4 + ["blank"] * blanks
    return one_copy * copies


@pytest.mark.parametrize(
    ("card", "points"),
    [
        ("0", 0),
        ("1", 1),
        ("2", 2),
        ("3", 3),
        ("4", 4),
        ("5", 5),
        ("6", 6),
        ("7", 7),
        ("8", 8),
        ("9", 9),
        ("skip", 20),
        ("reverse", 20),
        ("draw2", 20),
        ("20", 20),
        ("wild", 50),
        ("wild4", 50),
        ("50", 50),
        ("blank", 50),
    ],
)
def test_card_points(card, points):
    assert Deck().points(card) == points


@pytest.mark.parametrize("blank_value", [0, 10, 25, 100])
def test_blank_scores_what_the_game_says(blank_value):
    deck = Deck(blank_value=blank_value)
    assert deck.points("blank") == blank_value
    # Only the blank changes: a wild is still a wild.
    assert deck.points("wild") == 50


@pytest.mark.parametrize("token", ["10", "Skip", "", "draw4", "-1", "wild draw four", "blanks"])
def test_unknown_token_is_not_a_card(token):
    assert token not in CARD_TOKENS
    with pytest.raises(ValueError):
        Deck().points(token)


def test_tokens_are_the_documented_ones():
    expected = {str(digit) for digit in range(10)} | {
        "skip",
        "reverse",
        "draw2",
        "wild",
        "wild4",
        "20",
        "50",
        "blank",
    }
    assert set(CARD_TOKENS) == expected


def test_every_token_has_a_label():
    assert set(CARD_LABELS) == set(CARD_TOKENS)
    assert all(CARD_LABELS[token] for token in CARD_TOKENS)


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ((), 0),
        (("3", "skip"), 23),
        (("wild", "draw2"), 70),
        (("8",), 8),
        (("0", "0", "0"), 0),
        (("9", "9", "reverse", "wild4", "blank"), 138),
        (("20", "50"), 70),
    ],
)
def test_tally(cards, points):
    assert Deck().tally(cards) == points


@pytest.mark.parametrize(
    ("deck", "points"),
    [
        # Per copy: 8 x (1 + ... + 9) = 360, 24 x 20 = 480, 8 x 50 = 400, together 1240;
        # with 4 blanks x 50, 1440.
        (Deck(), 1440),
        (Deck(blanks=0), 1240),
        (Deck(copies=2), 2880),
        (Deck(copies=2, blanks=0), 2480),
        (Deck(blank_value=20), 1320),
        (Deck(copies=2, blank_value=0), 2480),
    ],
)
def test_max_points(deck, points):
    assert deck.max_points == points


@pytest.mark.parametrize(
    "deck", [Deck(), Deck(blanks=0), Deck(copies=2), Deck(copies=3, blanks=2, blank_value=30)]
)
def test_max_points_is_the_tally_of_the_whole_deck(deck):
    cards = full_deck(deck.copies, deck.blanks)
    assert len(cards) == deck.copies * (108 + deck.blanks)
    assert deck.tally(cards) == deck.max_points


@pytest.mark.parametrize("deck", [Deck(), Deck(blanks=0), Deck(copies=2)])
def test_whole_deck_spread_over_players_fits(deck):
    cards = full_deck(deck.copies, deck.blanks)
    hands = {seat: cards[seat::4] for seat in range(4)}
    assert deck_overflows(hands, deck) == []


# (token, how many one classic deck + 4 blanks has, the kind named when there are too many)
SINGLE_LIMITS = [
    ("0", 4, "0s"),
    *[(str(digit), 8, f"{digit}s") for digit in range(1, 10)],
    ("skip", 8, "Skips"),
    ("reverse", 8, "Reverses"),
    ("draw2", 8, "Draw Twos"),
    ("wild", 4, "Wilds"),
    ("wild4", 4, "Wild Draw Fours"),
    ("blank", 4, "blank cards"),
    # The tally pad's +20 / +50 only count against their groups.
    ("20", 24, "20-point cards"),
    ("50", 8, "50-point wild cards"),
]


@pytest.mark.parametrize(("token", "limit", "kind"), SINGLE_LIMITS)
@pytest.mark.parametrize("copies", [1, 2])
def test_limit_of_one_kind(token, limit, kind, copies):
    deck = Deck(copies=copies)
    allowed = limit * copies
    assert deck_overflows({0: [token] * allowed}, deck) == []

    overflows = deck_overflows({0: [token] * (allowed + 1)}, deck)
    assert [(o.kind, o.counted, o.limit) for o in overflows] == [(kind, allowed + 1, allowed)]
    assert overflows[0].holders == (0,)


@pytest.mark.parametrize(("token", "limit", "kind"), SINGLE_LIMITS)
def test_limit_is_counted_across_all_players(token, limit, kind):
    # Split limit + 1 cards between seats 1 and 3; seat 2 holds none of that kind.
    first = limit // 2 + 1
    hands = {1: [token] * first, 2: ["blank"], 3: [token] * (limit + 1 - first)}
    if token == "blank":
        hands[2] = ["5"]
    overflows = deck_overflows(hands, Deck())
    assert len(overflows) == 1
    overflow = overflows[0]
    assert (overflow.kind, overflow.counted, overflow.limit) == (kind, limit + 1, limit)
    assert set(overflow.holders) == {1, 3}
    assert str(limit + 1) in overflow.message
    assert str(limit) in overflow.message.replace(str(limit + 1), "")


@pytest.mark.parametrize(
    ("hands", "kind", "counted", "limit", "holders"),
    [
        # 8 Skips + 8 Reverses + 8 Draw Twos is the whole group: one more "20" overflows it.
        (
            {0: ["skip"] * 8, 1: ["reverse"] * 8, 2: ["draw2"] * 8, 3: ["20"]},
            "20-point cards",
            25,
            24,
            {0, 1, 2, 3},
        ),
        (
            {0: ["skip"] * 4 + ["20"] * 16, 1: ["5"], 2: ["draw2"] * 5},
            "20-point cards",
            25,
            24,
            {0, 2},
        ),
        (
            {0: ["wild"] * 4, 1: ["wild4"] * 4, 2: ["50"]},
            "50-point wild cards",
            9,
            8,
            {0, 1, 2},
        ),
        ({0: ["wild", "50", "50"], 1: ["50"] * 6}, "50-point wild cards", 9, 8, {0, 1}),
    ],
)
def test_group_limits(hands, kind, counted, limit, holders):
    overflows = deck_overflows(hands, Deck())
    assert [(o.kind, o.counted, o.limit, set(o.holders)) for o in overflows] == [
        (kind, counted, limit, holders)
    ]


def test_group_tokens_do_not_count_against_single_kinds():
    # 24 "20"s fill the 20-point group but say nothing about Skips; 8 "50"s likewise for wilds.
    assert deck_overflows({0: ["20"] * 24, 1: ["50"] * 8}, Deck()) == []


def test_blanks_do_not_count_as_wilds():
    assert deck_overflows({0: ["wild"] * 4 + ["wild4"] * 4, 1: ["blank"] * 4}, Deck()) == []


def test_a_deck_without_blanks_has_none():
    overflows = deck_overflows({2: ["blank"]}, Deck(blanks=0))
    assert [(o.kind, o.counted, o.limit, o.holders) for o in overflows] == [
        ("blank cards", 1, 0, (2,))
    ]
    assert "no blank cards" in overflows[0].message


def test_one_card_can_break_two_limits():
    # A 9th Skip is one Skip too many; with 16 "20"s it is also one 20-point card too many.
    overflows = deck_overflows({0: ["skip"] * 9, 1: ["20"] * 16}, Deck())
    assert {(o.kind, o.counted, o.limit) for o in overflows} == {
        ("Skips", 9, 8),
        ("20-point cards", 25, 24),
    }
    by_kind = {o.kind: set(o.holders) for o in overflows}
    assert by_kind == {"Skips": {0}, "20-point cards": {0, 1}}


# --- The last card played lies on the pile: one fewer of its kind in the hands ------------------


def test_a_wild_draw_four_played_last_leaves_three_in_the_hands_of_one_deck():
    assert deck_overflows({1: ["wild4"] * 3}, Deck(), pile=["wild4"]) == []
    overflows = deck_overflows({1: ["wild4"] * 2, 2: ["wild4"] * 2}, Deck(), pile=["wild4"])
    assert [(o.kind, o.counted, o.limit, o.pile, o.room, o.holders) for o in overflows] == [
        ("Wild Draw Fours", 4, 4, 1, 3, (1, 2))
    ]
    assert overflows[0].message == (
        "4 Wild Draw Fours counted, but with the last card played the hands hold at most 3."
    )


def test_the_last_card_counts_against_its_group_too():
    # Eight +50s are every wild card of one deck: with a Wild Draw Four on the pile, one too many.
    overflows = deck_overflows({1: ["50"] * 8}, Deck(), pile=["wild4"])
    assert [(o.kind, o.counted, o.room) for o in overflows] == [("50-point wild cards", 8, 7)]
    assert deck_overflows({1: ["20"] * 24}, Deck(), pile=["draw2"])[0].room == 23


def test_the_last_card_alone_is_no_overflow_and_two_decks_leave_seven():
    assert deck_overflows({}, Deck(), pile=["wild4"]) == []
    assert deck_overflows({1: ["wild4"] * 7}, Deck(copies=2), pile=["wild4"]) == []
    assert deck_overflows({1: ["wild4"] * 8}, Deck(copies=2), pile=["wild4"])[0].room == 7
