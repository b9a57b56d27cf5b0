"""Periods kept for the standings, and ranges of days laid out over them."""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from scorer.scoring.periods import (
    ALL_TIME,
    Layout,
    bounds,
    keys_of,
    kind,
    layout,
    month_key,
    year_key,
)


def test_a_moment_counts_in_all_time_its_year_and_its_month():
    assert keys_of(datetime(2026, 12, 31, 23, 59)) == (ALL_TIME, 202600, 202612)
    assert bounds(202612) == (datetime(2026, 12, 1), datetime(2027, 1, 1))
    assert bounds(202600) == (datetime(2026, 1, 1), datetime(2027, 1, 1))
    assert bounds(ALL_TIME) == (None, None)


def test_the_kinds_of_period_never_share_a_key():
    years = {year_key(year) for year in range(1, 10_000)}
    months = {month_key(year, month) for year in range(1, 10_000) for month in range(1, 13)}
    assert not years & months and ALL_TIME not in years | months
    # And each key says which kind it is.
    assert kind(ALL_TIME) == "all"
    assert {kind(key) for key in years} == {"year"}
    assert {kind(key) for key in months} == {"month"}


def test_a_range_is_whole_years_then_whole_months_then_its_edges():
    assert layout(datetime(2026, 1, 1), datetime(2027, 1, 1)) == Layout((202600,), ())
    assert layout(datetime(2026, 3, 1), datetime(2026, 4, 1)).single_key == 202603
    assert layout(datetime(2025, 12, 15), datetime(2027, 2, 10)) == Layout(
        (202600, 202701),
        (
            (datetime(2025, 12, 15), datetime(2026, 1, 1)),
            (datetime(2027, 2, 1), datetime(2027, 2, 10)),
        ),
    )
    # Within one month: a single edge, read from the results.
    assert layout(datetime(2026, 3, 2), datetime(2026, 3, 9)) == Layout(
        (), ((datetime(2026, 3, 2), datetime(2026, 3, 9)),)
    )
    assert layout(datetime(2026, 3, 9), datetime(2026, 3, 2)) == Layout((), ())


moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2031, 12, 31))


@given(start=moments, end=moments, probe=moments)
def test_every_moment_of_a_range_is_in_exactly_one_piece(start, end, probe):
    laid = layout(start, end)
    pieces = [bounds(key) for key in laid.keys] + list(laid.edges)
    holding = [(low, high) for low, high in pieces if low <= probe < high]
    assert len(holding) == (1 if start <= probe < end else 0)
    # Together exactly the range, without overlaps; an edge is never a month or more.
    assert sum((high - low for low, high in pieces), timedelta()) == max(end - start, timedelta())
    assert all(high - low < timedelta(days=31) for low, high in laid.edges)


@given(start=moments, end=moments)
def test_a_piece_is_a_period_only_when_wholly_inside(start, end):
    for key in layout(start, end).keys:
        low, high = bounds(key)
        assert start <= low and high <= end
        if key % 100:
            # A month stands alone only when its year is not wholly inside.
            year_low, year_high = bounds(key // 100 * 100)
            assert not (start <= year_low and year_high <= end)
