"""Partner leagues: teams, seasons, fixtures played as games, and the table."""

from __future__ import annotations

from flask import Blueprint, Response, abort, request, url_for

from ..extensions import db
from ..forms.leagues import LeagueForm, RotationForm, SeasonForm, TeamForm, TeamRenameForm
from ..scoring import Rejected
from ..services import league_teams, leagues, newcomers, pages
from .htmx import render, see_other

bp = Blueprint("leagues", __name__, url_prefix="/leagues")

# The form field that carries the typed names the user confirmed as new players.
NEW_PLAYER = "new_player"


@bp.context_processor
def rotation_length() -> dict[str, int]:
    """The league pages say how many hands a rotation fixture lasts."""
    return {"rotation_fixture_hands": leagues.ROTATION_FIXTURE_HANDS}


@bp.get("/")
def index() -> Response:
    """Leagues by name, a page at a time; htmx asks for the next page's rows alone."""
    try:
        found = pages.league_page(db.session, request.args.get("cursor") or None)
    except pages.BadCursor as bad:
        abort(400, bad.message)
    return render("leagues/index.html", "leagues/_items.html", found=found)


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response:
    form = LeagueForm()
    status = 200
    if request.method == "POST":
        try:
            if form.validate():
                # Validated: both hold what was typed. Were they empty, the service would refuse
                # "" and 0 as it refuses any name or target out of range.
                league = leagues.create_league(
                    db.session, form.name.data or "", form.target.data or 0, form.format.data
                )
                return see_other(url_for("leagues.show", league_id=league.id))
        except Rejected as rejected:
            form.attach(rejected.problems)
        status = 422
    return render("leagues/new.html", "leagues/_form.html", status, form=form)


@bp.get("/<int:league_id>")
def show(league_id: int) -> Response:
    return _show(league_id)


@bp.post("/<int:league_id>/teams")
def add_team(league_id: int) -> Response:
    form = TeamForm()
    try:
        if form.validate():
            # A name not on the roster is asked about first, with the roster names it resembles.
            confirmed = request.form.getlist(NEW_PLAYER)
            typed = [("first", form.first.data or ""), ("second", form.second.data or "")]
            asked = newcomers.question(db.session, typed, confirmed)
            if asked is not None:
                return _show(league_id, team_form=form, asking=asked, confirmed=confirmed)
            leagues.register_team(
                db.session,
                league_id,
                form.first.data or "",
                form.second.data or "",
                form.name.data or "",
            )
            return see_other(url_for("leagues.show", league_id=league_id))
    except Rejected as rejected:
        form.attach(rejected.problems)
    return _show(league_id, 422, team_form=form, confirmed=request.form.getlist(NEW_PLAYER))


@bp.post("/<int:league_id>/seasons")
def add_season(league_id: int) -> Response:
    league = leagues.load_league(db.session, league_id)
    form = RotationForm() if league.format == "rotation" else SeasonForm()
    try:
        if form.validate():
            if isinstance(form, RotationForm):
                season = leagues.add_rotation_season(db.session, league_id, form.names)
            else:
                season = leagues.add_season(db.session, league_id, form.legs.data)
            return see_other(url_for("leagues.season", league_id=league_id, number=season.number))
    except Rejected as rejected:
        form.attach(rejected.problems)
    return _show(league_id, 422, season_form=form)


@bp.get("/<int:league_id>/seasons/<int:number>")
def season(league_id: int, number: int) -> Response:
    view = leagues.load_season(db.session, league_id, number)
    return render("leagues/season.html", "leagues/_season.html", view=view)


@bp.post("/fixtures/<int:fixture_id>/start")
def start(fixture_id: int) -> Response:
    game = leagues.start_fixture(db.session, fixture_id)
    return see_other(url_for("games.show", game_id=game.id))


@bp.post("/teams/<int:team_id>/rename")
def rename_team(team_id: int) -> Response:
    team = league_teams.load_team(db.session, team_id)
    form = TeamRenameForm(prefix=f"team-{team_id}")
    try:
        if form.validate():
            league_teams.rename_team(db.session, team_id, form.name.data or "")
            return see_other(url_for("leagues.show", league_id=team.league_id))
    except Rejected as rejected:
        form.attach(rejected.problems)
    return _show(team.league_id, 422, renaming=(team_id, form))


@bp.post("/teams/<int:team_id>/remove")
def remove_team(team_id: int) -> Response:
    league_id = league_teams.remove_team(db.session, team_id)
    return see_other(url_for("leagues.show", league_id=league_id))


def _show(
    league_id: int,
    status: int = 200,
    team_form=None,
    season_form=None,
    renaming=None,
    asking=None,
    confirmed=(),
) -> Response:
    league = leagues.load_league(db.session, league_id)
    if season_form is None:
        season_form = (
            RotationForm(formdata=None)
            if league.format == "rotation"
            else SeasonForm(formdata=None)
        )
    return render(
        "leagues/show.html",
        "leagues/_league.html",
        status,
        league=league,
        team_form=team_form or TeamForm(formdata=None),
        season_form=season_form,
        # Names a browser offers as they are typed: who played lately, a bounded list; any
        # other name can still be typed.
        roster=pages.suggested_players(db.session, [], size=pages.NAMES_OFFERED),
        played_teams=league_teams.played_teams(db.session, league_id),
        rename_forms=_rename_forms(league, renaming),
        asking=asking,
        confirmed=confirmed,
        new_player_field=NEW_PLAYER,
        team_name=leagues.team_name,
        members=leagues.members,
        formats=leagues.FORMATS,
    )


def _rename_forms(league, renaming) -> dict:
    """A rename form per team, filled with its name; the one just refused keeps what was typed."""
    forms = {
        team.id: TeamRenameForm(formdata=None, prefix=f"team-{team.id}", name=team.name or "")
        for team in league.teams
    }
    if renaming is not None:
        team_id, form = renaming
        forms[team_id] = form
    return forms
