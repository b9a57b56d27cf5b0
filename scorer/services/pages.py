"""Lists read a page at a time, so a page costs the same with ten players or a hundred thousand.

A page is found by keyset: its rows come after the last row of the page before in the list's own
order (a sort key, then the id), never by an offset. A row added or removed meanwhile moves
nothing: no row is shown twice or skipped. The place is handed out as an opaque cursor.
"""

from __future__ import annotations

import base64
import binascii
import json
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from flask_babel import gettext as _
from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import QueryableAttribute, selectinload
from sqlalchemy.sql.elements import ColumnElement

from ..database import DbSession
from ..field_rules import TEAM_NAME_MAX_LENGTH, has_control_characters, name_key
from ..models import Game, GameResult, Hand, League, Player, Seat
from .errors import ServiceError
from .players import RosterEntry
from .snapshots import with_players

PAGE_SIZE = 50
# The most rows the API hands out at once, whatever `limit` asks: a page stays well under 200 KB.
MAX_PAGE_SIZE = 200
# The players the setup page offers before any name is typed.
SUGGESTIONS = 24
# The players a choice of one (the merge page's) offers at once; a search finds the others.
CHOICES = 100
# The names a league page offers to pick from as a name is typed.
NAMES_OFFERED = 100
# How far back the setup page looks for who plays, and who plays with whom: a bounded read.
RECENT_GAMES = 200
# Games in progress the home page shows before its More link.
PLAYING_SHOWN = 20
# Longer than any name, so a search never cuts one short, and a cursor never needs more.
SEARCH_MAX_LENGTH = TEAM_NAME_MAX_LENGTH
CURSOR_MAX_LENGTH = 2048


class BadCursor(ServiceError):
    """A cursor this server did not hand out (or a list's cursor given to another list)."""

    def __init__(self) -> None:
        super().__init__(_("This place in the list is not valid; start again from the first page."))


T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """Rows of a list, and the cursor of the rows after them (None on the last page)."""

    items: list[T]
    next: str | None


