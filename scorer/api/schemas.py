"""The API's JSON, declared once: the bodies it reads and the documents it answers with.

These pydantic declarations are checked on every request and answer, and the OpenAPI document is
generated from them (scorer.api.openapi). They check JSON types and shapes only. Whatever is a
rule of the game (how many players, which modes and cards exist, what a deck can hold, whose cards
are counted) is left to scorer.scoring and the services, exactly as for the HTML forms, so it is
refused in the same words; the bounds those rules set appear here only as documentation
(`json_schema_extra`), never as a second check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
)
from pydantic.dataclasses import dataclass as declared
from pydantic_core import ErrorDetails, PydanticCustomError

from .. import scoring
from ..field_rules import ID_MAX, NAME_MAX_LENGTH, TEAM_NAME_MAX_LENGTH, is_id
from ..services.hands import HandEntry
from ..services.snapshots import GameSnapshot

ErrorsByField = dict[str, list[str]]
# No field the API does not know; and with the Strict types below, JSON as it is: no "500" for
# 500, no 1.0 for 1, no true for 1.
STRICT = ConfigDict(extra="forbid")
MODES = [mode.value for mode in scoring.Mode]


class Invalid(Exception):
    """A request body the API cannot use; `errors` holds messages by field."""

    def __init__(self, errors: ErrorsByField):
        super().__init__("; ".join(f"{key}: {' '.join(value)}" for key, value in errors.items()))
        self.errors = errors


def page_limit(text: str | None) -> int | None:
    """The `limit` query parameter: a whole number of rows; Invalid otherwise."""
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 6 or int(text) < 1:
        raise Invalid({"limit": [_("Must be a whole number, at least 1.")]})
    return int(text)


def _storable(value: str) -> str:
    # Only what no database can store; control characters in a name are the rules' to refuse.
    if "\x00" in value:
        raise PydanticCustomError("text", _("Must not contain NUL characters."))
    if any("\ud800" <= char <= "\udfff" for char in value):  # lone surrogates
        raise PydanticCustomError("text", _("Must be valid Unicode text."))
    return value


def _player_key(key: object) -> int:
    # Only the canonical spelling, so "7" and "07" cannot both count one player.
    if (
        isinstance(key, str)
        and key.isascii()
        and key.isdigit()
        and key == str(int(key))
        and is_id(int(key))
    ):
        return int(key)
    raise PydanticCustomError("player_key", _('Counts are keyed by player id, like "12".'))


Int = Annotated[int, Strict()]
Text = Annotated[str, Strict(), AfterValidator(_storable)]
MODE_SCHEMA = WithJsonSchema({"type": "string", "enum": MODES})
PlayerName = Annotated[
    Text, WithJsonSchema({"type": "string", "pattern": "\\S", "maxLength": NAME_MAX_LENGTH})
]
TeamName = Annotated[Text, WithJsonSchema({"type": "string", "maxLength": TEAM_NAME_MAX_LENGTH})]
PlayerKey = Annotated[int, BeforeValidator(_player_key)]
CardName = Annotated[
    str, Strict(), WithJsonSchema({"type": "string", "enum": sorted(scoring.CARD_TOKENS)})
]
Whole = Annotated[int, Field(ge=0)]
Id = Annotated[Int, Field(ge=1, le=ID_MAX)]


# Bodies ------------------------------------------------------------------------------------------


class DeckInput(BaseModel):
    """The deck a new game plays with; a field left out keeps the default deck's."""

    model_config = STRICT

    copies: Annotated[
        Int,
        Field(
            description="1, or 2 decks shuffled together (every count doubles).",
            json_schema_extra={"enum": list(scoring.DECK_COPIES)},
        ),
    ] = scoring.DEFAULT_DECK.copies
    blanks: Annotated[
        Int,
        Field(
            description="Blank cards per deck: 0 (the classic 108 cards) or 4 (the retail 112).",
            json_schema_extra={"enum": list(scoring.DECK_BLANKS)},
        ),
    ] = scoring.DEFAULT_DECK.blanks
    blank_value: Annotated[
        Int,
        Field(
            description="Points a blank card scores.",
            json_schema_extra={"minimum": 0, "maximum": scoring.MAX_BLANK_VALUE},
        ),
    ] = scoring.DEFAULT_DECK.blank_value

    def deck(self) -> scoring.Deck:
        return scoring.Deck(self.copies, self.blanks, self.blank_value)


