"""Standings over a period, optionally one league: games, wins, points and rating per player.

Everything comes from the stored results (game_results), and each player's totals kept from them
per period (period_totals), in a fixed number of queries however many games were played. Periods
are in UTC, as the games' times are stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import NamedTuple

from babel.dates import format_date, format_skeleton
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from ..database import DbSession
from ..models import League, utcnow
from ..scoring.ratings import Rating
from ..scoring.standings import WinRate
from . import pages
from . import standings_tables as tables

PERIODS = {
    "month": _l("This month"),
    "year": _l("This year"),
    "all": _l("All time"),
    "custom": _l("Dates"),
}


@dataclass(frozen=True)
class Period:
    """[start, end) in UTC; None leaves that side open."""

    kind: str
    start: datetime | None
    end: datetime | None

    @property
    def label(self) -> str:
        """The period in the reader's language: "December 2026", "2026", a range of days."""
        locale = get_locale() or "en"
        if self.kind == "month" and self.start:
            # The month and year as the reader's language writes them ("2026년 12월" in Korean).
            return format_skeleton("yMMMM", self.start, locale=locale)
        if self.kind == "year" and self.start:
            return str(self.start.year)
        if self.kind == "custom":
            first = self.start and format_date(self.start, "medium", locale=locale)
            last = self.end and format_date(self.end - timedelta(days=1), "medium", locale=locale)
            if first and last:
                return _("%(first)s to %(last)s", first=first, last=last)
            if first:
                return _("%(first)s to today", first=first)
            if last:
                return _("the start to %(last)s", last=last)
            return _("the start to today")
        return _("All time")


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


class LeagueChoice(NamedTuple):
    id: int
    name: str


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
    "name": (_l("Player"), lambda row: row.name.casefold()),
    "games": (_l("Games"), lambda row: row.games),
    "wins": (_l("Wins"), lambda row: row.wins),
    "win_rate": (_l("Win %"), lambda row: row.win_rate),
    "points": (_l("Points"), lambda row: row.points),
    "rating": (_l("Rating"), lambda row: row.rating if row.rating is not None else float("-inf")),
}
DEFAULT_SORT = tables.DEFAULT_SORT
# Rows a page of the table shows before its More link.
PAGE_SIZE = 50
# A page holding every row: the whole table at once, for lists already in hand.
WHOLE_TABLE = 1_000_000_000


def standings(session: DbSession, span: Period, league_id: int | None = None) -> list[Row]:
    """Everyone who finished a game in `span` (and in the league, if given), best rated first.

    The rating is the one the player had after their last game before the period ended, counting
    every game (ratings are not per league).
    """
    return standings_page(session, span, league_id, DEFAULT_SORT, True, size=WHOLE_TABLE).items


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
    """A page of the table in the order asked for; each row keeps its place in the whole table,
    also when `search` keeps only the names that contain it.

    A page follows the last place shown, from an opaque cursor: a game finished between two pages
    can move players across that place, as it moves them in the table. What a page costs:
    services.standings_tables.
    """
    size = size or PAGE_SIZE
    key = pages.search_key(search)
    source = tables.source(session, span.start, span.end, league_id)
    if source is None:
        return pages.Page([], None)
    if isinstance(source, int):
        found = tables.kept_page(session, source, sort, descending, key, cursor, size)
    else:
        found = tables.summed_page(session, source, sort, descending, key, cursor, size)
    return pages.Page([_row(row) for row in found.items], found.next)


def sort_rows(rows: list[Row], key: str, descending: bool) -> list[Row]:
    """Rows by one column, ties by rating then name; unknown columns sort by rating.

    The order the database sorts the table in (_order); kept for lists already in hand.
    """
    _label, column = SORTS.get(key, SORTS[DEFAULT_SORT])
    by_name = sorted(rows, key=lambda row: row.name.casefold())
    by_rating = sorted(by_name, key=SORTS["rating"][1], reverse=True)
    return sorted(by_rating, key=column, reverse=descending)


def _row(found: tables.Found) -> Row:
    return Row(
        found.player_id,
        found.name,
        found.games,
        found.wins,
        found.points,
        found.hands_won,
        Rating(found.mu, found.sigma).ordinal,
        found.change,
        found.position,
    )


# The leagues the filter offers: a club may have thousands, and listing every one in every
# standings page cost 85 KB and 15-20 ms with 2,000 of them.
LEAGUE_CHOICES = 30


@dataclass(frozen=True)
class LeagueChoices:
    """Leagues to filter by, by name; `more` when the club has others (the leagues' page lists
    them all, and each league's page links to its standings)."""

    leagues: list[LeagueChoice]
    more: bool


def leagues(session: DbSession, chosen: int | None = None) -> LeagueChoices:
    """The newest LEAGUE_CHOICES leagues, and the chosen one (if it exists) when it is older."""
    newest = list(
        session.execute(
            select(League.id, League.name).order_by(League.id.desc()).limit(LEAGUE_CHOICES + 1)
        )
    )
    more = len(newest) > LEAGUE_CHOICES
    found = [LeagueChoice(*row) for row in newest[:LEAGUE_CHOICES]]
    if chosen is not None and all(league.id != chosen for league in found):
        found += [
            LeagueChoice(*row)
            for row in session.execute(select(League.id, League.name).where(League.id == chosen))
        ]
    return LeagueChoices(
        sorted(found, key=lambda league: (league.name.casefold(), league.id)), more
    )
