"""The periods a standings table is kept for, named by a whole number, and how a range of days is
laid out over them.

A player's totals are kept for all time, for each calendar year and for each calendar month they
played in (UTC, as games' times are stored). A period's key says which: 0 is all time, a year is
the year times 100 (2026 is 202600) and a month adds its number (December 2026 is 202612), so the
three kinds never share a key, for any year a date can hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

ALL_TIME = 0
# The kinds of period, each kept for every player who played in one.
KINDS = ("all", "year", "month")


def year_key(year: int) -> int:
    return year * 100


def month_key(year: int, month: int) -> int:
    return year * 100 + month


def keys_of(moment: datetime) -> tuple[int, int, int]:
    """The periods a game finished at `moment` counts in: all time, its year, its month."""
    return ALL_TIME, year_key(moment.year), month_key(moment.year, moment.month)


def kind(key: int) -> str:
    """Which of KINDS the period `key` is."""
    if key == ALL_TIME:
        return "all"
    return "year" if key % 100 == 0 else "month"


def bounds(key: int) -> tuple[datetime | None, datetime | None]:
    """[start, end) of the period `key`; all time is open on both sides."""
    if key == ALL_TIME:
        return None, None
    year, month = divmod(key, 100)
    if month == 0:
        return datetime(year, 1, 1), _next_year(datetime(year, 1, 1))
    start = datetime(year, month, 1)
    return start, _next_month(start)


@dataclass(frozen=True)
class Layout:
    """A range of time as the periods wholly inside it, and the stretches left at its edges.

    Each moment of the range falls in exactly one period of `keys` or one [start, end) of `edges`.
    """

    keys: tuple[int, ...]
    edges: tuple[tuple[datetime, datetime], ...]

    @property
    def single_key(self) -> int | None:
        """The one period the range is, when it is exactly one."""
        return self.keys[0] if len(self.keys) == 1 and not self.edges else None


def layout(start: datetime, end: datetime) -> Layout:
    """[start, end) as whole years, then whole months, then what is left at either edge."""
    keys: list[int] = []
    edges: list[tuple[datetime, datetime]] = []
    moment = start
    while moment < end:
        month_start = moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        if moment == month_start and moment.month == 1 and _next_year(moment) <= end:
            keys.append(year_key(moment.year))
            moment = _next_year(moment)
        elif moment == month_start and _next_month(moment) <= end:
            keys.append(month_key(moment.year, moment.month))
            moment = _next_month(moment)
        else:
            upto = min(_next_month(month_start), end)
            if edges and edges[-1][1] == moment:
                edges[-1] = (edges[-1][0], upto)
            else:
                edges.append((moment, upto))
            moment = upto
    return Layout(tuple(keys), tuple(edges))


def whole_years(first: datetime, last: datetime) -> tuple[datetime, datetime]:
    """From the start of `first`'s year to the end of `last`'s: a range laid out in years."""
    return datetime(first.year, 1, 1), _next_year(datetime(last.year, 1, 1))


def _next_month(month_start: datetime) -> datetime:
    if month_start.month == 12:
        return _next_year(month_start)
    return month_start.replace(month=month_start.month + 1)


def _next_year(year_start: datetime) -> datetime:
    # The last year a date holds ends at its last moment: a range reaching it stays in bounds.
    if year_start.year == datetime.max.year:
        return datetime.max
    return datetime(year_start.year + 1, 1, 1)
