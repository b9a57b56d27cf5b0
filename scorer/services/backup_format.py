"""The backup file, declared once: what `backup.export_all` writes and `backup.import_all` reads.

Each entry's fields, their types and their limits (the names' rules come from scorer.field_rules, as
on the forms) are checked here; a problem is reported with where it is in the file, as
"games[2].hands[0].counts[1].seat: expected a seat, found 'x'". What needs more than one entry
(an id used twice, a seat for an unknown player, a hand the rules refuse) is checked by the
restore itself. Fields added to the format after its first files have defaults, so those files
read as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from flask_babel import gettext as _
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from .. import scoring
from ..field_rules import (
    FIRST_YEAR,
    ID_MAX,
    LAST_YEAR,
    LEAGUE_NAME,
    PLAYER_NAME,
    TEAM_NAME,
    NameRule,
    clean_name,
    is_id,
)
from ..scoring.words import N_
from .hands import LAST_CARDS
from .leagues import FORMATS

FORMAT = "uno-scorer"
VERSION = 1


# How much of a value a refusal quotes: enough to find it in the file, not a whole page of it.
QUOTED_MAX = 40


def quoted(value: Any) -> str:
    """`value` as the file has it, cut short when long."""
    text = repr(value)
    return text if len(text) <= QUOTED_MAX else text[: QUOTED_MAX - 1] + "…"


def _expect(say: Callable[[str], str], valid: Callable[[Any], bool]) -> BeforeValidator:
    """Refuse a value that is not valid, saying (`say`, told what was found) what was expected
    and what was found instead: a whole sentence, in the reader's language."""

    def check(value: Any) -> Any:
        if not valid(value):
            raise _problem("expected", say(quoted(value)))
        return value

    return BeforeValidator(check)


def _problem(kind: str, message: str) -> PydanticCustomError:
    return PydanticCustomError(kind, "{message}", {"message": message})


