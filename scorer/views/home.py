"""The home page: games in progress first, then the latest finished ones, then abandoned ones."""

from flask import Blueprint, render_template

from ..extensions import db
from ..services import games

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    playing, finished = games.list_games(db.session)
    return render_template(
        "home/index.html",
        playing=playing,
        finished=finished,
        abandoned=games.abandoned_games(db.session),
    )
