"""Entering a hand on the tally pad: who went out, then each other hand as cards or a typed total.

The pad's state lives in the form (one hidden field of card tokens per seat, and which seat the pad
is on), so each pad tap can be a plain form post; with JavaScript the same fields change in place.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import Form, FormField, HiddenField, RadioField, SelectChoice  # type: ignore[attr-defined]  # types-WTForms lags: SelectChoice is new in WTForms 3.3
from wtforms.validators import NumberRange, Optional

from .. import scoring
from ..languages import html_lang, plural_forms
from ..scoring.words import N_
from ..services.hands import HandEntry
from ..services.snapshots import GameSnapshot, StoredHand
from .fields import WholeNumberField, attach, lazily

TOTAL_MESSAGE = _l("Type a whole number of points, like 37.")
NEGATIVE_MESSAGE = _l("A total cannot be negative.")
# Five digits: more than any hand can hold, and as many as the box takes.
TOTAL_MAX = 99_999
# The page's script fills {max} too, so the slot is the script's kind.
MAX_MESSAGE = N_("A total is at most {max}.")
LAST_CARD_CHOICES = [
    SelectChoice("", _l("Something else")),
    SelectChoice("draw2", _l("Draw Two")),
    SelectChoice("wild4", _l("Wild Draw Four")),
]
# The keys in reading order, five a line: the cards, and "back" and "clear" for the tools.
PAD_KEYS = (
    *("7", "8", "9", scoring.ANY_ACTION, "back"),
    *("4", "5", "6", scoring.ANY_WILD, "clear"),
    *("1", "2", "3", "0"),
)
# Keys of a keyboard that tap the pad's keys while a row or a pad key has the focus, besides the
# digits, which add their own card: a keyboard counts a hand without tabbing to the keypad.
KEYBOARD = {"a": scoring.ANY_ACTION, "w": scoring.ANY_WILD, "b": scoring.BLANK, "Backspace": "back"}
# Says KEYBOARD in words, under the rows while one has the keyboard's focus: the whole sentence for
# a deck with blank cards (a B key) and for one without.
KEYBOARD_HINT = _l(
    "Keyboard: Enter chooses a row; 0–9 add a card, A adds 20, W adds 50, ⌫ removes one."
)
KEYBOARD_BLANK_HINT = _l(
    "Keyboard: Enter chooses a row; 0–9 add a card, A adds 20, W adds 50, ⌫ removes one. "
    "B adds a blank."
)


class Words(Mapping[str, str]):
    """Templates kept in English, each said in the request's language when it is read: made once,
    at import, they still speak each reader's language (`dict(words)` is them all, said so).

    The slots are `{name}`, the page's script's kind, since the script fills the same templates.
    The keys of `kept` are marks, not words (a separator, a dash), said as they are.
    """

    def __init__(self, english: Mapping[str, str], kept: frozenset[str] = frozenset()) -> None:
        self.english = dict(english)
        self.kept = kept

    def __getitem__(self, key: str) -> str:
        english = self.english[key]
        return english if key in self.kept else _(english)

    def __iter__(self) -> Iterator[str]:
        return iter(self.english)

    def __len__(self) -> int:
        return len(self.english)


# Every sentence the pad shows, here once: the server's summary and the page's script (which gets
# them in the pad's data) fill in the same templates.
_PAD_WORDS = {
    "nobody": N_("Tap who went out."),
    # Said by the page's script before a hand is queued offline, instead of the server's refusal.
    # TRANSLATORS: {names} is one or more players' names, separated by commas.
    "uncounted": N_("Count every hand before saving: {names}."),
    # TRANSLATORS: {names} is one player's name, {total} the points the hand gives them.
    "one": N_("{names} scores {total}"),
    # TRANSLATORS: {names} is a team's names ("Ann & Cat"), {total} the points the hand gives them.
    "many": N_("{names} score {total}"),
    # TRANSLATORS: between the names of two partners: "Ann & Cat".
    "and": N_(" & "),
    # A side's effect on the scoreboard, as a waiting hand and a conflict list it: "Ann & Cat +101".
    "effect": N_("{names} +{points}"),
    "list": " · ",
    # TRANSLATORS: shown in a row instead of its cards when its total was typed.
    "typed": N_("typed"),
    "tape": " · ",
    "out": N_("went out"),
    "partner": N_("partner, not counted"),
    "eliminated": N_("out of the game"),
    # A counted player before a card is tapped or a total typed: a bare 0 would read as counted.
    "pending": N_("not counted yet"),
    "blank": "—",
    # TRANSLATORS: {names} is one or more players' names, separated by commas.
    "fix": N_("Fix the total for {names}."),
    # TRANSLATORS: a row's button as a screen reader says it: "Bob, 23 points, being counted".
    "row": N_("{name}, {points}, {state}"),
    # TRANSLATORS: a row's button as a screen reader says it: "Ann, went out".
    "row_other": N_("{name}, {note}"),
    "active": N_("being counted"),
    "choose": N_("choose to count"),
    **scoring.DECK_WORDS,
}
# Marks, not words: a language keeps them.
_MARKS = frozenset({"list", "tape", "blank"})
WORDS = Words(_PAD_WORDS, _MARKS)
# Said only by the server (a sync conflict's two versions), so not sent in the pad's data.
DETAIL_WORDS = Words(
    {
        # TRANSLATORS: a hand in a few words: "Ann went out · Bob 3 · Cat 0".
        "went": N_("{name} went out"),
        # TRANSLATORS: a player and the points counted in their hand: "Bob 3".
        "count": N_("{name} {points}"),
    }
)


def points_words(count: int) -> str:
    """A row's points as a screen reader says them: "1 point", "23 points"."""
    return ngettext("{points} point", "{points} points", count)


