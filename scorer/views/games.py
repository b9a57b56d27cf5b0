"""Setting up, showing, sharing and rematching games, and the poll that keeps open pages current."""

import io
from ipaddress import ip_address

import segno
from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.datastructures import MultiDict
from werkzeug.http import quote_etag
from werkzeug.wrappers import Response as BaseResponse

from .. import access
from ..extensions import db
from ..forms.games import LENGTH_HINTS, MODE_HINTS, MODE_LABELS, TARGET_PRESETS, SetupForm
from ..forms.hands import HandForm
from ..scoring import MAX_BLANK_VALUE, MAX_HANDS, Rejected, head_to_head
from ..services import cleanup, fixtures, games, newcomers, pages, scorer_links
from ..services.snapshots import GameSnapshot
from .htmx import in_language, poll_answer, render, see_other

bp = Blueprint("games", __name__, url_prefix="/games")
# The scoreboard of an individual game includes games/_head_to_head.html, which tabulates this.
bp.add_app_template_global(head_to_head, "head_to_head")


# The setup's action that looks up the roster for the name typed so far: the Find button without
# JavaScript, and the name box itself as it is typed in with htmx.
SEARCH = "search"


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response:
    form = SetupForm()
    status = 200
    asking = None
    searching = False
    if request.method == "POST":
        # Without an action (the mode was changed) the form is only shown again.
        action = request.form.get("action", "")
        searching = action == SEARCH
        if action in ("add", "start") and (form.new_name.data or "").strip():
            # "Anne" beside the roster's Ann is asked about before it is seated.
            asking = newcomers.setup_question(db.session, form.new_name.data or "", form.names)
        if asking is not None:
            # Nothing is seated until the question is answered: the form comes back asking it.
            status = 200
        elif action != "start":
            status = 200 if form.apply(action) else 422
        # A name typed but not added is meant to play: it is seated as Add would, or refused
        # next to the name box with nothing started.
        elif not form.add_typed_name() or not form.validate():
            status = 422
        else:
            try:
                game = games.create_game(
                    db.session,
                    form.mode.data,
                    form.names,
                    # Validated, so a number; were it empty, 0 is refused like any target below 1.
                    form.target.data or 0,
                    form.dealer,
                    team_names=form.team_names,
                    deck=form.deck,
                    hands=form.hand_limit,
                )
            except Rejected as rejected:
                form.attach(list(rejected.problems))
                status = 422
            else:
                return see_other(url_for("games.show", game_id=game.id))
    return render(
        "games/new.html",
        "games/_setup.html",
        status,
        form=form,
        asking=asking,
        # The seated, then the players this table is likely to pick; a search finds the rest.
        roster=pages.suggested_players(
            db.session, form.names, form.new_name.data or "" if searching else ""
        ),
        presets=TARGET_PRESETS,
        mode_labels=MODE_LABELS,
        mode_hints=MODE_HINTS,
        length_hints=LENGTH_HINTS,
        max_hands=MAX_HANDS,
        max_blank_value=MAX_BLANK_VALUE,
    )


@bp.get("/<int:game_id>")
def show(game_id: int) -> Response:
    view = games.load_game(db.session, game_id)
    return render(
        "games/show.html",
        "games/_game.html",
        view=view,
        form=HandForm.for_game(view, formdata=_hand_in_address(view)),
        fixture=fixtures.place_of_game(db.session, game_id),
    )


def _hand_in_address(view: GameSnapshot) -> MultiDict | None:
    """The hand an undo put back on the pad through the page's address (hands.undo), while it is
    still the next hand to record; else None, and the pad starts empty."""
    args = request.args
    if "went_out" in args and args.get("number") == str(view.state.next_hand_number):
        return args
    return None


@bp.get("/<int:game_id>/live")
def live(game_id: int) -> BaseResponse:
    """304 while the phone's version is current, else the changed parts; one query for a 304."""

    def changed_parts(_tag: str) -> tuple[str, str]:
        view = games.load_game(db.session, game_id)
        form = HandForm.for_game(view, formdata=None)
        fixture = fixtures.place_of_game(db.session, game_id) if view.state.finished else None
        body = render_template("games/_live.html", view=view, form=form, fixture=fixture)
        # The version read with the hands: it may have moved on since the first query.
        return body, live_tag(game_id, view.game.version)

    return poll_answer(
        url_for("games.show", game_id=game_id),
        lambda: live_tag(game_id, games.version_of(db.session, game_id)),
        changed_parts,
    )


@bp.app_template_global()
def live_etag(game) -> str:
    """The If-None-Match value of a page showing `game` as it is now."""
    return quote_etag(in_language(live_tag(game.id, game.version)), weak=True)


def live_tag(game_id: int, version: int) -> str:
    """The validator of what a page shows of a game at this version."""
    return f"game-{game_id}-v{version}"


@bp.get("/<int:game_id>/share")
def share(game_id: int) -> str:
    view = games.load_game(db.session, game_id)
    return render_template(
        "games/share.html",
        view=view,
        link=_link(game_id),
        loopback=_loopback(request.host),
        fixture=fixtures.place_of_game(db.session, game_id),
        **_scorer_section(game_id),
    )


