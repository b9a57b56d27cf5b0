"""Scoring a game from its hands: standard, partners, Challenge UNO and individual play.

The rules they follow are written out in docs/rules.md.

Seats are numbered 0..n-1 round the table; the deal passes to the next seat after every hand. Points
are whole numbers. A *side* is what scores together: one player in standard and Challenge games, two
partners seated opposite in a partners game. Everything here is derived from the rules of the game
and its hands, so replaying the same hands always gives the same state.

A game of fixed length (`Rules.hands`) ends after that many hands instead of at the target; the
best side then wins (most points; in Challenge UNO the fewest among the players not yet out), or
the sides level at the top share the win. A Challenge game of fixed length still puts out whoever
reaches the target, and ends early when one player is left. Individual play is always such a
game: four players, twelve hands, most hands won first, then most points
(docs/rules.md#individual-play).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from .cards import (
    DECK_BLANKS,
    DECK_COPIES,
    LAST_CARDS,
    MAX_BLANK_VALUE,
    Deck,
    DeckOverflow,
    deck_overflows,
    unknown_cards,
)
from .words import gettext as _

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MIN_PARTNERS_PLAYERS = 4
INDIVIDUAL_PLAYERS = 4
INDIVIDUAL_HANDS = 12
# A fixed-length game longer than this is a typing mistake: an evening is rarely 50 hands.
MAX_HANDS = 50
DEFAULT_TARGET = 500
# Far beyond any real game (two whole decks with blanks worth 500 are 6,480 points), and well
# inside a database integer.
MAX_TARGET = 100_000


class Mode(StrEnum):
    STANDARD = "standard"
    PARTNERS = "partners"
    CHALLENGE = "challenge"
    INDIVIDUAL = "individual"


@dataclass(frozen=True)
class Problem:
    """Why a game setup or a hand cannot be accepted; `field` and `seat` say where to show it.

    `deck` is set when the hand holds more of a kind of card than the deck leaves it: the numbers
    behind the message, for a page to show without reading the message.
    """

    message: str
    field: str = "hand"
    seat: int | None = None
    hand: int | None = None
    deck: DeckOverflow | None = None


class Rejected(ValueError):
    """Input the rules do not allow; nothing based on it may be saved."""

    def __init__(self, problems: Sequence[Problem]):
        super().__init__("; ".join(problem.message for problem in problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class Rules:
    """How one game is played: mode, number of seats, target, who deals first, which deck.

    `hands`, when set, makes the game one of fixed length: it ends after that many hands, whatever
    the scores. Individual play has 12 unless told otherwise.
    """

    mode: Mode
    players: int
    target: int = DEFAULT_TARGET
    first_dealer: int = 0
    deck: Deck = field(default_factory=Deck)
    hands: int | None = None

    def __post_init__(self) -> None:
        problems = setup_problems(
            self.mode, self.players, self.target, self.first_dealer, self.hands
        )
        if problems:
            raise Rejected(problems)
        # A mode given as text (from a form or a database column) must still select its scoring,
        # which is chosen by identity (`is Mode.PARTNERS`).
        object.__setattr__(self, "mode", Mode(self.mode))
        if self.mode is Mode.INDIVIDUAL and self.hands is None:
            object.__setattr__(self, "hands", INDIVIDUAL_HANDS)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, partners seated opposite (seat i with seat i + n/2)."""
        if self.mode is Mode.PARTNERS:
            half = self.players // 2
            return tuple((seat, seat + half) for seat in range(half))
        return tuple((seat,) for seat in range(self.players))

    def side_of(self, seat: int) -> int:
        """Index of the side a seat plays for."""
        return self._side_by_seat[seat]

    # Worked out once per game: a replay asks for every seat's side after every hand, and even
    # reading Mode.PARTNERS costs a lookup in Python 3.11's enums.
    @cached_property
    def _side_by_seat(self) -> tuple[int, ...]:
        if self.mode is Mode.PARTNERS:
            return tuple(seat % (self.players // 2) for seat in range(self.players))
        return tuple(range(self.players))


def setup_problems(
    mode: Mode | str, players: int, target: int, first_dealer: int, hands: int | None = None
) -> list[Problem]:
    """Everything wrong with a game setup, for showing next to the fields."""
    problems = []
    if mode not in tuple(Mode):
        problems.append(Problem(_("Unknown game mode %(mode)s.", mode=repr(mode)), "mode"))
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        problems.append(
            Problem(
                _("A game needs %(low)s to %(high)s players.", low=MIN_PLAYERS, high=MAX_PLAYERS),
                "players",
            )
        )
    elif mode == Mode.PARTNERS and (players % 2 or players < MIN_PARTNERS_PLAYERS):
        problems.append(
            Problem(
                _(
                    "Partners need an even number of players, %(low)s to %(high)s, seated "
                    "opposite each other.",
                    low=MIN_PARTNERS_PLAYERS,
                    high=MAX_PLAYERS,
                ),
                "players",
            )
        )
    elif mode == Mode.INDIVIDUAL and players != INDIVIDUAL_PLAYERS:
        problems.append(
            Problem(
                _("Individual play is for exactly %(count)s players.", count=INDIVIDUAL_PLAYERS),
                "players",
            )
        )
    if hands is not None and (not _whole(hands) or not 1 <= hands <= MAX_HANDS):
        problems.append(Problem(_("A game can last 1 to %(max)s hands.", max=MAX_HANDS), "hands"))
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        problems.append(Problem(target_words(), "target"))
    elif target > MAX_TARGET:
        problems.append(Problem(target_too_high_words(), "target"))
    if not 0 <= first_dealer < max(players, 1):
        problems.append(Problem(_("The first dealer must be one of the players."), "first_dealer"))
    return problems


def target_words() -> str:
    """Why a target below 1 or not a whole number is refused, in the reader's language."""
    return _("The target must be a whole number of points above 0.")


def target_too_high_words() -> str:
    """Why a target above MAX_TARGET is refused, in the reader's language."""
    # The number keeps its English thousands separator: the rules format no number by language.
    return _("The target can be at most %(max)s points.", max=format(MAX_TARGET, ","))


def deck_problems(deck: Deck) -> list[Problem]:
    """Everything wrong with a game's choice of deck; fields are "deck.<what>"."""
    problems = []
    if not _whole(deck.copies) or deck.copies not in DECK_COPIES:
        problems.append(Problem(_("Play with one deck or two shuffled together."), "deck.copies"))
    if not _whole(deck.blanks) or deck.blanks not in DECK_BLANKS:
        # The deck comes with or without its blanks: two choices, said as the two there are.
        fewest, most = min(DECK_BLANKS), max(DECK_BLANKS)
        problems.append(
            Problem(
                _("A deck has %(fewest)s or %(most)s blank cards.", fewest=fewest, most=most),
                "deck.blanks",
            )
        )
    if not _whole(deck.blank_value) or not 0 <= deck.blank_value <= MAX_BLANK_VALUE:
        problems.append(
            Problem(
                _("A blank card scores 0 to %(max)s points.", max=MAX_BLANK_VALUE),
                "deck.blank_value",
            )
        )
    return problems


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Count:
    """What was counted in one player's hand: the cards, or a typed total of points."""

    cards: tuple[str, ...] | None = None
    points: int | None = None

    def value(self, deck: Deck) -> int:
        """Points this count stands for."""
        if self.points is not None:
            return self.points
        return deck.tally(self.cards or ())


@dataclass(frozen=True)
class Hand:
    """One hand as played: who went out, what was counted by seat, and the last card played when
    the table named it (a key of LAST_CARDS): that card lies on the pile, not in a hand."""

    went_out: int
    counts: Mapping[int, Count]
    last_card: str | None = None


@dataclass(frozen=True)
class SideState:
    """A side's position after some hands. `score` is points won, or in Challenge points against."""

    index: int
    seats: tuple[int, ...]
    score: int
    hands_won: int
    to_target: int
    eliminated_in: int | None = None

    @property
    def eliminated(self) -> bool:
        return self.eliminated_in is not None


@dataclass(frozen=True)
class HandResult:
    """A hand as scored: `counted` points per seat; `gain` goes to the side that went out."""

    number: int
    dealer: int
    went_out: int
    counted: Mapping[int, int]
    gain: int | None
    eliminated: tuple[int, ...]


@dataclass(frozen=True)
class GameState:
    """Everything the scoreboard shows, derived from the rules and the hands."""

    rules: Rules
    sides: tuple[SideState, ...]
    hands: tuple[HandResult, ...]
    dealer: int
    winner: int | None
    # The sides that share the win of a fixed-length game ended level (then `winner` is None).
    shared: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return self.winner is not None or bool(self.shared)

    @property
    def winners(self) -> tuple[int, ...]:
        """Side indices of the winner, or of everyone who shares the win; empty before the end."""
        return self.shared if self.winner is None else (self.winner,)

    @property
    def next_hand_number(self) -> int:
        return len(self.hands) + 1

    def side_of(self, seat: int) -> SideState:
        return self.sides[self.rules.side_of(seat)]

    def in_play(self, seat: int) -> bool:
        """Whether a seat still plays hands (not eliminated from a Challenge game)."""
        return not self.side_of(seat).eliminated

    def counted_seats(self, went_out: int) -> tuple[int, ...]:
        """Seats whose cards are counted when `went_out` goes out."""
        winner_side = self.rules.side_of(went_out)
        return tuple(
            seat
            for seat in range(self.rules.players)
            if self.rules.side_of(seat) != winner_side and self.in_play(seat)
        )

    def ranking(self) -> tuple[SideState, ...]:
        """Sides best first: most points first, or in Challenge the survivors with fewest points."""
        if self.rules.mode is Mode.CHALLENGE:
            return tuple(
                sorted(
                    self.sides,
                    key=lambda s: (
                        s.eliminated,
                        -(s.eliminated_in or 0),
                        s.score,
                        s.index,
                    ),
                )
            )
        if self.rules.mode is Mode.INDIVIDUAL:
            return tuple(sorted(self.sides, key=lambda s: (-s.hands_won, -s.score, s.index)))
        return tuple(sorted(self.sides, key=lambda s: (-s.score, -s.hands_won, s.index)))


def hand_problems(state: GameState, hand: Hand, number: int | None = None) -> list[Problem]:
    """Everything that stops `hand` being played next in a game at `state`."""
    rules = state.rules
    deck = rules.deck
    if state.finished:
        return [Problem(_("The game was already over."), hand=number)]
    if not 0 <= hand.went_out < rules.players:
        return [Problem(_("Choose who went out."), "went_out", hand=number)]
    if not state.in_play(hand.went_out):
        return [
            Problem(_("That player is out of the game and cannot go out."), "went_out", hand=number)
        ]
    problems = []
    expected = set(state.counted_seats(hand.went_out))
    winner_side = rules.side_of(hand.went_out)
    for seat in sorted(hand.counts):
        if seat in expected:
            continue
        if seat == hand.went_out:
            reason = _("The player who went out has no cards to count.")
        elif not 0 <= seat < rules.players:
            reason = _("There is no such seat in this game.")
        elif rules.side_of(seat) == winner_side:
            reason = _("A partner of the player who went out: their cards are not counted.")
        else:
            reason = _("This player is out of the game; their cards are not counted.")
        problems.append(Problem(reason, "count", seat, number))
    for seat in sorted(expected - set(hand.counts)):
        problems.append(Problem(_("Count this hand or type its total."), "count", seat, number))

    cards_by_seat: dict[int, tuple[str, ...]] = {}
    for seat in sorted(expected & set(hand.counts)):
        count = hand.counts[seat]
        if (count.cards is None) == (count.points is None):
            problems.append(Problem(_("Give either the cards or a total."), "count", seat, number))
        elif count.points is not None:
            if count.points < 0:
                problems.append(Problem(_("A total cannot be negative."), "count", seat, number))
            elif count.points > deck.max_points:
                problems.append(
                    Problem(
                        _(
                            "%(points)s is more than a whole deck holds (%(max)s).",
                            points=count.points,
                            max=deck.max_points,
                        ),
                        "count",
                        seat,
                        number,
                    )
                )
        elif count.cards is not None:
            unknown = unknown_cards(count.cards)
            if unknown:
                problems.append(
                    Problem(
                        # TRANSLATORS: %(cards)s is what was sent as cards, as it was sent.
                        _("Not a card: %(cards)s.", cards=", ".join(unknown)),
                        "count",
                        seat,
                        number,
                    )
                )
            else:
                cards_by_seat[seat] = count.cards
    pile = [LAST_CARDS[card]] if (card := hand.last_card) is not None and card in LAST_CARDS else []
    for overflow in deck_overflows(cards_by_seat, deck, pile):
        for seat in overflow.holders:
            problems.append(Problem(overflow.message, "count", seat, number, overflow))
    if not problems:
        total = sum(hand.counts[seat].value(deck) for seat in expected)
        if total > deck.max_points:
            problems.append(
                Problem(
                    _(
                        "These hands add up to %(total)s, more than a whole deck holds (%(max)s).",
                        total=total,
                        max=deck.max_points,
                    ),
                    hand=number,
                )
            )
    return problems


def new_game(rules: Rules) -> GameState:
    """The state before the first hand."""
    sides = tuple(
        SideState(index, seats, 0, 0, rules.target) for index, seats in enumerate(rules.sides)
    )
    return GameState(rules, sides, (), rules.first_dealer, None)


def play(state: GameState, hand: Hand) -> GameState:
    """The state after `hand`, which must have no `hand_problems`."""
    rules = state.rules
    number = state.next_hand_number
    counted = {
        seat: hand.counts[seat].value(rules.deck) for seat in state.counted_seats(hand.went_out)
    }
    winner_side = rules.side_of(hand.went_out)
    scores = [side.score for side in state.sides]
    gain: int | None
    if rules.mode is Mode.CHALLENGE:
        gain = None
        for seat, points in counted.items():
            scores[rules.side_of(seat)] += points
    else:
        gain = sum(counted.values())
        scores[winner_side] += gain

    sides = []
    newly_out: list[int] = []
    for side in state.sides:
        score = scores[side.index]
        won = side.index == winner_side
        eliminated_in = side.eliminated_in
        if (
            rules.mode is Mode.CHALLENGE
            and eliminated_in is None
            and not won
            and score >= rules.target
        ):
            eliminated_in = number
            newly_out.extend(side.seats)
        if score == side.score and not won and eliminated_in == side.eliminated_in:
            # Most sides are untouched by a hand: keep them as they are (a replay of a long game
            # would otherwise build a new one for every side after every hand).
            sides.append(side)
            continue
        sides.append(
            SideState(
                side.index,
                side.seats,
                score,
                side.hands_won + won,
                max(0, rules.target - score),
                eliminated_in,
            )
        )

    winner: int | None = None
    shared: tuple[int, ...] = ()
    standing = [side.index for side in sides if not side.eliminated]
    if rules.mode is Mode.CHALLENGE and len(standing) == 1:
        # Elimination at the target still holds in a Challenge game of fixed length.
        winner = standing[0]
    elif rules.hands is not None:
        if number >= rules.hands:
            best = _best_sides(rules, sides)
            if len(best) == 1:
                winner = best[0]
            else:
                shared = best
    elif rules.mode is not Mode.CHALLENGE and scores[winner_side] >= rules.target:
        winner = winner_side

    result = HandResult(number, state.dealer, hand.went_out, counted, gain, tuple(newly_out))
    sides_after = tuple(sides)
    dealer = _next_dealer(rules, sides_after, state.dealer)
    return GameState(rules, sides_after, state.hands + (result,), dealer, winner, shared)


def _best_sides(rules: Rules, sides: Sequence[SideState]) -> tuple[int, ...]:
    """The sides level at the top when a fixed-length game ends: most points, in individual play
    most hands won and then most points, in Challenge UNO the fewest points among those not out."""

    def key(side: SideState) -> tuple[int, ...]:
        if rules.mode is Mode.INDIVIDUAL:
            return (side.hands_won, side.score)
        if rules.mode is Mode.CHALLENGE:
            return (-side.score,)
        return (side.score,)

    # Whoever is out of a Challenge game cannot win it; somebody always remains (the player who
    # went out in a hand is never put out in it).
    eligible = [side for side in sides if not side.eliminated]
    top = max(key(side) for side in eligible)
    return tuple(side.index for side in eligible if key(side) == top)


def dealers_ahead(state: GameState, count: int) -> tuple[int | None, ...]:
    """Who deals each of the next `count` hands, from the next one on, as far as `state` knows.

    None for a hand whose dealer the hands before it may still change: in Challenge a hand can
    eliminate a player, who then deals no more. A game of fixed length has no dealers past its
    last hand, and a finished game none at all.
    """
    if state.finished:
        return ()
    if state.rules.hands is not None:
        count = min(count, state.rules.hands - len(state.hands))
    dealers: list[int | None] = []
    dealer = state.dealer
    for index in range(count):
        if index and state.rules.mode is Mode.CHALLENGE:
            dealers.append(None)
            continue
        dealers.append(dealer)
        dealer = _next_dealer(state.rules, state.sides, dealer)
    return tuple(dealers)


def _next_dealer(rules: Rules, sides: tuple[SideState, ...], dealer: int) -> int:
    """The next seat to the left of `dealer` that is still in play."""
    seats = rules.players
    for step in range(1, seats + 1):
        candidate = (dealer + step) % seats
        if not sides[rules.side_of(candidate)].eliminated:
            return candidate
    return dealer


def replay(rules: Rules, hands: Sequence[Hand], *, check: bool = True) -> GameState:
    """The state after `hands` in order; raises Rejected naming every hand that does not fit.

    `check=False` skips the checks, for hands known to fit: ones stored after they were checked.
    A hand that does not fit then gives a meaningless state (or an error), never Rejected.
    """
    state = new_game(rules)
    if not check:
        for hand in hands:
            state = play(state, hand)
        return state
    problems: list[Problem] = []
    for number, hand in enumerate(hands, start=1):
        found = hand_problems(state, hand, number)
        if found:
            problems.extend(found)
            if state.finished:
                # Every later hand comes after the end too: keep the finished state to name each.
                continue
            if any(problem.field == "went_out" for problem in found):
                break
            # Carry on past a conflict only as far as the counts allow, so that every later hand
            # that no longer fits is named too.
            state = _lenient(state)
            counts = {
                seat: hand.counts.get(seat, Count(points=0))
                for seat in state.counted_seats(hand.went_out)
            }
            if not all(_usable(count) for count in counts.values()):
                break
            state = play(state, Hand(hand.went_out, counts, hand.last_card))
            continue
        state = play(state, hand)
    if problems:
        raise Rejected(problems)
    return state


def _lenient(state: GameState) -> GameState:
    return GameState(state.rules, state.sides, state.hands, state.dealer, None)


def _usable(count: Count) -> bool:
    if count.points is not None:
        return count.cards is None and count.points >= 0
    return count.cards is not None and not unknown_cards(count.cards)
