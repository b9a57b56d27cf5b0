"""Hands a phone kept while the server was out of reach, sent when it answers again.

A phone may send the same waiting hand more than once (it cannot know whether a send that broke
off reached the server), so sending is idempotent by hand number: a hand already stored exactly
as sent is a success. A different hand stored under that number (another phone counted it) is a
conflict, answered with both versions for the table to choose; `replace=1` then makes ours an
edit of that hand. The answers are JSON for the offline queue in app.js, small enough to send a
queue quickly.

A hand names its game twice: by the address, and by the game's key from the page it was counted
on. The key is what keeps a hand counted for a game that was since deleted out of any other game.
A game from before there were keys has none, and neither has a hand queued by a page from then:
they match each other alone, and a game made since (which has a key) refuses such a hand.

It is the game page's own endpoint, not the API's (scorer/api), because it answers to what the
page holds: it takes the pad's form (HandForm, the fields and CSRF token of a plain save) and lets
through whoever may save on that page (a signed-in user, a scorer link's holder, anyone without
an owner). The API takes JSON bodies, speaks for a bearer token without CSRF, and is versioned
under /api/v1 with an OpenAPI document that a change here would have to follow.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException, default_exceptions

from .. import scoring
from ..extensions import db
from ..forms.hands import HAND_WORDS, HandForm
from ..services import games, hands
from ..services.errors import Conflict, NotFound
from ..services.snapshots import GameSnapshot, StoredHand

bp = Blueprint("sync", __name__)

GONE = _l("This game is no longer on the scorer, so the hand was not added to any game.")
TOO_LARGE = _l("This hand is too large for the scorer to take.")
OTHER_GAME = _l(
    "This hand was counted for another game, which is no longer on the scorer. "
    "It was not added to this one."
)


@bp.post("/games/<int:game_id>/hands/<int:number>/sync")
def sync(game_id: int, number: int) -> Response:
    view = games.load_game(db.session, game_id)
    sent_key = request.form.get("game_key", "")
    if not hmac.compare_digest(sent_key.encode(), (view.game.sync_key or "").encode()):
        return _answer(409, "refused", message=str(OTHER_GAME))
    stored = _stored(view, number)
    before = games.state_before(view, number) if stored is not None else None
    form = HandForm.for_game(view, stored, before=before)
    # The address names the hand: a body's own number cannot send it elsewhere.
    form.number.data = str(number)
    if not form.validate():
        return _answer(422, "invalid", errors=_messages(form.errors))
    entry = form.entry()
    if entry.went_out is None:
        return _answer(422, "invalid", errors=[_("Tap who went out.")])
    try:
        if request.form.get("replace") == "1" and stored is not None:
            hands.edit_hand(db.session, game_id, number, entry)
            return _answer(200, "replaced")
        hands.record_hand(db.session, game_id, number, entry)
    except scoring.Rejected as rejected:
        return _answer(422, "invalid", errors=[problem.message for problem in rejected.problems])
    except Conflict as conflict:
        view = games.load_game(db.session, game_id)
        stored = _stored(view, number)
        if stored is None:
            # Not a hand of another phone: the game ended, or an earlier hand is missing.
            return _answer(409, "refused", message=conflict.message)
        if hands.same_hand(stored, entry):
            return _answer(200, "stored", already=True)
        if view.game.abandoned_at is not None:
            # The hand differs, but no choice between the versions can be saved until the game
            # is resumed: say that, not that another phone got there first.
            return _answer(409, "refused", message=conflict.message)
        return _answer(
            409,
            "conflict",
            message=_("Another phone recorded hand %(number)s differently.", number=number),
            theirs=hand_version(view, number, stored.went_out, stored.counts),
            ours=hand_version(view, number, entry.went_out, entry.counts),
        )
    return _answer(200, "stored", already=False)


@bp.errorhandler(NotFound)
def _no_game(_error: NotFound) -> Response:
    # Refused, not "try later": the phone shows it and lets the table drop the hand, where an
    # answer it cannot read would have it sent again for ever.
    return _answer(404, "refused", message=str(GONE))


def _http_error(error: HTTPException) -> Response:
    """Every HTTP error in JSON, as the other answers here. Only a body too large is refused for
    good; the rest carry no status, so the phone sends the hand again later (after a refused
    CSRF token, with the fresh page's)."""
    code = error.code or 500
    if code == 413:
        return _answer(413, "refused", message=str(TOO_LARGE))
    message = error.description if code < 500 else _("Something went wrong on the server.")
    response = jsonify(message=message or error.name)
    response.status_code = code
    return response


# By code, not by class: the app's HTML pages are registered by code, and a code wins over a class.
for _code in default_exceptions:
    bp.register_error_handler(_code, _http_error)


def _stored(view: GameSnapshot, number: int) -> StoredHand | None:
    try:
        return view.hand(number)
    except NotFound:
        return None


def hand_version(
    view: GameSnapshot, number: int, went_out: int, counts: Mapping[int, scoring.Count]
) -> dict[str, str]:
    """A hand in a few words, as the phone lists its waiting hands: "Ann +101"."""
    before = games.state_before(view, number)
    deck = before.rules.deck
    counted = {
        seat: counts[seat].value(deck) if seat in counts else 0
        for seat in before.counted_seats(went_out)
    }
    outcome = scoring.describe_hand(HAND_WORDS, before.rules, view.names, went_out, counted)
    return {"brief": outcome.brief, "detail": outcome.detail}


def _messages(errors: Mapping | list) -> list[str]:
    """Every message of a form's nested errors, in order."""
    if isinstance(errors, Mapping):
        return [message for value in errors.values() for message in _messages(value)]
    return [str(error) for error in errors]


def _answer(status: int, outcome: str, **details: object) -> Response:
    response = jsonify(status=outcome, **details)
    response.status_code = status
    return response
