"""Each player's totals per period follow every change to the results: never a stale row.

After every change (a game finished, a hand edited, the finishing hand undone, a game deleted,
players merged or renamed) the kept rows are compared with the same totals worked out here from
scratch, in Python, from the results as they then stand.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime

import pytest
import sqlalchemy as sa
from factories import entry, make_game, record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.models import GameResult, PeriodTotal, Player, ResultRank
from scorer.scoring import Rejected, periods
from scorer.services import cleanup, games, hands, period_totals, results, roster, standings

MOMENTS = (
    datetime(2025, 12, 31, 23, 59),
    datetime(2026, 1, 1, 0, 0),
    datetime(2026, 1, 20, 18, 30),
    datetime(2026, 2, 10, 12, 0),
    datetime(2027, 3, 5, 9, 0),
)


def kept(session) -> dict[tuple[int, int], tuple]:
    """The rows as stored: (period, player) to their columns."""
    session.expire_all()
    return {
        (row.period, row.player_id): (
            row.name_key,
            row.games,
            row.wins,
            row.win_rate,
            row.points,
            row.hands_won,
            row.last_seq,
            row.mu,
            row.sigma,
            row.change,
            row.rating,
        )
        for row in session.scalars(sa.select(PeriodTotal))
    }


def from_scratch(session) -> dict[tuple[int, int], tuple]:
    """The same rows summed here from every stored result, in the order games finished."""
    names = dict(session.execute(sa.select(Player.id, Player.name_key)).all())
    sums: dict[tuple[int, int], list] = {}
    for result in session.scalars(sa.select(GameResult).order_by(GameResult.seq)):
        for key in periods.keys_of(result.finished_at):
            total = sums.setdefault((key, result.player_id), [0, 0, 0, 0, None])
            total[0] += 1
            total[1] += int(result.won)
            total[2] += result.points_won
            total[3] += result.hands_won
            total[4] = result
    return {
        (key, player): (
            names[player],
            games_played,
            wins,
            wins / games_played,
            points,
            hands_won,
            last.seq,
            last.mu,
            last.sigma,
            last.change,
            last.mu - 3 * last.sigma,
        )
        for (key, player), (games_played, wins, points, hands_won, last) in sums.items()
    }


def ranks(session) -> dict[tuple[int, int], tuple]:
    """Each result's rank row as stored: (seq, player) to its finish, name key, rating and the
    nearest finishes of the player's later results at or after its own and before it."""
    return {
        (row.seq, row.player_id): (
            row.finished_at,
            row.name_key,
            row.rating,
            row.later_finish_at_or_after,
            row.later_finish_before,
        )
        for row in session.scalars(sa.select(ResultRank))
    }


def ranks_from_scratch(session) -> dict[tuple[int, int], tuple]:
    names = dict(session.execute(sa.select(Player.id, Player.name_key)).all())
    stored = list(session.scalars(sa.select(GameResult)))
    found = {}
    for result in stored:
        later = [
            other.finished_at
            for other in stored
            if other.player_id == result.player_id and other.seq > result.seq
        ]
        found[(result.seq, result.player_id)] = (
            result.finished_at,
            names[result.player_id],
            result.mu - 3 * result.sigma,
            min((moment for moment in later if moment >= result.finished_at), default=None),
            max((moment for moment in later if moment < result.finished_at), default=None),
        )
    return found


def assert_up_to_date(session) -> None:
    found, expected = kept(session), from_scratch(session)
    assert found.keys() == expected.keys()
    for key, (name_key, *numbers) in expected.items():
        assert found[key][0] == name_key, key
        assert list(found[key][1:]) == pytest.approx(numbers, rel=1e-12), key
    ranked, results = ranks(session), ranks_from_scratch(session)
    assert ranked.keys() == results.keys()
    for key, (finished_at, name_key, rating, *later) in results.items():
        assert ranked[key][:2] == (finished_at, name_key), key
        assert ranked[key][2] == pytest.approx(rating, rel=1e-12, abs=1e-12), key
        assert list(ranked[key][3:]) == later, key


class Clock:
    """The time games finish at, as the games service reads it."""

    def __init__(self) -> None:
        self.now = MOMENTS[0]

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Iterator[Clock]:
    moment = Clock()
    monkeypatch.setattr(games, "utcnow", moment)
    yield moment


