"""A game's board for the middle of the table: read-only, in large type, following the phone that
keeps score through the same poll as the game page (304 while nothing is new)."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..extensions import db
from ..fragments import wants_fragment
from ..services import games
from .games import live_tag

bp = Blueprint("table_view", __name__, url_prefix="/games/<int:game_id>/table")


@bp.get("")
def show(game_id: int) -> Response:
    view = games.load_game(db.session, game_id)
    return make_response(render_template("games/table.html", view=view))


@bp.get("/live")
def live(game_id: int) -> BaseResponse:
    """304 while the version in If-None-Match is current, else the table's board (oob)."""
    if not wants_fragment():
        response = redirect(url_for("table_view.show", game_id=game_id), 303)
    else:
        version = games.version_of(db.session, game_id)
        if request.if_none_match.contains_weak(live_tag(game_id, version)):
            response = make_response("", 304)
        else:
            view = games.load_game(db.session, game_id)
            version = view.game.version
            response = make_response(
                render_template("games/_table_board.html", view=view, oob=True)
            )
        response.set_etag(live_tag(game_id, version), weak=True)
        response.cache_control.no_cache = True
    response.vary.add("HX-Request")
    return response