def _one_of(values: list[str]) -> BeforeValidator:
    """Refuse anything but one of `values`, naming them as "a, b or c"."""
    return _expect(
        lambda found: _(
            "expected %(values)s or %(last)s, found %(found)s",
            values=", ".join(values[:-1]),
            last=values[-1],
            found=found,
        ),
        lambda value: isinstance(value, str) and value in values,
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _named(rule: NameRule, exact: bool = False) -> AfterValidator:
    """A name as the forms would take it, stored as they store it; `exact`: and written so
    already (a player's name, which is also their roster key)."""

    def check(name: str) -> str:
        problem = rule.stored_problem(name)
        if problem is None and exact and clean_name(name) != name:
            problem = _(
                "not written as the app stores names (extra spaces, invisible characters "
                "or full-width letters)"
            )
        if problem:
            raise _problem("name", problem)
        return clean_name(name)

    return AfterValidator(check)


def _moment(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str):
        raise _problem(
            "moment",
            _("expected an ISO 8601 date and time, found %(found)s", found=quoted(value)),
        )
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise _problem(
            "moment", _("%(found)s is not an ISO 8601 date and time", found=quoted(value))
        ) from None
    try:
        # Stored as UTC without a zone; a time given with another offset is converted.
        moment = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    except OverflowError:
        moment = datetime.min  # past year 1 or 9999 once in UTC: out of bounds below
    if not FIRST_YEAR <= moment.year <= LAST_YEAR:
        raise _problem(
            "moment",
            _(
                "must be from %(first)s to %(last)s, found %(found)s",
                first=FIRST_YEAR,
                last=LAST_YEAR,
                found=quoted(value),
            ),
        )
    return moment


def _timestamp(moment: datetime) -> str:
    return moment.replace(tzinfo=UTC).isoformat()


def _last_card(card: str) -> str:
    if card not in LAST_CARDS:
        raise _problem("last_card", _("one of %(cards)s, or null", cards=", ".join(LAST_CARDS)))
    return card


def _deck(setting: str) -> AfterValidator:
    """A deck setting a new game could have, judged by the rules with the others at defaults."""

    def check(value: int) -> int:
        for problem in scoring.deck_problems(replace(scoring.DEFAULT_DECK, **{setting: value})):
            raise _problem("deck", problem.message)
        return value

    return AfterValidator(check)


T = TypeVar("T")
E = TypeVar("E", bound="Entry")
GAME_KEY = re.compile(r"[A-Za-z0-9_-]{1,32}")
Listed = Annotated[
    list[T],
    _expect(
        lambda found: _("expected a list, found %(found)s", found=found),
        lambda value: isinstance(value, list),
    ),
]
# A date and time in UTC, written in ISO 8601 with its offset; read with any offset.
Moment = Annotated[
    datetime,
    PlainValidator(_moment),
    PlainSerializer(_timestamp),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
# Every number is bounded by what an integer column holds (ID_MAX) or by the rules' own bounds.
Whole = Annotated[
    int,
    _expect(lambda found: _("expected a whole number, found %(found)s", found=found), _is_int),
    Field(ge=0, le=ID_MAX),
]
Positive = Annotated[
    int,
    _expect(lambda found: _("expected a whole number, found %(found)s", found=found), _is_int),
    Field(ge=1, le=ID_MAX),
]
Target = Annotated[
    int,
    _expect(lambda found: _("expected a whole number, found %(found)s", found=found), _is_int),
    Field(ge=0, le=scoring.MAX_TARGET),
]
LeagueTarget = Annotated[
    int,
    _expect(lambda found: _("expected a whole number, found %(found)s", found=found), _is_int),
    Field(ge=1, le=scoring.MAX_TARGET),
]
RowId = Annotated[
    int,
    _expect(
        lambda found: _("expected a whole number above 0, found %(found)s", found=found), is_id
    ),
]
Seat = Annotated[
    int, _expect(lambda found: _("expected a seat, found %(found)s", found=found), _is_int)
]
Side = Annotated[
    int, _expect(lambda found: _("expected a side, found %(found)s", found=found), _is_int)
]
HandNumber = Annotated[
    int, _expect(lambda found: _("expected a hand number, found %(found)s", found=found), _is_int)
]
Points = Annotated[
    int,
    _expect(
        lambda found: _("expected a whole number or null, found %(found)s", found=found), _is_int
    ),
    Field(le=ID_MAX),
]
PlayerRef = Annotated[
    int, _expect(lambda found: _("expected a player id, found %(found)s", found=found), _is_int)
]
TeamRef = Annotated[
    int, _expect(lambda found: _("expected a team id, found %(found)s", found=found), _is_int)
]
GameRef = Annotated[
    int,
    _expect(lambda found: _("expected a game id or null, found %(found)s", found=found), _is_int),
]
MODES = [mode.value for mode in scoring.Mode]
Mode = Annotated[str, _one_of(MODES)]
LeagueFormat = Annotated[str, _one_of(list(FORMATS))]
Text = Annotated[
    str,
    _expect(
        lambda found: _("expected a name, found %(found)s", found=found),
        lambda value: isinstance(value, str),
    ),
]
GameKey = Annotated[
    str,
    _expect(
        lambda found: _(
            "expected a game key (1 to 32 letters, digits, - or _) or null, found %(found)s",
            found=found,
        ),
        lambda value: isinstance(value, str) and GAME_KEY.fullmatch(value) is not None,
    ),
]
Cards = Annotated[
    list[str],
    _expect(
        lambda found: _("expected a list of cards or null, found %(found)s", found=found),
        lambda cards: isinstance(cards, list) and all(isinstance(c, str) and c for c in cards),
    ),
]
LastCard = Annotated[
    str,
    _expect(
        lambda found: _("expected a card or null, found %(found)s", found=found),
        lambda value: isinstance(value, str),
    ),
    AfterValidator(_last_card),
]
# A blank team name is stored as no name: a file writes it as null, or leaves the team out.
NAMED_TEAM = replace(TEAM_NAME, blank=N_("Team names cannot be blank."))


class Entry(BaseModel):
    # Fields a later scorer may add are ignored, as they were before the format was declared.
    model_config = ConfigDict(extra="ignore")


class PlayerEntry(Entry):
    id: RowId
    name: Annotated[Text, _named(PLAYER_NAME, exact=True)]
    created_at: Moment
    # Added to the format after its first files: missing means not archived.
    archived_at: Moment | None = None


class CountEntry(Entry):
    seat: Seat
    cards: Cards | None
    points: Points | None

    @model_validator(mode="after")
    def _cards_or_points(self) -> CountEntry:
        if (self.cards is None) == (self.points is None):
            raise _problem("count", _("give either cards or points"))
        return self


class HandEntry(Entry):
    number: HandNumber
    went_out: Seat
    last_card: LastCard | None
    created_at: Moment
    updated_at: Moment
    counts: Listed[CountEntry]


class TeamEntry(Entry):
    side: Side
    name: Annotated[Text, _named(NAMED_TEAM)]


class GameEntry(Entry):
    id: RowId
    mode: Mode
    target: Target
    first_dealer: Whole
    # Files from before games chose their deck have the default deck, as their games had.
    deck_copies: Annotated[Whole, _deck("copies")] = scoring.DEFAULT_DECK.copies
    blanks: Annotated[Whole, _deck("blanks")] = scoring.DEFAULT_DECK.blanks
    blank_value: Annotated[Whole, _deck("blank_value")] = scoring.DEFAULT_DECK.blank_value
    # Absent from backups made before games of fixed length: those all went to their target.
    hand_limit: Positive | None = None
    created_at: Moment
    updated_at: Moment
    finished_at: Moment | None
    # Set aside by the table (see services.cleanup); missing in backups made before abandoning.
    abandoned_at: Moment | None = None
    # What a phone's queued hands name the game by (Game.sync_key), so a restored game takes the
    # hands its phones kept. Missing in backups made before, and for games made before keys.
    sync_key: GameKey | None = None
    version: Whole
    rematch_of: GameRef | None
    seats: Listed[PlayerRef]
    teams: Listed[TeamEntry]
    hands: Listed[HandEntry]


class LeagueTeamEntry(Entry):
    id: RowId
    players: Listed[PlayerRef]
    name: Annotated[Text, _named(NAMED_TEAM)] | None


class FixtureEntry(Entry):
    id: RowId
    round: Positive
    table: Positive
    home: TeamRef
    away: TeamRef
    game: GameRef | None


class SeasonEntry(Entry):
    number: Positive
    legs: Positive
    created_at: Moment
    fixtures: Listed[FixtureEntry]


class LeagueEntry(Entry):
    id: RowId
    name: Annotated[Text, _named(LEAGUE_NAME)]
    format: LeagueFormat
    mode: Mode
    target: LeagueTarget
    created_at: Moment
    teams: Listed[LeagueTeamEntry]
    seasons: Listed[SeasonEntry]


class Backup(Entry):
    """A whole backup file: format "uno-scorer", version 1."""

    format: Annotated[str, Field(json_schema_extra={"const": FORMAT})] = FORMAT
    version: Annotated[int, Field(json_schema_extra={"const": VERSION})] = VERSION
    exported_at: Moment | None = None
    players: Listed[PlayerEntry]
    games: Listed[GameEntry]
    # Leagues came to the format after its first files: a file without them has none.
    leagues: Listed[LeagueEntry] = Field(default_factory=list)


class Unreadable(ValueError):
    """A file that does not hold together as a backup; the message says where."""


def read(data: dict[str, Any]) -> Backup:
    """The backup in `data`; Unreadable, naming the first problem and where it is, if not one."""
    try:
        return Backup.model_validate(data)
    except ValidationError as error:
        raise Unreadable(_message(error.errors(include_url=False)[0])) from None


def read_entry(model: type[E], value: object, where: tuple[int | str, ...] = ()) -> E:
    """One entry of a backup read on its own, `where` being its place in the file (as
    ("games", 2)); Unreadable, naming the first problem and where it is, if not one."""
    try:
        return model.model_validate(value)
    except ValidationError as error:
        detail = error.errors(include_url=False)[0]
        detail["loc"] = (*where, *detail["loc"])
        raise Unreadable(_message(detail)) from None


def _message(detail: ErrorDetails) -> str:
    loc = detail["loc"]
    if detail["type"] == "missing":
        where, key = _where(loc[:-1]), loc[-1]
        if where:
            return _("%(where)s: %(key)s is missing.", where=where, key=key)
        return _("%(key)s is missing.", key=key)
    where = _where(loc) or _("The backup")
    if detail["type"] in ("model_type", "model_attributes_type", "dict_type"):
        return _("%(where)s: expected an object.", where=where)
    if detail["type"] == "greater_than_equal":
        return _("%(where)s: must be at least %(ge)s.", where=where, ge=detail.get("ctx", {})["ge"])
    if detail["type"] == "less_than_equal":
        return _("%(where)s: must be at most %(le)s.", where=where, le=detail.get("ctx", {})["le"])
    message = detail["msg"]
    if message.endswith("."):
        return _("%(where)s: %(problem)s", where=where, problem=message)
    return _("%(where)s: %(problem)s.", where=where, problem=message)


def _where(loc: tuple[int | str, ...]) -> str:
    """A place in the file, as "games[2].hands[0].seat"."""
    where = ""
    for part in loc:
        where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else str(part)
    return where
