"""Recording, editing and undoing hands. Every change replays the game's hands through the rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from .. import scoring
from ..database import DbSession
from ..models import Hand, HandCount, utcnow
from .cleanup import refuse_if_abandoned
from .errors import Conflict
from .games import mark_changed
from .snapshots import (
    ChangedReplay,
    GameSnapshot,
    StoredHand,
    changed_replay,
    load_game,
    remember,
)
from .transactions import in_transaction, lock_game

LAST_CARDS = tuple(scoring.LAST_CARDS)


@dataclass(frozen=True)
class HandEntry:
    """A hand as entered at the table: who went out (a seat), counts by seat, last card played."""

    went_out: int | None
    counts: Mapping[int, scoring.Count]
    last_card: str | None = None


def record_hand(
    session: DbSession,
    game_id: int,
    number: int,
    entry: HandEntry,
    *,
    seen: GameSnapshot | None = None,
) -> GameSnapshot:
    """Save hand `number`, which must be the game's next; a second phone saving it gets Conflict.

    `seen` is the game as the caller read it to check the entry; it is used again if no one has
    changed the game since.
    """
    try:
        with in_transaction(session):
            view = _load_for_change(session, game_id, seen)
            after = _recorded(view, number, entry)
            _insert(session, game_id, after.hands[-1])
            after = mark_changed(session, after)
            changed = changed_replay(after)
    except IntegrityError as error:
        raise _already_recorded(number) from error
    remember(session, changed)
    # Record a hand in under 10 ms, BENCHMARKS.md Latency: the saved game is answered from the
    # snapshot just committed (not expired on commit, scorer/extensions.py), not loaded again.
    return after


def _recorded(view: GameSnapshot, number: int, entry: HandEntry) -> GameSnapshot:
    """The game with `entry` added as hand `number`, if the rules and the game's progress allow."""
    if view.state.finished:
        raise Conflict(_("This game is over; no more hands can be recorded."))
    if number < view.state.next_hand_number:
        raise _already_recorded(number)
    if number > view.state.next_hand_number:
        raise Conflict(
            _(
                "Hand %(number)s cannot be recorded yet: the next hand is %(next)s.",
                number=number,
                next=view.state.next_hand_number,
            )
        )
    stored = StoredHand(number, _scoring_hand(entry), _last_card(entry))
    problems = scoring.hand_problems(view.state, stored.facts)
    if problems:
        raise scoring.Rejected(problems)
    return view.with_hands((*view.hands, stored), scoring.play(view.state, stored.facts))


def edit_hand(session: DbSession, game_id: int, number: int, entry: HandEntry) -> GameSnapshot:
    """Replace hand `number`; refused when a later hand would no longer fit the rules."""
    with in_transaction(session):
        view = _load_for_change(session, game_id)
        view.hand(number)
        stored = StoredHand(number, _scoring_hand(entry), _last_card(entry))
        hands = [stored if hand.number == number else hand for hand in view.hands]
        after = view.with_hands(hands, scoring.replay(view.state.rules, [h.facts for h in hands]))
        row = _row(session, game_id, number)
        row.went_out = stored.went_out
        row.last_card = stored.last_card
        row.updated_at = utcnow()
        # The old counts must be gone before the new ones take their (hand, position) places.
        row.counts.clear()
        session.flush()
        row.counts = [HandCount(**values) for values in _count_values(stored.facts)]
        changed = changed_replay(mark_changed(session, after))
    return _committed(session, game_id, changed)


def undo_last_hand(session: DbSession, game_id: int, number: int) -> GameSnapshot:
    """Delete hand `number`, which must still be the last one."""
    with in_transaction(session):
        view = _load_for_change(session, game_id)
        view.hand(number)
        if number != len(view.hands):
            raise Conflict(
                _(
                    "Hand %(number)s is no longer the last hand; only the last can be undone.",
                    number=number,
                )
            )
        hands = view.hands[:-1]
        session.delete(_row(session, game_id, number))
        # The hands before the last one were checked when they were saved, and still fit without it.
        state = scoring.replay(view.state.rules, [hand.facts for hand in hands], check=False)
        changed = changed_replay(mark_changed(session, view.with_hands(hands, state)))
    return _committed(session, game_id, changed)


def _load_for_change(
    session: DbSession, game_id: int, seen: GameSnapshot | None = None
) -> GameSnapshot:
    """The game as it stands now, held until the transaction ends: one change at a time per game."""
    # Locked before anything is read: checked against an earlier read, an edit and an undo of one
    # hand could each pass alone and then clash (a 500, or a deadlock), a version bump be lost, or
    # an edit end the game under a hand saved meanwhile.
    version = lock_game(session, game_id)
    # Record a hand in under 10 ms, BENCHMARKS.md Latency: every change to a game bumps its version
    # under this lock, so a view read at the version the lock holds is the game as it stands.
    if seen is not None and seen.game.id == game_id and seen.version == version:
        refuse_if_abandoned(seen.game)
        return seen
    # Forget what this session read before the lock, so the game is loaded afresh.
    session.expire_all()
    view = load_game(session, game_id)
    refuse_if_abandoned(view.game)
    return view


def _committed(session: DbSession, game_id: int, changed: ChangedReplay) -> GameSnapshot:
    remember(session, changed)
    # Loaded again: one query, and the hands come from the replay just kept.
    return load_game(session, game_id)


def _insert(session: DbSession, game_id: int, stored: StoredHand) -> None:
    # Record a hand in under 10 ms, BENCHMARKS.md Latency: plain INSERTs, not the unit of work.
    hand_id = session.execute(
        insert(Hand)
        .values(
            game_id=game_id,
            number=stored.number,
            went_out=stored.went_out,
            last_card=stored.last_card,
        )
        .returning(Hand.id)
    ).scalar_one()
    counts = [{"hand_id": hand_id, **values} for values in _count_values(stored.facts)]
    if counts:
        session.execute(insert(HandCount.__table__), counts)


def _row(session: DbSession, game_id: int, number: int) -> Hand:
    return session.execute(
        select(Hand).where(Hand.game_id == game_id, Hand.number == number)
    ).scalar_one()


def _already_recorded(number: int) -> Conflict:
    return Conflict(
        _(
            "Hand %(number)s was already recorded, perhaps on another phone. Here it is.",
            number=number,
        )
    )


def _scoring_hand(entry: HandEntry) -> scoring.Hand:
    if entry.went_out is None:
        raise scoring.Rejected([scoring.Problem(_("Tap who went out."), "went_out")])
    return scoring.Hand(entry.went_out, dict(entry.counts), _last_card(entry))


def same_hand(stored: StoredHand, entry: HandEntry) -> bool:
    """Whether saving `entry` would store `stored` again: the same seat out, the same counts (cards
    as cards, totals as totals) and the same last card. A last card the rules do not know is not
    stored, so it is taken as none."""
    return (stored.went_out, dict(stored.counts), stored.last_card) == (
        entry.went_out,
        dict(entry.counts),
        _last_card(entry),
    )


def _last_card(entry: HandEntry) -> str | None:
    return entry.last_card if entry.last_card in LAST_CARDS else None


def _count_values(hand: scoring.Hand) -> list[dict]:
    """A hand's counts as the columns of hand_counts store them, by seat."""
    return [
        {
            "position": seat,
            "cards": " ".join(count.cards) if count.cards is not None else None,
            "points": count.points,
        }
        for seat, count in sorted(hand.counts.items())
    ]