@declared(frozen=True, config=STRICT)
class GameInput:
    """A new game: names in seat order, the mode and target, and who deals first."""

    mode: Annotated[Text, MODE_SCHEMA]
    players: Annotated[
        list[PlayerName],
        Field(
            description="Names in seat order; names not on the roster join it.",
            json_schema_extra={
                "minItems": scoring.MIN_PLAYERS,
                "maxItems": scoring.MAX_PLAYERS,
                "uniqueItems": True,
            },
        ),
    ]
    target: Annotated[Int, Field(le=ID_MAX, json_schema_extra={"minimum": 1})] = (
        scoring.DEFAULT_TARGET
    )
    first_dealer: Annotated[
        Int,
        Field(
            description="Seat index (0-based) of the player who deals the first hand.",
            json_schema_extra={"minimum": 0, "maximum": scoring.MAX_PLAYERS - 1},
        ),
    ] = 0
    teams: Annotated[
        list[TeamName],
        Field(
            description="Partners only: team names in team order (seat i with seat i + n/2), at "
            "most one a team; a blank name keeps the players' names. Sent with another mode, or "
            "more than the teams, they are refused."
        ),
    ] = Field(default_factory=list)
    deck: Annotated[
        DeckInput, Field(description="The deck in play; left out, the retail deck of 112 cards.")
    ] = Field(default_factory=DeckInput)
    hand_limit: Annotated[
        Int | None,
        Field(
            description="How many hands the game lasts (1 is the single-round game); null or "
            "left out, it is played to its target (individual play: 12 hands). After the last "
            "hand the most points win, in challenge games the fewest among the players not out.",
            json_schema_extra={"minimum": 1, "maximum": scoring.MAX_HANDS},
        ),
    ] = None


class Count(BaseModel):
    """What was counted in one player's hand: the cards, or a typed total."""

    # Both or neither is for the rules to refuse, in the same words as on the tally pad.
    model_config = STRICT | ConfigDict(
        json_schema_extra={"oneOf": [{"required": ["cards"]}, {"required": ["points"]}]},
    )

    cards: list[CardName] | None = None
    points: Annotated[Int, Field(json_schema_extra={"minimum": 0})] | None = None


class HandBody(BaseModel):
    """A hand as posted: who went out and the counts, both by roster player id."""

    model_config = STRICT

    went_out: Int | None = Field(None, description="Player id of who went out.")
    counts: dict[PlayerKey, Count] = Field(
        default_factory=dict,
        description="Counts by player id, for every player whose cards are counted.",
        json_schema_extra={"propertyNames": {"pattern": "^[1-9][0-9]*$"}},
    )
    number: Id | None = Field(
        None, description="The hand number expected; a different one is a conflict (409)."
    )


@dataclass(frozen=True)
class HandInput:
    """A hand as the API read it: who went out and the counts, both by roster player id."""

    went_out: int | None
    counts: dict[int, scoring.Count]
    number: int | None = None


# Documents ---------------------------------------------------------------------------------------


