"""The standings' statements: a page of a table, each row with its place in the whole table.

All time, a calendar year and a calendar month are kept as rows per player (period_totals, one
index per order): a page is read from the index of its order after the last row shown and
numbered on from its place, so it costs about the same with ten players or a hundred thousand; a
search reads on until it has found a page, then numbers the rows up to the last one found. Other
ranges of days are summed from the kept years and months they hold whole and the results at their
edges, and a league's table from its own games' results: summed, sorted and ranked in one
statement, they cost in proportion to the rows summed.

Orders are those of services.standings.sort_rows: the column, then the better rated, then the
name's key (unique, so no two rows tie).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    Float,
    Select,
    and_,
    case,
    cast,
    func,
    literal,
    not_,
    or_,
    select,
    union_all,
)
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.expression import FromClause

from ..database import DbSession
from ..models import Fixture, GameResult, PeriodTotal, Player, Season
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
    return laid.single_key if laid.single_key is not None else Parts(laid.keys, laid.edges)


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
    by = [column.desc() if down else column.asc() for column, down in order]
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
        .order_by(
            *(
                getattr(page.c, column.key).desc() if down else getattr(page.c, column.key)
                for column, down in order
            )
        )
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


def summed_page(
    session: DbSession,
    parts: Parts,
    sort: str,
    descending: bool,
    search: str,
    cursor: str | None,
    size: int,
) -> pages.Page[Found]:
    """A page of a table summed from `parts`, ranked in the database, after the place in
    `cursor`."""
    table = _summed(parts, sort, descending)
    read = select(table).order_by(table.c.position).limit(size + 1)
    if search:
        read = read.where(_contains(table.c.name_key, search))
    if cursor:
        (last,) = pages.decode("standings", cursor, (int,))
        read = read.where(table.c.position > last)
    page = read.subquery("page")
    rows = session.execute(
        select(page, Player.name)
        .join(Player, Player.id == page.c.player_id)
        .order_by(page.c.position)
    ).all()
    shown = rows[:size]
    after = pages.encode("standings", [shown[-1].position]) if len(rows) > size else None
    return pages.Page([_found(row, row.position) for row in shown], after)


def _summed(parts: Parts, sort: str, descending: bool):
    """Every row of the table, with its place in the order asked for."""
    kept, result = PeriodTotal, GameResult
    pieces: list[Select] = []
    if parts.keys:
        pieces.append(
            select(
                kept.player_id.label("player_id"),
                kept.name_key.label("name_key"),
                kept.games.label("games"),
                kept.wins.label("wins"),
                kept.points.label("points"),
                kept.hands_won.label("hands_won"),
                kept.last_seq.label("last"),
                kept.mu.label("mu"),
                kept.sigma.label("sigma"),
                kept.change.label("change"),
            ).where(kept.period.in_(parts.keys))
        )
    if parts.edges:
        # Each result is a piece of its own, with the rating after its game.
        edges = (
            select(
                result.player_id.label("player_id"),
                Player.name_key.label("name_key"),
                literal(1).label("games"),
                case((result.won, 1), else_=0).label("wins"),
                result.points_won.label("points"),
                result.hands_won.label("hands_won"),
                result.seq.label("last"),
                result.mu.label("mu"),
                result.sigma.label("sigma"),
                result.change.label("change"),
            )
            .join(Player, Player.id == result.player_id)
            .where(or_(*(period_totals.finished_within(start, end) for start, end in parts.edges)))
        )
        if parts.league_id is not None:
            edges = edges.where(result.game_id.in_(_league_games(parts.league_id)))
        pieces.append(edges)
    every = (pieces[0] if len(pieces) == 1 else union_all(*pieces)).cte("pieces")
    every = every.prefix_with("MATERIALIZED")
    totals = (
        select(
            every.c.player_id,
            func.max(every.c.name_key).label("name_key"),
            func.sum(every.c.games).label("games"),
            func.sum(every.c.wins).label("wins"),
            func.sum(every.c.points).label("points"),
            func.sum(every.c.hands_won).label("hands_won"),
            func.max(every.c.last).label("last"),
        )
        .group_by(every.c.player_id)
        .subquery("totals")
    )
    rated: FromClause
    if parts.league_id is None:
        # The rating after the player's last game of the range: the last piece's.
        rated = every.alias("rated")
        rated_here = and_(rated.c.player_id == totals.c.player_id, rated.c.last == totals.c.last)
        mu, sigma, change = rated.c.mu, rated.c.sigma, rated.c.change
    else:
        # A league's table counts its own games but rates by every game before its end.
        latest = select(func.max(result.seq)).where(result.player_id == totals.c.player_id)
        if parts.rated_before is not None:
            latest = latest.where(result.finished_at < parts.rated_before)
        rated = _RATED_RESULT
        rated_here = and_(
            rated.c.player_id == totals.c.player_id,
            rated.c.seq == latest.correlate(totals).scalar_subquery(),
        )
        mu, sigma, change = rated.c.mu, rated.c.sigma, rated.c.change
    rating = mu - 3 * sigma
    column = {
        "name": totals.c.name_key,
        "games": totals.c.games,
        "wins": totals.c.wins,
        "win_rate": cast(totals.c.wins, Float) / totals.c.games,
        "points": totals.c.points,
        "rating": rating,
    }.get(sort, rating)
    order = [
        column.desc() if descending else column.asc(),
        rating.desc(),
        totals.c.name_key,
    ]
    return (
        select(
            totals.c.player_id,
            totals.c.name_key,
            totals.c.games,
            totals.c.wins,
            totals.c.points,
            totals.c.hands_won,
            mu.label("mu"),
            sigma.label("sigma"),
            change.label("change"),
            func.row_number().over(order_by=order).label("position"),
        )
        .select_from(totals)
        .join(rated, rated_here)
        .subquery("standings")
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
