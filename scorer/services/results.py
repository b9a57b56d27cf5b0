"""Stored results of finished games, and the ratings that follow from them, kept in step with hands.

When a game finishes, every player's part in it (place, points, hands won) is written to
game_results in the same transaction as the hand that ended it, and ratings are brought up to date.
Editing or undoing a hand of a finished game rewrites its results and recomputes every rating from
that game on, in the order games finished (`seq`). Rating changes take the one-row rating clock's
lock first, so two games finishing at once are rated one after the other. Each player's totals per
period (services.period_totals), derived from the results, are rewritten with them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from itertools import groupby
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.orm import selectinload

from .. import scoring
from ..database import DbSession
from ..models import Game, GameResult, RatingClock, Seat
from ..scoring import ratings, standings
from . import period_totals
from .snapshots import GameSnapshot, rules_of, stored_hands
from .transactions import in_transaction, lock_rating_clock

CLOCK_ID = 1
# Games a restore rates from one read of their results: memory holds a batch, not the backup.
RATE_BATCH = 5_000


def game_changed(session: DbSession, view: GameSnapshot, was_finished: bool) -> None:
    """Rewrite a game's results after its hands changed and re-rate from it on; the caller commits.

    Nothing happens for a game that neither was nor is finished, so recording an ordinary hand
    costs no query here.
    """
    if not was_finished and not view.state.finished:
        return
    game = view.game
    # The caller's pending changes (the hand itself) are flushed at its commit; reading here must
    # not flush them early, outside the caller's handling of a hand saved twice.
    with session.no_autoflush:
        last_seq = lock(session)
        old = session.execute(
            select(GameResult.seq, GameResult.finished_at)
            .where(GameResult.game_id == game.id)
            .limit(1)
        ).first()
        old_seq = old.seq if old else None
        if old is not None:
            session.execute(delete(GameResult).where(GameResult.game_id == game.id))
        start = old_seq
        moments = [old.finished_at] if old else []
        seqs = [old.seq] if old else []
        if view.state.finished:
            seq = old_seq
            if seq is None:
                seq = last_seq + 1
                _set_clock(session, seq)
            session.execute(insert(GameResult), result_rows(game, view.state, seq))
            start = seq if start is None else min(start, seq)
            moments.append(game.finished_at)
            seqs.append(seq)
        period_totals.games_changed(session, [seat.player_id for seat in game.seats], moments, seqs)
        if start is not None:
            recompute_from(session, start)


def game_removed(session: DbSession, game_id: int) -> int | None:
    """Take away the results of a game about to be deleted, and its players' totals for the
    periods it finished in; the seq to re-rate from once it is gone (recompute_from), or None when
    it had no results. Takes the rating lock; the caller commits."""
    stored = session.execute(
        select(GameResult.seq, GameResult.finished_at).where(GameResult.game_id == game_id).limit(1)
    ).first()
    if stored is None:
        return None
    lock(session)
    seated = list(
        session.scalars(select(GameResult.player_id).where(GameResult.game_id == game_id))
    )
    session.execute(delete(GameResult).where(GameResult.game_id == game_id))
    period_totals.games_changed(session, seated, [stored.finished_at], [stored.seq])
    return stored.seq


def lock(session: DbSession) -> int:
    """Take the rating lock until the transaction ends; the last seq given out."""
    clock = RatingClock.__table__
    last = lock_rating_clock(session, CLOCK_ID)
    if last is None:
        session.execute(insert(clock).values(id=CLOCK_ID, last_seq=0))
        return 0
    return last


def recompute_from(session: DbSession, start: int) -> None:
    """Rate every stored game with seq >= `start` again, from the ratings just before it, and
    copy the new ratings to the players' totals per period.

    The caller holds the rating lock and commits.
    """
    _rate_from(session, start)
    period_totals.rerated_from(session, start)


def _rate_from(session: DbSession, start: int) -> None:
    before = (
        select(GameResult.player_id, func.max(GameResult.seq).label("seq"))
        .where(GameResult.seq < start)
        .group_by(GameResult.player_id)
        .subquery()
    )
    current = {
        player: ratings.Rating(mu, sigma)
        for player, mu, sigma in session.execute(
            select(GameResult.player_id, GameResult.mu, GameResult.sigma).join(
                before,
                (GameResult.player_id == before.c.player_id) & (GameResult.seq == before.c.seq),
            )
        )
    }
    later = session.execute(
        select(
            GameResult.id, GameResult.seq, GameResult.player_id, GameResult.side, GameResult.place
        )
        .where(GameResult.seq >= start)
        .order_by(GameResult.seq, GameResult.side, GameResult.id)
    ).all()
    updates = rate_in_order(current, later)
    if updates:
        session.execute(update(GameResult), updates)


def rate_in_order(current: dict[int, ratings.Rating], rows: Sequence[Any]) -> list[dict[str, Any]]:
    """The new rating of each result row, game by game in `seq` order, from `current` (each
    player's rating before the first of them, updated as it goes): the rows to write back.

    `rows` carry id, seq, player_id, side and place, ordered by seq, then side, then id."""
    updates = []
    for _seq, game in groupby(rows, key=lambda row: row.seq):
        game_rows = list(game)
        after = ratings.rate(current, _outcome(game_rows))
        for row in game_rows:
            old = current.get(row.player_id, ratings.NEWCOMER)
            new = after[row.player_id]
            change = new.ordinal - old.ordinal
            updates.append({"id": row.id, "mu": new.mu, "sigma": new.sigma, "change": change})
        current.update(after)
    return updates


def rebuild_all(session: DbSession) -> int:
    """Throw away every stored result and rating and derive them again from the hands; commits.

    For a database restored from a backup, or filled by hand. Returns how many games were rated.
    """
    with in_transaction(session):
        return _rebuild_all(session)


def _rebuild_all(session: DbSession) -> int:
    lock(session)
    session.execute(delete(GameResult))
    finished = session.scalars(
        select(Game)
        .where(Game.finished_at.is_not(None))
        .order_by(Game.finished_at, Game.id)
        .options(selectinload(Game.seats))
    ).all()
    hands = stored_hands(session, [game.id for game in finished])
    rows = []
    seq = 0
    for game in finished:
        facts = [hand.facts for hand in hands[game.id][1]]
        state = scoring.replay(rules_of(game), facts, check=False)
        if state.finished:
            seq += 1
            rows += result_rows(game, state, seq)
    if rows:
        session.execute(insert(GameResult), rows)
    _set_clock(session, seq)
    _rate_from(session, 1)
    period_totals.rebuild(session)
    return seq


def rate_restored(
    session: DbSession,
    finishing: list[tuple[datetime, int]],
    progress: Callable[[], None] = lambda: None,
) -> None:
    """Number and rate the results of a restore, whose rows were written unnumbered (seq 0) by
    `result_rows`, then derive the totals per period; the caller commits.

    `finishing` is (finished_at, game id) of every finished game restored, in any order (sorted
    in place, not copied: a restore of a club holds one per game): they are rated in the order
    they finished, RATE_BATCH games read at a time, and `progress` is told after each batch.
    """
    lock(session)
    finishing.sort()
    ordered = finishing
    table = GameResult.__table__
    for first in range(0, len(ordered), RATE_BATCH):
        session.execute(
            update(table)
            .where(table.c.game_id == bindparam("game"))
            .values(seq=bindparam("given")),
            [
                {"game": game_id, "given": seq}
                for seq, (_, game_id) in enumerate(ordered[first : first + RATE_BATCH], first + 1)
            ],
        )
    last = len(ordered)
    _set_clock(session, last)
    current: dict[int, ratings.Rating] = {}
    for first in range(1, last + 1, RATE_BATCH):
        found = session.execute(
            select(
                GameResult.id,
                GameResult.seq,
                GameResult.player_id,
                GameResult.side,
                GameResult.place,
            )
            .where(GameResult.seq >= first, GameResult.seq < first + RATE_BATCH)
            .order_by(GameResult.seq, GameResult.side, GameResult.id)
        ).all()
        updates = rate_in_order(current, found)
        if updates:
            session.execute(update(GameResult), updates)
        progress()
    period_totals.rebuild(session)


def players_games_from(session: DbSession, player_ids: Iterable[int]) -> int | None:
    """The first seq in which any of these players has a result, or None."""
    return session.scalar(
        select(func.min(GameResult.seq)).where(GameResult.player_id.in_(list(player_ids)))
    )


def _set_clock(session: DbSession, seq: int) -> None:
    clock = RatingClock.__table__
    session.execute(update(clock).where(clock.c.id == CLOCK_ID).values(last_seq=seq))


def result_rows(game: Game, state, seq: int) -> list[dict]:
    """The game_results rows of a finished game (`state` its replay), unrated, numbered `seq`."""
    players = [seat.player_id for seat in sorted(game.seats, key=_position)]
    return [
        {
            "game_id": game.id,
            "player_id": players[result.seat],
            "seq": seq,
            "finished_at": game.finished_at,
            "mode": game.mode,
            "side": result.side,
            "place": result.place,
            "won": result.won,
            "score": result.score,
            "hands_won": result.hands_won,
            "points_won": result.points_won,
            "biggest_hand": result.biggest_hand,
            # Placeholders: recompute_from rates the game right after the rows are written.
            "mu": ratings.NEWCOMER.mu,
            "sigma": ratings.NEWCOMER.sigma,
            "change": 0.0,
        }
        for result in standings.seat_results(state)
    ]


def _position(seat: Seat) -> int:
    return seat.position


def _outcome(rows: Sequence) -> ratings.Outcome:
    sides: dict[int, list] = {}
    places: dict[int, int] = {}
    for row in rows:
        sides.setdefault(row.side, []).append(row.player_id)
        places[row.side] = row.place
    order = sorted(sides)
    return ratings.Outcome(
        tuple(tuple(sides[side]) for side in order), tuple(places[side] for side in order)
    )
