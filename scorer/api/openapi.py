"""The OpenAPI 3.1 document of /api/v1, served at /api/v1/openapi.json.

Enumerations (modes, card names) and defaults come from scorer.scoring, so the document cannot drift
from the rules; field names are the API's contract and are written out here.
"""

from __future__ import annotations

from typing import Any

from .. import scoring
from ..limits import NAME_MAX_LENGTH
from .schemas import INT_MAX

JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str, **extra: Any) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}, **extra}


def _id(name: str, what: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": what,
        "schema": {"type": "integer", "minimum": 1, "maximum": INT_MAX},
        "example": 1,
    }


def _object(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


WHOLE = {"type": "integer", "minimum": 0}
NAMES = {"type": "array", "items": {"type": "string"}}

SCHEMAS: dict[str, Any] = {
    "NewGame": _object(
        {
            "mode": {"type": "string", "enum": [mode.value for mode in scoring.Mode]},
            "players": {
                "description": "Names in seat order; names not on the roster join it.",
                "type": "array",
                "items": {"type": "string", "pattern": "\\S", "maxLength": NAME_MAX_LENGTH},
                "minItems": scoring.MIN_PLAYERS,
                "maxItems": scoring.MAX_PLAYERS,
                "uniqueItems": True,
            },
            "target": {
                "type": "integer",
                "minimum": 1,
                "maximum": INT_MAX,
                "default": scoring.DEFAULT_TARGET,
            },
            "first_dealer": {
                "description": "Seat index (0-based) of the player who deals the first hand.",
                "type": "integer",
                "minimum": 0,
                "maximum": scoring.MAX_PLAYERS - 1,
                "default": 0,
            },
            "teams": {
                "description": "Partners only: team names in team order (seat i with seat "
                "i + n/2); a blank name keeps the players' names.",
                **NAMES,
            },
        },
        required=["mode", "players"],
    ),
    "Count": {
        "description": "What was counted in one player's hand: the cards, or a typed total.",
        "oneOf": [
            _object(
                {
                    "cards": {
                        "type": "array",
                        "items": {"type": "string", "enum": sorted(scoring.CARD_TOKENS)},
                    }
                }
            ),
            _object({"points": WHOLE}),
        ],
    },
    "HandInput": _object(
        {
            "went_out": {
                "description": "Player id of who went out.",
                "type": "integer",
                "minimum": 1,
            },
            "counts": {
                "description": "Counts by player id, for every player whose cards are counted.",
                "type": "object",
                "propertyNames": {"pattern": "^[1-9][0-9]*$"},
                "additionalProperties": _ref("Count"),
            },
            "number": {
                "description": "The hand number expected; a different one is a conflict (409).",
                "type": "integer",
                "minimum": 1,
                "maximum": INT_MAX,
            },
        },
        required=["went_out", "counts"],
    ),
    "GamePlayer": _object(
        {
            "id": {"type": "integer", "description": "Roster player id."},
            "name": {"type": "string"},
            "seat": WHOLE,
            "score": {**WHOLE, "description": "Own total; in partners the team's."},
            "to_target": {**WHOLE, "description": "Target minus score, never below 0."},
            "eliminated": {"type": "boolean"},
            "team": {"type": ["string", "null"]},
        }
    ),
    "Team": _object(
        {
            "name": {"type": "string"},
            "players": NAMES,
            "score": WHOLE,
            "to_target": WHOLE,
        }
    ),
    "HandResult": _object(
        {
            "number": {"type": "integer", "minimum": 1},
            "went_out": {"type": "string"},
            "counts": {
                "description": "Points counted by player name.",
                "type": "object",
                "additionalProperties": WHOLE,
            },
            "points": {
                "description": "What the side that went out gained; null in challenge games.",
                "type": ["integer", "null"],
                "minimum": 0,
            },
        }
    ),
    "Winner": _object({"name": {"type": "string"}, "players": NAMES}),
    "Game": _object(
        {
            "id": {"type": "integer"},
            "mode": {"type": "string", "enum": [mode.value for mode in scoring.Mode]},
            "target": {"type": "integer", "minimum": 1},
            "status": {"type": "string", "enum": ["in_progress", "finished"]},
            "winner": {"anyOf": [_ref("Winner"), {"type": "null"}]},
            "dealer": {"type": "string", "description": "Who deals the next hand."},
            "hand_count": WHOLE,
            "players": {"type": "array", "items": _ref("GamePlayer")},
            "teams": {"type": "array", "items": _ref("Team")},
            "hands": {"type": "array", "items": _ref("HandResult")},
        }
    ),
    "Player": _object(
        {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "games": WHOLE,
            "wins": WHOLE,
        }
    ),
    "PlayerList": _object({"players": {"type": "array", "items": _ref("Player")}}),
    "Errors": _object(
        {
            "errors": {
                "description": 'Messages by field: a body field, "counts.<player id>", "hand" '
                'for the hand as a whole, or "body".',
                "type": "object",
                "additionalProperties": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                },
            }
        }
    ),
    "Message": _object(
        {
            "message": {"type": "string"},
            "game": {**_ref("Game"), "description": "The game as it stands now (409 only)."},
        },
        required=["message"],
    ),
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


def _responses(*names: str, **ok: Any) -> dict[str, Any]:
    codes = {
        "BadRequest": "400",
        "NotFound": "404",
        "Conflict": "409",
        "TooLarge": "413",
        "UnsupportedMediaType": "415",
        "Invalid": "422",
    }
    return {**ok, **{codes[name]: {"$ref": f"#/components/responses/{name}"} for name in names}}


WRITE_ERRORS = ("BadRequest", "TooLarge", "UnsupportedMediaType", "Invalid")
GAME_ID = _id("game_id", "Game id.")
NUMBER = _id("number", "Hand number, from 1.")
HAND_BODY = {"required": True, "content": {JSON: {"schema": _ref("HandInput")}}}

PATHS: dict[str, Any] = {
    "/api/v1/openapi.json": {
        "get": {
            "operationId": "openapi",
            "summary": "This document.",
            "responses": {"200": _json({"type": "object"}, "The OpenAPI document.")},
        }
    },
    "/api/v1/games": {
        "post": {
            "operationId": "create_game",
            "summary": "Start a game; new names join the roster.",
            "requestBody": {"required": True, "content": {JSON: {"schema": _ref("NewGame")}}},
            "responses": _responses(
                *WRITE_ERRORS,
                **{
                    "201": _json(
                        _ref("Game"),
                        "The game was started.",
                        headers={
                            "Location": {
                                "description": "The game's address.",
                                "required": True,
                                "schema": {"type": "string"},
                            }
                        },
                    )
                },
            ),
        }
    },
    "/api/v1/games/{game_id}": {
        "parameters": [GAME_ID],
        "get": {
            "operationId": "get_game",
            "summary": "A game with its players, teams, hands and standing.",
            "responses": _responses("NotFound", **{"200": {"$ref": "#/components/responses/Game"}}),
        },
    },
    "/api/v1/games/{game_id}/hands": {
        "parameters": [GAME_ID],
        "post": {
            "operationId": "record_hand",
            "summary": "Record the next hand.",
            "requestBody": HAND_BODY,
            "responses": _responses(
                *WRITE_ERRORS,
                "NotFound",
                "Conflict",
                **{"201": _json(_ref("Game"), "The hand was recorded.")},
            ),
        },
    },
    "/api/v1/games/{game_id}/hands/{number}": {
        "parameters": [GAME_ID, NUMBER],
        "put": {
            "operationId": "edit_hand",
            "summary": "Replace a hand; every later hand must still fit the rules.",
            "requestBody": HAND_BODY,
            "responses": _responses(
                *WRITE_ERRORS, "NotFound", **{"200": {"$ref": "#/components/responses/Game"}}
            ),
        },
        "delete": {
            "operationId": "undo_hand",
            "summary": "Remove the last hand.",
            "responses": _responses(
                "NotFound", "Conflict", **{"200": {"$ref": "#/components/responses/Game"}}
            ),
        },
    },
    "/api/v1/players": {
        "get": {
            "operationId": "list_players",
            "summary": "The roster, most often seated first.",
            "responses": {"200": _json(_ref("PlayerList"), "Every roster player.")},
        }
    },
    "/api/v1/players/{player_id}": {
        "parameters": [_id("player_id", "Roster player id.")],
        "get": {
            "operationId": "get_player",
            "summary": "One roster player with games played and won.",
            "responses": _responses("NotFound", **{"200": _json(_ref("Player"), "The player.")}),
        },
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
    "components": {"schemas": SCHEMAS, "responses": RESPONSES},
}
