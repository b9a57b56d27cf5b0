"""The standings' statements: a page of a table, each row with its place in the whole table.

All time, a calendar year and a calendar month are kept as rows per player (period_totals, one
index per order): a page is read from the index of its order after the last row shown and
numbered on from its place, so it costs about the same with ten players or a hundred thousand; a
search reads on until it has found a page, then numbers the rows up to the last one found.

Other ranges of days are summed from the kept years and months they hold whole and the results at
their edges. A busy range ranked by rating or by name reads each player's last result in the range
from an index in that order (result_ranks) and sums the page's players alone; searched, it reads on
in that index until it has found a page (on PostgreSQL, past the first SEARCH_WALK rows, it reads
every row the search finds from the index of their names' trigrams instead), then numbers the rows
up to the last one found, so a search costs in proportion to how far into the table its page lies
(the rows before its first row found are counted, not numbered). Ranked by most games, wins or
points, it sums only the players whose all-time total can reach the page, searched or not: whoever
comes before a row found is one of them too. Where an order's first rows are the players on the
least a range allows (one game, no win, no points) or the most (every game won, by win rate), those
players are read the same way as by rating, searched or not, for as long as the page holds only
them; by fewest wins or points, unsearched, the next groups (one win, two...) are read the same way,
each player's number checked as the index is read. Any other page (too far down for the all-time
bound, or among groups too small to find that way), a quiet range and a league's table (summed from
its own games' results) sum every player in one statement: they cost in proportion to the rows
summed.

Orders are those of services.standings.sort_rows: the column, then the better rated, then the
name's key (unique, so no two rows tie).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    ARRAY,
    CompoundSelect,
    Float,
    Integer,
    Select,
    and_,
    case,
    cast,
    exists,
    func,
    literal,
    not_,
    or_,
    select,
    union_all,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.expression import FromClause

from ..database import DbSession
from ..models import Fixture, GameResult, PeriodTotal, Player, ResultRank, Season
from ..scoring import periods
from . import pages, period_totals

DEFAULT_SORT = "rating"
# The result a league table's rating is read from; made once, as it proxies every column.
_RATED_RESULT = GameResult.__table__.alias("rated")


class Found(NamedTuple):
    """A row of a table as read, with its place in the whole table."""

    player_id: int
    name: str
    games: int
    wins: int
    points: int
    hands_won: int
    mu: float
    sigma: float
    change: float
    position: int


def _ordering(by: list[tuple[Any, bool]]) -> list[Any]:
    """ORDER BY clauses for (column, descending) pairs."""
    return [column.desc() if down else column.asc() for column, down in by]


def _found(row: Any, position: int) -> Found:
    """A row read with its player's name, at its place. Sums come back as the database's own
    numbers (PostgreSQL's are decimals), so they are made whole numbers here."""
    return Found(
        row.player_id,
        row.name,
        row.games,
        int(row.wins),
        int(row.points),
        int(row.hands_won),
        row.mu,
        row.sigma,
        row.change,
        position,
    )


@dataclass(frozen=True)
class Parts:
    """What a table is summed from: whole kept periods, and stretches of results (a league's
    results only, when `league_id` is given)."""

    keys: tuple[int, ...]
    edges: tuple[tuple[datetime | None, datetime | None], ...]
    league_id: int | None = None
    # A league's table rates each player as of this moment, counting every game.
    rated_before: datetime | None = None
    # The range [start, end) itself (not a league's): a player's last result in it is the row
    # the table is ranked by when ranked by rating or by name.
    start: datetime | None = None
    end: datetime | None = None


def source(
    session: DbSession, start: datetime | None, end: datetime | None, league_id: int | None
) -> int | Parts | None:
    """The kept period [start, end) is, or the parts to sum it from; None when it holds nothing."""
    if league_id is not None:
        return Parts((), ((start, end),), league_id, end)
    if start is None and end is None:
        return periods.ALL_TIME
    if start is None or end is None:
        # An open side reaches the first or the last game: the range is laid out from the start
        # of the first game's year, or to the end of the last game's.
        first, last = session.execute(
            select(func.min(GameResult.finished_at), func.max(GameResult.finished_at))
        ).one()
        if first is None:
            return None
        lowest, highest = periods.whole_years(first, last)
        start = lowest if start is None else start
        end = highest if end is None else end
    if start >= end:
        return None
    laid = periods.layout(start, end)
    if laid.single_key is not None:
        return laid.single_key
    return Parts(laid.keys, laid.edges, start=start, end=end)


# A kept period.


def kept_page(
    session: DbSession,
    key: int,
    sort: str,
    descending: bool,
    search: str,
    cursor: str | None,
    size: int,
) -> pages.Page[Found]:
    """A page of the kept period `key`; `search` is a search key (pages.search_key)."""
    kept = PeriodTotal
    order = _order(sort, descending)
    by = _ordering(order)
    # The cursor names its table and order: one handed out for another is refused.
    kind = f"standings-{key}-" + "-".join(
        f"{column.key}-{'desc' if down else 'asc'}" for column, down in order
    )
    base = 0
    where = [kept.period == key]
    if cursor:
        base, *values = pages.decode(
            kind, cursor, [int, *(_CURSOR_TYPES[column.key] for column, _ in order)]
        )
        where.append(_after(order, values))
    read = select(kept).where(*where).order_by(*by).limit(size + 1)
    if search:
        read = read.where(_contains(kept.name_key, search))
    page = read.subquery("page")
    rows = session.execute(
        select(page, Player.name)
        .join(Player, Player.id == page.c.player_id)
        .order_by(*_ordering([(page.c[column.key], down) for column, down in order]))
    ).all()
    shown = rows[:size]
    if search and shown:
        # Each row found keeps its place in the whole table: the rows up to the last one found
        # are numbered in the index's order, as they are read.
        last = [getattr(shown[-1], column.key) for column, _ in order]
        numbered = (
            select(kept.name_key, func.row_number().over(order_by=by).label("place"))
            .where(*where, _until(order, last))
            .subquery("numbered")
        )
        places = dict(
            session.execute(
                select(numbered.c.name_key, numbered.c.place).where(
                    numbered.c.name_key.in_([row.name_key for row in shown])
                )
            ).all()
        )
        positions = [base + places[row.name_key] for row in shown]
    else:
        positions = list(range(base + 1, base + len(shown) + 1))
    after = None
    if len(rows) > size:
        after = pages.encode(
            kind, [positions[-1], *(getattr(shown[-1], column.key) for column, _ in order)]
        )
    return pages.Page(
        [_found(row, position) for row, position in zip(shown, positions, strict=True)], after
    )


_CURSOR_TYPES: dict[str, type] = {
    "name_key": str,
    "games": int,
    "wins": int,
    "points": int,
    "win_rate": float,
    "rating": float,
}


def _order(sort: str, descending: bool) -> list[tuple[Any, bool]]:
    """(column, descending) of period_totals to sort by, each order an index's."""
    kept = PeriodTotal
    if sort == "name":
        return [(kept.name_key, descending)]
    columns = {
        "games": kept.games,
        "wins": kept.wins,
        "win_rate": kept.win_rate,
        "points": kept.points,
        "rating": kept.rating,
    }
    if sort not in columns:
        sort, descending = DEFAULT_SORT, True
    if sort == "rating":
        return [(kept.rating, descending), (kept.name_key, False)]
    return [(columns[sort], descending), (kept.rating, True), (kept.name_key, False)]


def _later(order: list[tuple[Any, bool]], values: list) -> ColumnElement[bool]:
    """Rows that come after `values` in `order`."""
    later: ColumnElement[bool] | None = None
    for (column, descending), value in reversed(list(zip(order, values, strict=True))):
        beyond = column < value if descending else column > value
        later = beyond if later is None else or_(beyond, and_(column == value, later))
    assert later is not None
    return later


def _after(order: list[tuple[Any, bool]], values: list) -> ColumnElement[bool]:
    """Rows after `values`: a range on the first column, so that both databases read its index
    from that place on, then the ties after it."""
    first, descending = order[0]
    return and_(first <= values[0] if descending else first >= values[0], _later(order, values))


def _until(order: list[tuple[Any, bool]], values: list) -> ColumnElement[bool]:
    """Rows up to `values`, itself included: a range on the first column, then the ties."""
    first, descending = order[0]
    return and_(
        first >= values[0] if descending else first <= values[0], not_(_later(order, values))
    )


# Summed from parts.

# A range holding fewer results than this is summed whatever its order: reading every player's
# totals in it is then cheaper than walking an index in the order asked for.
BUSY_RANGE = 5_000
# Orders a range of days is read in from each player's last result in it (result_ranks).
_RANKED = ("rating", "name_key")
# Columns no range holds more of than all time does, as no game counts less than nothing (the
# rules refuse a negative count): a busy range ranked by most of one sums only the players whose
# all-time total could reach its page.
_BOUNDED = ("games", "wins", "points")
# The players a bounded page may sum; past this many, every player's totals are summed instead.
BOUNDED_PLAYERS = 20_000


def summed_page(
    session: DbSession,
    parts: Parts,
    sort: str,
    descending: bool,
    search: str,
    cursor: str | None,
    size: int,
) -> pages.Page[Found]:
    """A page of a table summed from `parts`, after the row in `cursor`, each row at its place in
    the whole table.

    Ranked by rating or by name, a busy range of days is read from each player's last result in
    it, in that order (result_ranks), and only the page's players are summed; a search numbers
    the rows up to the last one found (_ranked), which PostgreSQL finds by their names when they
    lie past the first rows of the order (_found_by_name). Ranked by most games, wins or points,
    only the players whose all-time total can reach the page are summed, and numbered for a
    search (_bounded); by fewest games, wins or points, lowest win rate or highest, the players
    on the least or the most a range allows come first, and are numbered among themselves for a
    search (_first_group); unsearched by fewest wins or points, the pages past them too
    (_grouped). Otherwise every player's totals are summed: a page keeps the first `size` rows
    after the cursor's row, and a search numbers the whole table to give each row found its
    place.
    """
    order = _summed_order(sort, descending)
    # The cursor names its order, and holds the last row shown with its place.
    kind = "standings-summed-" + "-".join(
        f"{name}-{'desc' if down else 'asc'}" for name, down in order
    )
    base, values = 0, None
    if cursor:
        base, *values = pages.decode(
            kind, cursor, [int, *(_CURSOR_TYPES[name] for name, _ in order)]
        )
    dialect = session.get_bind().dialect.name
    rows: list[Any] | None = None
    positions: list[int] | None = None
    ranked = all(name in _RANKED for name, _ in order)
    first_group = order[0] in _FIRST_GROUPS
    bounded = order[0][0] in _BOUNDED and order[0][1]
    if parts.league_id is None and (ranked or first_group or bounded) and _busy(session, parts):
        if ranked:
            rows, positions = _ranked(session, parts, order, values, size, search, base)
        elif order[0] in _GROUPED and not search:
            rows = _grouped(session, parts, order, values, size, dialect)
        elif first_group:
            rows, positions = _first_group(
                session, parts, order, values, size, dialect, search, base
            )
        else:
            rows, positions = _bounded(session, parts, order, values, size, dialect, search, base)
    if rows is None:
        rows = _totalled(session, parts, order, values, search, base, size)
    shown = rows[:size]
    if positions is None:
        positions = (
            [row.position for row in shown]
            if search
            else list(range(base + 1, base + len(shown) + 1))
        )
    after = None
    if len(rows) > size:
        last = shown[-1]
        after = pages.encode(kind, [positions[-1], *(_value(last, name) for name, _ in order)])
    return pages.Page(
        [_found(row, position) for row, position in zip(shown, positions, strict=True)], after
    )


def _summed_order(sort: str, descending: bool) -> list[tuple[str, bool]]:
    """(column, descending) of a summed table to sort by: the column, then the better rated,
    then the name's key (unique, so no two rows tie)."""
    if sort == "name":
        return [("name_key", descending)]
    if sort not in ("games", "wins", "win_rate", "points"):
        return [("rating", descending), ("name_key", False)]
    return [(sort, descending), ("rating", True), ("name_key", False)]


def _value(row: Any, name: str) -> object:
    """A row's value in the column `name`, as the database compares it: a win rate is the same
    division of two whole numbers, rounded the same way."""
    if name == "win_rate":
        return int(row.wins) / int(row.games)
    return _CURSOR_TYPES[name](getattr(row, name))


def _busy(session: DbSession, parts: Parts) -> bool:
    """Whether the range holds at least BUSY_RANGE results: counted up to that many only."""
    held = (
        select(GameResult.id)
        .where(period_totals.finished_within(parts.start, parts.end))
        .limit(BUSY_RANGE)
        .subquery("held")
    )
    return (session.scalar(select(func.count()).select_from(held)) or 0) >= BUSY_RANGE


def _last_here(rank: Any, parts: Parts) -> ColumnElement[bool]:
    """Rows of result_ranks (`rank`) that are their player's last result in the range: no later
    result of the player's finished in it, as the nearest later finishes on either side of the
    row's own lie outside it. Told by the row alone, from the index being read."""
    at_or_after, before = rank.later_finish_at_or_after, rank.later_finish_before
    return and_(
        period_totals.within(rank.finished_at, parts.start, parts.end),
        at_or_after.is_(None)
        if parts.end is None
        else or_(at_or_after.is_(None), at_or_after >= parts.end),
        before.is_(None) if parts.start is None else or_(before.is_(None), before < parts.start),
    )


def _ranked(
    session: DbSession,
    parts: Parts,
    order: list[tuple[str, bool]],
    values: list | None,
    size: int,
    search: str,
    base: int,
) -> tuple[list[Any], list[int] | None]:
    """The page's rows ranked by rating or by name: each player's last result in the range, read
    from the index in that order (a search's, on PostgreSQL, by _found_by_name), then the totals
    of the page's players alone; and, for a search, each row's place, numbered in the same order
    up to the last row found."""
    rank = ResultRank
    columns: dict[str, Any] = {"rating": rank.rating, "name_key": rank.name_key}
    by = [(columns[name], down) for name, down in order]
    where = [_last_here(rank, parts)]
    if values is not None:
        where.append(_after(by, values))
    read = select(rank.player_id, *(column for column, _ in by)).where(*where)
    dialect = session.get_bind().dialect.name
    if search and dialect == "postgresql":
        found = _found_by_name(session, read, by, size, search)
    else:
        if search:
            read = read.where(_contains(rank.name_key, search))
        found = session.execute(read.order_by(*_ordering(by)).limit(size + 1)).all()
    if not found:
        return [], None
    ids = [row.player_id for row in found]
    totals = _totals(parts, dialect, ids)
    named = {row.player_id: row for row in _named(session, totals)}
    rows = [named[player_id] for player_id in ids]
    if not search:
        return rows, None
    return rows, _places(session, [_last_here(rank, parts)], by, values, found[:size], base)


# The rows of a range's table in a searched order (by rating or by name) in which PostgreSQL looks
# for a page of the search before it reads the rows the search finds from their names' trigrams.
SEARCH_WALK = 2_000


def _found_by_name(
    session: DbSession, read: Select, by: list[tuple[Any, bool]], size: int, search: str
) -> Sequence[Any]:
    """The first size + 1 rows of `read` (rows of result_ranks: player_id, then the columns of
    `by`) in the order `by` whose name key holds `search`, on PostgreSQL.

    A search finding many players finds a page among the next SEARCH_WALK rows in that order, read
    from its index, and so does any search near the table's end. Past them the search's rows are
    few or lie deep in the table: every row it finds is read from the index of the name keys'
    trigrams (ix_result_ranks_name_trigrams) and sorted, instead of reading on in order through
    every row before them. Asked for the rows in order with a limit, PostgreSQL would walk the
    index of the order, expecting the search's rows to be spread evenly through it; read whole
    first (a materialized CTE), they come from the trigrams (or, without pg_trgm, from one pass
    over the table)."""
    walk = read.order_by(*_ordering(by)).limit(SEARCH_WALK).subquery("walk")
    again = _ordering([(walk.c[column.key], down) for column, down in by])
    found = session.execute(
        select(walk).where(_contains(walk.c.name_key, search)).order_by(*again).limit(size + 1)
    ).all()
    if (
        len(found) > size
        or (session.scalar(select(func.count()).select_from(walk)) or 0) < SEARCH_WALK
    ):
        return found
    hits = (
        read.where(_contains(ResultRank.name_key, search)).cte("hits").prefix_with("MATERIALIZED")
    )
    hit_by = _ordering([(hits.c[column.key], down) for column, down in by])
    return session.execute(select(hits).order_by(*hit_by).limit(size + 1)).all()


def _places(
    session: DbSession,
    where: list[ColumnElement[bool]],
    by: list[tuple[Any, bool]],
    values: list | None,
    shown: Sequence[Any],
    base: int,
) -> list[int]:
    """The place of each row `shown` (player_id, then its values in `by`, read from result_ranks
    where `where` holds, after the cursor's `values`), counting every such row, found by a
    search or not, and nothing past the last one shown.

    The rows up to the first shown are counted, not numbered: a search's rows may lie deep in
    the table, and both databases count rows for a fraction of what numbering them costs. Only
    the rows from the first shown to the last are numbered."""
    rank = ResultRank

    def between(after: list | None, until: list) -> Any:
        stretches = [
            select(rank.player_id, *(column for column, _ in by)).where(*where, *part)
            for part in _stretches(by, after, until)
        ]
        return (stretches[0] if len(stretches) == 1 else union_all(*stretches)).subquery("between")

    first, last = list(shown[0][1:]), list(shown[-1][1:])
    first_place = base + (
        session.scalar(select(func.count()).select_from(between(values, first))) or 0
    )
    if len(shown) == 1:
        return [first_place]
    after_first = between(first, last)
    again = [(after_first.c[column.key], down) for column, down in by]
    numbered = select(
        after_first.c.player_id,
        func.row_number().over(order_by=_ordering(again)).label("place"),
    ).subquery("numbered")
    places = dict(
        session.execute(
            select(numbered.c.player_id, numbered.c.place).where(
                numbered.c.player_id.in_([row.player_id for row in shown[1:]])
            )
        ).all()
    )
    return [first_place, *(first_place + places[row.player_id] for row in shown[1:])]


def _stretches(
    order: list[tuple[Any, bool]], after: list | None, until: list | None
) -> list[list[ColumnElement[bool]]]:
    """The rows after `after` (from the first, when None) up to `until` included (to the last,
    when None) in `order`, as lists of conditions each of which is one range of the order's
    index: ORed into one condition, neither database would know where in the index to stop."""
    if not order:
        # The row itself: past `after` it is not; up to `until` it is.
        return [] if after is not None else [[]]
    (column, descending), rest = order[0], order[1:]

    def before(value: object) -> ColumnElement[bool]:
        return column > value if descending else column < value

    def beyond(value: object) -> ColumnElement[bool]:
        return column < value if descending else column > value

    if after is not None and until is not None and after[0] == until[0]:
        return [[column == after[0], *part] for part in _stretches(rest, after[1:], until[1:])]
    found: list[list[ColumnElement[bool]]] = []
    if after is not None:
        found += [[column == after[0], *part] for part in _stretches(rest, after[1:], None)]
    between = [
        *([beyond(after[0])] if after is not None else []),
        *([before(until[0])] if until is not None else []),
    ]
    found.append(between)
    if until is not None:
        found += [[column == until[0], *part] for part in _stretches(rest, None, until[1:])]
    return found


# The orders whose first rows are the players on the least (or most) anyone can have in a range,
# and what sets those players apart: one game, no win, no points, no game lost.
_FIRST_GROUPS: dict[tuple[str, bool], Any] = {
    ("games", False): 1,
    ("wins", False): 0,
    ("win_rate", False): 0.0,
    ("points", False): 0,
    ("win_rate", True): 1.0,
}


def _first_group(
    session: DbSession,
    parts: Parts,
    order: list[tuple[str, bool]],
    values: list | None,
    size: int,
    dialect: str,
    search: str,
    base: int,
) -> tuple[list[Any] | None, list[int] | None]:
    """The page's rows while they are the players on the least a range allows (one game, no
    win, no points) or the most (every game won): nobody comes before them, and among them the
    better rated come first, then the name, so they are read from each player's last result in
    the range in the index of ratings; and, for a search, each row's place. None when the page
    reaches past them."""
    first = order[0]
    if values is not None and values[0] != _FIRST_GROUPS[first]:
        return None, None
    rank, result = ResultRank, GameResult
    apart: ColumnElement[bool]
    if first[0] == "games":
        earlier = aliased(ResultRank, name="earlier")
        apart = ~exists().where(
            earlier.player_id == rank.player_id,
            earlier.seq < rank.seq,
            period_totals.within(earlier.finished_at, parts.start, parts.end),
        )
    else:
        other = {
            "points": result.points_won > 0,
            "wins": result.won,
            "win_rate": not_(result.won) if first[1] else result.won,
        }[first[0]]
        # Not NOT EXISTS: PostgreSQL would make it an anti-join and, expecting almost every
        # player to have such a result, sum them all instead of walking the index; a look-up of
        # one row is checked for each row read, and the walk stops at the page's end.
        apart = (
            select(literal(1))
            .where(
                result.player_id == rank.player_id,
                period_totals.finished_within(parts.start, parts.end),
                other,
            )
            .limit(1)
            .scalar_subquery()
            .is_(None)
        )
    by: list[tuple[Any, bool]] = [(rank.rating, True), (rank.name_key, False)]
    kept = [_last_here(rank, parts), apart]
    after = None if values is None else values[1:]
    read = select(rank.player_id, rank.rating, rank.name_key).where(*kept)
    if after is not None:
        read = read.where(_after(by, after))
    if search:
        read = read.where(_contains(rank.name_key, search))
    found = session.execute(read.order_by(rank.rating.desc(), rank.name_key).limit(size + 1)).all()
    if len(found) <= size:
        return None, None
    ids = [row.player_id for row in found]
    totals = _totals(parts, dialect, ids)
    named = {row.player_id: row for row in _named(session, totals)}
    rows = [named[player_id] for player_id in ids]
    if not search:
        return rows, None
    # Whoever comes before a row found is one of these players too.
    return rows, _places(session, kept, by, after, found[:size], base)


# Orders read a group of players at a time, each group those on one number (fewest wins or
# points), in the order of ratings: the groups are few and large, so a page is found by reading
# on in the index of ratings, checking each player's number in the range as it is read.
_GROUPED = (("wins", False), ("points", False))
# The rows of the index of ratings a group is looked for in before the page is summed instead:
# a group too small to be found in them is no quicker to find than summing every player.
GROUP_WALK = 1_000
# Groups a page may run into after its cursor's, before it is summed instead.
GROUPS_ON = 2


def _grouped(
    session: DbSession,
    parts: Parts,
    order: list[tuple[str, bool]],
    values: list | None,
    size: int,
    dialect: str,
) -> list[Any] | None:
    """The page's rows by fewest wins or points, read group by group: the players on the
    cursor's number after its row, then those on the next number, each group in the order of
    ratings from each player's last result in the range. None when a group is not found within
    GROUP_WALK rows of the index, or the page runs past GROUPS_ON groups after the cursor's.

    The next number after a group's is the next whole number of wins; of points, after none,
    the fewest points any one result in the range scored, as whoever scored has at least that.
    A group found empty (read to the end of the index) moves on to the number after it."""
    name = order[0][0]
    rank, result = ResultRank, GameResult
    by: list[tuple[Any, bool]] = [(rank.rating, True), (rank.name_key, False)]
    group = _FIRST_GROUPS[order[0]] if values is None else values[0]
    after = None if values is None else values[1:]
    found: list[int] = []
    for _ in range(GROUPS_ON + 1):
        # After the cursor's row as ranges of the index, however many rows share a rating,
        # each read in order up to the walk's end: a limit of their own, or PostgreSQL sorts
        # every row of the range to merge them.
        arms = [
            select(rank.player_id, rank.rating, rank.name_key)
            .where(_last_here(rank, parts), *part)
            .order_by(rank.rating.desc(), rank.name_key)
            .limit(GROUP_WALK)
            .subquery(f"arm_{number}")
            for number, part in enumerate(
                _stretches(by, after, None) if after is not None else [[]]
            )
        ]
        merged = union_all(*(select(arm) for arm in arms)) if len(arms) > 1 else select(arms[0])
        walk = (
            merged.order_by(merged.selected_columns.rating.desc(), merged.selected_columns.name_key)
            .limit(GROUP_WALK)
            .subquery("walked")
        )
        mine = [
            result.player_id == walk.c.player_id,
            period_totals.finished_within(parts.start, parts.end),
        ]
        number = (
            select(func.count()).where(*mine, result.won)
            if name == "wins"
            else select(func.coalesce(func.sum(result.points_won), 0)).where(*mine)
        ).scalar_subquery()
        found += session.scalars(
            select(walk.c.player_id).where(number == group).limit(size + 1 - len(found))
        ).all()
        if len(found) > size:
            break
        if (session.scalar(select(func.count()).select_from(walk)) or 0) >= GROUP_WALK:
            return None
        next_group = _next_number(session, parts, name, group)
        if next_group is None:
            break
        group, after = next_group, None
    else:
        return None
    if not found:
        return []
    totals = _totals(parts, dialect, found)
    named = {row.player_id: row for row in _named(session, totals)}
    return [named[player_id] for player_id in found]


def _next_number(session: DbSession, parts: Parts, name: str, group: int) -> int | None:
    """The least number of wins or points a group after `group`'s can have; None when nobody
    has more than `group`.

    After no points: whoever scored in the range scored at least the fewest points of any one
    of its pieces that scored (a kept period's row, a result at its edges), each read from an
    index in the order of points, or from the few results at the edges."""
    if name == "wins" or group > 0:
        return group + 1
    kept, result = PeriodTotal, GameResult
    fewest: list[Select] = [
        select(kept.points.label("points"))
        .where(kept.period == key, kept.points > 0)
        .order_by(kept.points)
        .limit(1)
        for key in parts.keys
    ]
    fewest += [
        select(func.min(result.points_won).label("points")).where(
            period_totals.finished_within(start, end), result.points_won > 0
        )
        for start, end in parts.edges
    ]
    if not fewest:
        return None
    pieces = union_all(*(select(piece.subquery()) for piece in fewest)).subquery("pieces")
    return session.scalar(select(func.min(pieces.c.points)))


def _bounded(
    session: DbSession,
    parts: Parts,
    order: list[tuple[str, bool]],
    values: list | None,
    size: int,
    dialect: str,
    search: str,
    base: int,
) -> tuple[list[Any] | None, list[int] | None]:
    """The page's rows ranked by most games, wins or points, from the players whose all-time
    total (a bound on any range's) reaches the page; and, for a search, each row's place. None
    when too many players reach it.

    A sample first: the players (found by the search, if any) with the highest all-time totals
    not above the cursor's, summed over the range. The page's last row in the sample holds a
    total `floor` that the page's last row in the whole table cannot be below, as the sample is
    part of the table; so every row of the page is a player whose all-time total is at least
    `floor`, and only those are summed. A row found by a search is numbered among every player
    whose all-time total reaches the page's lowest: whoever comes before it is one of them. A
    later searched page tries its cursor's own total as the floor before any sample is summed,
    and needs none when it finds a whole page at or above it.
    """
    name = order[0][0]
    kept = PeriodTotal
    bound = getattr(kept, name)

    def searched_from(tried: object) -> list[Any] | None:
        """The page's rows, each with its place, of the players whose all-time total reaches
        `tried`, when the page lies at or above it; None when too many players reach it."""
        everyone = _reaching(
            session,
            select(kept.player_id).where(kept.period == periods.ALL_TIME, bound >= tried),
            kept.name_key,
        )
        if everyone is None:
            return None
        summed = _totals(parts, dialect, select(everyone.c.player_id), everyone)
        # Rows below the floor come after the whole page: they need no number.
        bounded = select(summed).where(summed.c[name] >= tried).subquery("bounded")
        return _totalled(session, parts, order, values, search, base, size, bounded)

    tried_cursor: list[Any] | None = None
    if search and values is not None:
        # A later page first tries the cursor's own total as its floor, before any sample: far
        # fewer players reach it, and when a whole page is found at or above it, it is the page,
        # as every row below comes after.
        tried_cursor = searched_from(values[0])
        if tried_cursor is None:
            return None, None
        if len(tried_cursor) > size:
            return tried_cursor, None
    candidates = select(kept.player_id).where(kept.period == periods.ALL_TIME)
    if search:
        candidates = candidates.where(_contains(kept.name_key, search))
    sample = candidates
    if values is not None:
        sample = sample.where(bound <= values[0])
    sample = sample.order_by(bound.desc(), kept.rating.desc(), kept.name_key).limit(4 * (size + 1))
    totals = _totals(parts, dialect, sample)
    columns = _columns(totals)
    by = [(columns[key], down) for key, down in order]
    read = select(columns[name]).order_by(*_ordering(by))
    if values is not None:
        read = read.where(_after(by, values))
    floor = session.scalar(read.offset(size).limit(1))
    if search and floor is not None:
        # Whoever comes before a row of the page is at least at the floor too: the page and its
        # places are read from those players' totals alone, in one statement.
        if tried_cursor is not None and values is not None and values[0] == floor:
            return tried_cursor, None
        return searched_from(floor), None
    if floor is None:
        # Too few in the sample to bound the page: it may hold every candidate left, as when a
        # search finds few.
        floor = 0
    reaching = _reaching(session, candidates.where(bound >= floor), kept.name_key)
    if reaching is None:
        return None, None
    rows = _page_of(session, parts, order, values, size, dialect, reaching, floor)
    if not search or not rows:
        return rows, None
    shown = rows[:size]
    everyone = select(kept.player_id).where(
        kept.period == periods.ALL_TIME, bound >= getattr(shown[-1], name)
    )
    around = _reaching(session, everyone, kept.name_key)
    if around is None:
        return None, None
    totals = _totals(parts, dialect, select(around.c.player_id), around)
    columns = _columns(totals)
    by = [(columns[key], down) for key, down in order]
    numbered = select(
        totals.c.player_id,
        func.row_number().over(order_by=_ordering(by)).label("place"),
    )
    if values is not None:
        numbered = numbered.where(_after(by, values))
    places = numbered.subquery("numbered")
    found = dict(
        session.execute(
            select(places.c.player_id, places.c.place).where(
                places.c.player_id.in_([row.player_id for row in shown])
            )
        ).all()
    )
    return rows, [base + found[row.player_id] for row in shown]


def _reaching(session: DbSession, players: Select, name_key: Any) -> Any | None:
    """`players` (ids of all-time rows) with their names' keys, read once; None when there are
    more than BOUNDED_PLAYERS of them."""
    many = select(func.count()).select_from(players.limit(BOUNDED_PLAYERS + 1).subquery())
    if (session.scalar(many) or 0) > BOUNDED_PLAYERS:
        return None
    return (
        players.add_columns(name_key.label("name_key")).cte("reaching").prefix_with("MATERIALIZED")
    )


def _page_of(
    session: DbSession,
    parts: Parts,
    order: list[tuple[str, bool]],
    values: list | None,
    size: int,
    dialect: str,
    reaching: Any,
    floor: object,
) -> list[Any]:
    """The page after the cursor's row of the totals of the players in `reaching`; a row below
    `floor` in the order's column cannot reach the page, and is not sorted."""
    totals = _totals(parts, dialect, select(reaching.c.player_id), reaching)
    columns = _columns(totals)
    by = [(columns[key], down) for key, down in order]
    read = select(totals).where(columns[order[0][0]] >= floor).order_by(*_ordering(by))
    if values is not None:
        read = read.where(_after(by, values))
    page = read.limit(size + 1).subquery("page")
    again = _columns(page)
    return _named(session, page, _ordering([(again[key], down) for key, down in order]))


def _totalled(
    session: DbSession,
    parts: Parts,
    order: list[tuple[str, bool]],
    values: list | None,
    search: str,
    base: int,
    size: int,
    totals: FromClause | None = None,
) -> list[Any]:
    """The page's rows of every player's totals (or of `totals`, when given, which must hold
    every row up to the page's last): the first `size` after the cursor's row, or the rows a
    search finds, each numbered in the whole table."""
    if totals is None:
        totals = _totals(parts, session.get_bind().dialect.name)
    columns = _columns(totals)
    by = [(columns[name], down) for name, down in order]
    read: Select
    if search:
        numbered = select(
            totals,
            func.row_number().over(order_by=_ordering(by)).label("position"),
        ).subquery("numbered")
        read = select(numbered).where(
            _contains(numbered.c.name_key, search), numbered.c.position > base
        )
        read = read.order_by(numbered.c.position)
    else:
        read = select(totals).order_by(*_ordering(by))
        if values is not None:
            read = read.where(_after(by, values))
    page = read.limit(size + 1).subquery("page")
    again = _columns(page)
    return _named(
        session,
        page,
        [page.c.position] if search else _ordering([(again[name], down) for name, down in order]),
    )


def _columns(totals: FromClause) -> dict[str, ColumnElement[Any]]:
    """The columns of summed totals a table sorts by."""
    return {
        "name_key": totals.c.name_key,
        "games": totals.c.games,
        "wins": totals.c.wins,
        "win_rate": cast(totals.c.wins, Float) / totals.c.games,
        "points": totals.c.points,
        "rating": totals.c.rating,
    }


def _named(
    session: DbSession, totals: FromClause, ordered: list[ColumnElement[Any]] | None = None
) -> list[Any]:
    """The rows of `totals` with each player's name, and the mu, sigma and change of the result
    their rating is read from."""
    rated = _RATED_RESULT
    read = (
        select(totals, Player.name, rated.c.mu, rated.c.sigma, rated.c.change)
        .join(Player, Player.id == totals.c.player_id)
        .join(rated, and_(rated.c.player_id == totals.c.player_id, rated.c.seq == totals.c.last))
    )
    return list(session.execute(read.order_by(*ordered) if ordered else read).all())


def _pieces(parts: Parts, player_ids: list[int] | Any | None) -> Select | CompoundSelect:
    """What each player's totals are summed from: their rows of the whole kept periods, and each
    result at the edges (of `player_ids` alone, when given), with the seq of its last game and
    the rating after it. One statement per edge: a single range of finishes, which both
    databases read from a player's results in the index of their totals."""
    kept, result = PeriodTotal, GameResult
    pieces: list[Select] = []
    if parts.keys:
        rows = select(
            kept.player_id.label("player_id"),
            kept.games.label("games"),
            kept.wins.label("wins"),
            kept.points.label("points"),
            kept.hands_won.label("hands_won"),
            kept.last_seq.label("last"),
            kept.rating.label("rating"),
        ).where(
            kept.period.in_(parts.keys),
            # The same rows as a range of a player's index, which PostgreSQL reads from the
            # first key on instead of reading every period of the player's and filtering.
            kept.period.between(min(parts.keys), max(parts.keys)),
        )
        if isinstance(player_ids, FromClause):
            rows = rows.join(player_ids, player_ids.c.player_id == kept.player_id)
        elif player_ids is not None:
            rows = rows.where(kept.player_id.in_(player_ids))
        pieces.append(rows)
    for start, end in parts.edges:
        edge = select(
            result.player_id.label("player_id"),
            literal(1).label("games"),
            case((result.won, 1), else_=0).label("wins"),
            result.points_won.label("points"),
            result.hands_won.label("hands_won"),
            result.seq.label("last"),
            (result.mu - 3 * result.sigma).label("rating"),
        ).where(period_totals.finished_within(start, end))
        if parts.league_id is not None:
            edge = edge.where(result.game_id.in_(_league_games(parts.league_id)))
        if isinstance(player_ids, FromClause):
            edge = edge.join(player_ids, player_ids.c.player_id == result.player_id)
        elif player_ids is not None:
            edge = edge.where(result.player_id.in_(player_ids))
        pieces.append(edge)
    return pieces[0] if len(pieces) == 1 else union_all(*pieces)


def _totals(
    parts: Parts,
    dialect: str,
    player_ids: list[int] | Any | None = None,
    names: FromClause | None = None,
) -> FromClause:
    """Each player's totals (of `player_ids` alone, when given): games, wins, points, hands won,
    the rating and the seq of the result it is read from, and the name's key (from `names`, a
    player_id and name_key of each player, when given; else from players)."""
    # PostgreSQL joins the pieces to `names`, whose players are each there once, rather than
    # look each up in it, which it did by making them unique again for every piece. SQLite looks
    # them up: joined, its plan took six times as long.
    joined = names is not None and dialect == "postgresql"
    every = _pieces(parts, names if joined else player_ids).subquery("pieces")
    sums = [
        func.sum(every.c.games).label("games"),
        func.sum(every.c.wins).label("wins"),
        func.sum(every.c.points).label("points"),
        func.sum(every.c.hands_won).label("hands_won"),
    ]
    named = [Player.name_key, Player.id] if names is None else [names.c.name_key, names.c.player_id]
    source = Player if names is None else names
    if parts.league_id is not None:
        # A league's table counts its own games but rates by every game before its end.
        totals = select(every.c.player_id, *sums).group_by(every.c.player_id).subquery("league")
        result, rated = GameResult, _RATED_RESULT
        latest = select(func.max(result.seq)).where(result.player_id == totals.c.player_id)
        if parts.rated_before is not None:
            latest = latest.where(result.finished_at < parts.rated_before)
        return (
            select(
                totals,
                named[0],
                (rated.c.mu - 3 * rated.c.sigma).label("rating"),
                rated.c.seq.label("last"),
            )
            .join(source, named[1] == totals.c.player_id)
            .join(
                rated,
                and_(
                    rated.c.player_id == totals.c.player_id,
                    rated.c.seq == latest.correlate(totals).scalar_subquery(),
                ),
            )
            .subquery("totals")
        )
    grouped: FromClause
    rating: ColumnElement[Any]
    last: ColumnElement[Any]
    if dialect != "postgresql":
        # The rating after the player's last game of the range, in the same pass as the sums:
        # SQLite gives a group's other columns from the row holding its one max().
        grouped = (
            select(every.c.player_id, *sums, every.c.rating, func.max(every.c.last).label("last"))
            .group_by(every.c.player_id)
            .subquery("grouped")
        )
        rating, last = grouped.c.rating, grouped.c.last
    else:
        # PostgreSQL: the greatest [seq, rating] pair of the player's pieces.
        pair = func.max(
            postgresql.array([cast(every.c.last, Float), every.c.rating]), type_=ARRAY(Float)
        ).label("latest")
        grouped = (
            select(every.c.player_id, *sums, pair).group_by(every.c.player_id).subquery("grouped")
        )
        rating, last = grouped.c.latest[2], cast(grouped.c.latest[1], Integer)
    # The name's key after the sums: one look-up a player, not one a piece.
    return (
        select(
            grouped.c.player_id,
            named[0],
            *(grouped.c[name] for name in ("games", "wins", "points", "hands_won")),
            rating.label("rating"),
            last.label("last"),
        )
        .join(source, named[1] == grouped.c.player_id)
        .subquery("totals")
    )


def _league_games(league_id: int) -> Select:
    return (
        select(Fixture.game_id)
        .join(Season, Season.id == Fixture.season_id)
        .where(Season.league_id == league_id, Fixture.game_id.is_not(None))
    )


def _contains(column: Any, key: str) -> ColumnElement[bool]:
    escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return column.like(f"%{escaped}%", escape="\\")
