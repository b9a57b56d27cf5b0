"""The roster page and player profiles: rename, merge, archive and restore players."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, abort, render_template, request, url_for

from ..extensions import db
from ..forms.players import MergeForm, RenameForm, entry_id
from ..scoring import Rejected
from ..services import pages, players, profiles, roster
from .htmx import render, see_other

bp = Blueprint("players", __name__, url_prefix="/players")


@bp.get("/")
def index() -> Response:
    """The roster by name, a page at a time; htmx asks for the next page's rows alone."""
    search = request.args.get("q", "")[: pages.SEARCH_MAX_LENGTH]
    try:
        found = pages.roster_page(db.session, request.args.get("cursor") or None, search=search)
    except pages.BadCursor as bad:
        abort(400, bad.message)
    return render(
        "players/index.html",
        "players/_entries.html",
        entries=found,
        search=search,
        search_max_length=pages.SEARCH_MAX_LENGTH,
    )


@bp.get("/<int:player_id>")
def show(player_id: int) -> str:
    return render_template("players/show.html", profile=profiles.profile(db.session, player_id))


@bp.route("/<int:player_id>/rename", methods=["GET", "POST"])
def rename(player_id: int) -> Response:
    player = players.load_player(db.session, player_id)
    form = RenameForm(data={"name": player.name} if request.method == "GET" else None)
    return _change(
        player_id,
        form,
        lambda: roster.rename(db.session, player_id, form.name.data or ""),
        "rename",
    )


@bp.route("/<int:player_id>/merge", methods=["GET", "POST"])
def merge(player_id: int) -> Response:
    player = players.load_player(db.session, player_id)
    search = request.args.get("q", "")[: pages.SEARCH_MAX_LENGTH]
    # The choice offers the names found, and always the one posted, wherever it sorts.
    posted = entry_id(request.form.get("other", "")) if request.method == "POST" else 0
    offered = pages.players_named(db.session, search, [posted] if posted else [])
    form = MergeForm.for_player(player, offered)
    return _change(
        player_id,
        form,
        lambda: roster.merge(db.session, player_id, form.other.data),
        "merge",
        search=search,
        search_max_length=pages.SEARCH_MAX_LENGTH,
    )


def _change(
    player_id: int, form, change: Callable[[], object], page: str, **context: object
) -> Response:
    """Show the form, or carry out `change` on a valid post and go back to the profile."""
    status = 200
    if request.method == "POST":
        try:
            if form.validate():
                change()
                return see_other(url_for("players.show", player_id=player_id))
        except Rejected as rejected:
            form.attach(rejected.problems)
        status = 422
    player = players.load_player(db.session, player_id)
    return render(
        f"players/{page}.html",
        f"players/_{page}.html",
        status,
        player=player,
        form=form,
        **context,
    )


@bp.post("/<int:player_id>/archive")
def archive(player_id: int) -> Response:
    roster.set_archived(db.session, player_id, True)
    return see_other(url_for("players.index"))


@bp.post("/<int:player_id>/restore")
def restore(player_id: int) -> Response:
    roster.set_archived(db.session, player_id, False)
    return see_other(url_for("players.index"))
