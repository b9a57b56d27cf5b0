"""The roster: players are matched by name ignoring case, width and characters drawn as nothing,
so the same person is one entry.

Also each entry's counts (games, wins, last played), read in one query for the roster page, the
pickers and the API.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from flask_babel import gettext as _
from sqlalchemy import case, func, select, text
from sqlalchemy.dialects import postgresql, sqlite

from ..database import DbSession
from ..field_rules import clean_name, is_id, name_key
from ..models import GameResult, Player, Seat
from .errors import NotFound


@dataclass(frozen=True)
class RosterEntry:
    """A roster entry with the games it sat in, the ones its side won, and when it last played."""

    player: Player
    games: int
    wins: int
    last_played: datetime | None

    @property
    def archived(self) -> bool:
        return self.player.archived_at is not None


def roster_entries(
    session: DbSession, archived: bool = True, player_id: int | None = None
) -> list[RosterEntry]:
    """The roster with its counts, most often seated first, then by name, in one query.

    Games played count every game sat in, finished or not; only finished games have a winner, and
    their results are stored (services.results) as the hand that ends them is saved.
    """
    seats = select(Seat.player_id, func.count().label("games")).group_by(Seat.player_id)
    results = select(
        GameResult.player_id,
        func.sum(case((GameResult.won, 1), else_=0)).label("wins"),
        func.max(GameResult.finished_at).label("last"),
    ).group_by(GameResult.player_id)
    query = select(Player)
    if player_id is not None:
        query = query.where(Player.id == player_id)
        seats = seats.where(Seat.player_id == player_id)
        results = results.where(GameResult.player_id == player_id)
    if not archived:
        query = query.where(Player.archived_at.is_(None))
    played, won = seats.subquery(), results.subquery()
    games = func.coalesce(played.c.games, 0)
    rows = session.execute(
        query.add_columns(games, func.coalesce(won.c.wins, 0), won.c.last)
        .outerjoin(played, played.c.player_id == Player.id)
        .outerjoin(won, won.c.player_id == Player.id)
        .order_by(games.desc(), Player.name_key)
    ).all()
    return [RosterEntry(*row) for row in rows]


def roster(session: DbSession, archived: bool = False) -> list[Player]:
    """Everyone on the roster, most often seated first, then by name; the archived only if asked."""
    return [entry.player for entry in roster_entries(session, archived)]


def entries_by_name(session: DbSession) -> list[RosterEntry]:
    """Everyone on the roster, archived too, by name."""
    return sorted(roster_entries(session), key=lambda entry: entry.player.name_key)


def roster_entry(session: DbSession, player_id: int) -> RosterEntry:
    """One player's entry; NotFound when there is no such player."""
    if not is_id(player_id):
        raise NotFound(_("There is no such player."))
    found = roster_entries(session, player_id=player_id)
    if not found:
        raise NotFound(_("There is no such player."))
    return found[0]


def load_player(session: DbSession, player_id: int) -> Player:
    if not is_id(player_id):
        raise NotFound(_("There is no such player."))
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound(_("There is no such player."))
    return player


def find_or_add(session: DbSession, names: Sequence[str]) -> list[Player]:
    """The roster entries for `names`, in order, adding those not on the roster yet.

    Two games started at once may both add a name: each insert skips a name already there
    (ON CONFLICT DO NOTHING, after waiting for the other transaction on PostgreSQL), then both
    read the one entry stored, so neither fails and the name is stored once.
    """
    keys = [name_key(name) for name in names]
    known = _by_key(session, keys)
    missing = {key: clean_name(name) for name, key in zip(names, keys, strict=True)}
    for key in known:
        missing.pop(key)
    if missing:
        _lock_roster(session)
        rows = [{"name": name, "name_key": key} for key, name in missing.items()]
        session.execute(_insert(session).values(rows).on_conflict_do_nothing())
        known.update(_by_key(session, list(missing)))
    return [known[key] for key in keys]


# Any number, the same in every process: the PostgreSQL advisory locks for adding to a roster,
# each named by this and its players table. An advisory lock is the whole database's, and a
# roster is its schema's: another schema's roster (another app's, or another test process's)
# must not wait for this one.
ROSTER_LOCK = 0x0_5C0_4E5
_LOCK_ROSTER = text(
    f"SELECT pg_advisory_xact_lock(:space, '{Player.__tablename__}'::regclass::oid::int4)"
).bindparams(space=ROSTER_LOCK)


def _lock_roster(session: DbSession) -> None:
    """One transaction at a time adds names to the roster, until it ends. Without it, two games
    adding Ann and Bob in opposite seat orders would each wait for the name the other added: a
    deadlock. SQLite takes one writer at a time anyway."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(_LOCK_ROSTER)


def _by_key(session: DbSession, keys: list[str]) -> dict[str, Player]:
    found = session.scalars(select(Player).where(Player.name_key.in_(keys)))
    return {player.name_key: player for player in found}


def _insert(session: DbSession) -> postgresql.Insert | sqlite.Insert:
    """An INSERT into players that can skip rows already there, in the database's own words."""
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(Player)
