"""A league night: the board of the round being played, starting a round, and the scorer links
sheet that hands each table its link as a QR code."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.http import quote_etag
from werkzeug.wrappers import Response as BaseResponse

from .. import access, qr_codes
from ..extensions import db
from ..services import leagues, nights, scorer_links
from .games import in_language
from .htmx import poll_answer, see_other

bp = Blueprint("nights", __name__, url_prefix="/leagues/<int:league_id>/seasons/<int:number>")


@bp.get("/board")
def board(league_id: int, number: int) -> Response:
    view = nights.load_board(db.session, league_id, number)
    version = nights.board_version(db.session, league_id, number)
    return make_response(render_template("nights/board.html", board=view, version=version))


@bp.get("/board/live")
def board_live(league_id: int, number: int) -> BaseResponse:
    """304 while the board's version is current, else the board; one query for a 304."""

    def changed_board(tag: str) -> tuple[str, str]:
        view = nights.load_board(db.session, league_id, number)
        version = tag.removesuffix(in_language(""))
        return render_template("nights/_board.html", board=view, version=version, oob=True), tag

    return poll_answer(
        url_for("nights.board", league_id=league_id, number=number),
        lambda: in_language(nights.board_version(db.session, league_id, number)),
        changed_board,
    )


@bp.app_template_global()
def board_etag(version: str) -> str:
    """The If-None-Match value of a board showing this version."""
    return quote_etag(in_language(version), weak=True)


@bp.post("/rounds/<int:round_number>/start")
def start_round(league_id: int, number: int, round_number: int) -> Response:
    """Start every table of the round at once (a table already started keeps its game)."""
    nights.start_round(db.session, league_id, number, round_number)
    return see_other(url_for("nights.board", league_id=league_id, number=number))


@bp.get("/rounds/<int:round_number>/sheet")
def sheet(league_id: int, number: int, round_number: int) -> str:
    """The round's tables, each with the QR code a phone there scans: the game's own link where
    anyone may keep score; in owner mode the organiser makes the scorer links from here."""
    season, tables = nights.round_tables(db.session, league_id, number, round_number)
    links = (
        {}
        if access.owner_mode()
        else {t.fixture.fixture.id: _game_url(t) for t in tables if t.game}
    )
    return _sheet(season, round_number, tables, links)


@bp.post("/rounds/<int:round_number>/sheet")
def make_sheet(league_id: int, number: int, round_number: int) -> BaseResponse | tuple[str, int]:
    """Start the round's tables and give each unfinished one a new scorer link, shown once."""
    if not (access.owner_mode() and current_user.is_authenticated):
        message = _("Only signed-in users can hand out scorer links.")
        return render_template("errors/error.html", message=message, status=403), 403
    nights.start_round(db.session, league_id, number, round_number)
    season, tables = nights.round_tables(db.session, league_id, number, round_number)
    playing = [t.game.game.id for t in tables if t.game is not None and not t.finished]
    tokens = scorer_links.issue_scorer_links(db.session, playing)
    links = {
        t.fixture.fixture.id: url_for(
            "games.score", game_id=t.game.game.id, token=tokens[t.game.game.id], _external=True
        )
        for t in tables
        if t.game is not None and t.game.game.id in tokens
    }
    return _sheet(season, round_number, tables, links, scorer=True), 201


def _sheet(
    season: leagues.SeasonSnapshot,
    round_number: int,
    tables: tuple[nights.BoardTable, ...],
    links: dict[int, str],
    scorer: bool = False,
) -> str:
    return render_template(
        "nights/sheet.html",
        season=season,
        round_number=round_number,
        tables=tables,
        links=links,
        codes={fixture_id: qr_codes.data_uri(url) for fixture_id, url in links.items()},
        scorer=scorer,
        manages_scorer_links=access.owner_mode() and current_user.is_authenticated,
    )


def _game_url(table: nights.BoardTable) -> str:
    assert table.game is not None
    return url_for("games.show", game_id=table.game.game.id, _external=True)
