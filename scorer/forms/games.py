"""Setting up a game: players in seat order, who deals first, mode, target and deck.

The form is its own state: every tap (add a player, move a seat, pick the dealer, pick a target)
posts it and gets it back changed, so setup works the same with htmx and as plain form posts.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectChoice, StringField  # type: ignore[attr-defined]  # types-WTForms lags: SelectChoice is new in WTForms 3.3
from wtforms.validators import AnyOf, InputRequired, NumberRange, Optional, ValidationError

from ..field_rules import (
    PLAYER_NAME,
    TEAM_NAME,
    already_playing,
    clean_name,
    duplicate_problems,
    name_key,
    name_problem,
    target_problem,
)
from ..scoring import (
    DEFAULT_DECK,
    DEFAULT_TARGET,
    MAX_BLANK_VALUE,
    MAX_HANDS,
    MAX_PLAYERS,
    MAX_TARGET,
    MIN_PLAYERS,
    Deck,
    Mode,
    Problem,
    Rules,
    setup_problems,
    target_words,
)
from .fields import IndexedList, WholeNumberField, add_error, attach, lazily

TARGET_PRESETS = (200, 300, 500)
# The words below are lazy: made once, at import, they are said in each request's own language.
MODE_LABELS = {
    Mode.STANDARD: _l("Standard"),
    Mode.PARTNERS: _l("Partners"),
    Mode.CHALLENGE: _l("Challenge"),
    Mode.INDIVIDUAL: _l("Individual"),
}
MODE_HINTS = {
    Mode.STANDARD: _l("Who goes out scores everyone's cards. First to the target wins."),
    Mode.PARTNERS: _l("Partners sit opposite and score together. First team to the target wins."),
    Mode.CHALLENGE: _l("Your own cards count against you. Reach the target and you are out."),
    Mode.INDIVIDUAL: _l(
        "Four players, 12 hands, a score against each other player. Most hands won wins."
    ),
}
# A seat tap (up, remove, dealer) that names no seat: only a forged or stale post sends one.
NO_SUCH_SEAT = _l("No player sits there. Nothing was changed.")
DECK_BLANKS_LABELS = {
    0: _l("Classic: 108 cards, no blanks"),
    4: _l("Retail: 112 cards, 4 blank cards"),
}
DECK_COPIES_LABELS = {1: _l("One deck"), 2: _l("Two decks shuffled together (big tables)")}
BLANK_VALUE_MESSAGE = _l("Type the points a blank card scores, 0 to %(max)s.", max=MAX_BLANK_VALUE)
# How long a game lasts: to the target, or a number of hands chosen (one is the single-round game).
TO_TARGET = "target"
BY_HANDS = "hands"
LENGTH_LABELS = {TO_TARGET: _l("To the target"), BY_HANDS: _l("A number of hands")}
DEFAULT_HANDS = 10
LENGTH_HINTS = {
    TO_TARGET: {
        "standard": _l("First to the target wins."),
        "challenge": _l("Play until one player is left."),
    },
    BY_HANDS: {
        "standard": _l(
            "After the last hand the most points win. One hand is the single-round game."
        ),
        "challenge": _l(
            "Reach the target and you are out; after the last hand the fewest points win."
        ),
    },
}
HANDS_MESSAGE = _l("Type how many hands, 1 to %(max)s.", max=MAX_HANDS)
# The rules' own words for a target refused, said when shown.
TARGET_MESSAGE = lazily(target_words)
# Partners teams are shown as Team A, Team B… in the order of their sides.
TEAM_LETTERS = string.ascii_uppercase


@dataclass(frozen=True)
class PartnersTeam:
    """One partners team as the seats make it: its letter, seats, players and name field."""

    letter: str
    seats: tuple[int, ...]
    players: tuple[str, ...]
    name: StringField


class SetupForm(FlaskForm):
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    mode = RadioField(
        _l("Mode"),
        choices=[SelectChoice(mode.value, label) for mode, label in MODE_LABELS.items()],
        default=Mode.STANDARD.value,
        validate_choice=False,
        validators=[
            AnyOf(
                [mode.value for mode in Mode],
                _l("Choose Standard, Partners, Challenge or Individual."),
            )
        ],
    )
    players = IndexedList(HiddenField(), label=_l("Players"))
    new_name = StringField(_l("Add a player"), description=lazily(lambda: PLAYER_NAME.hint))
    teams = IndexedList(
        StringField(description=lazily(lambda: TEAM_NAME.hint)), label=_l("Team names")
    )
    first_dealer = HiddenField(default="0")
    target = WholeNumberField(
        _l("Play to"),
        default=DEFAULT_TARGET,
        message=TARGET_MESSAGE,
        validators=[InputRequired(TARGET_MESSAGE), NumberRange(min=1, message=TARGET_MESSAGE)],
    )

    length = RadioField(
        _l("Length"),
        choices=[SelectChoice(value, label) for value, label in LENGTH_LABELS.items()],
        default=TO_TARGET,
        validate_choice=False,
        validators=[AnyOf(list(LENGTH_LABELS), _l("Choose to the target or a number of hands."))],
    )
    # Checked only when chosen (validate_hands): the box stays on the page with the other choice.
    hands = WholeNumberField(_l("Hands"), default=DEFAULT_HANDS, message=HANDS_MESSAGE)

    deck_blanks = RadioField(
        _l("Cards"),
        choices=[SelectChoice(value, label) for value, label in DECK_BLANKS_LABELS.items()],
        default=DEFAULT_DECK.blanks,
        coerce=int,
        validate_choice=False,
    )
    deck_copies = RadioField(
        _l("Decks"),
        choices=[SelectChoice(value, label) for value, label in DECK_COPIES_LABELS.items()],
        default=DEFAULT_DECK.copies,
        coerce=int,
        validate_choice=False,
    )
    # Left empty (or not sent, by a page from before decks), blanks keep the default value.
    blank_value = WholeNumberField(
        _l("A blank card scores"),
        default=DEFAULT_DECK.blank_value,
        message=BLANK_VALUE_MESSAGE,
        validators=[Optional()],
    )

    @property
    def deck(self) -> Deck:
        """The deck chosen; the rules judge it (scoring.deck_problems) when the game starts."""
        return Deck(
            copies=_or(self.deck_copies.data, DEFAULT_DECK.copies),
            blanks=_or(self.deck_blanks.data, DEFAULT_DECK.blanks),
            blank_value=_or(self.blank_value.data, DEFAULT_DECK.blank_value),
        )

    @property
    def by_hands(self) -> bool:
        """Whether the game is set to last a number of hands (individual play always does)."""
        return self.mode.data != Mode.INDIVIDUAL and self.length.data == BY_HANDS

    @property
    def hand_limit(self) -> int | None:
        """The number of hands chosen, or None for a game to the target (or individual play's
        own length)."""
        return self.hands.data if self.by_hands else None

    def validate_hands(self, field: WholeNumberField) -> None:
        if self.by_hands and (field.data is None or not 1 <= field.data <= MAX_HANDS):
            raise ValidationError(HANDS_MESSAGE)

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        if not self.by_hands and self.hands.errors:
            # Text left in the hands box of a game played to the target plays no part in it.
            self.hands.errors = []
            valid = not any(field.errors for field in self) and not self.form_errors
        return valid

    @property
    def deck_errors(self) -> bool:
        """Whether the deck's choice has an error to show (its part of the form then opens)."""
        return bool(self.deck_blanks.errors or self.deck_copies.errors or self.blank_value.errors)

    @property
    def names(self) -> list[str]:
        return [entry.data for entry in self.players if entry.data]

    @property
    def team_names(self) -> list[str]:
        """Names typed for the partners teams, in team order; blank where none was typed."""
        return [entry.data or "" for entry in self.teams]

    @property
    def dealer(self) -> int:
        try:
            dealer = int(self.first_dealer.data or 0)
        except ValueError:
            return 0
        return dealer if 0 <= dealer < len(self.names) else 0

    def partners_teams(self) -> list[PartnersTeam]:
        """The teams the seats make in a Partners game; none while the seats make no such game."""
        names = self.names
        if self.mode.data != Mode.PARTNERS or any(
            problem.field == "players"
            for problem in setup_problems(Mode.PARTNERS, len(names), DEFAULT_TARGET, 0)
        ):
            return []
        sides = Rules(Mode.PARTNERS, len(names)).sides
        # A team's name box exists before anything is typed in it, so it renders with its limits.
        while len(self.teams.entries) < len(sides):
            self.teams.append_entry("")
        return [
            PartnersTeam(
                letter=TEAM_LETTERS[side],
                seats=seats,
                players=tuple(names[seat] for seat in seats),
                name=self.teams.entries[side],
            )
            for side, seats in enumerate(sides)
        ]

    def team_letters(self) -> dict[int, str]:
        """The letter of the partners team each seat plays for, if the seats make such teams."""
        return {seat: team.letter for team in self.partners_teams() for seat in team.seats}

    def add_typed_name(self) -> bool:
        """Seat a name left in the name box, as Add would; False when it was refused."""
        if not (self.new_name.data or "").strip():
            return True
        return self.apply("add")

    def apply(self, action: str) -> bool:
        """Carry out one setup tap; False when it was refused and the form shows why."""
        verb, _, argument = action.partition(":")
        names = self.names
        dealer = self.dealer
        if verb == "add":
            if not self._can_add(self.new_name.data or "", names):
                return False
            names.append(clean_name(self.new_name.data or ""))
            self.new_name.data = ""
        elif verb == "new":
            # The answer to "Add new player Anne?": seated as typed, the box emptied.
            if not self._can_add(argument, names):
                return False
            names.append(clean_name(argument))
            self.new_name.data = ""
        elif verb == "pick":
            keys = [name_key(name) for name in names]
            # The name box filtered the roster to find this player; its text has done its job
            # and must not be seated as a player of its own when Start is tapped.
            self.new_name.data = ""
            if name_key(argument) in keys:
                index = keys.index(name_key(argument))
                names.pop(index)
                dealer = _after_removal(dealer, index)
            elif self._can_add(argument, names):
                names.append(clean_name(argument))
            else:
                return False
        elif verb in ("up", "remove", "dealer"):
            seat = _small_number(argument)
            if seat is None or not 0 <= seat < len(names):
                self.form_errors.append(NO_SUCH_SEAT)
                return False
            index = seat
            if verb == "up" and index > 0:
                names[index - 1], names[index] = names[index], names[index - 1]
                dealer = {index: index - 1, index - 1: index}.get(dealer, dealer)
            elif verb == "remove":
                names.pop(index)
                dealer = _after_removal(dealer, index)
            elif verb == "dealer":
                dealer = index
        elif verb == "target":
            target = _small_number(argument)
            problem = target_problem(target)
            if target is None and argument.isascii() and argument.isdigit():
                problem = target_problem(MAX_TARGET + 1)
            if problem:
                add_error(self.target, problem)
                return False
            self.target.data = target
            self.target.raw_data = [argument]
            self.target.errors = []
        self._set(names, dealer)
        return True

    def attach(self, problems: list[Problem]) -> None:
        attach(
            self,
            problems,
            {
                "players": self.new_name,
                "target": self.target,
                "hands": self.hands,
                "mode": self.mode,
                "first_dealer": self.new_name,
                "deck.copies": self.deck_copies,
                "deck.blanks": self.deck_blanks,
                "deck.blank_value": self.blank_value,
            },
        )

    def _can_add(self, name: str, names: list[str]) -> bool:
        problem = name_problem(name)
        if problem is None and len(names) >= MAX_PLAYERS:
            problem = _("A game has at most %(max)s players.", max=MAX_PLAYERS)
        if problem is None and duplicate_problems([*names, name]):
            problem = already_playing(name)
        if problem:
            add_error(self.new_name, problem)
            return False
        return True

    def _set(self, names: list[str], dealer: int) -> None:
        while len(self.players.entries):
            self.players.pop_entry()
        for name in names:
            self.players.append_entry(name)
        self.first_dealer.data = str(dealer if 0 <= dealer < len(names) else 0)


def _small_number(text: str) -> int | None:
    """`text` as a whole number if it is plain ASCII digits no longer than any seat or target
    needs, else None: int() alone takes "²" as a digit it then refuses, and thousands of digits
    past Python's limit."""
    if not text.isascii() or not text.isdigit() or len(text) > len(str(MAX_TARGET)):
        return None
    return int(text)


def _after_removal(dealer: int, removed: int) -> int:
    return dealer - 1 if removed < dealer else (0 if removed == dealer else dealer)


def _or(value: object, default: int) -> int:
    # A choice that could not be read is shown as refused by its field; the deck meanwhile is
    # the default one.
    return value if isinstance(value, int) else default
