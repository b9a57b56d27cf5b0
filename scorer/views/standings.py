"""Standings over a period, optionally one league, sortable by any column."""

from __future__ import annotations

from flask import Blueprint, Response, request

from ..extensions import db
from ..forms.standings import StandingsForm
from ..services import standings
from .htmx import render

bp = Blueprint("standings", __name__, url_prefix="/standings")


@bp.get("/")
def index() -> Response:
    form = StandingsForm(request.args)
    leagues = standings.leagues(db.session)
    form.league.choices = [("", "All games")] + [
        (str(league.id), league.name) for league in leagues
    ]
    form.validate()
    span = standings.period(form.period_kind, form.first.data, form.last.data)
    rows = standings.standings(db.session, span, form.league_id)
    rows = standings.sort_rows(rows, form.sort_key, form.descending)
    return render(
        "standings/index.html",
        "standings/_table.html",
        form=form,
        rows=rows,
        span=span,
        sorts=standings.SORTS,
    )