# Sentences about a number: sent to the page's script in each form the reader's language has.
PLURAL_WORDS = {"points": points_words, "challenge": scoring.challenge_words}
HAND_WORDS = Words({**_PAD_WORDS, **DETAIL_WORDS.english}, _MARKS)
NOTES = Words({state: _PAD_WORDS[state] for state in ("out", "partner", "eliminated")})


class CountForm(Form):
    cards = HiddenField()
    points = WholeNumberField(
        _l("Total"),
        message=TOTAL_MESSAGE,
        validators=[
            Optional(),
            NumberRange(min=0, message=NEGATIVE_MESSAGE),
            NumberRange(
                max=TOTAL_MAX,
                message=lazily(lambda: scoring.fill(_(MAX_MESSAGE), max=TOTAL_MAX)),
            ),
        ],
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Deck limits this hand's cards pass, shown apart from the other errors with their numbers,
        # so the page's script can tell them from the rest and replace them with its own check.
        self.deck_overflows: list[scoring.DeckOverflow] = []


@lru_cache(maxsize=32)
def _with_seats(seats: int) -> type[HandForm]:
    """HandForm with one count sub-form per seat, made once per number of seats."""
    # Named by seat: rows that are not counted are not posted, so a FieldList (which renumbers
    # what it receives) would shift the seats.
    fields = {
        f"seat_{seat}": FormField(CountForm, name=f"counts-{seat}", separator="-")
        for seat in range(seats)
    }
    return type(HandForm.__name__, (HandForm,), fields)


class HandForm(FlaskForm):
    number = HiddenField()
    # The game's key (Game.sync_key): a hand the phone keeps offline carries it, so the sync
    # endpoint cannot take it into another game.
    game_key = HiddenField()
    went_out = RadioField(_l("Who went out?"), coerce=int, validate_choice=False)
    active = HiddenField()
    last_card = RadioField(_l("Last card played"), choices=LAST_CARD_CHOICES, default="")

    @classmethod
    def for_game(
        cls,
        view: GameSnapshot,
        hand: StoredHand | None = None,
        filled: bool = False,
        before: scoring.GameState | None = None,
        **kwargs,
    ) -> HandForm:
        """The pad for the next hand of `view`, or to edit `hand`, `filled` with what it holds.

        `before` is the game as it stood when `hand` was dealt; the next hand's is `view.state`.
        """
        if hand is not None and before is None:
            raise ValueError("editing a hand needs the game as it stood before it")
        form_class = _with_seats(view.state.rules.players)
        if hand is not None and filled:
            kwargs["data"] = {
                "number": hand.number,
                "went_out": hand.went_out,
                "last_card": hand.last_card or "",
            }
        form = form_class(**kwargs)
        form.view = view
        form.before = view.state if before is None else before
        form.went_out.choices = [
            SelectChoice(seat, name)
            for seat, name in enumerate(view.names)
            if form.before.in_play(seat)
        ]
        if hand is not None and filled:
            for seat, count in hand.counts.items():
                form.counts[seat].cards.data = " ".join(count.cards or ())
                form.counts[seat].points.data = count.points
        if not form.number.data:
            form.number.data = str(hand.number if hand else view.state.next_hand_number)
        form.game_key.data = view.game.sync_key or ""
        return form

    @property
    def keyboard_hint(self) -> str:
        """The keyboard's keys for the pad, in words (blank cards only where the deck has them)."""
        return str(KEYBOARD_BLANK_HINT if scoring.BLANK in self.pad_keys else KEYBOARD_HINT)

    @property
    def total_digits(self) -> int:
        """How many characters the box for a typed total takes."""
        return len(str(TOTAL_MAX))

    @property
    def pad_keys(self) -> tuple[str, ...]:
        """The pad's keys; a deck with blank cards adds a Blank key, at the end of the last line."""
        return (*PAD_KEYS, scoring.BLANK) if self.before.rules.deck.blanks else PAD_KEYS

    @property
    def counts(self) -> list[CountForm]:
        """The count sub-form of every seat, by seat."""
        return [self[f"seat_{seat}"] for seat in range(self.before.rules.players)]

    @property
    def went_out_seat(self) -> int | None:
        seat = self.went_out.data
        return seat if isinstance(seat, int) and 0 <= seat < len(self.counts) else None

    @property
    def active_seat(self) -> int | None:
        counted = self.counted_seats
        try:
            seat = int(self.active.data or "")
        except ValueError:
            seat = None
        if seat in counted:
            return seat
        return counted[0] if counted else None

    @property
    def counted_seats(self) -> tuple[int, ...]:
        """Seats whose cards count if the chosen player went out, starting with the next seat."""
        went_out = self.went_out_seat
        return () if went_out is None else self._counted_after(went_out)

    def _counted_after(self, went_out: int) -> tuple[int, ...]:
        counted = set(self.before.counted_seats(went_out))
        players = self.before.rules.players
        return tuple(
            seat for step in range(1, players) if (seat := (went_out + step) % players) in counted
        )

    def rows(self) -> list[PadRow]:
        """One row per seat for the template: name, state, tape and points so far."""
        deck = self.before.rules.deck
        counted = self.counted_seats
        went_out = self.went_out_seat
        rows = []
        for seat, name in enumerate(self.view.names):
            entry = self.counts[seat]
            cards = _tokens(entry.cards.data)
            typed = entry.points.data if isinstance(entry.points.data, int) else None
            known = [card for card in cards if card in scoring.CARD_TOKENS]
            if seat == went_out:
                state = "out"
            elif seat in counted:
                state = "counted"
            elif not self.before.in_play(seat):
                state = "eliminated"
            elif went_out is None:
                state = "waiting"
            else:
                state = "partner"
            # A total that is not one counts nothing, as the page's script shows it while typed.
            wrong = bool(entry.points.process_errors) or not 0 <= (typed or 0) <= TOTAL_MAX
            entered = state == "counted" and not wrong and (typed is not None or bool(cards))
            rows.append(
                PadRow(
                    seat=seat,
                    name=name,
                    side=self.before.rules.side_of(seat),
                    state=state,
                    entry=entry,
                    cards=tuple(cards),
                    points=typed if typed is not None else deck.tally(known),
                    typed=typed is not None,
                    # Only a counted hand shows its cards: a tally kept from before who went out
                    # changed stays in the form, unposted, but is not drawn over "went out".
                    tape=(
                        ""
                        if not entered
                        else WORDS["typed"]
                        if typed is not None
                        else WORDS["tape"].join(str(deck.points(card)) for card in known)
                    ),
                    note=NOTES.get(state, ""),
                    entered=entered,
                    wrong=state == "counted" and wrong,
                )
            )
        return rows

    def pad_data(self) -> dict:
        """What the page's script needs to run the pad without knowing the rules: card values,
        each seat's side, the seats counted for each choice of who went out (in pad order), the
        sentences to fill in, the deck's limits, and which card the last card played is."""
        rules = self.before.rules
        deck = rules.deck
        # Only the cards this pad can hold: its keys, and whatever a saved hand being edited has.
        # A limit on other cards cannot be passed, so the page is not sent it (it is sent on every
        # visit and every save).
        cards = {key for key in self.pad_keys if key in scoring.CARD_TOKENS}
        for entry in self.counts:
            cards.update(card for card in _tokens(entry.cards.data) if card in scoring.CARD_TOKENS)
        pile = set(scoring.LAST_CARDS.values())
        return {
            "mode": str(rules.mode),
            "values": {card: deck.points(card) for card in sorted(cards)},
            "names": list(self.view.names),
            "sides": [rules.side_of(seat) for seat in range(rules.players)],
            "counted": {
                str(seat): list(self._counted_after(seat))
                for seat in range(rules.players)
                if self.before.in_play(seat)
            },
            "words": dict(WORDS),
            "plurals": {key: plural_forms(say) for key, say in PLURAL_WORDS.items()},
            # For the browser's plural rules (Intl.PluralRules), which pick among `plurals`.
            "lang": html_lang(),
            "keyboard": {
                **{key: key for key in self.pad_keys if key.isdigit() and len(key) == 1},
                **{key: card for key, card in KEYBOARD.items() if card in self.pad_keys},
            },
            # What a typed total may be: checked as it is typed, in the words the server refuses.
            "total": {
                "pattern": "^[0-9]+$",
                "max": TOTAL_MAX,
                "words": {
                    "digits": str(TOTAL_MESSAGE),
                    "negative": str(NEGATIVE_MESSAGE),
                    "max": _(MAX_MESSAGE),
                },
            },
            # The deck's limits, from the same rules the server checks a save against: [what it
            # is, card tokens, how many the deck has]. The last card played (`last_cards` gives
            # its card token) counts against a limit whose tokens hold it. The kind is sent as the
            # reader says it: the script only shows it.
            "limits": [
                [_(kind), sorted(tokens & (cards | pile)), limit]
                for kind, tokens, limit in deck.limits()
                if tokens & cards
            ],
            "last_cards": dict(scoring.LAST_CARDS),
        }

    def outcome(self) -> scoring.HandOutcome:
        """What saving this hand gives, in words and points, as the rows stand."""
        counted = {row.seat: row.points for row in self.rows() if row.state == "counted"}
        return scoring.describe_hand(
            HAND_WORDS, self.before.rules, self.view.names, self.went_out_seat, counted
        )

    def summary(self) -> str:
        """What saving this hand gives, in words: "Ann scores 101"."""
        rows = self.rows()
        wrong = [row.name for row in rows if row.state == "counted" and row.wrong]
        if self.went_out_seat is not None and wrong:
            return scoring.fill(WORDS["fix"], names=", ".join(wrong))
        return self.outcome().summary

    def apply_pad(self, action: str) -> None:
        """Apply one pad tap without JavaScript: a card, remove last, clear, or another player."""
        verb, _, argument = action.partition(":")
        if verb == "select" and argument.isdigit():
            self.active.data = argument
            return
        seat = self.active_seat
        if seat is None:
            return
        entry = self.counts[seat]
        cards = _tokens(entry.cards.data)
        if verb == "card" and argument in scoring.CARD_TOKENS:
            cards.append(argument)
            entry.points.data = None
            entry.points.raw_data = []
        elif verb == "back" and cards:
            cards.pop()
        elif verb == "clear":
            cards = []
            entry.points.data = None
            entry.points.raw_data = []
        entry.cards.data = " ".join(cards)
        self.active.data = str(seat)

    def posted_fields(self) -> list[tuple[str, str]]:
        """The hand on the pad as its post would send it: the number, who went out, each hand's
        cards (else its typed total) and the last card. An address can carry it: an undo without
        the page's script puts the hand back on the pad through the game page's address."""
        fields = [("number", str(self.number.data))]
        if self.went_out_seat is not None:
            fields.append(("went_out", str(self.went_out_seat)))
        for seat, count in enumerate(self.counts):
            if count.cards.data:
                fields.append((f"counts-{seat}-cards", count.cards.data))
            elif isinstance(count.points.data, int):
                fields.append((f"counts-{seat}-points", str(count.points.data)))
        if self.last_card.data:
            fields.append(("last_card", self.last_card.data))
        return fields

    def entry(self) -> HandEntry:
        """The hand as the services take it: a count for every seat with cards or a total."""
        counts = {}
        for seat, entry in enumerate(self.counts):
            if isinstance(entry.points.data, int):
                counts[seat] = scoring.Count(points=entry.points.data)
            elif cards := _tokens(entry.cards.data):
                counts[seat] = scoring.Count(cards=tuple(cards))
        return HandEntry(self.went_out_seat, counts, self.last_card.data or None)

    def attach(self, problems: tuple[scoring.Problem, ...], number: int) -> None:
        """Show the rules' problems: by field for this hand, on the form for other hands."""
        mine = [p for p in problems if p.hand in (None, number)]
        for problem in mine:
            seat = problem.seat
            if problem.field != "count" or seat is None or seat >= len(self.counts):
                attach(self, [problem], {"went_out": self.went_out})
            elif problem.deck is not None:
                self.counts[seat].deck_overflows.append(problem.deck)
            else:
                points = self.counts[seat].points
                points.errors = [*points.errors, problem.message]
        for problem in problems:
            if problem not in mine:
                self.form_errors.append(_later_hand(self, problem))


@dataclass(frozen=True)
class PadRow:
    seat: int
    name: str
    side: int
    state: str
    entry: CountForm
    cards: tuple[str, ...]
    points: int
    typed: bool
    tape: str
    note: str
    entered: bool
    wrong: bool

    def label(self, active: bool) -> str:
        """The row's button in words: "Bob, 23 points, being counted", "Ann, went out"."""
        if self.state != "counted":
            return (
                scoring.fill(WORDS["row_other"], name=self.name, note=self.note)
                if self.note
                else self.name
            )
        points = (
            scoring.fill(points_words(self.points), points=self.points)
            if self.entered
            else WORDS["pending"]
        )
        state = WORDS["active" if active else "choose"]
        return scoring.fill(WORDS["row"], name=self.name, points=points, state=state)

    @property
    def shown(self) -> str:
        """The points the row shows: none when not counted, a dash until something is entered."""
        if self.state != "counted":
            return ""
        return str(self.points) if self.entered else WORDS["blank"]


def _tokens(text: str | None) -> list[str]:
    return (text or "").split()


def _later_hand(form: HandForm, problem: scoring.Problem) -> str:
    """A problem the hand being edited makes in a later hand, naming the player when it has one."""
    if problem.seat is not None and problem.seat < len(form.view.names):
        return _(
            "Hand %(number)s would no longer fit: %(name)s: %(problem)s",
            number=problem.hand,
            name=form.view.names[problem.seat],
            problem=problem.message,
        )
    return _(
        "Hand %(number)s would no longer fit: %(problem)s",
        number=problem.hand,
        problem=problem.message,
    )
