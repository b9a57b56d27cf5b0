"""Reading request bodies: JSON types and shapes are checked here; game rules are not.

Whatever is a rule of the game (how many players, which cards exist, what a deck can hold, whose
cards are counted) is left to scorer.scoring and the services, exactly as for the HTML forms. This
module only turns JSON into the values the services take, and player ids into seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .. import scoring
from ..models import ID_MAX
from ..services.hands import HandEntry
from ..services.snapshots import GameSnapshot

# The largest whole number the database's integer columns hold (ids, targets).
INT_MAX = ID_MAX

GAME_FIELDS = frozenset({"mode", "players", "target", "first_dealer", "teams"})
HAND_FIELDS = frozenset({"went_out", "counts", "number"})
COUNT_FIELDS = frozenset({"cards", "points"})

Errors = dict[str, list[str]]


class Invalid(Exception):
    """A request body the API cannot use; `errors` holds messages by field."""

    def __init__(self, errors: Errors):
        super().__init__("; ".join(f"{key}: {' '.join(value)}" for key, value in errors.items()))
        self.errors = errors


@dataclass(frozen=True)
class GameInput:
    """A new game as the services take it: names in seat order, seat of the first dealer."""

    mode: str
    players: list[str]
    target: int = scoring.DEFAULT_TARGET
    first_dealer: int = 0
    teams: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class HandInput:
    """A hand as posted: who went out and the counts, both by roster player id."""

    went_out: int | None
    counts: dict[int, scoring.Count]
    number: int | None = None


def game_input(body: object) -> GameInput:
    """The new game in `body`; Invalid when a field has the wrong type."""
    reader = _Reader(body, GAME_FIELDS)
    mode = reader.text("mode", required=True)
    players = reader.texts("players", "a list of names", required=True)
    target = reader.whole("target", maximum=INT_MAX)
    first_dealer = reader.whole("first_dealer")
    teams = reader.texts("teams", "a list of team names")
    reader.done()
    return GameInput(
        mode=mode or "",
        players=players or [],
        target=scoring.DEFAULT_TARGET if target is None else target,
        first_dealer=0 if first_dealer is None else first_dealer,
        teams=teams or [],
    )


def hand_input(body: object) -> HandInput:
    """The hand in `body`; Invalid when a field has the wrong type."""
    reader = _Reader(body, HAND_FIELDS)
    went_out = reader.whole("went_out", what="a player id (a whole number)")
    number = reader.whole(
        "number", what="a hand number (a whole number)", minimum=1, maximum=INT_MAX
    )
    counts: dict[int, scoring.Count] = {}
    raw_counts = reader.value("counts")
    if raw_counts is not None and not isinstance(raw_counts, Mapping):
        reader.add("counts", "Must be an object of counts by player id.")
    elif raw_counts is not None:
        for key, raw in raw_counts.items():
            player_id = _player_id(key)
            if player_id is None:
                reader.add(f"counts.{key}", 'Counts are keyed by player id, like "12".')
                continue
            count = _count(reader, f"counts.{key}", raw)
            if count is not None:
                counts[player_id] = count
    reader.done()
    return HandInput(went_out, counts, number)


def hand_entry(view: GameSnapshot, hand: HandInput) -> HandEntry:
    """The hand by seat, as the services take it; Invalid for a player id not in this game."""
    seats = {seat.player_id: seat.position for seat in view.game.seats}
    errors: Errors = {}
    if hand.went_out is not None and hand.went_out not in seats:
        errors["went_out"] = [_not_playing(hand.went_out)]
    for player_id in hand.counts:
        if player_id not in seats:
            errors[f"counts.{player_id}"] = [_not_playing(player_id)]
    if errors:
        raise Invalid(errors)
    went_out = None if hand.went_out is None else seats[hand.went_out]
    counts = {seats[player_id]: count for player_id, count in hand.counts.items()}
    return HandEntry(went_out, counts)


def _not_playing(player_id: int) -> str:
    return f"Player {player_id} does not play in this game."


def _player_id(key: str) -> int | None:
    # Only the canonical spelling, so "7" and "07" cannot both count one player.
    if key.isascii() and key.isdigit() and key == str(int(key)) and 0 < int(key) <= INT_MAX:
        return int(key)
    return None


def _count(reader: _Reader, key: str, raw: object) -> scoring.Count | None:
    if not isinstance(raw, Mapping):
        reader.add(key, 'Must be an object: {"cards": [...]} or {"points": 37}.')
        return None
    problems = [f"Unknown field {name!r}." for name in raw if name not in COUNT_FIELDS]
    cards = raw.get("cards")
    points = raw.get("points")
    if cards is not None and not (
        isinstance(cards, list) and all(isinstance(card, str) for card in cards)
    ):
        problems.append('"cards" must be a list of card names, like ["7", "skip", "wild"].')
    if points is not None and not _is_whole(points):
        problems.append('"points" must be a whole number, like 37.')
    if problems:
        for problem in problems:
            reader.add(key, problem)
        return None
    # Both or neither given is for the rules to refuse, in the same words as on the tally pad.
    return scoring.Count(cards=None if cards is None else tuple(cards), points=points)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text_problem(value: str) -> str | None:
    """Why a string cannot be stored as it is, or None."""
    if "\x00" in value:
        return "Must not contain NUL characters."
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "Must be valid Unicode text."
    return None


class _Reader:
    """Collects every type error in one JSON object before giving up."""

    def __init__(self, body: object, fields: frozenset[str]):
        self.errors: Errors = {}
        if isinstance(body, Mapping):
            self.body: Mapping[str, object] = body
            for name in body:
                if name not in fields:
                    self.add(name, "Unknown field.")
        else:
            self.body = {}
            self.add("body", "Send a JSON object.")

    def add(self, key: str, message: str) -> None:
        self.errors.setdefault(key, []).append(message)

    def value(self, name: str, required: bool = False) -> object:
        value = self.body.get(name)
        if value is None and required and "body" not in self.errors:
            self.add(name, "This field is required.")
        return value

    def text(self, name: str, required: bool = False) -> str | None:
        value = self.value(name, required)
        if value is None:
            return None
        if not isinstance(value, str):
            self.add(name, "Must be text.")
            return None
        problem = _text_problem(value)
        if problem:
            self.add(name, problem)
            return None
        return value

    def texts(self, name: str, what: str, required: bool = False) -> list[str] | None:
        value = self.value(name, required)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self.add(name, f"Must be {what}.")
            return None
        problems = list(dict.fromkeys(filter(None, map(_text_problem, value))))
        for problem in problems:
            self.add(name, problem)
        return None if problems else value

    def whole(
        self,
        name: str,
        what: str = "a whole number",
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int | None:
        value = self.value(name)
        if value is None:
            return None
        if not _is_whole(value):
            self.add(name, f"Must be {what}.")
            return None
        assert isinstance(value, int)
        if minimum is not None and value < minimum:
            self.add(name, f"Must be at least {minimum}.")
            return None
        if maximum is not None and value > maximum:
            self.add(name, f"Must be at most {maximum}.")
            return None
        return value

    def done(self) -> None:
        if self.errors:
            raise Invalid(self.errors)