class Document(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GamePlayer(Document):
    id: int = Field(description="Roster player id.")
    name: str
    seat: Whole
    score: Whole = Field(description="Own total; in partners the team's.")
    to_target: Whole = Field(description="Target minus score, never below 0.")
    eliminated: bool
    team: str | None
    hands_won: Whole = Field(description="Hands this player went out in.")
    against: dict[str, Whole] | None = Field(
        description="Individual play only (else null): the points this player has scored against "
        "each other player, by that player's id.",
        json_schema_extra={"propertyNames": {"pattern": "^[1-9][0-9]*$"}},
    )


class Team(Document):
    name: str
    players: list[str]
    score: Whole
    to_target: Whole


class HandResult(Document):
    number: Id
    went_out: str
    counts: dict[str, Whole] = Field(description="Points counted by player name.")
    points: Whole | None = Field(
        description="What the side that went out gained; null in challenge games."
    )


class Deck(Document):
    copies: Annotated[int, Field(json_schema_extra={"enum": list(scoring.DECK_COPIES)})]
    blanks: Annotated[
        int,
        Field(
            description="Blank cards per deck.",
            json_schema_extra={"enum": list(scoring.DECK_BLANKS)},
        ),
    ]
    blank_value: Annotated[int, Field(ge=0, le=scoring.MAX_BLANK_VALUE)]


class Winner(Document):
    name: str
    players: list[str]


class Game(Document):
    id: int
    mode: Annotated[str, MODE_SCHEMA]
    target: Annotated[int, Field(ge=1)]
    deck: Deck
    status: Literal["in_progress", "finished"]
    hand_limit: Annotated[int, Field(ge=1)] | None = Field(
        description="Hands a game of fixed length lasts (individual play: 12); null for a game "
        "played to its target."
    )
    winner: Winner | None = Field(description="Null before the end, or when the win is shared.")
    shared: list[Winner] = Field(
        description="Who shares the win of a game of fixed length that ended level; else empty."
    )
    dealer: str = Field(description="Who deals the next hand.")
    hand_count: Whole
    players: list[GamePlayer]
    teams: list[Team]
    hands: list[HandResult]


class Player(Document):
    id: int
    name: str
    games: Whole
    wins: Whole


class PlayerList(Document):
    players: list[Player]
    next: str | None = Field(
        description="Pass as `cursor` for the players after these; null on the last page."
    )


class GameSummary(Document):
    id: int
    mode: Annotated[str, MODE_SCHEMA]
    status: Literal["in_progress", "finished", "abandoned"]
    players: list[str] = Field(description="Names in seat order.")
    hand_count: Whole
    created_at: str = Field(description="When the game was started, UTC, ISO 8601.")


class GameList(Document):
    games: list[GameSummary]
    next: str | None = Field(
        description="Pass as `cursor` for the games after these; null on the last page."
    )


class Errors(Document):
    errors: dict[str, Annotated[list[str], Field(min_length=1)]] = Field(
        description='Messages by field: a body field, "counts.<player id>", "deck.<field>", '
        '"hand" for the hand as a whole, or "body".'
    )


class Message(Document):
    message: str
    game: Game | None = Field(None, description="The game as it stands now (409 only).")


GAME_INPUT = TypeAdapter(GameInput)


# Reading -----------------------------------------------------------------------------------------


def game_input(body: object) -> GameInput:
    """The new game in `body`; Invalid, with every type error by field, when it cannot be one."""
    try:
        return GAME_INPUT.validate_python(body)
    except ValidationError as error:
        raise Invalid(_errors(error)) from None


def hand_input(body: object) -> HandInput:
    """The hand in `body`; Invalid, with every type error by field, when it cannot be one."""
    try:
        hand = HandBody.model_validate(body)
    except ValidationError as error:
        raise Invalid(_errors(error)) from None
    counts = {
        player_id: scoring.Count(
            cards=None if count.cards is None else tuple(count.cards), points=count.points
        )
        for player_id, count in hand.counts.items()
    }
    return HandInput(hand.went_out, counts, hand.number)


def hand_entry(view: GameSnapshot, hand: HandInput) -> HandEntry:
    """The hand by seat, as the services take it; Invalid for a player id not in this game."""
    seats = {seat.player_id: seat.position for seat in view.game.seats}
    errors: ErrorsByField = {}
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
    return _("Player %(id)s does not play in this game.", id=player_id)


# Body fields whose own fields are reported one by one, as "counts.<player id>" or "deck.copies".
NESTED = ("counts", "deck")
# Messages by pydantic's error type; "%(...)s" is filled from the error's context.
MESSAGES = {
    "missing": _l("This field is required."),
    "extra_forbidden": _l("Unknown field."),
    "unexpected_keyword_argument": _l("Unknown field."),
    "string_type": _l("Must be text."),
    "int_type": _l("Must be a whole number."),
    "list_type": _l("Must be a list."),
    "dict_type": _l("Must be an object."),
    "model_type": _l("Must be an object."),
    "dataclass_type": _l("Must be an object."),
    "greater_than_equal": _l("Must be at least %(ge)s."),
    "less_than_equal": _l("Must be at most %(le)s."),
}


def _errors(error: ValidationError) -> ErrorsByField:
    """Messages by API field: the body field, or "counts.<key>" for anything within a count."""
    errors: ErrorsByField = {}
    for detail in error.errors(include_url=False):
        loc = detail["loc"]
        if not loc:
            key, message = "body", _("Send a JSON object.")
        else:
            key = f"{loc[0]}.{loc[1]}" if loc[0] in NESTED and len(loc) > 1 else str(loc[0])
            message = _message(detail)
            if len(loc) > 2 and loc[0] == "counts" and loc[2] != "[key]":
                message = _('"%(key)s": %(problem)s', key=loc[2], problem=message)
        if message not in errors.setdefault(key, []):
            errors[key].append(message)
    return errors


def _message(detail: ErrorDetails) -> str:
    template = MESSAGES.get(detail["type"])
    return str(template) % detail.get("ctx", {}) if template else detail["msg"]
