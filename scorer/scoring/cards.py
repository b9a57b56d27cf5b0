"""Card values and what a deck can hold.

docs/rules.md, "The deck" and "Card values". A hand is counted as a sequence of card
tokens. Digits are "0".."9"; named action cards are "skip", "reverse", "draw2"; named wild cards are
"wild", "wild4"; "blank" is the retail deck's customizable card.
The tally pad's +20 and +50 buttons do not say which action or wild card it was, so they record the
tokens "20" and "50", which count against the group limits only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .words import N_, fill
from .words import gettext as _

DIGITS: tuple[str, ...] = tuple(str(digit) for digit in range(10))
ACTION_CARDS: tuple[str, ...] = ("skip", "reverse", "draw2")
WILD_CARDS: tuple[str, ...] = ("wild", "wild4")
ANY_ACTION = "20"
ANY_WILD = "50"
BLANK = "blank"
CARD_TOKENS: frozenset[str] = frozenset(
    DIGITS + ACTION_CARDS + WILD_CARDS + (ANY_ACTION, ANY_WILD, BLANK)
)

ACTION_POINTS = 20
WILD_POINTS = 50
# The decks a game can choose (docs/rules.md#the-deck): one deck, or two shuffled together for a big
# table, each with no blanks (the classic 108 cards) or the retail deck's 4.
DECK_COPIES: tuple[int, ...] = (1, 2)
DECK_BLANKS: tuple[int, ...] = (0, 4)
MAX_BLANK_VALUE = 500
CLASSIC_CARDS = 108

# Each card's name in English, said in the reader's language with `_` where it is shown (a digit
# is its own name).
CARD_LABELS: Mapping[str, str] = {
    **{digit: digit for digit in DIGITS},
    "skip": N_("Skip"),
    "reverse": N_("Reverse"),
    "draw2": N_("Draw Two"),
    "wild": N_("Wild"),
    "wild4": N_("Wild Draw Four"),
    ANY_ACTION: N_("Skip, Reverse or Draw Two"),
    ANY_WILD: N_("Wild or Wild Draw Four"),
    BLANK: N_("blank card"),
}

# The last card played, as the table may name it, and the card it is: it lies on the discard pile,
# so it is one of the deck's and the hands hold one fewer of its kind.
LAST_CARDS: Mapping[str, str] = {"draw2": "draw2", "wild4": "wild4"}

# How a deck limit passed is said, here once: the page's script gets the same templates in the pad's
# data (in the reader's language: `deck_words`) and fills them from the numbers a refusal carries.
# The slots are the script's `{name}` ones, not gettext's, since the script fills them too.
DECK_WORDS: Mapping[str, str] = {
    # TRANSLATORS: {kind} is a kind of card in the plural ("Wild Draw Fours", "7s"); keep every
    # {name} as it is.
    "over": N_("{counted} {kind} counted, but the deck has only {limit}."),
    # TRANSLATORS: {kind} is a kind of card in the plural ("Wild Draw Fours", "blank cards").
    "none": N_("This game's deck has no {kind}."),
    "pile": N_(
        "{counted} {kind} counted, but with the last card played the hands hold at most {limit}."
    ),
}
# What each kind of card with a limit is called (Deck.limits), in the plural, in English: the kind
# is also how a refusal and the page name the limit, so it is said with `_` only where shown.
DIGIT_KINDS: tuple[str, ...] = (
    # TRANSLATORS: the cards numbered 0, in the plural: "This game's deck has no 0s."
    N_("0s"),
    N_("1s"),
    N_("2s"),
    N_("3s"),
    N_("4s"),
    N_("5s"),
    N_("6s"),
    N_("7s"),
    N_("8s"),
    N_("9s"),
)

Holder = TypeVar("Holder")


def deck_words() -> dict[str, str]:
    """DECK_WORDS in the reader's language, still to be filled in."""
    return {key: _(template) for key, template in DECK_WORDS.items()}


