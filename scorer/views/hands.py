"""Recording, editing and undoing hands from the tally pad."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Response, render_template, request, url_for

from ..extensions import db
from ..forms.hands import HandForm
from ..fragments import wants_fragment
from ..scoring import Rejected
from ..services import fixtures, games, hands
from ..services.errors import Conflict, NotFound
from ..services.snapshots import GameSnapshot
from .htmx import render, see_other

# One summary of a hand for both answers to a save race: this page's and the offline queue's.
from .sync import hand_version

bp = Blueprint("hands", __name__, url_prefix="/games/<int:game_id>/hands")


@bp.get("")
def index(game_id: int) -> str:
    """Every hand of the game with the scores after each; the game page shows the latest few."""
    return render_template("hands/index.html", view=games.load_game(db.session, game_id))


@bp.post("")
def create(game_id: int) -> Response:
    view = games.load_game(db.session, game_id)
    form = HandForm.for_game(view)
    action = request.form.get("action", "save")
    if action != "save":
        form.apply_pad(action)
        return _game(view, form, 200)
    number = _number(form)
    if not form.validate():
        return _game(view, form, 422)
    try:
        view = hands.record_hand(db.session, game_id, number, form.entry(), seen=view)
    except Rejected as rejected:
        form.attach(rejected.problems, number)
        return _game(view, form, 422)
    except Conflict as conflict:
        view = games.load_game(db.session, game_id)
        race = _race(view, number, form)
        if race is None:
            return _game(view, HandForm.for_game(view, formdata=None), 409, conflict.message)
        return _game(view, HandForm.for_game(view, formdata=None), 409, race=race)
    return _saved(view)


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit(game_id: int, number: int) -> Response:
    view = games.load_game(db.session, game_id)
    hand = view.hand(number)
    form = HandForm.for_game(
        view, hand, filled=request.method == "GET", before=games.state_before(view, number)
    )
    status = 200
    action = request.form.get("action", "save")
    if request.method == "POST" and action != "save":
        form.apply_pad(action)
    elif request.method == "POST":
        try:
            if form.validate():
                hands.edit_hand(db.session, game_id, number, form.entry())
                # The game page says which hand changed, as it does after a save.
                return see_other(url_for("games.show", game_id=game_id, updated=number))
        except Rejected as rejected:
            form.attach(rejected.problems, number)
        status = 422
    return render("hands/edit.html", "hands/_form.html", status, view=view, form=form, hand=hand)


@bp.route("/<int:number>/undo", methods=["GET", "POST"])
def undo(game_id: int, number: int) -> Response:
    view = games.load_game(db.session, game_id)
    hand = view.hand(number)
    if request.method == "GET":
        return render("hands/undo.html", "hands/_undo.html", view=view, hand=hand)
    try:
        view = hands.undo_last_hand(db.session, game_id, number)
    except Conflict as conflict:
        return render(
            "hands/undo.html",
            "hands/_undo.html",
            409,
            view=view,
            hand=hand,
            notice=conflict.message,
        )
    # The hand goes back on the pad as it was saved (its cards, typed totals, who went out and
    # the last card, from the server), to be fixed and saved again.
    form = HandForm.for_game(view, hand, filled=True, before=view.state, formdata=None)
    if wants_fragment() and request.headers.get("HX-Target") == "game":
        # The Undo of the "Hand N saved" note: the game goes back in place, the view stays.
        return _game(view, form, 200)
    # A plain post is answered with a redirect, so a reload cannot post the undo again; the
    # game page's address carries the hand for its pad.
    page = url_for("games.show", game_id=game_id)
    return see_other(f"{page}?{urlencode(form.posted_fields())}")


def _game(
    view: GameSnapshot,
    form: HandForm,
    status: int,
    notice: str | None = None,
    saved: int | None = None,
    race: dict | None = None,
) -> Response:
    return render(
        "games/show.html",
        "games/_game.html",
        status,
        view=view,
        form=form,
        notice=notice,
        saved=saved,
        race=race,
        # A finished fixture game offers the league's next fixture (games/_result.html).
        fixture=fixtures.place_of_game(db.session, view.game.id) if view.state.finished else None,
    )


def _saved(view: GameSnapshot) -> Response:
    """After saving: htmx gets the fresh game in place, a browser is sent back to the game page.

    Both say which hand was saved, with a way to undo it: the page through its address, so the
    note stays until the next thing done.
    """
    number = len(view.state.hands)
    if wants_fragment():
        return _game(view, HandForm.for_game(view, formdata=None), 200, saved=number)
    return see_other(url_for("games.show", game_id=view.game.id, saved=number))


def _race(view: GameSnapshot, number: int, form: HandForm) -> dict | None:
    """Another phone's hand `number` beside ours, for the table to keep one; None where no other
    phone recorded it (the game ended) or ours says too little to show (no one went out).

    `fields` are ours as posted, for "Use ours" to post again as an edit of their hand.
    """
    entry = form.entry()
    try:
        stored = view.hand(number)
    except NotFound:
        return None
    if entry.went_out is None:
        return None
    return {
        "number": number,
        "theirs": hand_version(view, number, stored.went_out, stored.counts),
        "ours": hand_version(view, number, entry.went_out, entry.counts),
        "fields": [
            (name, value)
            for name, value in request.form.items(multi=True)
            if name not in ("csrf_token", "action")
        ],
    }


def _number(form: HandForm) -> int:
    try:
        return int(form.number.data or 0)
    except ValueError:
        return 0