def play(session, clock: Clock, moment: datetime, names: list[str], winner: int = 0) -> int:
    """A game of `names` to 50, won in one hand by seat `winner` at `moment`."""
    clock.now = moment
    game = make_game(session, names, target=50)
    record(session, game, winner, {seat: 30 for seat in range(len(names)) if seat != winner})
    return game.id


def test_a_finished_game_counts_in_all_time_its_year_and_its_month(session, clock):
    play(session, clock, MOMENTS[2], ["Ann", "Bob", "Cat"])
    found = kept(session)
    ann = session.scalar(sa.select(Player.id).where(Player.name == "Ann"))
    assert {key for key, player in found if player == ann} == {0, 202600, 202601}
    assert found[(202601, ann)][1:3] == (1, 1)
    assert_up_to_date(session)


def test_every_change_to_results_leaves_no_stale_total(session, clock):
    first = play(session, clock, MOMENTS[0], ["Ann", "Bob", "Cat"])
    second = play(session, clock, MOMENTS[2], ["Ann", "Bob"], winner=1)
    third = play(session, clock, MOMENTS[3], ["Bob", "Cat", "Dan"], winner=2)
    assert_up_to_date(session)

    # An edit of the oldest game: its winner changes, and every later rating with it.
    before = kept(session)
    hands.edit_hand(session, first, 1, entry(1, {0: 40, 2: 40}))
    assert kept(session) != before
    assert_up_to_date(session)

    # Its finishing hand undone: the game no longer counts anywhere...
    clock.now = MOMENTS[4]
    hands.undo_last_hand(session, first, 1)
    assert_up_to_date(session)
    assert 202512 not in {key for key, _player in kept(session)}
    # ...and finished again later, it counts in the year and month it finished in now.
    record(session, first, 2, {0: 25, 1: 25})
    assert 202703 in {key for key, _player in kept(session)}
    assert_up_to_date(session)

    cleanup.delete_game(session, second)
    assert_up_to_date(session)

    # Dan was also entered as "Daniel": merged, his games and totals are one player's.
    daniel = play(session, clock, MOMENTS[1], ["Daniel", "Ann"])
    dan, daniel_id = (
        session.scalar(sa.select(Player.id).where(Player.name == name))
        for name in ("Dan", "Daniel")
    )
    roster.merge(session, dan, daniel_id)
    assert daniel_id not in {player for _key, player in kept(session)}
    assert_up_to_date(session)

    roster.rename(session, dan, "Danny")
    assert {row[0] for (key, player), row in kept(session).items() if player == dan} == {"danny"}
    assert_up_to_date(session)
    assert third and daniel


def test_a_rebuild_derives_the_same_rows(session, clock):
    play(session, clock, MOMENTS[0], ["Ann", "Bob", "Cat"])
    play(session, clock, MOMENTS[3], ["Ann", "Cat"], winner=1)
    before, ranked = kept(session), ranks(session)
    period_totals.rebuild(session)
    session.commit()
    assert kept(session) == before
    assert ranks(session) == ranked and ranked
    results.rebuild_all(session)
    assert kept(session).keys() == before.keys()
    assert_up_to_date(session)


# Hypothesis plays, edits, undoes and deletes games in any order: every step keeps the totals.

PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve")

steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("play"),
            st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4, unique=True),
            st.integers(0, 3),
            st.sampled_from(MOMENTS),
        ),
        st.tuples(st.just("edit"), st.integers(0, 20), st.integers(0, 3), st.integers(0, 60)),
        st.tuples(st.just("undo"), st.integers(0, 20)),
        st.tuples(st.just("finish"), st.integers(0, 20), st.sampled_from(MOMENTS)),
        st.tuples(st.just("delete"), st.integers(0, 20)),
    ),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=steps)
def test_any_order_of_changes_keeps_every_total_as_from_scratch(session, clock, steps):
    played: list[tuple[int, int]] = []  # (game id, players): games of this example
    for step in steps:
        kind = step[0]
        if kind == "play":
            _kind, names, winner, moment = step
            played.append((play(session, clock, moment, names, winner % len(names)), len(names)))
        elif played:
            game_id, seats = played[step[1] % len(played)]
            view = games.load_game(session, game_id)
            if kind == "edit" and view.state.finished:
                went_out = step[2] % seats
                others = {seat: 50 + step[3] for seat in range(seats) if seat != went_out}
                # Refused when a later hand no longer fits (the game would end at hand 1).
                with contextlib.suppress(Rejected):
                    hands.edit_hand(session, game_id, 1, entry(went_out, others))
            elif kind == "undo" and view.state.finished:
                hands.undo_last_hand(session, game_id, len(view.hands))
            elif kind == "finish" and not view.state.finished:
                clock.now = step[2]
                record(session, game_id, 0, {seat: 30 for seat in range(1, seats)})
            elif kind == "delete":
                cleanup.delete_game(session, game_id)
                played.remove((game_id, seats))
        assert_up_to_date(session)


