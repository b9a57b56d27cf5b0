"""The OpenAPI 3.1 document of /api/v1, served at /api/v1/openapi.json.

The schemas of bodies and documents are generated from their declarations in scorer.api.schemas,
so the document cannot drift from what the API checks and sends; the paths are a short table.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, models_json_schema

from ..field_rules import ID_MAX
from ..services import pages
from . import schemas

JSON = "application/json"
REF = "#/components/schemas/{model}"
BODIES: dict[str, TypeAdapter[Any]] = {
    "NewGame": schemas.GAME_INPUT,
    "HandInput": TypeAdapter(schemas.HandBody),
}
DOCUMENTS: list[type[BaseModel]] = [
    schemas.Game,
    schemas.Player,
    schemas.PlayerList,
    schemas.GameList,
    schemas.Errors,
    schemas.Message,
]


class _Schema(GenerateJsonSchema):
    """JSON Schema without the titles pydantic derives from names: the names say it already."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def generate(self, schema: Any, mode: JsonSchemaMode = "validation") -> dict[str, Any]:
        generated = super().generate(schema, mode)
        generated.pop("title", None)
        return generated


def _components() -> dict[str, Any]:
    _, documents = models_json_schema(
        [(model, "serialization") for model in DOCUMENTS],
        ref_template=REF,
        schema_generator=_Schema,
    )
    found: dict[str, Any] = documents["$defs"]
    for name, adapter in BODIES.items():
        body = adapter.json_schema(ref_template=REF, schema_generator=_Schema)
        found.update(body.pop("$defs", {}))
        found[name] = body
    for schema in found.values():
        schema.pop("title", None)
    return found


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str, **extra: Any) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}, **extra}


def _id(name: str, what: str) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": 1, "maximum": ID_MAX}
    return {"name": name, "in": "path", "required": True, "description": what, "schema": schema} | {
        "example": 1
    }


RESPONSES: dict[str, Any] = {
    "Game": _json(_ref("Game"), "The game document."),
    "BadRequest": _json(_ref("Message"), "The body is not valid JSON."),
    "NotFound": _json(_ref("Message"), "No such game, hand or player."),
    "Conflict": _json(
        _ref("Message"),
        "The game has moved on: the hand was already recorded, the game is over, or the hand is "
        "no longer the last.",
    ),
    "TooLarge": _json(_ref("Message"), "The body is too large."),
    "UnsupportedMediaType": _json(_ref("Message"), "The body must be sent as application/json."),
    "Invalid": _json(_ref("Errors"), "The rules or the types refuse the input."),
}
CODES = {
    "BadRequest": "400",
    "NotFound": "404",
    "Conflict": "409",
    "TooLarge": "413",
    "UnsupportedMediaType": "415",
    "Invalid": "422",
}
WRITE_ERRORS = ("BadRequest", "TooLarge", "UnsupportedMediaType", "Invalid")


def _operation(
    name: str, summary: str, ok: tuple[str, Any], *errors: str, body: str | None = None
) -> dict[str, Any]:
    """An operation answering `ok` (status, response) or one of the named error responses."""
    status, response = ok
    responses = {status: response} | {
        CODES[error]: {"$ref": f"#/components/responses/{error}"} for error in errors
    }
    operation = {"operationId": name, "summary": summary, "responses": responses}
    if body is not None:
        operation["requestBody"] = {"required": True, "content": {JSON: {"schema": _ref(body)}}}
    return operation


GAME = {"$ref": "#/components/responses/Game"}
PAGE_PARAMETERS = [
    {
        "name": "limit",
        "in": "query",
        "required": False,
        "description": f"How many to answer with: {pages.PAGE_SIZE} when left out, "
        f"at most {pages.MAX_PAGE_SIZE} whatever is asked.",
        "schema": {"type": "integer", "minimum": 1},
    },
    {
        "name": "cursor",
        "in": "query",
        "required": False,
        "description": "The `next` of the page before; left out for the first page.",
        "schema": {"type": "string"},
    },
]
SEARCH = {
    "name": "q",
    "in": "query",
    "required": False,
    "description": "Only names that contain this, ignoring case and width.",
    "schema": {"type": "string", "maxLength": pages.SEARCH_MAX_LENGTH},
}
GAME_ID = _id("game_id", "Game id.")
LOCATION = {"description": "The game's address.", "required": True, "schema": {"type": "string"}}

PATHS: dict[str, Any] = {
    "/api/v1/openapi.json": {
        "get": _operation(
            "openapi", "This document.", ("200", _json({"type": "object"}, "The OpenAPI document."))
        )
    },
    "/api/v1/games": {
        "get": _operation(
            "list_games",
            "Games, the newest first, a page at a time.",
            ("200", _json(_ref("GameList"), "A page of games.")),
            "Invalid",
        )
        | {"parameters": PAGE_PARAMETERS},
        "post": _operation(
            "create_game",
            "Start a game; new names join the roster.",
            ("201", _json(_ref("Game"), "The game was started.", headers={"Location": LOCATION})),
            *WRITE_ERRORS,
            body="NewGame",
        ),
    },
    "/api/v1/games/{game_id}": {
        "parameters": [GAME_ID],
        "get": _operation(
            "get_game",
            "A game with its players, teams, hands and standing.",
            ("200", GAME),
            "NotFound",
        ),
    },
    "/api/v1/games/{game_id}/hands": {
        "parameters": [GAME_ID],
        "post": _operation(
            "record_hand",
            "Record the next hand.",
            ("201", _json(_ref("Game"), "The hand was recorded.")),
            *WRITE_ERRORS,
            "NotFound",
            "Conflict",
            body="HandInput",
        ),
    },
    "/api/v1/games/{game_id}/hands/{number}": {
        "parameters": [GAME_ID, _id("number", "Hand number, from 1.")],
        "put": _operation(
            "edit_hand",
            "Replace a hand; every later hand must still fit the rules.",
            ("200", GAME),
            *WRITE_ERRORS,
            "NotFound",
            body="HandInput",
        ),
        "delete": _operation(
            "undo_hand", "Remove the last hand.", ("200", GAME), "NotFound", "Conflict"
        ),
    },
    "/api/v1/players": {
        "get": _operation(
            "list_players",
            "The roster by name, a page at a time.",
            ("200", _json(_ref("PlayerList"), "A page of roster players.")),
            "Invalid",
        )
        | {"parameters": [*PAGE_PARAMETERS, SEARCH]},
    },
    "/api/v1/players/{player_id}": {
        "parameters": [_id("player_id", "Roster player id.")],
        "get": _operation(
            "get_player",
            "One roster player with games played and won.",
            ("200", _json(_ref("Player"), "The player.")),
            "NotFound",
        ),
    },
}

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "UNO score keeper",
        "version": "1.0.0",
        "description": "Keeps score for UNO played with real cards. Writes take "
        "application/json; validation problems come back as 422 with messages by field.",
    },
    "paths": PATHS,
    "components": {"schemas": _components(), "responses": RESPONSES},
}
