"""Routes of /api/v1: read the JSON, call the same services as the HTML views, answer a document."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import Blueprint, Response, jsonify, request, url_for
from flask.views import MethodView
from flask_babel import gettext as _
from pydantic import BaseModel
from werkzeug.exceptions import BadRequest, UnsupportedMediaType, default_exceptions

from ..extensions import csrf, db
from ..field_rules import ID_MAX
from ..scoring import Rejected
from ..services import games, hands, pages, players
from ..services.errors import Conflict, ServiceError
from ..services.snapshots import GameSnapshot
from . import errors, schemas
from .documents import game_document, game_summary, player_document
from .openapi import OPENAPI

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# Writes demand a JSON body, which a cross-site form cannot send, so no CSRF token is needed.
csrf.exempt(bp)
bp.register_error_handler(schemas.Invalid, errors.invalid)
bp.register_error_handler(ServiceError, errors.service_error)
# By code, not by class: the app's HTML pages are registered by code, and a code wins over a class.
for code in default_exceptions:
    bp.register_error_handler(code, errors.http_error)
bp.before_app_request(errors.routing_error)

GAME = f"/games/<int(min=1, max={ID_MAX}):game_id>"
HAND = f"{GAME}/hands/<int(min=1, max={ID_MAX}):number>"
PLAYER = f"/players/<int(min=1, max={ID_MAX}):player_id>"
T = TypeVar("T")


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(OPENAPI)


@bp.post("/games")
def create_game() -> Response:
    data = schemas.game_input(_body())
    try:
        game = games.create_game(
            db.session,
            data.mode,
            data.players,
            data.target,
            data.first_dealer,
            team_names=data.teams,
            deck=data.deck.deck(),
            hands=data.hand_limit,
            exact_teams=True,
        )
    except Rejected as rejected:
        raise schemas.Invalid(errors.problem_errors(rejected.problems)) from rejected
    view = games.load_game(db.session, game.id)
    return _answer(game_document(view), 201, Location=url_for(".get_game", game_id=game.id))


@bp.get(GAME)
def get_game(game_id: int) -> Response:
    return _answer(game_document(games.load_game(db.session, game_id)))


@bp.post(f"{GAME}/hands")
def record_hand(game_id: int) -> Response:
    view = games.load_game(db.session, game_id)
    data = schemas.hand_input(_body())
    number = view.state.next_hand_number if data.number is None else data.number
    entry = schemas.hand_entry(view, data)
    return _change(view, number, 201, lambda: hands.record_hand(db.session, game_id, number, entry))


class HandResource(MethodView):
    """One rule for both methods: with a rule each, Werkzeug answers an out-of-range id with 405."""

    def put(self, game_id: int, number: int) -> Response:
        view = games.load_game(db.session, game_id)
        view.hand(number)  # NotFound before the body is read
        data = schemas.hand_input(_body())
        if data.number not in (None, number):
            raise schemas.Invalid(
                {"number": [_("This is hand %(number)s; leave out the number.", number=number)]}
            )
        entry = schemas.hand_entry(view, data)
        return _change(
            view,
            number,
            200,
            lambda: hands.edit_hand(db.session, game_id, number, entry),
        )

    def delete(self, game_id: int, number: int) -> Response:
        view = games.load_game(db.session, game_id)
        return _change(view, number, 200, lambda: hands.undo_last_hand(db.session, game_id, number))


bp.add_url_rule(HAND, view_func=HandResource.as_view("hand"))


@bp.get("/games")
def list_games() -> Response:
    limit = schemas.page_limit(request.args.get("limit"))
    page = _page(lambda cursor: pages.game_page(db.session, cursor, limit))
    found = [game_summary(row) for row in page.items]
    return _answer(schemas.GameList(games=found, next=page.next))


@bp.get("/players")
def list_players() -> Response:
    limit = schemas.page_limit(request.args.get("limit"))
    search = request.args.get("q", "")[: pages.SEARCH_MAX_LENGTH]
    page = _page(lambda cursor: pages.roster_page(db.session, cursor, limit, search))
    return _answer(
        schemas.PlayerList(players=list(map(player_document, page.items)), next=page.next)
    )


def _page(read: Callable[[str | None], pages.Page[T]]) -> pages.Page[T]:
    """A page read from the `cursor` parameter; 422 for a cursor this server did not give."""
    try:
        return read(request.args.get("cursor") or None)
    except pages.BadCursor as bad:
        raise schemas.Invalid({"cursor": [bad.message]}) from None


@bp.get(PLAYER)
def get_player(player_id: int) -> Response:
    return _answer(player_document(players.roster_entry(db.session, player_id)))


def _body() -> object:
    """The JSON body: 415 unless sent as JSON, 400 when it does not parse."""
    if not request.is_json:
        raise UnsupportedMediaType(_("Send the body as JSON, with Content-Type: application/json."))
    try:
        return request.get_json()
    except (BadRequest, RecursionError):
        raise BadRequest(_("The body is not valid JSON.")) from None


def _change(view: GameSnapshot, number: int, status: int, change: Callable[[], object]) -> Response:
    """Run a service that changes hand `number`, answering its refusals as 422 and 409."""
    game_id = view.game.id
    try:
        change()
    except Rejected as rejected:
        raise schemas.Invalid(errors.problem_errors(rejected.problems, view, number)) from rejected
    except Conflict as conflict:
        now = games.load_game(db.session, game_id)
        return errors.message_response(409, conflict.message, game=game_document(now))
    # Reloaded rather than read from the committed (expired) rows: a fixed number of queries.
    return _answer(game_document(games.load_game(db.session, game_id)), status)


def _answer(document: BaseModel, status: int = 200, **headers: str) -> Response:
    response = jsonify(document.model_dump(mode="json"))
    response.status_code = status
    response.headers.update(headers)
    return response
