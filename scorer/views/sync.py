"""Hands a phone kept while the server was out of reach, sent when it answers again.

A phone may send the same waiting hand more than once (it cannot know whether a send that broke
off reached the server), so sending is idempotent by hand number: a hand already stored exactly
as sent is a success. A different hand stored under that number (another phone counted it) is a
conflict, answered with both versions for the table to choose; `replace=1` then makes ours an
edit of that hand. The answers are JSON for the offline queue in app.js, small enough to send a
queue quickly.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, Response, jsonify, request

from .. import scoring
from ..extensions import db
from ..forms.hands import HAND_WORDS, HandForm
from ..services import games, hands
from ..services.errors import Conflict, NotFound
from ..services.hands import LAST_CARDS, HandEntry
from ..services.snapshots import GameSnapshot, StoredHand

bp = Blueprint("sync", __name__)


@bp.post("/games/<int:game_id>/hands/<int:number>/sync")
def sync(game_id: int, number: int) -> Response:
    view = games.load_game(db.session, game_id)
    stored = _stored(view, number)
    before = games.state_before(view, number) if stored is not None else None
    form = HandForm.for_game(view, stored, before=before)
    # The address names the hand: a body's own number cannot send it elsewhere.
    form.number.data = str(number)
    if not form.validate():
        return _answer(422, "invalid", errors=_messages(form.errors))
    entry = form.entry()
    if entry.went_out is None:
        return _answer(422, "invalid", errors=["Tap who went out."])
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
        if _same(stored, entry):
            return _answer(200, "stored", already=True)
        if view.game.abandoned_at is not None:
            # The hand differs, but no choice between the versions can be saved until the game
            # is resumed: say that, not that another phone got there first.
            return _answer(409, "refused", message=conflict.message)
        return _answer(
            409,
            "conflict",
            message=f"Another phone recorded hand {number} differently.",
            theirs=_version(view, number, stored.went_out, stored.counts),
            ours=_version(view, number, entry.went_out, entry.counts),
        )
    return _answer(200, "stored", already=False)


def _stored(view: GameSnapshot, number: int) -> StoredHand | None:
    try:
        return view.hand(number)
    except NotFound:
        return None


def _same(stored: StoredHand, entry: HandEntry) -> bool:
    last_card = entry.last_card if entry.last_card in LAST_CARDS else None
    return (stored.went_out, dict(stored.counts), stored.last_card) == (
        entry.went_out,
        dict(entry.counts),
        last_card,
    )


def _version(
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
