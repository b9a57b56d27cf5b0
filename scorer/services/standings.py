"""Standings over a period, optionally one league: games, wins, points and rating per player.

Everything comes from the stored results (game_results) in a fixed number of aggregate queries,
however many games were played. Periods are in UTC, as the games' times are stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import Select, case, func, select

from ..database import DbSession
from ..models import Fixture, GameResult, League, Player, Season, utcnow
from ..scoring.ratings import Rating
from ..scoring.standings import WinRate

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


SORTS: dict[str, tuple[str, Callable[[Row], float | str]]] = {
    "name": ("Player", lambda row: row.name.casefold()),
    "games": ("Games", lambda row: row.games),
    "wins": ("Wins", lambda row: row.wins),
    "win_rate": ("Win %", lambda row: row.win_rate),
    "points": ("Points", lambda row: row.points),
    "rating": ("Rating", lambda row: row.rating if row.rating is not None else float("-inf")),
}
DEFAULT_SORT = "rating"


def standings(session: DbSession, span: Period, league_id: int | None = None) -> list[Row]:
    """Everyone who finished a game in `span` (and in the league, if given), best rated first.

    The rating is the one the player had after their last game before the period ended, counting
    every game (ratings are not per league).
    """
    # Summed from one covering index; names come with the ratings, a row per player.
    wins = func.sum(case((GameResult.won, 1), else_=0))
    totals = select(
        GameResult.player_id,
        func.count(),
        wins,
        func.sum(GameResult.points_won),
        func.sum(GameResult.hands_won),
    ).group_by(GameResult.player_id)
    totals = _within(totals, span, league_id)
    # The last game before the period's end, found by time (games are rated in the order they
    # finished) from the covering index rather than by seq from every row.
    latest = select(GameResult.player_id, func.max(GameResult.finished_at).label("at")).group_by(
        GameResult.player_id
    )
    if span.end is not None:
        latest = latest.where(GameResult.finished_at < span.end)
    last = latest.subquery()
    rated = {
        player: (name, Rating(mu, sigma).ordinal, change)
        for player, name, mu, sigma, change in session.execute(
            select(
                GameResult.player_id,
                Player.name,
                GameResult.mu,
                GameResult.sigma,
                GameResult.change,
            )
            .join(
                last,
                (GameResult.player_id == last.c.player_id) & (GameResult.finished_at == last.c.at),
            )
            .join(Player, Player.id == GameResult.player_id)
        )
    }
    rows = [
        Row(
            player,
            rated[player][0],
            games,
            wins or 0,
            points or 0,
            hands or 0,
            *rated[player][1:],
        )
        for player, games, wins, points, hands in session.execute(totals)
    ]
    return sort_rows(rows, DEFAULT_SORT, descending=True)


def sort_rows(rows: list[Row], key: str, descending: bool) -> list[Row]:
    """Rows by one column, ties by rating then name; unknown columns sort by rating."""
    _label, column = SORTS.get(key, SORTS[DEFAULT_SORT])
    by_name = sorted(rows, key=lambda row: row.name.casefold())
    by_rating = sorted(by_name, key=SORTS["rating"][1], reverse=True)
    return sorted(by_rating, key=column, reverse=descending)


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
