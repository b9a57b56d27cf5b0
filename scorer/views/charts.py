"""Charts as SVG images: a game's score over its hands, a player's rating and points per game."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request
from flask_babel import get_locale

from .. import charts
from ..extensions import db
from ..scoring.standings import score_lines
from ..services import games, profiles

bp = Blueprint("charts", __name__)

# An SVG opened on its own is a document: it may style itself, and nothing else.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'"


@bp.get("/games/<int:game_id>/chart.svg")
def game(game_id: int) -> Response:
    view = games.load_game(db.session, game_id)
    lines = score_lines(view.state)
    named = [(view.side_name(side), lines[side.index]) for side in view.state.sides]
    target = view.game.target if view.state.rules.hands is None else None
    response = _svg(charts.score_lines(named, target))
    if request.args.get("v") == str(view.game.version) and request.args.get("lang") == _language():
        # The page asks for ?v=<the game's version>&lang=<its language>, and every change makes a
        # new version: this address always means this picture, words included, so a phone keeps
        # it. Any other address (none, an old or a future version, another language than the
        # reader's) is answered with the picture as it is now, not to be kept.
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@bp.get("/players/<int:player_id>/rating.svg")
def rating(player_id: int) -> Response:
    history = profiles.rating_history(db.session, player_id)
    return _svg(charts.rating_line([rating for _game, rating in history]))


@bp.get("/players/<int:player_id>/points.svg")
def points(player_id: int) -> Response:
    history = profiles.points_history(db.session, player_id)
    return _svg(charts.points_bars([points for _game, _mode, points in history]))


@bp.url_defaults
def _language_of_kept_chart(endpoint: str, values: dict[str, Any]) -> None:
    """A game chart's address that names its version names its language too: the picture holds
    words, and a phone keeping it must not show it to the reader of another language."""
    if endpoint == "charts.game" and "v" in values:
        values.setdefault("lang", _language())


def _language() -> str:
    return str(get_locale() or "en")


def _svg(body: bytes) -> Response:
    response = Response(body, mimetype="image/svg+xml")
    response.headers["Content-Security-Policy"] = SVG_POLICY
    # Revalidated on every use, unless the caller knows the address names one version (see game).
    response.headers["Cache-Control"] = "no-cache"
    return response


# The game page's chart fragment (games/_chart.html) tabulates the same lines as the picture.
bp.add_app_template_global(score_lines, "score_lines")