@bp.get("/<int:game_id>/qr.svg")
def qr(game_id: int) -> Response:
    """The game's address as a QR code: an SVG with no style attributes, so the CSP allows it."""
    games.version_of(db.session, game_id)  # a 404 for a game that does not exist
    link = _link(game_id)
    svg = io.BytesIO()
    segno.make_qr(link, error="m").save(
        svg,
        kind="svg",
        border=4,
        omitsize=True,
        dark="#000",
        light="#fff",
        xmldecl=False,
        title=_("QR code for %(link)s", link=link),
    )
    response = make_response(svg.getvalue())
    response.mimetype = "image/svg+xml"
    return response


# Scorer links (see scorer.access): a signed-in user hands one table the right to record the hands
# of this game and nothing else. The token is shown once, on the page that made it.


@bp.post("/<int:game_id>/scorer-link")
def scorer_link(game_id: int) -> tuple[str, int]:
    """Make the game's scorer link (replacing any before it) and show it with its QR code."""
    view = games.load_game(db.session, game_id)
    if not current_user.is_authenticated:
        return _refused(_("Only signed-in users can hand out scorer links."), 403)
    if view.state.finished:
        return _refused(_("This game is over: there are no hands left to record."), 409)
    url = url_for(
        "games.score",
        game_id=game_id,
        token=scorer_links.issue_scorer_link(db.session, game_id),
        _external=True,
    )
    page = render_template(
        "games/share.html",
        view=view,
        link=_link(game_id),
        loopback=_loopback(request.host),
        fixture=fixtures.place_of_game(db.session, game_id),
        **_scorer_section(game_id),
        scorer_url=url,
        scorer_qr=segno.make_qr(url, error="m").svg_data_uri(
            border=4, omitsize=True, dark="#000", light="#fff"
        ),
    )
    return page, 201


@bp.post("/<int:game_id>/scorer-link/revoke")
def revoke_scorer_link(game_id: int) -> BaseResponse | tuple[str, int]:
    games.version_of(db.session, game_id)  # a 404 for a game that does not exist
    if not current_user.is_authenticated:
        return _refused(_("Only signed-in users can revoke scorer links."), 403)
    scorer_links.revoke_scorer_link(db.session, game_id)
    return redirect(url_for("games.share", game_id=game_id), 303)


@bp.get("/<int:game_id>/score/<token>")
def score(game_id: int, token: str) -> BaseResponse | tuple[str, int]:
    """Open a scorer link: this browser may record the game's hands while the link works."""
    games.version_of(db.session, game_id)
    if not access.open_scorer_link(db.session, game_id, token):
        return _refused(
            _("This scorer link no longer works: it was revoked, or the game is over."), 404
        )
    return redirect(url_for("games.show", game_id=game_id), 303)


def _scorer_section(game_id: int) -> dict[str, bool]:
    """What the share page says about scorer links: only a signed-in user may hand them out."""
    manages = access.owner_mode() and current_user.is_authenticated
    return {
        "manages_scorer_links": manages,
        "has_scorer_link": manages and scorer_links.has_scorer_link(db.session, game_id),
    }


def _refused(message: str, status: int) -> tuple[str, int]:
    return render_template("errors/error.html", message=message, status=status), status


def _link(game_id: int) -> str:
    return url_for("games.show", game_id=game_id, _external=True)


def _loopback(host: str) -> bool:
    """Whether the page was opened as localhost, an address no other phone can reach."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ip_address(name).is_loopback
    except ValueError:
        return False


@bp.post("/<int:game_id>/rematch")
def rematch(game_id: int) -> Response:
    # A fixture game is followed by the league's next fixture, a casual game by a rematch.
    place = fixtures.place_of_game(db.session, game_id)
    if place is None:
        game = games.rematch(db.session, game_id)
    else:
        started = fixtures.play_next(db.session, game_id)
        if started is None:
            season = url_for(
                "leagues.season", league_id=place.league_id, number=place.season_number
            )
            return see_other(season)
        game = started
    return see_other(url_for("games.show", game_id=game.id))


# Clearing clutter (see scorer.services.cleanup). Deleting asks first on a page of its own, so it
# works without JavaScript; in owner mode scorer.access lets only signed-in users reach these.


@bp.post("/<int:game_id>/abandon")
def abandon(game_id: int) -> Response:
    cleanup.abandon_game(db.session, game_id)
    return see_other(url_for("games.show", game_id=game_id))


@bp.post("/<int:game_id>/resume")
def resume(game_id: int) -> Response:
    cleanup.resume_game(db.session, game_id)
    return see_other(url_for("games.show", game_id=game_id))


@bp.route("/<int:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int) -> Response | str:
    if request.method == "POST":
        cleanup.delete_game(db.session, game_id)
        return see_other(url_for("home.index"))
    return render_template("games/delete.html", view=games.load_game(db.session, game_id))