def test_a_merge_refused_changes_nothing(session, clock):
    play(session, clock, MOMENTS[0], ["Ann", "Bob"])
    before = kept(session)
    with pytest.raises(Rejected):
        roster.merge(session, 1, 2)
    assert kept(session) == before


# Ranges of days other than a kept period are summed from the kept periods and the results at
# their edges: the same table as summing every result in the range.


def summed_here(session, start: datetime | None, end: datetime | None) -> dict[str, tuple]:
    """Games, wins, points, hands won and the rating after the last game, per name, in range."""
    names = dict(session.execute(sa.select(Player.id, Player.name)).all())
    found: dict[str, list] = {}
    for result in session.scalars(sa.select(GameResult).order_by(GameResult.seq)):
        if (start and result.finished_at < start) or (end and result.finished_at >= end):
            continue
        total = found.setdefault(names[result.player_id], [0, 0, 0, 0, 0.0])
        total[0] += 1
        total[1] += int(result.won)
        total[2] += result.points_won
        total[3] += result.hands_won
        total[4] = result.mu - 3 * result.sigma
    return {name: tuple(total) for name, total in found.items()}


@pytest.mark.parametrize(
    ("first", "last"),
    [
        ("2025-12-31", "2025-12-31"),  # a day at a year's edge
        ("2026-01-01", "2026-12-31"),  # exactly a year: read as kept
        ("2026-01-01", "2026-01-31"),  # exactly a month: read as kept
        ("2025-12-15", "2026-02-10"),  # a partial month, a whole one, a partial one
        ("2025-01-01", "2027-03-04"),  # a whole year, whole months, the edge
        (None, "2026-01-31"),  # from the first game
        ("2026-01-02", None),  # to the last game
        ("2027-03-06", None),  # after every game
        ("2026-02-11", "2026-02-01"),  # ends before it starts
    ],
)
def test_a_range_of_days_is_the_sum_of_its_results(session, clock, first, last):
    for moment, names, winner in (
        (MOMENTS[0], ["Ann", "Bob", "Cat"], 0),
        (MOMENTS[1], ["Ann", "Bob"], 1),
        (MOMENTS[2], ["Cat", "Dan"], 0),
        (MOMENTS[2].replace(day=31), ["Ann", "Dan", "Eve"], 2),
        (MOMENTS[3], ["Bob", "Eve"], 1),
        (MOMENTS[4], ["Ann", "Eve"], 0),
    ):
        play(session, clock, moment, names, winner)
    span = standings.period(
        "custom",
        datetime.fromisoformat(first).date() if first else None,
        datetime.fromisoformat(last).date() if last else None,
    )
    table = standings.standings(session, span)
    found = {
        row.name: (row.games, row.wins, row.points, row.hands_won, row.rating) for row in table
    }
    expected = summed_here(session, span.start, span.end)
    assert found.keys() == expected.keys()
    for name, row in expected.items():
        assert found[name] == pytest.approx(row, rel=1e-12), name


@pytest.mark.parametrize("sort", list(standings.SORTS))
@pytest.mark.parametrize("descending", [True, False])
def test_a_summed_range_pages_in_the_same_order(session, clock, sort, descending):
    for moment in MOMENTS[:4]:
        play(session, clock, moment, ["Ann", "Bob", "Cat"], moment.day % 3)
        play(session, clock, moment, ["Dan", "Eve"], moment.month % 2)
    span = standings.period("custom", datetime(2025, 12, 20).date(), datetime(2026, 2, 20).date())
    whole = standings.standings(session, span)
    expected = [row.player_id for row in standings.sort_rows(whole, sort, descending)]
    found, cursor = [], None
    while True:
        page = standings.standings_page(
            session, span, sort=sort, descending=descending, cursor=cursor, size=2
        )
        found += page.items
        if page.next is None:
            break
        cursor = page.next
    assert [row.player_id for row in found] == expected
    assert [row.position for row in found] == list(range(1, len(expected) + 1))
