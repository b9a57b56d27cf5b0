"""Setting up, showing and rematching games."""

from flask import Blueprint, Response, request, url_for

from ..extensions import db
from ..forms.games import MODE_HINTS, MODE_LABELS, TARGET_PRESETS, SetupForm
from ..forms.hands import HandForm
from ..scoring import Rejected
from ..services import games, players
from .htmx import render, see_other

bp = Blueprint("games", __name__, url_prefix="/games")


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response:
    form = SetupForm()
    status = 200
    if request.method == "POST":
        # Without an action (the mode was changed) the form is only shown again.
        action = request.form.get("action", "")
        if action != "start":
            status = 200 if form.apply(action) else 422
        elif not form.validate():
            status = 422
        else:
            try:
                game = games.create_game(
                    db.session,
                    form.mode.data,
                    form.names,
                    form.target.data,
                    form.dealer,
                    team_names=form.team_names,
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
        roster=players.roster(db.session),
        presets=TARGET_PRESETS,
        mode_labels=MODE_LABELS,
        mode_hints=MODE_HINTS,
    )


@bp.get("/<int:game_id>")
def show(game_id: int) -> Response:
    view = games.load_game(db.session, game_id)
    return render("games/show.html", "games/_game.html", view=view, form=HandForm.for_game(view))


@bp.post("/<int:game_id>/rematch")
def rematch(game_id: int) -> Response:
    game = games.rematch(db.session, game_id)
    return see_other(url_for("games.show", game_id=game.id))
