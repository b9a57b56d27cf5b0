"""The home page: games in progress first, then the latest finished ones, then abandoned ones."""

from flask import Blueprint, Response, abort, request

from ..extensions import db
from ..services import games, pages
from .htmx import render

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> Response:
    """The home page; with a cursor, htmx asks for the next games in progress alone."""
    try:
        playing_page = pages.playing_page(db.session, request.args.get("cursor") or None)
    except pages.BadCursor as bad:
        abort(400, bad.message)
    playing, finished = games.list_games(db.session, playing_page)
    return render(
        "home/index.html",
        "home/_playing.html",
        playing=playing,
        more=playing_page.next,
        finished=finished,
        abandoned=games.abandoned_games(db.session),
    )
