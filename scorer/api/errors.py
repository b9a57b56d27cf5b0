"""Errors as JSON: the rules' problems by field (422), and every HTTP error with its status.

Validation errors are `{"errors": {field: [messages]}}`; every other error is `{"message": "..."}`.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Response, jsonify, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException

from .. import scoring
from ..services.errors import Conflict, NotFound, ServiceError
from ..services.snapshots import GameSnapshot
from .schemas import Errors, ErrorsByField, Game, Invalid, Message

API_PREFIX = "/api/"
STATUS_OF: dict[type[ServiceError], int] = {NotFound: 404, Conflict: 409}


def message_response(status: int, message: str, game: Game | None = None) -> Response:
    """A JSON error: the message for a person, and the game as it stands after a conflict."""
    document = Message(message=message, game=game)
    response = jsonify(document.model_dump(mode="json", exclude=None if game else {"game"}))
    response.status_code = status
    return response


def invalid(error: Invalid) -> Response:
    response = jsonify(Errors(errors=error.errors).model_dump(mode="json"))
    response.status_code = 422
    return response


def service_error(error: ServiceError) -> Response:
    return message_response(STATUS_OF.get(type(error), 400), error.message)


ROUTING_MESSAGES = {
    404: _l("There is no such address in this API; see /api/v1/openapi.json."),
    405: _l("This address does not take that method; the Allow header lists those it takes."),
}


# Said instead of Werkzeug's own description of an error, which is in English only.
HTTP_MESSAGES = {
    400: _l("The request could not be understood."),
    404: _l("There is nothing at this address."),
    405: ROUTING_MESSAGES[405],
    413: _l("The body is too large."),
    415: _l("Send the body as JSON, with Content-Type: application/json."),
    429: _l("Too many requests. Wait a minute, then try again."),
}


def http_error(error: HTTPException, message: str | None = None) -> Response:
    code = error.code or 500
    if message is None and code >= 500:
        message = _("Something went wrong on the server.")
    elif message is None:
        message = error.description
        if code in HTTP_MESSAGES and message == type(error).description:
            message = str(HTTP_MESSAGES[code])
    response = message_response(code, message or error.name)
    if code == 405 and getattr(error, "valid_methods", None):
        response.headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    return response


def routing_error() -> Response | None:
    """Answer an unknown API address (404) or method (405) in JSON.

    Routing fails before any blueprint is chosen, so the app-wide (HTML) error pages would answer;
    this runs first, before the request is dispatched, and only for addresses under /api/.
    """
    error = request.routing_exception
    if (
        isinstance(error, HTTPException)
        and (error.code or 0) >= 400
        and (request.path + "/").startswith(API_PREFIX)
    ):
        message = ROUTING_MESSAGES.get(error.code or 0)
        return http_error(error, None if message is None else str(message))
    return None


# The rules' name of a setup field where the API's body names it otherwise.
BODY_FIELDS = {"hands": "hand_limit"}


def problem_errors(
    problems: Iterable[scoring.Problem], view: GameSnapshot | None = None, number: int | None = None
) -> ErrorsByField:
    """The rules' problems by API field: `counts.<player id>` for a count, the field name else.

    When hand `number` is edited, problems it causes in later hands are reported under "hand".
    """
    seats = view.game.seats if view is not None else []
    errors: ErrorsByField = {}
    for problem in problems:
        seat = (
            seats[problem.seat] if problem.seat is not None and problem.seat < len(seats) else None
        )
        if number is not None and problem.hand not in (None, number):
            key = "hand"
            if seat is not None:
                message = _(
                    "Hand %(number)s would no longer fit: %(player)s: %(problem)s",
                    number=problem.hand,
                    player=seat.player.name,
                    problem=problem.message,
                )
            else:
                message = _(
                    "Hand %(number)s would no longer fit: %(problem)s",
                    number=problem.hand,
                    problem=problem.message,
                )
        elif problem.field == "count":
            key = f"counts.{seat.player_id}" if seat is not None else "hand"
            message = problem.message
        else:
            key, message = BODY_FIELDS.get(problem.field, problem.field), problem.message
        errors.setdefault(key, []).append(message)
    return errors
