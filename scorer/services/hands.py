"""Recording, editing and undoing hands. Every change replays the game's hands through the rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import scoring
from ..models import Game, Hand, HandCount, utcnow
from .errors import Conflict
from .games import GameView, hand_of, load_game, mark_changed, rules_of

LAST_CARDS = ("draw2", "wild4")


@dataclass(frozen=True)
class HandEntry:
    """A hand as entered at the table: who went out (a seat), counts by seat, last card played."""

    went_out: int | None
    counts: Mapping[int, scoring.Count]
    last_card: str | None = None


def record_hand(session: Session, game_id: int, number: int, entry: HandEntry) -> GameView:
    """Save hand `number`, which must be the game's next; a second phone saving it gets Conflict."""
    view = _load_for_change(session, game_id)
    if view.state.finished:
        raise Conflict("This game is over; no more hands can be recorded.")
    if number < view.state.next_hand_number:
        raise _already_recorded(number)
    if number > view.state.next_hand_number:
        raise Conflict(
            f"Hand {number} cannot be recorded yet: the next hand is {view.state.next_hand_number}."
        )
    hand = _scoring_hand(entry)
    problems = scoring.hand_problems(view.state, hand)
    if problems:
        raise scoring.Rejected(problems)
    row = Hand(number=number, went_out=hand.went_out, last_card=_last_card(entry))
    row.counts = _count_rows(hand)
    view.game.hands.append(row)
    after = scoring.play(view.state, hand)
    mark_changed(GameView(view.game, after))
    try:
        session.commit()
    except IntegrityError as error:
        session.rollback()
        raise _already_recorded(number) from error
    return GameView(view.game, after)


def edit_hand(session: Session, game_id: int, number: int, entry: HandEntry) -> GameView:
    """Replace hand `number`; refused when a later hand would no longer fit the rules."""
    view = _load_for_change(session, game_id)
    row = view.hand(number)
    hand = _scoring_hand(entry)
    hands = [hand_of(other) if other is not row else hand for other in view.game.hands]
    after = scoring.replay(rules_of(view.game), hands)
    row.went_out = hand.went_out
    row.last_card = _last_card(entry)
    row.updated_at = utcnow()
    # The old counts must be gone before the new ones take their (hand, position) places.
    row.counts.clear()
    session.flush()
    row.counts = _count_rows(hand)
    mark_changed(GameView(view.game, after))
    session.commit()
    return GameView(view.game, after)


def undo_last_hand(session: Session, game_id: int, number: int) -> GameView:
    """Delete hand `number`, which must still be the last one."""
    view = _load_for_change(session, game_id)
    row = view.hand(number)
    if row is not view.game.hands[-1]:
        raise Conflict(f"Hand {number} is no longer the last hand; only the last can be undone.")
    view.game.hands.remove(row)
    after = scoring.replay(rules_of(view.game), [hand_of(hand) for hand in view.game.hands])
    mark_changed(GameView(view.game, after))
    session.commit()
    return GameView(view.game, after)


def _load_for_change(session: Session, game_id: int) -> GameView:
    """The game as it stands now, held until the transaction ends: one change at a time per game."""
    # A write that changes nothing, before anything is read, takes the game's row lock on PostgreSQL
    # and the write lock on SQLite: a second phone waits here, then reads what the first one saved.
    # Checked against an earlier read, an edit and an undo of one hand could each pass alone and
    # then clash (a 500, or a deadlock), a version bump be lost, or an edit end the game under a
    # hand saved meanwhile.
    games = Game.__table__
    session.execute(update(games).where(games.c.id == game_id).values(version=games.c.version))
    # Forget what this session read before the lock, so the game is loaded afresh.
    session.expire_all()
    return load_game(session, game_id)


def _already_recorded(number: int) -> Conflict:
    return Conflict(f"Hand {number} was already recorded, perhaps on another phone. Here it is.")


def _scoring_hand(entry: HandEntry) -> scoring.Hand:
    if entry.went_out is None:
        raise scoring.Rejected([scoring.Problem("Tap who went out.", "went_out")])
    return scoring.Hand(entry.went_out, dict(entry.counts))


def _last_card(entry: HandEntry) -> str | None:
    return entry.last_card if entry.last_card in LAST_CARDS else None


def _count_rows(hand: scoring.Hand) -> list[HandCount]:
    return [
        HandCount(
            position=seat,
            cards=" ".join(count.cards) if count.cards is not None else None,
            points=count.points,
        )
        for seat, count in sorted(hand.counts.items())
    ]
