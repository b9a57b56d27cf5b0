"""A game's board for the middle of the table: read-only, in large type, following the phone that
keeps score through the same poll as the game page (304 while nothing is new)."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, render_template, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..extensions import db
from ..services import games
from .games import live_tag
from .htmx import poll_answer

bp = Blueprint("table_view", __name__, url_prefix="/games/<int:game_id>/table")


@bp.get("")
def show(game_id: int) -> Response:
    view = games.load_game(db.session, game_id)
    return make_response(render_template("games/table.html", view=view))


@bp.get("/live")
def live(game_id: int) -> BaseResponse:
    """304 while the version in If-None-Match is current, else the table's board (oob)."""

    def board(_tag: str) -> tuple[str, str]:
        view = games.load_game(db.session, game_id)
        body = render_template("games/_table_board.html", view=view, oob=True)
        return body, live_tag(game_id, view.game.version)

    return poll_answer(
        url_for("table_view.show", game_id=game_id),
        lambda: live_tag(game_id, games.version_of(db.session, game_id)),
        board,
    )
