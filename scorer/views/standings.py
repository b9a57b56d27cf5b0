"""Standings over a period, optionally one league, sortable by any column, a page at a time."""

from __future__ import annotations

from flask import Blueprint, Response, abort, request
from flask_babel import gettext as _

from ..extensions import db
from ..forms.standings import StandingsForm
from ..services import pages, standings
from .htmx import render, wants_fragment

bp = Blueprint("standings", __name__, url_prefix="/standings")


@bp.get("/")
def index() -> Response:
    """The table's first page; htmx asks for a later page's rows alone, to add below."""
    form = StandingsForm(request.args)
    leagues = standings.leagues(db.session, form.league_id)
    form.league.choices = [("", _("All games"))] + [
        (str(league.id), league.name) for league in leagues.leagues
    ]
    form.validate()
    span = standings.period(form.period_kind, form.first.data, form.last.data)
    cursor = request.args.get("cursor") or None
    try:
        found = standings.standings_page(
            db.session,
            span,
            form.league_id,
            form.sort_key,
            form.descending,
            form.search,
            cursor,
        )
    except pages.BadCursor as bad:
        abort(400, bad.message)
    return render(
        "standings/index.html",
        "standings/_rows.html" if cursor and wants_fragment() else "standings/_table.html",
        form=form,
        rows=found,
        span=span,
        sorts=standings.SORTS,
        search_max_length=pages.SEARCH_MAX_LENGTH,
        more_leagues=leagues.more,
    )
