"""How a change is written: one transaction, committed whole or rolled back whole, and row locks.

Every change a service makes runs inside `in_transaction`, so no view has to clean up after a
refusal: a Rejected, a Conflict or a database error rolls back whatever was written before it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Table, update

from ..database import DbSession
from ..models import Fixture, Game, RatingClock


@contextmanager
def in_transaction(session: DbSession) -> Iterator[DbSession]:
    """Commit what the block wrote when it ends; roll it all back if anything is raised."""
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise


def lock_game(session: DbSession, game_id: int) -> int | None:
    """Hold the game's row until the transaction ends: one change at a time per game.

    The game's version as the lock holds it, or None when there is no such game.
    """
    return _lock(session, Game.__table__, game_id, "version")


def lock_fixture(session: DbSession, fixture_id: int) -> None:
    """Hold the fixture's row until the transaction ends, so two phones starting it share a game."""
    _lock(session, Fixture.__table__, fixture_id, "game_id")


def lock_rating_clock(session: DbSession, clock_id: int) -> int | None:
    """Hold the one-row rating clock until the transaction ends; its last seq, None if unset."""
    return _lock(session, RatingClock.__table__, clock_id, "last_seq")


def _lock(session: DbSession, table: Table, row_id: int, column: str) -> Any:
    # A write that changes nothing, done before anything is read, takes the row's lock on
    # PostgreSQL and the database's write lock on SQLite: a second writer waits here, then reads
    # what the first one committed. SELECT … FOR UPDATE would do on PostgreSQL, but SQLite has none.
    return session.execute(
        update(table)
        .where(table.c.id == row_id)
        .values({column: table.c[column]})
        .returning(table.c[column])
    ).scalar()