def encode(kind: str, values: Sequence[object]) -> str:
    """An opaque cursor for the row with sort values `values` in list `kind`."""
    text = json.dumps([kind, *values], separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode(kind: str, cursor: str, types: Sequence[type]) -> list:
    """The sort values in `cursor`, checked to be of `types`; BadCursor when they are not."""
    if len(cursor) > CURSOR_MAX_LENGTH:
        raise BadCursor()
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        found = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")).decode())
    except (ValueError, UnicodeError, binascii.Error):
        raise BadCursor() from None
    if (
        not isinstance(found, list)
        or len(found) != len(types) + 1
        or found[0] != kind
        or not all(
            isinstance(value, kind_of) and not isinstance(value, bool)
            for value, kind_of in zip(found[1:], types, strict=True)
        )
    ):
        raise BadCursor()
    return found[1:]


def page_size(limit: int | None) -> int:
    return PAGE_SIZE if limit is None else max(1, min(limit, MAX_PAGE_SIZE))


def _after(
    key: QueryableAttribute[Any],
    id_: QueryableAttribute[int],
    value: object,
    last_id: int,
    descending: bool,
) -> ColumnElement[bool]:
    """Rows after (value, last_id) in the order (key, id), both ascending or both descending.

    Said as a range on the key and then a filter, so that both databases read the key's index
    from that place on: the plain `key > value OR (key = value AND id > last_id)` made
    PostgreSQL read the index from its start.
    """
    if descending:
        return and_(key <= value, or_(key < value, id_ < last_id))
    return and_(key >= value, or_(key > value, id_ > last_id))


def search_key(text: str) -> str:
    """What a search for `text` looks for within roster names' keys: case and width ignored.

    Characters no name may hold (nor a database take, such as NUL) are dropped, not refused: a
    search finds less, it cannot go wrong.
    """
    kept = "".join(char for char in text if not has_control_characters(char))
    # NFKC makes a full-width "Ａｎｎ" the "Ann" it looks like.
    return name_key(unicodedata.normalize("NFKC", kept)) if kept.strip() else ""


def _contains(column: QueryableAttribute[str], key: str) -> ColumnElement[bool]:
    escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return column.like(f"%{escaped}%", escape="\\")


# The roster


def roster_page(
    session: DbSession,
    cursor: str | None = None,
    limit: int | None = None,
    search: str = "",
    archived: bool | None = None,
) -> Page[RosterEntry]:
    """Roster entries by name, with their counts, a page at a time.

    `search` keeps the names that contain it, ignoring case; `archived` keeps only the archived
    (True) or only the others (False); None keeps both.
    """
    size = page_size(limit)
    query = select(Player)
    if archived is not None:
        query = query.where(
            Player.archived_at.is_not(None) if archived else Player.archived_at.is_(None)
        )
    key = search_key(search)
    if key:
        query = query.where(_contains(Player.name_key, key))
    if cursor:
        name_key, last_id = decode("players", cursor, (str, int))
        query = query.where(_after(Player.name_key, Player.id, name_key, last_id, False))
    found = list(session.scalars(query.order_by(Player.name_key, Player.id).limit(size + 1)))
    shown = found[:size]
    entries = entries_for(session, shown)
    next_cursor = None
    if len(found) > size:
        last = shown[-1]
        next_cursor = encode("players", [last.name_key, last.id])
    return Page(entries, next_cursor)


def players_named(session: DbSession, search: str, ids: Sequence[int] = ()) -> list[Player]:
    """Up to CHOICES + 1 players by name, archived too, whose names contain `search` (everyone's
    when it is blank), and the players `ids`, wherever they sort: a choice to pick another
    player from, once the one choosing is left out."""
    query = select(Player).order_by(Player.name_key, Player.id).limit(CHOICES + 1)
    key = search_key(search)
    if key:
        query = query.where(_contains(Player.name_key, key))
    found = list(session.scalars(query))
    named = {player.id for player in found}
    wanted = [player_id for player_id in ids if player_id not in named]
    if wanted:
        found += session.scalars(select(Player).where(Player.id.in_(wanted)))
    return found


def entries_for(session: DbSession, shown: Sequence[Player]) -> list[RosterEntry]:
    """Roster entries of `shown`, in that order, their counts read for those players alone."""
    ids = [player.id for player in shown]
    if not ids:
        return []
    games = dict(
        session.execute(
            select(Seat.player_id, func.count())
            .where(Seat.player_id.in_(ids))
            .group_by(Seat.player_id)
        ).all()
    )
    results = {
        player_id: (wins, last)
        for player_id, wins, last in session.execute(
            select(
                GameResult.player_id,
                func.sum(case((GameResult.won, 1), else_=0)),
                func.max(GameResult.finished_at),
            )
            .where(GameResult.player_id.in_(ids))
            .group_by(GameResult.player_id)
        )
    }
    return [
        RosterEntry(
            player,
            games.get(player.id, 0),
            int(results.get(player.id, (0, None))[0] or 0),
            results.get(player.id, (0, None))[1],
        )
        for player in shown
    ]


def suggested_players(
    session: DbSession, seated: Sequence[str], search: str = "", size: int = SUGGESTIONS
) -> list[Player]:
    """The players a table is likely to pick, for the setup page; the archived only if seated.

    With `search`, the names that contain it, by name. Without, the seated players on the
    roster, then who played most often with them, then who played in the latest games, then the
    rest of the roster by name: `size` besides the seated, each read over a bounded number of
    games.
    """
    active = Player.archived_at.is_(None)
    key = search_key(search)
    if key:
        return list(
            session.scalars(
                select(Player)
                .where(active, _contains(Player.name_key, key))
                .order_by(Player.name_key, Player.id)
                .limit(size)
            )
        )
    # A seated name the form will refuse (one holding NUL, which PostgreSQL cannot even compare)
    # is on no roster.
    keys = list(
        dict.fromkeys(
            name_key(name) for name in seated if name.strip() and not has_control_characters(name)
        )
    )
    found: Iterable[Player] = (
        session.scalars(select(Player).where(Player.name_key.in_(keys))) if keys else []
    )
    chosen = sorted(found, key=lambda player: keys.index(player.name_key))
    skip = [player.id for player in chosen]
    wanted = len(chosen) + size

    def add(query) -> None:
        if len(chosen) >= wanted:
            return
        for player in session.scalars(query.limit(wanted)):
            if player.id not in skip and len(chosen) < wanted:
                chosen.append(player)
                skip.append(player.id)

    if skip:
        their_games = (
            select(Seat.game_id)
            .where(Seat.player_id.in_(skip))
            .order_by(Seat.game_id.desc())
            .limit(RECENT_GAMES)
        )
        add(_players_of(their_games, active).order_by(func.count().desc(), *_LATEST))
    latest = select(Game.id).order_by(Game.id.desc()).limit(RECENT_GAMES)
    add(_players_of(latest, active).order_by(*_LATEST))
    # A new club has few games: the roster by name fills the rest.
    add(select(Player).where(active).order_by(Player.name_key, Player.id))
    return chosen


# Who sat in a game most lately first, then by name.
_LATEST = (func.max(Seat.game_id).desc(), Player.name_key)


def _players_of(games, *where):
    """The players seated in `games` (a query of game ids), one row each."""
    return (
        select(Player)
        .join(Seat, Seat.player_id == Player.id)
        .where(Seat.game_id.in_(games), *where)
        .group_by(Player.id)
    )


# Games and leagues


@dataclass(frozen=True)
class GameRow:
    """A game in a list: who sat where and how far it went, not its hands."""

    id: int
    mode: str
    created_at: datetime
    finished: bool
    abandoned: bool
    players: list[str]
    hand_count: int


def game_page(
    session: DbSession, cursor: str | None = None, limit: int | None = None
) -> Page[GameRow]:
    """Games, the newest first, a page at a time; read as plain rows, in three queries.

    Loading a page of 200 games as mapped objects, with their seats and players, was most of
    the time such a page took.
    """
    size = page_size(limit)
    query = select(
        Game.id, Game.mode, Game.created_at, Game.finished_at, Game.abandoned_at
    ).order_by(Game.id.desc())
    if cursor:
        (last_id,) = decode("games", cursor, (int,))
        query = query.where(Game.id < last_id)
    found = session.execute(query.limit(size + 1)).all()
    shown = found[:size]
    ids = [row.id for row in shown]
    names: dict[int, list[str]] = {game_id: [] for game_id in ids}
    if ids:
        for game_id, name in session.execute(
            select(Seat.game_id, Player.name)
            .join(Player, Player.id == Seat.player_id)
            .where(Seat.game_id.in_(ids))
            .order_by(Seat.game_id, Seat.position)
        ):
            names[game_id].append(name)
    counts = _hand_counts(session, ids)
    rows = [
        GameRow(
            row.id,
            row.mode,
            row.created_at,
            row.finished_at is not None,
            row.abandoned_at is not None,
            names[row.id],
            counts.get(row.id, 0),
        )
        for row in shown
    ]
    next_cursor = encode("games", [shown[-1].id]) if len(found) > size else None
    return Page(rows, next_cursor)


def playing_page(
    session: DbSession, cursor: str | None = None, limit: int | None = None
) -> Page[Game]:
    """Games in progress, the latest played first, with their players, a page at a time.

    A game played between two pages moves to the top, and may be shown twice or not at all
    on the pages still to come: the home page's list follows play, and the top is where that
    game now is.
    """
    size = page_size(limit if limit is not None else PLAYING_SHOWN)
    query = (
        select(Game)
        .where(Game.finished_at.is_(None), Game.abandoned_at.is_(None))
        .options(*with_players())
    )
    if cursor:
        when, last_id = decode("playing", cursor, (str, int))
        try:
            moment = datetime.fromisoformat(when)
        except ValueError:
            raise BadCursor() from None
        query = query.where(_after(Game.updated_at, Game.id, moment, last_id, True))
    found = list(
        session.scalars(query.order_by(Game.updated_at.desc(), Game.id.desc()).limit(size + 1))
        .unique()
        .all()
    )
    shown = found[:size]
    next_cursor = None
    if len(found) > size:
        next_cursor = encode("playing", [shown[-1].updated_at.isoformat(), shown[-1].id])
    return Page(shown, next_cursor)


def _hand_counts(session: DbSession, ids: Sequence[int]) -> dict[int, int]:
    """How many hands each of the games `ids` has, in one query."""
    if not ids:
        return {}
    return dict(
        session.execute(
            select(Hand.game_id, func.count()).where(Hand.game_id.in_(ids)).group_by(Hand.game_id)
        ).all()
    )


def league_page(
    session: DbSession, cursor: str | None = None, limit: int | None = None
) -> Page[League]:
    """Leagues by name, a page at a time."""
    size = page_size(limit)
    query = select(League).options(selectinload(League.seasons))
    if cursor:
        name, last_id = decode("leagues", cursor, (str, int))
        query = query.where(_after(League.name, League.id, name, last_id, False))
    found = list(session.scalars(query.order_by(League.name, League.id).limit(size + 1)))
    shown = found[:size]
    next_cursor = encode("leagues", [shown[-1].name, shown[-1].id]) if len(found) > size else None
    return Page(shown, next_cursor)
