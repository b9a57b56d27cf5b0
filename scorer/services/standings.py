"""Standings over a period, optionally one league: games, wins, points and rating per player.

Everything comes from the stored results (game_results) in a fixed number of aggregate queries,
however many games were played. Periods are in UTC, as the games' times are stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import Float, Select, Subquery, case, cast, func, select
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from ..database import DbSession
from ..models import Fixture, GameResult, League, Player, Season, utcnow
from ..scoring.ratings import Rating
from ..scoring.standings import WinRate
from . import pages

PERIODS = {"month": "This month", "year": "This year", "all": "All time", "custom": "Dates"}


@dataclass(frozen=True)
class Period:
    """[start, end) in UTC; None leaves that side open."""

    kind: str
    start: datetime | None
    end: datetime | None

    @property
    def label(self) -> str:
        if self.kind == "month" and self.start:
            return self.start.strftime("%B %Y")
        if self.kind == "year" and self.start:
            return str(self.start.year)
        if self.kind == "custom":
            first = self.start.date().isoformat() if self.start else "the start"
            last = (self.end - timedelta(days=1)).date().isoformat() if self.end else "today"
            return f"{first} to {last}"
        return "All time"


def period(
    kind: str, first: date | None = None, last: date | None = None, today: date | None = None
) -> Period:
    """The period a standings page asks for; `first` and `last` are days included (custom only)."""
    today = today or utcnow().date()
    if kind == "month":
        start = datetime(today.year, today.month, 1)
        end = datetime(today.year + today.month // 12, today.month % 12 + 1, 1)
        return Period(kind, start, end)
    if kind == "year":
        return Period(kind, datetime(today.year, 1, 1), datetime(today.year + 1, 1, 1))
    if kind == "custom":
        return Period(
            kind,
            datetime.combine(first, datetime.min.time()) if first else None,
            datetime.combine(last + timedelta(days=1), datetime.min.time()) if last else None,
        )
    return Period("all", None, None)


@dataclass(frozen=True)
class Row(WinRate):
    player_id: int
    name: str
    games: int
    wins: int
    points: int
    hands_won: int
    rating: float | None
    # The rating's change in the player's last game of the period.
    change: float | None
    # The place in the whole table in its order, 1 first; shown as the row's rank.
    position: int = 0


SORTS: dict[str, tuple[str, Callable[[Row], float | str]]] = {
    "name": ("Player", lambda row: row.name.casefold()),
    "games": ("Games", lambda row: row.games),
    "wins": ("Wins", lambda row: row.wins),
    "win_rate": ("Win %", lambda row: row.win_rate),
    "points": ("Points", lambda row: row.points),
    "rating": ("Rating", lambda row: row.rating if row.rating is not None else float("-inf")),
}
DEFAULT_SORT = "rating"
# Rows a page of the table shows before its More link.
PAGE_SIZE = 50


def standings(session: DbSession, span: Period, league_id: int | None = None) -> list[Row]:
    """Everyone who finished a game in `span` (and in the league, if given), best rated first.

    The rating is the one the player had after their last game before the period ended, counting
    every game (ratings are not per league).
    """
    table = _table(span, league_id, DEFAULT_SORT, descending=True)
    return [_row(found) for found in session.execute(select(table).order_by(table.c.position))]


def standings_page(
    session: DbSession,
    span: Period,
    league_id: int | None = None,
    sort: str = DEFAULT_SORT,
    descending: bool = True,
    search: str = "",
    cursor: str | None = None,
    size: int | None = None,
) -> pages.Page[Row]:
    """A page of the table in the order asked for, in one statement whatever the club's size.

    The table is derived (summed per player from the stored results, sorted by any column), so
    it is summed, sorted and ranked in the database and only the page's rows come back. Each row
    keeps its place in the whole table, also when `search` keeps only the names that contain it.
    A page follows the last place shown, from an opaque cursor: a game finished between two pages
    can move players across that place, as it moves them in the table.
    """
    size = size or PAGE_SIZE
    table = _table(span, league_id, sort, descending)
    query = select(table).order_by(table.c.position).limit(size + 1)
    key = pages.search_key(search)
    if key:
        escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(table.c.name_key.like(f"%{escaped}%", escape="\\"))
    if cursor:
        (last,) = pages.decode("standings", cursor, (int,))
        query = query.where(table.c.position > last)
    found = [_row(row) for row in session.execute(query)]
    shown = found[:size]
    after = pages.encode("standings", [shown[-1].position]) if len(found) > size else None
    return pages.Page(shown, after)


def sort_rows(rows: list[Row], key: str, descending: bool) -> list[Row]:
    """Rows by one column, ties by rating then name; unknown columns sort by rating.

    The order the database sorts the table in (_order); kept for lists already in hand.
    """
    _label, column = SORTS.get(key, SORTS[DEFAULT_SORT])
    by_name = sorted(rows, key=lambda row: row.name.casefold())
    by_rating = sorted(by_name, key=SORTS["rating"][1], reverse=True)
    return sorted(by_rating, key=column, reverse=descending)


def _row(found) -> Row:
    return Row(
        found.player_id,
        found.name,
        found.games,
        int(found.wins or 0),
        int(found.points or 0),
        int(found.hands_won or 0),
        Rating(found.mu, found.sigma).ordinal,
        found.change,
        found.position,
    )


def _table(span: Period, league_id: int | None, sort: str, descending: bool) -> Subquery:
    """The whole table as rows with their place in the order asked for, to page and filter."""
    # Summed in one pass over the period's results, a row per player, with the player's last
    # game in it: the rating order (seq) follows the order games finished, and has no ties.
    totals = (
        _within(
            select(
                GameResult.player_id.label("player_id"),
                func.count().label("games"),
                func.sum(case((GameResult.won, 1), else_=0)).label("wins"),
                func.sum(GameResult.points_won).label("points"),
                func.sum(GameResult.hands_won).label("hands_won"),
                func.max(GameResult.seq).label("last"),
            ).group_by(GameResult.player_id),
            span,
            league_id,
        )
        .cte("totals")
        .prefix_with("MATERIALIZED")
    )
    # The rating after the last game before the period's end. Without a league that game is the
    # player's last in the period; a league's table counts its own games but rates by every game.
    last: ColumnElement[Any] = totals.c.last
    if league_id is not None:
        latest = (
            select(func.max(GameResult.seq))
            .where(GameResult.player_id == totals.c.player_id)
            .correlate(totals)
        )
        if span.end is not None:
            latest = latest.where(GameResult.finished_at < span.end)
        last = latest.scalar_subquery()
    rated = aliased(GameResult, name="rated")
    rating = rated.mu - 3 * rated.sigma
    win_rate = cast(totals.c.wins, Float) / totals.c.games
    column = {
        "name": Player.name_key,
        "games": totals.c.games,
        "wins": totals.c.wins,
        "win_rate": win_rate,
        "points": totals.c.points,
        "rating": rating,
    }.get(sort, rating)
    # As sort_rows: the column, then the better rated, then by name; the id settles the rest.
    order = [
        column.desc() if descending else column.asc(),
        rating.desc(),
        Player.name_key,
        Player.id,
    ]
    return (
        select(
            totals.c.player_id,
            Player.name,
            Player.name_key,
            totals.c.games,
            totals.c.wins,
            totals.c.points,
            totals.c.hands_won,
            rated.mu,
            rated.sigma,
            rated.change,
            func.row_number().over(order_by=order).label("position"),
        )
        .select_from(totals)
        .join(rated, (rated.player_id == totals.c.player_id) & (rated.seq == last))
        .join(Player, Player.id == totals.c.player_id)
        .subquery("standings")
    )


def leagues(session: DbSession) -> list[League]:
    """Leagues to filter by, by name."""
    return list(session.scalars(select(League).order_by(League.name, League.id)))


def _within(query: Select, span: Period, league_id: int | None) -> Select:
    if span.start is not None:
        query = query.where(GameResult.finished_at >= span.start)
    if span.end is not None:
        query = query.where(GameResult.finished_at < span.end)
    if league_id is not None:
        league_games = (
            select(Fixture.game_id)
            .join(Season, Season.id == Fixture.season_id)
            .where(Season.league_id == league_id, Fixture.game_id.is_not(None))
        )
        query = query.where(GameResult.game_id.in_(league_games))
    return query