@dataclass(frozen=True)
class Deck:
    """The cards in play: `copies` classic decks shuffled together, each with `blanks` blanks."""

    copies: int = 1
    blanks: int = 4
    blank_value: int = WILD_POINTS

    def points(self, card: str) -> int:
        """Points one card scores at the end of a hand."""
        if card in DIGITS:
            return int(card)
        if card in ACTION_CARDS or card == ANY_ACTION:
            return ACTION_POINTS
        if card in WILD_CARDS or card == ANY_WILD:
            return WILD_POINTS
        if card == BLANK:
            return self.blank_value
        raise ValueError(f"not a card: {card!r}")

    def tally(self, cards: Iterable[str]) -> int:
        """Points of a whole hand of cards."""
        return sum(self.points(card) for card in cards)

    @property
    def max_points(self) -> int:
        """Points of every card in the deck: no hand, nor all hands together, can count more."""
        per_copy = 4 * 0 + 8 * sum(range(1, 10)) + 24 * ACTION_POINTS + 8 * WILD_POINTS
        return self.copies * (per_copy + self.blanks * self.blank_value)

    @property
    def cards(self) -> int:
        """How many cards the deck has."""
        return self.copies * (CLASSIC_CARDS + self.blanks)

    @property
    def name(self) -> str:
        """The deck in a few words, as the setup form, the game page and the rules page say it."""
        # Whole phrases, one per kind of deck, so that a language can order their words its way.
        cards, value = self.cards, self.blank_value
        if self.copies == 1:
            if not self.blanks:
                return _("classic %(cards)s cards", cards=cards)
            return _("retail %(cards)s cards, blanks worth %(value)s", cards=cards, value=value)
        if self.copies == 2:
            if not self.blanks:
                return _("two classic decks, %(cards)s cards", cards=cards)
            return _(
                "two retail decks, %(cards)s cards, blanks worth %(value)s",
                cards=cards,
                value=value,
            )
        if not self.blanks:
            return _("%(copies)s classic decks, %(cards)s cards", copies=self.copies, cards=cards)
        return _(
            "%(copies)s retail decks, %(cards)s cards, blanks worth %(value)s",
            copies=self.copies,
            cards=cards,
            value=value,
        )

    def limits(self) -> tuple[tuple[str, frozenset[str], int], ...]:
        """(what it is, card tokens, how many the deck has) for each kind and group with a limit.

        What it is is the English name, the same in every language (a refusal and the page tell
        the limits apart by it): say it with `_` where it is shown."""
        n = self.copies
        kinds: list[tuple[str, frozenset[str], int]] = [(DIGIT_KINDS[0], frozenset({"0"}), 4 * n)]
        kinds += [(DIGIT_KINDS[int(digit)], frozenset({digit}), 8 * n) for digit in DIGITS[1:]]
        kinds += [
            (N_("Skips"), frozenset({"skip"}), 8 * n),
            (N_("Reverses"), frozenset({"reverse"}), 8 * n),
            (N_("Draw Twos"), frozenset({"draw2"}), 8 * n),
            (N_("20-point cards"), frozenset(ACTION_CARDS + (ANY_ACTION,)), 24 * n),
            (N_("Wilds"), frozenset({"wild"}), 4 * n),
            (N_("Wild Draw Fours"), frozenset({"wild4"}), 4 * n),
            (N_("50-point wild cards"), frozenset(WILD_CARDS + (ANY_WILD,)), 8 * n),
            (N_("blank cards"), frozenset({BLANK}), self.blanks * n),
        ]
        return tuple(kinds)


# Today's deck, and every game's before games chose theirs: the retail 112 cards.
DEFAULT_DECK = Deck()


@dataclass(frozen=True)
class DeckOverflow(Generic[Holder]):
    """More cards of one kind counted across a hand's players than the deck leaves them.

    `counted` is the cards of the kind in the hands, `limit` how many the deck has, `pile` how many
    of them lie on the discard pile (the last card played), so the hands can hold `room`. `kind`
    is the English name from Deck.limits; `message` says it in the reader's language.
    """

    kind: str
    counted: int
    limit: int
    holders: tuple[Holder, ...]
    pile: int = 0

    @property
    def room(self) -> int:
        """How many of the kind the hands can hold."""
        return max(0, self.limit - self.pile)

    @property
    def message(self) -> str:
        kind = _(self.kind)
        if self.limit == 0:
            return fill(_(DECK_WORDS["none"]), kind=kind)
        template = _(DECK_WORDS["pile" if self.pile else "over"])
        return fill(template, counted=self.counted, kind=kind, limit=self.room)


def unknown_cards(cards: Iterable[str]) -> list[str]:
    """Tokens that are not cards, in the order given."""
    return [card for card in cards if card not in CARD_TOKENS]


def deck_overflows(
    hands: Mapping[Holder, Sequence[str]], deck: Deck, pile: Sequence[str] = ()
) -> list[DeckOverflow[Holder]]:
    """Every kind of card counted more often, across all `hands` of one deal, than `deck` leaves
    them once the cards on the discard pile (`pile`, the last card played) are taken out."""
    per_holder = {holder: Counter(cards) for holder, cards in hands.items()}
    on_pile = Counter(pile)
    overflows: list[DeckOverflow[Holder]] = []
    for kind, tokens, limit in deck.limits():
        used = {
            holder: sum(count[token] for token in tokens) for holder, count in per_holder.items()
        }
        counted = sum(used.values())
        played = sum(on_pile[token] for token in tokens)
        if counted + played > limit and counted:
            holders = tuple(holder for holder, n in used.items() if n)
            overflows.append(DeckOverflow(kind, counted, limit, holders, played))
    return overflows
